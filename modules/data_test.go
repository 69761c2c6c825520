package modules

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckDataName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"door.json", "catalog/items.json", "door.schema.json", "a/b/c/d/e/f/g/h.json", "A-1_b.json"} {
		if err := CheckDataName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{".json", "../x.json", "a//b.json", "/x.json", "a/./b.json", "x.y.json", "door", "a/b/c/d/e/f/g/h/i.json", "x.schema.schema.json", ".hidden.json", "a\\b.json"} {
		err := CheckDataName(bad)
		if !errors.Is(err, ErrBadName) {
			t.Errorf("%q: %v, want ErrBadName", bad, err)
		}
	}
}

func TestDataFiles(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"data/a.json": "{}"})
	if _, err := w.write("catalog/items.json", []byte("[]"), nil); err != nil {
		t.Fatal(err)
	}
	if b, p, err := w.Read("catalog/items.json"); err != nil || string(b) != "[]" || p != "data/catalog/items.json" {
		t.Errorf("Read = %q, %q, %v", b, p, err)
	}
	_, err := w.write("A.json", []byte("{}"), nil)
	want := `name differs only in case from an existing module: data/A.json would collide with data/a.json; use the existing name or choose another`
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("case collision: mismatch (-want +got):\n%s", diff)
	}
	err = w.Move("a.json", "a")
	want = `moving data/a.json to modules/a.js: bad module name: a data file stays a data file (NAME.json) and a script a script`
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("move to a script: mismatch (-want +got):\n%s", diff)
	}
	if err := w.Move("a.json", "catalog/a.json"); err != nil {
		t.Fatal(err)
	}
	if err := w.Delete("catalog/items.json"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range w.List() {
		if f.Kind == KindData {
			names = append(names, f.Name+" "+f.Path)
		}
	}
	if diff := cmp.Diff([]string{"catalog/a.json data/catalog/a.json"}, names); diff != "" {
		t.Errorf("List: mismatch (-want +got):\n%s", diff)
	}
	// A temp file left in a data folder by a killed write is removed by the next Open.
	tmp := filepath.Join(dir, "data", "catalog", tempPrefix+"0123")
	if err := os.WriteFile(tmp, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	w2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	w2.Close()
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temp file is still there: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
