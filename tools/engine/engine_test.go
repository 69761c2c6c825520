package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
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
