package scene

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/testfonts"
	"github.com/cadrun/cadrun/scene/text"
)

// TestTextSegmentsLimit holds a scene's texts to MaxTextSegments outline segments together:
// with letters of 11,000 points, a 100-letter text is refused as it is laid out, and of two
// 50-letter texts the second, wherever it comes from (drawn, copied, read from JSON); what a
// text drawn over or deleted held no longer counts.
// spikyFont loads a font of glyphs distinct letter shapes, each a contour of points points
// (testfonts.Spiky).
func spikyFont(t *testing.T, glyphs, points int) *text.Font {
	t.Helper()
	f, err := text.LoadFont(fmt.Sprintf("spiky%d_%d", glyphs, points), testfonts.Spiky(t, glyphs, points))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestTextSegmentsLimit(t *testing.T) {
	t.Parallel()
	f := spikyFont(t, 1, 11000)
	draw := func(n int) *Text {
		tx := &Text{Text: strings.Repeat("abcdefghij", n/10), Size: 5}
		tx.UseFont(f)
		return tx
	}
	s := New()
	_, err := s.Put("long", draw(100))
	if want := fmt.Sprintf("limit exceeded: the text's outlines have more than %d segments (MaxTextSegments); draw less text, or in a font of simpler letters", text.MaxTextSegments); !errors.Is(err, ErrLimit) || err.Error() != want {
		t.Errorf("a text of 1.1 million segments: got %v, want %s", err, want)
	}
	_, err = s.Put("t0", draw(50))
	must(t, err)
	per := s.TextSegments()
	if per < 50*11000 || per > 50*11002 {
		t.Fatalf("a 50-letter text counts %d segments; want about 50 × 11,000", per)
	}
	_, err = s.Put("t1", draw(50))
	if want := fmt.Sprintf("limit exceeded: the text %q has %d outline segments, which would make the scene's texts %d, over %d (MaxTextSegments); draw less text, or in a font of simpler letters", "t1", per, 2*per, text.MaxTextSegments); !errors.Is(err, ErrLimit) || err.Error() != want {
		t.Errorf("a second text: got %v, want %s", err, want)
	}
	if _, err := s.Duplicate("t0", "copy"); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "(MaxTextSegments)") {
		t.Errorf("a copy: got %v, want the MaxTextSegments limit", err)
	}
	// Drawn over, the text's segments are replaced, not added.
	_, err = s.Put("t0", draw(50))
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
	if _, err := ReadJSONWithFonts([]byte(two), map[string]*text.Font{f.Name(): f}); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), `the text "t1" has`) {
		t.Errorf("reading two texts: got %v, want the MaxTextSegments limit naming t1", err)
	}
	must(t, s.Delete("t0"))
	_, err = s.Put("t1", draw(50))
	must(t, err)
	if n := s.TextSegments(); n != per {
		t.Errorf("with t0 deleted the scene counts %d segments, want %d", n, per)
	}
}

// TestDimensionTextsCountAgainstTextSegments counts a dimension's text, laid out again each
// time it is drawn, with the scene's texts: six dimensions of 9,800-character texts pass
// MaxTextSegments, the sixth refused naming it.
func TestDimensionTextsCountAgainstTextSegments(t *testing.T) {
	t.Parallel()
	s := New()
	label := strings.Repeat("Ø20 H7 ", 1400) + "<>"
	var err error
	var i int
	for i = 0; i < 10 && err == nil; i++ {
		_, err = s.Put(fmt.Sprintf("d%d", i), &Dimension{Type: DimHorizontal, Points: []geom.Vec{{}, {X: 10}}, Offset: 5, Size: 2.5, Text: label})
	}
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), fmt.Sprintf("the text of dimension %q has", fmt.Sprintf("d%d", i-1))) || !strings.Contains(err.Error(), "(MaxTextSegments)") {
		t.Fatalf("after %d dimensions: %v; want the MaxTextSegments limit naming the last", i, err)
	}
	if n := s.TextSegments(); n > text.MaxTextSegments || n < text.MaxTextSegments/2 {
		t.Errorf("the scene counts %d segments of text", n)
	}
}
