package solid

import (
	"context"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestClosestPoints: the closest points of two boxes lie on their facing sides, the gap apart;
// of two spheres, on the line between their centres, within the facets' tolerance.
func TestClosestPoints(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	a, err := ss.Box(ctx, scene.Vec3{0, 0, 0}, 10, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ss.Box(ctx, scene.Vec3{12.5, 3, 20}, 5, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := Placed{Solid: a, World: scene.Identity3}, Placed{Solid: b, World: scene.Identity3}
	gap, err := ss.Gap(ctx, pa, pb)
	if err != nil {
		t.Fatal(err)
	}
	// Apart by 5 in x (from 5 to 10) and 13 in z (from 5 to 18).
	near(t, "gap", gap, math.Hypot(5, 13), 1e-6)
	p, q, ok := ClosestPoints(pa, pb, gap)
	if !ok {
		t.Fatal("no closest points")
	}
	near(t, "their distance", math.Sqrt(dist2(p, q)), gap, 1e-6)
	if math.Abs(p[0]-5) > 1e-5 || math.Abs(p[2]-5) > 1e-5 || math.Abs(q[0]-10) > 1e-5 || math.Abs(q[2]-18) > 1e-5 {
		t.Errorf("closest points %v and %v; want on the edges x = 5, z = 5 and x = 10, z = 18", p, q)
	}
	// Swapped, the points swap (the edges face each other along a length: any pair across
	// it is closest).
	if q2, p2, ok := ClosestPoints(pb, pa, gap); !ok || math.Abs(p2[0]-5) > 1e-5 || math.Abs(q2[2]-18) > 1e-5 || math.Abs(math.Sqrt(dist2(p2, q2))-gap) > 1e-6*gap {
		t.Errorf("swapped: %v %v", p2, q2)
	}

	s1, err := ss.Sphere(ctx, scene.Vec3{0, 0, 0}, 5, Facets{})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := ss.Sphere(ctx, scene.Vec3{20, 0, 0}, 5, Facets{})
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := Placed{Solid: s1, World: scene.Identity3}, Placed{Solid: s2, World: scene.Identity3}
	gap, err = ss.Gap(ctx, p1, p2)
	if err != nil {
		t.Fatal(err)
	}
	p, q, ok = ClosestPoints(p1, p2, gap)
	if !ok {
		t.Fatal("no closest points of the spheres")
	}
	near(t, "the spheres' points' distance", math.Sqrt(dist2(p, q)), gap, 1e-6)
	if math.Abs(p[0]-5) > 0.05 || math.Abs(q[0]-15) > 0.05 || math.Hypot(p[1], p[2]) > 0.5 {
		t.Errorf("the spheres' closest points %v and %v; want near (5, 0, 0) and (15, 0, 0)", p, q)
	}
	// Touching or overlapping: no one pair of points.
	if _, _, ok := ClosestPoints(p1, p1, 0); ok {
		t.Error("a solid against itself has closest points")
	}
}

// TestOverlapOfPlacedSolids: a solid moved in z by its placement overlaps where it lies, not
// where a placement applied twice would put it.
func TestOverlapOfPlacedSolids(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	a, err := ss.Box(ctx, scene.Vec3{0, 0, 5}, 10, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ss.Box(ctx, scene.Vec3{0, 0, 5}, 10, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	up := b.Placed(scene.Translation3(scene.Vec3{0, 0, 8})) // from z = 8 to 18
	pa, pb := Placed{Solid: a, World: a.World(geom.Identity)}, Placed{Solid: up, World: up.World(geom.Identity)}
	v, err := ss.Overlap(ctx, pa, pb)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "the shared volume", v, 10*10*2, 1e-6)
}
