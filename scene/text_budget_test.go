package scene

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// spikyFontScript writes, with fontTools, a font whose letters a to z are each one contour of
// argv[3] points (a zigzag), argv[2] distinct glyphs among them (the letters share them in
// turn): 26 KB of font for 11,000-point letters.
const spikyFontScript = `
import sys
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
out, glyphs, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = [".notdef", "space"] + ["g%d" % i for i in range(glyphs)]
fb = FontBuilder(1000, isTTF=True)
fb.setupGlyphOrder(names)
cmap = {ord(c): "g%d" % (i % glyphs) for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")}
cmap[32] = "space"
fb.setupCharacterMap(cmap)
pen = TTGlyphPen(None); pen.moveTo((0, 0)); pen.lineTo((0, 1)); pen.lineTo((1, 1)); pen.closePath()
shapes = {".notdef": pen.glyph(), "space": TTGlyphPen(None).glyph()}
for g in range(glyphs):
    pen = TTGlyphPen(None); pen.moveTo((0, 0))
    for i in range(1, n):
        pen.lineTo((int(i * 900 / n), (i % 2) * (700 - g)))
    pen.closePath(); shapes["g%d" % g] = pen.glyph()
fb.setupGlyf(shapes)
fb.setupHorizontalMetrics({g: (1000, 0) for g in names})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({"familyName": "Spiky", "styleName": "Regular"}); fb.setupOS2(); fb.setupPost()
fb.save(out)
`

// spikyFont builds and loads a font of glyphs distinct letter shapes, each a contour of points
// points, with fontTools (Debian's python3-fonttools, listed in .ci/debian-packages); without
// it the test is skipped, or fails when CADRUN_REQUIRE_TOOLS=1 promised every tool.
func spikyFont(t *testing.T, glyphs, points int) *Font {
	t.Helper()
	py := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} { // the system's first: Debian's package
		if exec.Command(p, "-c", "import fontTools").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		const why = "python3 with fontTools is not installed (Debian package python3-fonttools; .ci/deps installs it)"
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	path := filepath.Join(t.TempDir(), "spiky.ttf")
	if out, err := exec.Command(py, "-c", spikyFontScript, path, fmt.Sprint(glyphs), fmt.Sprint(points)).CombinedOutput(); err != nil {
		t.Fatalf("building the font: %v\n%s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := LoadFont(fmt.Sprintf("spiky%d_%d", glyphs, points), data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTextSegmentsLimit holds a scene's texts to MaxTextSegments outline segments together:
// with letters of 11,000 points, a 100-letter text is refused as it is laid out, and of two
// 50-letter texts the second, wherever it comes from (drawn, copied, read from JSON); what a
// text drawn over or deleted held no longer counts.
func TestTextSegmentsLimit(t *testing.T) {
	t.Parallel()
	f := spikyFont(t, 1, 11000)
	text := func(n int) *Text {
		tx := &Text{Text: strings.Repeat("abcdefghij", n/10), Size: 5}
		tx.UseFont(f)
		return tx
	}
	s := New()
	_, err := s.Put("long", text(100))
	if want := fmt.Sprintf("limit exceeded: the text's outlines have more than %d segments (MaxTextSegments); draw less text, or in a font of simpler letters", MaxTextSegments); !errors.Is(err, ErrLimit) || err.Error() != want {
		t.Errorf("a text of 1.1 million segments: got %v, want %s", err, want)
	}
	_, err = s.Put("t0", text(50))
	must(t, err)
	per := s.TextSegments()
	if per < 50*11000 || per > 50*11002 {
		t.Fatalf("a 50-letter text counts %d segments; want about 50 × 11,000", per)
	}
	_, err = s.Put("t1", text(50))
	if want := fmt.Sprintf("limit exceeded: the text %q has %d outline segments, which would make the scene's texts %d, over %d (MaxTextSegments); draw less text, or in a font of simpler letters", "t1", per, 2*per, MaxTextSegments); !errors.Is(err, ErrLimit) || err.Error() != want {
		t.Errorf("a second text: got %v, want %s", err, want)
	}
	if _, err := s.Duplicate("t0", "copy"); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "(MaxTextSegments)") {
		t.Errorf("a copy: got %v, want the MaxTextSegments limit", err)
	}
	// Drawn over, the text's segments are replaced, not added.
	_, err = s.Put("t0", text(50))
	must(t, err)
	if n := s.TextSegments(); n != per {
		t.Errorf("after drawing over t0 the scene counts %d segments, want %d", n, per)
	}
	// A JSON document of two such texts is refused as it is read.
	_, err = s.Put("t1", &Text{Text: "x", Size: 5})
	must(t, err)
	js, err := s.MarshalJSON()
	must(t, err)
	two := strings.Replace(string(js), `"text":"x"`, `"text":"`+strings.Repeat("abcdefghij", 5)+`","font":"`+f.Name()+`"`, 1)
	if _, err := ReadJSONWithFonts([]byte(two), map[string]*Font{f.Name(): f}); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), `the text "t1" has`) {
		t.Errorf("reading two texts: got %v, want the MaxTextSegments limit naming t1", err)
	}
	must(t, s.Delete("t0"))
	_, err = s.Put("t1", text(50))
	must(t, err)
	if n := s.TextSegments(); n != per {
		t.Errorf("with t0 deleted the scene counts %d segments, want %d", n, per)
	}
}

// TestGlyphCacheBounded lays out 26 distinct letters of 11,000 points each: the face keeps
// glyphs only up to maxCachedGlyphSegments, and the ones it drops are drawn all the same.
func TestGlyphCacheBounded(t *testing.T) {
	t.Parallel()
	f := spikyFont(t, 26, 11000)
	tx := &Text{Text: "abcdefghijklmnopqrstuvwxyz", Size: 1}
	tx.UseFont(f)
	s := New()
	_, err := s.Put("alphabet", tx)
	must(t, err)
	if n := s.TextSegments(); n < 26*11000 {
		t.Errorf("the alphabet has %d segments, want at least 26 × 11,000", n)
	}
	f.f.mu.RLock()
	cached := f.f.cached
	f.f.mu.RUnlock()
	if cached > maxCachedGlyphSegments || cached == 0 {
		t.Errorf("the face keeps %d segments of glyphs; want some, at most %d (maxCachedGlyphSegments)", cached, maxCachedGlyphSegments)
	}
}

// TestDimensionTextsCountAgainstTextSegments counts a dimension's text, laid out again each
// time it is drawn, with the scene's texts: six dimensions of 9,800-character texts pass
// MaxTextSegments, the sixth refused naming it.
func TestDimensionTextsCountAgainstTextSegments(t *testing.T) {
	t.Parallel()
	s := New()
	text := strings.Repeat("Ø20 H7 ", 1400) + "<>"
	var err error
	var i int
	for i = 0; i < 10 && err == nil; i++ {
		_, err = s.Put(fmt.Sprintf("d%d", i), &Dimension{Type: DimHorizontal, Points: []geom.Vec{{}, {X: 10}}, Offset: 5, Size: 2.5, Text: text})
	}
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), fmt.Sprintf("the text of dimension %q has", fmt.Sprintf("d%d", i-1))) || !strings.Contains(err.Error(), "(MaxTextSegments)") {
		t.Fatalf("after %d dimensions: %v; want the MaxTextSegments limit naming the last", i, err)
	}
	if n := s.TextSegments(); n > MaxTextSegments || n < MaxTextSegments/2 {
		t.Errorf("the scene counts %d segments of text", n)
	}
}
