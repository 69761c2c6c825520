package viewer

// Server-sent events at /events. A tab holds one stream; the stream does not queue events:
// it is woken when anything changes and then sends what differs between the newest state and
// what it sent last. A tab that connects, or reconnects after a drop, is sent the whole
// current state at once (scene, diagnostic, selection), so it never has to catch up.
//
// Events (each data line is one JSON object; the id is the state's version):
//
//	event: scene       {"version","epoch","entities","bounds","run_ms","at"}   fetch /api/scene.svg
//	event: diagnostic  {"version","diagnostic": {...} | null}                  show or clear the overlay
//	event: selection   {"selected":[],"locked":[],"hidden":[]}
//	event: sketch      {"version","strokes"}                                   fetch /api/sketch
//	                   (on connecting, only when there is a sketch or it changed)
//	event: ping        {"ping":"NONCE"} (no id)                                POST /events/ack?ping=NONCE
//
// Why the ping: a client that opens a stream and never reads it holds one of MaxClients slots,
// and the events are so small that they never fill the socket's buffers, so no write ever
// blocks long enough for WriteTimeout to notice. Only a reader can see the ping's random
// nonce, so a stream whose ping is not answered within PingTimeout is not being read, and is
// dropped; at MaxClients a new stream also takes the place of the oldest one that never
// answered. The page answers every ping at once; a dropped tab reconnects by itself.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/scene/geom"
)

// client is one event stream. Its fields but wake and drop are guarded by the server's mu.
type client struct {
	wake     chan struct{}
	drop     chan struct{} // closed when the server ends the stream
	seq      uint64        // the order streams opened in
	ping     string        // the nonce of the ping waiting for its answer; "" when none
	answered bool          // a ping was answered: the stream is read
}

// pingEvent is the data of a ping event.
type pingEvent struct {
	Ping string `json:"ping"`
}

// SceneEvent is the data of a scene event.
type SceneEvent struct {
	// Version is that of the state that brought the scene; 0 is the empty scene a server
	// starts with, before any good run, which the page's overlay calls "no good scene yet".
	Version  uint64    `json:"version"`
	Epoch    string    `json:"epoch"`
	Entities int       `json:"entities"`
	Bounds   geom.Box  `json:"bounds"`
	RunMs    float64   `json:"run_ms"`
	At       time.Time `json:"at"`
}

// DiagnosticEvent is the data of a diagnostic event.
type DiagnosticEvent struct {
	Version    uint64      `json:"version"`
	Diagnostic *Diagnostic `json:"diagnostic"`
}

func (v *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	c, err := v.addClient()
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer v.removeClient(c)
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	var (
		sentScene, sentState uint64
		sentSel              = ^uint64(0)
		sentSketch           = ^uint64(0)
		first                = true
	)
	send := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// ping registers a new ping for c and appends its event; the stream is dropped if it is
	// not answered within PingTimeout.
	deadline := time.NewTimer(PingTimeout)
	defer deadline.Stop()
	ping := func(out []byte) []byte {
		var b [16]byte
		rand.Read(b[:])
		nonce := hex.EncodeToString(b[:])
		v.mu.Lock()
		delete(v.pings, c.ping)
		c.ping = nonce
		v.pings[nonce] = c
		v.mu.Unlock()
		deadline.Reset(PingTimeout)
		return appendData(out, "ping", pingEvent{Ping: nonce})
	}
	beat := time.NewTicker(HeartbeatInterval)
	defer beat.Stop()
	for {
		v.mu.Lock()
		cur, sel, selVer, sk := v.cur, v.sel, v.selVer, v.sketch
		v.mu.Unlock()
		var out []byte
		if first {
			out = fmt.Appendf(out, "retry: %d\n\n", RetryMillis)
			out = ping(out)
		}
		if first || cur.sceneVersion != sentScene {
			out = appendEvent(out, "scene", cur.version, SceneEvent{
				Version: cur.sceneVersion, Epoch: v.epoch, Entities: cur.info.Entities, Bounds: cur.info.Bounds,
				RunMs: float64(cur.run.Microseconds()) / 1000, At: cur.at,
			})
		}
		if first || cur.version != sentState {
			out = appendEvent(out, "diagnostic", cur.version, DiagnosticEvent{Version: cur.version, Diagnostic: cur.diag})
		}
		if selVer != sentSel {
			out = appendEvent(out, "selection", cur.version, sel)
		}
		if sk.ver != sentSketch && (!first || sk.ver > 0 || len(sk.sk.Strokes) > 0) { // nothing to say of no sketch
			out = appendEvent(out, "sketch", cur.version, SketchEvent{Version: sk.ver, Strokes: len(sk.sk.Strokes)})
		}
		sentScene, sentState, sentSel, sentSketch, first = cur.sceneVersion, cur.version, selVer, sk.ver, false
		if len(out) > 0 && !send(out) {
			return
		}
		select {
		case <-c.wake:
		case <-beat.C:
			v.mu.Lock()
			waiting := c.ping != ""
			v.mu.Unlock()
			beat := []byte(": heartbeat\n\n")
			if !waiting {
				beat = ping(nil)
			}
			if !send(beat) {
				return
			}
		case <-deadline.C:
			v.mu.Lock()
			unanswered := c.ping != ""
			if unanswered {
				v.dropLocked(c)
			}
			v.mu.Unlock()
			if unanswered {
				return
			}
		case <-c.drop:
			return
		case <-r.Context().Done():
			return
		case <-v.done:
			return
		}
	}
}

// postAck answers a ping (POST /events/ack?ping=NONCE): the stream that sent it is read.
func (v *Server) postAck(w http.ResponseWriter, r *http.Request) {
	nonce := r.URL.Query().Get("ping")
	v.mu.Lock()
	c, ok := v.pings[nonce]
	if ok {
		delete(v.pings, nonce)
		c.ping, c.answered = "", true
	}
	v.mu.Unlock()
	if !ok {
		http.Error(w, fmt.Sprintf("no event stream waits for ping %.40q: it was answered already, or its stream was dropped (PingTimeout); open /events again", nonce), http.StatusNotFound)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// appendEvent appends one event; data is JSON on one line.
func appendEvent(out []byte, name string, id uint64, data any) []byte {
	return appendData(fmt.Appendf(out, "id: %d\n", id), name, data)
}

// appendData appends one event without an id, so that the page's last event id stays the
// version it saw.
func appendData(out []byte, name string, data any) []byte {
	b, err := json.Marshal(data)
	if err != nil {
		b = []byte("null") // unreachable: every event type marshals
	}
	out = fmt.Appendf(out, "event: %s\ndata: ", name)
	out = append(out, b...)
	return append(out, '\n', '\n')
}

// selectionJSON is the selection as the API sends it.
func selectionJSON(s modules.Selection) []byte {
	b, _ := json.Marshal(s)
	return b
}
