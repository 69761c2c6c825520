package render

import (
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// cornersScene has four thick V polylines, 4 wide, apex at (x+10, 20) and feet at (x, 0) and
// (x+20, 0), whose miter would reach 1/cos(turn/2) = 2.24 widths past the apex: mitred at
// x = 0, bevelled at 30, mitred with a limit of 1 (so bevelled) at 60, round at 90; two
// horizontal lines 20 long and 4 wide at y = -20, butt-capped from x = 0 and square-capped
// from x = 30; and two filled squares 2 wide at the corners (-10, -30) and (120, 30), which
// fix where the drawing lies in any reader's picture.
func cornersScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	black := &scene.Color{0, 0, 0, 1}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []struct {
		name, join string
		x, limit   float64
	}{{"miter", scene.StrokeMiter, 0, 0}, {"bevel", scene.StrokeBevel, 30, 0}, {"limit", scene.StrokeMiter, 60, 1}, {"round", "", 90, 0}} {
		put(t, s, v.name, scene.Line{Points: []geom.Vec{{X: v.x}, {X: v.x + 10, Y: 20}, {X: v.x + 20}}})
		must(s.SetStroke(v.name, black, 4))
		must(s.SetStrokeCorners(v.name, "", v.join, v.limit))
	}
	for _, l := range []struct {
		name string
		x    float64
	}{{"butt", 0}, {"square", 30}} {
		put(t, s, l.name, scene.Line{Points: []geom.Vec{{X: l.x, Y: -20}, {X: l.x + 20, Y: -20}}})
		must(s.SetStroke(l.name, black, 4))
		must(s.SetStrokeCorners(l.name, l.name, "", 0))
	}
	for i, c := range []geom.Vec{{X: -9, Y: -29}, {X: 119, Y: 29}} {
		name := []string{"low", "high"}[i]
		put(t, s, name, scene.Rect{Center: c, Width: 2, Height: 2})
		must(s.SetFill(name, black))
		must(s.SetStroke(name, nil, 0))
	}
	return s
}

// checkCorners finds the drawing of cornersScene in a reader's picture by its ink's extent,
// (-10, -30) to (120, 30), and wants ink, or none, at points that tell the joins and caps
// apart, each at least 0.3 units from an edge.
func checkCorners(t *testing.T, reader string, img *image.RGBA) {
	t.Helper()
	dark := darkPixel(img)
	b := img.Bounds()
	x0, y0, x1, y1 := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if dark(x, y) {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < x0 {
		t.Fatalf("%s: no ink", reader)
	}
	at := func(p geom.Vec) bool { // world to pixels, y up
		x := float64(x0) + (p.X+10)/130*float64(x1-x0+1)
		y := float64(y0) + (30-p.Y)/60*float64(y1-y0+1)
		return dark(int(x), int(y))
	}
	var wrong []string
	for _, c := range []struct {
		what string
		p    geom.Vec
		ink  bool
	}{
		{"a miter reaches its tip", geom.Vec{X: 10, Y: 22.8}, true},
		{"a miter is pointed", geom.Vec{X: 11.5, Y: 22.3}, false},
		{"a bevel stops short of the tip", geom.Vec{X: 40, Y: 21.3}, false},
		{"a bevel covers the apex", geom.Vec{X: 40, Y: 20.5}, true},
		{"a miter past its limit is bevelled", geom.Vec{X: 70, Y: 21.3}, false},
		{"a miter past its limit still covers the apex", geom.Vec{X: 70, Y: 20.5}, true},
		{"a round join reaches half a width past the apex", geom.Vec{X: 100, Y: 21.6}, true},
		{"a round join stops there", geom.Vec{X: 100, Y: 22.4}, false},
		{"a butt cap covers the line to its start", geom.Vec{X: 0.3, Y: -18.3}, true},
		{"a butt cap ends at the start", geom.Vec{X: -0.4, Y: -20}, false},
		{"a butt cap ends at the end", geom.Vec{X: 20.4, Y: -20}, false},
		{"a square cap reaches half a width before the start", geom.Vec{X: 28.3, Y: -18.3}, true},
		{"a square cap reaches half a width past the end", geom.Vec{X: 51.7, Y: -21.7}, true},
		{"a square cap ends there", geom.Vec{X: 52.4, Y: -20}, false},
	} {
		if at(c.p) != c.ink {
			wrong = append(wrong, c.what)
		}
	}
	if len(wrong) > 0 {
		t.Errorf("%s: not so in the picture: %s", reader, strings.Join(wrong, "; "))
		saveForReview(t, "corners", reader, img, img)
	}
}

func TestPNGCapsAndJoins(t *testing.T) {
	t.Parallel()
	img, err := Raster(cornersScene(t), PNGOptions{Scale: 10, Margin: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkCorners(t, "cadrun's PNG", img)
}

func TestCapsAndJoinsThroughLibrsvg(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	svg, err := SVG(cornersScene(t), SVGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "corners.svg")
	if err := os.WriteFile(in, svg, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-w", "1400", "-b", "white", in).Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	checkCorners(t, "librsvg", decodeRGBA(t, "corners", out))
}

func TestCapsAndJoinsThroughMuPDF(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("mutool")
	if err != nil {
		needTool(t, "mutool (Debian package mupdf-tools)")
	}
	b, err := PDF(cornersScene(t), PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "corners.pdf"), filepath.Join(dir, "corners.png")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(bin, "draw", "-q", "-w", "1400", "-r", "600", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("mutool draw: %v\n%s", err, msg)
	}
	png, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkCorners(t, "MuPDF", decodeRGBA(t, "corners", png))
}
