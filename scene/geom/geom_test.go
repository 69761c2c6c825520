package geom

import (
	"math"
	"testing"
)

// sameBox reports whether two boxes hold the same bits, NaNs of any payload alike.
func sameBox(a, b Box) bool {
	same := func(x, y float64) bool {
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	}
	return a.NonEmpty == b.NonEmpty && same(a.Min.X, b.Min.X) && same(a.Min.Y, b.Min.Y) &&
		same(a.Max.X, b.Max.X) && same(a.Max.Y, b.Max.Y)
}

// TestBoxExtendLikeMathMinMax pins what Box.Extend answers: what math.Min and math.Max do, for
// signed zeros, infinities and NaN too (where the built-in min and max differ).
func TestBoxExtendLikeMathMinMax(t *testing.T) {
	t.Parallel()
	vals := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -math.MaxFloat64}
	for _, a := range vals {
		for _, p := range vals {
			b := Box{Min: Vec{a, a}, Max: Vec{a, a}, NonEmpty: true}
			b.Extend(Vec{p, p})
			want := Box{Min: Vec{math.Min(a, p), math.Min(a, p)}, Max: Vec{math.Max(a, p), math.Max(a, p)}, NonEmpty: true}
			if !sameBox(b, want) {
				t.Errorf("extending %v by %v: got %#v, want %#v", a, p, b, want)
			}
		}
	}
}
