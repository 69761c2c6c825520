package scene

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// treeBounds is the scene's bounds as the recursive walk under WorldBounds finds them: each
// root's boundsUnder with its own map, unioned. Bounds walks the tree flat instead (Frame, so
// that writers get the local maps from the same walk) and must give the same box, bit for bit.
func treeBounds(s *Scene) geom.Box {
	var b geom.Box
	for e := range s.roots.all() {
		b.Union(s.boundsUnder(e, e.Transform.Matrix()))
	}
	return b
}

// sameBits reports whether two numbers are the same float64, signed zeros apart; any NaN is
// the same as any other (no writer shows a NaN's payload).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func sameBox(a, b geom.Box) bool {
	return a.NonEmpty == b.NonEmpty && sameBits(a.Min.X, b.Min.X) && sameBits(a.Min.Y, b.Min.Y) &&
		sameBits(a.Max.X, b.Max.X) && sameBits(a.Max.Y, b.Max.Y)
}

func sameAffine(a, b geom.Affine) bool {
	return sameBits(a.A, b.A) && sameBits(a.B, b.B) && sameBits(a.C, b.C) && sameBits(a.D, b.D) &&
		sameBits(a.E, b.E) && sameBits(a.F, b.F)
}

// checkFlatBounds compares Bounds and Frame with treeBounds, the local maps with each
// entity's Transform.Matrix in Walk order, and half the frame's stroke width with what the
// SVG writer's framing found on a walk of its own before Frame (the largest half width).
func checkFlatBounds(t *testing.T, what string, s *Scene) {
	t.Helper()
	want := treeBounds(s)
	if got := s.Bounds(); !sameBox(got, want) {
		t.Fatalf("%s: Bounds = %#v, the tree walk gives %#v", what, got, want)
	}
	for _, keep := range []bool{false, true} {
		f := s.Frame(keep)
		if !sameBox(f.Bounds, want) {
			t.Fatalf("%s: Frame(%v).Bounds = %#v, the tree walk gives %#v", what, keep, f.Bounds, want)
		}
		halfStroke := 0.0
		for _, e := range s.Walk() {
			if !e.IsGroup() && e.Style.Stroke != nil {
				halfStroke = math.Max(halfStroke, e.Style.StrokeWidth/2)
			}
		}
		if !sameBits(f.StrokeWidth/2, halfStroke) {
			t.Fatalf("%s: half of Frame(%v).StrokeWidth is %v, the largest half width %v", what, keep, f.StrokeWidth/2, halfStroke)
		}
		if !keep {
			if f.Locals != nil {
				t.Fatalf("%s: Frame(false) kept %d local maps", what, len(f.Locals))
			}
			continue
		}
		i := 0
		for _, e := range s.Walk() {
			if i >= len(f.Locals) {
				t.Fatalf("%s: %d local maps for %d entities", what, len(f.Locals), s.Len())
			}
			if m := e.Transform.Matrix(); !sameAffine(f.Locals[i], m) {
				t.Fatalf("%s: local map %d (%q) = %#v, its Transform.Matrix is %#v", what, i, e.Name, f.Locals[i], m)
			}
			i++
		}
		if i != len(f.Locals) {
			t.Fatalf("%s: %d local maps for %d entities", what, len(f.Locals), i)
		}
	}
}

// TestBoundsMatchesTreeWalk draws random scenes through the scene's operations (every kind
// of shape, polygons with holes, paths with curves and arcs, text; rotated, scaled, mirrored,
// moved, grouped and nested) and random scenes made straight from entities with numbers at
// the edges of the float range (some not finite), and checks Frame's one walk against the
// recursive one and the stroke walk it replaces.
func TestBoundsMatchesTreeWalk(t *testing.T) {
	t.Parallel()
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 17))
		checkFlatBounds(t, fmt.Sprintf("drawn scene %d", seed), drawnScene(t, rng))
		g := sceneGen{rng: rng, plain: true, nonFinite: seed%4 == 3}
		checkFlatBounds(t, fmt.Sprintf("generated scene %d", seed), validShapes(t, g.scene(12)))
	}
	checkFlatBounds(t, "empty scene", New())
}

// validShapes deletes the shapes Put would refuse from a generated scene.
func validShapes(t *testing.T, s *Scene) *Scene {
	t.Helper()
	var bad []string
	for _, e := range s.Walk() {
		if !e.IsGroup() && e.Shape.validate() != nil {
			bad = append(bad, e.Name)
		}
	}
	for _, name := range bad {
		if err := s.Delete(name); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// drawnScene draws up to 30 shapes and transforms and groups them at random, as a script would.
func drawnScene(t *testing.T, rng *rand.Rand) *Scene {
	t.Helper()
	s := New()
	// Numbers that make exact zeros and signed zeros in the matrices, and ordinary ones.
	num := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-9, 1e9}[rng.IntN(7)]
		case 1:
			return float64(rng.IntN(41) - 20)
		}
		return rng.NormFloat64() * 50
	}
	size := func() float64 { return 0.1 + rng.Float64()*20 }
	angle := func() float64 {
		if rng.IntN(2) == 0 {
			return float64(rng.IntN(9)-4) * math.Pi / 2
		}
		return rng.NormFloat64() * 4
	}
	vec := func() geom.Vec { return geom.Vec{X: num(), Y: num()} }
	ring := func(c geom.Vec, r float64, n int, cw bool) []geom.Vec {
		pts := make([]geom.Vec, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			if cw {
				a = -a
			}
			pts[i] = c.Add(geom.Vec{X: r * math.Cos(a), Y: r * math.Sin(a)})
		}
		return pts
	}
	shape := func() Shape {
		c := vec()
		switch rng.IntN(10) {
		case 0:
			return Circle{Center: c, Radius: size()}
		case 1:
			return Ellipse{Center: c, RX: size(), RY: size()}
		case 2:
			return Rect{Center: c, Width: size(), Height: size()}
		case 3:
			w, h := size(), size()
			return RoundedRect{Center: c, Width: w, Height: h, Radius: math.Min(w, h) / 4}
		case 4:
			a := angle()
			return Arc{Center: c, Radius: size(), Start: a, End: a + []float64{-1, 1}[rng.IntN(2)]*(0.1+rng.Float64()*6)}
		case 5:
			return Line{Points: ring(c, size(), 2+rng.IntN(5), false)}
		case 6:
			r := size()
			part := PolygonPart{Outer: ring(c, r, 3+rng.IntN(6), false)}
			for range rng.IntN(3) {
				part.Holes = append(part.Holes, ring(c.Add(geom.Vec{X: r * (rng.Float64() - 0.5), Y: 0}), r/4, 3+rng.IntN(4), true))
			}
			return Polygon{Parts: []PolygonPart{part}}
		case 7:
			return &PathShape{Data: fmt.Sprintf("M %g %g C %g %g %g %g %g %g Q %g %g %g %g A %g %g %g 0 1 %g %g Z",
				c.X, c.Y, num(), num(), num(), num(), num(), num(), num(), num(), num(), num(),
				size(), size(), num(), num(), num())}
		case 8:
			return &Text{Text: []string{"Ag", "x", "Hello, world", "0"}[rng.IntN(4)], Pos: c, Size: size()}
		}
		return Rect{Center: c, Width: size(), Height: size()}
	}
	var names []string
	for i := range 1 + rng.IntN(30) {
		name := "e" + strconv.Itoa(i)
		if _, err := s.Put(name, shape()); err != nil {
			t.Fatalf("drawing %s: %v", name, err)
		}
		names = append(names, name)
	}
	space := func() Space { return []Space{SpaceWorld, SpaceLocal}[rng.IntN(2)] }
	for i := range rng.IntN(40) {
		name := names[rng.IntN(len(names))]
		var err error
		switch rng.IntN(6) {
		case 0:
			err = s.Rotate(name, angle(), space())
		case 1:
			sx, sy := []float64{-1, 0.5, 2, 3}[rng.IntN(4)], []float64{-1, 0.25, 1, 2}[rng.IntN(4)]
			var around *geom.Vec
			if rng.IntN(2) == 0 {
				v := vec()
				around = &v
			}
			err = s.Scale(name, sx, sy, space(), around)
		case 2:
			err = s.Translate(name, vec(), space())
		case 3:
			err = s.SetPivot(name, vec())
		default:
			// A new group of up to three top-level entities, which may be groups themselves.
			roots := s.Roots()
			var members []string
			for range 1 + rng.IntN(3) {
				if m := roots[rng.IntN(len(roots))]; !slices.Contains(members, m) {
					members = append(members, m)
				}
			}
			g := "g" + strconv.Itoa(i)
			if _, err = s.CreateGroup(g, members); err == nil {
				names = append(names, g)
			}
		}
		if err != nil {
			t.Fatalf("changing %s: %v", name, err)
		}
	}
	return s
}

// TestHugeArcAngles: an arc whose angles are so large that adding a half turn leaves them as
// they are is drawn and bounded like any other (finding its extrema never ended).
func TestHugeArcAngles(t *testing.T) {
	t.Parallel()
	for _, a := range []Arc{{Radius: 1, Start: 1e300, End: 1}, {Radius: 2, Start: -1e17, End: 1e17}} {
		s := New()
		e, err := s.Put("a", a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		if b := s.WorldBounds(e); !b.NonEmpty || b.Size().X > 2*a.Radius || b.Size().Y > 2*a.Radius {
			t.Errorf("%+v: bounds %+v, want a box inside the circle's", a, b)
		}
	}
}
