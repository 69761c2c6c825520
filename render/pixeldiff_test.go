package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// diffEdge is a 10×10 picture, black left of x = 5, white right of it, with an edge column at
// x = 5 of the given grey: an anti-aliased vertical edge.
func diffEdge(edge uint8) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 10, 10))
	for y := range 10 {
		for x := range 10 {
			c := color.RGBA{0, 0, 0, 255}
			switch {
			case x == 5:
				c = color.RGBA{edge, edge, edge, 255}
			case x > 5:
				c = color.RGBA{255, 255, 255, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func TestPixelDiff(t *testing.T) {
	t.Parallel()
	spot := diffEdge(128)
	for y := 2; y < 4; y++ {
		for x := 7; x < 9; x++ {
			spot.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	faint := diffEdge(128)
	faint.SetRGBA(8, 8, color.RGBA{250, 250, 250, 255}) // under the threshold
	tests := []struct {
		name string
		a, b *image.RGBA
		opt  DiffOptions
		want Diff
	}{
		{"same", diffEdge(128), diffEdge(128), DiffOptions{}, Diff{}},
		{"edge shade is anti-aliasing", diffEdge(128), diffEdge(200), DiffOptions{}, Diff{AntiAliased: 10}},
		{"edge shade counted when asked", diffEdge(128), diffEdge(200), DiffOptions{CountAntiAliased: true}, Diff{Different: 10}},
		{"red spot", diffEdge(128), spot, DiffOptions{}, Diff{Different: 4}},
		{"faint change under the threshold", diffEdge(128), faint, DiffOptions{}, Diff{}},
		{"faint change over a zero-ish threshold", diffEdge(128), faint, DiffOptions{Threshold: 0.01}, Diff{Different: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PixelDiff(tt.a, tt.b, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Diff{}, "Image")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPixelDiffImage(t *testing.T) {
	t.Parallel()
	b := diffEdge(128)
	b.SetRGBA(8, 1, color.RGBA{0, 0, 255, 255})
	got, err := PixelDiff(diffEdge(128), b, DiffOptions{Image: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[image.Point]color.RGBA{
		{8, 1}: {255, 0, 0, 255},     // changed: red
		{0, 0}: {229, 229, 229, 255}, // black, faded to 10%
		{9, 9}: {255, 255, 255, 255}, // white stays white
	}
	for p, c := range want {
		if g := got.Image.RGBAAt(p.X, p.Y); g != c {
			t.Errorf("diff image at %v = %v, want %v", p, g, c)
		}
	}
}

func TestPixelDiffDecodedPNG(t *testing.T) {
	t.Parallel()
	// A snapshot read back from disk decodes as another image type; it still compares equal.
	var buf bytes.Buffer
	if err := png.Encode(&buf, diffEdge(128)); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := PixelDiff(img, diffEdge(128), DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Different != 0 || got.AntiAliased != 0 {
		t.Errorf("decoded copy differs: %+v", got)
	}
}

func TestPixelDiffSize(t *testing.T) {
	t.Parallel()
	_, err := PixelDiff(image.NewRGBA(image.Rect(0, 0, 4, 3)), image.NewRGBA(image.Rect(0, 0, 3, 4)), DiffOptions{})
	if !errors.Is(err, ErrDiffSize) || err.Error() != "pictures differ in size: 4x3 and 3x4" {
		t.Errorf("err = %v, want ErrDiffSize: pictures differ in size: 4x3 and 3x4", err)
	}
}

// BenchmarkPixelDiff compares W1 (10,000 entities) at 1024 px with its snapshot as a test
// does: decode the stored PNG, then compare it with a fresh render; "moved" moves one entity.
func BenchmarkPixelDiff(b *testing.B) {
	s := pngW1Scene(b, false)
	opt := PNGOptions{Width: 1024, Height: 1024}
	snap, err := PNG(s, opt)
	if err != nil {
		b.Fatal(err)
	}
	same, err := Raster(s, opt)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Translate("e5050", geom.Vec{X: 3, Y: 0}, scene.SpaceWorld); err != nil {
		b.Fatal(err)
	}
	moved, err := Raster(s, opt)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		img  *image.RGBA
		opt  DiffOptions
	}{{"same", same, DiffOptions{}}, {"moved", moved, DiffOptions{}}, {"moved/image", moved, DiffOptions{Image: true}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				old, err := png.Decode(bytes.NewReader(snap))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := PixelDiff(old, c.img, c.opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
