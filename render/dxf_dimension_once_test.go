package render

import (
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// TestDXFLaysEachDimensionOutOnce: a DXF write needs a dimension's bounds (the header's
// extents), its drawing and where its text stands (a TEXT entity's place); each used to lay
// the dimension out again, setting its text each time. Not parallel: it counts the layouts of
// the whole process.
func TestDXFLaysEachDimensionOutOnce(t *testing.T) {
	s := dimensionScene(t)
	dims := 0
	for _, e := range s.Walk() {
		if _, ok := e.Shape.(*scene.Dimension); ok {
			dims++
		}
	}
	for _, opt := range []DXFOptions{{Version: DXF2000}, {Version: DXF2000, Text: DXFTextEntities}, {Version: DXF12}} {
		before := scene.DimLayoutCount()
		if _, err := DXF(s, opt); err != nil {
			t.Fatal(err)
		}
		if got := scene.DimLayoutCount() - before; got != int64(dims) {
			t.Errorf("DXF(%+v) laid %d dimensions out %d times; want once each", opt, dims, got)
		}
	}
}
