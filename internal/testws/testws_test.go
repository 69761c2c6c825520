package testws

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// read lists the files under dir with their contents.
func read(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestDir(t *testing.T) {
	t.Parallel()
	dir := Dir(t, `the header is prose and no file
-- scene.code.js --
import 'house'
-- modules/house.js --
drawRect('h', 0, 0, 2, 2)
-- data/catalog/items.json --
[1, 2]
`)
	want := map[string]string{
		"scene.code.js":           "import 'house'\n",
		"modules/house.js":        "drawRect('h', 0, 0, 2, 2)\n",
		"data/catalog/items.json": "[1, 2]\n",
	}
	if diff := cmp.Diff(want, read(t, dir)); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	want := map[string]string{"scene.code.js": "x", "modules/a.js": ""}
	if diff := cmp.Diff(want, read(t, Files(t, want))); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
}

func TestArchive(t *testing.T) {
	t.Parallel()
	got := Archive("prose\n-- scene.code.js --\nimport 'a'\n-- modules/a.js --\n")
	want := map[string]string{"scene.code.js": "import 'a'\n", "modules/a.js": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
}
