package scene

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// arcEdge is the edge along the arc of centre c and radius r from angle a0 sweeping sweep
// (positive) radians.
func arcEdge(c geom.Vec, r, a0, sweep float64) edge {
	a := &geom.CircArc{C: c, R: r, A0: a0, Sweep: sweep}
	return edge{a: a.At(0), b: a.At(sweep), arc: a}
}

func lineEdge(a, b geom.Vec) edge { return edge{a: a, b: b} }

func TestEdgeGapByHand(t *testing.T) {
	t.Parallel()
	deg := math.Pi / 180
	tests := []struct {
		name string
		x, y edge
		want Gap
	}{
		{"segment over the middle of an arc", arcEdge(geom.Vec{}, 2, 45*deg, 90*deg), lineEdge(geom.Vec{X: -1, Y: 3}, geom.Vec{X: 1, Y: 3}),
			Gap{Distance: 1, A: geom.Vec{X: 0, Y: 2}, B: geom.Vec{X: 0, Y: 3}}},
		{"segment beside an arc: from its end", arcEdge(geom.Vec{}, 1, 90*deg, 90*deg), lineEdge(geom.Vec{X: 3, Y: 0}, geom.Vec{X: 3, Y: 1}),
			Gap{Distance: 3, A: geom.Vec{X: 0, Y: 1}, B: geom.Vec{X: 3, Y: 1}}},
		{"segment crossing an arc", arcEdge(geom.Vec{}, 1, 0, 90*deg), lineEdge(geom.Vec{}, geom.Vec{X: 1, Y: 1}),
			Gap{A: geom.Vec{X: math.Sqrt2 / 2, Y: math.Sqrt2 / 2}, B: geom.Vec{X: math.Sqrt2 / 2, Y: math.Sqrt2 / 2}}},
		{"arcs facing across their centres", arcEdge(geom.Vec{}, 1, 0, 90*deg), arcEdge(geom.Vec{X: 5, Y: 0}, 2, 90*deg, 90*deg),
			Gap{Distance: 2, A: geom.Vec{X: 1, Y: 0}, B: geom.Vec{X: 3, Y: 0}}},
		{"arcs turned away: end to end", arcEdge(geom.Vec{}, 1, 90*deg, 90*deg), arcEdge(geom.Vec{X: 5, Y: 0}, 2, 0, 90*deg),
			Gap{Distance: math.Sqrt(26), A: geom.Vec{X: 0, Y: 1}, B: geom.Vec{X: 5, Y: 2}}},
		{"concentric arcs", arcEdge(geom.Vec{}, 1, 0, 90*deg), arcEdge(geom.Vec{}, 3, 60*deg, 90*deg),
			Gap{Distance: 2, A: geom.Vec{X: 0, Y: 1}, B: geom.Vec{X: 0, Y: 3}}},
		{"crossing arcs", arcEdge(geom.Vec{}, 1, 0, 90*deg), arcEdge(geom.Vec{X: 1, Y: 1}, 1, 180*deg, 90*deg),
			Gap{A: geom.Vec{X: 0, Y: 1}, B: geom.Vec{X: 0, Y: 1}}}, // the first of their two crossings
	}
	for _, tt := range tests {
		d, a, b := edgeGap(&tt.x, &tt.y)
		if diff := cmp.Diff(tt.want, Gap{Distance: d, A: a, B: b}, approx); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestEdgeGapAgainstSampling measures seeded random arcs against arcs and segments, and
// wants the distance no farther than the densest sampling of both finds, and no nearer.
func TestEdgeGapAgainstSampling(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(26, 3))
	randEdge := func() edge {
		c := geom.Vec{X: r.Float64() * 10, Y: r.Float64() * 10}
		if r.IntN(3) == 0 {
			return lineEdge(c, geom.Vec{X: r.Float64() * 10, Y: r.Float64() * 10})
		}
		return arcEdge(c, 0.5+r.Float64()*4, r.Float64()*2*math.Pi, 0.1+r.Float64()*(math.Pi/2-0.1))
	}
	sample := func(e edge, n int) []geom.Vec {
		out := make([]geom.Vec, n+1)
		for i := range out {
			t := float64(i) / float64(n)
			if e.arc == nil {
				out[i] = e.a.Add(e.b.Sub(e.a).Mul(t))
			} else {
				out[i] = e.arc.At(t * e.arc.Sweep)
			}
		}
		return out
	}
	for k := range 300 {
		x, y := randEdge(), randEdge()
		if x.arc == nil && y.arc == nil {
			continue // crossing lines are the walk's to find (kernel.SegmentsMeet)
		}
		d, pa, pb := edgeGap(&x, &y)
		// The points are on their edges and as far apart as said.
		if got := pb.Sub(pa).Len(); math.Abs(got-d) > 1e-9 {
			t.Fatalf("case %d: distance %v but the points are %v apart", k, d, got)
		}
		for _, c := range [2]struct {
			e edge
			p geom.Vec
		}{{x, pa}, {y, pb}} {
			if q := closestOnEdge(c.p, &c.e); q.Sub(c.p).Len() > 1e-9 {
				t.Fatalf("case %d: point %v is %v off its edge", k, c.p, q.Sub(c.p).Len())
			}
		}
		best := math.Inf(1)
		sx, sy := sample(x, 400), sample(y, 400)
		for _, p := range sx {
			for _, q := range sy {
				best = min(best, q.Sub(p).Len())
			}
		}
		// 400 samples of an edge at most 10 long (an arc of radius 4.5 sweeps at most 7.1)
		// lie within 0.0125 of every point of it.
		if d > best+1e-9 || d < best-0.03 {
			t.Fatalf("case %d: %+v to %+v: distance %v, sampled %v", k, x, y, d, best)
		}
	}
}

func TestWindingWithArcs(t *testing.T) {
	t.Parallel()
	// A counter-clockwise unit circle of four quarter pieces, and the same clockwise.
	var ccw, cw []edge
	for k := range 4 {
		e := arcEdge(geom.Vec{}, 1, float64(k)*math.Pi/2, math.Pi/2)
		ccw = append(ccw, e)
		cw = append([]edge{{a: e.b, b: e.a, arc: e.arc}}, cw...)
	}
	for _, tt := range []struct {
		p        geom.Vec
		ccw, out int
	}{
		{geom.Vec{X: 0, Y: 0}, 1, -1},
		{geom.Vec{X: 0.99, Y: 0.05}, 1, -1},  // between a chord and its arc
		{geom.Vec{X: 0.7, Y: 0.7}, 1, -1},    // just inside the arc at 45°
		{geom.Vec{X: 0.71, Y: 0.71}, 0, 0},   // just outside it
		{geom.Vec{X: 1.001, Y: 0}, 0, 0},     // outside, beyond a piece's end
		{geom.Vec{X: -0.3, Y: -0.95}, 1, -1}, // inside, between chord and arc
		{geom.Vec{X: -0.3, Y: -0.96}, 0, 0},  // outside, beyond the arc
	} {
		if got := winding(tt.p, ccw); got != tt.ccw {
			t.Errorf("winding(%v, counter-clockwise circle) = %d, want %d", tt.p, got, tt.ccw)
		}
		if got := winding(tt.p, cw); got != tt.out {
			t.Errorf("winding(%v, clockwise circle) = %d, want %d", tt.p, got, tt.out)
		}
	}
}

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
