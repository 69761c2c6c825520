package kernel

import (
	"errors"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

func TestClassifyCorner(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pts  []geom.Vec
		bul  []float64
		want []CornerKind
	}{
		{"square", []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}, nil,
			[]CornerKind{CornerSharp, CornerSharp, CornerSharp, CornerSharp}},
		{"straight", []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 0}, {X: 1, Y: 1}}, nil,
			[]CornerKind{CornerSharp, CornerStraight, CornerSharp, CornerSharp}},
		{"arc edge", []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}, []float64{0, 0.4, 0, 0},
			[]CornerKind{CornerSharp, CornerArc, CornerArc, CornerSharp}},
		{"folded", []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}}, nil,
			[]CornerKind{CornerSharp, CornerFolded, CornerSharp, CornerSharp}},
	}
	for _, tt := range tests {
		var got []CornerKind
		for i := range tt.pts {
			k, _ := classifyCorner(tt.pts, tt.bul, i)
			got = append(got, k)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: kinds mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// A square of side 2 filleted by 1 at every corner is a circle: each side is used up by the
// cuts at its two ends, and four quarter arcs are left. A radius past that is refused with
// the largest that fits.
func TestCutCorners(t *testing.T) {
	t.Parallel()
	square := []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 2, Y: 2}, {X: 0, Y: 2}}
	ring := func() CutRing {
		r := CutRings([][]geom.Vec{square}, [][]float64{nil})[0]
		for i := range r.Cut {
			r.Cut[i] = true
		}
		return r
	}
	pts, bul, err := ring().CutCorners(1, Corner{})
	if err != nil {
		t.Fatal(err)
	}
	k := math.Tan(math.Pi / 8)
	if diff := cmp.Diff([]float64{k, k, k, k}, bul, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-15 })); diff != "" || len(pts) != 4 {
		t.Errorf("fillet by 1: %d points, bulges mismatch (-want +got):\n%s", len(pts), diff)
	}
	_, _, err = ring().CutCorners(1.5, Corner{Chamfer: true})
	var room *RoomError
	if !errors.As(err, &room) || room.Corner != 0 || math.Abs(room.Fits-1) > 1e-12 {
		t.Errorf("chamfer by 1.5: err = %v, want a RoomError at corner 0 fitting 1", err)
	}
}
