// Package engine is cadrun's write-and-run engine: a change to a workspace's file is run
// with the new content overlaid in memory, and only a change that runs lands on disk,
// atomically, with the scene, the history and the subscribers following in the same step.
// It keeps the scene in step with files others change (sync.go), records every landing in
// the history and travels it (history.go), and tells subscribers (notify.go). It knows no
// feature: the tools (package tools) watch scenes through Watchers and check changes through
// Options.CheckChange. Read server.go's Commit to follow a change from call to disk to viewer.
package engine

// The write-and-run transaction. A change is run against the workspace with the new content
// overlaid in memory; only a change that runs lands on disk, atomically, and the scene moves
// to the new state in the same step. Read tracking is per session (per client), by content
// hash, so that a client never overwrites text it has not seen.

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/lint"
)

// Server holds one workspace's state: the last good scene. It is safe for concurrent use:
// every transaction holds the workspace lock.
type Server struct {
	ws     *modules.Workspace
	runner runtime.Runner
	opt    runtime.Options
	ctx    context.Context // its end cancels the MCP calls in flight

	mu    sync.Mutex // guards scene, lint and built
	scene *scene.Scene
	// lint is what the drawing lint found in scene: made with it by its run, in the worker
	// (runtime.Options.Lint), so that the server computes no lint on a write or a sync; nil
	// for a scene no run made (from scene.json), which Lint lints once when asked.
	lint  []lint.Finding
	built diskState // the user files the scene was built from (or last failed to build from)
	// mainErr is the diagnostic of main as built holds it, when it did not run.
	mainErr string

	subs  subscribers
	hooks Options // what the features ask of each change

	// pending is set while the scene of a server made with OneCall is not built yet;
	// building holds the building lock.
	pending  atomic.Bool
	building sync.Mutex
}

// Options are what the features using a Server ask of each change.
type Options struct {
	// Watchers look at each scene a change's run makes, and at each that lands.
	Watchers []Watcher
	// CheckChange, when set, checks a change against the workspace it leaves (src) before
	// it runs: a refusal is the change's error (data files against their schemas).
	CheckChange func(ctx context.Context, c modules.Change, src runtime.Source) error
	// OneCall is for a process that makes one call (`cadrun tool`): the scene is built as it
	// is otherwise, but when first needed. A tool that never looks at the scene (glob, read,
	// lsp, search) never runs main, and a change builds it from the files its transaction
	// reads under the workspace lock, so that the process lists and reads the workspace once.
	OneCall bool
}

// NewServer opens the state of a workspace: the scene comes from running main; when main is
// missing or fails, from scene.json (the last good scene); else it is empty (with
// hooks.OneCall, when first needed). ctx bounds the server's life: when it ends, the calls in
// flight are cancelled (and still answered).
func NewServer(ctx context.Context, ws *modules.Workspace, runner runtime.Runner, opt runtime.Options, hooks Options) *Server {
	s := newServer(ctx, ws, runner, opt, hooks)
	if hooks.OneCall {
		s.pending.Store(true)
		return s
	}
	files, st, readable := s.diskFiles()
	s.scene, s.lint, s.mainErr = s.build(ctx, files, readable)
	s.built = st
	return s
}

func newServer(ctx context.Context, ws *modules.Workspace, runner runtime.Runner, opt runtime.Options, hooks Options) *Server {
	opt.Lint = true // every run lints its scene where it runs (lint.go)
	return &Server{ws: ws, runner: runner, opt: opt, ctx: ctx, scene: scene.New(), hooks: hooks}
}

// Context is the server's life: when it ends, the calls in flight are cancelled.
func (srv *Server) Context() context.Context { return srv.ctx }

// Workspace is the server's workspace.
func (srv *Server) Workspace() *modules.Workspace { return srv.ws }

// Watcher is what a feature asks of the write-and-run transaction, which knows no feature: a
// look at each scene a change's run makes before it lands (warnings for the answer), and
// word of each scene that lands (out is nil for a sync's).
type Watcher interface {
	Check(old, cur *scene.Scene) []string
	Landed(old, cur *scene.Scene, out *ChangeResult)
}

// checkScene asks every watcher about a run's scene, before it lands.
func (srv *Server) checkScene(old, cur *scene.Scene) []string {
	var warnings []string
	for _, w := range srv.hooks.Watchers {
		warnings = append(warnings, w.Check(old, cur)...)
	}
	return warnings
}

// tellWatchers tells every watcher of a scene that landed.
func (srv *Server) tellWatchers(old, cur *scene.Scene, out *ChangeResult) {
	for _, w := range srv.hooks.Watchers {
		w.Landed(old, cur, out)
	}
}

// build builds the scene from files, as diskFiles read them: by running main, else from
// scene.json (else empty), with the run's lint (nil when no run made it). mainErr is main's
// diagnostic when it did not run.
func (srv *Server) build(ctx context.Context, files map[string][]byte, readable bool) (sc *scene.Scene, found []lint.Finding, mainErr string) {
	var src runtime.Source = srv.ws
	if readable {
		src = srv.ws.FilesSource(files)
	}
	res, err := srv.runner.Run(ctx, src, runtime.MainModule, srv.opt)
	if err == nil {
		return res.Scene, lintOf(res), ""
	}
	if !errors.Is(err, runtime.ErrModuleNotFound) && !isMissingMain(err) {
		mainErr = diagnostic(err)
	}
	if saved, err := LoadSavedScene(srv.ws); err == nil {
		return saved, nil, mainErr
	} else if !errors.Is(err, fs.ErrNotExist) {
		slog.Warn("starting from an empty scene", "err", err)
	}
	return scene.New(), nil, mainErr
}

// buildPending builds the scene of a server made with OneCall, once: from the files a
// sync has just read when files is given (it reports that it built), else from the files as
// they are now. A build that ctx cancelled is not kept.
func (srv *Server) buildPending(ctx context.Context, files *diskRead) bool {
	if !srv.pending.Load() {
		return false
	}
	srv.building.Lock()
	defer srv.building.Unlock()
	if !srv.pending.Load() {
		return false
	}
	if files == nil {
		f, st, readable := srv.diskFiles()
		files = &diskRead{f, st, readable}
	}
	sc, lint, mainErr := srv.build(ctx, files.files, files.readable)
	if ctx.Err() != nil {
		return false
	}
	srv.mu.Lock()
	srv.scene, srv.lint, srv.built, srv.mainErr = sc, lint, files.st, mainErr
	srv.mu.Unlock()
	srv.pending.Store(false)
	return true
}

// diskRead is what diskFiles answered.
type diskRead struct {
	files    map[string][]byte
	st       diskState
	readable bool
}

// Scene returns the last good scene; callers must not modify it.
func (srv *Server) Scene() *scene.Scene {
	srv.buildPending(srv.ctx, nil)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.scene
}

// Session is one client's view: what it has read, and which history entries its changes
// made.
type Session struct {
	srv   *Server
	mu    sync.Mutex
	reads map[string][sha256.Size]byte // logical name -> hash of the content read in full
	made  map[int]bool                 // history entry ids recorded by this session's changes
	// seenFiles is the user files' state as this session's last call left them (nil: none yet).
	seenFiles diskState
}

// Session starts a client session.
func (srv *Server) Session() *Session {
	return &Session{srv: srv, reads: map[string][sha256.Size]byte{}, made: map[int]bool{}}
}

func (se *Session) noteMade(entry int) {
	se.mu.Lock()
	defer se.mu.Unlock()
	se.made[entry] = true
}

func (se *Session) didMake(entry int) bool {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.made[entry]
}

func (se *Session) NoteRead(name string, content []byte) {
	se.mu.Lock()
	defer se.mu.Unlock()
	se.reads[name] = sha256.Sum256(content)
}

func (se *Session) readHash(name string) ([sha256.Size]byte, bool) {
	se.mu.Lock()
	defer se.mu.Unlock()
	h, ok := se.reads[name]
	return h, ok
}

// ErrBadInput is returned when a call's parameters cannot be used (a snapshot name that does
// not exist); the tools' input errors wrap it too.
var ErrBadInput = errors.New("bad input")

// ErrNotApplied wraps every failed change: nothing was written.
var ErrNotApplied = errors.New("not applied; the file is unchanged")

// ErrStale is returned when a file changed on disk since this session read it.
var ErrStale = errors.New("the file changed since you read it")

// OverwriteWarning is the warning for overwriting a file this session has not read, in the
// upstream tool's words.
const OverwriteWarning = "Warning: Overwriting existing file. Consider using read first"

// ChangeResult is the answer to a committed change.
type ChangeResult struct {
	File     string   `json:"file,omitempty"`     // the file changed (none for undo and redo: see Restored)
	MovedTo  string   `json:"moved_to,omitempty"` // a move's new name for File
	Files    []string `json:"-"`                  // every file the change touched, for notifications
	Created  bool     `json:"created"`
	Entities int      `json:"entities"`
	Bounds   geom.Box `json:"bounds"`
	Added    []string `json:"added,omitempty"`
	Removed  []string `json:"removed,omitempty"`
	Changed  []string `json:"changed,omitempty"`
	// Restacked names the entities whose only change is their place in the stacking.
	Restacked []string   `json:"restacked,omitempty"`
	More      *MoreCount `json:"more,omitempty"`
	Logs      []string   `json:"logs,omitempty"`
	Warnings  []string   `json:"warnings,omitempty"`
	// Lint is what the drawing lint found in the scene, one line each, at most MaxLintListed
	// and a line saying how many more (lint.go).
	Lint   []string `json:"lint,omitempty"`
	Millis float64  `json:"ms"`
	// Entry is the history entry the workspace is now at (0 when the history could not be
	// written; a warning then says why).
	Entry int `json:"entry,omitempty"`
	// Restored names the files undo or redo wrote or deleted.
	Restored []string `json:"restored,omitempty"`
}

// MoreCount counts what an answer's lists leave out.
type MoreCount struct {
	Added     int `json:"added,omitempty"`
	Removed   int `json:"removed,omitempty"`
	Changed   int `json:"changed,omitempty"`
	Restacked int `json:"restacked,omitempty"`
}

// MaxListed caps each of the added/removed/changed lists in an answer.
const MaxListed = 20

// Commit is the write-and-run transaction for one file: under the workspace lock, work out
// the change from the file's current bytes (plan), run the program as the change would leave
// it, and only when it runs apply the change on disk and move to the new scene.
func (se *Session) Commit(ctx context.Context, file string, plan func(current []byte, exists bool) (modules.Change, error), warnUnread string) (*ChangeResult, error) {
	start := time.Now()
	srv := se.srv
	if err := modules.CheckFileName(file); err != nil {
		return nil, NotApplied(err)
	}
	tx, err := srv.begin(ctx)
	if err != nil {
		return nil, refused(err)
	}
	defer tx.end()

	current, exists, err := tx.userFile(file)
	if err != nil {
		return nil, err
	}
	var warnings []string
	if len(tx.synced.Files) > 0 { // news; a main known to be broken is this change's to fix
		warnings = append(warnings, tx.synced.Note())
	}
	if exists {
		h, read := se.readHash(file)
		switch {
		case !read && warnUnread != "":
			warnings = append(warnings, warnUnread)
		case read && h != sha256.Sum256(current):
			return nil, NotApplied(fmt.Errorf("%w: %s changed on disk since this session read it; read it again, then retry", ErrStale, runtime.PathOf(file)))
		}
	}
	ch, err := plan(current, exists)
	src := srv.ws.ChangeSource(tx.before, ch)
	if err == nil && srv.hooks.CheckChange != nil {
		err = srv.hooks.CheckChange(ctx, ch, src)
	}
	if err != nil {
		return nil, NotApplied(err)
	}
	// Two goroutines share the change. This one makes the two waits for the disk: the new
	// bytes synced to a temp file while the program runs, then, once the run has succeeded,
	// the swap into place and the folder's sync. The other runs the program and does the rest
	// beside those waits (see runChange), so that the answer waits for the disk and little else.
	ran := make(chan error, 1)
	put := make(chan putOutcome, 1)
	done := make(chan *ChangeResult, 1)
	go func() {
		done <- tx.runChange(ctx, src, ch, se, warnings, ran, put)
	}()
	p, perr := srv.ws.Prepare(ch, tx.before)
	if err := <-ran; err != nil {
		if p != nil {
			p.Discard()
		}
		<-done
		if ctx.Err() == nil { // a cancelled call is not a failed run
			srv.notify(Change{Files: ch.Files(), Scene: srv.Scene(), Refused: err})
		}
		return nil, NotApplied(err)
	}
	created := false
	if perr == nil {
		created, perr = p.Put()
	}
	put <- putOutcome{created, perr}
	if perr != nil {
		<-done
		return nil, NotApplied(perr)
	}
	err = p.Sync()
	out := <-done
	if err != nil {
		// The file is in place and everything after it has followed; only its folder's
		// entry may not be on the disk yet. Saying "not applied" would be false.
		out.Warnings = append(out.Warnings, fmt.Sprintf("the change is in place, but making it durable failed (%v): "+
			"a crash before the disk takes it could bring back the file before; check the disk (full, failing, read-only), then write the file again", err))
	}
	out.Millis = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// putOutcome says whether a change's file was put in place (Prepared.Put): created, or the
// error that kept it out.
type putOutcome struct {
	created bool
	err     error
}

// runChange is the part of a change's transaction that runs beside the waits for the disk
// (see commit). It runs main from src, the workspace as change c leaves it, and the module c
// writes or moves by itself when main does not reach it, so that a broken module is refused,
// and sends the outcome on ran. While c's file may still be syncing it then does what the
// landing needs of the run but not of the disk: scene.json's next bytes go to their temp file,
// the new scene is compared with the one it replaces, and the history entry is made with its
// objects. Once put says the file is in place it swaps scene.json in, moves the server to the
// new scene and appends the entry to the history's log, and answers the change's result; when
// the run failed or the file did not land it drops what it made ahead and answers nil.
// "In place" is visible, not yet durable: all of this goes on beside the folder's sync, so
// viewers hear of the new scene, and the log may name the file, before that sync is done; a
// crash in between can leave a log entry ahead of the file, which the next change's catch-up
// records over (see catchUp).
func (tx *txn) runChange(ctx context.Context, src runtime.Source, c modules.Change, se *Session, warnings []string, ran chan<- error, put <-chan putOutcome) *ChangeResult {
	srv := tx.srv
	res, err := srv.run(ctx, src)
	if alone := runAlone(c); err == nil && alone != "" && alone != runtime.MainModule && !slices.Contains(res.Modules, alone) {
		opt := srv.opt
		opt.Lint = false // only main's scene is linted
		if ares, aerr := srv.runner.Run(ctx, src, alone, opt); aerr != nil {
			res, err = ares, aerr
		}
	}
	ran <- err
	if err != nil {
		return nil
	}
	save, sum := srv.prepareScene(res), srv.summarize(res.Scene)
	var rec *recording // nil when the files after c are not known before it lands
	if tx.before != nil {
		rec = tx.recordAhead(modules.After(tx.before, c), sum.old, save.json)
	}
	landed := <-put
	if landed.err != nil {
		save.discard()
		rec.abandon()
		return nil
	}
	if c.IsWrite() {
		se.NoteRead(c.Name, c.Next)
	}
	out := &ChangeResult{File: c.Name, Created: landed.created, Warnings: warnings, Files: c.Files()}
	sceneJSON, old := srv.land(res, out, save, sum)
	now := tx.filesAfter(c)
	var warnHistory []string
	if rec != nil {
		out.Entry, warnHistory = rec.save()
	} else {
		out.Entry, warnHistory = tx.record(now, old, sceneJSON)
	}
	out.Warnings = append(out.Warnings, warnHistory...)
	if out.Entry > 0 {
		se.noteMade(out.Entry)
	}
	return out
}

// runAlone names the module a change's run also runs by itself when main does not reach it:
// the file a write or a move leaves (a data file is never run as a script).
func runAlone(c modules.Change) string {
	switch {
	case c.Delete || modules.IsDataName(c.Name):
		return ""
	case c.MoveTo != "":
		return c.MoveTo
	}
	return c.Name
}

// run runs main from src; a workspace without main draws an empty scene.
func (srv *Server) run(ctx context.Context, src runtime.Source) (*runtime.Result, error) {
	res, err := srv.runner.Run(ctx, src, runtime.MainModule, srv.opt)
	if errors.Is(err, runtime.ErrModuleNotFound) || (err != nil && isMissingMain(err)) {
		return &runtime.Result{Scene: scene.New()}, nil
	}
	return res, err
}

// NotApplied is the error of a change refused because its run failed.
func NotApplied(err error) error {
	var d *runtime.Diagnostic
	if errors.As(err, &d) {
		return fmt.Errorf("%s\n%w", strings.TrimRight(d.Render(), "\n"), ErrNotApplied)
	}
	return fmt.Errorf("%w\n%w", err, ErrNotApplied)
}

// land moves the server to the scene of a run whose files have landed: it saves scene.json
// (from save, or prepared now when save is nil), swaps the scene in and fills the answer's
// account of it in out (from sum, or worked out now when sum is nil). It returns the scene's
// JSON (nil when it could not be encoded) and the scene it replaced.
func (srv *Server) land(res *runtime.Result, out *ChangeResult, save *sceneSave, sum *summary) (sceneJSON []byte, old *scene.Scene) {
	out.Logs = res.Logs
	out.Warnings = append(out.Warnings, res.Warnings...)
	if save == nil {
		save = srv.prepareScene(res)
	}
	if sum == nil {
		sum = srv.summarize(res.Scene)
	}
	sceneJSON, err := save.json, save.err
	if err == nil {
		err = save.w.Put()
	}
	if err != nil {
		out.Warnings = append(out.Warnings, fmt.Sprintf("the change landed, but saving %s failed: %v", modules.SceneFile, err))
	}
	lint := lintOf(res)
	srv.mu.Lock()
	srv.scene, srv.lint = res.Scene, lint
	srv.mu.Unlock()
	srv.notify(Change{Files: out.Files, Scene: res.Scene, Run: res.Duration})

	out.Lint = LintLines(lint, MaxLintListed)
	out.Entities, out.Bounds = sum.entities, sum.bounds
	out.Added, out.Removed, out.Changed, out.Restacked, out.More = sum.added, sum.removed, sum.changed, sum.restacked, sum.more
	srv.tellWatchers(sum.old, res.Scene, out)
	out.Warnings = append(out.Warnings, sum.checked...)
	return sceneJSON, sum.old
}

// summary is what an answer says of a run's scene against the scene it replaces. Neither one
// moves under the workspace lock, so a change works it out while its file is still syncing.
type summary struct {
	old                                *scene.Scene // the server's scene, which the run's replaces
	entities                           int
	bounds                             geom.Box
	added, removed, changed, restacked []string
	more                               *MoreCount
	checked                            []string // the watchers' warnings (checkScene)
}

// summarize compares cur with the server's scene. Callers hold the workspace lock.
func (srv *Server) summarize(cur *scene.Scene) *summary {
	old := srv.Scene()
	info := cur.Info()
	s := &summary{old: old, entities: info.Entities, bounds: RoundBox(info.Bounds)}
	s.added, s.removed, s.changed, s.restacked, s.more = diffScenes(old, cur)
	s.checked = srv.checkScene(old, cur)
	return s
}

// isMissingMain reports a run that failed only because scene.code.js does not exist.
func isMissingMain(err error) bool {
	var d *runtime.Diagnostic
	return errors.As(err, &d) && d.Kind == runtime.KindModule && d.File == runtime.PathOf(runtime.MainModule) && d.Line == 0
}

// sceneSave is scene.json's next bytes, written ahead to a temp file (prepareScene) for land.
type sceneSave struct {
	json []byte // the scene's JSON; nil when it could not be encoded
	w    *modules.SceneWrite
	err  error
}

// prepareScene encodes res's scene and writes it to scene.json's temp file.
func (srv *Server) prepareScene(res *runtime.Result) *sceneSave {
	b, err := sceneJSONOf(res)
	if err != nil {
		return &sceneSave{err: err}
	}
	s := &sceneSave{json: b}
	s.w, s.err = srv.ws.PrepareScene(b)
	return s
}

// discard drops a prepared scene that will not be saved; a nil save is none.
func (s *sceneSave) discard() {
	if s != nil && s.w != nil {
		s.w.Discard()
	}
}

// sceneJSONOf is the JSON of a run's scene, for scene.json and the history: the bytes the
// worker sent when the run had one, else encoded here.
func sceneJSONOf(res *runtime.Result) ([]byte, error) {
	if res.SceneJSON != nil {
		return res.SceneJSON, nil
	}
	return res.Scene.MarshalJSON()
}

// UserFile returns the workspace's own file for a name (not a built-in's text), read from
// the workspace.
func (srv *Server) UserFile(name string) ([]byte, bool, error) {
	for _, f := range srv.ws.List() {
		if f.Name == name && f.Source == modules.SourceUser {
			b, _, err := srv.ws.Read(name)
			return b, true, err
		}
	}
	return nil, false, nil
}

// diffScenes names the entities added, removed and changed between two scenes, each list
// capped at MaxListed with the rest counted. It reads scene.Compare, as scene diff does.
func diffScenes(old, cur *scene.Scene) (added, removed, changed, restacked []string, more *MoreCount) {
	d := scene.Compare(old, cur, 0)
	added, removed = d.Added, d.Removed
	for _, c := range d.Changed {
		if c.OnlyZ() {
			restacked = append(restacked, c.Name) // only its place in the stacking moved
		} else {
			changed = append(changed, c.Name)
		}
	}
	var m MoreCount
	added, m.Added = capList(added)
	removed, m.Removed = capList(removed)
	changed, m.Changed = capList(changed)
	restacked, m.Restacked = capList(restacked)
	if m != (MoreCount{}) {
		more = &m
	}
	return added, removed, changed, restacked, more
}

func capList(l []string) ([]string, int) {
	if len(l) <= MaxListed {
		return l, 0
	}
	return l[:MaxListed], len(l) - MaxListed
}

// LoadSavedScene reads the last good scene from scene.json. A scene whose numbers overflow
// when combined (a finite radius under a finite scale whose product is infinite, written by
// an older cadrun) is refused like a malformed one: no view could show it.
func LoadSavedScene(ws *modules.Workspace) (*scene.Scene, error) {
	b, err := ws.LoadScene()
	if err != nil {
		return nil, err
	}
	s, err := scene.ReadJSON(b)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", modules.SceneFile, err)
	}
	if err := runtime.CheckFinite(s); err != nil {
		return nil, fmt.Errorf("reading %s: %w", modules.SceneFile, err)
	}
	return s, nil
}
