package render

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDimensionPNGInk draws a horizontal dimension through the PNG writer, decodes the file
// with Go's own PNG reader and looks for ink where a drafter puts each piece: filled arrows
// just inside the extension lines, the text centred above the dimension line, and nothing
// in the gap between the measured points and their extension lines nor under the line.
func TestDimensionPNGInk(t *testing.T) {
	t.Parallel()
	s := scene.New()
	d := &scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 10,
		Precision: 2, Size: 2.5}
	if _, err := s.Put("w", d); err != nil {
		t.Fatal(err)
	}
	// 10 pixels a unit, world (-5, -5) at the bottom-left corner.
	b, err := PNG(s, PNGOptions{Width: 500, Height: 250, View: &View{Min: geom.Vec{X: -5, Y: -5}, Max: geom.Vec{X: 45, Y: 20}}})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Go's PNG reader: %v", err)
	}
	px := func(x, y float64) image.Point { return image.Pt(int((x+5)*10), int((20-y)*10)) }
	dark := func(x, y float64) bool {
		r, g, bl, _ := img.At(px(x, y).X, px(x, y).Y).RGBA()
		return r+g+bl < 3*0x8000
	}
	// An arrow is filled: its inside, well off the line, is ink.
	for _, p := range [][2]float64{{2, 10.2}, {2, 9.8}, {38, 10.2}, {38, 9.8}} {
		if !dark(p[0], p[1]) {
			t.Errorf("no arrow ink at (%v, %v)", p[0], p[1])
		}
	}
	// Ink of the text "40" above the line, centred on x = 20, and none far to its sides.
	ink := 0
	for x := 17.0; x <= 23; x += 0.1 {
		for y := 10.8; y <= 12.8; y += 0.1 {
			if dark(x, y) {
				ink++
			}
		}
	}
	if ink < 100 {
		t.Errorf("%d dark pixels where the text must be, want a legible '40'", ink)
	}
	for _, p := range [][2]float64{{10, 11.5}, {30, 11.5}, {0, 0.3}, {40, 0.3}, {20, 8}, {20, 5}} {
		if dark(p[0], p[1]) {
			t.Errorf("ink at (%v, %v), where the drawing has a gap", p[0], p[1])
		}
	}
	// The extension lines reach past the dimension line.
	for _, p := range [][2]float64{{0, 5}, {40, 5}, {0, 11}, {40, 11}} {
		if !dark(p[0], p[1]) {
			t.Errorf("no extension line at (%v, %v)", p[0], p[1])
		}
	}
}
