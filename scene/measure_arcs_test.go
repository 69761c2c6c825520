package scene

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// r3: a circle overlapping a rounded rectangle's corner by 0.004 is at distance 0 and
// overlaps it; 0.004 away from it, it is 0.004 away, on the line through the corner's centre.
func TestDistanceRoundedCorner(t *testing.T) {
	t.Parallel()
	th := 41.25 * math.Pi / 180
	u := geom.Vec{X: math.Cos(th), Y: math.Sin(th)}
	corner := geom.Vec{X: 1, Y: 1} // the corner arc's centre; its radius is 4
	for _, tt := range []struct {
		d    float64 // from the corner's centre to the circle's
		want float64
	}{{4 + 1 - 0.004, 0}, {4 + 1 + 0.004, 0.004}} {
		s := New()
		measurePut(t, s, "r", RoundedRect{Width: 10, Height: 10, Radius: 4})
		measurePut(t, s, "c", Circle{Center: corner.Add(u.Mul(tt.d)), Radius: 1})
		g, err := s.Distance("r", "c")
		if err != nil {
			t.Fatal(err)
		}
		if tt.want == 0 {
			if g.Distance != 0 {
				t.Errorf("overlapping by 0.004: distance %v, want 0", g.Distance)
			}
			if got := g.A.Sub(corner).Len(); math.Abs(got-4) > 1e-9 {
				t.Errorf("overlapping by 0.004: the shared point %v is %v from the corner's centre, want on its arc (4)", g.A, got)
			}
			ov, n, err := s.Overlaps("r")
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 || ov[0].Name != "c" {
				t.Errorf("Overlaps(r) = %v (%d), want c listed", ov, n)
			}
			continue
		}
		want := Gap{Distance: tt.want, A: corner.Add(u.Mul(4)), B: corner.Add(u.Mul(4 + tt.want))}
		if diff := cmp.Diff(want, g, approx); diff != "" {
			t.Errorf("0.004 apart: mismatch (-want +got):\n%s", diff)
		}
	}
}

// r9: a circle reaching into a rectangle's corner by 0.002 is at distance 0, and overlaps
// says so too, though the flattened circle does not reach it; moved off, the rectangle's
// corner is √(2² + 0.09²) from the centre.
func TestDistanceCircleRectAgree(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		x    float64 // the rectangle's left side
		want Gap
	}{
		{1.996, Gap{}},
		{2, Gap{Distance: math.Hypot(2, 0.09) - 2, A: geom.Vec{X: 2, Y: 0.09}.Mul(2 / math.Hypot(2, 0.09)), B: geom.Vec{X: 2, Y: 0.09}}},
	} {
		s := New()
		measurePut(t, s, "c", Circle{Radius: 2})
		measurePut(t, s, "r", Rect{Center: geom.Vec{X: tt.x + 0.502, Y: 0.125}, Width: 1.004, Height: 0.07})
		g, err := s.Distance("c", "r")
		if err != nil {
			t.Fatal(err)
		}
		ov, _, err := s.Overlaps("c")
		if err != nil {
			t.Fatal(err)
		}
		if tt.want.Distance == 0 {
			if g.Distance != 0 || len(ov) != 1 {
				t.Errorf("left side at %v: distance %v and overlaps %v, want 0 and r listed", tt.x, g.Distance, ov)
			}
			continue
		}
		if diff := cmp.Diff(tt.want, g, approx); diff != "" {
			t.Errorf("left side at %v: mismatch (-want +got):\n%s", tt.x, diff)
		}
		if len(ov) != 0 {
			t.Errorf("left side at %v: overlaps %v, want none", tt.x, ov)
		}
	}
}

// A plate minus a round hole keeps the hole as arcs: distances to its edge are exact.
func TestDistancePlateWithHole(t *testing.T) {
	t.Parallel()
	s := New()
	measurePut(t, s, "plate", Rect{Center: geom.Vec{X: 20, Y: 10}, Width: 40, Height: 20})
	measurePut(t, s, "hole", Circle{Center: geom.Vec{X: 6, Y: 10}, Radius: 2})
	if _, err := s.Boolean(Difference, []string{"plate"}, []string{"hole"}, "p"); err != nil {
		t.Fatal(err)
	}
	measurePut(t, s, "peg", Circle{Center: geom.Vec{X: 6.5, Y: 10}, Radius: 1})
	measurePut(t, s, "pin", Line{Points: []geom.Vec{{X: 6, Y: 10}, {X: 6.5, Y: 10}}})
	measurePut(t, s, "edge", Line{Points: []geom.Vec{{X: -4, Y: 10}, {X: -6, Y: 10}}})
	for _, tt := range []struct {
		other string
		want  Gap
	}{
		{"peg", Gap{Distance: 0.5, A: geom.Vec{X: 8, Y: 10}, B: geom.Vec{X: 7.5, Y: 10}}},
		{"pin", Gap{Distance: 1.5, A: geom.Vec{X: 8, Y: 10}, B: geom.Vec{X: 6.5, Y: 10}}},
		{"edge", Gap{Distance: 4, A: geom.Vec{X: 0, Y: 10}, B: geom.Vec{X: -4, Y: 10}}},
	} {
		g, err := s.Distance("p", tt.other)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, g, approx); diff != "" {
			t.Errorf("Distance(p, %s) mismatch (-want +got):\n%s", tt.other, diff)
		}
	}
	gaps, _, err := s.Clearance("peg", []string{"p"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || math.Abs(gaps[0].Distance-0.5) > 1e-12 {
		t.Errorf("Clearance(peg) = %v, want p at 0.5", gaps)
	}
	for _, tt := range []struct {
		p    geom.Vec
		want Gap
	}{
		{geom.Vec{X: 6, Y: 10}, Gap{Distance: 2, B: geom.Vec{X: 6, Y: 10}}},                             // the hole's centre: any point of its edge
		{geom.Vec{X: 5, Y: 10}, Gap{Distance: 1, A: geom.Vec{X: 4, Y: 10}, B: geom.Vec{X: 5, Y: 10}}},   // in the hole
		{geom.Vec{X: 6, Y: 13}, Gap{A: geom.Vec{X: 6, Y: 13}, B: geom.Vec{X: 6, Y: 13}}},                // in the plate
		{geom.Vec{X: -1, Y: 10}, Gap{Distance: 1, A: geom.Vec{X: 0, Y: 10}, B: geom.Vec{X: -1, Y: 10}}}, // outside
	} {
		g, err := s.DistanceToPoint("p", tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if tt.want.A == (geom.Vec{}) && tt.want.Distance > 0 {
			tt.want.A = g.A // the centre is as near every point of the hole's edge
		}
		if diff := cmp.Diff(tt.want, g, approx); diff != "" {
			t.Errorf("DistanceToPoint(p, %v) mismatch (-want +got):\n%s", tt.p, diff)
		}
	}
}

// A rounded rectangle scaled uniformly and turned keeps circular corners, measured exactly.
func TestDistanceTurnedRoundedRect(t *testing.T) {
	t.Parallel()
	s := New()
	measurePut(t, s, "r", RoundedRect{Width: 10, Height: 10, Radius: 4})
	if err := s.Scale("r", 2, 2, SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Rotate("r", 0.3, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	// The upper right corner's centre was (1, 1): now (2, 2) turned by 0.3, radius 8.
	sn, cs := math.Sincos(0.3)
	corner := geom.Vec{X: 2*cs - 2*sn, Y: 2*sn + 2*cs}
	u := geom.Vec{X: math.Cos(0.3 + 0.5), Y: math.Sin(0.3 + 0.5)} // within the corner's quarter turn
	measurePut(t, s, "c", Circle{Center: corner.Add(u.Mul(8 + 1 + 0.001)), Radius: 1})
	g, err := s.Distance("r", "c")
	if err != nil {
		t.Fatal(err)
	}
	want := Gap{Distance: 0.001, A: corner.Add(u.Mul(8)), B: corner.Add(u.Mul(8.001))}
	if diff := cmp.Diff(want, g, approx); diff != "" {
		t.Errorf("Distance(r, c) mismatch (-want +got):\n%s", diff)
	}
	p := corner.Add(u.Mul(10))
	g, err = s.DistanceToPoint("r", p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Gap{Distance: 2, A: corner.Add(u.Mul(8)), B: p}, g, approx); diff != "" {
		t.Errorf("DistanceToPoint(r) mismatch (-want +got):\n%s", diff)
	}
}

func measurePut(t *testing.T, s *Scene, name string, sh Shape) {
	t.Helper()
	if _, err := s.Put(name, sh); err != nil {
		t.Fatal(err)
	}
}
