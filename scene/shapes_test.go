package scene

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// TestAppendOutlineMatchesOutline pins AppendOutline to Outline().Transform(m) bit for bit,
// for every kind and after a path that is already there: the SVG writer relies on it to draw
// the same bytes without building a path per entity.
func TestAppendOutlineMatchesOutline(t *testing.T) {
	t.Parallel()
	shapes := []Shape{
		Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 3.3, Y: 1}, {X: -2, Y: 7.1}}},
		Circle{Center: geom.Vec{X: 1.5, Y: -2}, Radius: 4},
		Rect{Center: geom.Vec{X: 0.1, Y: 0.2}, Width: 6, Height: 4},
		Ellipse{Center: geom.Vec{X: -3, Y: 2}, RX: 5, RY: 1.25},
		RoundedRect{Center: geom.Vec{X: 2, Y: 2}, Width: 10, Height: 6, Radius: 1.5},
		RoundedRect{Center: geom.Vec{X: 2, Y: 2}, Width: 10, Height: 6},
		Arc{Center: geom.Vec{X: 1, Y: 1}, Radius: 3, Start: 0.3, End: -2},
		Polygon{Parts: []PolygonPart{{
			Outer: []geom.Vec{{X: 0, Y: 0}, {X: 0, Y: 10}, {X: 10, Y: 10}, {X: 10, Y: 0}}, // clockwise: Outline turns it
			Holes: [][]geom.Vec{{{X: 2, Y: 2}, {X: 4, Y: 2}, {X: 4, Y: 4}, {X: 2, Y: 4}}},
		}}},
		&PathShape{Data: "M 0 0 L 5 0 Q 6 1 5 2 C 4 3 2 3 1 2 A 2 1 30 0 1 0 0 Z"},
		&Text{Text: "Ag", Size: 12},
	}
	maps := []geom.Affine{
		geom.Identity,
		geom.Translation(geom.Vec{X: 10, Y: -20}).Mul(geom.Rotation(0.7)).Mul(geom.Scaling(-1.5, 0.3)),
		geom.Rotation(math.Pi / 3).Mul(geom.Translation(geom.Vec{X: 1e-3, Y: 1e5})),
	}
	s := New()
	for i, sh := range shapes {
		e, err := s.Put(string(rune('a'+i)), sh)
		if err != nil {
			t.Fatalf("%T: %v", sh, err)
		}
		for _, m := range maps {
			prefix := geom.Path{{Kind: geom.SegMove, P: [3]geom.Vec{{X: 7, Y: 7}}}, {Kind: geom.SegClose}}
			want := append(append(geom.Path{}, prefix...), e.Shape.Outline().Transform(m)...)
			got := AppendOutline(prefix, e.Shape, m)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s under %v: mismatch (-want +got):\n%s", e.Kind(), m, diff)
			}
		}
	}
}

// TestTransformMovesUsedPoints: a mapped segment moves the points its kind uses and leaves
// the others as they were (a line's second and third are zero, as LineTo makes them).
func TestTransformMovesUsedPoints(t *testing.T) {
	t.Parallel()
	var p geom.Path
	p.MoveTo(geom.Vec{X: 1, Y: 2})
	p.LineTo(geom.Vec{X: 3, Y: 4})
	p.QuadTo(geom.Vec{X: 5, Y: 6}, geom.Vec{X: 7, Y: 8})
	p.CubicTo(geom.Vec{X: 1, Y: 0}, geom.Vec{X: 0, Y: 1}, geom.Vec{X: 1, Y: 1})
	p.ArcTo(geom.Vec{X: 2, Y: 2}, geom.Vec{X: 1, Y: 0}, geom.Vec{X: 0, Y: 1}, 0, 1)
	p.Close()
	m := geom.Translation(geom.Vec{X: 10, Y: 20})
	want := geom.Path{
		{Kind: geom.SegMove, P: [3]geom.Vec{{X: 11, Y: 22}}},
		{Kind: geom.SegLine, P: [3]geom.Vec{{X: 13, Y: 24}}},
		{Kind: geom.SegQuad, P: [3]geom.Vec{{X: 15, Y: 26}, {X: 17, Y: 28}}},
		{Kind: geom.SegCubic, P: [3]geom.Vec{{X: 11, Y: 20}, {X: 10, Y: 21}, {X: 11, Y: 21}}},
		{Kind: geom.SegArc, P: [3]geom.Vec{{X: 12, Y: 22}, {X: 1, Y: 0}, {X: 0, Y: 1}}, T1: 1},
		{Kind: geom.SegClose},
	}
	if diff := cmp.Diff(want, p.Transform(m)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// localBounds skips the matrix for circles and rectangles; it must give shapeBounds(sh,
// Identity) bit for bit (pivots are written to scene JSON), zeros' signs and overflows included.
func TestLocalBoundsMatchesIdentity(t *testing.T) {
	t.Parallel()
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, -0.3, 1e-310, -1e-310, 1e15, -1e15, 1e308, -1e308, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	rng := rand.New(rand.NewPCG(3, 5))
	pick := func() float64 {
		if rng.IntN(3) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(40)-20))
	}
	bits := func(b geom.Box) [5]uint64 {
		nb := uint64(0)
		if b.NonEmpty {
			nb = 1
		}
		return [5]uint64{math.Float64bits(b.Min.X), math.Float64bits(b.Min.Y), math.Float64bits(b.Max.X), math.Float64bits(b.Max.Y), nb}
	}
	for i := range 20000 {
		var sh Shape = Circle{Center: geom.Vec{X: pick(), Y: pick()}, Radius: pick()}
		if i%2 == 1 {
			sh = Rect{Center: geom.Vec{X: pick(), Y: pick()}, Width: pick(), Height: pick()}
		}
		want, got := shapeBounds(sh, geom.Identity), localBounds(sh)
		if bits(want) != bits(got) {
			t.Fatalf("%#v: localBounds = %+v, shapeBounds under Identity = %+v", sh, got, want)
		}
	}
}

// Circles and rectangles are accepted by a fast test before the checks that word the errors;
// the two must agree on every value, the edges of the range included.
func TestValidateFastPathAgrees(t *testing.T) {
	t.Parallel()
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, MaxCoord, -MaxCoord, math.Nextafter(MaxCoord, math.Inf(1)), math.Nextafter(-MaxCoord, math.Inf(-1)), math.Inf(1), math.Inf(-1), math.NaN()}
	slow := func(center geom.Vec, sizes ...float64) error {
		if err := inRange("center", center.X, center.Y); err != nil {
			return err
		}
		for _, v := range sizes {
			if err := positive("size", v); err != nil {
				return err
			}
		}
		return nil
	}
	for _, x := range vals {
		for _, y := range vals {
			for _, w := range vals {
				c := Circle{Center: geom.Vec{X: x, Y: y}, Radius: w}
				if got, want := c.validate() == nil, slow(c.Center, w) == nil; got != want {
					t.Errorf("%#v: validate accepts %v, the checks %v", c, got, want)
				}
				for _, h := range vals {
					r := Rect{Center: geom.Vec{X: x, Y: y}, Width: w, Height: h}
					if got, want := r.validate() == nil, slow(r.Center, w, h) == nil; got != want {
						t.Errorf("%#v: validate accepts %v, the checks %v", r, got, want)
					}
				}
			}
		}
	}
}
