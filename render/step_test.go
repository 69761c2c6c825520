package render

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/solid"
)

// stepCase is a scene of solids a STEP is checked on: how each solid must come out (exact
// or faceted), the volume a reader must find, and the faces by surface type.
type stepCase struct {
	name   string
	sc     *scene.Scene
	exact  bool
	volume float64
	faces  map[string]int // FreeCAD's surface class names: Plane, Cylinder, Cone, Toroid, Sphere
	solids int
	names  []string // the solids' names as FreeCAD labels them, when checked
}

// kernelSession is a solid session for a test, skipped where the kernel cannot run.
func kernelSession(t *testing.T) *solid.Session {
	t.Helper()
	ss := solid.New(solid.Options{})
	if _, err := ss.Box(context.Background(), scene.Vec3{}, 1, 1, 1); errors.Is(err, solid.ErrNoKernel) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close(context.Background()) })
	return ss
}

// stepCases are the parts the STEP writer is checked on: a plate with holes extruded, a
// revolved ring (a torus), a quarter of it, a cone, a sphere, the plate turned, mirrored and
// scaled (still exact), the plate stretched (faceted), a box drilled by a 3D boolean
// (faceted), several at once, and the examples' solids.
func stepCases(t *testing.T) []stepCase {
	t.Helper()
	ss := kernelSession(t)
	ctx := context.Background()
	profiles := scene.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	put := func(sc *scene.Scene, name string, sh scene.Shape) {
		t.Helper()
		_, err := sc.Put(name, sh)
		must(err)
	}
	put(profiles, "outline", scene.RoundedRect{Center: geom.Vec{X: 10, Y: 5}, Width: 60, Height: 30, Radius: 5})
	put(profiles, "h1", scene.Circle{Center: geom.Vec{X: -5, Y: 5}, Radius: 4})
	put(profiles, "h2", scene.Circle{Center: geom.Vec{X: 25, Y: 5}, Radius: 4})
	_, err := profiles.Boolean(scene.Difference, []string{"outline"}, []string{"h1", "h2"}, "plate")
	must(err)
	put(profiles, "c1", scene.Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 3})
	put(profiles, "c2", scene.Circle{Center: geom.Vec{X: 10, Y: 0}, Radius: 3})
	_, err = profiles.Boolean(scene.Union, []string{"c1", "c2"}, nil, "pair")
	must(err)
	put(profiles, "tube", scene.Circle{Center: geom.Vec{X: 20, Y: 3}, Radius: 5})
	put(profiles, "block", scene.Rect{Center: geom.Vec{X: 5, Y: 0}, Width: 10, Height: 6})
	put(profiles, "half", scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: 0, Y: -6}, {X: 0, Y: 6}}, OuterBulges: []float64{1, 0}}}})
	// A quarter arc, then an edge of 5e-9 (under scene.EmptyEdge of the profile's size, 10),
	// as a boolean leaves where an arc meets a line: the form drops it, and no face of no
	// width is written for it.
	put(profiles, "seam", scene.Polygon{Parts: []scene.PolygonPart{{
		Outer:       []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 5}, {X: 5, Y: 10}, {X: 5 - 5e-9, Y: 10}, {X: 0, Y: 10}},
		OuterBulges: []float64{0, 0, math.Tan(math.Pi / 8), 0, 0, 0},
	}}})
	mk := func(f func() (*scene.Solid, error)) *scene.Solid {
		t.Helper()
		sd, err := f()
		must(err)
		return sd
	}
	plate := mk(func() (*scene.Solid, error) { return ss.Extrude(ctx, profiles, "plate", 8, solid.ExtrudeOptions{}) })
	pair := mk(func() (*scene.Solid, error) { return ss.Extrude(ctx, profiles, "pair", 4, solid.ExtrudeOptions{}) })
	ring := mk(func() (*scene.Solid, error) { return ss.Revolve(ctx, profiles, "tube", solid.RevolveOptions{}) })
	quarter := mk(func() (*scene.Solid, error) {
		return ss.Revolve(ctx, profiles, "tube", solid.RevolveOptions{Angle: math.Pi / 2})
	})
	wedge := mk(func() (*scene.Solid, error) {
		return ss.Revolve(ctx, profiles, "block", solid.RevolveOptions{Angle: 1.5 * math.Pi})
	})
	segment := mk(func() (*scene.Solid, error) {
		return ss.Revolve(ctx, profiles, "half", solid.RevolveOptions{Angle: 2 * math.Pi / 3})
	})
	seam := mk(func() (*scene.Solid, error) { return ss.Extrude(ctx, profiles, "seam", 3, solid.ExtrudeOptions{}) })
	if n := len(seam.Form.Profile.Parts[0].Outer); n != 5 {
		t.Fatalf("the seam's profile keeps %d points, want 5: the edge of 5e-9 dropped", n)
	}
	cone := mk(func() (*scene.Solid, error) { return ss.Cylinder(ctx, scene.Vec3{3, 4, 5}, 10, 0, 20, solid.Facets{}) })
	frustum := mk(func() (*scene.Solid, error) { return ss.Cylinder(ctx, scene.Vec3{0, 0, 0}, 6, 9, 12, solid.Facets{}) })
	ball := mk(func() (*scene.Solid, error) { return ss.Sphere(ctx, scene.Vec3{1, 2, 3}, 7, solid.Facets{}) })
	box := mk(func() (*scene.Solid, error) { return ss.Box(ctx, scene.Vec3{}, 20, 20, 20) })
	pin := mk(func() (*scene.Solid, error) { return ss.Cylinder(ctx, scene.Vec3{}, 5, 5, 30, solid.Facets{}) })
	drilled := mk(func() (*scene.Solid, error) {
		return ss.Boolean(ctx, solid.Difference, []solid.Placed{{Name: "box", Solid: box, World: box.Place}}, []solid.Placed{{Name: "pin", Solid: pin, World: pin.Place}})
	})
	if drilled.Form != nil {
		t.Fatal("a 3D boolean kept a form")
	}

	one := func(name string, sd *scene.Solid, faces map[string]int, edit func(sc *scene.Scene)) stepCase {
		t.Helper()
		c := stepCase{name: name, sc: scene.New(), exact: sd.Form != nil, faces: faces, solids: 1}
		put(c.sc, name, sd)
		if edit != nil {
			edit(c.sc)
		}
		c.volume = stepVolume(c.sc)
		return c
	}
	plateFaces := map[string]int{"Plane": 6, "Cylinder": 8} // four rounded corners, two holes of two halves
	cases := []stepCase{
		one("plate", plate, plateFaces, nil),
		func() stepCase {
			c := one("pair", pair, map[string]int{"Plane": 4, "Cylinder": 4}, nil)
			c.solids = 2 // two pins from one profile of two parts: one product of two solids
			return c
		}(),
		one("ring", ring, map[string]int{"Toroid": 4}, nil),
		one("quarter", quarter, map[string]int{"Toroid": 2, "Plane": 2}, nil),
		one("wedge", wedge, map[string]int{"Plane": 6, "Cylinder": 2}, nil),
		one("segment", segment, map[string]int{"Sphere": 1, "Plane": 2}, nil),
		one("seam", seam, map[string]int{"Plane": 6, "Cylinder": 1}, nil),
		one("cone", cone, map[string]int{"Cone": 2, "Plane": 2}, nil),
		one("frustum", frustum, map[string]int{"Cone": 2, "Plane": 4}, nil),
		one("ball", ball, map[string]int{"Sphere": 2}, nil),
		one("placed", plate.Placed(turnedMirrored), plateFaces, func(sc *scene.Scene) {
			must(sc.Rotate("placed", 0.7, scene.SpaceWorld))
			must(sc.Scale("placed", -1, 1, scene.SpaceWorld, nil))
		}),
		one("turned", ring.Placed(scene.Affine3{1, 0, 0, 0, 0, math.Cos(0.4), -math.Sin(0.4), 0, 0, math.Sin(0.4), math.Cos(0.4), 2}),
			map[string]int{"Toroid": 4}, func(sc *scene.Scene) { must(sc.Scale("turned", 1, -1, scene.SpaceWorld, nil)) }),
		one("stretched", plate, nil, func(sc *scene.Scene) { must(sc.Scale("stretched", 2, 1, scene.SpaceWorld, nil)) }),
		one("drilled", drilled, nil, nil),
		// Turned about a slanting axis: its flat faces' corners are float32 world points off
		// every axis, which lie on their planes only within rounding.
		one("drilled-turned", drilled.Placed(scene.Affine3{math.Cos(0.3), 0, math.Sin(0.3), 4, math.Sin(0.3) * math.Sin(0.4), math.Cos(0.4), -math.Cos(0.3) * math.Sin(0.4), -2, -math.Sin(0.3) * math.Cos(0.4), math.Sin(0.4), math.Cos(0.3) * math.Cos(0.4), 7}), nil, nil),
	}
	for i := range cases {
		if cases[i].name == "stretched" {
			cases[i].exact = false
		}
		if !cases[i].exact {
			cases[i].faces = map[string]int{"Plane": flatFaces(cases[i].sc)}
		}
	}
	all := stepCase{name: "several", sc: scene.New(), exact: true, faces: map[string]int{}, solids: 3,
		names: []string{"plate", "ring", "quarter Ø 'A'"}}
	for i, c := range []stepCase{cases[0], cases[2], cases[3]} {
		put(all.sc, all.names[i], c.sc.Solids()[0].Entity.Shape)
		for k, n := range c.faces {
			all.faces[k] += n
		}
	}
	all.volume = stepVolume(all.sc)
	cases = append(cases, all)
	ex, err := examples.SolidScenes(os.DirFS(filepath.Join("..", "examples")))
	must(err)
	for name, sc := range ex {
		c := stepCase{name: strings.ReplaceAll(name, " ", "-"), sc: sc, volume: stepVolume(sc), faces: map[string]int{}}
		c.exact = true
		for _, it := range sc.Solids() {
			c.solids++
			if w := stepWayOf(it); w.brep == nil {
				c.exact = false
				c.faces["Plane"] += len(facetedBrep(it).faces)
			}
		}
		if c.exact {
			c.faces = nil // an example's exact faces are not pinned here
		}
		cases = append(cases, c)
	}
	return cases
}

// flatFaces is the planar faces sc's faceted solids are written as: FreeCAD must read as
// many (TestSTEPFacetsMerged checks the merging itself).
func flatFaces(sc *scene.Scene) int {
	n := 0
	for _, it := range sc.Solids() {
		n += len(facetedBrep(it).faces)
	}
	return n
}

// TestSTEPFacetsMerged: a box drilled by a 3D boolean is written as its six sides, the top
// and bottom each with the hole as a second loop, and one face for each flat wall of the hole
// (the pin's segments: the triangles with every corner on its circle, two a wall); every edge
// bounds two faces, and every face's corners lie on its plane.
func TestSTEPFacetsMerged(t *testing.T) {
	var drilled stepCase
	for _, c := range stepCases(t) {
		if c.name == "drilled" {
			drilled = c
		}
	}
	it := drilled.sc.Solids()[0]
	onHole := 0
	wv, _ := worldVertices(it)
	tris := it.Entity.Shape.(*scene.Solid).Mesh.Triangles
	for t := range len(tris) / 3 {
		on := true
		for _, i := range tris[3*t : 3*t+3] {
			on = on && math.Abs(math.Hypot(float64(wv[3*i]), float64(wv[3*i+1]))-5) < 1e-4
		}
		if on {
			onHole++
		}
	}
	b := facetedBrep(it)
	loops := map[int]int{}
	for _, f := range b.faces {
		loops[len(f.loops)]++
		for _, l := range f.loops {
			for _, u := range l {
				q := b.verts[b.edges[u.edge].a]
				if d := math.Abs(dot3(sub3(q, f.surf.loc), f.surf.axis)); d > 1e-5 {
					t.Errorf("a corner %v lies %g off its face's plane", q, d)
				}
			}
		}
	}
	if walls := onHole / 2; walls < 8 || len(b.faces) != 6+walls || loops[2] != 2 || loops[1] != len(b.faces)-2 {
		t.Errorf("%d faces, by number of loops %v: want the box's six (two with a hole) and the hole's %d walls", len(b.faces), loops, walls)
	}
	uses := map[int]int{}
	for _, f := range b.faces {
		for _, l := range f.loops {
			for _, u := range l {
				uses[u.edge]++
			}
		}
	}
	for e, n := range uses {
		if n != 2 {
			t.Errorf("edge %d bounds %d faces, want 2", e, n)
		}
	}
	if len(uses) != len(b.edges) {
		t.Errorf("%d edges made, %d used", len(b.edges), len(uses))
	}
}

// stepVolume is the volume a STEP of sc must have: each exact solid's form's closed form
// through its world map, each faceted one's triangles as written (world float32 vertices).
func stepVolume(sc *scene.Scene) float64 {
	v := 0.0
	for _, it := range sc.Solids() {
		if w := stepWayOf(it); w.brep != nil {
			v += it.Entity.Shape.(*scene.Solid).Form.Volume() * math.Abs(it.World.Det())
			continue
		}
		// The mesh's triangles through the world map, float32 as written: not the faces
		// written, which merge them.
		wv, mirrored := worldVertices(it)
		tris := it.Entity.Shape.(*scene.Solid).Mesh.Triangles
		for t := range len(tris) / 3 {
			i, j, k := triangle(tris, t, mirrored)
			p := func(i uint32) scene.Vec3 { return scene.Vec3{float64(wv[3*i]), float64(wv[3*i+1]), float64(wv[3*i+2])} }
			a, bb, c := p(i), p(j), p(k)
			v += (a[0]*(bb[1]*c[2]-bb[2]*c[1]) - a[1]*(bb[0]*c[2]-bb[2]*c[0]) + a[2]*(bb[0]*c[1]-bb[1]*c[0])) / 6
		}
	}
	return v
}

// TestSTEPWays: a solid a sweep made is written exact under a move, a turn, a mirror or an
// even scale, and faceted when its map stretches it or a 3D boolean made it; the answer
// names each.
func TestSTEPWays(t *testing.T) {
	t.Parallel()
	for _, c := range stepCases(t) {
		if strings.Contains(c.name, "-") {
			continue // the examples
		}
		t.Run(c.name, func(t *testing.T) {
			for _, it := range c.sc.Solids() {
				if got := stepWayOf(it).brep != nil; got != c.exact {
					t.Errorf("%s written exact: %v, want %v (%s)", it.Entity.Name, got, c.exact, stepWayOf(it).why)
				}
			}
			f, err := ByExt("x.step")
			if err != nil {
				t.Fatal(err)
			}
			note := f.LeftOut(c.sc)
			want := "exact"
			if !c.exact {
				want = "faceted"
			}
			if !strings.Contains(note, want) || !strings.Contains(note, c.sc.Solids()[0].Entity.Name) {
				t.Errorf("the answer %q does not say %s of %s", note, want, c.name)
			}
		})
	}
}

// TestSTEPText: the file is ISO 10303-21 of the AP214 schema, numbers in STEP's form, names
// in STEP's strings, the same bytes each time.
func TestSTEPText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x    float64
		want string
	}{{0, "0."}, {math.Copysign(0, -1), "0."}, {1, "1."}, {-2.5, "-2.5"}, {1e-7, "1.E-07"}, {1.25e21, "1.25E+21"}, {123456, "123456."}} {
		if got := stepReal(c.x); got != c.want {
			t.Errorf("stepReal(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	if got, want := stepString(`it's a\b Ø`), `'it''s a\\b \X2\00D8\X0\'`; got != want {
		t.Errorf("stepString = %s, want %s", got, want)
	}
	c := stepCases(t)[0]
	b, err := STEP(c.sc, STEPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := STEP(c.sc, STEPOptions{})
	if string(again) != string(b) {
		t.Error("two STEPs of one scene differ")
	}
	text := string(b)
	for _, want := range []string{"ISO-10303-21;", "FILE_SCHEMA(('AUTOMOTIVE_DESIGN", "PRODUCT('plate','plate'", "MANIFOLD_SOLID_BREP('plate'",
		"CYLINDRICAL_SURFACE", "COLOUR_RGB", "SI_UNIT(.MILLI.,.METRE.)", "END-ISO-10303-21;\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the STEP has no %q", want)
		}
	}
	inches, err := STEP(c.sc, STEPOptions{Unit: UnitIn})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(inches), "CONVERSION_BASED_UNIT('INCH'") {
		t.Error("a STEP in inches does not say so")
	}
}

// TestSTEPFacetsLimit: a STEP whose faceted solids pass MaxSTEPFacets is refused naming the
// limit and the solids; exact solids do not count.
func TestSTEPFacetsLimit(t *testing.T) {
	t.Parallel()
	ss := kernelSession(t)
	ball, err := ss.Sphere(context.Background(), scene.Vec3{}, 10, solid.Facets{Segments: 500})
	if err != nil {
		t.Fatal(err)
	}
	sc := scene.New()
	if _, err := sc.Put("ball", ball); err != nil {
		t.Fatal(err)
	}
	if ball.Mesh.NumTriangles() <= MaxSTEPFacets {
		t.Fatalf("the sphere has %d triangles; the test wants more than %d", ball.Mesh.NumTriangles(), MaxSTEPFacets)
	}
	if _, err := STEP(sc, STEPOptions{}); err != nil {
		t.Fatalf("an exact sphere of many facets: %v", err)
	}
	if err := sc.Scale("ball", 2, 1, scene.SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	_, err = STEP(sc, STEPOptions{})
	if !errors.Is(err, ErrSTEPTooLarge) || !strings.Contains(err.Error(), "MaxSTEPFacets") || !strings.Contains(err.Error(), "ball") {
		t.Errorf("a stretched sphere of %d triangles: %v, want ErrSTEPTooLarge naming MaxSTEPFacets and the solid", ball.Mesh.NumTriangles(), err)
	}
	if _, err := STEP(scene.New(), STEPOptions{}); !errors.Is(err, ErrNoSolids) {
		t.Errorf("a scene without solids: %v, want ErrNoSolids", err)
	}
}

// BenchmarkSTEP writes a block drilled by a 3D boolean with fine holes (faceted) and the
// plate with holes (exact); bytes/facet and the allocations per facet are what the export
// tool reserves for a STEP (tools.stepBytesPerFacet).
func BenchmarkSTEP(b *testing.B) {
	ctx := context.Background()
	ss := solid.New(solid.Options{})
	defer ss.Close(ctx)
	box, err := ss.Box(ctx, scene.Vec3{}, 40, 40, 20)
	if errors.Is(err, solid.ErrNoKernel) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	pin, err := ss.Cylinder(ctx, scene.Vec3{}, 8, 8, 30, solid.Facets{Segments: 2000})
	if err != nil {
		b.Fatal(err)
	}
	drilled, err := ss.Boolean(ctx, solid.Difference, []solid.Placed{{Name: "box", Solid: box, World: box.Place}}, []solid.Placed{{Name: "pin", Solid: pin, World: pin.Place}})
	if err != nil {
		b.Fatal(err)
	}
	sc := scene.New()
	if _, err := sc.Put("drilled", drilled); err != nil {
		b.Fatal(err)
	}
	n := drilled.Mesh.NumTriangles()
	b.ReportAllocs()
	var size int
	for b.Loop() {
		out, err := STEP(sc, STEPOptions{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size)/float64(n), "bytes/facet")
	b.ReportMetric(float64(n), "facets")
}
