package render

// A boolean result keeps its circular arcs (scene.Polygon's bulges), and every writer must
// draw them as the exact shape. These tests hold each output to the true region, computed
// here in closed form, through readers cadrun did not write: ezdxf reads the DXF and makes
// its own arcs of the bulges; librsvg and Chromium rasterise the SVG; poppler the PDF; Go's
// image/png decodes cadrun's PNG. A picture is compared pixel by pixel with the region at
// each pixel's centre, leaving out only the pixels within one pixel of the region's edge.

import (
	"fmt"
	"image"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/cadrun/cadrun/internal/browsertest"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// arcCircle is a circle in the result's own coordinates.
type arcCircle struct {
	c geom.Vec
	r float64
}

// arcCase is a scene holding one boolean result with arcs, named "part", and the exact shape
// it must be.
type arcCase struct {
	name   string
	s      *scene.Scene
	inside func(p geom.Vec) bool // the exact region, in the result's own coordinates
	// circles and lines carry every edge of the outline; holes are the whole-circle holes,
	// which the DXF writes as CIRCLEs. All in the result's own coordinates.
	circles   []arcCircle
	lines     [][2]geom.Vec
	holes     []arcCircle
	polylines int                               // how many polylines the DXF must hold
	dxf       func(t *testing.T, g dxfGeometry) // what else the DXF must hold, nil for nothing
}

// world is the result's world matrix.
func (c *arcCase) world(t *testing.T) geom.Affine {
	e, err := c.s.Get("part")
	do(t, err)
	return c.s.WorldMatrix(e)
}

// insideWorld is the exact region in world coordinates.
func (c *arcCase) insideWorld(t *testing.T) func(geom.Vec) bool {
	inv, ok := c.world(t).Invert()
	if !ok {
		t.Fatalf("%s: the result's world matrix is singular", c.name)
	}
	return func(p geom.Vec) bool { return c.inside(inv.Apply(p)) }
}

func within(p, c geom.Vec, r float64) bool { return p.Sub(c).Len() <= r }

// inRoundedRect is the region of a w×h rectangle centred at the origin with corners of
// radius r.
func inRoundedRect(p geom.Vec, w, h, r float64) bool {
	x, y := math.Abs(p.X), math.Abs(p.Y)
	if x > w/2 || y > h/2 {
		return false
	}
	if x > w/2-r && y > h/2-r {
		return within(geom.Vec{X: x, Y: y}, geom.Vec{X: w/2 - r, Y: h/2 - r}, r)
	}
	return true
}

// booleanPart makes the result "part" of op on a and b, deletes the inputs and fills it
// black without a stroke, so that a picture of it is its region.
func booleanPart(t *testing.T, s *scene.Scene, op scene.BoolOp, a, b []string) {
	t.Helper()
	_, err := s.Boolean(op, a, b, "part")
	do(t, err)
	for _, n := range append(append([]string{}, a...), b...) {
		do(t, s.Delete(n))
	}
	do(t, s.SetFill("part", &scene.Color{0, 0, 0, 1}))
	do(t, s.SetStroke("part", nil, 0))
}

// plateCorners are the centres of the rounded corners of the 180×110 plate with radius 12.
var plateCorners = []geom.Vec{{X: -78, Y: -43}, {X: 78, Y: -43}, {X: 78, Y: 43}, {X: -78, Y: 43}}

// plateLines are the plate's straight sides.
var plateLines = [][2]geom.Vec{
	{{X: -90, Y: 0}, {X: -90, Y: 1}}, {{X: 90, Y: 0}, {X: 90, Y: 1}},
	{{X: 0, Y: -55}, {X: 1, Y: -55}}, {{X: 0, Y: 55}, {X: 1, Y: 55}},
}

// arcCases are the boolean results with arcs every writer is checked on.
func arcCases(t *testing.T) []*arcCase {
	t.Helper()
	var cases []*arcCase

	// A plate with rounded corners minus four holes near them: one outline of four lines and
	// four quarter turns, and four whole circles.
	plate := scene.New()
	put(t, plate, "plate", scene.RoundedRect{Width: 180, Height: 110, Radius: 12})
	holeAt := []geom.Vec{{X: -75, Y: -40}, {X: 75, Y: -40}, {X: 75, Y: 40}, {X: -75, Y: 40}}
	var holes []string
	var holeCircles []arcCircle
	for i, c := range holeAt {
		n := fmt.Sprint("hole", i)
		put(t, plate, n, scene.Circle{Center: c, Radius: 5})
		holes = append(holes, n)
		holeCircles = append(holeCircles, arcCircle{c, 5})
	}
	booleanPart(t, plate, scene.Difference, []string{"plate"}, holes)
	var corners []arcCircle
	for _, c := range plateCorners {
		corners = append(corners, arcCircle{c, 12})
	}
	cases = append(cases, &arcCase{
		name: "plate minus holes", s: plate,
		inside: func(p geom.Vec) bool {
			for _, h := range holeAt {
				if within(p, h, 5) {
					return false
				}
			}
			return inRoundedRect(p, 180, 110, 12)
		},
		circles: corners, lines: plateLines, holes: holeCircles, polylines: 1,
		dxf: func(t *testing.T, g dxfGeometry) {
			// Eight vertices, four bulged edges: a quarter turn each, tan(π/8).
			pl := g.polylines()[0]
			bulged := 0
			for _, v := range pl.Vertices {
				if v[2] == 0 {
					continue
				}
				bulged++
				if math.Abs(v[2]-math.Tan(math.Pi/8)) > 1e-9 {
					t.Errorf("a corner's bulge is %v, want tan(π/8) = %v", v[2], math.Tan(math.Pi/8))
				}
			}
			if len(pl.Vertices) != 8 || bulged != 4 {
				t.Errorf("the outline has %d vertices and %d bulged edges, want 8 and 4: %v", len(pl.Vertices), bulged, pl.Vertices)
			}
		},
	})

	// Two overlapping circles: one outline of two arcs, each more than half a turn.
	const r, d = 10.0, 12.0
	union := scene.New()
	put(t, union, "a", scene.Circle{Center: geom.Vec{X: -d / 2}, Radius: r})
	put(t, union, "b", scene.Circle{Center: geom.Vec{X: d / 2}, Radius: r})
	booleanPart(t, union, scene.Union, []string{"a"}, []string{"b"})
	cases = append(cases, &arcCase{
		name: "union of two circles", s: union,
		inside: func(p geom.Vec) bool {
			return within(p, geom.Vec{X: -d / 2}, r) || within(p, geom.Vec{X: d / 2}, r)
		},
		circles: []arcCircle{{geom.Vec{X: -d / 2}, r}, {geom.Vec{X: d / 2}, r}}, polylines: 1,
		dxf: func(t *testing.T, g dxfGeometry) {
			// Each circle keeps 2π − 2·acos(d/2r) of its turn; a DXF bulge holds at most half
			// a turn, so each arc is two equal bulged edges.
			sweep := 2*math.Pi - 2*math.Acos(d/(2*r))
			want := math.Tan(sweep / 8)
			pl := g.polylines()[0]
			if len(pl.Vertices) != 4 {
				t.Errorf("the outline has %d vertices, want 4 (two arcs of two bulged edges): %v", len(pl.Vertices), pl.Vertices)
			}
			for _, v := range pl.Vertices {
				if math.Abs(v[2]-want) > 1e-9 {
					t.Errorf("bulge %v, want tan((2π − 2·acos(d/2r))/8) = %v", v[2], want)
				}
			}
			swept := map[float64]float64{} // circle centre x -> degrees swept
			for _, p := range pl.Pieces {
				swept[math.Round(p.Center[0])] += math.Mod(p.EndAngle-p.StartAngle+360, 360)
			}
			for _, x := range []float64{-d / 2, d / 2} {
				if got := swept[x]; math.Abs(got-sweep*180/math.Pi) > 1e-6 {
					t.Errorf("ezdxf's arcs on the circle at x %v sweep %v°, want %v°", x, got, sweep*180/math.Pi)
				}
			}
		},
	})

	// A circle and a square through it: arcs meet lines. With r 10 and half-side 8 the
	// crossings are (±8, ±6) and (±6, ±8), numbers the DXF holds exactly; with half-side 7.5
	// they are irrational and the DXF rounds them to its quantum (see dxfQuantum).
	for _, half := range []float64{8, 7.5} {
		s := scene.New()
		put(t, s, "disc", scene.Circle{Radius: 10})
		put(t, s, "square", scene.Rect{Width: 2 * half, Height: 2 * half})
		booleanPart(t, s, scene.Intersect, []string{"disc"}, []string{"square"})
		lines := [][2]geom.Vec{
			{{X: -half, Y: 0}, {X: -half, Y: 1}}, {{X: half, Y: 0}, {X: half, Y: 1}},
			{{X: 0, Y: -half}, {X: 1, Y: -half}}, {{X: 0, Y: half}, {X: 1, Y: half}},
		}
		tol := 1e-9
		if half != 8 {
			tol = dxfQuantumOf(s)
		}
		cases = append(cases, &arcCase{
			name: fmt.Sprintf("circle and square of half-side %g", half), s: s,
			inside: func(p geom.Vec) bool {
				return within(p, geom.Vec{}, 10) && math.Abs(p.X) <= half && math.Abs(p.Y) <= half
			},
			circles: []arcCircle{{geom.Vec{}, 10}}, lines: lines, polylines: 1,
			dxf: func(t *testing.T, g dxfGeometry) {
				pl := g.polylines()[0]
				if len(pl.Vertices) != 8 {
					t.Errorf("the outline has %d vertices, want 8: %v", len(pl.Vertices), pl.Vertices)
				}
				y := math.Sqrt(100 - half*half)
				wantBulge := math.Tan((math.Atan2(half, y) - math.Atan2(y, half)) / 4)
				for _, v := range pl.Vertices {
					p := geom.Vec{X: v[0], Y: v[1]}
					if e := math.Abs(p.Len() - 10); e > tol {
						t.Errorf("vertex %v is %g off the circle (at most %g)", p, e, tol)
					}
					if e := math.Abs(math.Max(math.Abs(p.X), math.Abs(p.Y)) - half); e > tol {
						t.Errorf("vertex %v is %g off the square's edges (at most %g)", p, e, tol)
					}
					if v[2] != 0 && math.Abs(v[2]-wantBulge) > 1e-9 {
						t.Errorf("bulge %v, want %v", v[2], wantBulge)
					}
				}
			},
		})
	}

	// A plate whose arcs turn both ways (convex corners, a concave bite at one corner) and
	// that is not symmetric, placed in a group that is mirrored, turned and moved: every arc
	// must still bulge the right way and sit in the right place.
	mirrored := scene.New()
	put(t, mirrored, "plate", scene.RoundedRect{Width: 180, Height: 110, Radius: 12})
	put(t, mirrored, "hole", scene.Circle{Center: geom.Vec{X: -75, Y: -40}, Radius: 5})
	put(t, mirrored, "bite", scene.Circle{Center: geom.Vec{X: 90, Y: 55}, Radius: 20})
	booleanPart(t, mirrored, scene.Difference, []string{"plate"}, []string{"hole", "bite"})
	_, err := mirrored.CreateGroup("g", []string{"part"})
	do(t, err)
	do(t, mirrored.Scale("g", -1, 1, scene.SpaceWorld, &geom.Vec{}))
	do(t, mirrored.Rotate("g", 0.4, scene.SpaceWorld))
	do(t, mirrored.Translate("g", geom.Vec{X: 30, Y: -10}, scene.SpaceWorld))
	cases = append(cases, &arcCase{
		name: "mirrored turned plate", s: mirrored,
		inside: func(p geom.Vec) bool {
			return inRoundedRect(p, 180, 110, 12) && !within(p, geom.Vec{X: -75, Y: -40}, 5) && !within(p, geom.Vec{X: 90, Y: 55}, 20)
		},
		circles:   append(append([]arcCircle{}, corners...), arcCircle{geom.Vec{X: 90, Y: 55}, 20}),
		lines:     plateLines,
		holes:     []arcCircle{{geom.Vec{X: -75, Y: -40}, 5}},
		polylines: 1,
	})
	return cases
}

// dxfQuantumOf is the rounding step of the DXF's coordinates for the scene.
func dxfQuantumOf(s *scene.Scene) float64 {
	q, _ := dxfQuantum(s.Bounds())
	return q
}

// dxfEntity is an entity as testdata/dxfgeometry.py reports it.
type dxfEntity struct {
	Kind       string       `json:"kind"`
	Center     [2]float64   `json:"center"`
	Radius     float64      `json:"radius"`
	StartAngle float64      `json:"start_angle"`
	EndAngle   float64      `json:"end_angle"`
	Start      [2]float64   `json:"start"`
	End        [2]float64   `json:"end"`
	Closed     bool         `json:"closed"`
	Vertices   [][3]float64 `json:"vertices"` // x, y, bulge
	Pieces     []dxfEntity  `json:"pieces"`   // ezdxf's own LINEs and ARCs of a polyline
}

// dxfGeometry is what testdata/dxfgeometry.py reports of one file.
type dxfGeometry struct {
	Errors   []string    `json:"errors"`
	Entities []dxfEntity `json:"entities"`
}

func (g dxfGeometry) polylines() []dxfEntity {
	var out []dxfEntity
	for _, e := range g.Entities {
		if e.Kind == "LWPOLYLINE" || e.Kind == "POLYLINE" {
			out = append(out, e)
		}
	}
	return out
}

// dxfGeometryOf reads the files' geometry with ezdxf.
func dxfGeometryOf(t *testing.T, files ...string) []dxfGeometry {
	t.Helper()
	got := ezdxfReport[dxfGeometry](t, "dxfgeometry.py", files...)
	return got
}

func vec(p [2]float64) geom.Vec { return geom.Vec{X: p[0], Y: p[1]} }

// TestBooleanArcsDXFThroughEzdxf writes each boolean result with arcs in R12 and R2000 and
// has ezdxf read it: the audit finds nothing; whole-circle holes are CIRCLEs at the right
// centres and radii; the outline is the expected number of closed polylines whose vertices
// lie on the shape's circles and lines; and every piece ezdxf makes of them (an ARC per bulge,
// its centre and radius derived by ezdxf) lies on one of the shape's circles and on the
// region's edge, with the region on the right side of it, so a bulge of the wrong sign or
// size cannot pass. Each case adds its closed forms (the bulges of the corners, the sweep of
// the union's arcs, the crossings of circle and square).
func TestBooleanArcsDXFThroughEzdxf(t *testing.T) {
	t.Parallel()
	cases := arcCases(t)
	dir := t.TempDir()
	var paths []string
	type file struct {
		c *arcCase
		v DXFVersion
	}
	var files []file
	for i, c := range cases {
		for _, v := range []DXFVersion{DXF12, DXF2000} {
			b, err := DXF(c.s, DXFOptions{Version: v})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			p := filepath.Join(dir, fmt.Sprintf("case%d.r%d.dxf", i, v))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
			files = append(files, file{c, v})
		}
	}
	for i, g := range dxfGeometryOf(t, paths...) {
		c := files[i].c
		t.Run(fmt.Sprintf("%s R%d", c.name, files[i].v), func(t *testing.T) {
			checkArcDXF(t, c, g)
		})
	}
}

// checkArcDXF checks one file's geometry against the case (see TestBooleanArcsDXFThroughEzdxf).
func checkArcDXF(t *testing.T, c *arcCase, g dxfGeometry) {
	if len(g.Errors) > 0 {
		t.Errorf("ezdxf's audit: %q", g.Errors)
	}
	m := c.world(t)
	scale := math.Sqrt(math.Abs(m.Det()))
	inside := c.insideWorld(t)
	// Coordinates are rounded to the quantum; a centre ezdxf derives from two rounded ends
	// and a bulge moves by a few quanta at most.
	tol := 4 * dxfQuantumOf(c.s)
	onCircle := func(p geom.Vec, circles []arcCircle) bool {
		for _, k := range circles {
			if math.Abs(p.Sub(m.Apply(k.c)).Len()-k.r*scale) <= tol {
				return true
			}
		}
		return false
	}
	isCircle := func(centre geom.Vec, r float64) bool {
		for _, k := range c.circles {
			if centre.Sub(m.Apply(k.c)).Len() <= tol && math.Abs(r-k.r*scale) <= tol {
				return true
			}
		}
		return false
	}
	onLine := func(p geom.Vec) bool {
		for _, l := range c.lines {
			a, b := m.Apply(l[0]), m.Apply(l[1])
			d := b.Sub(a)
			if math.Abs((p.X-a.X)*d.Y-(p.Y-a.Y)*d.X)/d.Len() <= tol {
				return true
			}
		}
		return false
	}
	// onEdge says whether p is on the region's edge: a point just one side of it along n is
	// in the region, just the other side out.
	onEdge := func(p, n geom.Vec) bool {
		e := 1e-3
		return inside(p.Sub(n.Mul(e))) != inside(p.Add(n.Mul(e)))
	}

	var circles []geom.Vec
	for _, e := range g.Entities {
		switch e.Kind {
		case "CIRCLE":
			circles = append(circles, vec(e.Center))
			found := false
			for _, h := range c.holes {
				if vec(e.Center).Sub(m.Apply(h.c)).Len() <= tol && math.Abs(e.Radius-h.r*scale) <= tol {
					found = true
				}
			}
			if !found {
				t.Errorf("CIRCLE at %v radius %v is none of the holes", e.Center, e.Radius)
			}
		case "LWPOLYLINE", "POLYLINE":
			if !e.Closed {
				t.Errorf("%s is open", e.Kind)
			}
			for _, v := range e.Vertices {
				p := geom.Vec{X: v[0], Y: v[1]}
				if !onCircle(p, c.circles) && !onLine(p) {
					t.Errorf("vertex %v is on none of the shape's circles and lines", p)
				}
			}
			for _, piece := range e.Pieces {
				checkArcPiece(t, piece, isCircle, onLine, onEdge)
			}
		default:
			t.Errorf("unexpected %s", e.Kind)
		}
	}
	if len(circles) != len(c.holes) {
		t.Errorf("%d CIRCLEs, want %d (one per hole)", len(circles), len(c.holes))
	}
	if n := len(g.polylines()); n != c.polylines {
		t.Fatalf("%d polylines, want %d", n, c.polylines)
	}
	if c.dxf != nil {
		c.dxf(t, g)
	}
}

// checkArcPiece checks one piece ezdxf made of a polyline: an ARC whose centre and radius
// are one of the shape's circles and whose middle is on the region's edge, or a LINE on one
// of the shape's lines, likewise.
func checkArcPiece(t *testing.T, p dxfEntity, isCircle func(c geom.Vec, r float64) bool,
	onLine func(geom.Vec) bool, onEdge func(p, n geom.Vec) bool) {
	t.Helper()
	switch p.Kind {
	case "ARC":
		centre := vec(p.Center)
		if !isCircle(centre, p.Radius) {
			t.Errorf("ezdxf's ARC centre %v radius %v is none of the shape's circles", p.Center, p.Radius)
			return
		}
		// ezdxf's arcs run counter-clockwise from the start angle to the end angle.
		sweep := math.Mod(p.EndAngle-p.StartAngle+720, 360)
		mid := (p.StartAngle + sweep/2) * math.Pi / 180
		n := geom.Vec{X: math.Cos(mid), Y: math.Sin(mid)}
		if m := centre.Add(n.Mul(p.Radius)); !onEdge(m, n) {
			t.Errorf("ezdxf's ARC centre %v radius %v from %v° to %v°: its middle %v is not on the region's edge (a bulge turning the wrong way?)",
				p.Center, p.Radius, p.StartAngle, p.EndAngle, m)
		}
	case "LINE":
		a, b := vec(p.Start), vec(p.End)
		mid := a.Add(b).Mul(0.5)
		d := b.Sub(a)
		n := geom.Vec{X: d.Y, Y: -d.X}.Mul(1 / d.Len())
		if !onLine(mid) || !onEdge(mid, n) {
			t.Errorf("ezdxf's LINE %v to %v is not on the region's edge", a, b)
		}
	default:
		t.Errorf("ezdxf made a %s of a polyline", p.Kind)
	}
}

// arcPictureWidth is the width in pixels of the pictures compared with the exact region.
const arcPictureWidth = 480

// arcPictureSize is the picture size for a case, its view and the world point at the centre
// of pixel (x, y) in a picture that keeps the view's aspect (cadrun's PNG, an SVG reader).
func arcPictureSize(s *scene.Scene) (w, h int, view View, toWorld func(x, y int) geom.Vec) {
	view = FitView(s, DefaultMargin)
	sz := view.Size()
	w = arcPictureWidth
	h = int(math.Round(float64(w) * sz.Y / sz.X))
	inv, _ := view.ToPixels(float64(w), float64(h)).Invert()
	return w, h, view, func(x, y int) geom.Vec { return inv.Apply(geom.Vec{X: float64(x) + 0.5, Y: float64(y) + 0.5}) }
}

// exactDisagreement compares a picture of black on white with the exact region: a pixel is
// ink when darker than mid-grey, and must be ink exactly when its centre is inside, unless
// the region's edge passes within one pixel of the centre. It returns how many pixels
// disagree, the first, and how many pixels were left out as edge pixels.
func exactDisagreement(pic *image.RGBA, toWorld func(x, y int) geom.Vec, inside func(geom.Vec) bool) (bad int, first image.Point, edge int) {
	var ring [8]geom.Vec // eight points one pixel away from a centre, in pixels
	for i := range ring {
		sn, cs := math.Sincos(float64(i) * math.Pi / 4)
		ring[i] = geom.Vec{X: cs, Y: sn}
	}
	o := toWorld(0, 0)
	dx, dy := toWorld(1, 0).Sub(o), toWorld(0, 1).Sub(o)
	for y := pic.Rect.Min.Y; y < pic.Rect.Max.Y; y++ {
		for x := pic.Rect.Min.X; x < pic.Rect.Max.X; x++ {
			c := toWorld(x, y)
			in := inside(c)
			near := false
			for _, r := range ring {
				if inside(c.Add(dx.Mul(r.X)).Add(dy.Mul(r.Y))) != in {
					near = true
					break
				}
			}
			if near {
				edge++
				continue
			}
			px := pic.RGBAAt(x, y)
			ink := int(px.R)+int(px.G)+int(px.B) < 3*128
			if ink != in {
				if bad == 0 {
					first = image.Pt(x, y)
				}
				bad++
			}
		}
	}
	return bad, first, edge
}

// checkExact fails the test when a reader's picture disagrees with the exact region.
func checkExact(t *testing.T, c *arcCase, reader string, pic *image.RGBA, toWorld func(x, y int) geom.Vec) {
	t.Helper()
	bad, first, edge := exactDisagreement(pic, toWorld, c.insideWorld(t))
	if bad > 0 {
		t.Errorf("%s: %s's picture disagrees with the exact shape at %d pixels away from its edge (the first at %v; %d edge pixels left out)",
			c.name, reader, bad, first, edge)
	}
}

// TestBooleanArcsSVGThroughLibrsvg rasterises each boolean result's SVG with rsvg-convert
// and compares it with the exact region.
func TestBooleanArcsSVGThroughLibrsvg(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	dir := t.TempDir()
	for i, c := range arcCases(t) {
		w, h, _, toWorld := arcPictureSize(c.s)
		svg, err := SVG(c.s, SVGOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		in := filepath.Join(dir, fmt.Sprintf("case%d.svg", i))
		if err := os.WriteFile(in, svg, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), "-b", "white", in).Output()
		if err != nil {
			t.Fatalf("%s: rsvg-convert: %v", c.name, err)
		}
		checkExact(t, c, "librsvg", decodeRGBA(t, c.name, out), toWorld)
	}
}

// TestBooleanArcsSVGThroughChromium shows each boolean result's SVG in Chromium and
// compares the screenshot with the exact region.
func TestBooleanArcsSVGThroughChromium(t *testing.T) {
	t.Parallel()
	cases := arcCases(t)
	pages := map[string][]byte{}
	for i, c := range cases {
		w, h, _, _ := arcPictureSize(c.s)
		svg, err := SVG(c.s, SVGOptions{Width: float64(w), Height: float64(h)})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pages[fmt.Sprintf("/case%d", i)] = []byte(`<!doctype html><html><body style="margin:0;background:#fff;overflow:hidden">` + string(svg) + `</body></html>`)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(b)
	}))
	defer ts.Close()
	for i, c := range cases {
		w, h, _, toWorld := arcPictureSize(c.s)
		tab := browsertest.Tab(t, w, h)
		if err := chromedp.Do(tab, chromedp.Navigate(fmt.Sprintf("%s/case%d", ts.URL, i))); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pic := decodeRGBA(t, c.name, shot)
		if pic.Rect.Dx() != w || pic.Rect.Dy() != h {
			t.Fatalf("%s: Chromium's screenshot is %v, want %d x %d", c.name, pic.Rect, w, h)
		}
		checkExact(t, c, "chromium", pic, toWorld)
	}
}

// TestBooleanArcsPDFThroughPoppler rasterises each boolean result's PDF with pdftoppm and
// compares it with the exact region.
func TestBooleanArcsPDFThroughPoppler(t *testing.T) {
	t.Parallel()
	bin := pdftoppm(t)
	dir := t.TempDir()
	for i, c := range arcCases(t) {
		b, err := PDF(c.s, PDFOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		base := filepath.Join(dir, fmt.Sprintf("case%d", i))
		if err := os.WriteFile(base+".pdf", b, 0o644); err != nil {
			t.Fatal(err)
		}
		w, h, view, _ := arcPictureSize(c.s)
		out, err := exec.Command(bin, "-png", "-singlefile", "-scale-to-x", strconv.Itoa(w), "-scale-to-y", strconv.Itoa(h),
			base+".pdf", base).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: pdftoppm: %v\n%s", c.name, err, out)
		}
		f, err := os.ReadFile(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		// The page is the view; pdftoppm stretches it to w×h, each axis on its own.
		sz := view.Size()
		toWorld := func(x, y int) geom.Vec {
			return geom.Vec{X: view.Min.X + (float64(x)+0.5)*sz.X/float64(w), Y: view.Max.Y - (float64(y)+0.5)*sz.Y/float64(h)}
		}
		checkExact(t, c, "poppler", decodeRGBA(t, c.name, f), toWorld)
	}
}

// TestBooleanArcsPNG decodes cadrun's PNG of each boolean result with image/png and holds it
// to the exact region: pixel by pixel away from the edge, and in area: the ink summed over
// all pixels (each pixel's coverage, 1 for black) is the exact area to within pngTolerance
// (the chords' largest distance from the arcs, a tenth of a pixel) per edge pixel, so arcs
// are drawn as fine as the pixel. The edge pixels are a band about two pixels wide, so the
// bound is about twice the most the chords can take off; chords a pixel off the arcs would
// take off about six times more than it allows.
func TestBooleanArcsPNG(t *testing.T) {
	t.Parallel()
	for _, c := range arcCases(t) {
		w, h, view, toWorld := arcPictureSize(c.s)
		b, err := PNG(c.s, PNGOptions{Width: w, Height: h})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pic := decodeRGBA(t, c.name, b)
		checkExact(t, c, "cadrun's PNG", pic, toWorld)

		exact, err := c.s.Area("part")
		do(t, err)
		k := view.ToPixels(float64(w), float64(h)).A // pixels per unit
		ink := 0.0
		for i := 0; i < len(pic.Pix); i += 4 {
			ink += 1 - float64(int(pic.Pix[i])+int(pic.Pix[i+1])+int(pic.Pix[i+2]))/(3*255)
		}
		got := ink / (k * k)
		_, _, edge := exactDisagreement(pic, toWorld, c.insideWorld(t))
		allowed := pngTolerance * float64(edge) / (k * k)
		t.Logf("%s: ink area %.3f, exact %.3f (%.4f pixels off, %d edge pixels)", c.name, got, exact, (got-exact)*k*k, edge)
		if math.Abs(got-exact) > allowed {
			t.Errorf("%s: the PNG's ink covers %.4f, the exact area is %.4f; at most %.4f apart (pngTolerance per edge pixel)",
				c.name, got, exact, allowed)
		}
	}
}

// TestBooleanArcsSVGPathText reads the SVG path written for boolean results: every arc is
// an A command (a whole-circle hole two half turns), never a run of L chords.
func TestBooleanArcsSVGPathText(t *testing.T) {
	t.Parallel()
	dAttr := regexp.MustCompile(` d="([^"]*)"`)
	want := map[string][2]int{ // case -> A and L commands
		"plate minus holes":    {4 + 4*2, 3}, // the fourth side is the Z
		"union of two circles": {4, 0},
	}
	for _, c := range arcCases(t) {
		counts, ok := want[c.name]
		if !ok {
			continue
		}
		svg, err := SVG(c.s, SVGOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := dAttr.FindSubmatch(svg)
		if m == nil {
			t.Fatalf("%s: no path in\n%s", c.name, svg)
		}
		d := string(m[1])
		if a, l := strings.Count(d, "A"), strings.Count(d, "L"); a != counts[0] || l != counts[1] {
			t.Errorf("%s: %d A and %d L commands, want %d and %d:\n%s", c.name, a, l, counts[0], counts[1], d)
		}
		for _, sub := range strings.Split(d, "M")[1:] {
			if strings.Count(sub, "A") == 2 && strings.Contains(sub, "L") {
				t.Errorf("%s: a whole circle is written with chords: M%s", c.name, sub)
			}
		}
	}
}

// TestPDFArcCubicsOnTheCircle samples every cubic the PDF writer makes of an arc (circular,
// elliptical, mirrored, of every sweep up to a whole turn, and those of the boolean results)
// and wants every point within 1e-6 of the radius from the curve, before the page's
// rounding to a thousandth of a point.
func TestPDFArcCubicsOnTheCircle(t *testing.T) {
	t.Parallel()
	var arcs []geom.Seg
	for _, c := range arcCases(t) {
		for it := range c.s.Paint() {
			for _, s := range it.Path {
				if s.Kind == geom.SegArc {
					arcs = append(arcs, s)
				}
			}
		}
	}
	for _, sweep := range []float64{1e-3, 0.3, math.Pi / 6, math.Pi / 2, 2, math.Pi, 4.5, 2 * math.Pi, -2 * math.Pi, -1} {
		for _, uv := range [][2]geom.Vec{
			{{X: 7}, {Y: 7}},               // a circle
			{{X: 0, Y: 3}, {X: 3}},         // mirrored
			{{X: 20, Y: 5}, {X: -1, Y: 4}}, // an ellipse, skewed
		} {
			arcs = append(arcs, geom.Seg{Kind: geom.SegArc, P: [3]geom.Vec{{X: 5, Y: -2}, uv[0], uv[1]}, T0: 0.7, T1: 0.7 + sweep})
		}
	}
	worst := 0.0
	for _, s := range arcs {
		// A point q is on the ellipse c + u cos t + v sin t when [u v]⁻¹(q − c) has length 1;
		// the distance off it is at most that length's error times the larger semi-axis.
		axes := geom.Affine{A: s.P[1].X, B: s.P[1].Y, C: s.P[2].X, D: s.P[2].Y}
		inv, ok := axes.Invert()
		if !ok {
			t.Fatalf("degenerate arc %+v", s)
		}
		r := axes.MaxScale()
		start := s.ArcPoint(s.T0)
		pieces := 0
		arcCubics(s, func(c1, c2, end geom.Vec) {
			pieces++
			for i := 0; i <= 32; i++ {
				u := float64(i) / 32
				v := 1 - u
				q := start.Mul(v * v * v).Add(c1.Mul(3 * v * v * u)).Add(c2.Mul(3 * v * u * u)).Add(end.Mul(u * u * u))
				e := math.Abs(inv.ApplyVec(q.Sub(s.P[0])).Len() - 1) // at most the error over the larger radius
				worst = math.Max(worst, e)
				if e > 1e-6 {
					t.Errorf("arc %+v: a cubic's point %v is %.3g of the radius off the curve (at most 1e-6)", s, q, e)
					return
				}
			}
			start = end
		})
		if end := s.ArcPoint(s.T1); start.Sub(end).Len() > 1e-9*r {
			t.Errorf("arc %+v: the cubics end at %v, the arc at %v", s, start, end)
		}
		if want := int(math.Max(1, math.Ceil(math.Abs(s.T1-s.T0)/maxArcCubicSweep-1e-9))); pieces != want {
			t.Errorf("arc %+v: %d cubics, want %d", s, pieces, want)
		}
	}
	t.Logf("%d arcs; the worst point is %.3g of the radius off the curve", len(arcs), worst)
}
