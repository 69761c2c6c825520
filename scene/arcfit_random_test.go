package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// TestArcFitRandom runs booleans and offsets of random circles, rounded rectangles,
// rectangles and arcs' pie slices and holds the exact area of each result (its arcs kept)
// against the same operation on the shapes flattened a thousand times finer than the area
// operations flatten them: the two differ by no more than the fine chords allow.
func TestArcFitRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(26, 1))
	for i := range max(1, *geometryCases/2) {
		s := New()
		var a, b []string
		for k := range 2 + rng.IntN(4) {
			name := fmt.Sprintf("s%d", k)
			if _, err := s.Put(name, randomCurvedShape(rng)); err != nil {
				t.Fatal(err)
			}
			if k%2 == 0 {
				a = append(a, name)
			} else {
				b = append(b, name)
			}
		}
		op := BoolOp(rng.IntN(4))
		name := fmt.Sprintf("case %d: %s of %v and %v", i, op, a, b)
		e, err := s.Boolean(op, a, b, "r")
		if err != nil {
			continue // empty results and the like are the booleans' own tests
		}
		checkFineArea(t, s, name, e, func(pa, pb []overlay.Polygon) ([]overlay.Polygon, error) {
			return kernel.Boolean(engineOps[op], pa, pb)
		}, a, b)
		delta := (rng.Float64() - 0.4) * 3
		if _, err := s.Offset("r", delta, "o", OffsetOptions{}); err == nil {
			got, _ := s.Area("o")
			per, _ := s.Perimeter("o")
			ref := fineOffsetArea(t, s, "r", delta)
			if !math.IsNaN(ref) && math.Abs(got-ref) > 2*fineTol*per+1e-9 {
				t.Errorf("%s, offset by %v: area %v, finely flattened %v", name, delta, got, ref)
				for _, n := range append(append([]string(nil), a...), b...) {
					x, _ := s.Get(n)
					t.Logf("  %s: %#v", n, x.Shape)
				}
			}
		}
	}
}

// randomCurvedShape is a circle, rounded rectangle, rectangle or pie slice in a 20 x 20 box.
func randomCurvedShape(rng *rand.Rand) Shape {
	c := geom.Vec{X: rng.Float64() * 20, Y: rng.Float64() * 20}
	switch rng.IntN(4) {
	case 0:
		return Circle{Center: c, Radius: 1 + rng.Float64()*6}
	case 1:
		w, h := 2+rng.Float64()*10, 2+rng.Float64()*10
		return RoundedRect{Center: c, Width: w, Height: h, Radius: rng.Float64() * min(w, h) / 2}
	case 2:
		return Rect{Center: c, Width: 2 + rng.Float64()*10, Height: 2 + rng.Float64()*10}
	}
	s := rng.Float64() * 2 * math.Pi
	return Arc{Center: c, Radius: 2 + rng.Float64()*5, Start: s, End: s + 0.5 + rng.Float64()*4}
}

// fineTol is the chord tolerance of the reference flattening: a thousandth of the area
// operations' in a drawing of this size.
const fineTol = 2e-5

// fineAreas is the area of the named entities' shapes flattened within fineTol.
func fineAreas(t *testing.T, s *Scene, names []string) []overlay.Polygon {
	t.Helper()
	var out []overlay.Polygon
	for _, n := range names {
		e, _ := s.Get(n)
		region, err := e.Shape.Region()
		if err != nil {
			t.Fatal(err)
		}
		world := region.Transform(s.WorldMatrix(e))
		var rings [][]overlay.Point
		for _, pl := range world.Flatten(fineTol) {
			if r := kernel.CleanRing(pl.Points); len(r) >= 3 {
				rings = append(rings, r)
			}
		}
		polys, err := overlay.Nonzero(rings)
		if err != nil {
			return nil // the reference itself failed
		}
		out = append(out, polys...)
	}
	return out
}

func checkFineArea(t *testing.T, s *Scene, name string, e *Entity, op func(a, b []overlay.Polygon) ([]overlay.Polygon, error), a, b []string) {
	t.Helper()
	res, err := op(fineAreas(t, s, a), fineAreas(t, s, b))
	if err != nil {
		return // the reference itself failed: nothing to compare with
	}
	ref := 0.0
	for _, p := range res {
		ref += p.Area()
	}
	got, err := s.Area(e.Name)
	if err != nil {
		t.Fatal(err)
	}
	// The fine chords stray by fineTol at most, along the result's boundary.
	per, _ := s.Perimeter(e.Name)
	if math.Abs(got-ref) > 2*fineTol*per+1e-9 {
		t.Errorf("%s: area %v, finely flattened %v (%+v)", name, got, ref, e.Shape)
		for _, n := range append(append([]string(nil), a...), b...) {
			x, _ := s.Get(n)
			t.Logf("  %s: %#v", n, x.Shape)
		}
	}
}

// fineOffsetArea is the area of the named entity's offset computed on its shape flattened
// finely, with joins of many chords.
func fineOffsetArea(t *testing.T, s *Scene, name string, delta float64) float64 {
	t.Helper()
	area := fineAreas(t, s, []string{name})
	res, err := overlay.Offset(area, delta, overlay.Join{Round: true, QuadSegments: 256})
	if err != nil {
		return math.NaN() // the reference itself failed: nothing to compare with
	}
	total := 0.0
	for _, p := range res {
		total += p.Area()
	}
	return total
}
