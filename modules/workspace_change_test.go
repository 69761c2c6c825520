package modules

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/runtime"
)

func TestAfter(t *testing.T) {
	t.Parallel()
	before := files("main", "m", "house", "h", "door.json", "{}")
	for _, tc := range []struct {
		name string
		c    Change
		want map[string][]byte
	}{
		{"write", Change{Name: "house", Next: []byte("h2")}, files("main", "m", "house", "h2", "door.json", "{}")},
		{"new", Change{Name: "roof", Next: []byte("r")}, files("main", "m", "house", "h", "door.json", "{}", "roof", "r")},
		{"delete", Change{Name: "house", Delete: true}, files("main", "m", "door.json", "{}")},
		{"move", Change{Name: "house", MoveTo: "home"}, files("main", "m", "home", "h", "door.json", "{}")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, After(before, tc.c)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if diff := cmp.Diff(files("main", "m", "house", "h", "door.json", "{}"), before); diff != "" {
		t.Errorf("before was changed (-want +got):\n%s", diff)
	}
}

// apply makes c as a transaction does: Prepare, then Put and Sync.
func apply(w *Workspace, c Change, before map[string][]byte) (created bool, err error) {
	p, err := w.Prepare(c, before)
	if err != nil {
		return false, err
	}
	if created, err = p.Put(); err != nil {
		return false, err
	}
	return created, p.Sync()
}

// TestApplyThenFilesAreAfter pins what the tool layer relies on: the files on disk after a
// change is made are exactly After of the files before, so they need not be read again.
func TestApplyThenFilesAreAfter(t *testing.T) {
	t.Parallel()
	for _, c := range []Change{
		{Name: "house", Next: []byte("drawCircle('h', 0, 0, 2)")},
		{Name: "roof", Next: []byte("drawCircle('r', 0, 0, 1)")},
		{Name: "door.json", Next: []byte(`{"w": 2}`)},
		{Name: "house", Delete: true},
		{Name: "house", MoveTo: "home"},
		{Name: "house", MoveTo: "House"},
	} {
		w, _ := workspace(t, map[string]string{"scene.code.js": "import 'house'", "modules/house.js": "drawCircle('h', 0, 0, 1)", "data/door.json": "{}"})
		before, err := w.UserFiles()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := apply(w, c, before); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		now, err := w.UserFiles()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(now, After(before, c)); diff != "" {
			t.Errorf("%+v: files mismatch (-want +got):\n%s", c, diff)
		}
	}
}

func TestApplyRefusesCaseCollisionFromKnownFiles(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, map[string]string{"modules/house.js": "drawCircle('h', 0, 0, 1)"})
	before, err := w.UserFiles()
	if err != nil {
		t.Fatal(err)
	}
	_, err = apply(w, Change{Name: "House", Next: []byte("x")}, before)
	want := "name differs only in case from an existing module: modules/House.js would collide with modules/house.js; use the existing name or choose another"
	if err == nil || err.Error() != want || !errors.Is(err, ErrCaseCollision) {
		t.Errorf("error = %v, want %q", err, want)
	}
}

// TestChangeSource reads the workspace as a change would leave it, from the files before
// and from the workspace alike (nil before).
func TestChangeSource(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, map[string]string{"scene.code.js": "import 'house'", "modules/house.js": "h", "modules/roof.js": "r"})
	disk, err := w.UserFiles()
	if err != nil {
		t.Fatal(err)
	}
	type read struct{ Content, Path, Err string }
	readAll := func(src runtime.Source, names ...string) []read {
		var out []read
		for _, n := range names {
			b, p, err := src.Read(n)
			r := read{Content: string(b), Path: p}
			if err != nil {
				r.Err = err.Error()
			}
			out = append(out, r)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		c         Change
		wantNames []string
		want      []read
	}{
		{"write", Change{Name: "house", Next: []byte("h2")}, []string{"house", "roof"},
			[]read{{"h2", "modules/house.js", ""}, {"r", "modules/roof.js", ""}, {"import 'house'", "scene.code.js", ""}}},
		{"delete", Change{Name: "house", Delete: true}, []string{"roof"},
			[]read{{"", "modules/house.js", `module not found: "house"`}, {"r", "modules/roof.js", ""}, {"import 'house'", "scene.code.js", ""}}},
		{"move", Change{Name: "house", MoveTo: "home"}, []string{"home", "roof"},
			[]read{{"", "modules/house.js", `module not found: "house"`}, {"r", "modules/roof.js", ""}, {"import 'house'", "scene.code.js", ""}, {"h", "modules/home.js", ""}}},
	} {
		for _, before := range []map[string][]byte{disk, nil} {
			src := w.ChangeSource(before, tc.c)
			names := []string{}
			for _, n := range src.Names() {
				if !IsBuiltin(n) {
					names = append(names, n)
				}
			}
			if diff := cmp.Diff(tc.wantNames, names); diff != "" {
				t.Errorf("%s (before known: %t): names mismatch (-want +got):\n%s", tc.name, before != nil, diff)
			}
			if diff := cmp.Diff(tc.want, readAll(src, "house", "roof", "main", "home")[:len(tc.want)]); diff != "" {
				t.Errorf("%s (before known: %t): reads mismatch (-want +got):\n%s", tc.name, before != nil, diff)
			}
		}
	}
}

// TestHistoryLogReplays: after every Save, a workspace that has not seen the history (so
// reads the log from disk) loads the same history; each Save appends one line, until the log
// holds as many records as the history keeps entries and is written whole again. Labels with
// characters JSON escapes, a label set after its entry was saved, an undo then a new entry
// (the redo tail dropped) and entries trimmed at the cap are all replayed.
func TestHistoryLogReplays(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	w.historyCap = 4
	h, _ := w.LoadHistory()
	lines := func() int {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(historyLog)))
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Count(b, []byte("\n"))
	}
	check := func(what string, wantLines int) {
		t.Helper()
		got, warn := reopenHistory(t, dir)
		if warn != "" {
			t.Fatalf("%s: %s", what, warn)
		}
		type state struct {
			Entries []HistoryEntry
			Pos     int
			NextID  int
		}
		want := state{h.Entries, h.Pos, h.nextID}
		if diff := cmp.Diff(want, state{got.Entries, got.Pos, got.nextID}, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: history read back mismatch (-want +got):\n%s", what, diff)
		}
		if n := lines(); n != wantLines {
			t.Errorf("%s: the log has %d lines, want %d", what, n, wantLines)
		}
	}
	save := func() {
		t.Helper()
		if err := h.Save(); err != nil {
			t.Fatal(err)
		}
	}
	save()
	check("empty", 2)
	record(t, h, files("main", "1"), "s1")
	check("one", 3)
	if err := h.Label("<a & \"b\">\u2028x"); err != nil {
		t.Fatal(err)
	}
	save()
	check("labelled", 4)
	save()
	check("saved again without a change", 4)
	record(t, h, files("main", "2", "m", "x"), "s2")
	check("two", 5)
	record(t, h, files("main", "3"), "s3")
	check("three (the log had four records: written whole)", 2)
	if err := h.MoveTo(0); err != nil {
		t.Fatal(err)
	}
	save()
	check("undone", 3)
	record(t, h, files("main", "4"), "s4")
	check("redo tail dropped", 4)
	for i := range 3 {
		record(t, h, files("main", fmt.Sprint(5+i)), "s")
	}
	check("trimmed at the cap", 3)
	if diff := cmp.Diff([]int{1, 5, 6, 7}, ids(h)); diff != "" {
		t.Errorf("ids mismatch (-want +got):\n%s", diff)
	}
}

// reopenHistory loads the history of the workspace in dir as a workspace that has not seen it
// does: from the log on disk. The workspace stays open for the rest of the test.
func reopenHistory(t *testing.T, dir string) (*History, string) {
	t.Helper()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w.LoadHistory()
}

// TestHistoryLogTornLine: a line cut short by a writer that stopped midway is ignored, and
// the next Save writes the log whole rather than append to it.
func TestHistoryLogTornLine(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, _ := w.LoadHistory()
	record(t, h, files("main", "1"), "s1")
	logPath := filepath.Join(dir, filepath.FromSlash(historyLog))
	f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"add":[{"id":2,"fi`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	h2, warn := reopenHistory(t, dir)
	if warn != "" || len(h2.Entries) != 1 {
		t.Fatalf("with a torn line: %d entries, warning %q; want 1 and none", len(h2.Entries), warn)
	}
	record(t, h2, files("main", "2"), "s2")
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(`"fi{`)) || !bytes.HasSuffix(b, []byte("\n")) || bytes.Count(b, []byte("\n")) != 2 {
		t.Errorf("the log after a torn line was not written whole:\n%s", b)
	}
	h3, warn := w.LoadHistory()
	if diff := cmp.Diff([]int{1, 2}, ids(h3)); diff != "" || warn != "" {
		t.Errorf("ids mismatch (-want +got):\n%s%s", diff, warn)
	}
}

// TestHistoryLogFirstFormat: a log.json of the first format is read, and replaced by
// log.jsonl at the first Save.
func TestHistoryLogFirstFormat(t *testing.T) {
	t.Parallel()
	s := hashOf([]byte("s"))
	w, dir := workspace(t, map[string]string{
		historyLogV1: `{"version":1,"next_id":3,"current":2,"entries":[{"id":1,"files":{"main":"` + s + `"},"scene":"` + s + `","label":"first"},{"id":2,"files":{},"scene":"` + s + `"}]}`,
	})
	h, warn := w.LoadHistory()
	if warn != "" || h.Pos != 1 || h.nextID != 3 {
		t.Fatalf("read %+v, warning %q", h, warn)
	}
	if e, ok := h.Find("first"); !ok || e.ID != 1 {
		t.Errorf("Find(first) = %+v, %t", e, ok)
	}
	record(t, h, files("main", "x"), "s")
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(historyLogV1))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("log.json after the first Save: %v; want it gone", err)
	}
	h2, warn := reopenHistory(t, dir)
	if diff := cmp.Diff([]int{1, 2, 3}, ids(h2)); diff != "" || warn != "" {
		t.Errorf("ids mismatch (-want +got):\n%s%s", diff, warn)
	}
}

// TestHistoryCollectsDroppedObjects: once a workspace has swept objects/, later Saves remove
// the dropped entries' objects by name, and keep the objects other entries still use.
func TestHistoryCollectsDroppedObjects(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	w.historyCap = 2
	h, _ := w.LoadHistory()
	for i := range 6 {
		record(t, h, files("main", string(rune('a'+i)), "lib", "shared"), "s")
	}
	checkObjects(t, dir, "e", "f", "s", "shared")
}

// TestPrepareThenPutOrDiscard: a prepared write leaves the file as it was, with its bytes in
// one temp file; Discard removes that, Put and Sync make it the file.
func TestPrepareThenPutOrDiscard(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"modules/house.js": "old"})
	house := filepath.Join(dir, "modules", "house.js")
	c := Change{Name: "house", Next: []byte("new")}

	p, err := w.Prepare(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, left := readFile(t, house), len(temps(t, dir)); got != "old" || left != 1 {
		t.Errorf("prepared: file %q, %d temp files; want \"old\" and 1", got, left)
	}
	p.Discard()
	if got, left := readFile(t, house), temps(t, dir); got != "old" || len(left) != 0 {
		t.Errorf("discarded: file %q, temp files %v; want \"old\" and none", got, left)
	}

	p, err = w.Prepare(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	created, err := p.Put()
	if err == nil {
		err = p.Sync()
	}
	if err != nil || created {
		t.Fatalf("Put, Sync = %t, %v; want false, nil", created, err)
	}
	if got, left := readFile(t, house), temps(t, dir); got != "new" || len(left) != 0 {
		t.Errorf("landed: file %q, temp files %v; want \"new\" and none", got, left)
	}
	if _, err := w.Prepare(Change{Name: "House", Next: []byte("x")}, nil); !errors.Is(err, ErrCaseCollision) {
		t.Errorf("Prepare of a case collision = %v; want ErrCaseCollision", err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("a refused Prepare left temp files: %v", left)
	}
}

// TestTransactionListsModulesOnce: a transaction reads the user files once (one listing of
// modules/), and applying a write or a delete with those files lists nothing more (the case
// check of a write's name uses them).
func TestTransactionListsModulesOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []Change{
		{Name: "house", Next: []byte("drawCircle('h', 0, 0, 2)")},
		{Name: "roof", Next: []byte("drawCircle('r', 0, 0, 1)")},
		{Name: "house", Delete: true},
	} {
		w, _ := workspace(t, map[string]string{"scene.code.js": "import 'house'", "modules/house.js": "drawCircle('h', 0, 0, 1)", "modules/wall.js": "w"})
		var listed []string
		w.onList = func(dir string) { listed = append(listed, dir) }
		before, err := w.UserFiles()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := apply(w, c, before); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"modules"}, listed); diff != "" {
			t.Errorf("%s: listings mismatch (-want +got):\n%s", c.Name, diff)
		}
	}
}
