package kernel

import (
	"math"
	"testing"
)

func near(got, want, relTol float64) bool {
	return math.Abs(got-want) <= relTol*math.Max(1, math.Abs(want))
}

func TestEllipsePerimeter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ a, b, want float64 }{
		{1, 1, 2 * math.Pi},
		{3, 1, 13.364893220555258},
		{1, 3, 13.364893220555258},
		{1, 0, 4},
		{1e6, 1, 4e6 * (1 + 1e-12*(math.Log(4e6)-0.5)/2)}, // nearly flat: 4a(1 + (b/a)²(ln(4a/b) − ½)/2)
	} {
		if got := EllipsePerimeter(tc.a, tc.b); !near(got, tc.want, 1e-14) {
			t.Errorf("EllipsePerimeter(%v, %v) = %.17g, want %.17g", tc.a, tc.b, got, tc.want)
		}
	}
}
