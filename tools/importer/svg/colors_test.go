package svg

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/image/colornames"
)

// TestNamedColors: the importer's colour keywords are SVG 1.1's 147, sorted so that a search
// finds each, with the colours golang.org/x/image/colornames (made from the same table of the
// specification) gives them; a few are checked against the specification's own figures.
func TestNamedColors(t *testing.T) {
	t.Parallel()
	if len(namedColors) != 147 {
		t.Errorf("%d colour keywords; SVG 1.1 has 147", len(namedColors))
	}
	if !slices.IsSortedFunc(namedColors[:], func(a, b namedColor) int { return strings.Compare(a.name, b.name) }) {
		t.Error("the colour keywords are not sorted by name")
	}
	got := map[string]color.RGBA{}
	for _, c := range namedColors {
		if _, dup := got[c.name]; dup {
			t.Errorf("%s is listed twice", c.name)
		}
		got[c.name] = color.RGBA{c.r, c.g, c.b, 0xff}
		if found, ok := colorKeyword(c.name); !ok || found != c {
			t.Errorf("colorKeyword(%q) = %v, %v; want %v", c.name, found, ok, c)
		}
	}
	if diff := cmp.Diff(colornames.Map, got); diff != "" {
		t.Errorf("colour keywords mismatch (-x/image/colornames +ours):\n%s", diff)
	}
	for _, c := range []struct {
		name string
		want color.RGBA
	}{
		{"aliceblue", color.RGBA{240, 248, 255, 255}},
		{"darkgoldenrod", color.RGBA{184, 134, 11, 255}},
		{"grey", color.RGBA{128, 128, 128, 255}},
		{"rebeccapurple", color.RGBA{}}, // CSS Color 4's, not SVG 1.1's
		{"yellowgreen", color.RGBA{154, 205, 50, 255}},
	} {
		if got[c.name] != c.want {
			t.Errorf("%s = %v; want %v", c.name, got[c.name], c.want)
		}
	}
	if _, ok := colorKeyword("Red"); ok {
		t.Error("colorKeyword found Red: the caller lower-cases, the table is lower case")
	}
}
