package inkcheck

import (
	"image"
	"image/color"
	"image/draw"
	"testing"
)

// disc paints a filled disc of radius r at (cx, cy) on white, with a one-pixel grey rim as
// anti-aliasing would leave.
func disc(w, h, cx, cy, r int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
	for y := range h {
		for x := range w {
			d := (x-cx)*(x-cx) + (y-cy)*(y-cy)
			switch {
			case d <= r*r:
				img.Set(x, y, color.RGBA{20, 60, 200, 255})
			case d <= (r+1)*(r+1):
				img.Set(x, y, color.RGBA{137, 157, 227, 255})
			}
		}
	}
	return img
}

func TestAgrees(t *testing.T) {
	t.Parallel()
	base := disc(200, 200, 100, 100, 40)
	tests := []struct {
		name  string
		other *image.RGBA
		ok    bool
	}{
		{"the same picture", disc(200, 200, 100, 100, 40), true},
		{"a pixel to the side", disc(200, 200, 101, 100, 40), true},
		{"two pixels larger", disc(200, 200, 100, 100, 42), true},
		{"moved by six pixels", disc(200, 200, 106, 100, 40), false},
		{"smaller by six pixels", disc(200, 200, 100, 100, 34), false},
	}
	for _, tt := range tests {
		err := Agrees(base, tt.other, 2, false)
		if (err == nil) != tt.ok {
			t.Errorf("%s: Agrees = %v, want agreement %v", tt.name, err, tt.ok)
		}
	}
	// Another colour at the same place is not the same drawing, even at any coverage.
	red := disc(200, 200, 100, 100, 40)
	for i := 0; i < len(red.Pix); i += 4 {
		if red.Pix[i+2] == 200 {
			red.Pix[i], red.Pix[i+2] = 200, 20
		}
	}
	if Agrees(base, red, 2, true) == nil {
		t.Error("a red disc agrees with a blue one")
	}
}
