// Package viewer is cadrun's live browser viewer: an embedded page (no CDN, no build step)
// that shows the scene as SVG with pan, zoom, a grid, hover names, selection and an error
// overlay, kept current by server-sent events, and a small HTTP API beside it.
//
// Start with New, serve Handler (or call Serve with a listener), and call Publish after every
// run, good or failed: any scene source can publish (the tools server under `cadrun mcp`, the
// file watcher under `cadrun watch`). The selection lives in the workspace (a SelectionStore),
// so that every process on one workspace agrees on it.
//
// Publishing never waits for a browser: each connected tab is woken and sends the newest state
// when it can, so a slow tab skips versions rather than holding up the others, and an idle tab
// costs one ping and its answer every HeartbeatInterval. A stream whose ping goes unanswered
// (a client that does not read it) is dropped after PingTimeout (events.go).
package viewer

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// Limits of one viewer server; docs/limits.md lists them.
const (
	// DefaultMaxClients caps the event streams (tabs) open at once unless Options say
	// otherwise; one more is answered 503.
	DefaultMaxClients = 256
	// MaxBodyBytes caps a request body (POST /api/selection).
	MaxBodyBytes = 1 << 20
	// HeartbeatInterval is how often an event stream gets a ping (events.go), or a comment
	// line while its last ping waits for an answer, so that proxies keep it open and a tab
	// that stopped reading is found.
	HeartbeatInterval = 15 * time.Second
	// PingTimeout is how long a stream's ping may wait for its answer (POST /events/ack)
	// before the stream is dropped: a client that does not read its stream never sees the
	// ping. A stream is pinged as it opens, so one that never reads is dropped PingTimeout
	// after it connects, and one that stops reading within HeartbeatInterval+PingTimeout.
	PingTimeout = 30 * time.Second
	// RetryMillis is the reconnection delay the page's EventSource is told to use.
	RetryMillis = 1000
	// WriteTimeout bounds one write to a tab (an event, or a whole answer). The events are
	// small, so a stream that is not read fills no buffer and never meets it: PingTimeout
	// finds those.
	WriteTimeout = 30 * time.Second
	// SelectionPoll is how often the workspace's selection is read again, while a tab is
	// connected, to notice changes made by another process.
	SelectionPoll = 500 * time.Millisecond
)

// ErrTooManyClients is returned (as 503) when MaxClients event streams are open and every
// one has answered a ping.
var ErrTooManyClients = errors.New("too many viewer tabs")

// SelectionStore keeps the selection; *modules.Workspace is one. Implementations are safe for
// concurrent use.
type SelectionStore interface {
	LoadSelection() (modules.Selection, error)
	SaveSelection(modules.Selection) (modules.Selection, error)
}

// Options configure a viewer server.
type Options struct {
	// Selection keeps the selection; nil keeps it in memory only.
	Selection SelectionStore
	// Token, when not empty, is required of every request: as "Authorization: Bearer T", or as
	// ?token=T, which then sets a cookie (a value derived from T, good for the viewer alone:
	// guard.go) that the page's own requests carry. Callers require one for any listener that
	// is not loopback.
	Token string
	// Logger gets the viewer's warnings; nil means slog.Default().
	Logger *slog.Logger
	// MaxClients caps the event streams open at once; 0 means DefaultMaxClients.
	MaxClients int
	// MaxConns caps the connections Serve holds at once; 0 means DefaultMaxConns. (A server
	// of the caller's own that mounts Handler sets its own cap.)
	MaxConns int
	// Sketch keeps the strokes drawn over the scene (sketch.go); nil uses Selection when it
	// keeps them too (a workspace does), else keeps them in memory only.
	Sketch SketchStore
	// Journal, when set, serves the design journal's POST /api/save and GET /api/search
	// (tools.NewJournalAPI) behind the viewer's checks.
	Journal http.Handler
	// MaxTriangles caps the triangles of the 3D view's data; 0 means
	// DefaultMaxViewerTriangles.
	MaxTriangles int
}

// State is one published state: the scene after a run, or a failed run.
type State struct {
	// Scene is the new scene; nil keeps the last good scene (a failed run).
	Scene *scene.Scene
	// Diagnostic is why the run failed; nil for a good run, which clears the overlay.
	Diagnostic *Diagnostic
	// Run is how long the run took.
	Run time.Duration
	// At is when the run ended; zero means now.
	At time.Time
}

// Diagnostic is a failed run as the page shows it. What is not known is left out of the
// JSON (a missing main has a file but no line; 0 is no line or column), and the page names
// the place by the parts it gets.
type Diagnostic struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"` // the offending line
	Hint    string `json:"hint,omitempty"`
	// Notes are the other places the failure involves, each with its own line and caret.
	Notes []runtime.Note `json:"notes,omitempty"`
	// Text is the whole error as a terminal would show it.
	Text string `json:"text"`
}

// DiagnosticOf describes a failed run's error: a runtime.Diagnostic anywhere in its chain
// gives the position and the source line; the whole text is kept either way.
func DiagnosticOf(err error) *Diagnostic {
	if err == nil {
		return nil
	}
	d := &Diagnostic{Message: err.Error(), Text: err.Error()}
	var rd *runtime.Diagnostic
	if errors.As(err, &rd) {
		d.File, d.Line, d.Column, d.Kind, d.Message, d.Source, d.Hint = rd.File, rd.Line, rd.Column, rd.Kind, rd.Message, rd.Source, rd.Hint
		d.Notes = rd.Notes
	}
	return d
}

// snapshot is one published state with its renders, made once and shared by every tab.
type snapshot struct {
	version      uint64 // of this state
	sceneVersion uint64 // of the state that brought the scene
	scene        *scene.Scene
	info         scene.Info
	diag         *Diagnostic
	run          time.Duration
	at           time.Time

	svgOnce  sync.Once
	svg      []byte
	svgErr   error
	solids   int // solids in the scene, which its SVG leaves out (counted with the SVG)
	jsonOnce sync.Once
	json     []byte
	jsonErr  error
	// The 3D view's data (solids3d.go), made at the first tab that asks.
	solidsOnce sync.Once
	solids3d   []byte
	solidsErr  error
}

func (s *snapshot) SVG() ([]byte, error) {
	s.svgOnce.Do(func() {
		s.svg, s.svgErr = render.SVG(s.scene, render.SVGOptions{DataKinds: true})
		for _, e := range s.scene.Walk() {
			if e.Kind() == scene.KindSolid {
				s.solids++
			}
		}
	})
	return s.svg, s.svgErr
}

// Solids3D is the 3D view's data for the snapshot's scene (solids3d.go).
func (s *snapshot) Solids3D(maxTriangles int) ([]byte, error) {
	s.solidsOnce.Do(func() { s.solids3d, s.solidsErr = solidsData(s.scene, maxTriangles) })
	return s.solids3d, s.solidsErr
}

func (s *snapshot) JSON() ([]byte, error) {
	s.jsonOnce.Do(func() { s.json, s.jsonErr = s.scene.MarshalJSON() })
	return s.json, s.jsonErr
}

// Server is one viewer. It is safe for concurrent use: Publish may be called from any
// goroutine while tabs are served.
type Server struct {
	opt   Options
	log   *slog.Logger
	epoch string // tells a restarted server's versions from the last one's

	mu      sync.Mutex
	cur     *snapshot
	sel     modules.Selection
	selVer  uint64 // bumped on every selection change
	clients map[*client]struct{}
	pings   map[string]*client // by the ping each waits to have answered
	closed  bool
	seq     uint64 // of the last stream opened
	done    chan struct{}
	sketch  sketchState // sketch.go

	sketches SketchStore
	conns    *front.Listener // Serve's listener; nil until Serve
	pollOnce sync.Once
	pngMu    sync.Mutex // one PNG is drawn at a time; guards png, the last one drawn
	png      struct {
		version uint64
		width   int
		camera  render.Camera
		data    []byte
	}
}

// New returns a viewer showing an empty scene until the first Publish.
func New(opt Options) *Server {
	var e [4]byte
	rand.Read(e[:])
	v := &Server{
		opt:     opt,
		log:     opt.Logger,
		epoch:   hex.EncodeToString(e[:]),
		clients: map[*client]struct{}{},
		pings:   map[string]*client{},
		done:    make(chan struct{}),
	}
	if v.log == nil {
		v.log = slog.Default()
	}
	if v.opt.MaxClients <= 0 {
		v.opt.MaxClients = DefaultMaxClients
	}
	if v.opt.MaxConns <= 0 {
		v.opt.MaxConns = DefaultMaxConns
	}
	v.sketches = sketchStore(opt)
	if sk, err := v.sketches.LoadSketch(); err == nil {
		v.sketch.sk = sk
	}
	sc := scene.New()
	v.cur = &snapshot{scene: sc, info: sc.Info(), at: time.Now()}
	v.sel, _ = modules.Selection{}.Normalize()
	if opt.Selection != nil {
		if s, err := opt.Selection.LoadSelection(); err == nil {
			v.sel = s
		} else {
			v.log.Warn("viewer: reading the selection", "err", err)
		}
	}
	return v
}

// Publish shows a new state in every tab: a good run's scene (which clears the error
// overlay), or a failed run's diagnostic over the last good scene. It returns the state's
// version, which the page's events carry as their id. It never blocks on a tab.
func (v *Server) Publish(st State) uint64 {
	if st.At.IsZero() {
		st.At = time.Now()
	}
	var info scene.Info
	if st.Scene != nil {
		info = st.Scene.Info() // outside the lock: exact bounds of a large scene take a while
	}
	v.mu.Lock()
	prev := v.cur
	next := &snapshot{version: prev.version + 1, diag: st.Diagnostic, run: st.Run, at: st.At}
	if st.Scene != nil {
		next.scene, next.sceneVersion, next.info = st.Scene, next.version, info
	} else {
		next.scene, next.sceneVersion, next.info = prev.scene, prev.sceneVersion, prev.info
	}
	v.cur = next
	v.wakeLocked()
	warm := st.Scene != nil && len(v.clients) > 0
	v.mu.Unlock()
	if warm {
		// The tabs will ask for the SVG as soon as the event reaches them: start it now.
		go next.SVG()
	}
	return next.version
}

// current returns the newest snapshot.
func (v *Server) current() *snapshot {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.cur
}

// Selection returns the selection as this viewer last saw it.
func (v *Server) Selection() modules.Selection {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sel
}

// SetSelection saves a selection through the store and shows it in every tab.
func (v *Server) SetSelection(s modules.Selection) (modules.Selection, error) {
	var err error
	if v.opt.Selection != nil {
		s, err = v.opt.Selection.SaveSelection(s)
	} else {
		s, err = s.Normalize()
	}
	if err != nil {
		return modules.Selection{}, err
	}
	v.noteSelection(s)
	return s, nil
}

// noteSelection shows s when it differs from the selection shown.
func (v *Server) noteSelection(s modules.Selection) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s.Equal(v.sel) {
		return
	}
	v.sel = s
	v.selVer++
	v.wakeLocked()
}

// pollSelection reads the stores again every SelectionPoll while a tab is connected, so that
// a selection or a sketch made in another process shows up here. A viewer with neither store
// shared (no Selection, no Sketch) does not poll.
func (v *Server) pollSelection() {
	if v.opt.Selection == nil && v.opt.Sketch == nil {
		return
	}
	t := time.NewTicker(SelectionPoll)
	defer t.Stop()
	for {
		select {
		case <-v.done:
			return
		case <-t.C:
		}
		v.mu.Lock()
		idle := len(v.clients) == 0
		v.mu.Unlock()
		if idle {
			continue
		}
		v.pollSketch()
		if v.opt.Selection == nil {
			continue
		}
		s, err := v.opt.Selection.LoadSelection()
		if err != nil {
			continue // a bad file is reported when a tab asks for it
		}
		v.noteSelection(s)
	}
}

// wakeLocked tells every tab there is something new; v.mu is held.
func (v *Server) wakeLocked() {
	for c := range v.clients {
		select {
		case c.wake <- struct{}{}:
		default: // already woken; it will read the newest state
		}
	}
}

// Close ends every event stream; the handler answers 503 from then on.
func (v *Server) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.closed {
		v.closed = true
		close(v.done)
	}
}

// addClient registers a tab. Past MaxClients it drops the oldest stream that has never
// answered a ping, to make room (a tab that reads has answered within milliseconds of
// connecting; one dropped by mistake reconnects by itself); when every stream has answered
// one, the new one is refused.
func (v *Server) addClient() (*client, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil, errors.New("the viewer is shutting down")
	}
	if len(v.clients) >= v.opt.MaxClients {
		var victim *client
		for c := range v.clients {
			if !c.answered && (victim == nil || c.seq < victim.seq) {
				victim = c
			}
		}
		if victim == nil {
			return nil, fmt.Errorf("%w: %d event streams are open and reading (MaxClients); close a tab and reload", ErrTooManyClients, len(v.clients))
		}
		v.dropLocked(victim)
	}
	v.seq++
	c := &client{wake: make(chan struct{}, 1), drop: make(chan struct{}), seq: v.seq}
	v.clients[c] = struct{}{}
	v.pollOnce.Do(func() { go v.pollSelection() })
	return c, nil
}

// dropLocked ends c's stream; v.mu is held.
func (v *Server) dropLocked(c *client) {
	if _, ok := v.clients[c]; !ok {
		return
	}
	delete(v.clients, c)
	delete(v.pings, c.ping)
	close(c.drop)
}

func (v *Server) removeClient(c *client) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, ok := v.clients[c]; ok {
		delete(v.clients, c)
		delete(v.pings, c.ping)
	}
}

// Clients is the number of tabs connected now.
func (v *Server) Clients() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.clients)
}
