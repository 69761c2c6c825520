package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// Most tests show the world square -10..10 in a 100×100 picture: 5 px per unit, world (x, y)
// at pixel ((x+10)·5, (10-y)·5).
func pngSquareView() *View {
	return &View{Min: geom.Vec{X: -10, Y: -10}, Max: geom.Vec{X: 10, Y: 10}}
}

var (
	pngWhite = color.RGBA{255, 255, 255, 255}
	pngRed   = color.RGBA{255, 0, 0, 255}
	pngBlack = color.RGBA{0, 0, 0, 255}
)

// pngPut draws shape with the given fill and stroke (nil for none).
func pngPut(t testing.TB, s *scene.Scene, name string, sh scene.Shape, fill, stroke *scene.Color, width float64) {
	t.Helper()
	if _, err := s.Put(name, sh); err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
	if err := s.SetFill(name, fill); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStroke(name, stroke, width); err != nil {
		t.Fatal(err)
	}
}

func pngColor(c scene.Color) *scene.Color { return &c }

func pngRaster(t testing.TB, s *scene.Scene, opt PNGOptions) *image.RGBA {
	t.Helper()
	if opt.View == nil {
		opt.View = pngSquareView()
	}
	if opt.Width == 0 && opt.Height == 0 && opt.Scale == 0 {
		opt.Width, opt.Height = 100, 100
	}
	img, err := Raster(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pngInk is how much of pixel (x, y) is covered by black drawn on white, 0..1.
func pngInk(img *image.RGBA, x, y int) float64 {
	return 1 - float64(img.RGBAAt(x, y).R)/255
}

func pngTotalInk(img *image.RGBA) float64 {
	sum := 0.0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			sum += pngInk(img, x, y)
		}
	}
	return sum
}

func pngNear(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return math.Abs(float64(x)-float64(y)) <= float64(tol) }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

// pngCheckPixels compares the colours at the named pixels.
func pngCheckPixels(t *testing.T, img *image.RGBA, want map[image.Point]color.RGBA) {
	t.Helper()
	got := map[image.Point]color.RGBA{}
	for p := range want {
		got[p] = img.RGBAAt(p.X, p.Y)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pixels mismatch (-want +got):\n%s", diff)
	}
}

func TestPNGFilledSquare(t *testing.T) {
	t.Parallel()
	s := scene.New()
	pngPut(t, s, "sq", scene.Rect{Width: 10, Height: 10}, pngColor(scene.Color{1, 0, 0, 1}), nil, 0)
	img := pngRaster(t, s, PNGOptions{})
	// The square spans pixels 25..74 exactly, so its edges are crisp.
	pngCheckPixels(t, img, map[image.Point]color.RGBA{
		{50, 50}: pngRed, {25, 25}: pngRed, {74, 74}: pngRed,
		{24, 50}: pngWhite, {75, 50}: pngWhite, {50, 24}: pngWhite, {5, 5}: pngWhite,
	})
}

func TestPNGYUp(t *testing.T) {
	t.Parallel()
	s := scene.New()
	pngPut(t, s, "c", scene.Circle{Center: geom.Vec{Y: 5}, Radius: 2}, pngColor(scene.Black), nil, 0)
	img := pngRaster(t, s, PNGOptions{})
	pngCheckPixels(t, img, map[image.Point]color.RGBA{{50, 25}: pngBlack, {50, 75}: pngWhite})
}

func TestPNGCircleAntialiasedWithTrueArea(t *testing.T) {
	t.Parallel()
	s := scene.New()
	pngPut(t, s, "c", scene.Circle{Radius: 5}, pngColor(scene.Black), nil, 0)
	img := pngRaster(t, s, PNGOptions{})
	partial := 0
	for y := range 100 {
		for x := range 100 {
			if r := img.RGBAAt(x, y).R; r > 0 && r < 255 {
				partial++
			}
		}
	}
	if partial < 50 {
		t.Errorf("%d partly covered pixels on the edge of a 25 px circle; want anti-aliasing", partial)
	}
	// The coverage is exact for the polygon the circle is flattened to, whose vertices lie on
	// the circle (pngTolerance below it between them).
	n := float64(geom.ArcSegments(25, 2*math.Pi, pngTolerance))
	want := n / 2 * 25 * 25 * math.Sin(2*math.Pi/n)
	if got := pngTotalInk(img); math.Abs(got-want) > 0.5 {
		t.Errorf("circle covers %.2f px², want %.2f (a %v-gon of radius 25)", got, want, n)
	}
}

func TestPNGPolygonHoles(t *testing.T) {
	t.Parallel()
	outer := []geom.Vec{{X: -8, Y: -8}, {X: 8, Y: -8}, {X: 8, Y: 8}, {X: -8, Y: 8}} // counter-clockwise
	cw := []geom.Vec{{X: -3, Y: -3}, {X: -3, Y: 3}, {X: 3, Y: 3}, {X: 3, Y: -3}}
	ccw := []geom.Vec{{X: -3, Y: -3}, {X: 3, Y: -3}, {X: 3, Y: 3}, {X: -3, Y: 3}}
	tests := []struct {
		name   string
		hole   []geom.Vec
		centre color.RGBA
	}{
		{"hole wound opposite stays empty", cw, pngWhite},
		// A hole is a hole whichever way it runs, as in the area operations.
		{"hole wound like its outer stays empty", ccw, pngWhite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := scene.New()
			poly := scene.Polygon{Parts: []scene.PolygonPart{{Outer: outer, Holes: [][]geom.Vec{tt.hole}}}}
			pngPut(t, s, "p", poly, pngColor(scene.Black), nil, 0)
			img := pngRaster(t, s, PNGOptions{})
			pngCheckPixels(t, img, map[image.Point]color.RGBA{
				{50, 50}: tt.centre, {80, 50}: pngBlack, {95, 50}: pngWhite,
			})
		})
	}
}

func TestPNGStrokeWidth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		width float64 // world units; 5 px each
	}{{0}, {0.1}, {0.4}, {1}, {2}, {5}} // 0: a hairline
	for _, tt := range tests {
		t.Run(fmt.Sprint("width ", tt.width), func(t *testing.T) {
			t.Parallel()
			s := scene.New()
			line := scene.Line{Points: []geom.Vec{{X: -6, Y: 0.13}, {X: 6, Y: 0.13}}}
			pngPut(t, s, "l", line, nil, pngColor(scene.Black), tt.width)
			img := pngRaster(t, s, PNGOptions{})
			across := 0.0
			for y := range 100 {
				across += pngInk(img, 50, y)
			}
			w := tt.width * 5
			if tt.width == 0 {
				w = 1 // a hairline: one pixel
			}
			if math.Abs(across-w) > 0.02 {
				t.Errorf("width %v: the stroke covers %.3f px across, want %.3f", tt.width, across, w)
			}
			// Round caps: a capsule of length 60 px plus two half discs.
			r := w / 2
			if area, want := pngTotalInk(img), 60*2*r+math.Pi*r*r; math.Abs(area-want) > 0.01*want+0.05 {
				t.Errorf("width %v: the stroke covers %.2f px², want %.2f", tt.width, area, want)
			}
		})
	}
}

func TestPNGDiagonalStrokeArea(t *testing.T) {
	t.Parallel()
	s := scene.New()
	line := scene.Line{Points: []geom.Vec{{X: -5, Y: -3}, {X: 4, Y: 6}}}
	pngPut(t, s, "l", line, nil, pngColor(scene.Black), 1.2)
	img := pngRaster(t, s, PNGOptions{})
	r := 1.2 * 5 / 2
	want := math.Hypot(45, 45)*2*r + math.Pi*r*r
	if got := pngTotalInk(img); math.Abs(got-want) > want*0.003 {
		t.Errorf("the stroke covers %.2f px², want %.2f", got, want)
	}
}

// A translucent stroke is painted once: where the pieces of its outline overlap (at joins,
// and where a closed ring meets itself) the colour is the same as along a straight stretch.
func TestPNGTranslucentStrokeBlendsOnce(t *testing.T) {
	t.Parallel()
	grey := scene.Color{0, 0, 0, 0.5}
	s := scene.New()
	pngPut(t, s, "open", scene.Line{Points: []geom.Vec{{X: -8, Y: 6}, {X: 0, Y: 6}, {X: 0, Y: -2}, {X: 2, Y: 4}}}, nil, &grey, 2)
	pngPut(t, s, "ring", scene.Rect{Center: geom.Vec{X: -5, Y: -5}, Width: 6, Height: 6}, nil, &grey, 2)
	img := pngRaster(t, s, PNGOptions{})
	half := color.RGBA{128, 128, 128, 255}
	for _, p := range []image.Point{
		{20, 20},           // straight part of the open line
		{50, 20},           // its first corner
		{50, 60},           // its sharp second corner
		{40, 75}, {25, 62}, // the ring's sides
		{10, 60}, {9, 59}, // a corner of the ring
		{10, 90}, {9, 90}, // the corner where the ring closes
	} {
		if got := img.RGBAAt(p.X, p.Y); !pngNear(got, half, 1) {
			t.Errorf("pixel %v is %v, want %v", p, got, half)
		}
	}
}

func TestPNGAlphaBlending(t *testing.T) {
	t.Parallel()
	s := scene.New()
	pngPut(t, s, "red", scene.Rect{Center: geom.Vec{X: -2}, Width: 8, Height: 8}, pngColor(scene.Color{1, 0, 0, 0.5}), nil, 0)
	pngPut(t, s, "blue", scene.Rect{Center: geom.Vec{X: 2}, Width: 8, Height: 8}, pngColor(scene.Color{0, 0, 1, 0.5}), nil, 0)
	img := pngRaster(t, s, PNGOptions{})
	want := map[image.Point]color.RGBA{
		{35, 50}: {255, 128, 128, 255}, // red over white
		{65, 50}: {128, 128, 255, 255}, // blue over white
		{50, 50}: {128, 64, 191, 255},  // blue over red over white
	}
	for p, w := range want {
		if got := img.RGBAAt(p.X, p.Y); !pngNear(got, w, 1) {
			t.Errorf("pixel %v is %v, want %v", p, got, w)
		}
	}
}

func TestPNGZOrder(t *testing.T) {
	t.Parallel()
	s := scene.New()
	pngPut(t, s, "back", scene.Rect{Width: 10, Height: 10}, pngColor(scene.Color{1, 0, 0, 1}), nil, 0)
	pngPut(t, s, "front", scene.Rect{Width: 4, Height: 4}, pngColor(scene.Black), nil, 0)
	img := pngRaster(t, s, PNGOptions{})
	pngCheckPixels(t, img, map[image.Point]color.RGBA{{50, 50}: pngBlack, {30, 30}: pngRed})

	if err := s.DrawOrder("back", "front"); err != nil {
		t.Fatal(err)
	}
	img = pngRaster(t, s, PNGOptions{})
	pngCheckPixels(t, img, map[image.Point]color.RGBA{{50, 50}: pngRed, {30, 30}: pngRed})
}

func TestPNGBackground(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		bg   *scene.Color
		want color.RGBA
	}{
		{"nil is opaque white", nil, pngWhite},
		{"alpha 0 is transparent", pngColor(scene.Color{1, 1, 1, 0}), color.RGBA{}},
		{"opaque colour", pngColor(scene.Color{0, 0, 1, 1}), color.RGBA{0, 0, 255, 255}},
		{"translucent colour is premultiplied", pngColor(scene.Color{0, 0, 1, 0.5}), color.RGBA{0, 0, 128, 128}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := scene.New()
			pngPut(t, s, "sq", scene.Rect{Width: 10, Height: 10}, pngColor(scene.Color{1, 0, 0, 1}), nil, 0)
			b, err := PNG(s, PNGOptions{View: pngSquareView(), Width: 20, Height: 20, Background: tt.bg})
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			corner := color.RGBAModel.Convert(img.At(0, 0)).(color.RGBA)
			centre := color.RGBAModel.Convert(img.At(10, 10)).(color.RGBA)
			if diff := cmp.Diff([]color.RGBA{tt.want, pngRed}, []color.RGBA{corner, centre}); diff != "" {
				t.Errorf("corner and centre mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Shapes far larger than the picture are clipped before rasterizing, and shapes outside it
// are skipped; both must still paint exactly what is visible.
func TestPNGHugeAndOffscreenShapes(t *testing.T) {
	t.Parallel()
	s := scene.New()
	green := scene.Color{0, 1, 0, 1}
	pngPut(t, s, "huge", scene.Rect{Center: geom.Vec{X: 3e7, Y: -2e7}, Width: 1e8, Height: 1e8}, &green, pngColor(scene.Black), 1)
	pngPut(t, s, "rim", scene.Circle{Center: geom.Vec{X: 1e6}, Radius: 1e6 - 5}, nil, pngColor(scene.Black), 2)
	pngPut(t, s, "away", scene.Circle{Center: geom.Vec{X: 500, Y: 500}, Radius: 3}, pngColor(scene.Black), pngColor(scene.Black), 1)
	img := pngRaster(t, s, PNGOptions{})
	g := color.RGBA{0, 255, 0, 255}
	// The rim of the giant circle passes through world x = 5: a vertical band 10 px wide.
	pngCheckPixels(t, img, map[image.Point]color.RGBA{
		{0, 0}: g, {99, 99}: g, {50, 50}: g, {69, 0}: g, {80, 99}: g,
		{75, 0}: pngBlack, {75, 50}: pngBlack, {75, 99}: pngBlack, {70, 50}: pngBlack, {79, 50}: pngBlack,
	})
}

func TestPNGSize(t *testing.T) {
	t.Parallel()
	wide := &View{Max: geom.Vec{X: 200, Y: 100}}
	tall := &View{Max: geom.Vec{X: 100, Y: 200}}
	tests := []struct {
		name string
		opt  PNGOptions
		want image.Point
	}{
		{"default wide", PNGOptions{View: wide}, image.Pt(1024, 512)},
		{"default tall", PNGOptions{View: tall}, image.Pt(512, 1024)},
		{"scale", PNGOptions{View: wide, Scale: 2}, image.Pt(400, 200)},
		{"fractional scale rounds", PNGOptions{View: wide, Scale: 0.333}, image.Pt(67, 33)},
		{"width only", PNGOptions{View: wide, Width: 300}, image.Pt(300, 150)},
		{"height only", PNGOptions{View: wide, Height: 300}, image.Pt(600, 300)},
		{"both", PNGOptions{View: wide, Width: 64, Height: 64}, image.Pt(64, 64)},
		{"at the limit", PNGOptions{View: wide, Width: MaxPNGSide}, image.Pt(MaxPNGSide, MaxPNGSide/2)},
		{"one pixel", PNGOptions{View: wide, Width: 1}, image.Pt(1, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, h, err := pngSize(tt.opt.View.Size(), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, image.Pt(w, h)); diff != "" {
				t.Errorf("size mismatch (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("fitted scene", func(t *testing.T) {
		t.Parallel()
		s := scene.New()
		pngPut(t, s, "r", scene.Rect{Width: 100, Height: 50}, nil, nil, 0)
		img, err := Raster(s, PNGOptions{Scale: 1})
		if err != nil {
			t.Fatal(err)
		}
		// FitView pads by 5% of 100 on every side.
		if diff := cmp.Diff(image.Rect(0, 0, 110, 60), img.Bounds()); diff != "" {
			t.Errorf("bounds mismatch (-want +got):\n%s", diff)
		}
	})
}

func TestPNGSizeErrors(t *testing.T) {
	t.Parallel()
	wide := &View{Max: geom.Vec{X: 200, Y: 100}}
	tests := []struct {
		name string
		opt  PNGOptions
		want string
	}{
		{"scale too large", PNGOptions{View: wide, Scale: 100},
			"bad png size: 20000 x 10000 px requested; each side must be at most 8192 px (MaxPNGSide): use a smaller scale or width"},
		{"derived height too large", PNGOptions{View: &View{Max: geom.Vec{X: 100, Y: 200}}, Width: 5000},
			"bad png size: 5000 x 10000 px requested; each side must be at most 8192 px (MaxPNGSide): use a smaller scale or width"},
		{"width too large", PNGOptions{View: wide, Width: 9000, Height: 10},
			"bad png size: 9000 x 10 px requested; each side must be at most 8192 px (MaxPNGSide): use a smaller scale or width"},
		{"scale too small", PNGOptions{View: wide, Scale: 0.004},
			"bad png size: 1 x 0 px requested; each side must be at least 1 px: use a larger scale or width"},
		{"negative width", PNGOptions{View: wide, Width: -1},
			"bad png size: width -1, height 0, scale 0: give positive values, or 0 to derive them from the view"},
		{"NaN scale", PNGOptions{View: wide, Scale: math.NaN()},
			"bad png size: width 0, height 0, scale NaN: give positive values, or 0 to derive them from the view"},
		{"scale and width", PNGOptions{View: wide, Scale: 2, Width: 100},
			"bad png size: scale 2 and width 100, height 0: give either a scale or a width/height, not both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := PNG(scene.New(), tt.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, ErrPNGSize) {
				t.Errorf("error %v is not ErrPNGSize", err)
			}
		})
	}

	t.Run("bad view", func(t *testing.T) {
		t.Parallel()
		_, err := PNG(scene.New(), PNGOptions{View: &View{Max: geom.Vec{X: 1}}})
		if want := "view must have a positive width and height, got 1 x 0"; err == nil || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
	})
}

// pngMixedScene has one of each kind of shape, groups, rotation, translucency and a hole.
func pngMixedScene(t testing.TB) *scene.Scene {
	t.Helper()
	s := scene.New()
	steel := scene.Color{0.75, 0.82, 0.9, 1}
	navy := scene.Color{0.1, 0.15, 0.35, 1}
	pngPut(t, s, "plate", scene.RoundedRect{Width: 80, Height: 50, Radius: 6}, &steel, &navy, 1)
	pngPut(t, s, "bore", scene.Circle{Center: geom.Vec{X: -20}, Radius: 10}, pngColor(scene.Color{1, 1, 1, 1}), &navy, 0.5)
	frame := scene.Polygon{Parts: []scene.PolygonPart{{
		Outer: []geom.Vec{{X: 5, Y: -15}, {X: 35, Y: -15}, {X: 35, Y: 15}, {X: 5, Y: 15}},
		Holes: [][]geom.Vec{{{X: 12, Y: -8}, {X: 12, Y: 8}, {X: 28, Y: 8}, {X: 28, Y: -8}}},
	}}}
	pngPut(t, s, "frame", frame, pngColor(scene.Color{0.2, 0.6, 0.3, 1}), nil, 0)
	pngPut(t, s, "tab", scene.Rect{Center: geom.Vec{X: 20, Y: 30}, Width: 20, Height: 8}, pngColor(scene.Color{0.9, 0.4, 0.1, 0.6}), &navy, 0.5)
	if err := s.Rotate("tab", math.Pi/6, scene.SpaceWorld); err != nil {
		t.Fatal(err)
	}
	pngPut(t, s, "zigzag", scene.Line{Points: []geom.Vec{{X: -40, Y: -32}, {X: -25, Y: -22}, {X: -10, Y: -32}, {X: 5, Y: -22}}}, nil, pngColor(scene.Color{0.8, 0.1, 0.1, 0.7}), 3)
	pngPut(t, s, "sweep", scene.Arc{Center: geom.Vec{X: -20}, Radius: 15, Start: 0, End: 3 * math.Pi / 2}, nil, &navy, 1.5)
	pngPut(t, s, "dot", scene.Ellipse{Center: geom.Vec{X: 30, Y: -30}, RX: 6, RY: 3}, pngColor(scene.Color{0.3, 0.3, 0.9, 0.5}), &navy, 0.3)
	if _, err := s.CreateGroup("marks", []string{"dot", "zigzag"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Rotate("marks", -0.1, scene.SpaceWorld); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPNGGolden(t *testing.T) {
	t.Parallel()
	got, err := PNG(pngMixedScene(t), PNGOptions{Width: 320})
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckBinary(t, "testdata/png_mixed.png", got, explainPNG)
}

// explainPNG says whether the picture or only its encoding changed, to help the review.
func explainPNG(want, got []byte) string {
	wi, err1 := png.Decode(bytes.NewReader(want))
	gi, err2 := png.Decode(bytes.NewReader(got))
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Sprintf("the pictures do not decode: %v", err)
	}
	d, err := PixelDiff(wi, gi, DiffOptions{})
	if err != nil {
		return err.Error()
	}
	if d.Different == 0 && d.AntiAliased == 0 {
		return "no pixel differs beyond PixelDiff's threshold: only the encoding or faint shades changed"
	}
	return fmt.Sprintf("%d pixels differ, %d more only as anti-aliased edges (look at the picture)", d.Different, d.AntiAliased)
}

func TestPNGDeterministic(t *testing.T) {
	t.Parallel()
	s := pngMixedScene(t)
	first, err := PNG(s, PNGOptions{Width: 200})
	if err != nil {
		t.Fatal(err)
	}
	// Concurrent renders share the rasterizer and encoder pools.
	var wg sync.WaitGroup
	outs := make([][]byte, 4)
	errs := make([]error, 4)
	for i := range outs {
		wg.Go(func() { outs[i], errs[i] = PNG(s, PNGOptions{Width: 200}) })
	}
	wg.Wait()
	for i := range outs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(first, outs[i]) {
			t.Errorf("render %d differs from the first", i)
		}
	}
}

func TestPNGEmptyScene(t *testing.T) {
	t.Parallel()
	b, err := PNG(scene.New(), PNGOptions{Width: 16})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(image.Pt(16, 16), img.Bounds().Size()); diff != "" {
		t.Errorf("size mismatch (-want +got):\n%s", diff)
	}
}

// A big picture is rasterized in strips (pngMaxCells); the seams between strips must not
// show.
func TestPNGLargePictureStrips(t *testing.T) {
	t.Parallel()
	s := scene.New()
	pngPut(t, s, "disc", scene.Circle{Radius: 9}, pngColor(scene.Black), nil, 0)
	// The bar's turn above the picture makes its box as wide as the picture.
	bar := scene.Line{Points: []geom.Vec{{X: 9.5, Y: -12}, {X: 9.5, Y: 12}, {X: -12, Y: 12}}}
	pngPut(t, s, "bar", bar, nil, pngColor(scene.Black), 0.04)
	const side = 2000 // 100 px per world unit; 524 rows per strip
	img := pngRaster(t, s, PNGOptions{Width: side, Height: side})
	if rows := pngMaxCells / side; side/rows < 3 {
		t.Fatalf("only %d strips; the test needs several", side/rows)
	}
	for y := range side {
		across := 0.0
		for x := 1930; x < 1970; x++ {
			across += pngInk(img, x, y)
		}
		if math.Abs(across-4) > 0.02 {
			t.Errorf("row %d: the bar covers %.3f px across, want 4", y, across)
		}
	}
	total := 0.0
	for y := range side {
		for x := range 1930 {
			total += pngInk(img, x, y)
		}
	}
	n := float64(geom.ArcSegments(900, 2*math.Pi, pngTolerance))
	want := n / 2 * 900 * 900 * math.Sin(2*math.Pi/n)
	if math.Abs(total-want) > 2 {
		t.Errorf("the disc covers %.1f px², want %.1f", total, want)
	}
}

// A shape with no stroke width of its own is drawn one pixel wide, whatever the drawing's
// units: the same room drawn in metres and in millimetres gives the same picture.
func TestPNGHairlineIgnoresUnits(t *testing.T) {
	t.Parallel()
	var imgs []*image.RGBA
	for _, unit := range []float64{1, 1000} {
		s := scene.New()
		put(t, s, "room", scene.Rect{Width: 4 * unit, Height: 3 * unit})
		v := View{Min: geom.Vec{X: -3 * unit, Y: -3 * unit}, Max: geom.Vec{X: 3 * unit, Y: 3 * unit}}
		img := pngRaster(t, s, PNGOptions{View: &v})
		across := 0.0
		for x := range img.Bounds().Dx() {
			across += pngInk(img, x, img.Bounds().Dy()/2)
		}
		if math.Abs(across-2) > 0.05 {
			t.Errorf("unit %v: the two walls cover %.3f px across the middle row, want 2 (one pixel each)", unit, across)
		}
		imgs = append(imgs, img)
	}
	for i := range imgs[0].Pix {
		if d := int(imgs[0].Pix[i]) - int(imgs[1].Pix[i]); d < -1 || d > 1 {
			t.Fatalf("the drawing in millimetres differs from the drawing in metres at byte %d: %d and %d", i, imgs[0].Pix[i], imgs[1].Pix[i])
		}
	}
}

// A room drawn in metres with the defaults (a 4 x 3 rectangle, a door arc, a bed and a label)
// reads: the strokes are hairlines, so the label's ink is what the label alone draws, not a
// blob of 1-metre-wide pen strokes over it.
func TestPNGDefaultsReadInMetres(t *testing.T) {
	t.Parallel()
	room := scene.New()
	put(t, room, "room", scene.Rect{Width: 4, Height: 3})
	put(t, room, "door", scene.Arc{Center: geom.Vec{X: 1, Y: -1.5}, Radius: 0.8, Start: 0, End: math.Pi / 2})
	put(t, room, "bed", scene.Rect{Center: geom.Vec{X: -1, Y: 0.5}, Width: 1.4, Height: 2})
	put(t, room, "label", &scene.Text{Text: "Kitchen 12.0 m²", Pos: geom.Vec{X: 0.5, Y: -0.2}, Size: 0.25, Align: text.AlignCenter})
	alone := scene.New()
	put(t, alone, "label", &scene.Text{Text: "Kitchen 12.0 m²", Pos: geom.Vec{X: 0.5, Y: -0.2}, Size: 0.25, Align: text.AlignCenter})
	v := View{Min: geom.Vec{X: -2.5, Y: -2}, Max: geom.Vec{X: 2.5, Y: 2}}
	opt := PNGOptions{View: &v, Width: 500, Height: 400}
	withRoom, labelOnly := pngRaster(t, room, opt), pngRaster(t, alone, opt)
	// The label's box: 0.25 m text is 25 px high at 100 px per metre.
	inkIn := func(img *image.RGBA) float64 {
		sum := 0.0
		for y := 205; y < 230; y++ {
			for x := 250; x < 350; x++ {
				sum += pngInk(img, x, y)
			}
		}
		return sum
	}
	a, b := inkIn(withRoom), inkIn(labelOnly)
	if b < 100 || math.Abs(a-b) > 0.02*b {
		t.Errorf("ink over the label: %.0f px with the room drawn, %.0f px for the label alone; the room's strokes must not cover it", a, b)
	}
	if total, want := pngTotalInk(withRoom)-pngTotalInk(labelOnly), 2*(400+300)+math.Pi/2*80+2*(140+200); total > 1.3*want {
		t.Errorf("the room's outlines cover %.0f px; hairlines of about %.0f px expected", total, want)
	}
}

// TestPNGHoleRule: a polygon is its outer ring minus the union of its holes, as the area
// operations take it: where two holes overlap stays empty, and a hole crossing the outer
// ring cuts it.
func TestPNGHoleRule(t *testing.T) {
	t.Parallel()
	rect := func(x0, y0, x1, y1 float64) []geom.Vec {
		return []geom.Vec{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	holeA := rect(-6, -3, -2, 3)
	slices.Reverse(holeA) // clockwise
	poly := scene.Polygon{Parts: []scene.PolygonPart{{Outer: rect(-8, -8, 8, 8), Holes: [][]geom.Vec{holeA, rect(-4, -3, 0, 3), rect(6, -2, 10, 2)}}}}
	s := scene.New()
	pngPut(t, s, "p", poly, pngColor(scene.Black), nil, 0)
	img := pngRaster(t, s, PNGOptions{})
	pngCheckPixels(t, img, map[image.Point]color.RGBA{
		{35, 50}: pngWhite, // both holes
		{25, 50}: pngWhite, // the first hole
		{45, 50}: pngWhite, // the second hole
		{85, 50}: pngWhite, // the hole across the outer ring
		{65, 25}: pngBlack, // the polygon
		{85, 25}: pngBlack,
	})
}
