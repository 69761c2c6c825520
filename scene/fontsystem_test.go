package scene

import (
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/internal/testfonts"
	"github.com/cadrun/cadrun/scene/text"
	"github.com/google/go-cmp/cmp"
)

// A text whose font lacks characters draws them in its fallback fonts, keeps their names in
// its JSON, and reads back with them; without them the reader names the missing font.
func TestTextFallback(t *testing.T) {
	t.Parallel()
	f, err := text.LoadFont("nanum", testfonts.Korean(t))
	if err != nil {
		t.Fatal(err)
	}
	sans, err := text.EmbeddedFont("")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]rune{'거', '실'}, sans.Lacks("거실 거 Ø\t1")); diff != "" {
		t.Errorf("Lacks mismatch (-want +got):\n%s", diff)
	}
	s := New()
	txt := &Text{Text: "Room 거실", Size: 2}
	txt.UseFallback([]*text.Font{f})
	e, err := s.Put("label", txt)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := text.MeasureString("Room ", 2, "")
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
	back, err := ReadJSONWithFonts(js, map[string]*text.Font{"nanum": f})
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
	testfonts.Korean(t)
	got := text.SystemFallback([]rune{'안', '녕', 0x10FFFD})
	if len(got) != 1 || !strings.HasPrefix(got[0].Name(), text.SystemFontPrefix) {
		t.Fatalf("SystemFallback = %v; want one system font", got)
	}
	again := text.SystemFallback([]rune{'녕'})
	if len(again) != 1 || again[0] != got[0] {
		t.Errorf("asked again: %v; want %v", again, got)
	}
	if text.SystemFontPath(got[0].Name()) == "" {
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
	if _, err := text.SystemFontNamed("system:NoSuchFont"); err == nil || err.Error() != `unknown font "system:NoSuchFont": this machine has no such font; bring the font in the workspace's fonts/ so that the drawing is the same everywhere` {
		t.Errorf("an unknown system font: %v", err)
	}
}
