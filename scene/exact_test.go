package scene

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// A circle, an ellipse, a rounded rectangle and an arc's pie slice are measured in closed
// form, under any transform for areas and centroids, and for perimeters under any transform
// that keeps their curves what they are (an ellipse's perimeter from the elliptic integral).
func TestExactMeasures(t *testing.T) {
	t.Parallel()
	// The perimeter of the ellipse with semi-axes 3 and 1, from the complete elliptic
	// integral of the second kind (12·E(k), k² = 8/9), to 17 digits.
	const ellipse31 = 13.364893220555258
	turnScale := func(s *Scene, name string, turn, scale float64) {
		t.Helper()
		if err := s.Rotate(name, turn, SpaceLocal); err != nil {
			t.Fatal(err)
		}
		if err := s.Scale(name, scale, scale, SpaceLocal, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.Translate(name, geom.Vec{X: 100, Y: -50}, SpaceWorld); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name            string
		shape           Shape
		turn, scale     float64
		stretch         geom.Vec // applied after, when not zero
		area, perimeter float64
		centroid        geom.Vec
	}{
		{name: "circle", shape: Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 2}, area: 4 * math.Pi, perimeter: 4 * math.Pi, centroid: geom.Vec{X: 1, Y: 2}},
		{name: "circle turned and scaled", shape: Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 2}, turn: 0.3, scale: 3,
			area: 36 * math.Pi, perimeter: 12 * math.Pi, centroid: geom.Vec{X: 100, Y: -50}},
		{name: "circle stretched into an ellipse", shape: Circle{Radius: 1}, stretch: geom.Vec{X: 3, Y: 1},
			area: 3 * math.Pi, perimeter: ellipse31},
		{name: "ellipse", shape: Ellipse{RX: 3, RY: 1}, area: 3 * math.Pi, perimeter: ellipse31},
		{name: "ellipse turned", shape: Ellipse{RX: 3, RY: 1}, turn: 1.1, scale: 2,
			area: 12 * math.Pi, perimeter: 2 * ellipse31, centroid: geom.Vec{X: 100, Y: -50}},
		{name: "rounded rect", shape: RoundedRect{Width: 10, Height: 6, Radius: 2},
			area: 60 - (4-math.Pi)*4, perimeter: 32 - 16 + 4*math.Pi},
		{name: "rounded rect, radius past the half side", shape: RoundedRect{Width: 10, Height: 4, Radius: 9},
			area: 40 - (4-math.Pi)*4, perimeter: 28 - 16 + 4*math.Pi},
		{name: "quarter arc's pie slice", shape: Arc{Radius: 3, Start: 0, End: math.Pi / 2},
			area: 9 * math.Pi / 4, perimeter: 6 + 1.5*math.Pi, centroid: geom.Vec{X: 4 / math.Pi, Y: 4 / math.Pi}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			if _, err := s.Put("x", tc.shape); err != nil {
				t.Fatal(err)
			}
			if tc.turn != 0 || tc.scale != 0 {
				turnScale(s, "x", tc.turn, tc.scale)
			}
			if tc.stretch != (geom.Vec{}) {
				if err := s.Scale("x", tc.stretch.X, tc.stretch.Y, SpaceLocal, nil); err != nil {
					t.Fatal(err)
				}
			}
			area, err := s.Area("x")
			if err != nil || !near(area, tc.area, 1e-14) {
				t.Errorf("area %v (%v), want %v", area, err, tc.area)
			}
			per, err := s.Perimeter("x")
			if err != nil || !near(per, tc.perimeter, 1e-14) {
				t.Errorf("perimeter %v (%v), want %v", per, err, tc.perimeter)
			}
			c, err := s.Centroid("x")
			if err != nil || c.Sub(tc.centroid).Len() > 1e-12*math.Max(1, tc.centroid.Len()) {
				t.Errorf("centroid %v (%v), want %v", c, err, tc.centroid)
			}
		})
	}
}

// A group of shapes with closed forms that lie apart is measured as their sum, exactly; a
// group of one is its member, distances included; members that meet are measured from their
// flattened union, which counts their overlap once.
func TestExactGroups(t *testing.T) {
	t.Parallel()
	s := New()
	put := func(name string, sh Shape) {
		t.Helper()
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	put("a", Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 1})
	put("b", Ellipse{Center: geom.Vec{X: 10, Y: 0}, RX: 3, RY: 1})
	put("c", Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 2})
	put("d", Circle{Center: geom.Vec{X: 1, Y: 0}, Radius: 1})
	put("p", Circle{Center: geom.Vec{X: -10, Y: 0}, Radius: 1})
	for _, g := range []struct {
		name    string
		members []string
	}{{"apart", []string{"a", "b"}}, {"one", []string{"c"}}} {
		if _, err := s.CreateGroup(g.name, g.members); err != nil {
			t.Fatal(err)
		}
	}
	area, _ := s.Area("apart")
	per, _ := s.Perimeter("apart")
	cen, _ := s.Centroid("apart")
	if want := 4 * math.Pi; !near(area, want, 1e-15) {
		t.Errorf("area of two apart: %v, want %v", area, want)
	}
	if want := 2*math.Pi + 13.364893220555258; !near(per, want, 1e-14) {
		t.Errorf("perimeter of two apart: %v, want %v", per, want)
	}
	if want := (geom.Vec{X: 7.5, Y: 0}); cen.Sub(want).Len() > 1e-12 {
		t.Errorf("centroid of two apart: %v, want %v", cen, want)
	}
	gap, err := s.Distance("one", "p")
	if err != nil || gap.Distance != 7 {
		t.Errorf("distance from a group of one circle: %+v (%v), want exactly 7", gap, err)
	}
	if _, err := s.CreateGroup("meet", []string{"d"}); err != nil {
		t.Fatal(err)
	}
	put("e", Circle{Center: geom.Vec{X: 2, Y: 0}, Radius: 1})
	if err := s.AddToGroup("meet", "e"); err != nil {
		t.Fatal(err)
	}
	if area, _ := s.Area("meet"); area >= 2*math.Pi || area < 2*math.Pi-1.3 {
		t.Errorf("area of two circles that overlap: %v; want their union's, under 2π", area)
	}
}

// The offset of a circle, a rectangle or a rounded rectangle drawn upright is that shape
// again, exact; turned, or with a square join on a sharp corner, it is the engine's polygon.
func TestExactOffsets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		shape Shape
		turn  float64
		delta float64
		opt   OffsetOptions
		want  Shape // nil: a polygon
	}{
		{"circle grows", Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 2}, 0.4, 0.5, OffsetOptions{}, Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 2.5}},
		{"circle shrinks", Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 2}, 0, -0.5, OffsetOptions{}, Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 1.5}},
		{"rect grows round", Rect{Center: geom.Vec{X: 0, Y: 0}, Width: 10, Height: 4}, 0, 1, OffsetOptions{}, RoundedRect{Width: 12, Height: 6, Radius: 1}},
		{"rect grows mitered", Rect{Width: 10, Height: 4}, 0, 1, OffsetOptions{Join: JoinMiter}, Rect{Width: 12, Height: 6}},
		{"rect grows square", Rect{Width: 10, Height: 4}, 0, 1, OffsetOptions{Join: JoinSquare}, nil},
		{"rect shrinks", Rect{Width: 10, Height: 4}, 0, -1, OffsetOptions{}, Rect{Width: 8, Height: 2}},
		{"rounded rect grows", RoundedRect{Width: 10, Height: 4, Radius: 1}, 0, 2, OffsetOptions{Join: JoinSquare}, RoundedRect{Width: 14, Height: 8, Radius: 3}},
		{"rounded rect shrinks past its radius", RoundedRect{Width: 10, Height: 4, Radius: 1}, 0, -1.5, OffsetOptions{}, Rect{Width: 7, Height: 1}},
		{"turned rect", Rect{Width: 10, Height: 4}, 0.3, 1, OffsetOptions{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			if _, err := s.Put("x", tc.shape); err != nil {
				t.Fatal(err)
			}
			if tc.turn != 0 {
				if err := s.Rotate("x", tc.turn, SpaceLocal); err != nil {
					t.Fatal(err)
				}
			}
			e, err := s.Offset("x", tc.delta, "o", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if _, ok := e.Shape.(Polygon); !ok {
					t.Errorf("result %T %+v; want a polygon", e.Shape, e.Shape)
				}
				return
			}
			if e.Shape != tc.want {
				t.Errorf("result %T %+v; want %+v", e.Shape, e.Shape, tc.want)
			}
			// The exact result agrees with the engine's flattened one.
			flat, err := kernel.OffsetPolys(mustArea(t, s, "x"), tc.delta, mustJoin(t, tc.opt))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := s.Area("o")
			want := 0.0
			for _, p := range flat {
				want += p.Area()
			}
			if !near(got, want, 5e-3) { // the engine offsets the circle's chords
				t.Errorf("area %v; the engine's flattened offset has %v", got, want)
			}
		})
	}
}

func mustArea(t *testing.T, s *Scene, name string) []overlay.Polygon {
	t.Helper()
	a, err := s.areaOf(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustJoin(t *testing.T, o OffsetOptions) overlay.Join {
	t.Helper()
	j, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	return j
}
