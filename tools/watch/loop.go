// Package watch is the watch loop: what `cadrun watch` does with the changes a
// modules.Watcher notes. Saves come in bursts (an editor writes a temp file, renames, chmods; a formatter rewrites; git checks
// out twenty files), so a run waits for a short quiet window, but never much longer than
// MaxDelay after the burst began, so that a steady stream of saves still shows results.
// One run at a time, on the loop's goroutine: changes that arrive during a run are taken after
// it, so the next run reads the latest state and none is queued behind another.
//
// A run happens only when a file the last run read (main, the modules it imported, directly or
// through a chain, and any it looked for and did not find) now reads differently. The loop
// keeps a hash of every file a run read, taken from the very bytes the run saw, so a save that
// changes nothing, or a change to a module main does not import, costs no run. A file that
// reads as missing or empty where the last run had content is taken for a save in progress
// (vim and JetBrains remove the file for a moment; VS Code truncates, then writes) and is
// given SaveGrace to come back before a run sees it.
//
// A data file that a run read and that has a schema (data/NAME.schema.json) is checked against
// it after the run, as the write path checks it before: a file that does not match fails the
// run with the same error, so that the watch never shows as good what an agent's write would
// refuse. The schema is then one of the files the run read, and a save to it runs again.
package watch

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/internal/schemacheck"
)

// Watch timing; docs/limits.md lists them.
const (
	// Quiet is how long no event must arrive before a run starts.
	Quiet = 60 * time.Millisecond
	// MaxDelay caps the wait: a run starts at most this long after the first event of
	// a burst, however long the burst goes on.
	MaxDelay = 500 * time.Millisecond
	// SaveGrace is how long a file that reads as missing or empty (where the last run
	// read content) is taken for a save in progress before a run sees it so.
	SaveGrace = 500 * time.Millisecond
)

// ChangeFeed is where a watch learns of changes; *modules.Watcher is one. Take is called on
// the watch loop's goroutine after each signal from Changed.
type ChangeFeed interface {
	Changed() <-chan struct{}
	Take() modules.Changes
}

// RunUpdate is the outcome of one run of a watch, as `cadrun watch` prints it and a viewer
// shows it.
type RunUpdate struct {
	Run     int // runs so far, this one included
	Version int // the scene version: good runs so far; 0 before the first
	// Scene is the last good scene: this run's when it succeeded, else the one before (nil
	// before any run succeeded). Read-only.
	Scene      *scene.Scene
	Diagnostic *runtime.Diagnostic // why this run failed; nil when it succeeded
	Err        error               // a failure that is not the script's (a worker that would not start)
	Files      []string            // the logical names whose change caused the run; empty for the first
	Entities   int                 // entities in this run's scene when it succeeded
	Logs       []string
	Warnings   []string
	Duration   time.Duration // wall time of the run, worker round trip included
}

// OK reports whether the run succeeded.
func (u RunUpdate) OK() bool { return u.Diagnostic == nil && u.Err == nil }

// Config sets up a watch.
type Config struct {
	// Open opens the workspace to run from; it is called at the start and again when the
	// workspace folder was made again. A Source that is an io.Closer is closed when replaced.
	Open    func() (runtime.Source, error)
	Feed    ChangeFeed
	Runner  runtime.Runner
	Options runtime.Options
	// Publish is called on the loop's goroutine after every run, in order; the next run waits
	// for it to return.
	Publish func(RunUpdate)
	// Notice, when set, is told of events a person watching may want to know of (the watch
	// itself failing somewhere, a rescan); it is called on the loop's goroutine.
	Notice func(string)
	// Schemas checks the data files a run read against their schemas; nil is the process's
	// shared checker, the one the tools' writes use.
	Schemas *schemacheck.Checker
}

// Run runs main once, then again after every change that matters, until ctx is done. It
// never writes to the workspace. The error is set only when the workspace could not be
// opened at the start.
func Run(ctx context.Context, cfg Config) error {
	l := &watchLoop{cfg: cfg, pending: map[string]bool{}, schemas: cfg.Schemas}
	if l.schemas == nil {
		l.schemas = schemacheck.Shared()
	}
	src, err := cfg.Open()
	if err != nil {
		return err
	}
	l.src = src
	defer func() { closeSource(l.src) }()
	l.run(ctx, nil)

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-cfg.Feed.Changed():
			l.take(cfg.Feed.Take())
			if wait, ok := l.wait(time.Now()); ok {
				timer.Reset(wait)
			}
		case <-timer.C:
			if wait, again := l.fire(ctx); again {
				timer.Reset(wait)
			}
		}
	}
}

// fileState is how a run (or a re-check) found a file.
type fileState struct {
	hash    [sha256.Size]byte
	path    string // where it was read from: its workspace path, or builtin/NAME.js
	missing bool   // not found, or unreadable
	empty   bool
}

// hasContent reports whether the file was there with something in it.
func (s fileState) hasContent() bool { return !s.missing && !s.empty }

type watchLoop struct {
	cfg     Config
	src     runtime.Source
	schemas *schemacheck.Checker

	// What the last run read, by logical name; when deps is nil (no run finished reading), any
	// change runs.
	deps map[string]fileState

	pending     map[string]bool // names changed since the last run
	rescan      bool
	first, last time.Time // first and latest event of the burst; first is zero when none is pending
	graceEnd    time.Time // a file looks mid-save: wait for it until then

	runs, version int
	good          *scene.Scene
}

// take adds a batch of changes to the pending burst.
func (l *watchLoop) take(c modules.Changes) {
	for _, err := range c.Errs {
		l.notice(err.Error())
	}
	if c.Reopen {
		if src, err := l.cfg.Open(); err != nil {
			l.notice("opening the workspace again: " + err.Error())
		} else {
			closeSource(l.src)
			l.src = src
		}
	}
	if c.Rescan {
		l.rescan = true
	}
	for _, n := range c.Names {
		l.pending[n] = true
	}
	if len(c.Names) == 0 && !c.Rescan {
		return
	}
	now := time.Now()
	if l.first.IsZero() {
		l.first = now
	}
	l.last = now
}

// wait is how long from now until the pending burst should be checked.
func (l *watchLoop) wait(now time.Time) (time.Duration, bool) {
	if l.first.IsZero() {
		return 0, false
	}
	at := l.last.Add(Quiet)
	if limit := l.first.Add(MaxDelay); limit.Before(at) {
		at = limit
	}
	return max(at.Sub(now), 0), true
}

// fire checks the pending burst: it runs when a file the last run read changed, waits a little
// more when one looks mid-save, and otherwise forgets the burst. again asks to be called
// back after wait.
func (l *watchLoop) fire(ctx context.Context) (wait time.Duration, again bool) {
	if l.first.IsZero() {
		return 0, false
	}
	now := time.Now()
	changed, saving := l.check()
	if saving {
		if l.graceEnd.IsZero() {
			l.graceEnd = now.Add(SaveGrace)
		}
		if now.Before(l.graceEnd) {
			return min(Quiet, l.graceEnd.Sub(now)), true
		}
	}
	if l.rescan {
		l.notice("events were lost or the workspace folder changed; read everything again")
	}
	clear(l.pending)
	l.rescan = false
	l.first, l.last, l.graceEnd = time.Time{}, time.Time{}, time.Time{}
	if len(changed) > 0 {
		l.run(ctx, changed)
	}
	return 0, false
}

// check re-reads the pending files the last run read and lists those that differ now; saving
// reports that one reads as missing or empty where the run read content.
func (l *watchLoop) check() (changed []string, saving bool) {
	if l.deps == nil {
		names := slices.Sorted(maps.Keys(l.pending))
		if len(names) == 0 && l.rescan {
			names = []string{runtime.MainModule}
		}
		return names, false
	}
	var names []string
	for n := range l.deps {
		if l.rescan || l.pending[n] {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		was := l.deps[n]
		now := readState(l.src, n)
		if now == was {
			continue
		}
		changed = append(changed, n)
		if was.hasContent() && (!now.hasContent() || (strings.HasPrefix(now.path, "builtin/") && !strings.HasPrefix(was.path, "builtin/"))) {
			saving = true
		}
	}
	return changed, saving
}

// run runs main and publishes the outcome. files are the names whose change caused it.
func (l *watchLoop) run(ctx context.Context, files []string) {
	rec := &recordingSource{Source: l.src, read: map[string]fileState{}}
	start := time.Now()
	res, err := l.cfg.Runner.Run(ctx, rec, runtime.MainModule, l.cfg.Options)
	if ctx.Err() != nil {
		return // stopping: a cancelled run is not news
	}
	if derr := l.checkReadData(ctx, rec); derr != nil {
		if ctx.Err() != nil {
			return
		}
		err = derr // as the write path, which checks the data before the run
	}
	elapsed := time.Since(start)
	l.runs++
	l.deps = rec.states()
	u := RunUpdate{Run: l.runs, Files: files, Duration: elapsed}
	if res != nil {
		u.Logs, u.Warnings = res.Logs, res.AllWarnings()
	}
	var d *runtime.Diagnostic
	switch {
	case err == nil && res != nil:
		l.version++
		l.good = res.Scene
		u.Entities = res.Scene.Len()
	case errors.As(err, &d):
		u.Diagnostic = d
	case err != nil:
		u.Err = err
		if len(l.deps) == 0 {
			l.deps = nil // nothing was read: let any change run again
		}
	}
	u.Version, u.Scene = l.version, l.good
	if l.cfg.Publish != nil {
		l.cfg.Publish(u)
	}
}

func (l *watchLoop) notice(s string) {
	if l.cfg.Notice != nil {
		l.cfg.Notice(s)
	}
}

// checkReadData checks every data file the run read (and found) against its schema, reading
// the schemas through rec so that they count among the files the run read.
func (l *watchLoop) checkReadData(ctx context.Context, rec *recordingSource) error {
	states := rec.states()
	for _, n := range slices.Sorted(maps.Keys(states)) {
		if schema, ok := modules.SchemaOf(n); ok && !states[n].missing {
			if err := l.schemas.Check(ctx, rec, n, schema); err != nil {
				return err
			}
		}
	}
	return nil
}

// readState reads a file the way a run would and sums it up.
func readState(src runtime.Source, name string) fileState {
	b, path, err := src.Read(name)
	return stateOf(b, path, err)
}

func stateOf(b []byte, path string, err error) fileState {
	if err != nil {
		return fileState{path: path, missing: true}
	}
	return fileState{hash: sha256.Sum256(b), path: path, empty: len(b) == 0}
}

// recordingSource notes the state of every file a run reads, from the bytes it was given the
// first time (a file read again after the run, to check it against its schema, may have
// changed since; the next check then sees that). A Pool reads from other goroutines, hence
// the lock.
type recordingSource struct {
	runtime.Source
	mu   sync.Mutex
	read map[string]fileState
}

func (r *recordingSource) Read(name string) ([]byte, string, error) {
	b, path, err := r.Source.Read(name)
	r.mu.Lock()
	if _, ok := r.read[name]; !ok {
		r.read[name] = stateOf(b, path, err)
	}
	r.mu.Unlock()
	return b, path, err
}

func (r *recordingSource) states() map[string]fileState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.read)
}

func closeSource(src runtime.Source) {
	if c, ok := src.(io.Closer); ok {
		c.Close()
	}
}
