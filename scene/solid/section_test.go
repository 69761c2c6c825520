package solid

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// areaOf is the area of a section, measured as the scene measures any polygon.
func areaOf(t *testing.T, g scene.Polygon) float64 {
	t.Helper()
	sc := scene.New()
	put(t, sc, "s", g)
	a, err := sc.Area("s")
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// placedAs is the named solid of sc as it stands in the world.
func placedAs(t *testing.T, sc *scene.Scene, name string) []Placed {
	t.Helper()
	ps, ok, err := Lookup(sc, []string{name})
	if !ok || err != nil {
		t.Fatalf("%q: %v %v", name, ok, err)
	}
	return ps
}

// withoutForm is the placed solids with their forms dropped, so that the mesh answers.
func withoutForm(ps []Placed) []Placed {
	out := make([]Placed, len(ps))
	for i, p := range ps {
		c := *p.Solid
		c.Form = nil
		out[i] = Placed{Name: p.Name, Solid: &c, World: p.World}
	}
	return out
}

// TestSectionOfPlate: a filleted plate with a hole, extruded and moved, cut across its axis
// is its profile, arcs kept, and its area is the profile's to rounding; the mesh's cut agrees
// to the facets. Cut along its axis through the hole, it is two rectangles of the plate's
// thickness either side of the hole.
func TestSectionOfPlate(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	const w, h, r, hole, thick = 40.0, 20.0, 4.0, 5.0, 6.0
	put(t, sc, "outline", scene.RoundedRect{Center: geom.Vec{X: 30, Y: 10}, Width: w, Height: h, Radius: r})
	put(t, sc, "hole", scene.Circle{Center: geom.Vec{X: 30, Y: 10}, Radius: hole})
	if _, err := sc.Boolean(scene.Difference, []string{"outline"}, []string{"hole"}, "profile"); err != nil {
		t.Fatal(err)
	}
	sd, err := ss.Extrude(ctx, sc, "profile", thick, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "plate", sd)
	if err := sc.Translate("plate", geom.Vec{X: -30, Y: -10}, scene.SpaceWorld); err != nil {
		t.Fatal(err)
	}
	ps := placedAs(t, sc, "plate")
	area := w*h - (4-math.Pi)*r*r - math.Pi*hole*hole

	g, exact, err := Section(ps, AxisPlane(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !exact || !g.HasArcs() || len(g.Parts) != 1 || len(g.Parts[0].Holes) != 1 {
		t.Fatalf("across the axis: exact %v, %+v", exact, g)
	}
	near(t, "the exact section's area", areaOf(t, g), area, 1e-12)
	if b := g.Parts[0].Outer; math.Abs(minX(b)+w/2) > 1e-9 {
		t.Errorf("the section is not where the plate is: %v", b)
	}

	mg, exact, err := Section(withoutForm(ps), AxisPlane(2, 3))
	if err != nil || exact {
		t.Fatalf("the mesh's cut: exact %v, %v", exact, err)
	}
	if len(mg.Parts) != 1 || len(mg.Parts[0].Holes) != 1 {
		t.Fatalf("the mesh's cut: %d parts, %+v", len(mg.Parts), mg)
	}
	near(t, "the mesh's section's area", areaOf(t, mg), area, 2e-3)

	// Along the axis through the hole's centre: {y: 0} sees x to the right and z up.
	g, exact, err = Section(ps, AxisPlane(1, 0))
	if err != nil || !exact {
		t.Fatalf("along the axis: exact %v, %v", exact, err)
	}
	if len(g.Parts) != 2 {
		t.Fatalf("along the axis through the hole: %d parts, want 2", len(g.Parts))
	}
	near(t, "the section along the axis", areaOf(t, g), (w-2*hole)*thick, 1e-12)
	for _, part := range g.Parts {
		for _, q := range part.Outer {
			if q.Y < -1e-12 || q.Y > thick+1e-12 || math.Abs(q.X) > w/2+1e-12 || math.Abs(q.X) < hole-1e-12 {
				t.Errorf("a corner at %v is off the plate's cut", q)
			}
		}
	}
	mg, _, err = Section(withoutForm(ps), AxisPlane(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	near(t, "the mesh's section along the axis", areaOf(t, mg), (w-2*hole)*thick, 1e-3)

	_, _, err = Section(ps, AxisPlane(2, 7))
	if !errors.Is(err, ErrPlaneMisses) || !strings.Contains(err.Error(), "z 0 to 6") {
		t.Errorf("a plane above the plate: %v", err)
	}
}

func minX(pts []geom.Vec) float64 {
	m := math.Inf(1)
	for _, q := range pts {
		m = math.Min(m, q.X)
	}
	return m
}

// TestSectionOfRing: a circle turned about the axis and cut by a plane through the axis is
// two circles, the profile and its mirror, arcs kept: {y: 0} sees x to the right and z up.
func TestSectionOfRing(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	const R, r = 20.0, 3.0
	put(t, sc, "circle", scene.Circle{Center: geom.Vec{X: R, Y: 5}, Radius: r})
	sd, err := ss.Revolve(ctx, sc, "circle", RevolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "ring", sd)
	ps := placedAs(t, sc, "ring")
	for _, pl := range []Plane{AxisPlane(1, 0), AxisPlane(0, 0)} {
		g, exact, err := Section(ps, pl)
		if err != nil {
			t.Fatal(err)
		}
		if !exact || len(g.Parts) != 2 {
			t.Fatalf("through the axis: exact %v, %d parts, want 2 circles", exact, len(g.Parts))
		}
		for _, part := range g.Parts {
			if len(part.Outer) != 2 || len(part.OuterBulges) != 2 || part.OuterBulges[0] != 1 {
				t.Errorf("not a circle of two half turns: %+v", part)
			}
			c := part.Outer[0].Add(part.Outer[1]).Mul(0.5)
			if math.Abs(math.Abs(c.X)-R) > 1e-12 || math.Abs(c.Y-5) > 1e-12 || math.Abs(part.Outer[0].Sub(part.Outer[1]).Len()-2*r) > 1e-12 {
				t.Errorf("a circle about %v of diameter %v, want about (±%v, 5) of %v", c, part.Outer[0].Sub(part.Outer[1]).Len(), R, 2*r)
			}
		}
		near(t, "two circles' area", areaOf(t, g), 2*math.Pi*r*r, 1e-12)
	}
	// Across the axis the form has no exact answer short of the mesh: an annulus, within the
	// chords' tolerance (the most a chord lies from its circle) times the circles' lengths.
	g, exact, err := Section(ps, AxisPlane(2, 5))
	if err != nil || exact {
		t.Fatalf("across the axis: exact %v, %v", exact, err)
	}
	tol := 2 * math.Pi * DefaultRelTolerance * ((R+r)*(R+r) + (R-r)*(R-r))
	if a, want := areaOf(t, g), math.Pi*((R+r)*(R+r)-(R-r)*(R-r)); math.Abs(a-want) > tol {
		t.Errorf("the ring's cut across: area %v, want %v within %v", a, want, tol)
	}
}

// TestSectionOfBoolean: a box less a cylinder, a 3D boolean with no form, is cut on its mesh;
// the cut's area is the box's less the hole's, within the facets' tolerance, for a plane
// across the hole, along it, and a general one.
func TestSectionOfBoolean(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	box, err := ss.Box(ctx, scene.Vec3{}, 40, 30, 10)
	if err != nil {
		t.Fatal(err)
	}
	const r = 5.0
	pin, err := ss.Cylinder(ctx, scene.Vec3{3, -2, 0}, r, r, 20, Facets{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "box", box)
	put(t, sc, "pin", pin)
	cut, err := ss.Boolean(ctx, Difference, placedAs(t, sc, "box"), placedAs(t, sc, "pin"))
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "part", cut)
	ps := placedAs(t, sc, "part")
	// The hole's chords lie within DefaultAbsTolerance of its circle (a radius under 10): its
	// area within that times its length.
	tol := DefaultAbsTolerance * 2 * math.Pi * r
	diagonal, err := PointNormalPlane(scene.Vec3{0, 0, 1}, scene.Vec3{0, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		plane Plane
		want  float64
	}{
		{"across", AxisPlane(2, 1), 40*30 - math.Pi*r*r},
		{"across by point and normal", diagonal, 40*30 - math.Pi*r*r},
		{"along through the axis", AxisPlane(0, 3), 30*10 - 2*r*10},
		{"along beside the hole", AxisPlane(1, 10), 40 * 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, exact, err := Section(ps, c.plane)
			if err != nil {
				t.Fatal(err)
			}
			if exact {
				t.Error("a boolean's section is its mesh's")
			}
			if a := areaOf(t, g); math.Abs(a-c.want) > tol {
				t.Errorf("area %v, want %v within %v", a, c.want, tol)
			}
		})
	}
}

// TestSectionMirroredAndHalfTurned: a mirrored extrusion's section is its mirrored profile,
// still counter-clockwise (a positive area, holes clockwise), exact and on the mesh; half a
// turn of a circle cut through its axis is one circle where the turn reaches and two where
// the plane holds both of its ends.
func TestSectionMirroredAndHalfTurned(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	put(t, sc, "outline", scene.RoundedRect{Center: geom.Vec{X: 30, Y: 10}, Width: 40, Height: 20, Radius: 4})
	put(t, sc, "hole", scene.Circle{Center: geom.Vec{X: 25, Y: 10}, Radius: 5})
	if _, err := sc.Boolean(scene.Difference, []string{"outline"}, []string{"hole"}, "profile"); err != nil {
		t.Fatal(err)
	}
	sd, err := ss.Extrude(ctx, sc, "profile", 6, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "plate", sd)
	if err := sc.Place3("plate", scene.Affine3{-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	area := 40*20 - (4-math.Pi)*16 - math.Pi*25
	ps := placedAs(t, sc, "plate")
	for _, c := range []struct {
		name string
		ps   []Placed
		tol  float64
	}{{"form", ps, 1e-12}, {"mesh", withoutForm(ps), 2e-3}} {
		g, _, err := Section(c.ps, AxisPlane(2, 3))
		if err != nil {
			t.Fatal(err)
		}
		near(t, c.name+": the mirrored section's area", areaOf(t, g), area, c.tol)
		if len(g.Parts) != 1 || len(g.Parts[0].Holes) != 1 {
			t.Fatalf("%s: %+v", c.name, g)
		}
		// The hole was left of the middle; mirrored about x = 0 it is right of it.
		var mid geom.Vec
		for _, q := range g.Parts[0].Holes[0] {
			mid = mid.Add(q.Mul(1 / float64(len(g.Parts[0].Holes[0]))))
		}
		if mid.X > -25+1 || mid.X < -30 {
			t.Errorf("%s: the hole's middle at %v, want near x = -25", c.name, mid)
		}
	}

	put(t, sc, "circle", scene.Circle{Center: geom.Vec{X: 20, Y: 5}, Radius: 3})
	half, err := ss.Revolve(ctx, sc, "circle", RevolveOptions{Angle: math.Pi})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "half", half)
	hp := placedAs(t, sc, "half")
	for _, c := range []struct {
		plane Plane
		parts int
	}{{AxisPlane(0, 0), 1}, {AxisPlane(1, 0), 2}} {
		g, exact, err := Section(hp, c.plane)
		if err != nil || !exact || len(g.Parts) != c.parts {
			t.Errorf("half a turn cut by %+v: %d parts (exact %v, %v), want %d", c.plane.N, len(g.Parts), exact, err, c.parts)
		}
	}
}
