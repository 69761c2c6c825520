package solid

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// session starts a session for a test, skipping when the binary has no kernel.
func session(t *testing.T) *Session {
	t.Helper()
	ss := New(Options{})
	if _, err := ss.kernel(context.Background()); errors.Is(err, ErrNoKernel) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close(context.Background()) })
	return ss
}

func put(t *testing.T, sc *scene.Scene, name string, sh scene.Shape) {
	t.Helper()
	if _, err := sc.Put(name, sh); err != nil {
		t.Fatal(err)
	}
}

func near(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s = %.15g, want %.15g (within %g relative; off by %.3g)", what, got, want, rel, math.Abs(got-want)/math.Abs(want))
	}
}

// TestExtrudedPlate: a rounded plate with filleted corners and two holes, extruded. Its
// volume is the profile's exact area times the height; the mesh's agrees to the facets.
func TestExtrudedPlate(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	const w, h, r, hole, thick = 80.0, 40.0, 6.0, 4.0, 5.0
	put(t, sc, "outline", scene.RoundedRect{Center: geom.Vec{}, Width: w, Height: h, Radius: r})
	put(t, sc, "h1", scene.Circle{Center: geom.Vec{X: -25}, Radius: hole})
	put(t, sc, "h2", scene.Circle{Center: geom.Vec{X: 25}, Radius: hole})
	if _, err := sc.Boolean(scene.Difference, []string{"outline"}, []string{"h1", "h2"}, "plate"); err != nil {
		t.Fatal(err)
	}
	sd, err := ss.Extrude(ctx, sc, "plate", thick, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	area := w*h - (4-math.Pi)*r*r - 2*math.Pi*hole*hole
	m := Measure(Placed{Solid: sd, World: scene.Identity3})
	if !m.VolumeExact || !m.SurfaceExact {
		t.Fatalf("an extrusion of a profile with arcs has closed forms: %+v", m)
	}
	near(t, "volume", m.Volume, area*thick, 1e-12)
	perimeter := 2*(w+h) - 8*r + 2*math.Pi*r + 2*2*math.Pi*hole
	near(t, "surface", m.Surface, 2*area+perimeter*thick, 1e-12)
	v, _ := meshMeasures(sd.Mesh, scene.Identity3)
	near(t, "the mesh's volume", v, area*thick, 2e-4)
	box := sd.Bounds3(scene.Identity3)
	if box.Min[2] != 0 || box.Max[2] != thick || math.Abs(box.Max[0]-w/2) > 1e-5 {
		t.Errorf("bounds %v", box)
	}
}

// TestRevolvedRing: a circle of radius r at distance R from the axis, turned a whole turn,
// is a torus of volume 2π²Rr² (Pappus); half a turn is half of it.
func TestRevolvedRing(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	const R, r = 20.0, 3.0
	put(t, sc, "section", scene.Circle{Center: geom.Vec{X: R, Y: 5}, Radius: r})
	for _, turn := range []float64{0, math.Pi} {
		sd, err := ss.Revolve(ctx, sc, "section", RevolveOptions{Angle: turn})
		if err != nil {
			t.Fatal(err)
		}
		want := 2 * math.Pi * math.Pi * R * r * r
		if turn != 0 {
			want /= 2
		}
		m := Measure(Placed{Solid: sd, World: scene.Identity3})
		if !m.VolumeExact {
			t.Fatal("a revolved circle's volume is Pappus'")
		}
		near(t, "volume", m.Volume, want, 1e-12)
		v, _ := meshMeasures(sd.Mesh, scene.Identity3)
		// The chords of the section and of the turn lie within the default tolerance, 0.01.
		near(t, "the mesh's volume", v, want, 1e-2)
		if b := sd.Bounds3(scene.Identity3); math.Abs(b.Max[2]-(5+r)) > DefaultAbsTolerance || math.Abs(b.Min[2]-(5-r)) > DefaultAbsTolerance {
			t.Errorf("the profile's Y becomes Z: bounds %v", b)
		}
	}
	put(t, sc, "across", scene.Circle{Center: geom.Vec{X: 1}, Radius: 3})
	if _, err := ss.Revolve(ctx, sc, "across", RevolveOptions{}); !errors.Is(err, scene.ErrBadGeometry) {
		t.Errorf("a profile across the axis: %v", err)
	}
}

// TestBoxMinusPrism: a box minus an n-gon cylinder is, on its mesh, exactly the box minus the
// n-gon prism.
func TestBoxMinusPrism(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	box, err := ss.Box(ctx, scene.Vec3{0, 0, 0}, 40, 30, 10)
	if err != nil {
		t.Fatal(err)
	}
	const n, r = 12, 5.0
	cyl, err := ss.Cylinder(ctx, scene.Vec3{3, -2, 0}, r, r, 20, Facets{Segments: n})
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "box", box)
	put(t, sc, "pin", cyl)
	translateZ(t, sc, "pin")
	a, ok, err := Lookup(sc, []string{"box"})
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	b, _, _ := Lookup(sc, []string{"pin"})
	cut, err := ss.Boolean(ctx, Difference, a, b)
	if err != nil {
		t.Fatal(err)
	}
	m := Measure(Placed{Solid: cut, World: scene.Identity3})
	if m.VolumeExact {
		t.Error("a boolean's volume is measured on its mesh")
	}
	prism := n / 2.0 * r * r * math.Sin(2*math.Pi/n) * 10
	near(t, "volume", m.Volume, 40*30*10-prism, 1e-6)
	// A boolean's result is the next one's operand with no copy back into the kernel.
	put(t, sc, "cut", cut)
	c, _, _ := Lookup(sc, []string{"cut"})
	if _, own, err := ss.operand(ctx, c[0].Solid, c[0].World); err != nil || own {
		t.Errorf("the kept copy was not reused: own %v, %v", own, err)
	}
	gap, err := ss.Gap(ctx, a[0], b[0])
	if err != nil || gap != 0 {
		t.Errorf("the box and its pin touch: gap %v, %v", gap, err)
	}
	over, err := ss.Overlap(ctx, a[0], b[0])
	if err != nil {
		t.Fatal(err)
	}
	near(t, "interference", over, prism, 1e-6)
}

// translateZ moves the pin nowhere in z; it checks that a placement the tree gives (a 2D move)
// reaches the boolean.
func translateZ(t *testing.T, sc *scene.Scene, name string) {
	t.Helper()
	if err := sc.Translate(name, geom.Vec{X: 0, Y: 0}, scene.SpaceWorld); err != nil {
		t.Fatal(err)
	}
}

func TestMixedRefused(t *testing.T) {
	ss := session(t)
	sc := scene.New()
	b, err := ss.Box(context.Background(), scene.Vec3{}, 1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "cube", b)
	put(t, sc, "disc", scene.Circle{Radius: 1})
	if _, _, err := Lookup(sc, []string{"cube", "disc"}); !errors.Is(err, ErrMixed) {
		t.Errorf("a solid with a 2D shape: %v", err)
	}
	if _, ok, err := Lookup(sc, []string{"disc"}); ok || err != nil {
		t.Errorf("2D shapes alone go to the 2D operation: %v %v", ok, err)
	}
	if _, err := ss.Sphere(context.Background(), scene.Vec3{}, 1, Facets{Segments: 1e9}); !errors.Is(err, scene.ErrLimit) {
		t.Errorf("1e9 segments: %v", err)
	}
}

// TestKeptCopies: every solid a boolean takes that was made or used lately is the kernel's
// kept copy (W5's 200 holes go in with no copy back), and the copies kept stay within their
// triangle budget beside the newest, least recently used freed first.
func TestKeptCopies(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	cylinder := func(x float64) *scene.Solid {
		t.Helper()
		sd, err := ss.Cylinder(ctx, scene.Vec3{x, 0, 0}, 2, 2, 8, Facets{Segments: 64})
		if err != nil {
			t.Fatal(err)
		}
		return sd
	}
	kept := func(sd *scene.Solid) bool {
		t.Helper()
		_, own, err := ss.operand(ctx, sd, scene.Identity3)
		if err != nil {
			t.Fatal(err)
		}
		return !own
	}
	var holes []*scene.Solid
	for i := range 200 {
		holes = append(holes, cylinder(float64(6*i)))
	}
	for i, sd := range holes {
		if !kept(sd) {
			t.Fatalf("hole %d of 200 was copied back into the kernel", i)
		}
	}

	// Under a budget of six cylinders (252 triangles each: the one about the origin they are
	// moved from, and five), the sixth made frees the least recently used: not a, used
	// since, but b.
	ss.maxLiveTriangles = 6 * 252
	a, b := cylinder(0), cylinder(6)
	rest := []*scene.Solid{cylinder(12), cylinder(18), cylinder(24)}
	if len(ss.live) != 6 || ss.liveTriangles != 6*252 {
		t.Fatalf("%d copies of %d triangles kept, want the origin's and the last 5, 1,512", len(ss.live), ss.liveTriangles)
	}
	kept(a)
	cylinder(30)
	if kept(b) {
		t.Error("b, the least recently used, is still kept")
	}
	if !kept(a) || !kept(rest[0]) {
		t.Error("a copy used or made lately was freed")
	}
	// A solid over the whole budget is kept alone, as the next operation's operand.
	big, err := ss.Sphere(ctx, scene.Vec3{}, 10, Facets{Segments: 64})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss.live) != 1 || ss.live[0].key != big {
		t.Errorf("after a solid of %d triangles, %d copies kept, want it alone", len(big.Mesh.Triangles)/3, len(ss.live))
	}
}

// TestKeptCopiesAfterFailure: a kernel failure (here its memory cap) ends the instance and
// the copies kept in it; the session then makes or copies the solids again rather than
// answering that they no longer exist.
func TestKeptCopiesAfterFailure(t *testing.T) {
	ctx := context.Background()
	ss := New(Options{MaxMemory: 32 << 20})
	if _, err := ss.kernel(ctx); errors.Is(err, ErrNoKernel) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	defer ss.Close(ctx)
	sc := scene.New()
	box, err := ss.Box(ctx, scene.Vec3{}, 10, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	put(t, sc, "box", box)
	if _, err := ss.Sphere(ctx, scene.Vec3{}, 10, Facets{Segments: 1000}); !errors.Is(err, scene.ErrLimit) {
		t.Fatalf("a 1000-segment sphere under a 32 MiB kernel: %v, want the memory limit", err)
	}
	pin, err := ss.Cylinder(ctx, scene.Vec3{}, 1, 1, 20, Facets{Segments: 16})
	if err != nil {
		t.Fatalf("a cylinder after the failure: %v", err)
	}
	put(t, sc, "pin", pin)
	again, err := ss.Box(ctx, scene.Vec3{1, 0, 0}, 10, 10, 10)
	if err != nil {
		t.Fatalf("the same box after the failure: %v", err)
	}
	put(t, sc, "again", again)
	a, _, _ := Lookup(sc, []string{"box", "again"})
	b, _, _ := Lookup(sc, []string{"pin"})
	if _, err := ss.Boolean(ctx, Difference, a, b); err != nil {
		t.Errorf("a boolean of a solid made before the failure: %v", err)
	}
}
