package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
)

// watcher records what the engine tells a feature.
type watcher struct {
	checked, landed []int // the entity counts of the scenes seen
	warn            string
}

func (w *watcher) Check(_, cur *scene.Scene) []string {
	w.checked = append(w.checked, cur.Len())
	if w.warn == "" {
		return nil
	}
	return []string{w.warn}
}

func (w *watcher) Landed(_, cur *scene.Scene, _ *ChangeResult) {
	w.landed = append(w.landed, cur.Len())
}

func newTestServer(t *testing.T, files map[string]string, hooks Options) (*Server, string) {
	t.Helper()
	dir := testws.Files(t, files)
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}, hooks), dir
}

func write(name, code string) func([]byte, bool) (modules.Change, error) {
	return func([]byte, bool) (modules.Change, error) { return modules.Change{Name: name, Next: []byte(code)}, nil }
}

// A change that runs lands: the file, the scene, the history and the watchers follow; one
// that does not run leaves the file as it was, and no watcher hears of it.
func TestCommit(t *testing.T) {
	t.Parallel()
	w := &watcher{warn: "a watcher's word"}
	srv, dir := newTestServer(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"}, Options{Watchers: []Watcher{w}})
	se := srv.Session()
	res, err := se.Commit(context.Background(), "main", write("main", "drawCircle('a', 0, 0, 1)\ndrawRect('b', 0, 0, 1, 1)\n"), OverwriteWarning)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"b"}, res.Added); diff != "" || res.Entities != 2 || res.Entry == 0 {
		t.Errorf("answer %+v: added mismatch (-want +got):\n%s", res, diff)
	}
	if diff := cmp.Diff([]string{OverwriteWarning, "a watcher's word"}, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if srv.Scene().Len() != 2 {
		t.Errorf("the scene has %d entities, want 2", srv.Scene().Len())
	}
	_, err = se.Commit(context.Background(), "main", write("main", "drawCircle('a', 0, 0,\n"), "")
	if !errors.Is(err, ErrNotApplied) {
		t.Errorf("a change that does not run: %v; want ErrNotApplied", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "scene.code.js"))
	if string(b) != "drawCircle('a', 0, 0, 1)\ndrawRect('b', 0, 0, 1, 1)\n" {
		t.Errorf("main after a refused change: %q", b)
	}
	if diff := cmp.Diff([]int{2}, w.landed); diff != "" {
		t.Errorf("landings seen mismatch (-want +got):\n%s", diff)
	}
}

// CheckChange refuses a change before it runs, naming why; nothing lands.
func TestCheckChange(t *testing.T) {
	t.Parallel()
	refuse := errors.New("refused by a feature")
	srv, _ := newTestServer(t, nil, Options{CheckChange: func(context.Context, modules.Change, runtime.Source) error { return refuse }})
	_, err := srv.Session().Commit(context.Background(), "main", write("main", "drawCircle('a', 0, 0, 1)\n"), "")
	if !errors.Is(err, refuse) || !errors.Is(err, ErrNotApplied) {
		t.Errorf("got %v; want the feature's refusal, not applied", err)
	}
	if srv.Scene().Len() != 0 {
		t.Errorf("the refused change landed")
	}
}

// markingRunner runs in this process and answers, as a good run's lint, a finding of its own:
// an answer that lists it was made from the run's findings, not by a lint in the server. It
// records whether each run was asked to lint.
type markingRunner struct {
	mu    sync.Mutex
	asked []bool
}

var marker = lint.Finding{Rule: "marker", Message: "linted where the script ran"}

func (r *markingRunner) Run(ctx context.Context, src runtime.Source, entry string, opt runtime.Options) (*runtime.Result, error) {
	r.mu.Lock()
	r.asked = append(r.asked, opt.Lint)
	r.mu.Unlock()
	res, err := runtime.InProcess{}.Run(ctx, src, entry, opt)
	if err == nil {
		res.Lint = []lint.Finding{marker}
	}
	return res, err
}

// TestWriteLintFromTheRun: a change's answer lists the lint findings its run made where it ran
// (runtime.Options.Lint, in the worker under a Pool): the server lints nothing itself, which
// took it 2 GB for 12,000 texts drawn over each other.
func TestWriteLintFromTheRun(t *testing.T) {
	t.Parallel()
	dir := testws.Files(t, nil)
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	r := &markingRunner{}
	srv := NewServer(context.Background(), ws, r, runtime.Options{}, Options{})
	texts := "drawText('a', 'WWWW', 0, 0, 5)\ndrawText('b', 'WWWW', 1, 0, 5)\n" // they overlap
	res, err := srv.Session().Commit(context.Background(), "main", write("main", texts), "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{marker.String()}, res.Lint); diff != "" {
		t.Errorf("the answer's lint mismatch (-want +got):\n%s", diff)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, lint := range r.asked {
		if !lint {
			t.Errorf("run %d was not asked to lint", i)
		}
	}
}

// TestLintKeptWithTheScene: the server keeps the findings of the run that made its scene, at
// its start, a change and a sync alike, for `scene lint`; a scene no run made (scene.json,
// when main does not run) is linted when asked.
func TestLintKeptWithTheScene(t *testing.T) {
	t.Parallel()
	texts := "drawText('a', 'WWWW', 0, 0, 5)\ndrawText('b', 'WWWW', 1, 0, 5)\n"
	dir := testws.Files(t, map[string]string{"scene.code.js": texts})
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	srv := NewServer(context.Background(), ws, &markingRunner{}, runtime.Options{}, Options{})
	want := []lint.Finding{marker}
	if _, got := srv.Lint(); !cmp.Equal(want, got) {
		t.Errorf("at the start: %q; want the run's %q", got, want)
	}
	if _, err := srv.Session().Commit(context.Background(), "main", write("main", texts+"drawCircle('c', 100, 100, 1)\n"), OverwriteWarning); err != nil {
		t.Fatal(err)
	}
	if _, got := srv.Lint(); !cmp.Equal(want, got) {
		t.Errorf("after a change: %q; want the run's %q", got, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte(texts), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := srv.Sync(context.Background()); err != nil || !s.Ran {
		t.Fatalf("sync: %+v, %v; want a run", s, err)
	}
	if _, got := srv.Lint(); !cmp.Equal(want, got) {
		t.Errorf("after a sync: %q; want the run's %q", got, want)
	}

	// main no longer runs: a new server starts from scene.json, the change's scene.
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawText(\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again := NewServer(context.Background(), ws, &markingRunner{}, runtime.Options{}, Options{})
	sc, got := again.Lint()
	if sc.Len() != 3 || len(got) != 1 || got[0].Rule != lint.RuleTextOverlap {
		t.Errorf("a scene from scene.json (%d entities): %q; want its text-overlap", sc.Len(), got)
	}
}
