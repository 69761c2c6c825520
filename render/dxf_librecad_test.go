package render

// LibreCAD is the second reader of the DXF, after ezdxf: a CAD program cadrun did not write,
// whose own DXF library (libdxfrw) reads the entities and whose own code turns bulges into
// arcs. Its console command dxf2pdf prints a drawing to PDF without a display (LibreCAD 2.2
// has no dxf2png); poppler rasterises that PDF and the picture, an outline drawn as
// hairlines, is held to the exact boundary of each boolean result with arcs.

import (
	"context"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// librecadTolerance is how far, in pixels, a stroke pixel of LibreCAD's picture may be from
// the exact boundary and a point of the boundary from a stroke pixel. A hairline without
// anti-aliasing lies within half a pixel of the curve and the picture's placement, fitted
// from the extremes of the stroke, adds up to about as much again. A hole of the wrong
// radius or an arc bulging the wrong way is off by many pixels.
const librecadTolerance = 1.5

// librecadPixelWidth is the width in pixels of LibreCAD's page (A4 portrait, 210 mm) as
// poppler rasterises it.
const librecadPixelWidth = 480

// librecad returns the LibreCAD program.
func librecad(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("librecad")
	if err != nil {
		needTool(t, "librecad (Debian package librecad)")
	}
	return p
}

// TestBooleanArcsDXFThroughLibreCAD writes each boolean result with arcs (a plate minus
// holes: lines, bulged corners and CIRCLEs; a union of two circles; circle and square:
// lines and bulges in one polyline; a mirrored, turned plate with a concave bite) in R12 and
// R2000, has LibreCAD print it to PDF and poppler rasterise the page, and compares the
// strokes with the exact boundary both ways: every dark pixel lies within
// librecadTolerance pixels of the boundary, and every point of the boundary has a dark pixel
// that near. A bulge of the wrong sign or a CIRCLE of the wrong radius fails.
func TestBooleanArcsDXFThroughLibreCAD(t *testing.T) {
	t.Parallel()
	bin := librecad(t)
	ppm := pdftoppm(t)
	dir := t.TempDir()
	type file struct {
		c    *arcCase
		v    DXFVersion
		base string
	}
	var files []file
	var dxfs []string
	for i, c := range arcCases(t) {
		for _, v := range []DXFVersion{DXF12, DXF2000} {
			b, err := DXF(c.s, DXFOptions{Version: v})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			base := filepath.Join(dir, fmt.Sprintf("case%d.r%d", i, v))
			if err := os.WriteFile(base+".dxf", b, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, file{c, v, base})
			dxfs = append(dxfs, base+".dxf")
		}
	}
	librecadPrint(t, bin, dir, dxfs)
	for _, f := range files {
		t.Run(fmt.Sprintf("%s R%d", f.c.name, f.v), func(t *testing.T) {
			out, err := exec.Command(ppm, "-png", "-singlefile", "-aa", "no", "-aaVector", "no",
				"-scale-to-x", fmt.Sprint(librecadPixelWidth), "-scale-to-y", "-1", f.base+".pdf", f.base).CombinedOutput()
			if err != nil {
				t.Fatalf("pdftoppm: %v\n%s", err, out)
			}
			png, err := os.ReadFile(f.base + ".png")
			if err != nil {
				t.Fatal(err)
			}
			checkStrokes(t, f.c, decodeRGBA(t, f.c.name, png))
		})
	}
}

// librecadPrint prints every DXF to a PDF of the same name in dir, in one run of LibreCAD:
// fitted and centred on the page (-a), black on white (-m), 10 mm margins (-f). LibreCAD 2.2
// ignores a paper size given on the command line (-p takes no value there), so the page is
// its default, A4 portrait. It runs on Qt's offscreen platform with its settings and runtime
// directory in dir, so that neither a display nor the user's LibreCAD settings play a part.
// A file LibreCAD cannot read makes it wait on an error dialog nobody sees, hence the
// timeout.
func librecadPrint(t *testing.T, bin, dir string, dxfs []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	runDir := filepath.Join(dir, "xdg-runtime")
	if err := os.Mkdir(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, append([]string{"dxf2pdf", "-a", "-m", "-f", "10,10,10,10", "-t", dir}, dxfs...)...)
	cmd.Env = append(os.Environ(), "QT_QPA_PLATFORM=offscreen",
		"XDG_CONFIG_HOME="+filepath.Join(dir, "xdg-config"), "XDG_CACHE_HOME="+filepath.Join(dir, "xdg-cache"),
		"XDG_RUNTIME_DIR="+runDir)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("librecad dxf2pdf did not finish in a minute (a file it could not read?)\n%s", out)
	}
	if err != nil {
		t.Fatalf("librecad dxf2pdf: %v\n%s", err, out)
	}
	for _, d := range dxfs {
		if _, err := os.Stat(strings.TrimSuffix(d, ".dxf") + ".pdf"); err != nil {
			t.Fatalf("librecad dxf2pdf wrote no PDF for %s\n%s", filepath.Base(d), out)
		}
	}
}

// checkStrokes holds a picture of hairline strokes to the exact boundary of the case's
// region (see TestBooleanArcsDXFThroughLibreCAD).
//
// LibreCAD fits the drawing's extents to the page and poppler scales the page to the
// picture; rather than repeat their arithmetic, the test takes the mapping from the picture:
// the outermost dark pixels are the extremes of the exact boundary, so the centres of the
// leftmost and rightmost dark pixels are the boundary's least and greatest x, and likewise
// for y (down in the picture, up in the drawing). Each axis gets its own scale, and the two
// must agree, since both programs keep the aspect.
func checkStrokes(t *testing.T, c *arcCase, pic *image.RGBA) {
	t.Helper()
	boundary := exactBoundary(c.insideWorld(t), c.s.Bounds(), 700)
	var lo, hi geom.Vec = boundary[0], boundary[0]
	for _, p := range boundary {
		lo = geom.Vec{X: math.Min(lo.X, p.X), Y: math.Min(lo.Y, p.Y)}
		hi = geom.Vec{X: math.Max(hi.X, p.X), Y: math.Max(hi.Y, p.Y)}
	}

	var dark []geom.Vec // pixel centres
	ink := image.Rectangle{}
	for y := pic.Rect.Min.Y; y < pic.Rect.Max.Y; y++ {
		for x := pic.Rect.Min.X; x < pic.Rect.Max.X; x++ {
			px := pic.RGBAAt(x, y)
			if int(px.R)+int(px.G)+int(px.B) >= 3*128 {
				continue
			}
			dark = append(dark, geom.Vec{X: float64(x) + 0.5, Y: float64(y) + 0.5})
			ink = ink.Union(image.Rect(x, y, x+1, y+1))
		}
	}
	if len(dark) == 0 {
		t.Fatalf("LibreCAD's picture is blank")
	}
	sx := float64(ink.Dx()-1) / (hi.X - lo.X)
	sy := float64(ink.Dy()-1) / (hi.Y - lo.Y)
	if math.Abs(sx-sy) > 0.01*sx {
		t.Errorf("the strokes span %v pixels for a boundary of %v by %v: %.4g pixels per unit across, %.4g up; a stretched or misplaced outline",
			ink, hi.X-lo.X, hi.Y-lo.Y, sx, sy)
	}
	toPixels := func(p geom.Vec) geom.Vec {
		return geom.Vec{X: float64(ink.Min.X) + 0.5 + (p.X-lo.X)*sx, Y: float64(ink.Min.Y) + 0.5 + (hi.Y-p.Y)*sy}
	}
	var edge []geom.Vec
	for _, p := range boundary {
		edge = append(edge, toPixels(p))
	}

	far, worstStroke, firstFar := farFrom(dark, edge, librecadTolerance)
	if far > 0 {
		t.Errorf("%d of %d dark pixels are more than %g pixels from the exact boundary (the first at %v, the farthest %s)",
			far, len(dark), librecadTolerance, firstFar, pixels(worstStroke))
	}
	bare, worstEdge, firstBare := farFrom(edge, dark, librecadTolerance)
	if bare > 0 {
		t.Errorf("%d of %d points of the exact boundary have no dark pixel within %g pixels (the first at %v in the picture, the farthest %s)",
			bare, len(edge), librecadTolerance, firstBare, pixels(worstEdge))
	}
	t.Logf("%.3g pixels per unit; strokes at most %.2f pixels from the boundary, boundary at most %.2f from a stroke", sx, worstStroke, worstEdge)
}

// exactBoundary samples the boundary of a region within box: where inside changes along n
// lines across and n lines up, each walked in 2n steps, found to 1e-9 of the box's size by
// bisection. Where the boundary is steep the lines across find it, where it is flat the lines
// up, so the samples are never further apart than about the lines' spacing.
func exactBoundary(inside func(geom.Vec) bool, box geom.Box, n int) []geom.Vec {
	size := box.Max.Sub(box.Min)
	pad := size.Mul(0.01)
	lo, hi := box.Min.Sub(pad), box.Max.Add(pad)
	var out []geom.Vec
	walk := func(a, b geom.Vec) {
		step := b.Sub(a).Mul(1 / float64(2*n))
		prev := a
		was := inside(a)
		for i := 1; i <= 2*n; i++ {
			p := a.Add(step.Mul(float64(i)))
			if is := inside(p); is != was {
				u, v := prev, p // inside(u) == was
				for v.Sub(u).Len() > 1e-9*size.Len() {
					m := u.Add(v).Mul(0.5)
					if inside(m) == was {
						u = m
					} else {
						v = m
					}
				}
				out = append(out, u.Add(v).Mul(0.5))
				was = is
			}
			prev = p
		}
	}
	for i := 0; i <= n; i++ {
		f := float64(i) / float64(n)
		y := lo.Y + f*(hi.Y-lo.Y)
		walk(geom.Vec{X: lo.X, Y: y}, geom.Vec{X: hi.X, Y: y})
		x := lo.X + f*(hi.X-lo.X)
		walk(geom.Vec{X: x, Y: lo.Y}, geom.Vec{X: x, Y: hi.Y})
	}
	return out
}

// farFrom counts the points of ps with none of qs within r (all in pixels), and returns the
// largest distance from a point of ps to its nearest of qs and the first point that is far.
// Only a few pixels around each point are searched; a point with nothing there is
// infinitely far.
func farFrom(ps, qs []geom.Vec, r float64) (far int, worst float64, first geom.Vec) {
	cell := func(p geom.Vec) image.Point { return image.Pt(int(math.Floor(p.X)), int(math.Floor(p.Y))) }
	grid := map[image.Point][]geom.Vec{}
	for _, q := range qs {
		grid[cell(q)] = append(grid[cell(q)], q)
	}
	reach := int(math.Ceil(r)) + 1 // nearer neighbours than that are all that matter
	for _, p := range ps {
		c := cell(p)
		best := math.Inf(1)
		for dy := -reach; dy <= reach; dy++ {
			for dx := -reach; dx <= reach; dx++ {
				for _, q := range grid[c.Add(image.Pt(dx, dy))] {
					best = math.Min(best, p.Sub(q).Len())
				}
			}
		}
		worst = math.Max(worst, best)
		if best > r {
			if far == 0 {
				first = p
			}
			far++
		}
	}
	return far, worst, first
}

// pixels says how far a distance from farFrom is.
func pixels(d float64) string {
	if math.IsInf(d, 1) {
		return "several pixels or more"
	}
	return fmt.Sprintf("%.2f pixels", d)
}

// librecadPictures writes the scene's DXF in each version, has LibreCAD print them all in one
// run and poppler rasterise each page without anti-aliasing, width pixels wide, and answers
// the pictures in the order of versions.
func librecadPictures(t *testing.T, s *scene.Scene, width int, versions ...DXFVersion) []*image.RGBA {
	t.Helper()
	bin := librecad(t)
	ppm := pdftoppm(t)
	dir := t.TempDir()
	var dxfs []string
	for _, v := range versions {
		b, err := DXF(s, DXFOptions{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("drawing.r%d.dxf", v))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		dxfs = append(dxfs, f)
	}
	librecadPrint(t, bin, dir, dxfs)
	pics := make([]*image.RGBA, len(dxfs))
	for i, f := range dxfs {
		base := strings.TrimSuffix(f, ".dxf")
		out, err := exec.Command(ppm, "-png", "-singlefile", "-aa", "no", "-aaVector", "no",
			"-scale-to-x", fmt.Sprint(width), "-scale-to-y", "-1", base+".pdf", base).CombinedOutput()
		if err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, out)
		}
		png, err := os.ReadFile(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		pics[i] = decodeRGBA(t, filepath.Base(base), png)
	}
	return pics
}
