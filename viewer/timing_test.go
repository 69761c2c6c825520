package viewer

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cadrun/cadrun/modules"
)

// recorder is an http.ResponseWriter whose body can be read while the handler writes.
type recorder struct {
	mu   sync.Mutex
	h    http.Header
	body strings.Builder
}

func (r *recorder) Header() http.Header { return r.h }
func (r *recorder) WriteHeader(int)     {}
func (r *recorder) Flush()              {}
func (r *recorder) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.body.Write(b)
}
func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.body.String()
}

// memStore is a SelectionStore another process changes behind the viewer's back.
type memStore struct {
	mu  sync.Mutex
	sel modules.Selection
}

func (m *memStore) LoadSelection() (modules.Selection, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sel.Normalize()
}

func (m *memStore) SaveSelection(s modules.Selection) (modules.Selection, error) {
	s, err := s.Normalize()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sel = s
	return s, err
}

func TestStreamTiming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &memStore{}
		v := New(Options{Selection: store})
		defer v.Close()
		w := &recorder{h: http.Header{}}
		done := make(chan struct{})
		go func() {
			defer close(done)
			v.serveEvents(w, httptest.NewRequest("GET", "/events", nil))
		}()
		synctest.Wait()
		if got := w.String(); !strings.HasPrefix(got, "retry: 1000\n\n") || strings.Count(got, "event: ") != 4 {
			t.Fatalf("first state:\n%s", got)
		}
		// Idle: nothing is sent until the heartbeat is due, then one comment line.
		time.Sleep(HeartbeatInterval - time.Millisecond)
		synctest.Wait()
		if strings.Contains(w.String(), "heartbeat") {
			t.Fatal("heartbeat before HeartbeatInterval")
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got := strings.Count(w.String(), ": heartbeat\n\n"); got != 1 {
			t.Fatalf("%d heartbeats after HeartbeatInterval:\n%s", got, w.String())
		}
		// Another process selects: the tab hears of it at the next poll.
		store.SaveSelection(modules.Selection{Selected: []string{"gear"}})
		time.Sleep(SelectionPoll)
		synctest.Wait()
		if !strings.Contains(w.String(), `event: selection`+"\n"+`data: {"selected":["gear"],"locked":[],"hidden":[]}`) {
			t.Fatalf("no selection event after SelectionPoll:\n%s", w.String())
		}
		v.Close()
		<-done
	})
}

var pingData = regexp.MustCompile(`event: ping\ndata: \{"ping":"([0-9a-f]{32})"\}\n\n`)

// pings returns the nonces of the pings sent so far.
func (r *recorder) pings() []string {
	var out []string
	for _, m := range pingData.FindAllStringSubmatch(r.String(), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestStreamDroppedWhenPingUnanswered: a stream is pinged as it opens and again every
// HeartbeatInterval once answered; a ping left unanswered for PingTimeout drops the stream,
// whose client is then not reading (its writes go through all the same: they are small).
func TestStreamDroppedWhenPingUnanswered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		v := New(Options{})
		defer v.Close()
		h := v.Handler()
		ack := func(nonce string) int {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/events/ack?ping="+nonce, nil))
			return rec.Code
		}
		open := func() (*recorder, chan struct{}) {
			w := &recorder{h: http.Header{}}
			done := make(chan struct{})
			go func() {
				defer close(done)
				v.serveEvents(w, httptest.NewRequest("GET", "/events", nil))
			}()
			synctest.Wait()
			return w, done
		}
		ended := func(done chan struct{}) bool {
			synctest.Wait()
			select {
			case <-done:
				return true
			default:
				return false
			}
		}

		// Never read: dropped PingTimeout after it opened, heartbeats meanwhile.
		quiet, quietDone := open()
		if got := quiet.pings(); len(got) != 1 {
			t.Fatalf("pings on opening: %q\n%s", got, quiet.String())
		}
		reader, readerDone := open()
		first := reader.pings()
		if len(first) != 1 || ack(first[0]) != http.StatusNoContent {
			t.Fatalf("answering the first ping %q failed", first)
		}
		if ack(first[0]) != http.StatusNotFound {
			t.Error("a ping was answered twice")
		}
		time.Sleep(PingTimeout - time.Millisecond)
		if ended(quietDone) {
			t.Fatal("dropped before PingTimeout")
		}
		time.Sleep(time.Millisecond)
		if !ended(quietDone) {
			t.Fatalf("a stream whose ping went unanswered for PingTimeout is still open:\n%s", quiet.String())
		}
		if ended(readerDone) || v.Clients() != 1 {
			t.Fatalf("the stream that answered was dropped too (%d open)", v.Clients())
		}

		// Answered, then stops reading: pinged again HeartbeatInterval after it opened, then
		// only heartbeats while that ping waits, and dropped PingTimeout after it.
		pings := reader.pings()
		if len(pings) != 2 || !strings.HasSuffix(reader.String(), ": heartbeat\n\n") {
			t.Fatalf("after %v: %d pings, want 2, then a heartbeat:\n%s", PingTimeout, len(pings), reader.String())
		}
		time.Sleep(HeartbeatInterval - time.Millisecond) // to 1 ms before HeartbeatInterval+PingTimeout
		if ended(readerDone) {
			t.Fatal("dropped before PingTimeout")
		}
		time.Sleep(time.Millisecond)
		if !ended(readerDone) || v.Clients() != 0 {
			t.Fatalf("a stream that stopped answering is still open (%d open)", v.Clients())
		}
		if got := len(reader.pings()); got != 2 {
			t.Errorf("%d pings, want 2: none while one waits for its answer", got)
		}
		if got := ack(pings[1]); got != http.StatusNotFound {
			t.Errorf("the ping of a dropped stream answered %d", got)
		}
	})
}

// stuckWriter is a tab that never reads: its writes block until it is let go.
type stuckWriter struct {
	h       http.Header
	writing chan struct{}
	release chan struct{}
}

func (s *stuckWriter) Header() http.Header { return s.h }
func (s *stuckWriter) WriteHeader(int)     {}
func (s *stuckWriter) Write(b []byte) (int, error) {
	close(s.writing)
	<-s.release
	return len(b), nil
}

// TestPNGNotHeldBySlowTab: while one tab is stuck reading its picture, another tab's picture
// is drawn and sent; one PNG at a time is drawn, but none waits for another to be read.
func TestPNGNotHeldBySlowTab(t *testing.T) {
	v := New(Options{})
	v.Publish(State{Scene: circles(t, "a", "b")})
	h := v.Handler()
	stuck := &stuckWriter{h: http.Header{}, writing: make(chan struct{}), release: make(chan struct{})}
	defer close(stuck.release)
	go h.ServeHTTP(stuck, httptest.NewRequest("GET", "/api/scene.png?width=64", nil))
	<-stuck.writing
	done := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/scene.png?width=64", nil))
		done <- rec
	}()
	select {
	case rec := <-done:
		if rec.Code != http.StatusOK || rec.Body.Len() == 0 {
			t.Errorf("second picture: status %d, %d bytes", rec.Code, rec.Body.Len())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second picture waited for the first tab to read its own")
	}
}
