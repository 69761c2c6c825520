package importer

import (
	"testing"
)

// TestSVGMarkersAsSVG compares librsvg's picture of a file of markers (arrowheads on lines,
// mid markers on a polyline, dots on a path of curves, a fixed angle, a marker cut to its
// viewport and one not, a marker styled by its own ancestors) with cadrun's picture of the
// imported module.
func TestSVGMarkersAsSVG(t *testing.T) {
	t.Parallel()
	rep := matchesLibrsvg(t, "markers.svg")
	for k := range rep.Skipped {
		t.Errorf("noted %q", k)
	}
}
