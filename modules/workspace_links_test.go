package modules

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A workspace that comes from elsewhere (a cloned repository) may ship links. Exports go to a
// real out/ folder only: through out -> data, an export would replace a data file main reads,
// outside any write transaction and its history.
func TestWriteOutputRefusesLinkedOut(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"scene.code.js": "", "data/params.json": `{"holes": [1]}`})
	if err := os.Symlink("data", filepath.Join(dir, OutputDir)); err != nil {
		t.Fatal(err)
	}
	_, err := w.WriteOutput("params.json", []byte(`{"format":"cadrun-scene"}`))
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "out is a symbolic link") {
		t.Errorf("WriteOutput through out -> data: %v; want ErrNotRegular saying out is a symbolic link", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "data", "params.json")); string(b) != `{"holes": [1]}` {
		t.Errorf("data/params.json is now %q; want it untouched", b)
	}
	// A real out/ folder takes the export, and one made on the way (no out/ yet) too.
	if err := os.Remove(filepath.Join(dir, OutputDir)); err != nil {
		t.Fatal(err)
	}
	if p, err := w.WriteOutput("params.json", []byte("{}")); err != nil || p != "out/params.json" {
		t.Errorf("WriteOutput into a new out/: %q, %v", p, err)
	}
	// A file out/ is refused as not a folder.
	w2, dir2 := workspace(t, map[string]string{"scene.code.js": "", "out": "x"})
	if _, err := w2.WriteOutput("a.svg", []byte("<svg/>")); err == nil {
		t.Errorf("WriteOutput with a file named out: no error")
	}
	if b, _ := os.ReadFile(filepath.Join(dir2, "out")); string(b) != "x" {
		t.Errorf("the file out is now %q", b)
	}
}

// imports/ holds drawings from elsewhere, read by the import tool: a hard link may be a file
// outside the workspace under a second name, and a symbolic link may lead to another workspace
// file (whose first line a refusal would show). Both are refused, and glob leaves them out,
// so that glob lists only what import reads.
func TestImportsRefuseLinks(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n",
		"imports/plan.dxf": "0\nEOF\n", "imports/sub/part.dxf": "0\nEOF\n", ".cadrun/secret.txt": "hidden-words\n"})
	elsewhere := filepath.Join(t.TempDir(), "plan.dxf")
	if err := os.WriteFile(elsewhere, []byte("0\nEOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{
		"imports/main.dxf":   "../scene.code.js",
		"imports/secret.dxf": "../.cadrun/secret.txt",
		"imports/dir":        "sub",
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(elsewhere, filepath.Join(dir, "imports", "hard.dxf")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"main.dxf", "imports/main.dxf is a symbolic link"},
		{"secret.dxf", "imports/secret.dxf is a symbolic link"},
		{"dir/part.dxf", "imports/dir is a symbolic link"},
		{"hard.dxf", "has 2 hard links"},
	} {
		b, _, err := w.ReadImport(c.path, 1<<20)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadImport(%q) = %q, %v; want an error saying %q", c.path, b, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "drawCircle") || strings.Contains(err.Error(), "hidden-words")) {
			t.Errorf("ReadImport(%q): the refusal shows the linked file's content: %v", c.path, err)
		}
	}
	if b, _, err := w.ReadImport("sub/part.dxf", 1<<20); err != nil || string(b) != "0\nEOF\n" {
		t.Errorf("ReadImport(sub/part.dxf) = %q, %v", b, err)
	}
	files := w.List()
	var listed []string
	for _, f := range files {
		if f.Kind == KindImport {
			listed = append(listed, f.Path)
		}
	}
	if want := []string{"imports/plan.dxf", "imports/sub/part.dxf"}; !slices.Equal(listed, want) {
		t.Errorf("List's imports = %q; want %q (no links of either kind)", listed, want)
	}
}
