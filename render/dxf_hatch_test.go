package render

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// hatchCase is a hatched shape of hatchScene: its name (also its layer), pattern, angle in
// radians, scale, and its area in closed form.
type hatchCase struct {
	name, pattern string
	angle, scale  float64
	area          float64
	holes         int
}

// hatchScene hatches, with every pattern, a 100 by 60 plate with a hole of radius 15 (a
// boolean difference: a polygon whose hole is two half-circle bulges) at an angle of 0.3
// radians and scale 2, and a 40 by 30 rectangle with corners filleted at radius 5 at scale 1;
// each on a layer of its own name. A group "parts" holds a circle of radius 10 and gives it
// its hatch, ansi31 in red.
func hatchScene(t *testing.T) (*scene.Scene, []hatchCase) {
	t.Helper()
	s := scene.New()
	var cases []hatchCase
	for i, pattern := range drafting.HatchNames() {
		ox := float64(150 * i)
		plate, fillet := "plate_"+pattern, "fillet_"+pattern
		put(t, s, "r", scene.Rect{Center: geom.Vec{X: ox}, Width: 100, Height: 60})
		put(t, s, "h", scene.Circle{Center: geom.Vec{X: ox + 20, Y: 5}, Radius: 15})
		_, err := s.Boolean(scene.Difference, []string{"r"}, []string{"h"}, plate)
		do(t, err)
		do(t, s.Delete("r"))
		do(t, s.Delete("h"))
		put(t, s, fillet, scene.Rect{Center: geom.Vec{X: ox, Y: 100}, Width: 40, Height: 30})
		_, err = s.Fillet(fillet, 5, scene.CornerOptions{})
		do(t, err)
		for _, c := range []hatchCase{
			{plate, pattern, 0.3, 2, 6000 - 225*math.Pi, 1},
			{fillet, pattern, 0, 1, 1200 - 25*(4-math.Pi), 0},
		} {
			do(t, s.CreateLayer(scene.Layer{Name: c.name, Plot: true}))
			do(t, s.SetLayer(c.name, c.name))
			do(t, s.SetHatch(c.name, pattern, c.angle, c.scale, nil))
			cases = append(cases, c)
		}
	}
	put(t, s, "disc", scene.Circle{Center: geom.Vec{Y: -100}, Radius: 10})
	_, err := s.CreateGroup("parts", []string{"disc"})
	do(t, err)
	do(t, s.SetHatch("parts", "ansi31", 0, 1, &scene.Color{1, 0, 0, 1}))
	return s, append(cases, hatchCase{"parts", "ansi31", 0, 1, 100 * math.Pi, 0})
}

// dxfHatchReport is what testdata/dxfhatch.py reads of a DXF.
type dxfHatchReport struct {
	Errors   []string `json:"errors"`
	Fixes    []string `json:"fixes"`
	Entities []struct {
		Type, Layer string
	} `json:"entities"`
	Hatches []struct {
		Layer   string  `json:"layer"`
		Color   int     `json:"color"`
		Pattern string  `json:"pattern"`
		Solid   int     `json:"solid"`
		Angle   float64 `json:"angle"`
		Scale   float64 `json:"scale"`
		Lines   []struct {
			Angle  float64    `json:"angle"`
			Base   [2]float64 `json:"base"`
			Offset [2]float64 `json:"offset"`
			Dashes []float64  `json:"dashes"`
		} `json:"lines"`
		Paths []struct {
			Flags    int     `json:"flags"`
			Polyline bool    `json:"polyline"`
			Closed   bool    `json:"closed"`
			Area     float64 `json:"area"`
		} `json:"paths"`
	} `json:"hatches"`
}

// readHatches writes the scene's DXF in each version and returns what ezdxf reads of each.
func readHatches(t *testing.T, s *scene.Scene, versions ...DXFVersion) []dxfHatchReport {
	t.Helper()
	ezdxf(t) // skip before the files are written
	dir := t.TempDir()
	var files []string
	for _, v := range versions {
		b, err := DXF(s, DXFOptions{Version: v})
		do(t, err)
		f := filepath.Join(dir, "r"+strconv.Itoa(int(v))+".dxf")
		do(t, os.WriteFile(f, b, 0o644))
		files = append(files, f)
	}
	got := ezdxfReport[dxfHatchReport](t, "dxfhatch.py", files...)
	return got
}

// TestDXFHatchesThroughEzdxf reads the R2000 DXF of hatchScene with ezdxf: the audit finds
// nothing to fix; each hatched shape is followed by one HATCH on its layer with the
// pattern's name, solid flag, angle and scale; the definition lines are the placed pattern's
// (angle, base point, the offset turned into the drawing's frame: ANSI lines 3.175 times the
// scale apart, dots half that, and the dashes); the colour is the shape's, or the hatch's own (red, ACI 1);
// and the boundary paths enclose the shape's exact area to 1e-9, the hole a second path
// that is not external.
func TestDXFHatchesThroughEzdxf(t *testing.T) {
	t.Parallel()
	s, cases := hatchScene(t)
	got := readHatches(t, s, DXF2000)[0]
	if len(got.Errors) > 0 || len(got.Fixes) > 0 {
		t.Errorf("audit: errors %v, fixes %v", got.Errors, got.Fixes)
	}
	if len(got.Hatches) != len(cases) {
		t.Fatalf("%d HATCH entities, want %d", len(got.Hatches), len(cases))
	}
	for i, e := range got.Entities {
		if e.Type == "HATCH" && (i == 0 || got.Entities[i-1].Layer != e.Layer || got.Entities[i-1].Type == "HATCH") {
			t.Errorf("HATCH on %s does not follow its shape: entities %v", e.Layer, got.Entities)
		}
	}
	for i, c := range cases {
		h := got.Hatches[i]
		pat, err := drafting.LookupHatch(c.pattern)
		do(t, err)
		wantColor := 7
		if c.name == "parts" {
			wantColor = 1
		}
		wantName := map[string]string{"solid": "SOLID", "ansi31": "ANSI31", "ansi37": "ANSI37", "dots": "DOTS"}[c.pattern]
		if h.Layer != c.name || h.Pattern != wantName || h.Solid != boolInt(pat.Solid) || h.Color != wantColor {
			t.Errorf("%s: HATCH on %q, pattern %q, solid %d, colour %d; want %q, %q, %d, %d",
				c.name, h.Layer, h.Pattern, h.Solid, h.Color, c.name, wantName, boolInt(pat.Solid), wantColor)
		}
		if !pat.Solid && (math.Abs(h.Angle-c.angle*180/math.Pi) > 1e-7 || math.Abs(h.Scale-c.scale) > 1e-9) {
			t.Errorf("%s: pattern angle %v°, scale %v; want %v°, %v", c.name, h.Angle, h.Scale, c.angle*180/math.Pi, c.scale)
		}
		placed := pat.Placed(c.angle, c.scale)
		spacing := 3.175 * c.scale // acad.pat's ANSI spacing, 1/8 inch
		if c.pattern == "dots" {
			spacing /= 2
		}
		if len(h.Lines) != len(placed) {
			t.Errorf("%s: %d pattern lines, want %d", c.name, len(h.Lines), len(placed))
			continue
		}
		for k, l := range h.Lines {
			want := placed[k]
			a := l.Angle * math.Pi / 180
			along := l.Offset[0]*math.Cos(a) + l.Offset[1]*math.Sin(a)
			across := -l.Offset[0]*math.Sin(a) + l.Offset[1]*math.Cos(a)
			if math.Abs(l.Angle-want.Angle) > 1e-7 || math.Abs(across-spacing) > 1e-8 ||
				math.Abs(along-want.Offset.X) > 1e-8 || math.Hypot(l.Base[0]-want.Base.X, l.Base[1]-want.Base.Y) > 1e-8 {
				t.Errorf("%s: line %d at %v° from %v, %v along and %v across; want %v° from %v, %v along and %v across",
					c.name, k, l.Angle, l.Base, along, across, want.Angle, want.Base, want.Offset.X, spacing)
			}
			if len(l.Dashes) != len(want.Dashes) {
				t.Errorf("%s: line %d dashes %v, want %v", c.name, k, l.Dashes, want.Dashes)
				continue
			}
			for j := range l.Dashes {
				if math.Abs(l.Dashes[j]-want.Dashes[j]) > 1e-9 {
					t.Errorf("%s: line %d dashes %v, want %v", c.name, k, l.Dashes, want.Dashes)
				}
			}
		}
		if len(h.Paths) != 1+c.holes {
			t.Errorf("%s: %d boundary paths, want %d", c.name, len(h.Paths), 1+c.holes)
			continue
		}
		area := 0.0
		for k, p := range h.Paths {
			if !p.Polyline || !p.Closed || (p.Flags&1 == 1) != (k == 0) {
				t.Errorf("%s: path %d: polyline %v, closed %v, flags %d; want a closed polyline, external only the first",
					c.name, k, p.Polyline, p.Closed, p.Flags)
			}
			area += math.Abs(p.Area) * []float64{1, -1}[min(k, 1)]
		}
		if math.Abs(area-c.area) > 1e-9*c.area {
			t.Errorf("%s: the boundary paths enclose %.12g, want %.12g (%.3g relative)", c.name, area, c.area, (area-c.area)/c.area)
		}
	}
}

// TestDXFHatchesR12ThroughEzdxf reads the R12 DXF of hatchScene with ezdxf: the audit finds
// nothing to fix; there is no HATCH; each pattern's segments are LINEs on the shape's layer
// (dots POINTs), as many as the scene's hatch has; a solid hatch adds nothing to the outline.
func TestDXFHatchesR12ThroughEzdxf(t *testing.T) {
	t.Parallel()
	s, cases := hatchScene(t)
	got := readHatches(t, s, DXF12)[0]
	if len(got.Errors) > 0 || len(got.Fixes) > 0 {
		t.Errorf("audit: errors %v, fixes %v", got.Errors, got.Fixes)
	}
	hatches, err := s.Hatches()
	do(t, err)
	count := map[string]map[string]int{}
	for _, e := range got.Entities {
		if count[e.Layer] == nil {
			count[e.Layer] = map[string]int{}
		}
		count[e.Layer][e.Type]++
	}
	for _, c := range cases {
		e, err := s.Get(c.name)
		do(t, err)
		if e.IsGroup() {
			e, err = s.Get("disc")
			do(t, err)
		}
		lines, dots := 0, 0
		for _, sg := range hatches[e].Segments {
			if sg[0] == sg[1] {
				dots++
			} else {
				lines++
			}
		}
		if c.pattern != "solid" && lines+dots == 0 {
			t.Errorf("%s: the scene's hatch has no segments", c.name)
		}
		n := count[c.name]
		if n["HATCH"] != 0 || n["LINE"] != lines || n["POINT"] != dots {
			t.Errorf("%s: %d HATCH, %d LINE, %d POINT; want 0, %d, %d", c.name, n["HATCH"], n["LINE"], n["POINT"], lines, dots)
		}
	}
}

// TestDXFHatchCap checks that a hatch past MaxHatchSegments fails the DXF as it fails the
// pictures: a shape hatched and then scaled up 5000 times.
func TestDXFHatchCap(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Width: 100, Height: 100})
	do(t, s.SetHatch("r", "ansi37", 0, 1, nil))
	do(t, s.Scale("r", 5000, 5000, scene.SpaceWorld, nil))
	for _, v := range []DXFVersion{DXF12, DXF2000} {
		if _, err := DXF(s, DXFOptions{Version: v}); !errors.Is(err, scene.ErrLimit) {
			t.Errorf("R%d: %v; want the MaxHatchSegments limit", v, err)
		}
	}
}

// TestDXFHatchCurvesThroughEzdxf reads, R12 and R2000, hatches on shapes whose outlines are
// not all arcs: an ellipse and a closed Bézier path (flattened at the tolerance), the text
// "A8" (five loops: two outer, three holes), and a filleted rectangle mirrored (so that its
// outline turns clockwise) in a turned group. Both audits find nothing to fix; R2000 has a
// HATCH for each, whose external paths less its holes enclose the shape's area: to a
// thousandth for the flattened ones, and to 1e-5 for the fillet, whose turned vertices are
// rounded, as the outline's are, to a millionth of the drawing's size (hatchScene's vertices
// lie on that grid, which makes its areas exact).
func TestDXFHatchCurvesThroughEzdxf(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "ellipse", scene.Ellipse{RX: 20, RY: 10})
	put(t, s, "bezier", &scene.PathShape{Data: "M 30 0 C 35 10 45 10 50 0 Q 55 -5 60 0 A 5 5 0 0 1 70 0 L 70 -10 Z"})
	put(t, s, "txt", &scene.Text{Text: "A8", Pos: geom.Vec{Y: 20}, Size: 10})
	put(t, s, "r", scene.Rect{Center: geom.Vec{X: -40}, Width: 20, Height: 10})
	_, err := s.Fillet("r", 2, scene.CornerOptions{})
	do(t, err)
	_, err = s.Mirror("r", "mirrored", "x")
	do(t, err)
	do(t, s.Delete("r"))
	_, err = s.CreateGroup("turned", []string{"mirrored"})
	do(t, err)
	do(t, s.Rotate("turned", 0.5, scene.SpaceWorld))
	names := []string{"ellipse", "bezier", "txt", "turned"}
	for _, n := range names {
		do(t, s.SetHatch(n, "ansi31", 0.2, 0.5, nil))
	}
	paths := map[string]int{"ellipse": 1, "bezier": 1, "txt": 5, "turned": 1}
	got := readHatches(t, s, DXF12, DXF2000)
	for _, g := range got {
		if len(g.Errors) > 0 || len(g.Fixes) > 0 {
			t.Errorf("audit: errors %v, fixes %v", g.Errors, g.Fixes)
		}
	}
	hatches := got[1].Hatches
	if len(hatches) != len(names) {
		t.Fatalf("%d HATCH entities, want %d", len(hatches), len(names))
	}
	for i, n := range names {
		h := hatches[i]
		want, err := s.Area(n)
		do(t, err)
		area := 0.0
		for _, p := range h.Paths {
			area += math.Abs(p.Area) * float64(2*(p.Flags&1)-1)
		}
		tol := 1e-3
		if n == "turned" {
			tol = 1e-5
		}
		if len(h.Paths) != paths[n] || math.Abs(area-want) > tol*want {
			t.Errorf("%s: %d paths enclosing %.12g; want %d enclosing %.12g", n, len(h.Paths), area, paths[n], want)
		}
	}
}
