package scene

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

// A text whose font lacks characters draws them in its fallback fonts, keeps their names in
// its JSON, and reads back with them; without them the reader names the missing font.
func TestTextFallback(t *testing.T) {
	t.Parallel()
	f, err := LoadFont("nanum", koreanFont(t))
	if err != nil {
		t.Fatal(err)
	}
	sans, err := EmbeddedFont("")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]rune{'거', '실'}, sans.Lacks("거실 거 Ø\t1")); diff != "" {
		t.Errorf("Lacks mismatch (-want +got):\n%s", diff)
	}
	s := New()
	txt := &Text{Text: "Room 거실", Size: 2}
	txt.UseFallback([]*Font{f})
	e, err := s.Put("label", txt)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := MeasureText("Room ", 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if b := s.WorldBounds(e); b.Size().X <= alone.Width {
		t.Errorf("bounds %+v; want wider than the Latin part alone (%v)", b, alone.Width)
	}
	js, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"fallback":["nanum"]`) {
		t.Errorf("the JSON does not name the fallback font: %s", js)
	}
	if _, err := ReadJSON(js); err == nil || err.Error() != `bad scene JSON: entity 0 ("label"): unknown font "nanum" (a fallback font): the workspace has no fonts/nanum.ttf, .otf or .ttc` {
		t.Errorf("reading without the font: %v", err)
	}
	back, err := ReadJSONWithFonts(js, map[string]*Font{"nanum": f})
	if err != nil {
		t.Fatal(err)
	}
	js2, _ := back.MarshalJSON()
	if diff := cmp.Diff(string(js), string(js2)); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	if got := back.Fonts(); got["nanum"] == nil {
		t.Errorf("Fonts() = %v; want the fallback font in it", got)
	}
}

// The machine's fonts answer Hangul (Debian's fonts-nanum, which make test installs), the
// same font for each character every time, and a scene names it so that it reads back.
func TestSystemFallback(t *testing.T) {
	t.Parallel()
	koreanFont(t)
	got := SystemFallback([]rune{'안', '녕', 0x10FFFD})
	if len(got) != 1 || !strings.HasPrefix(got[0].Name(), SystemFontPrefix) {
		t.Fatalf("SystemFallback = %v; want one system font", got)
	}
	again := SystemFallback([]rune{'녕'})
	if len(again) != 1 || again[0] != got[0] {
		t.Errorf("asked again: %v; want %v", again, got)
	}
	if SystemFontPath(got[0].Name()) == "" {
		t.Errorf("no path for %s", got[0].Name())
	}
	s := New()
	txt := &Text{Text: "안녕", Size: 2}
	txt.UseFallback(got)
	if _, err := s.Put("t", txt); err != nil {
		t.Fatal(err)
	}
	js, _ := s.MarshalJSON()
	if _, err := ReadJSON(js); err != nil {
		t.Errorf("reading back a text in a system font: %v", err)
	}
	if _, err := SystemFontNamed("system:NoSuchFont"); err == nil || err.Error() != `unknown font "system:NoSuchFont": this machine has no such font; bring the font in the workspace's fonts/ so that the drawing is the same everywhere` {
		t.Errorf("an unknown system font: %v", err)
	}
}
