package importer

import (
	"testing"
)

// TestSVGDegenerateAfterTransform: a shape that its transforms make too small to write (a
// viewBox of 6e20 units in 30 px leaves a rect 1e-16 wide, written as 0), or a polygon of
// two points, is skipped and noted, or drawn as SVG draws it, never written as a call the
// module then fails on: an imported module always runs.
func TestSVGDegenerateAfterTransform(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, file, skipped string
		shapes              int
	}{
		{"huge viewBox", `<svg xmlns="http://www.w3.org/2000/svg" width="30" height="27" viewBox="0 0 6e20 540">
			<rect width="6420" height="540"/><circle r="100"/><ellipse rx="100" ry="50"/>
			<rect width="6420" height="540" rx="5"/><text font-size="12">a</text>
			<path d="M0 0 L6420 0 L6420 540 Z"/><polyline points="0,0 6420,540" stroke="red"/></svg>`,
			"rect: drawn under 1e-09 scene units wide or high after its transforms: nothing to draw", 0},
		{"polygon of two points", doc(`<polygon points="250,150 200,150"/><polygon points="0,0 10,0" stroke="blue"/>`),
			"", 2},
	} {
		s, rep, code := svgRun(t, c.file, Options{})
		if c.skipped != "" && rep.Skipped[c.skipped] == 0 {
			t.Errorf("%s: %q not noted: %v", c.name, c.skipped, rep.Skipped)
		}
		if got := shapes(s); got != c.shapes {
			t.Errorf("%s: %d shapes, want %d\n%s", c.name, got, c.shapes, code)
		}
	}
}
