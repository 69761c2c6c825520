package cadruntest

// The suite of a folder, as `cadrun test` runs it: the workspace itself (its main module,
// against __snapshots__/scene.*) and each tests/NAME.test.js script (run as main with the
// workspace's modules importable and the testing functions bound; each test('name', fn)
// block is a result of its own, and what the script drew is compared with
// tests/__snapshots__/NAME.*). Workspaces run in parallel; results come back in a fixed
// order.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// Result is one test's outcome.
type Result struct {
	Name      string // "examples/plate", "examples/plate/tests/holes.test.js", "... › block name"
	Workspace string // the workspace folder, as given
	Status    Status
	Message   string   // why it failed: the changes, or the script's diagnostic
	Written   int      // snapshot files written
	Images    []string // difference pictures left in Options.DiffDir
	Duration  time.Duration
}

// blockSep joins a test script's name and a test block's name.
const blockSep = " › "

// Workspaces lists the workspaces under each dir: dir itself when it holds scene.code.js
// or tests/, else those of its immediate subfolders that do.
func Workspaces(dirs []string) ([]string, error) {
	var out []string
	for _, dir := range dirs {
		info, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("no workspace at %q: %w; give a workspace folder or a folder of workspaces", dir, err)
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("%q is not a folder; give a workspace folder (scene.code.js, modules/, tests/)", dir)
		}
		if isWorkspace(dir) {
			out = append(out, filepath.Clean(dir))
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		found := false
		for _, e := range entries {
			sub := filepath.Join(dir, e.Name())
			if e.IsDir() && isWorkspace(sub) {
				out = append(out, sub)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("%q holds no workspace: neither it nor its subfolders have scene.code.js or tests/", dir)
		}
	}
	return out, nil
}

func isWorkspace(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "scene.code.js")); err == nil {
		return true
	}
	info, err := os.Stat(filepath.Join(dir, "tests"))
	return err == nil && info.IsDir()
}

// RunDirs runs the suites of the workspaces under dirs (see Workspaces).
func RunDirs(ctx context.Context, dirs []string, opt Options) ([]Result, error) {
	wss, err := Workspaces(dirs)
	if err != nil {
		return nil, err
	}
	results := make([][]Result, len(wss))
	errs := make([]error, len(wss))
	var wg sync.WaitGroup
	sem := make(chan struct{}, goruntime.GOMAXPROCS(0))
	for i, ws := range wss {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i], errs[i] = runWorkspace(ctx, ws, opt)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return slices.Concat(results...), nil
}

func (o Options) wants(name string) bool { return o.Run == nil || o.Run.MatchString(name) }

func runWorkspace(ctx context.Context, dir string, opt Options) ([]Result, error) {
	ws, err := modules.Open(dir)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	var out []Result
	name := filepath.ToSlash(dir)
	if _, err := os.Stat(filepath.Join(dir, "scene.code.js")); err == nil && opt.wants(name) {
		start := time.Now()
		o, err := render1(ctx, ws, runtime.Options{Limits: opt.Limits}, opt)
		r, err := judge(ws, name, dir, o, err, "__snapshots__", "scene", opt)
		if err != nil {
			return nil, err
		}
		r.Duration = time.Since(start)
		out = append(out, r)
	}
	scripts, err := filepath.Glob(filepath.Join(dir, "tests", "*.test.js"))
	if err != nil {
		return nil, err
	}
	slices.Sort(scripts)
	for _, path := range scripts {
		rs, err := runScript(ctx, ws, dir, path, opt)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// judge turns a run into a result: its diagnostic, or its comparison with the snapshot.
func judge(ws *modules.Workspace, name, dir string, o *Output, runErr error, snapDir, base string, opt Options) (Result, error) {
	r := Result{Name: name, Workspace: dir}
	var d *runtime.Diagnostic
	switch {
	case errors.As(runErr, &d):
		r.Status, r.Message = StatusFail, strings.TrimRight(d.Render(), "\n")
		return r, nil
	case runErr != nil:
		return r, runErr
	}
	rep, err := Compare(ws, snapDir, base, o, opt)
	if err != nil {
		return r, err
	}
	r.Status, r.Message, r.Written, r.Images = rep.Status, rep.Message(), rep.Written, rep.Images
	return r, nil
}

func runScript(ctx context.Context, ws *modules.Workspace, dir, path string, opt Options) ([]Result, error) {
	rel := filepath.ToSlash(filepath.Join("tests", filepath.Base(path)))
	name := filepath.ToSlash(dir) + "/" + rel
	lim := opt.Limits
	if lim.MaxSourceBytes == 0 {
		lim.MaxSourceBytes = runtime.DefaultLimits.MaxSourceBytes
	}
	// Read through the workspace: a FIFO or a device named NAME.test.js is refused at once.
	content, err := ws.ReadTestScript(rel)
	if err != nil {
		return []Result{{Name: name, Workspace: dir, Status: StatusFail, Message: err.Error()}}, nil
	}
	if len(content) > lim.MaxSourceBytes {
		return []Result{{Name: name, Workspace: dir, Status: StatusFail,
			Message: fmt.Sprintf("%s is %d bytes; the limit is %d (MaxSourceBytes); split it into modules", rel, len(content), lim.MaxSourceBytes)}}, nil
	}
	start := time.Now()
	src := runtime.Overlay{Base: ws, Name: runtime.MainModule, Content: content, Path: rel}
	o, runErr := render1(ctx, src, runtime.Options{Limits: opt.Limits, Tests: true}, opt)
	var out []Result
	if o != nil {
		for _, t := range o.Tests {
			r := Result{Name: name + blockSep + t.Name, Workspace: dir, Status: StatusOK, Duration: t.Duration}
			if t.Failure != nil {
				r.Status, r.Message = StatusFail, strings.TrimRight(t.Failure.Render(), "\n")
			}
			if opt.wants(r.Name) {
				out = append(out, r)
			}
		}
	}
	drew := o != nil && o.Scene != nil && o.Scene.Len() > 0
	snapDir := "tests/__snapshots__"
	base := strings.TrimSuffix(filepath.Base(path), ".test.js")
	_, err = ws.ReadSnapshot(snapshotPaths(snapDir, base)[0])
	hasSnapshot := !errors.Is(err, fs.ErrNotExist)
	if !opt.wants(name) {
		return out, nil
	}
	switch {
	case runErr != nil || drew || hasSnapshot:
		r, err := judge(ws, name, dir, o, runErr, snapDir, base, opt)
		if err != nil {
			return nil, err
		}
		r.Duration = time.Since(start)
		out = append(out, r)
	case len(o.Tests) == 0:
		// A script that neither drew nor had test blocks passed by running to its end.
		out = append(out, Result{Name: name, Workspace: dir, Status: StatusOK, Duration: time.Since(start)})
	}
	return out, nil
}

// Count tallies results: new counts as passed, unless it was a failure (CI).
func Count(results []Result) (passed, failed int) {
	for _, r := range results {
		if r.Status == StatusFail {
			failed++
		} else {
			passed++
		}
	}
	return passed, failed
}
