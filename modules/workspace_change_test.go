package modules

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// TestApplyThenFilesAreAfter pins what the tool layer relies on: the files on disk after
// Apply are exactly After of the files before, so they need not be read again.
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
		if _, err := w.Apply(c, before); err != nil {
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
	_, err = w.Apply(Change{Name: "House", Next: []byte("x")}, before)
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

// TestHistoryLogEncoding pins the log's bytes to json.Marshal of the whole log, which the
// per-entry encoding must keep: labels with characters JSON escapes, a label changed after
// its entry was saved, an empty log.
func TestHistoryLogEncoding(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, _ := w.LoadHistory()
	check := func(what string) {
		t.Helper()
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(historyLog)))
		if err != nil {
			t.Fatal(err)
		}
		f := historyFile{Version: historyVersion, NextID: h.nextID, Entries: h.Entries}
		if f.Entries == nil {
			f.Entries = []HistoryEntry{}
		}
		if cur, ok := h.Current(); ok {
			f.Current = cur.ID
		}
		want, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want)+"\n", string(got)); diff != "" {
			t.Errorf("%s: log mismatch (-want +got):\n%s", what, diff)
		}
	}
	if err := h.Save(); err != nil {
		t.Fatal(err)
	}
	check("empty")
	record(t, h, files("main", "1"), "s1")
	if err := h.Label("<a & b>"); err != nil {
		t.Fatal(err)
	}
	if err := h.Save(); err != nil {
		t.Fatal(err)
	}
	check("labelled")
	record(t, h, files("main", "2", "m", "x"), "s2")
	record(t, h, files("main", "3"), "s3")
	check("three")
	if err := h.MoveTo(0); err != nil {
		t.Fatal(err)
	}
	record(t, h, files("main", "4"), "s4")
	check("redo tail dropped")
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
	want := []string{hashOf([]byte("e")), hashOf([]byte("f")), hashOf([]byte("s")), hashOf([]byte("shared"))}
	slices.Sort(want)
	if diff := cmp.Diff(want, objects(t, dir)); diff != "" {
		t.Errorf("objects mismatch (-want +got):\n%s", diff)
	}
}

// TestPrepareThenLandOrDiscard: a prepared write leaves the file as it was, with its bytes in
// one temp file; Discard removes that, Land makes it the file.
func TestPrepareThenLandOrDiscard(t *testing.T) {
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
	created, err := p.Land()
	if err != nil || created {
		t.Fatalf("Land = %t, %v; want false, nil", created, err)
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
		if _, err := w.Apply(c, before); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"modules"}, listed); diff != "" {
			t.Errorf("%s: listings mismatch (-want +got):\n%s", c.Name, diff)
		}
	}
}
