package lint

import (
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestLintLaysEachDimensionOutOnce: the lint reads a dimension's bounds, where its text stands
// and, for the gaps, its drawing; each used to lay the dimension out again, setting its text
// each time. Not parallel: it counts the layouts of the whole process.
func TestLintLaysEachDimensionOutOnce(t *testing.T) {
	s := scene.New()
	put := func(name string, sh scene.Shape) {
		t.Helper()
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	put("plate", scene.Rect{Center: geom.Vec{X: 20, Y: 10}, Width: 40, Height: 20})
	put("w", &scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: -1, Size: 2.5, Precision: 1})
	put("h", &scene.Dimension{Type: scene.DimVertical, Points: []geom.Vec{{X: 40, Y: 0}, {X: 40, Y: 20}}, Offset: 1, Size: 2.5, Precision: 1})
	put("r", &scene.Dimension{Type: scene.DimRadius, Points: []geom.Vec{{X: 20, Y: 10}}, Radius: 5, Size: 2.5, Precision: 1})
	before := scene.DimLayoutCount()
	Check(s, Options{})
	if got := scene.DimLayoutCount() - before; got != 3 {
		t.Errorf("the lint laid 3 dimensions out %d times; want once each", got)
	}
}
