package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var approx = cmpopts.EquateApprox(0, 1e-9)

// arcEdge is the edge along the arc of centre c and radius r from angle a0 sweeping sweep
// (positive) radians.
func arcEdge(c geom.Vec, r, a0, sweep float64) Edge {
	a := &geom.CircArc{C: c, R: r, A0: a0, Sweep: sweep}
	return Edge{a: a.At(0), b: a.At(sweep), arc: a}
}

func lineEdge(a, b geom.Vec) Edge { return Edge{a: a, b: b} }

func TestEdgeGapByHand(t *testing.T) {
	t.Parallel()
	deg := math.Pi / 180
	tests := []struct {
		name string
		x, y Edge
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
	randEdge := func() Edge {
		c := geom.Vec{X: r.Float64() * 10, Y: r.Float64() * 10}
		if r.IntN(3) == 0 {
			return lineEdge(c, geom.Vec{X: r.Float64() * 10, Y: r.Float64() * 10})
		}
		return arcEdge(c, 0.5+r.Float64()*4, r.Float64()*2*math.Pi, 0.1+r.Float64()*(math.Pi/2-0.1))
	}
	sample := func(e Edge, n int) []geom.Vec {
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
			continue // crossing lines are the walk's to find (segmentsMeet)
		}
		d, pa, pb := edgeGap(&x, &y)
		// The points are on their edges and as far apart as said.
		if got := pb.Sub(pa).Len(); math.Abs(got-d) > 1e-9 {
			t.Fatalf("case %d: distance %v but the points are %v apart", k, d, got)
		}
		for _, c := range [2]struct {
			e Edge
			p geom.Vec
		}{{x, pa}, {y, pb}} {
			if q := closestOnEdge(c.p, &c.e); q.Sub(c.p).Len() > 1e-9 {
				t.Fatalf("case %d: point %v is %v off its Edge", k, c.p, q.Sub(c.p).Len())
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
	var ccw, cw []Edge
	for k := range 4 {
		e := arcEdge(geom.Vec{}, 1, float64(k)*math.Pi/2, math.Pi/2)
		ccw = append(ccw, e)
		cw = append([]Edge{{a: e.b, b: e.a, arc: e.arc}}, cw...)
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
