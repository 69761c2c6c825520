package tools

// The tools' server: the write-and-run engine (tools/engine) with each feature's own state
// beside it. The engine knows no feature; a feature that looks at every scene does it through
// a Watcher (the selection's locks, the view's last change), and data files are checked
// against their schemas through the engine's CheckChange.

import (
	"context"
	"sync"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// The engine's answers and errors, as the tools give them.
type (
	SyncResult = engine.SyncResult
	Change     = engine.Change
	HistoryOut = engine.HistoryOut
	Snapshot   = engine.Snapshot
)

var (
	ErrNotApplied    = engine.ErrNotApplied
	ErrStale         = engine.ErrStale
	ErrNothingToUndo = engine.ErrNothingToUndo
	ErrNothingToRedo = engine.ErrNothingToRedo
)

// OverwriteWarning is the warning for overwriting a file a session has not read.
const OverwriteWarning = engine.OverwriteWarning

// MaxLintListed caps the drawing-lint findings a change's answer lists; scene lint lists all.
const MaxLintListed = engine.MaxLintListed

// ErrBadInput is returned when a tool's parameters do not match its input type.
var ErrBadInput = engine.ErrBadInput

// Server holds one workspace's state: the engine's (the last good scene, the history) and
// the features'. It is safe for concurrent use.
type Server struct {
	*engine.Server
	ws     *modules.Workspace
	opt    runtime.Options
	runner runtime.Runner // for a run beside a change's (import.go)

	selWatch selectionWatch // the selection's watchers (selection.go)
	parses   *symbolParses  // lsp symbols' parses, bounded (lsp_parse.go)
	jrnl     journalHandle  // the design journal, opened on first use (journal.go)
	changes  lastChange     // the scenes around the last change, for highlight "changed" (view.go)
}

// NewServer opens the state of a workspace (engine.NewServer): the scene comes from running
// main, else from scene.json, else it is empty. ctx bounds the server's life. ForOneCall
// builds the scene when first needed, for a process that makes one call.
func NewServer(ctx context.Context, ws *modules.Workspace, runner runtime.Runner, opt runtime.Options, opts ...ServerOption) *Server {
	srv := &Server{ws: ws, opt: opt, runner: runner, parses: newSymbolParses()}
	hooks := engine.Options{
		Watchers:    []engine.Watcher{lockWatcher{srv}, &srv.changes},
		CheckChange: checkData, // data.go
	}
	for _, o := range opts {
		o(&hooks)
	}
	srv.Server = engine.NewServer(ctx, ws, runner, opt, hooks)
	return srv
}

// ServerOption changes how NewServer opens a server.
type ServerOption func(*engine.Options)

// ForOneCall opens a server for a process that makes one call (`cadrun tool`): the scene is
// built when first needed (engine.Options.OneCall).
func ForOneCall() ServerOption { return func(o *engine.Options) { o.OneCall = true } }

// Session is one client's view: the engine's (what it read, which entries it made) and what
// it last heard of the viewer.
type Session struct {
	*engine.Session
	srv *Server

	mu    sync.Mutex
	heard viewerNews // selection.go, sketch.go
}

// Session starts a client session.
func (srv *Server) Session() *Session {
	return &Session{Session: srv.Server.Session(), srv: srv}
}

// ChangeResult is the answer to a committed change: the engine's account of it, and the
// picture asked for with view (view.go).
type ChangeResult struct {
	*engine.ChangeResult
	View *ViewOut `json:"view,omitempty"`
}

// changed is an engine answer as the tools give it.
func changed(res *engine.ChangeResult, err error) (*ChangeResult, error) {
	if res == nil {
		return nil, err
	}
	return &ChangeResult{ChangeResult: res}, err
}
