package render

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDashesThroughLibreCAD has LibreCAD print the DXF of a dashed hairline 87 units long (6
// on, 3 off) and poppler rasterise the page, and wants the line dashed, two on for one off.
// LibreCAD draws a linetype it knows by name with its own pattern in paper millimetres,
// whatever the LTYPE's lengths and the drawing's scale (here 12 mm on, 6 off less the pen),
// so the lengths cannot be held to the scene's; ezdxf checks those (TestDraftingDXFThroughEzdxf).
func TestDashesThroughLibreCAD(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "dashed", scene.Line{Points: []geom.Vec{{X: 0}, {X: 87}}})
	if err := s.SetLinetype("dashed", "dashed", 1); err != nil {
		t.Fatal(err)
	}
	versions := []DXFVersion{DXF12, DXF2000}
	for i, pic := range librecadPictures(t, s, 1600, versions...) {
		checkDashRatio(t, fmt.Sprintf("LibreCAD R%d", versions[i]), pic, 2)
	}
}

// checkDashRatio finds the row with the most dark pixels and wants it cut into at least 9
// dashes, every dash but the ends ratio times as long as a gap, within a fifth.
func checkDashRatio(t *testing.T, reader string, img *image.RGBA, ratio float64) {
	t.Helper()
	b := img.Bounds()
	dark := darkPixel(img)
	bestRow, best := -1, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		n := 0
		for x := b.Min.X; x < b.Max.X; x++ {
			if dark(x, y) {
				n++
			}
		}
		if n > best {
			bestRow, best = y, n
		}
	}
	var runs []int // on, off, on, ... from the first ink
	for x := b.Min.X; bestRow >= 0 && x < b.Max.X; x++ {
		on := dark(x, bestRow)
		switch {
		case len(runs) == 0 && !on:
		case len(runs) > 0 && (len(runs)%2 == 1) == on:
			runs[len(runs)-1]++
		default:
			runs = append(runs, 1)
		}
	}
	if len(runs)%2 == 0 && len(runs) > 0 {
		runs = runs[:len(runs)-1] // the white after the last dash
	}
	if len(runs) < 17 {
		t.Fatalf("%s: row %d has runs %v, want a dashed line of at least 9 dashes", reader, bestRow, runs)
	}
	for i := 2; i < len(runs)-2; i += 2 {
		if got := float64(runs[i]) / float64(runs[i+1]); math.Abs(got-ratio) > ratio/5 {
			t.Errorf("%s: dash %d is %d pixels and the gap after it %d, want %v to 1 (runs %v)", reader, i/2, runs[i], runs[i+1], ratio, runs)
		}
	}
}
