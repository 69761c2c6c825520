package viewer

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/front"
)

// serveCapped serves a viewer with MaxConns max on a loopback listener.
func serveCapped(t *testing.T, max int) (*Server, string) {
	t.Helper()
	v := New(Options{MaxConns: max, Logger: slog.New(slog.DiscardHandler)})
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go v.Serve(ctx, ln)
	return v, ln.Addr().String()
}

// dial opens a connection and sends req on it ("" sends nothing).
func dial(t *testing.T, addr, req string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if req != "" {
		if _, err := c.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// waitConns waits until the viewer holds n connections in state s.
func waitConns(t *testing.T, v *Server, s http.ConnState, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		v.mu.Lock()
		lim := v.conns
		v.mu.Unlock()
		if lim != nil && lim.Count(s) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the viewer never held %d connections %v", n, s)
		}
	}
}

// status sends a request on a new connection and returns the status line and body.
func status(t *testing.T, addr string) (int, string) {
	t.Helper()
	c := dial(t, addr, "GET /api/selection HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestMaxConns: the viewer's listener holds at most MaxConns connections. At the cap a new
// one takes the place of an idle keep-alive connection, or of one that has sent nothing for
// connGrace; when every connection is busy (event streams here), it is answered 503 naming
// the limit.
func TestMaxConns(t *testing.T) {
	t.Parallel()
	const max = 4
	t.Run("busy", func(t *testing.T) {
		t.Parallel()
		v, addr := serveCapped(t, max)
		for range max {
			dial(t, addr, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		}
		waitConns(t, v, http.StateActive, max)
		code, body := status(t, addr)
		if want := "too many connections: 4 are open, the limit is 4 (MaxConns, -serve-max-conns); close some, or try again shortly\n"; code != 503 || body != want {
			t.Errorf("past the cap: %d %q; want 503 %q", code, body, want)
		}
	})
	t.Run("idle", func(t *testing.T) {
		t.Parallel()
		v, addr := serveCapped(t, max)
		var first net.Conn
		for i := range max {
			c := dial(t, addr, "GET /api/selection HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			if i == 0 {
				first = c
			}
		}
		waitConns(t, v, http.StateIdle, max)
		if code, body := status(t, addr); code != 200 {
			t.Errorf("past the cap with idle connections: %d %q; want 200", code, body)
		}
		first.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := first.Read(make([]byte, 1)); err == nil || strings.Contains(err.Error(), "timeout") {
			t.Errorf("the oldest idle connection is still open: %v", err)
		}
	})
	t.Run("silent", func(t *testing.T) {
		t.Parallel()
		v, addr := serveCapped(t, max)
		for range max {
			dial(t, addr, "")
		}
		waitConns(t, v, http.StateNew, max)
		time.Sleep(front.ConnGrace) // until they may be closed to make room
		if code, body := status(t, addr); code != 200 {
			t.Errorf("past the cap with silent connections: %d %q; want 200", code, body)
		}
	})
}
