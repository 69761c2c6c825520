package modules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelectionRoundTrip(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	got, err := w.LoadSelection()
	if err != nil {
		t.Fatal(err)
	}
	empty := Selection{Selected: []string{}, Locked: []string{}, Hidden: []string{}}
	if diff := cmp.Diff(empty, got); diff != "" {
		t.Errorf("a new workspace: mismatch (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cadrun")); !os.IsNotExist(err) {
		t.Errorf("loading the selection created .cadrun/: %v", err)
	}
	saved, err := w.SaveSelection(Selection{Selected: []string{"gear_1", "bolt_3", "gear_1"}, Hidden: []string{"grid"}})
	if err != nil {
		t.Fatal(err)
	}
	want := Selection{Selected: []string{"gear_1", "bolt_3"}, Locked: []string{}, Hidden: []string{"grid"}}
	if diff := cmp.Diff(want, saved); diff != "" {
		t.Errorf("saved: mismatch (-want +got):\n%s", diff)
	}
	b, err := os.ReadFile(filepath.Join(dir, SelectionFile))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"selected":["gear_1","bolt_3"],"locked":[],"hidden":["grid"]}`+"\n", string(b)); diff != "" {
		t.Errorf("file: mismatch (-want +got):\n%s", diff)
	}
	// Another process's view of the same workspace.
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	got, err = other.LoadSelection()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loaded: mismatch (-want +got):\n%s", diff)
	}
	if !got.Equal(want) {
		t.Errorf("Equal(%v, %v) = false", got, want)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".cadrun"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

func TestSelectionRefused(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	if _, err := w.SaveSelection(Selection{Selected: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Selected: []string{""}}, "bad selection: selected[0] is empty; give entity names"},
		{Selection{Locked: []string{"a", strings.Repeat("x", 257)}}, "bad selection: locked[1] is 257 bytes, over the 256 of an entity name"},
		{Selection{Hidden: []string{"\xff"}}, "bad selection: hidden[0] is not UTF-8"},
		{Selection{Selected: make([]string, MaxSelectionNames+1)}, "bad selection: selected lists 10001 names, over 10000 (MaxSelectionNames)"},
	} {
		_, err := w.SaveSelection(c.sel)
		if !errors.Is(err, ErrBadSelection) || err.Error() != c.want {
			t.Errorf("SaveSelection(%.40v) = %v; want %q", c.sel, err, c.want)
		}
	}
	// Nothing refused replaced the saved selection.
	got, err := w.LoadSelection()
	if err != nil || !got.Equal(Selection{Selected: []string{"a"}, Locked: []string{}, Hidden: []string{}}) {
		t.Errorf("after refusals: %v, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, SelectionFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = w.LoadSelection()
	want := "reading .cadrun/selection.json: bad selection: invalid character 'n' looking for beginning of object key string; delete the file to clear the selection"
	if err == nil || err.Error() != want {
		t.Errorf("corrupt file: %v; want %q", err, want)
	}
}
