package render

// The SVG is checked by readers cadrun did not write: librsvg (rsvg-convert) and Chromium
// rasterise it, and the picture must show what cadrun's own PNG shows. A golden file compares
// the writer with its own earlier output and cannot tell a wrong picture from a right one (the
// sweep flags of every arc were inverted for a long time and every golden passed); these tests
// can.

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
)

// curveProbe is a scene of the curves a writer can get wrong: arcs both ways and across the
// axes, rounded corners, a rotated and a mirrored ellipse, Béziers of every command, text,
// pie slices cut by a boolean, and a group that mirrors its children.
func curveProbe(t testing.TB) *scene.Scene {
	t.Helper()
	s := scene.New()
	red, blue, green := &scene.Color{0.85, 0.1, 0.1, 1}, &scene.Color{0.1, 0.3, 0.9, 1}, &scene.Color{0.1, 0.6, 0.2, 1}
	put(t, s, "rr", scene.RoundedRect{Center: scene.Vec{X: -60, Y: 30}, Width: 40, Height: 25, Radius: 8})
	do(t, s.SetFill("rr", blue))
	put(t, s, "arc-ccw", scene.Arc{Center: scene.Vec{X: -10, Y: 30}, Radius: 12, Start: 0.2, End: 2.6})
	do(t, s.SetStroke("arc-ccw", red, 2))
	put(t, s, "arc-cw", scene.Arc{Center: scene.Vec{X: 25, Y: 30}, Radius: 12, Start: 2.6, End: 0.2})
	do(t, s.SetStroke("arc-cw", green, 2))
	put(t, s, "arc-big", scene.Arc{Center: scene.Vec{X: 60, Y: 30}, Radius: 10, Start: -0.5, End: 4.2})
	do(t, s.SetStroke("arc-big", blue, 1.5))
	put(t, s, "ell", scene.Ellipse{Center: scene.Vec{X: -60, Y: -10}, RX: 18, RY: 7})
	do(t, s.SetFill("ell", green))
	do(t, s.Rotate("ell", 0.6, scene.SpaceWorld))
	put(t, s, "ell-m", scene.Ellipse{Center: scene.Vec{X: -20, Y: -10}, RX: 14, RY: 6})
	do(t, s.SetFill("ell-m", red))
	do(t, s.Rotate("ell-m", -0.4, scene.SpaceWorld))
	do(t, s.Scale("ell-m", -1, 1, scene.SpaceWorld, nil))
	put(t, s, "bez", &scene.PathShape{Data: "M 0 -20 C 10 0 20 -30 30 -10 S 45 0 50 -20 Q 60 -35 70 -20 T 80 -15 L 80 -25 A 6 4 30 0 1 70 -30 Z"})
	do(t, s.SetFill("bez", &scene.Color{0.9, 0.7, 0.1, 1}))
	put(t, s, "slice", scene.Arc{Center: scene.Vec{X: -50, Y: -45}, Radius: 14, Start: 0.4, End: 2.2})
	put(t, s, "disc", scene.Circle{Center: scene.Vec{X: -40, Y: -45}, Radius: 9})
	_, err := s.Boolean(scene.Difference, []string{"slice"}, []string{"disc"}, "cut")
	do(t, err)
	do(t, s.SetFill("cut", blue))
	do(t, s.Delete("slice"))
	do(t, s.Delete("disc"))
	put(t, s, "label", &scene.Text{Text: "R8 Ø12 arc", Pos: scene.Vec{X: 10, Y: -50}, Size: 9})
	put(t, s, "g-arc", scene.Arc{Center: scene.Vec{X: 60, Y: -45}, Radius: 9, Start: 0, End: 1.9})
	do(t, s.SetStroke("g-arc", red, 2))
	put(t, s, "g-rr", scene.RoundedRect{Center: scene.Vec{X: 60, Y: -45}, Width: 14, Height: 9, Radius: 3})
	_, err = s.CreateGroup("g", []string{"g-arc", "g-rr"})
	do(t, err)
	do(t, s.Scale("g", 1, -1, scene.SpaceWorld, nil))
	do(t, s.Rotate("g", 0.3, scene.SpaceWorld))
	return s
}

// readerScenes are the scenes every independent reader is run on: each example workspace's
// expected scene, the scene of every entity kind, and the curve probe.
func readerScenes(t *testing.T) map[string]*scene.Scene {
	t.Helper()
	out := map[string]*scene.Scene{"curves": curveProbe(t)}
	kinds, err := examples.KindsScene()
	if err != nil {
		t.Fatal(err)
	}
	out["kinds"] = kinds
	dirs, err := filepath.Glob(filepath.Join("..", "examples", "*", "expected.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example scenes found (%v)", err)
	}
	for _, p := range dirs {
		dir := filepath.Dir(p)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fonts := map[string]*scene.Font{}
		ttfs, _ := filepath.Glob(filepath.Join(dir, "fonts", "*.ttf"))
		for _, f := range ttfs {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(f), ".ttf")
			if fonts[name], err = scene.LoadFont(name, data); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		s, err := scene.ReadJSONWithFonts(b, fonts)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out["example "+filepath.Base(dir)] = s
	}
	return out
}

// readerWidth is the width in pixels at which the readers' pictures and cadrun's are compared.
const readerWidth = 480

// hairlinesAsPixels rewrites the hairlines of an SVG (one screen pixel whatever the zoom,
// through vector-effect, which librsvg ignores) as strokes one pixel wide in user units at
// the given pixels per unit, so that a reader without vector-effect draws what a browser does.
func hairlinesAsPixels(svg []byte, pxPerUnit float64) []byte {
	w := strconv.FormatFloat(1/pxPerUnit, 'g', 6, 64)
	return bytes.ReplaceAll(svg, []byte(`stroke-width="1" vector-effect="non-scaling-stroke"`), []byte(`stroke-width="`+w+`"`))
}

// readerSize is the picture size the readers and cadrun's PNG are compared at, and the
// pixels per world unit.
func readerSize(s *scene.Scene) (w, h int, pxPerUnit float64) {
	sz := FitView(s, DefaultMargin).Size()
	w = readerWidth
	h = int(math.Round(float64(w) * sz.Y / sz.X))
	return w, h, float64(w) / sz.X
}

// TestSVGMatchesPNGThroughLibrsvg rasterises every reader scene's SVG with rsvg-convert and
// wants each ink pixel of either picture to be matched in the other within two pixels.
func TestSVGMatchesPNGThroughLibrsvg(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	dir := t.TempDir()
	scenes := readerScenes(t)
	for _, name := range sortedNames(scenes) {
		s := scenes[name]
		w, h, ppu := readerSize(s)
		svg, err := SVG(s, SVGOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		in := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".svg")
		if err := os.WriteFile(in, hairlinesAsPixels(svg, ppu), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), "-b", "white", in).Output()
		if err != nil {
			t.Fatalf("%s: rsvg-convert: %v", name, err)
		}
		theirs := decodeRGBA(t, name, out)
		ours, err := Raster(s, PNGOptions{Width: w, Height: h})
		if err != nil {
			t.Fatal(err)
		}
		if err := inkAgrees(ours, theirs, 2, false); err != nil {
			t.Errorf("%s: librsvg's picture of the SVG and cadrun's PNG disagree: %v", name, err)
			saveForReview(t, name, "librsvg", theirs, ours)
		}
	}
}

func sortedNames(m map[string]*scene.Scene) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// decodeRGBA decodes a reader's PNG with Go's decoder.
func decodeRGBA(t *testing.T, name string, b []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: decoding the reader's picture: %v", name, err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	return rgba
}

// saveForReview writes both pictures under CADRUN_READER_OUT, when set, so that a
// disagreement can be looked at.
func saveForReview(t *testing.T, name, reader string, theirs, ours *image.RGBA) {
	dir := os.Getenv("CADRUN_READER_OUT")
	if dir == "" {
		t.Logf("set CADRUN_READER_OUT=DIR to keep both pictures")
		return
	}
	for who, img := range map[string]*image.RGBA{reader: theirs, "cadrun": ours} {
		b, err := encodePNG(img)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+"."+who+".png"), b, 0o644)
		}
		if err != nil {
			t.Log(err)
		}
	}
}

// inkAgrees says whether two pictures of one drawing show the same thing to within radius
// pixels: every pixel of one must be explained by the other near it, either by a pixel of
// about its colour or, for an anti-aliased edge, by lying between the colours found there.
// Shapes moved, mirrored or bent the wrong way leave pixels nothing near explains.
//
// With anyCoverage, a pixel is also explained by a pixel near it of the same ink at another
// coverage (a colour on the line from white through it): a reader that draws hairlines
// fainter than a full pixel, as MuPDF does, still has to put them in the same places and in
// the same colours.
func inkAgrees(a, b *image.RGBA, radius int, anyCoverage bool) error {
	if a.Rect != b.Rect {
		return fmt.Errorf("the pictures are %v and %v", a.Rect, b.Rect)
	}
	far, first := 0, image.Point{-1, -1}
	for _, pair := range [2][2]*image.RGBA{{a, b}, {b, a}} {
		p, q := pair[0], pair[1]
		for y := p.Rect.Min.Y; y < p.Rect.Max.Y; y++ {
			for x := p.Rect.Min.X; x < p.Rect.Max.X; x++ {
				if explained(p, q, x, y, radius, anyCoverage) {
					continue
				}
				if far == 0 {
					first = image.Pt(x, y)
				}
				far++
			}
		}
	}
	// Two rasterisers may shade a hairline's pixel differently where it turns sharply (an
	// ellipse's tip, a glyph's serif), and a shape smaller than a pixel (the pattern's dots,
	// a hairline round a fill) gets another colour from each: one pixel in 4,000 may stay
	// unmatched (librsvg leaves at most 7 in 240,000, Chromium 51). An arc bent the wrong way
	// leaves hundreds in every scene that has one (181 to 5,981 here).
	if allowed := a.Rect.Dx() * a.Rect.Dy() / inkStrayShare; far > allowed {
		return fmt.Errorf("%d pixels are not matched within %d px (at most %d may be; the first at %v)", far, radius, allowed, first)
	}
	return nil
}

// inkStrayShare: at most one pixel in this many may be unmatched.
const inkStrayShare = 4000

// inkTolerance is how far apart, per 0..255 channel, two colours may be and count as one;
// inkAAMargin widens the range an anti-aliased pixel may lie in.
const (
	inkTolerance = 48
	inkAAMargin  = 24
)

// explained says whether p's pixel at x, y is matched in q within radius.
func explained(p, q *image.RGBA, x, y, radius int, anyCoverage bool) bool {
	i := p.PixOffset(x, y)
	c := p.Pix[i : i+3]
	j := q.PixOffset(x, y)
	if near(c, q.Pix[j:j+3]) {
		return true
	}
	lo := [3]int{255, 255, 255}
	hi := [3]int{0, 0, 0}
	for dy := -radius; dy <= radius; dy++ {
		for dx := -radius; dx <= radius; dx++ {
			pt := image.Pt(x+dx, y+dy)
			if !pt.In(q.Rect) {
				continue
			}
			k := q.PixOffset(pt.X, pt.Y)
			d := q.Pix[k : k+3]
			if near(c, d) || anyCoverage && sameInk(c, d) {
				return true
			}
			for ch := range 3 {
				lo[ch] = min(lo[ch], int(d[ch]))
				hi[ch] = max(hi[ch], int(d[ch]))
			}
		}
	}
	for ch := range 3 {
		if v := int(c[ch]); v < lo[ch]-inkAAMargin || v > hi[ch]+inkAAMargin {
			return false
		}
	}
	return true
}

// sameInk says whether c is d's colour over white at some coverage: white + t (d - white)
// for a t >= 0, within inkTolerance.
func sameInk(c, d []byte) bool {
	var cv, dv [3]float64
	dd, cd := 0.0, 0.0
	for ch := range 3 {
		cv[ch], dv[ch] = float64(c[ch])-255, float64(d[ch])-255
		dd += dv[ch] * dv[ch]
		cd += cv[ch] * dv[ch]
	}
	if dd < inkTolerance*inkTolerance {
		return false // d is about white: it explains only white, which near tells
	}
	tt := max(0, cd/dd)
	for ch := range 3 {
		if math.Abs(cv[ch]-tt*dv[ch]) > inkTolerance {
			return false
		}
	}
	return true
}

func near(a, b []byte) bool {
	for ch := range 3 {
		if absInt(int(a[ch])-int(b[ch])) > inkTolerance {
			return false
		}
	}
	return true
}
