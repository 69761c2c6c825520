package scene

import (
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/image/font/gofont/goregular"
)

// koreanFontPath is a Korean font from Debian's fonts-nanum (listed in .ci/debian-packages).
const koreanFontPath = "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"

// koreanFont reads the Korean test font; without it the test is skipped, or fails when the
// test setup promised every tool (CADRUN_REQUIRE_TOOLS=1, as make test sets).
func koreanFont(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(koreanFontPath)
	if err != nil {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%v: install fonts-nanum (.ci/deps does)", err)
		}
		t.Skipf("%v: install fonts-nanum (.ci/deps does)", err)
	}
	return b
}

// A workspace font draws what the embedded fonts cannot (Hangul), keeps its name in the
// scene, and comes back from JSON when the reader is given the font.
func TestWorkspaceFont(t *testing.T) {
	t.Parallel()
	f, err := LoadFont("nanum", koreanFont(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MeasureText("안녕", 24, ""); !errors.Is(err, ErrMissingGlyph) {
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
	back, err := ReadJSONWithFonts(js, map[string]*Font{"nanum": f})
	if err != nil {
		t.Fatal(err)
	}
	js2, _ := back.MarshalJSON()
	if diff := cmp.Diff(string(js), string(js2)); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	again, err := LoadFont("nanum", koreanFont(t))
	if err != nil || again != f {
		t.Errorf("loading the same font again: %p, %v; want the cached %p", again, err, f)
	}
}

func TestLoadFontRefusesBadFiles(t *testing.T) {
	t.Parallel()
	font := koreanFont(t)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, `bad font file: font "x" is 0 bytes, too short to be a font; use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)`},
		{"text", []byte("not a font at all, just some text"), `bad font file: font "x": sfnt: invalid font; use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)`},
		{"too large", make([]byte, MaxFontBytes+1), `bad font file: font "x" is 33554433 bytes; the limit is 33554432 (MaxFontBytes)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadFont("x", tc.data)
			if err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadFont) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	// A truncated real font is refused or works; it never panics.
	for _, n := range []int{12, 100, 1000, 10000, len(font) / 2} {
		if f, err := LoadFont("cut", font[:n]); err == nil {
			_, _ = f.Measure("안녕 Hg0", 3)
		}
	}
}

// FuzzLoadFont: any bytes give a font or an error, never a panic or a hang.
func FuzzLoadFont(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 4, 0, 0})
	f.Add([]byte("OTTO\x00\x01"))
	f.Add([]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x10"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if font, err := LoadFont("fuzz", data); err == nil {
			_, _ = font.Measure("안녕 Hg0", 3)
		}
	})
}

// TestFontFile: a text names its font's file, for writers that name a font (DXF STYLE): the
// published file of an embedded font, NAME and the extension its data's signature says for a
// workspace font, and nothing for a font that is not at hand.
func TestFontFile(t *testing.T) {
	t.Parallel()
	ttf, err := LoadFont("plate", goregular.TTF)
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
