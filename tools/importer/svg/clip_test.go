package svg

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestSubSeg: the part of a segment between two parameters is the segment itself there,
// point for point, for every kind a path holds.
func TestSubSeg(t *testing.T) {
	t.Parallel()
	from := geom.Vec{X: 1, Y: 2}
	for _, s := range []geom.Seg{
		{Kind: geom.SegLine, P: [3]geom.Vec{{X: 7, Y: -3}}},
		{Kind: geom.SegQuad, P: [3]geom.Vec{{X: 4, Y: 9}, {X: 8, Y: 1}}},
		{Kind: geom.SegCubic, P: [3]geom.Vec{{X: 0, Y: 10}, {X: 10, Y: 10}, {X: 12, Y: -4}}},
		{Kind: geom.SegArc, P: [3]geom.Vec{{X: 1, Y: 1}, {X: 3, Y: 1}, {X: -1, Y: 2}}, T0: 0.3, T1: 4},
	} {
		for _, span := range [][2]float64{{0, 1}, {0, 0.4}, {0.25, 0.75}, {0.6, 1}} {
			part := subSeg(s, from, span[0], span[1])
			start := segPoint(s, from, span[0])
			for _, v := range []float64{0, 0.3, 0.5, 1} {
				got := segPoint(part, start, v)
				want := segPoint(s, from, span[0]+(span[1]-span[0])*v)
				if d := got.Sub(want).Len(); d > 1e-12 || math.IsNaN(d) {
					t.Errorf("kind %d, %v at %v: %v, want %v", s.Kind, span, v, got, want)
				}
			}
		}
	}
}
