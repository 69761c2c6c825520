package modules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPutSwapsTheOldFileOut: a prepared write over an existing file swaps the two (the old
// one under the temp file's name until Sync), Sync moves the old one to the trash, and Close
// waits until it is removed there, along with what an earlier process left in the trash.
func TestPutSwapsTheOldFileOut(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"modules/house.js": "old", ".cadrun/trash/old-0123": "left by a killed process"})
	house := filepath.Join(dir, "modules", "house.js")
	p, err := w.Prepare(Change{Name: "house", Next: []byte("new")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	created, err := p.Put()
	if err != nil || created {
		t.Fatalf("Put = %t, %v; want false, nil", created, err)
	}
	var old []string
	for _, p := range temps(t, dir) {
		old = append(old, readFile(t, p))
	}
	if diff := cmp.Diff([]string{"old"}, old); diff != "" || readFile(t, house) != "new" {
		t.Errorf("put: file %q; temp files' content mismatch (-want +got):\n%s", readFile(t, house), diff)
	}
	if err := p.Sync(); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("synced: temp files %v; want none", left)
	}
	w.Close()
	if left := snapshot(t, dir); !cmp.Equal(left, map[string]string{"modules/house.js": "new"}) {
		t.Errorf("closed: the workspace holds %v; want only modules/house.js, new", left)
	}
}

// TestSceneSwapWithoutTrash: where .cadrun cannot hold a trash (a file is in its place), the
// old scene.json a swap displaced is removed at once.
func TestSceneSwapWithoutTrash(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{SceneFile: "old", ".cadrun": "a file"})
	s, err := w.PrepareScene([]byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{SceneFile: "new", ".cadrun": "a file"}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("workspace mismatch (-want +got):\n%s", diff)
	}
}

// TestPutAfterTheFileWentAway: a write prepared over a file that is removed before Put lands
// by a rename.
func TestPutAfterTheFileWentAway(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"modules/house.js": "old"})
	p, err := w.Prepare(Change{Name: "house", Next: []byte("new")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "modules", "house.js")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Put(); err != nil {
		t.Fatal(err)
	}
	if err := p.Sync(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"modules/house.js": "new"}, snapshot(t, dir)); diff != "" {
		t.Errorf("workspace mismatch (-want +got):\n%s", diff)
	}
}

// TestTrashRemovedMeanwhile: a trash folder removed while the workspace keeps it open is given
// up (the old file is removed at once) and made again for the next write.
func TestTrashRemovedMeanwhile(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"modules/house.js": "v0", ".cadrun/lock": ""})
	land := func(content string) {
		t.Helper()
		p, err := w.Prepare(Change{Name: "house", Next: []byte(content)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Put(); err != nil {
			t.Fatal(err)
		}
		if err := p.Sync(); err != nil {
			t.Fatal(err)
		}
		if left := temps(t, dir); len(left) != 0 {
			t.Errorf("after writing %s: temp files %v; want none", content, left)
		}
	}
	land("v1")
	w.removing.Wait()
	if err := os.RemoveAll(filepath.Join(dir, ".cadrun", "trash")); err != nil {
		t.Fatal(err)
	}
	land("v2")
	land("v3")
	if _, err := os.Stat(filepath.Join(dir, ".cadrun", "trash")); err != nil {
		t.Errorf("the trash was not made again: %v", err)
	}
	w.Close()
	want := map[string]string{"modules/house.js": "v3", ".cadrun/lock": ""}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("workspace mismatch (-want +got):\n%s", diff)
	}
}
