package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/google/go-cmp/cmp"
)

// outlineOf is the outline of a polyline (a ring when closed) as the scene's measures read
// a line or a polygon of pts.
func outlineOf(pts []geom.Vec, closed bool) *Outline {
	var p geom.Path
	p.Polyline(pts, closed)
	o := &Outline{}
	o.Bound.AddPath(p, geom.DefaultTolerance)
	if closed {
		o.Regions = append(o.Regions, o.Bound.Rings)
	}
	for _, pl := range p.Flatten(geom.DefaultTolerance) {
		line := pl.Points
		if pl.Closed && len(line) > 0 && line[len(line)-1] != line[0] {
			line = append(slices.Clone(line), line[0])
		}
		for _, q := range line {
			o.Box.Extend(q)
		}
		o.Lines = append(o.Lines, line)
	}
	return o
}

// TestWalkPairs: two polygons of 8,000 edges each, which compared every pair (64,000,000)
// and were refused, are measured by their edge trees comparing a few thousand. The cap is
// left for shapes whose edges all lie as near each other as the answer (the scene's
// TestDistancePairLimit).
func TestWalkPairs(t *testing.T) {
	t.Parallel()
	ring := func(cx float64, n int) []geom.Vec {
		pts := make([]geom.Vec, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			pts[i] = geom.Vec{X: cx + 10*math.Cos(a), Y: 10 * math.Sin(a)}
		}
		return pts
	}
	ma, mb := outlineOf(ring(0, 8000), true), outlineOf(ring(100, 8000), true)
	w := &edgeWalk{a: ma.edgeTree(), b: mb.edgeTree(), maxPairs: 10_000_000}
	if !w.nearest(0, 0) {
		t.Fatal("the walk went past the cap")
	}
	if diff := cmp.Diff(Gap{Distance: 80, A: geom.Vec{X: 10}, B: geom.Vec{X: 90}}, w.best, approx); diff != "" {
		t.Errorf("gap mismatch (-want +got):\n%s", diff)
	}
	if w.pairs > 10_000 {
		t.Errorf("the walk compared %d pairs of edges; a few thousand at most expected", w.pairs)
	}
}

// everyPair is the distance as the plain double loop over both shapes' edges finds it: the
// reference the edge trees must agree with, closest points and ties included.
func everyPair(a, b *Outline) Gap {
	if BoxGap(a.Box, b.Box) == 0 {
		for _, la := range a.Lines {
			for _, lb := range b.Lines {
				for i := 1; i < len(la); i++ {
					for j := 1; j < len(lb); j++ {
						if p, ok := segmentsMeet(overlay.Point(la[i-1]), overlay.Point(la[i]), overlay.Point(lb[j-1]), overlay.Point(lb[j])); ok {
							return Gap{A: geom.Vec(p), B: geom.Vec(p)}
						}
					}
				}
			}
		}
		if p, ok := inEachOther(a, b); ok {
			return Gap{A: p, B: p}
		}
	}
	best := Gap{Distance: math.Inf(1)}
	for _, la := range a.Lines {
		for _, lb := range b.Lines {
			for i := 1; i < len(la); i++ {
				for j := 1; j < len(lb); j++ {
					if d, pa, pb := segmentGap(la[i-1], la[i], lb[j-1], lb[j]); d < best.Distance {
						best = Gap{Distance: d, A: pa, B: pb}
					}
				}
			}
		}
	}
	return best
}

// TestDistanceAgreesWithEveryPair measures seeded random polylines and polygons (crossing,
// nested, apart, on a grid so that ties are common) through the edge trees and by comparing
// every pair of edges, and wants the same answers, bit for bit.
func TestDistanceAgreesWithEveryPair(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 26))
	// shape is a random polyline or star-shaped polygon, nil for a ring that touches itself
	// after rounding (which the scene refuses to measure).
	shape := func() *Outline {
		n := 3 + r.IntN(60)
		pts := make([]geom.Vec, n)
		cx, cy := float64(r.IntN(40)), float64(r.IntN(40))
		for i := range pts {
			pts[i] = geom.Vec{X: cx + float64(r.IntN(20)), Y: cy + float64(r.IntN(20))}
		}
		if r.IntN(2) == 0 {
			return outlineOf(pts, false)
		}
		// A star-shaped ring around its centre never crosses itself.
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			rad := 1 + float64(r.IntN(12))
			pts[i] = geom.Vec{X: cx + math.Round(rad*math.Cos(a)*4)/4, Y: cy + math.Round(rad*math.Sin(a)*4)/4}
		}
		if _, bad := SelfCrossing(CleanRing(pts)); bad {
			return nil
		}
		return outlineOf(overlay.OrientRing(pts, true), true)
	}
	compared, touching := 0, 0
	for k := range 400 {
		ma, mb := shape(), shape()
		if ma == nil || mb == nil {
			continue
		}
		want := everyPair(ma, mb)
		got, err := Distance(ma, mb, 10_000_000)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d: mismatch (-every pair +edge trees):\n%s", k, diff)
		}
		compared++
		if got.Distance == 0 {
			touching++
		}
	}
	if compared < 300 || touching < 50 || compared-touching < 50 {
		t.Errorf("%d cases compared, %d of them touching: the generator no longer makes both kinds", compared, touching)
	}
}
