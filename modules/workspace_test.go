package modules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/runtime"
)

func TestCheckName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"main", "house_lib", "a", "A-1", strings.Repeat("x", 64)} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "..", "../x", "a/b", "x.js", "-a", "_a", "a\x00b", strings.Repeat("x", 65), "é"} {
		if err := CheckName(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("CheckName(%q) = %v; want ErrBadName", bad, err)
		}
	}
}

func workspace(t *testing.T, files map[string]string) (*Workspace, string) {
	t.Helper()
	dir := testws.Files(t, files)
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, dir
}

func TestRead(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{
		"scene.code.js":     "drawCircle('c', 0, 0, 1)",
		"modules/gears.js":  "const G = 1",
		"modules/notes.txt": "not a module",
		"outside/secret.js": "secret",
	})
	src, path, err := w.Read("main")
	if err != nil || string(src) != "drawCircle('c', 0, 0, 1)" || path != "scene.code.js" {
		t.Errorf("Read(main) = %q, %q, %v", src, path, err)
	}
	if _, _, err := w.Read("nope"); !errors.Is(err, runtime.ErrModuleNotFound) {
		t.Errorf("missing module: %v", err)
	}
	if _, _, err := w.Read("../outside/secret"); !errors.Is(err, ErrBadName) {
		t.Errorf("traversal: %v", err)
	}
	if diff := cmp.Diff([]string{"annotate", "gears", "patterns", "shapes"}, w.Names()); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
	// A symlink leading out of the workspace cannot be followed.
	if err := os.Symlink(filepath.Join(dir, "outside", "secret.js"), filepath.Join(dir, "modules", "leak.js")); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.js"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.js"), filepath.Join(dir, "modules", "escape.js")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.Read("escape"); err == nil {
		t.Error("a symlink out of the workspace was followed")
	}
	// A FIFO is refused, not read (which would block).
	if err := syscall.Mkfifo(filepath.Join(dir, "modules", "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := w.Read("pipe"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("fifo: %v", err)
	}
}

func TestReadCap(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, map[string]string{"modules/big.js": strings.Repeat("x", MaxReadBytes+1)})
	if _, _, err := w.Read("big"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
}

func TestReadCappedKeepsRunes(t *testing.T) {
	t.Parallel()
	// "é" is two bytes; put one across the cap.
	content := strings.Repeat("a", MaxReadBytes-1) + "é" + "tail"
	w, _ := workspace(t, map[string]string{"modules/big.js": content})
	b, _, truncated, err := w.ReadCapped("big")
	if err != nil || !truncated {
		t.Fatalf("ReadCapped: %v, truncated %v", err, truncated)
	}
	if len(b) != MaxReadBytes-1 || !utf8.Valid(b) {
		t.Errorf("cut at %d bytes, valid UTF-8 %v", len(b), utf8.Valid(b))
	}
}
