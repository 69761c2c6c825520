package importer

import (
	"strings"
	"testing"
)

// TestSVGMarkersAsSVG compares librsvg's picture of a file of markers (arrowheads on lines,
// mid markers on a polyline, dots on a path of curves, a fixed angle, a marker cut to its
// viewport and one not, a marker styled by its own ancestors) with cadrun's picture of the
// imported module.
func TestSVGMarkersAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "markers.svg"))
}

// TestSVGMarkerContextAsSVG compares librsvg's picture of markers taking the paints of the
// paths they are drawn for (an arrowhead filled with context-stroke on lines of two colours,
// dots filled and stroked with context-fill and context-stroke) with cadrun's picture of the
// imported module: the arrowhead is a function for each colour, nothing is noted.
func TestSVGMarkerContextAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "marker_context.svg"))
}

// TestSVGUseContextAsSVG compares librsvg's picture of context paints in what a <use> shows
// (a pin filled and stroked from each <use> of it, a symbol filled with context-stroke, a
// <use> in a <use>'s content, the context of its own) with cadrun's picture of the imported
// module: nothing is noted.
func TestSVGUseContextAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "use_context.svg"))
}

// TestSVGMarkerOpacityAsSVG compares librsvg's picture of markers on paths with an opacity
// (their own, a group's, none at all, with context paints) and of markers with one of their
// own or their ancestors' with cadrun's picture of the imported module.
func TestSVGMarkerOpacityAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "marker_opacity.svg"))
}

// TestSVGMarkerHiddenAsSVG compares librsvg's picture of markers on paths hidden or not
// displayed (none drawn, even where the marker says visible), on a visible path in a hidden
// group, and of markers kept in a hidden group, in one not displayed and not displayed
// themselves, with cadrun's picture of the imported module; what is hidden is noted as
// hidden, and nothing else.
func TestSVGMarkerHiddenAsSVG(t *testing.T) {
	t.Parallel()
	rep := matchesLibrsvg(t, "marker_hidden.svg")
	for k := range rep.Skipped {
		if !strings.HasSuffix(k, ": visibility:hidden") && !strings.HasSuffix(k, ": display:none") {
			t.Errorf("noted %q", k)
		}
	}
}
