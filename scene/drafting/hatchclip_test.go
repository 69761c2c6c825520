package drafting

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestClipHatch clips each pattern to a 200 x 200 square with a 100 x 100 square hole, as rings
// alone: every segment's middle lies in the area, and the lines' length over their spacing
// (the dots' count times a dot's cell) is the area; past its budget the clipping says so.
func TestClipHatch(t *testing.T) {
	t.Parallel()
	square := func(c, half float64) []geom.Vec {
		return []geom.Vec{{X: c - half, Y: c - half}, {X: c + half, Y: c - half}, {X: c + half, Y: c + half}, {X: c - half, Y: c + half}}
	}
	rings := [][]geom.Vec{square(100, 100), square(100, 50)}
	inside := func(p geom.Vec) bool {
		in := func(half float64) bool { return math.Abs(p.X-100) <= half && math.Abs(p.Y-100) <= half }
		return in(100+1e-9) && !in(50-1e-9)
	}
	const area = 40_000 - 10_000
	for _, c := range []struct {
		pattern string
		cell    float64 // the area each unit of the measure stands for
		dots    bool
	}{
		{"ansi31", 3.175, false},
		{"ansi37", 3.175 / 2, false},
		{"dots", 1.5875 * 1.5875, true},
	} {
		pat, err := LookupHatch(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		segs, ok := ClipHatch(rings, pat.Placed(0, 1), 100_000)
		if !ok || len(segs) == 0 {
			t.Fatalf("%s: %d segments, ok %v; want some within the budget", c.pattern, len(segs), ok)
		}
		measure := 0.0
		for _, s := range segs {
			if mid := s[0].Add(s[1]).Mul(0.5); !inside(mid) {
				t.Fatalf("%s: segment %v has its middle out of the area", c.pattern, s)
			}
			if c.dots {
				measure++
			} else {
				measure += s[1].Sub(s[0]).Len()
			}
		}
		if got := measure * c.cell; math.Abs(got-area) > 0.02*area {
			t.Errorf("%s: the segments cover about %v, want %v", c.pattern, got, area)
		}
		if _, ok := ClipHatch(rings, pat.Placed(0, 1), len(segs)-1); ok {
			t.Errorf("%s: a budget of %d for %d segments passed", c.pattern, len(segs)-1, len(segs))
		}
		if again, ok := ClipHatch(rings, pat.Placed(0, 1), len(segs)); !ok || len(again) != len(segs) {
			t.Errorf("%s: a budget of exactly %d segments made %d, ok %v", c.pattern, len(segs), len(again), ok)
		}
	}
}
