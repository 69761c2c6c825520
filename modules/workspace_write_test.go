package modules

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// temps lists the temp files in the workspace root and modules/.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, d := range []string{dir, filepath.Join(dir, "modules")} {
		entries, err := os.ReadDir(d)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), tempPrefix) {
				out = append(out, filepath.Join(d, e.Name()))
			}
		}
	}
	return out
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot is every file under dir, path to content ("->target" for a symlink).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "->" + target
			return err
		case d.Type().IsRegular():
			out[rel] = readFile(t, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWrite(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	// Bytes are kept exactly: a BOM, CRLF line ends, a lone CR, no final newline.
	content := "\ufeffdrawCircle('c', 0, 0, 1)\r\n// end\rx"
	created, err := w.write("main", []byte(content), nil)
	if err != nil || !created {
		t.Fatalf("write(main) = %v, %v; want created", created, err)
	}
	if got := readFile(t, filepath.Join(dir, "scene.code.js")); got != content {
		t.Errorf("scene.code.js = %q, want %q", got, content)
	}
	created, err = w.write("main", []byte("drawCircle('d', 0, 0, 2)\r\n"), nil)
	if err != nil || created {
		t.Fatalf("overwrite: write(main) = %v, %v; want not created", created, err)
	}
	// A module's write creates modules/.
	if created, err := w.write("gears", []byte("export const G = 1\r\n"), nil); err != nil || !created {
		t.Fatalf("write(gears) = %v, %v", created, err)
	}
	src, path, err := w.Read("gears")
	if err != nil || string(src) != "export const G = 1\r\n" || path != "modules/gears.js" {
		t.Errorf("Read(gears) = %q, %q, %v", src, path, err)
	}
	if st, err := os.Stat(filepath.Join(dir, "modules", "gears.js")); err != nil || st.Mode().Perm() != newFileMode {
		t.Errorf("new module mode: %v, %v; want %v", st.Mode(), err, newFileMode)
	}
	if got := temps(t, dir); len(got) != 0 {
		t.Errorf("temp files left: %v", got)
	}
	// The biggest file that can be read back is accepted; one byte more is refused.
	if _, err := w.write("big", []byte(strings.Repeat("x", MaxReadBytes)), nil); err != nil {
		t.Errorf("writing MaxReadBytes: %v", err)
	}
	if _, _, err := w.Read("big"); err != nil {
		t.Errorf("reading back MaxReadBytes: %v", err)
	}
	if _, err := w.write("huge", []byte(strings.Repeat("x", MaxReadBytes+1)), nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("writing MaxReadBytes+1: %v; want ErrTooLarge", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "modules", "huge.js")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a refused write created the file: %v", err)
	}
}

func TestWriteKeepsMode(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"scene.code.js": "old", "modules/tool.js": "old"})
	for p, mode := range map[string]fs.FileMode{"scene.code.js": 0o600, "modules/tool.js": 0o755} {
		if err := os.Chmod(filepath.Join(dir, p), mode); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]fs.FileMode{"main": 0o600, "tool": 0o755} {
		if _, err := w.write(name, []byte("new"), nil); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(filepath.Join(dir, runtime.PathOf(name)))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v after write, want %v", name, st.Mode().Perm(), want)
		}
	}
}

func TestWriteEscapes(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"..", "../x", "/etc/passwd", "a/b", "x.js", ".cadrun-tmp-0", ""} {
		w, dir := workspace(t, nil)
		before := snapshot(t, filepath.Dir(dir))
		if _, err := w.write(bad, []byte("x"), nil); !errors.Is(err, ErrBadName) {
			t.Errorf("write(%q) = %v; want ErrBadName", bad, err)
		}
		if err := w.Delete(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("Delete(%q) = %v; want ErrBadName", bad, err)
		}
		if err := w.Move("main", bad); !errors.Is(err, ErrBadName) {
			t.Errorf("Move(main, %q) = %v; want ErrBadName", bad, err)
		}
		if diff := cmp.Diff(before, snapshot(t, filepath.Dir(dir))); diff != "" {
			t.Errorf("write(%q) changed files (-before +after):\n%s", bad, diff)
		}
	}
}

func TestWriteSymlinkedModulesDir(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.js"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, dir := workspace(t, nil)
	if err := os.Symlink(outside, filepath.Join(dir, "modules")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, outside)
	for _, name := range []string{"x", "new"} {
		if _, err := w.write(name, []byte("inside"), nil); err == nil {
			t.Errorf("write(%q) through a modules/ symlink out of the workspace succeeded", name)
		}
	}
	if err := w.Delete("x"); err == nil {
		t.Error("Delete through a modules/ symlink out of the workspace succeeded")
	}
	if err := w.Move("x", "y"); err == nil {
		t.Error("Move through a modules/ symlink out of the workspace succeeded")
	}
	if diff := cmp.Diff(before, snapshot(t, outside)); diff != "" {
		t.Errorf("the outside directory changed (-before +after):\n%s", diff)
	}
}

func TestWriteReplacesLinks(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.js")
	if err := os.WriteFile(secret, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, dir := workspace(t, map[string]string{"modules/keep.js": ""})
	if err := os.Symlink(secret, filepath.Join(dir, "modules", "sym.js")); err != nil {
		t.Fatal(err)
	}
	// t.TempDir puts both directories on one filesystem, so the hardlink can be made.
	if err := os.Link(secret, filepath.Join(dir, "modules", "hard.js")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sym", "hard"} {
		created, err := w.write(name, []byte("inside "+name), nil)
		if err != nil || created {
			t.Errorf("write(%q) = %v, %v; want an overwrite", name, created, err)
		}
		p := filepath.Join(dir, "modules", name+".js")
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() {
			t.Errorf("%s after write: %v, %v; want a regular file", p, st, err)
		}
		if got := readFile(t, p); got != "inside "+name {
			t.Errorf("%s = %q", p, got)
		}
	}
	if got := readFile(t, secret); got != "outside" {
		t.Errorf("the file outside the workspace became %q", got)
	}
}

// TestWriteFailure makes each step of a write fail in turn: before the rename the target
// keeps its old bytes, and no step leaves a temp file.
func TestWriteFailure(t *testing.T) {
	t.Parallel()
	steps := []string{"mkdir", "create", "chmod", "write", "sync", "close", "rename", "syncdir"}
	for _, step := range steps {
		for _, name := range []string{"main", "mod"} {
			w, dir := workspace(t, map[string]string{"scene.code.js": "old", "modules/mod.js": "old"})
			injected := errors.New("injected failure at " + step)
			w.fail = func(s string) error {
				if s == step {
					return injected
				}
				return nil
			}
			_, err := w.write(name, []byte("new"), nil)
			if !errors.Is(err, injected) {
				t.Errorf("%s/%s: Write = %v; want the injected error", step, name, err)
			}
			want := "old"
			if step == "syncdir" { // the rename happened; only its durability is in doubt
				want = "new"
			}
			if got := readFile(t, filepath.Join(dir, runtime.PathOf(name))); got != want {
				t.Errorf("%s/%s: file is %q, want %q", step, name, got, want)
			}
			if got := temps(t, dir); len(got) != 0 {
				t.Errorf("%s/%s: temp files left: %v", step, name, got)
			}
		}
	}
}

func TestOpenRemovesLeftovers(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"scene.code.js":                "main",
		".cadrun-tmp-0123456789abcdef": "torn",
		"modules/.cadrun-tmp-00":       "torn",
		"modules/.hidden.js":           "not ours",
		"modules/a.js":                 "a",
	}
	w, dir := workspace(t, files)
	if got := temps(t, dir); len(got) != 0 {
		t.Errorf("Open left temp files: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "modules", ".hidden.js")); err != nil {
		t.Errorf("Open removed a file that is not a temp file: %v", err)
	}
	if diff := cmp.Diff([]string{"a"}, w.userModules()); diff != "" {
		t.Errorf("modules mismatch (-want +got):\n%s", diff)
	}

	// While a writer holds the lock, its temp file may be live: Open leaves it alone.
	unlock, err := w.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "modules", tempPrefix+"live")
	if err := os.WriteFile(live, []byte("in flight"), 0o600); err != nil {
		t.Fatal(err)
	}
	w2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()
	if _, err := os.Stat(live); err != nil {
		t.Errorf("Open removed a temp file while the lock was held: %v", err)
	}
	unlock()
	w3, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w3.Close()
	if got := temps(t, dir); len(got) != 0 {
		t.Errorf("Open after unlock left temp files: %v", got)
	}
}

func TestCaseCollision(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"modules/house.js": "old"})
	before := snapshot(t, dir)
	_, err := w.write("House", []byte("new"), nil)
	if !errors.Is(err, ErrCaseCollision) || !strings.Contains(err.Error(), "modules/house.js") {
		t.Errorf("write(House) = %v; want ErrCaseCollision naming modules/house.js", err)
	}
	if _, err := w.write("SHAPES", []byte("new"), nil); !errors.Is(err, ErrCaseCollision) || !strings.Contains(err.Error(), "builtin/shapes.js") {
		t.Errorf("write(SHAPES) = %v; want ErrCaseCollision naming the built-in", err)
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("a refused write changed files (-before +after):\n%s", diff)
	}
	if _, err := w.write("house", []byte("new"), nil); err != nil {
		t.Errorf("overwriting house: %v", err)
	}
	if _, err := w.write("a", []byte("a"), nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Move("a", "HOUSE"); !errors.Is(err, ErrCaseCollision) {
		t.Errorf("Move(a, HOUSE) = %v; want ErrCaseCollision", err)
	}
	// Changing only the case of a name is a rename, not a collision.
	if err := w.Move("house", "House"); err != nil {
		t.Errorf("Move(house, House) = %v", err)
	}
	if diff := cmp.Diff([]string{"House", "a"}, slices.Sorted(slices.Values(w.userModules()))); diff != "" {
		t.Errorf("modules mismatch (-want +got):\n%s", diff)
	}
}

func TestDeleteMove(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{"scene.code.js": "main", "modules/a.js": "a", "modules/b.js": "b"})
	if err := w.Move("a", "b"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Move onto an existing module = %v; want fs.ErrExist", err)
	}
	if err := w.Move("a", "c"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "modules", "c.js")); got != "a" {
		t.Errorf("moved content = %q", got)
	}
	if err := w.Move("nope", "d"); !errors.Is(err, runtime.ErrModuleNotFound) {
		t.Errorf("Move of a missing module = %v", err)
	}
	if err := w.Move("main", "old_main"); err != nil {
		t.Errorf("Move(main, old_main) = %v", err)
	}
	if err := w.Delete("b"); err != nil {
		t.Fatal(err)
	}
	if err := w.Delete("b"); !errors.Is(err, runtime.ErrModuleNotFound) {
		t.Errorf("deleting twice = %v", err)
	}
	if err := w.Delete("shapes"); !errors.Is(err, runtime.ErrModuleNotFound) || !strings.Contains(err.Error(), "built-in") {
		t.Errorf("deleting a built-in = %v", err)
	}
	want := map[string]string{"modules/c.js": "a", "modules/old_main.js": "main"}
	if diff := cmp.Diff(want, snapshot(t, dir)); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{
		"scene.code.js":        "12345",
		"modules/zeta.js":      "z",
		"modules/shapes.js":    "override",
		"modules/alpha.js":     "aa",
		"modules/notes.txt":    "no",
		"modules/.cadrun-tmp-": "no",
		"data/parts.json":      "{}",
		"data/bad name.json":   "{}",
		"data/readme.md":       "no",
	})
	// Open removed the temp file; one made now (a write in flight) is not listed either.
	if err := os.WriteFile(filepath.Join(dir, "modules", tempPrefix+"x.js"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	size := func(n string) int64 { b, _ := builtinSource(n); return int64(len(b)) }
	want := []FileInfo{
		{Name: "main", Path: "scene.code.js", Kind: KindMain, Source: SourceUser, Size: 5},
		{Name: "alpha", Path: "modules/alpha.js", Kind: KindModule, Source: SourceUser, Size: 2},
		{Name: "annotate", Path: "builtin/annotate.js", Kind: KindModule, Source: SourceBuiltin, Size: size("annotate")},
		{Name: "patterns", Path: "builtin/patterns.js", Kind: KindModule, Source: SourceBuiltin, Size: size("patterns")},
		{Name: "shapes", Path: "modules/shapes.js", Kind: KindModule, Source: SourceUser, Size: 8},
		{Name: "zeta", Path: "modules/zeta.js", Kind: KindModule, Source: SourceUser, Size: 1},
		{Name: "parts.json", Path: "data/parts.json", Kind: KindData, Source: SourceUser, Size: 2},
	}
	if diff := cmp.Diff(want, w.List()); diff != "" {
		t.Errorf("List mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"alpha", "annotate", "patterns", "shapes", "zeta"}, w.Names()); diff != "" {
		t.Errorf("Names mismatch (-want +got):\n%s", diff)
	}
}

// A scene.json over MaxSceneBytes is refused from its size, before any of it is read (a
// 700 MB one used to cost seconds and gigabytes at every start), and none is written.
func TestSceneCap(t *testing.T) {
	w, dir := workspace(t, nil)
	f, err := os.Create(filepath.Join(dir, SceneFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSceneBytes + 1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	f.Close()
	_, err = w.LoadScene()
	want := "file too large: scene.json is 134217729 bytes, over 134217728 (MaxSceneBytes)"
	if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
		t.Errorf("LoadScene: got %v, want %q", err, want)
	}
	_, err = w.PrepareScene(make([]byte, MaxSceneBytes+1))
	want = "writing scene.json: file too large: 134217729 bytes is over 134217728 (MaxSceneBytes)"
	if err == nil || err.Error() != want {
		t.Errorf("PrepareScene: got %v, want %q", err, want)
	}
}
