package geom

import (
	"math"
	"testing"
)

func TestReverseBulged(t *testing.T) {
	t.Parallel()
	pts := []Vec{{0, 0}, {2, 0}, {2, 2}, {0, 2}}
	bul := []float64{0.3, 0, -0.2, 0}
	a := BulgedArea(pts, bul)
	rp, rb := ReverseBulged(pts, bul)
	if r := BulgedArea(rp, rb); math.Abs(a+r) > 1e-12 {
		t.Errorf("reversed area %v, want %v", r, -a)
	}
	if l, r := BulgedLength(pts, bul), BulgedLength(rp, rb); math.Abs(l-r) > 1e-12 {
		t.Errorf("reversed length %v, want %v", r, l)
	}
}
