package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// System fonts are found in the folders and fontconfig's list, once each by name, regular
// faces before styled ones, then by path; other files and links to folders are not taken.
func TestFindSystemFonts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"b/Zeta.ttf", "a/Alpha-Bold.ttf", "a/Beta.OTF", "a/readme.txt", "c/Gamma.ttc", "c/Beta.ttf", "d/NanumSquareRoundB.ttf", "d/NanumGothic.ttf"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "b"), filepath.Join(dir, "a", "link")); err != nil {
		t.Fatal(err)
	}
	got := findSystemFonts([]string{filepath.Join(dir, "a"), filepath.Join(dir, "c"), filepath.Join(dir, "d"), filepath.Join(dir, "none")},
		[]string{filepath.Join(dir, "b/Zeta.ttf")})
	for i := range got {
		got[i].Path = strings.TrimPrefix(got[i].Path, dir+"/")
	}
	want := []SystemFont{
		{"system:Beta", "a/Beta.OTF"},
		{"system:Zeta", "b/Zeta.ttf"},
		{"system:Gamma", "c/Gamma.ttc"},
		{"system:NanumGothic", "d/NanumGothic.ttf"},
		{"system:Alpha-Bold", "a/Alpha-Bold.ttf"},
		{"system:NanumSquareRoundB", "d/NanumSquareRoundB.ttf"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fonts mismatch (-want +got):\n%s", diff)
	}
}
