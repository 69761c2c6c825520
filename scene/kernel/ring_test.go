package kernel

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// regularPolygon is the n-gon of radius r about c, counter-clockwise from the +x axis.
func regularPolygon(c geom.Vec, r float64, n int) []geom.Vec {
	pts := make([]geom.Vec, n)
	for i := range pts {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		pts[i] = geom.Vec{X: c.X + r*co, Y: c.Y + r*s}
	}
	return pts
}

// TestStrictlyConvex pins the shortcut of SelfCrossing: only rings that turn the same way at
// every vertex and go round once skip the sweep.
func TestStrictlyConvex(t *testing.T) {
	t.Parallel()
	square := []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}
	tests := []struct {
		name string
		ring []geom.Vec
		want bool
	}{
		{"square", square, true},
		{"square clockwise", overlay.OrientRing(square, false), true},
		{"64-gon", regularPolygon(geom.Vec{X: 3, Y: -2}, 4, 64), true},
		{"triangle", []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 1, Y: 5}}, true},
		{"straight vertex", []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 0}, {X: 2, Y: 1}}, false},
		{"concave", []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 2}, {X: 0, Y: 2}}, false},
		{"pentagram", []geom.Vec{{X: 4, Y: 0}, {X: -3, Y: 2}, {X: 1, Y: -4}, {X: 1, Y: 4}, {X: -3, Y: -2}}, false},
		{"folds back", []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}}, false},
		{"two points", []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 1}}, false},
	}
	for _, tt := range tests {
		r := make([]overlay.Point, len(tt.ring))
		for i, v := range tt.ring {
			r[i] = overlay.Point(v)
		}
		if got := strictlyConvex(r); got != tt.want {
			t.Errorf("%s: strictlyConvex = %v, want %v", tt.name, got, tt.want)
		}
	}
}
