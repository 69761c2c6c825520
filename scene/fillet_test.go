package scene

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// lShape is an L of arms 20 long and 5 wide; its one concave corner is vertex 3, (5, 5).
func lShape() Polygon {
	return Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 20, Y: 0}, {X: 20, Y: 5}, {X: 5, Y: 5}, {X: 5, Y: 20}, {X: 0, Y: 20}}}}}
}

// areaPerimeter is the area and perimeter of the named entity.
func areaPerimeter(t *testing.T, s *Scene, name string) (area, perimeter float64) {
	t.Helper()
	a, err := s.Area(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Perimeter(name)
	if err != nil {
		t.Fatal(err)
	}
	return a, p
}

// TestFilletClosedForms checks cuts against their closed forms: a filleted square loses
// (4-π)r² and 8r-2πr of perimeter, a chamfered one d²/2 per corner, a filleted concave
// corner gains (1-π/4)r², a filleted square hole shrinks by (4-π)r², and a square filleted
// by half its side is a circle.
func TestFilletClosedForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name         string
		shape        Shape
		cut          func(s *Scene) (*Entity, error)
		area, perim  float64
		points, arcs int
	}{
		{"square fillet", Rect{Width: 10, Height: 10}, func(s *Scene) (*Entity, error) { return s.Fillet("p", 2, CornerOptions{}) },
			100 - (4-math.Pi)*4, 40 - 16 + 4*math.Pi, 8, 4},
		{"square chamfer", Rect{Center: geom.Vec{X: 3, Y: -2}, Width: 10, Height: 10}, func(s *Scene) (*Entity, error) { return s.Chamfer("p", 1, CornerOptions{}) },
			100 - 4*0.5, 40 - 8 + 4*math.Sqrt2, 8, 0},
		{"concave corner", lShape(), func(s *Scene) (*Entity, error) { return s.Fillet("p", 2, CornerOptions{Corners: []int{3}}) },
			175 + (1-math.Pi/4)*4, 80 - 4 + math.Pi, 7, 1},
		{"square to circle", Rect{Width: 10, Height: 10}, func(s *Scene) (*Entity, error) { return s.Fillet("p", 5, CornerOptions{}) },
			25 * math.Pi, 10 * math.Pi, 4, 4},
		{"two corners", boolRect(0, 0, 10, 10), func(s *Scene) (*Entity, error) { return s.Fillet("p", 2, CornerOptions{Corners: []int{0, 2}}) },
			100 - (4-math.Pi)*2, 40 - 8 + 2*math.Pi, 6, 2},
		{"hole", Polygon{Parts: []PolygonPart{{Outer: boolRect(0, 0, 10, 10).Parts[0].Outer, Holes: [][]geom.Vec{{{X: 3, Y: 3}, {X: 3, Y: 7}, {X: 7, Y: 7}, {X: 7, Y: 3}}}}}},
			func(s *Scene) (*Entity, error) { return s.Fillet("p", 1, CornerOptions{Corners: []int{4, 5, 6, 7}}) },
			100 - 16 + (4 - math.Pi), 40 + 16 - 8 + 2*math.Pi, 12, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			boolPut(t, s, "p", c.shape)
			e, err := c.cut(s)
			if err != nil {
				t.Fatal(err)
			}
			g := boolPolygon(t, e)
			if got := polygonVertices(g); got != c.points {
				t.Errorf("%d vertices, want %d: %+v", got, c.points, g)
			}
			if got := countArcs(g); got != c.arcs {
				t.Errorf("%d arcs, want %d: %+v", got, c.arcs, g)
			}
			a, p := areaPerimeter(t, s, "p")
			if !near(a, c.area, 1e-12) {
				t.Errorf("area %.15g, want %.15g", a, c.area)
			}
			if !near(p, c.perim, 1e-12) {
				t.Errorf("perimeter %.15g, want %.15g", p, c.perim)
			}
		})
	}
}

func polygonVertices(g Polygon) int {
	n := 0
	for _, part := range g.Parts {
		n += len(part.Outer)
		for _, h := range part.Holes {
			n += len(h)
		}
	}
	return n
}

func countArcs(g Polygon) int {
	n := 0
	count := func(bul []float64) {
		for _, k := range bul {
			if k != 0 {
				n++
			}
		}
	}
	for _, part := range g.Parts {
		count(part.OuterBulges)
		for _, b := range part.HoleBulges {
			count(b)
		}
	}
	return n
}

// TestFilletBulges checks the stored arcs: a right angle's fillet is a quarter turn,
// tan(π/8) as a bulge, counter-clockwise on a counter-clockwise square and clockwise at the
// concave corner of the L.
func TestFilletBulges(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "sq", Rect{Width: 10, Height: 10})
	boolPut(t, s, "l", lShape())
	e, err := s.Fillet("sq", 2, CornerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k := math.Tan(math.Pi / 8)
	if got, want := boolPolygon(t, e).Parts[0].OuterBulges, []float64{k, 0, k, 0, k, 0, k, 0}; !slices.Equal(got, want) {
		t.Errorf("square bulges %v, want %v", got, want)
	}
	e, err = s.Fillet("l", 2, CornerOptions{Corners: []int{3}})
	if err != nil {
		t.Fatal(err)
	}
	g := boolPolygon(t, e)
	if got := g.Parts[0].OuterBulges[3]; got != -k {
		t.Errorf("concave bulge %v, want %v", got, -k)
	}
	if got, want := g.Parts[0].Outer[3:5], []geom.Vec{{X: 7, Y: 5}, {X: 5, Y: 7}}; !slices.Equal(got, want) {
		t.Errorf("tangent points %v, want %v", got, want)
	}
}

// TestFilletRefusals pins the messages of what cannot be cut.
func TestFilletRefusals(t *testing.T) {
	t.Parallel()
	triangle := Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 0, Y: 10}}}}}
	withMidpoint := Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 5, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}, {X: 0, Y: 10}}}}}
	cases := []struct {
		name  string
		shape Shape
		cut   func(s *Scene) (*Entity, error)
		is    error
		want  string
	}{
		{"radius too large", triangle, func(s *Scene) (*Entity, error) { return s.Fillet("p", 3, CornerOptions{}) }, ErrBadGeometry,
			`fillet radius 3 is too large for corner 1 of "p": the largest that fits there is 2.07107`},
		{"distance too large", Rect{Width: 10, Height: 4}, func(s *Scene) (*Entity, error) { return s.Chamfer("p", 2.5, CornerOptions{}) }, ErrBadGeometry,
			`chamfer distance 2.5 is too large for corner 0 of "p": the largest that fits there is 2 `},
		{"alone on its edges", Rect{Width: 10, Height: 4}, func(s *Scene) (*Entity, error) { return s.Chamfer("p", 4.5, CornerOptions{Corners: []int{1}}) }, ErrBadGeometry,
			`the largest that fits there is 4 `},
		{"zero", triangle, func(s *Scene) (*Entity, error) { return s.Fillet("p", 0, CornerOptions{}) }, ErrBadGeometry,
			"fillet radius must be a finite number > 0, got 0"},
		{"negative", triangle, func(s *Scene) (*Entity, error) { return s.Chamfer("p", -1, CornerOptions{}) }, ErrBadGeometry,
			"chamfer distance must be a finite number > 0, got -1"},
		{"NaN", triangle, func(s *Scene) (*Entity, error) { return s.Fillet("p", math.NaN(), CornerOptions{}) }, ErrBadGeometry,
			"fillet radius must be a finite number > 0, got NaN"},
		{"index too large", triangle, func(s *Scene) (*Entity, error) { return s.Fillet("p", 1, CornerOptions{Corners: []int{3}}) }, ErrBadOption,
			`"p" has no corner 3; its corners are 0..2`},
		{"index negative", triangle, func(s *Scene) (*Entity, error) { return s.Fillet("p", 1, CornerOptions{Corners: []int{-1}}) }, ErrBadOption,
			`"p" has no corner -1; its corners are 0..2`},
		{"straight corner", withMidpoint, func(s *Scene) (*Entity, error) { return s.Fillet("p", 1, CornerOptions{Corners: []int{1}}) }, ErrBadOption,
			`corner 1 of "p" is straight`},
		{"arc corner", RoundedRect{Width: 10, Height: 6, Radius: 2}, func(s *Scene) (*Entity, error) { return s.Fillet("p", 1, CornerOptions{Corners: []int{2}}) }, ErrBadOption,
			`corner 2 of "p" is next to an arc edge`},
		{"no sharp corner", RoundedRect{Width: 10, Height: 6, Radius: 2}, func(s *Scene) (*Entity, error) { return s.Chamfer("p", 1, CornerOptions{}) }, ErrBadGeometry,
			`"p" has no corner between two straight edges to chamfer`},
		{"circle", Circle{Radius: 3}, func(s *Scene) (*Entity, error) { return s.Fillet("p", 1, CornerOptions{}) }, ErrBadGeometry,
			`"p" is a circle; fillets and chamfers work on polygons`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			boolPut(t, s, "p", c.shape)
			_, err := c.cut(s)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error()+" ", c.want) {
				t.Fatalf("error %v, want %v containing %q", err, c.is, c.want)
			}
			if e, _ := s.Get("p"); e.Kind() != c.shape.Kind() {
				t.Errorf("the refused cut changed the shape into a %s", e.Kind())
			}
		})
	}
}

// TestFilletSkipsStraightCorners checks that a vertex in the middle of an edge is left alone
// by default, and gives the corners beside it the whole edge on its side.
func TestFilletSkipsStraightCorners(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "p", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 5, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}, {X: 0, Y: 10}}}}})
	if _, err := s.Fillet("p", 5, CornerOptions{}); err != nil {
		t.Fatal(err)
	}
	if a, want := boolArea(t, s, "p"), 25*math.Pi; !near(a, want, 1e-12) {
		t.Errorf("area %v, want %v", a, want)
	}
}

// TestFilletPlacement checks that a cut in place keeps the entity's transform and style, and
// that a cut to a result leaves the input and draws the result where the input is seen.
func TestFilletPlacement(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "r", Rect{Width: 10, Height: 6})
	do := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	do(s.Translate("r", geom.Vec{X: 100, Y: 0}, SpaceWorld))
	do(s.Rotate("r", math.Pi/2, SpaceWorld))
	do(s.SetFill("r", &Color{1, 0, 0, 1}))
	e, _ := s.Get("r")
	tr, world := e.Transform, s.WorldBounds(e)

	_, err := s.Fillet("r", 1, CornerOptions{Result: "f"})
	do(err)
	if e, _ := s.Get("r"); e.Kind() != KindRect {
		t.Errorf("the input became a %s; a result of another name leaves it", e.Kind())
	}
	f, _ := s.Get("f")
	if got := s.WorldBounds(f); !boxNear(got, world, 1e-12) {
		t.Errorf("result bounds %v, want the input's %v", got, world)
	}
	if want := 60 - (4 - math.Pi); !near(boolArea(t, s, "f"), want, 1e-12) {
		t.Errorf("result area %v, want %v", boolArea(t, s, "f"), want)
	}

	e, err = s.Fillet("r", 1, CornerOptions{})
	do(err)
	if e.Kind() != KindPolygon || e.Transform != tr || e.Style.Fill == nil || *e.Style.Fill != (Color{1, 0, 0, 1}) {
		t.Errorf("in place: kind %s, transform %+v, fill %v; want a polygon keeping %+v and the red fill", e.Kind(), e.Transform, e.Style.Fill, tr)
	}
	if got := s.WorldBounds(e); !boxNear(got, world, 1e-12) {
		t.Errorf("in place bounds %v, want %v", got, world)
	}
}

// TestFilletUnevenGroup checks that a shape in a group stretched unevenly is cut in its own
// frame, and that a result drawn elsewhere takes the stretch as its transform.
func TestFilletUnevenGroup(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "r", Rect{Width: 10, Height: 10})
	if _, err := s.CreateGroup("g", []string{"r"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Scale("g", 2, 1, SpaceWorld, &geom.Vec{}); err != nil {
		t.Fatal(err)
	}
	f, err := s.Fillet("r", 2, CornerOptions{Result: "f"})
	if err != nil {
		t.Fatal(err)
	}
	if got := boolPolygon(t, f).Parts[0].Outer[0]; got != (geom.Vec{X: -5, Y: -3}) {
		t.Errorf("first tangent point %v, want (-5, -3) in the square's own frame", got)
	}
	if f.Transform.Scale != (geom.Vec{X: 2, Y: 1}) {
		t.Errorf("result scale %v, want the group's (2, 1)", f.Transform.Scale)
	}
	r, _ := s.Get("r")
	if got, want := s.WorldBounds(f), s.WorldBounds(r); !boxNear(got, want, 1e-12) {
		t.Errorf("result bounds %v, want %v", got, want)
	}
	if want := 2 * (100 - (4-math.Pi)*4); !near(boolArea(t, s, "f"), want, 1e-12) {
		t.Errorf("area %v, want %v", boolArea(t, s, "f"), want)
	}
	// Turned inside the stretch, the square is sheared, which no transform of a result holds;
	// in place it is still cut.
	if err := s.Rotate("r", math.Pi/4, SpaceLocal); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fillet("r", 2, CornerOptions{Result: "f2"}); !errors.Is(err, ErrBadTransform) || !strings.Contains(err.Error(), `placing the result "f2"`) {
		t.Errorf("sheared result: error %v, want a bad transform placing it", err)
	}
	if _, err := s.Fillet("r", 2, CornerOptions{}); err != nil {
		t.Errorf("sheared, in place: %v", err)
	}
}

// TestFilletBooleanResult fillets the outer corners of a plate minus a bore: the bore's arcs
// are next to no straight edge, so they are skipped and kept as they were.
func TestFilletBooleanResult(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "plate", Rect{Width: 40, Height: 20})
	boolPut(t, s, "bore", Circle{Center: geom.Vec{X: 5, Y: 0}, Radius: 3})
	cut, err := s.Boolean(Difference, []string{"plate"}, []string{"bore"}, "cut")
	if err != nil {
		t.Fatal(err)
	}
	before := boolPolygon(t, cut).Parts[0]
	e, err := s.Fillet("cut", 2, CornerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after := boolPolygon(t, e).Parts[0]
	if !slices.Equal(after.Holes[0], before.Holes[0]) || !slices.Equal(after.holeBulges(0), before.holeBulges(0)) || !geom.HasBulge(after.holeBulges(0)) {
		t.Errorf("the bore changed: %v %v, was %v %v", after.Holes[0], after.holeBulges(0), before.Holes[0], before.holeBulges(0))
	}
	if got, want := boolArea(t, s, "cut"), 800-9*math.Pi-4*(4-math.Pi); !near(got, want, 1e-12) {
		t.Errorf("area %.15g, want %.15g", got, want)
	}
}

// TestRoundedRectPolygon checks the ring a rounded rectangle is cut as against its area, with
// sides of no length left out.
func TestRoundedRectPolygon(t *testing.T) {
	t.Parallel()
	for _, r := range []RoundedRect{{Width: 30, Height: 20, Radius: 4}, {Width: 10, Height: 6, Radius: 3}, {Width: 8, Height: 8, Radius: 9}} {
		g := roundedRectPolygon(r)
		rad := math.Min(r.Radius, math.Min(r.Width, r.Height)/2)
		want := r.Width*r.Height - (4-math.Pi)*rad*rad
		if a := geom.BulgedArea(g.Parts[0].Outer, g.Parts[0].OuterBulges); !near(a, want, 1e-12) {
			t.Errorf("%+v: area %v, want %v", r, a, want)
		}
		if err := g.validate(); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

func boxNear(a, b geom.Box, tol float64) bool {
	scale := max(1, b.Max.Sub(b.Min).Len())
	return a.Min.Sub(b.Min).Len() <= tol*scale && a.Max.Sub(b.Max).Len() <= tol*scale
}

// TestFilletJSON checks that cut polygons read back from scene.json as they were written,
// arcs on the outer ring only, on a hole only, and on both.
func TestFilletJSON(t *testing.T) {
	t.Parallel()
	s := New()
	framed := Polygon{Parts: []PolygonPart{{Outer: boolRect(0, 0, 10, 10).Parts[0].Outer, Holes: [][]geom.Vec{{{X: 3, Y: 3}, {X: 3, Y: 7}, {X: 7, Y: 7}, {X: 7, Y: 3}}}}}}
	boolPut(t, s, "outer", framed)
	boolPut(t, s, "hole", framed)
	boolPut(t, s, "both", framed)
	for name, corners := range map[string][]int{"outer": {0, 1}, "hole": {5}, "both": nil} {
		if _, err := s.Fillet(name, 1, CornerOptions{Corners: corners}); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(doc)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if again, _ := back.MarshalJSON(); string(again) != string(doc) {
		t.Errorf("round trip differs:\n%s\n%s", doc, again)
	}
	for _, name := range []string{"outer", "hole", "both"} {
		if a, b := boolArea(t, s, name), boolArea(t, back, name); a != b {
			t.Errorf("%s: area %v read back as %v", name, a, b)
		}
	}
}
