package render

import (
	"image"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDXFHatchThroughLibreCAD has LibreCAD print a plate hatched with ansi31, 100 by 60 with
// a hole of radius 15 at its centre (a boolean difference), in R2000 (a HATCH, whose lines
// LibreCAD works out itself from the pattern and the boundary paths) and R12 (the lines),
// and poppler rasterise the page. The picture is placed by its ink, the plate's outline being
// its extremes; every 10 by 10 cell of the plate clear of the hole and the edges has ink,
// and the hole, but for its outline, has none.
func TestDXFHatchThroughLibreCAD(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Width: 100, Height: 60})
	put(t, s, "h", scene.Circle{Radius: 15})
	_, err := s.Boolean(scene.Difference, []string{"r"}, []string{"h"}, "plate")
	do(t, err)
	do(t, s.Delete("r"))
	do(t, s.Delete("h"))
	do(t, s.SetHatch("plate", "ansi31", 0, 1, nil))

	for i, pic := range librecadPictures(t, s, librecadPixelWidth, DXF12, DXF2000) {
		t.Run([]string{"R12", "R2000"}[i], func(t *testing.T) { checkLibreCADHatch(t, pic) })
	}
}

// checkLibreCADHatch holds LibreCAD's picture of the hatched plate of TestDXFHatchThroughLibreCAD
// to its hatch: ink in every cell of the plate clear of the hole, none inside the hole.
func checkLibreCADHatch(t *testing.T, pic *image.RGBA) {
	t.Helper()
	dark := func(x, y int) bool {
		px := pic.RGBAAt(x, y)
		return int(px.R)+int(px.G)+int(px.B) < 3*128
	}
	ink := image.Rectangle{}
	for y := pic.Rect.Min.Y; y < pic.Rect.Max.Y; y++ {
		for x := pic.Rect.Min.X; x < pic.Rect.Max.X; x++ {
			if dark(x, y) {
				ink = ink.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if ink.Empty() {
		t.Fatalf("LibreCAD's picture is blank")
	}
	// The plate spans -50..50 by -30..30: the ink's extremes.
	k := float64(ink.Dx()-1) / 100
	if ky := float64(ink.Dy()-1) / 60; math.Abs(k-ky) > 0.02*k {
		t.Fatalf("the ink spans %v, not a 100 by 60 plate", ink)
	}
	toDrawing := func(x, y int) geom.Vec {
		return geom.Vec{X: (float64(x-ink.Min.X)+0.5)/k - 50, Y: 30 - (float64(y-ink.Min.Y)+0.5)/k}
	}
	margin := 2 / k // two pixels, in drawing units
	holeInk, cells := 0, map[[2]int]int{}
	for y := ink.Min.Y; y < ink.Max.Y; y++ {
		for x := ink.Min.X; x < ink.Max.X; x++ {
			if !dark(x, y) {
				continue
			}
			p := toDrawing(x, y)
			if r := math.Hypot(p.X, p.Y); r < 15-margin {
				holeInk++
			}
			cells[[2]int{int(math.Floor(p.X / 10)), int(math.Floor(p.Y / 10))}]++
		}
	}
	if holeInk > 0 {
		t.Errorf("%d dark pixels inside the hole: the hatch is drawn where the plate is not", holeInk)
	}
	bare := 0
	for cx := -5; cx < 5; cx++ {
		for cy := -3; cy < 3; cy++ {
			// The cell's corners nearest to and farthest from the hole's centre.
			nx := math.Max(0, math.Max(float64(cx*10), -float64(cx*10+10)))
			ny := math.Max(0, math.Max(float64(cy*10), -float64(cy*10+10)))
			if math.Hypot(nx, ny) < 15+margin {
				continue // the hole reaches into it
			}
			if cells[[2]int{cx, cy}] == 0 {
				bare++
				t.Errorf("no ink in the cell %v..%v by %v..%v of the plate", cx*10, cx*10+10, cy*10, cy*10+10)
			}
		}
	}
	t.Logf("%.3g pixels per unit; ink in %d cells, %d bare, %d dark pixels in the hole", k, len(cells), bare, holeInk)
}
