package modules

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/text"
)

// Fonts are read through the workspace like every file: by name, from fonts/NAME.ttf, .otf
// or .ttc; a link out of the workspace, a FIFO or a bad name is refused; glob lists them.
func TestWorkspaceFonts(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.ttf")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, dir := workspace(t, map[string]string{
		"scene.code.js":   "",
		"fonts/nanum.ttf": "ttf bytes",
		"fonts/cjk.ttc":   "ttc bytes",
		"fonts/notes.txt": "not a font",
		"fonts/.tmp.ttf":  "a temp file",
	})
	if err := os.Symlink(outside, filepath.Join(dir, "fonts", "link.ttf")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fonts", "pipe.otf"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, path, err := ws.ReadFont("cjk")
	if err != nil || string(b) != "ttc bytes" || path != "fonts/cjk.ttc" {
		t.Errorf("ReadFont(cjk) = %q, %q, %v", b, path, err)
	}
	if _, _, err := ws.ReadFont("missing"); !errors.Is(err, runtime.ErrFontNotFound) {
		t.Errorf("missing font: %v; want ErrFontNotFound", err)
	}
	if _, _, err := ws.ReadFont("../fonts/nanum"); !errors.Is(err, ErrBadName) {
		t.Errorf("bad name: %v; want ErrBadName", err)
	}
	if _, _, err := ws.ReadFont("link"); err == nil {
		t.Errorf("a link out of the workspace was followed")
	}
	if _, _, err := ws.ReadFont("pipe"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v; want ErrNotRegular", err)
	}
	big := filepath.Join(dir, "fonts", "big.otf")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, text.MaxFontBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if _, _, err := ws.ReadFont("big"); err == nil || err.Error() != "file too large: fonts/big.otf is over 33554432 bytes (MaxFontBytes)" {
		t.Errorf("oversized font: %v", err)
	}
	if err := os.Remove(big); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"cjk", "nanum"}, ws.FontNames()); diff != "" {
		t.Errorf("font names mismatch (-want +got):\n%s", diff)
	}
	var fonts []FileInfo
	for _, f := range ws.List() {
		if f.Kind == KindFont {
			fonts = append(fonts, f)
		}
	}
	want := []FileInfo{
		{Name: "cjk", Path: "fonts/cjk.ttc", Kind: KindFont, Source: SourceUser, Size: 9},
		{Name: "nanum", Path: "fonts/nanum.ttf", Kind: KindFont, Source: SourceUser, Size: 9},
	}
	if diff := cmp.Diff(want, fonts); diff != "" {
		t.Errorf("listed fonts mismatch (-want +got):\n%s", diff)
	}
}
