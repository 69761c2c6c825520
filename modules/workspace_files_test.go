package modules

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestDerivedFilesNeverBlock: a FIFO in place of any file cadrun reads (the history log, a
// history object, scene.json, the lock, a directory) is refused at once; a read that opened it
// plainly would wait for a writer for ever, holding the workspace lock.
func TestDerivedFilesNeverBlock(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)"})

	mkfifo(t, filepath.Join(dir, ".cadrun/history/log.json"))
	h, warning := w.LoadHistory()
	want := "the build history in .cadrun/history/log.json could not be read (not a regular file: .cadrun/history/log.json is a named pipe (FIFO); " +
		"cadrun reads only regular files there: remove it); it starts again from this change, and the old log is kept as .cadrun/history/log.bad.json"
	if diff := cmp.Diff(want, warning); diff != "" {
		t.Errorf("warning mismatch (-want +got):\n%s", diff)
	}
	files, err := w.UserFiles()
	if err != nil {
		t.Fatal(err)
	}
	e, err := h.Record(files, []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Save(); err != nil {
		t.Fatalf("saving over the FIFO's place: %v", err)
	}
	if h2, warning := w.LoadHistory(); warning != "" || len(h2.Entries) != 1 {
		t.Errorf("history after save: %d entries, warning %q", len(h2.Entries), warning)
	}

	// A FIFO in place of an object is refused as damaged, not read.
	obj := filepath.Join(dir, ".cadrun/history/objects", e.Scene)
	if err := os.Remove(obj); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, obj)
	_, err = h.Scene(e)
	want = "entry 1, scene: history: object " + e.Scene + ": not a regular file: .cadrun/history/objects/" + e.Scene +
		" is a named pipe (FIFO); cadrun reads only regular files there: remove it"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("object error mismatch (-want +got):\n%s", diff)
	}
	// Recording the same content again replaces the FIFO.
	if _, err := h.Record(files, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Scene(e); err != nil {
		t.Errorf("after recording again: %v", err)
	}

	mkfifo(t, filepath.Join(dir, SceneFile))
	_, err = w.LoadScene()
	want = "not a regular file: scene.json is a named pipe (FIFO); cadrun reads only regular files there: remove it"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("scene.json error mismatch (-want +got):\n%s", diff)
	}

	// Directories: a FIFO named data or modules is skipped by the listing.
	mkfifo(t, filepath.Join(dir, "data"))
	mkfifo(t, filepath.Join(dir, "modules"))
	if got := len(w.List()); got != 4 { // main and the three built-ins
		t.Errorf("List: %d files, want 4", got)
	}
}

func TestLockFileFIFO(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	mkfifo(t, filepath.Join(dir, ".cadrun/lock"))
	_, err := w.Lock(context.Background())
	want := "locking workspace: not a regular file: .cadrun/lock is a named pipe (FIFO); remove it (cadrun creates it again)"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestHardlinkRefused: a hardlink is the file itself, wherever its other name is, so os.Root
// cannot keep it inside the workspace; reads refuse a file with more than one link.
func TestHardlinkRefused(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.js")
	if err := os.WriteFile(outside, []byte("const secret = 'outside'"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, dir := workspace(t, map[string]string{"modules/own.js": "const own = 1"})
	// t.TempDir puts both directories on one filesystem, so the link can be made.
	if err := os.Link(outside, filepath.Join(dir, "modules", "leak.js")); err != nil {
		t.Fatal(err)
	}
	outsideMain := filepath.Join(filepath.Dir(outside), "main.js")
	if err := os.WriteFile(outsideMain, []byte("drawCircle('c', 0, 0, 1)"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outsideMain, filepath.Join(dir, "scene.code.js")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"leak", "main"} {
		p := map[string]string{"leak": "modules/leak.js", "main": "scene.code.js"}[name]
		b, _, err := w.Read(name)
		want := "file has other hard links: " + p + " has 2 hard links, so it may be a file outside the workspace under a second name; " +
			"cadrun does not read it: replace it with a copy (cp --remove-destination SOURCE " + p + "), or write it again with the write tool"
		if diff := cmp.Diff(want, errText(err)); diff != "" || b != nil {
			t.Errorf("Read(%s) = %q; error mismatch (-want +got):\n%s", name, b, diff)
		}
		if !errors.Is(err, ErrLinked) {
			t.Errorf("Read(%s): %v is not ErrLinked", name, err)
		}
	}
	var names []string
	for _, f := range w.List() {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"annotate", "own", "patterns", "shapes"}, names); diff != "" {
		t.Errorf("List mismatch (-want +got):\n%s", diff)
	}
	// Writing breaks the link; the file then reads again.
	if _, err := w.write("leak", []byte("const mine = 1"), nil); err != nil {
		t.Fatal(err)
	}
	if b, _, err := w.Read("leak"); err != nil || string(b) != "const mine = 1" {
		t.Errorf("after write: %q, %v", b, err)
	}
}

// TestModulesIsAFile: a regular file named modules hides no built-in, and the error for a user
// module says what is wrong.
func TestModulesIsAFile(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, map[string]string{"modules": "not a directory"})
	b, p, err := w.Read("shapes")
	if err != nil || p != "builtin/shapes.js" || !strings.Contains(string(b), "regularPolygon") {
		t.Errorf("Read(shapes) = %s, %v", p, err)
	}
	_, _, err = w.Read("house")
	want := "modules/house.js cannot exist: modules is not a directory, so the workspace has no modules of its own; " +
		"rename or remove the file named modules (built-in modules still import)"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"annotate", "patterns", "shapes"}, w.Names()); diff != "" {
		t.Errorf("Names mismatch (-want +got):\n%s", diff)
	}
}

func TestWriteModulesIsAFile(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, map[string]string{"modules": "not a directory"})
	_, err := w.write("house", []byte("const h = 1"), nil)
	want := "writing modules/house.js: modules is not a directory; rename or remove the file named modules, then write again"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestWatchScanFIFO: the watcher's scan of modules/ and data/ opens them as the workspace
// does; a FIFO in their place is skipped, not waited on.
func TestWatchScanFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, "modules"))
	mkfifo(t, filepath.Join(dir, "data"))
	w := &Watcher{abs: dir}
	if got, dirs := w.scanDirs(modulesDir); got != nil || dirs != nil {
		t.Errorf("scanDirs(modules) = %q, %q", got, dirs)
	}
	if stamps, _ := w.stamps(); len(stamps) != 0 {
		t.Errorf("stamps = %v", stamps)
	}
}
