package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// hatchedPlates are three 20 x 20 plates with a hole of radius 5 in the middle, centred at
// x = 10, 40 and 70 on y = 10, outlined in black: ansi31 in red, solid in blue, dots in green;
// all of it, the patterns too, scaled by hatchK. The librsvg here ignores
// vector-effect="non-scaling-stroke", which makes a hairline one unit wide: the large scale
// keeps that thin beside the plates.
var hatchedPlates = []struct {
	pattern string
	color   scene.Color
	x       float64
}{
	{"ansi31", scene.Color{1, 0, 0, 1}, 10},
	{"solid", scene.Color{0, 0, 1, 1}, 40},
	{"dots", scene.Color{0, 0.7, 0, 1}, 70},
}

func hatchedScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	for _, p := range hatchedPlates {
		sq, hole, plate := p.pattern+"-sq", p.pattern+"-hole", p.pattern
		put(t, s, sq, scene.Rect{Center: geom.Vec{X: p.x * hatchK, Y: 10 * hatchK}, Width: 20 * hatchK, Height: 20 * hatchK})
		put(t, s, hole, scene.Circle{Center: geom.Vec{X: p.x * hatchK, Y: 10 * hatchK}, Radius: 5 * hatchK})
		if _, err := s.Boolean(scene.Difference, []string{sq}, []string{hole}, plate); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{sq, hole} {
			if err := s.Delete(n); err != nil {
				t.Fatal(err)
			}
		}
		c := p.color
		if err := s.SetHatch(plate, p.pattern, 0, hatchK, &c); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

const hatchK = 10

var hatchedView = View{Min: geom.Vec{X: -2 * hatchK, Y: -2 * hatchK}, Max: geom.Vec{X: 82 * hatchK, Y: 22 * hatchK}}

// checkHatchInk reads a picture of hatchedScene: the black outlines' extent maps pixels to
// the scene (so that the check needs no knowledge of the reader's placement); each plate's
// hatch colour must be inside its plate, never in its hole or outside it (beyond a margin
// for anti-aliasing and the hole's flattening), and there must be enough of it: the solid
// fill covers the plate, the lines and dots leave a trace of their length and count.
func checkHatchInk(t *testing.T, reader string, img interface {
	Bounds() image.Rectangle
	At(x, y int) color.Color
}) {
	t.Helper()
	b := img.Bounds()
	rgb := func(x, y int) (r, g, bl float64) {
		cr, cg, cb, _ := img.At(x, y).RGBA()
		return float64(cr) / 0xffff, float64(cg) / 0xffff, float64(cb) / 0xffff
	}
	ink := image.Rectangle{Min: b.Max, Max: b.Min}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl := rgb(x, y); r < 0.3 && g < 0.3 && bl < 0.3 {
				ink.Min.X, ink.Min.Y = min(ink.Min.X, x), min(ink.Min.Y, y)
				ink.Max.X, ink.Max.Y = max(ink.Max.X, x), max(ink.Max.Y, y)
			}
		}
	}
	if ink.Empty() {
		t.Fatalf("%s: no black outline", reader)
	}
	// Pixels a unit of the unscaled plates, and the pixel's place in them.
	kx, ky := float64(ink.Dx())/80, float64(ink.Dy())/20
	world := func(x, y int) geom.Vec {
		return geom.Vec{X: (float64(x-ink.Min.X) + 0.5) / kx, Y: 20 - (float64(y-ink.Min.Y)+0.5)/ky}
	}
	// anti-aliasing, a hairline's width (a unit, hatchK times less here, in librsvg) and the
	// hole's chords
	margin := 0.12
	for _, p := range hatchedPlates {
		is := func(r, g, bl float64) bool {
			c := [3]float64{r, g, bl}
			want := [3]float64{p.color[0], p.color[1], p.color[2]}
			for i := range 3 { // the hatch colour's strongest channel leads the others by far
				for j := range 3 {
					if want[i] > 0.5 && want[j] == 0 && c[i]-c[j] < 0.3 {
						return false
					}
				}
			}
			return true
		}
		inside, inked, stray := 0, 0, 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				w := world(x, y)
				d := w.Sub(geom.Vec{X: p.x, Y: 10})
				toSquare := 10 - max(math.Abs(d.X), math.Abs(d.Y))
				toHole := d.Len() - 5
				hit := is(rgb(x, y))
				switch {
				case toSquare > margin && toHole > margin:
					inside++
					if hit {
						inked++
					}
				case (toSquare < -margin && math.Abs(d.X) < 15) || toHole < -margin:
					if hit {
						stray++
					}
				}
			}
		}
		want := map[string]float64{
			"solid":  0.95 * float64(inside), // all of it
			"ansi31": 0.5 * 101 * kx,         // about 101 units of lines, at least a pixel wide
			"dots":   0.5 * 127,              // about 127 dots, at least a pixel each
		}[p.pattern]
		if float64(inked) < want || stray > 0 {
			t.Errorf("%s: %s: %d of %d pixels inside the plate in the hatch colour (want at least %.0f), %d in the hole or outside (want 0)", reader, p.pattern, inked, inside, want, stray)
		}
	}
}

func TestHatchesThroughLibrsvg(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	v := hatchedView
	svg, err := SVG(hatchedScene(t), SVGOptions{View: &v})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "hatched.svg")
	if err := os.WriteFile(in, svg, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-w", "1680", "-h", "480", "-b", "white", in).Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	checkHatchInk(t, "librsvg", decodeRGBA(t, "hatched", out))
}

func TestHatchesThroughPoppler(t *testing.T) {
	t.Parallel()
	bin := pdftoppm(t)
	b, err := PDF(hatchedScene(t), PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "hatched")
	if err := os.WriteFile(base+".pdf", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-png", "-singlefile", "-r", "150", base+".pdf", base).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	f, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	checkHatchInk(t, "poppler", decodeRGBA(t, "hatched", f))
}

func TestHatchesInPNG(t *testing.T) {
	t.Parallel()
	v := hatchedView
	b, err := PNG(hatchedScene(t), PNGOptions{Width: 1680, Height: 480, View: &v})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	checkHatchInk(t, "image/png", img)
}
