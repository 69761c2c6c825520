package scene

import (
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestLintLaysEachDimensionOutOnce: the lint reads a dimension's bounds, where its text stands
// and, for the gaps, its drawing; each used to lay the dimension out again, setting its text
// each time. Not parallel: it counts the layouts of the whole process.
func TestLintLaysEachDimensionOutOnce(t *testing.T) {
	s := New()
	put := func(name string, sh Shape) {
		t.Helper()
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	put("plate", Rect{Center: geom.Vec{X: 20, Y: 10}, Width: 40, Height: 20})
	put("w", &Dimension{Type: DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: -1, Size: 2.5, Precision: 1})
	put("h", &Dimension{Type: DimVertical, Points: []geom.Vec{{X: 40, Y: 0}, {X: 40, Y: 20}}, Offset: 1, Size: 2.5, Precision: 1})
	put("r", &Dimension{Type: DimRadius, Points: []geom.Vec{{X: 20, Y: 10}}, Radius: 5, Size: 2.5, Precision: 1})
	before := DimLayoutCount()
	s.Lint(LintOptions{})
	if got := DimLayoutCount() - before; got != 3 {
		t.Errorf("the lint laid 3 dimensions out %d times; want once each", got)
	}
}
