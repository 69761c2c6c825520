package render

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// pngDiagonals is n stroked lines, each from corner to corner of the view -10..10, so that
// each one's pixel box is the whole picture.
func pngDiagonals(t testing.TB, n int) *scene.Scene {
	t.Helper()
	s := scene.New()
	for i := range n {
		y := -10 + float64(i)*1e-3
		pngPut(t, s, "l"+strings.Repeat("x", i), scene.Line{Points: []geom.Vec{{X: -10, Y: y}, {X: 10, Y: 10}}}, nil, pngColor(scene.Black), 0.01)
	}
	return s
}

// withMaxRasterCells runs the test with maxRasterCells at n.
func withMaxRasterCells(t *testing.T, n int64) {
	old := maxRasterCells
	maxRasterCells = n
	t.Cleanup(func() { maxRasterCells = old })
}

// A thin stroke across a picture drawn in strips costs about its own area, not its box's: 100
// diagonal lines at 2,048 px (each box 4.2 M cells, 420 M in all) fit in 50 pictures' worth
// of cells, where each one used to cost a whole picture.
func TestRasterCellsFollowTheShape(t *testing.T) {
	const side = 2048
	withMaxRasterCells(t, 50*side*side)
	if _, err := Raster(pngDiagonals(t, 100), PNGOptions{Width: side, Height: side, View: pngSquareView()}); err != nil {
		t.Fatalf("Raster of 100 diagonal lines at %d px: %v", side, err)
	}
}

// Narrowing the strips changes where the rasterizer starts, not what it paints: the sums
// round differently (float32 coordinates from another origin), by a few levels in 255.
func TestRasterNarrowStripsSamePixels(t *testing.T) {
	s := pngDiagonals(t, 3)
	grey := scene.Color{0.2, 0.3, 0.4, 0.5}
	pngPut(t, s, "ring", scene.Circle{Radius: 9}, nil, pngColor(grey), 0.3)
	pngPut(t, s, "disc", scene.Circle{Center: geom.Vec{X: 2, Y: -3}, Radius: 6}, pngColor(grey), pngColor(scene.Black), 0.1)
	pngPut(t, s, "zig", scene.Line{Points: []geom.Vec{{X: -9, Y: -9}, {X: 9, Y: -5}, {X: -9, Y: 0}, {X: 9, Y: 4}}}, nil, pngColor(grey), 0.5)
	opt := PNGOptions{Width: 1500, Height: 1500, View: pngSquareView()}
	narrow := pngRaster(t, s, opt)
	pngNarrow = false
	t.Cleanup(func() { pngNarrow = true })
	whole := pngRaster(t, s, opt)
	worst, at := 0, 0
	for i := range whole.Pix {
		if d := abs(int(whole.Pix[i]) - int(narrow.Pix[i])); d > worst {
			worst, at = d, i
		}
	}
	if worst > 4 {
		t.Errorf("narrowed strips differ by %d at pixel (%d, %d); want at most 4", worst, at/4%1500, at/4/1500)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// A picture over the budget is refused naming it, and a cancelled one stops drawing.
func TestRasterRefused(t *testing.T) {
	withMaxRasterCells(t, 4*100*100)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		shapes  int
		ctx     context.Context
		wantErr error
		want    string
	}{
		{"over MaxRasterCells", 10, nil, ErrRasterCells, "picture too costly to draw: its fills and strokes cover more than 40000 pixels in all, counting each shape over its pixel box (MaxRasterCells); use a smaller width or scale, or a region that shows fewer large shapes, or draw fewer shapes over each other"},
		{"within it", 3, nil, nil, ""},
		{"cancelled", 1, cancelled, context.Canceled, "drawing the picture: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Raster(pngDiagonals(t, tt.shapes), PNGOptions{Width: 100, Height: 100, View: pngSquareView(), Context: tt.ctx})
			if !errors.Is(err, tt.wantErr) || (err != nil && err.Error() != tt.want) {
				t.Fatalf("Raster: %v; want %v (%q)", err, tt.wantErr, tt.want)
			}
		})
	}
}

// countdown is a context that is done once Err has been asked for after more calls.
type countdown struct {
	context.Context
	calls, after int
}

func (c *countdown) Err() error {
	if c.calls++; c.calls > c.after {
		return context.Canceled
	}
	return nil
}

// A call cancelled while its picture is drawn stops at the next shape: of 100 lines, the
// sixth is never drawn when the context is done after five.
func TestRasterStopsBetweenShapes(t *testing.T) {
	ctx := &countdown{Context: context.Background(), after: 5}
	_, err := Raster(pngDiagonals(t, 100), PNGOptions{Width: 100, Height: 100, View: pngSquareView(), Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Raster: %v; want %v", err, context.Canceled)
	}
	if ctx.calls != 6 {
		t.Errorf("the context was asked %d times; want 6 (once before each shape drawn, and once to stop)", ctx.calls)
	}
}
