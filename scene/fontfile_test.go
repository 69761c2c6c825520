package scene

import (
	"errors"
	"testing"

	"github.com/cadrun/cadrun/scene/internal/testfonts"
	"github.com/cadrun/cadrun/scene/text"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/image/font/gofont/goregular"
)

// A workspace font draws what the embedded fonts cannot (Hangul), keeps its name in the
// scene, and comes back from JSON when the reader is given the font.
func TestWorkspaceFont(t *testing.T) {
	t.Parallel()
	f, err := text.LoadFont("nanum", testfonts.Korean(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := text.MeasureString("안녕", 24, ""); !errors.Is(err, text.ErrMissingGlyph) {
		t.Fatalf("the default font drew Hangul: %v", err)
	}
	m, err := f.Measure("안녕", 24)
	if err != nil {
		t.Fatal(err)
	}
	if m.Width <= 0 || m.Lines != 1 || m.Ascent <= 0 {
		t.Errorf("metrics %+v; want a positive width, one line", m)
	}
	s := New()
	txt := &Text{Text: "거실 안녕", Size: 2}
	txt.UseFont(f)
	e, err := s.Put("label", txt)
	if err != nil {
		t.Fatal(err)
	}
	if b := s.WorldBounds(e); !b.NonEmpty || b.Size().X <= 0 {
		t.Errorf("bounds %+v; want the outlines of the text", b)
	}
	js, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSON(js); err == nil || err.Error() != `bad scene JSON: entity 0 ("label"): unknown font "nanum"; use one of: go-sans, go-sans-bold, go-sans-bold-italic, go-sans-italic, mono, mono-bold, sans, sans-bold, sans-bold-italic, sans-italic, or a workspace font in fonts/` {
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
	again, err := text.LoadFont("nanum", testfonts.Korean(t))
	if err != nil || again != f {
		t.Errorf("loading the same font again: %p, %v; want the cached %p", again, err, f)
	}
}

// TestFontFile: a text names its font's file, for writers that name a font (DXF STYLE): the
// published file of an embedded font, NAME and the extension its data's signature says for a
// workspace font, and nothing for a font that is not at hand.
func TestFontFile(t *testing.T) {
	t.Parallel()
	ttf, err := text.LoadFont("plate", goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	workspace := &Text{Text: "a", Size: 1}
	workspace.UseFont(ttf)
	for _, c := range []struct {
		text *Text
		want string
	}{
		{&Text{}, "DejaVuSans.ttf"},
		{&Text{Font: "sans-bold-italic"}, "DejaVuSans-BoldOblique.ttf"},
		{&Text{Font: "go-sans-bold"}, "Go-Bold.ttf"},
		{workspace, "plate.ttf"},
		{&Text{Font: "missing"}, ""},
	} {
		if got := c.text.FontFile(); got != c.want {
			t.Errorf("font %q: FontFile %q, want %q", c.text.Font, got, c.want)
		}
	}
}
