package solid

import (
	"context"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// bounds2 is the box of a drawing's lines.
func bounds2(l Lines) geom.Box {
	var b geom.Box
	for _, pl := range l.Polylines {
		for _, q := range pl {
			b.Extend(q)
		}
	}
	for _, c := range l.Circles {
		b.Extend(c.Center.Sub(geom.Vec{X: c.Radius, Y: c.Radius}))
		b.Extend(c.Center.Add(geom.Vec{X: c.Radius, Y: c.Radius}))
	}
	for _, a := range l.Arcs {
		ab := a.Outline().Bounds()
		b.Extend(ab.Min)
		b.Extend(ab.Max)
	}
	return b
}

// TestProjectBox: a box seen from each standard view is its rectangle in that view's
// coordinates, one closed polyline of four corners, with nothing hidden (the far edges lie
// under the near ones).
func TestProjectBox(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	box, err := ss.Box(ctx, scene.Vec3{5, 10, 20}, 40, 30, 10) // x -15 to 25, y -5 to 25, z 15 to 25
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "box", box)
	// The box's Form would answer the top view exactly; drop it so that the mesh is tested.
	ps := withoutForm(placedAs(t, sc, "box"))
	for _, c := range []struct {
		view     string
		min, max geom.Vec
	}{
		{"front", geom.Vec{X: -15, Y: 15}, geom.Vec{X: 25, Y: 25}},
		{"top", geom.Vec{X: -15, Y: -5}, geom.Vec{X: 25, Y: 25}},
		{"right", geom.Vec{X: -5, Y: 15}, geom.Vec{X: 25, Y: 25}},
		{"back", geom.Vec{X: -25, Y: 15}, geom.Vec{X: 15, Y: 25}},
		{"left", geom.Vec{X: -25, Y: 15}, geom.Vec{X: 5, Y: 25}},
		{"bottom", geom.Vec{X: -15, Y: -25}, geom.Vec{X: 25, Y: 5}},
	} {
		t.Run(c.view, func(t *testing.T) {
			v, err := ViewNamed(c.view)
			if err != nil {
				t.Fatal(err)
			}
			pj, err := Project(ps, v)
			if err != nil {
				t.Fatal(err)
			}
			if len(pj.Visible.Polylines) != 1 || len(pj.Visible.Polylines[0]) != 5 || len(pj.Visible.Circles) != 0 {
				t.Fatalf("want one closed rectangle, got %v", pj.Visible)
			}
			if len(pj.Hidden.Polylines) != 0 {
				t.Errorf("hidden lines under the outline: %v", pj.Hidden.Polylines)
			}
			b := bounds2(pj.Visible)
			if b.Min.Sub(c.min).Len() > 1e-5 || b.Max.Sub(c.max).Len() > 1e-5 {
				t.Errorf("rectangle %v to %v, want %v to %v", b.Min, b.Max, c.min, c.max)
			}
		})
	}
}

// TestProjectHole: a plate with a through hole, a 3D boolean, seen from above draws the hole
// as a circle of its radius, and from the front hides the hole's two walls behind the plate,
// each a line of the plate's thickness at the hole's sides.
func TestProjectHole(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	plate, err := ss.Box(ctx, scene.Vec3{0, 0, 3}, 60, 40, 6)
	if err != nil {
		t.Fatal(err)
	}
	const r = 5.0
	drill, err := ss.Cylinder(ctx, scene.Vec3{10, 5, 3}, r, r, 20, Facets{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "plate", plate)
	put(t, sc, "drill", drill)
	part, err := ss.Boolean(ctx, Difference, placedAs(t, sc, "plate"), placedAs(t, sc, "drill"))
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "part", part)
	ps := placedAs(t, sc, "part")

	top, err := Project(ps, Views[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Visible.Circles) != 1 {
		t.Fatalf("from above: circles %v, want the hole's", top.Visible.Circles)
	}
	if c := top.Visible.Circles[0]; c.Center.Sub(geom.Vec{X: 10, Y: 5}).Len() > 1e-5 || math.Abs(c.Radius-r) > 1e-5 {
		t.Errorf("the hole's circle %+v, want about (10, 5) of radius %v", c, r)
	}
	if len(top.Visible.Polylines) != 1 || len(top.Hidden.Polylines) != 0 || len(top.Hidden.Circles) != 0 {
		t.Errorf("from above: %d outlines and hidden %v, want the plate's one and nothing hidden", len(top.Visible.Polylines), top.Hidden)
	}

	front, err := Project(ps, Views[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(front.Visible.Polylines) != 1 || len(front.Visible.Polylines[0]) != 5 {
		t.Errorf("from the front: want the plate's rectangle, got %v", front.Visible.Polylines)
	}
	if len(front.Hidden.Polylines) != 2 {
		t.Fatalf("from the front: hidden %v, want the hole's two walls", front.Hidden.Polylines)
	}
	for _, pl := range front.Hidden.Polylines {
		if len(pl) != 2 {
			t.Errorf("a hidden wall of %d points: %v", len(pl), pl)
			continue
		}
		x := pl[0].X
		if math.Abs(math.Abs(x-10)-r) > DefaultAbsTolerance || math.Abs(pl[1].X-x) > 1e-5 || math.Abs(math.Abs(pl[1].Y-pl[0].Y)-6) > 1e-5 {
			t.Errorf("a hidden wall %v, want an upright line 6 long at x = 10 ± %v", pl, r)
		}
	}
}

// TestProjectAlongAxis: a cylinder, which keeps its form, seen along its axis is its exact
// circle; seen from the side, its rectangle.
func TestProjectAlongAxis(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	cyl, err := ss.Cylinder(ctx, scene.Vec3{1, 2, 3}, 4, 4, 10, Facets{Segments: 8})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "cyl", cyl)
	ps := placedAs(t, sc, "cyl")
	top, err := Project(ps, Views[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Visible.Circles) != 1 || top.Visible.Circles[0] != (scene.Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 4}) {
		t.Errorf("from above: %v, want the circle about (1, 2) of radius 4, exactly", top.Visible)
	}
	front, err := Project(ps, Views[0])
	if err != nil {
		t.Fatal(err)
	}
	if b := bounds2(front.Visible); b.Min.Sub(geom.Vec{X: -3, Y: -2}).Len() > 1e-5 || b.Max.Sub(geom.Vec{X: 5, Y: 8}).Len() > 1e-5 {
		t.Errorf("from the front: %v to %v, want (-3, -2) to (5, 8)", b.Min, b.Max)
	}
}

// TestProjectAlongAxisHidden: a cylinder's exact circle seen from above is drawn only when
// nothing stands over it: a plate above half of it hides that half, which the hidden-line pass
// then draws dashed, and the plate, which nothing stands over, keeps its exact outline. A
// plate beside the cylinder, or under it, leaves the circle exact.
func TestProjectAlongAxisHidden(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		plate scene.Vec3 // the plate's centre; it is 4 wide, 20 deep, 2 high
		exact bool
	}{{"over half", scene.Vec3{4, 0, 12}, false}, {"beside", scene.Vec3{8, 0, 12}, true}, {"under", scene.Vec3{4, 0, -2}, true}} {
		sc := scene.New()
		cyl, err := ss.Cylinder(ctx, scene.Vec3{0, 0, 5}, 4, 4, 10, Facets{Segments: 32})
		if err != nil {
			t.Fatal(err)
		}
		plate, err := ss.Box(ctx, c.plate, 4, 20, 2)
		if err != nil {
			t.Fatal(err)
		}
		put(t, sc, "cyl", cyl)
		put(t, sc, "plate", plate)
		ps, ok, err := Lookup(sc, []string{"cyl", "plate"})
		if !ok || err != nil {
			t.Fatal(ok, err)
		}
		top, err := Project(ps, Views[1])
		if err != nil {
			t.Fatal(err)
		}
		circle := len(top.Visible.Circles) == 1 && top.Visible.Circles[0] == (scene.Circle{Radius: 4})
		if circle != c.exact {
			t.Errorf("%s: the exact circle drawn %v, want %v (visible %v)", c.name, circle, c.exact, top.Visible)
		}
		if c.exact {
			continue
		}
		// The hidden half lies under the plate, x from 2 to 4.
		hb := bounds2(top.Hidden)
		if hb.Min.X < 2-1e-3 || hb.Max.X > 4+1e-3 || hb.Max.Y-hb.Min.Y < 4 {
			t.Errorf("%s: hidden lines in %v to %v, want the circle's part under the plate (x 2 to 4)", c.name, hb.Min, hb.Max)
		}
		vb := bounds2(top.Visible)
		if vb.Min.X > -4+1e-2 || vb.Max.Y < 10-1e-6 {
			t.Errorf("%s: visible lines in %v to %v, want the circle's left and the plate", c.name, vb.Min, vb.Max)
		}
	}
}

// TestProjectNoScraps: an angle's L, extruded and drilled through its long leg by a 3D
// boolean, seen from the right, hides the hole's walls behind the leg's end, and leaves no
// scrap of line where a hidden edge ends on a visible one.
func TestProjectNoScraps(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	put(t, sc, "l", scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 50, Y: 0}, {X: 50, Y: 6}, {X: 6, Y: 6}, {X: 6, Y: 50}, {X: 0, Y: 50}}}}})
	body, err := ss.Extrude(ctx, sc, "l", 30, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "body", body)
	// Through the long leg, along y.
	drill, err := ss.Cylinder(ctx, scene.Vec3{22, 3, 15}, 3, 3, 18, Facets{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "drill", drill)
	if err := sc.Place3("drill", scene.Translation3(scene.Vec3{22, 3, 15}).Mul(scene.Affine3{1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0}).Mul(scene.Translation3(scene.Vec3{-22, -3, -15}))); err != nil {
		t.Fatal(err)
	}
	part, err := ss.Boolean(ctx, Difference, placedAs(t, sc, "body"), placedAs(t, sc, "drill"))
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "part", part)
	pj, err := Project(placedAs(t, sc, "part"), Views[2])
	if err != nil {
		t.Fatal(err)
	}
	if len(pj.Visible.Circles) != 0 {
		t.Errorf("from the right: circles %v, want none", pj.Visible.Circles)
	}
	// The outline, 50 by 30, and the short leg's face's edge at y = 6.
	if l := drawnLength(pj.Visible); math.Abs(l-190) > 1e-3 {
		t.Errorf("from the right: lines %v long, want 190: %v", l, pj.Visible.Polylines)
	}
	for _, pl := range append(pj.Visible.Polylines, pj.Hidden.Polylines...) {
		if l := drawnLength(Lines{Polylines: [][]geom.Vec{pl}}); l < 1e-3 {
			t.Errorf("a scrap of line: %v", pl)
		}
	}
	if len(pj.Hidden.Polylines) != 2 {
		t.Errorf("hidden %v, want the hole's two walls", pj.Hidden.Polylines)
	}
}

// drawnLength is the length of a drawing's polylines.
func drawnLength(l Lines) float64 {
	total := 0.0
	for _, pl := range l.Polylines {
		for i := 1; i < len(pl); i++ {
			total += pl[i].Sub(pl[i-1]).Len()
		}
	}
	return total
}

// TestCircleOfUnevenChords: a closed run of chords whose corners crowd on one side of their
// circle (a boolean splits some chords and not others) is still that circle, centred where
// the circle is, not where the corners' mean is.
func TestCircleOfUnevenChords(t *testing.T) {
	var ring []geom.Vec
	for i := range 24 {
		a := 2 * math.Pi * float64(i) / 24
		ring = append(ring, geom.Vec{X: 7 + 3*math.Cos(a), Y: -2 + 3*math.Sin(a)})
		if i < 6 { // split the first quarter's chords in two
			b := a + math.Pi/24
			ring = append(ring, geom.Vec{X: 7 + 3*math.Cos(b), Y: -2 + 3*math.Sin(b)})
		}
	}
	c, ok := circleOf(ring, 1e-9)
	if !ok {
		t.Fatal("not taken for a circle")
	}
	if c.Center.Sub(geom.Vec{X: 7, Y: -2}).Len() > 1e-12 || math.Abs(c.Radius-3) > 1e-12 {
		t.Errorf("circle %+v, want about (7, -2) of radius 3", c)
	}
}

// TestProjectArcs: a rounded plate with a hole, extruded, seen along its axis is its profile
// exactly: four lines, four arcs of the corners' radius and the hole's circle. Its mesh alone
// (the form dropped, as a 3D boolean drops it) gives the same arcs from the chords, within the
// facets' tolerance, and the same circle.
func TestProjectArcs(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	put(t, sc, "outline", scene.RoundedRect{Center: geom.Vec{X: 10, Y: 5}, Width: 60, Height: 30, Radius: 6})
	put(t, sc, "hole", scene.Circle{Center: geom.Vec{X: 10, Y: 5}, Radius: 4})
	if _, err := sc.Boolean(scene.Difference, []string{"outline"}, []string{"hole"}, "profile"); err != nil {
		t.Fatal(err)
	}
	sd, err := ss.Extrude(ctx, sc, "profile", 5, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "plate", sd)
	for _, c := range []struct {
		name  string
		ps    []Placed
		exact bool
	}{
		{"form", placedAs(t, sc, "plate"), true},
		{"mesh", withoutForm(placedAs(t, sc, "plate")), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			pj, err := Project(c.ps, Views[1])
			if err != nil {
				t.Fatal(err)
			}
			v := pj.Visible
			if len(v.Arcs) != 4 || len(v.Circles) != 1 || len(v.Polylines) != 4 {
				t.Fatalf("from above: %d arcs, %d circles, %d polylines; want 4, 1, 4: %+v", len(v.Arcs), len(v.Circles), len(v.Polylines), v)
			}
			tol := 1e-12
			if !c.exact {
				tol = 1e-5
			}
			for _, a := range v.Arcs {
				sweep := math.Mod(a.End-a.Start+4*math.Pi, 2*math.Pi)
				if math.Abs(a.Radius-6) > tol || math.Abs(sweep-math.Pi/2) > 1e-3 {
					t.Errorf("a corner arc of radius %v sweeping %v, want 6 and a quarter turn", a.Radius, sweep)
				}
				if d := math.Abs(a.Center.X-10) + math.Abs(a.Center.Y-5); math.Abs(d-(24+9)) > 1e-3 {
					t.Errorf("a corner arc about %v, want the corners' centres (10 ± 24, 5 ± 9)", a.Center)
				}
			}
			if ci := v.Circles[0]; ci.Center.Sub(geom.Vec{X: 10, Y: 5}).Len() > tol || math.Abs(ci.Radius-4) > tol {
				t.Errorf("the hole %+v", ci)
			}
		})
	}
}
