package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// markedScene is a blue plate, a circle on it and a pin too small to see at 256 px.
func markedScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	put := func(name string, sh scene.Shape) {
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	put("plate", scene.Rect{Width: 100, Height: 60})
	put("ring", scene.Circle{Center: geom.Vec{X: 20, Y: 10}, Radius: 8})
	put("pin", scene.Circle{Center: geom.Vec{X: -30, Y: -15}, Radius: 0.2})
	blue := scene.Color{0.6, 0.7, 0.9, 1}
	if err := s.SetFill("plate", &blue); err != nil {
		t.Fatal(err)
	}
	return s
}

func decode(t *testing.T, b []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// pixel is the colour of the pixel holding scene point p, by the picture's own mapping.
func pixel(img *image.RGBA, pic *Picture, p geom.Vec) color.RGBA {
	x := int(math.Floor((p.X - pic.Visible.Min.X) * pic.Scale))
	y := int(math.Floor((pic.Visible.Max.Y - p.Y) * pic.Scale))
	return img.RGBAAt(x, y)
}

var orange = pngColor8(HighlightColor)

// TestDrawWithoutMarksIsPNG: with no marks a picture is PNG's, byte for byte.
func TestDrawWithoutMarksIsPNG(t *testing.T) {
	t.Parallel()
	s := markedScene(t)
	for _, opt := range []PNGOptions{{}, {Width: 300}, {Width: 64, View: &View{Min: geom.Vec{X: -10, Y: -10}, Max: geom.Vec{X: 30, Y: 5}}}} {
		want, err := PNG(s, opt)
		if err != nil {
			t.Fatal(err)
		}
		pic, err := Draw(s, opt, Marks{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pic.PNG, want) || !pic.Painted || pic.Highlighted != 0 || pic.GridStep != 0 {
			t.Errorf("%+v: picture differs from PNG's (%d vs %d bytes), %+v", opt, len(pic.PNG), len(want), *pic)
		}
	}
}

// TestDrawMapping: the visible region and scale map every scene point to the pixel PNG puts
// it at, also when the picture's shape widens the view.
func TestDrawMapping(t *testing.T) {
	t.Parallel()
	s := scene.New()
	if _, err := s.Put("sq", scene.Rect{Center: geom.Vec{X: 7, Y: -3}, Width: 2, Height: 2}); err != nil {
		t.Fatal(err)
	}
	red := scene.Color{1, 0, 0, 1}
	_ = s.SetFill("sq", &red)
	_ = s.SetStroke("sq", nil, 0)
	view := View{Min: geom.Vec{X: 0, Y: -10}, Max: geom.Vec{X: 20, Y: 0}}
	pic, err := Draw(s, PNGOptions{Width: 200, Height: 150, View: &view}, Marks{})
	if err != nil {
		t.Fatal(err)
	}
	// 20 × 10 units into 200 × 150 px: 10 px a unit, the view centred vertically with 2.5
	// units above and below.
	want := View{Min: geom.Vec{X: 0, Y: -12.5}, Max: geom.Vec{X: 20, Y: 2.5}}
	if diff := cmp.Diff(want, pic.Visible); diff != "" || pic.Scale != 10 || pic.Width != 200 || pic.Height != 150 {
		t.Errorf("scale %v, %d × %d, visible mismatch (-want +got):\n%s", pic.Scale, pic.Width, pic.Height, diff)
	}
	img := decode(t, pic.PNG)
	if c := pixel(img, pic, geom.Vec{X: 7, Y: -3}); c != pngColor8(red) {
		t.Errorf("centre of the square: %v", c)
	}
	if c := pixel(img, pic, geom.Vec{X: 9.5, Y: -3}); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("beside the square: %v", c)
	}
}

// TestDrawHighlight: highlighted shapes are repainted in the highlight colour over the rest,
// which fades; a shape too small to see is counted, and gets a ring around it when asked.
func TestDrawHighlight(t *testing.T) {
	t.Parallel()
	s := markedScene(t)
	hl := func(e *scene.Entity) bool { return e.Name != "plate" }
	unringed, err := Draw(s, PNGOptions{Width: 256}, Marks{Highlight: hl})
	if err != nil {
		t.Fatal(err)
	}
	pic, err := Draw(s, PNGOptions{Width: 256}, Marks{Highlight: hl, Rings: true})
	if err != nil {
		t.Fatal(err)
	}
	if pic.Highlighted != 2 || pic.Small != 1 || unringed.Highlighted != 2 || unringed.Small != 1 {
		t.Errorf("highlighted %d and %d shapes, %d and %d small; want 2, 1 small", pic.Highlighted, unringed.Highlighted, pic.Small, unringed.Small)
	}
	img := decode(t, pic.PNG)
	if c := pixel(img, pic, geom.Vec{X: 28, Y: 10}); c != orange {
		t.Errorf("ring's edge: %v, want %v", c, orange)
	}
	// The pin is 0.4 units across, under 1 px: a ring of markRingPx px goes round it, when
	// asked.
	if c := pixel(img, pic, geom.Vec{X: -30 + markRingPx/pic.Scale, Y: -15}); c != orange {
		t.Errorf("ring round the pin: %v, want %v", c, orange)
	}
	if c := pixel(decode(t, unringed.PNG), unringed, geom.Vec{X: -30 + markRingPx/unringed.Scale, Y: -15}); c == orange {
		t.Errorf("ring round the pin unasked: %v", c)
	}
	faded := func(v float64) uint8 {
		return uint8(math.Round(math.Round(v*255)*(1-highlightFade) + 255*highlightFade))
	}
	if c, want := pixel(img, pic, geom.Vec{X: 0, Y: -20}), (color.RGBA{faded(0.6), faded(0.7), faded(0.9), 255}); c != want {
		t.Errorf("plate: %v, want %v", c, want)
	}

	// Nothing to highlight: the picture is left as it is.
	plain, err := PNG(s, PNGOptions{Width: 256})
	if err != nil {
		t.Fatal(err)
	}
	none, err := Draw(s, PNGOptions{Width: 256}, Marks{Highlight: func(*scene.Entity) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(none.PNG, plain) || none.Highlighted != 0 {
		t.Errorf("an empty highlight changed the picture")
	}
}

// TestDrawGrid: grid lines at a round step, the axes stronger, labels that fit.
func TestDrawGrid(t *testing.T) {
	t.Parallel()
	s := markedScene(t)
	pic, err := Draw(s, PNGOptions{Width: 512}, Marks{Grid: true})
	if err != nil {
		t.Fatal(err)
	}
	// 110 units on 512 px: at least 64 px apart is 13.75 units, rounded up to 20.
	if pic.GridStep != 20 {
		t.Errorf("grid step %v, want 20", pic.GridStep)
	}
	img := decode(t, pic.PNG)
	axis, line := pixel(img, pic, geom.Vec{X: 0, Y: 25}), pixel(img, pic, geom.Vec{X: 20, Y: 25})
	if !(axis.B > axis.R && line.B > line.R && axis.R < line.R) {
		t.Errorf("the y axis %v should be a stronger blue than the line x = 20 %v", axis, line)
	}
	if c := pixel(img, pic, geom.Vec{X: 10, Y: 25}); c != pngColor8(scene.Color{0.6, 0.7, 0.9, 1}) {
		t.Errorf("between lines: %v, want the plate's colour", c)
	}
}

func TestNiceStepAndLabels(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x, step float64
		v       float64
		label   string
	}{
		{13.75, 20, -40, "-40"},
		{0.3, 0.5, 1.5, "1.5"},
		{0.0013, 0.002, 0.004, "0.004"},
		{1, 1, 0, "0"},
		{4.5e6, 5e6, 1.5e7, "1.5e+07"},
		{7, 10, 1e-13, "0"},
	} {
		if got := niceStep(c.x); math.Abs(got-c.step) > c.step*1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", c.x, got, c.step)
		}
		if got := gridLabel(c.v, c.step); got != c.label {
			t.Errorf("gridLabel(%v, %v) = %q, want %q", c.v, c.step, got, c.label)
		}
	}
}

// TestDrawPainted: a picture of nothing, or of shapes outside the view, paints no pixel.
func TestDrawPainted(t *testing.T) {
	t.Parallel()
	away := View{Min: geom.Vec{X: 500, Y: 500}, Max: geom.Vec{X: 510, Y: 510}}
	for _, c := range []struct {
		s    *scene.Scene
		opt  PNGOptions
		want bool
	}{
		{scene.New(), PNGOptions{Width: 64}, false},
		{markedScene(t), PNGOptions{Width: 64, View: &away}, false},
		{markedScene(t), PNGOptions{Width: 64}, true},
	} {
		pic, err := Draw(c.s, c.opt, Marks{Grid: true})
		if err != nil {
			t.Fatal(err)
		}
		if pic.Painted != c.want {
			t.Errorf("%+v: painted %v, want %v", c.opt, pic.Painted, c.want)
		}
	}
}

// BenchmarkDraw512 is a view's picture of the 10,000-entity scene: plain, and with a
// highlight and a grid.
func BenchmarkDraw512(b *testing.B) {
	s := pngW1Scene(b, true)
	for _, m := range []struct {
		name  string
		marks Marks
	}{
		{"plain", Marks{}},
		{"marked", Marks{Grid: true, Highlight: func(e *scene.Entity) bool { return len(e.Name)%7 == 0 }}},
	} {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Draw(s, PNGOptions{Width: 512}, m.marks); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
