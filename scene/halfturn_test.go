package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene/geom"
)

// halfTurnArcs are circular arcs of sweeps around the half turns a split falls on, both ways
// round, from starts off the axes: each a closed path from the arc's start through the arc
// and back by a line.
func halfTurnArcs() []geom.Seg {
	var segs []geom.Seg
	for _, sweep := range []float64{0.5, math.Pi / 2, math.Pi - 1e-12, math.Pi, math.Pi + 1e-12, math.Pi + 0.2, 1.5 * math.Pi, 2*math.Pi - 0.1, 2 * math.Pi} {
		for _, turn := range []float64{1, -1} {
			segs = append(segs, geom.Seg{Kind: geom.SegArc, P: [3]geom.Vec{{X: 3, Y: -2}, {X: 2.5, Y: 0}, {X: 0, Y: 2.5 * turn}}, T0: 0.3, T1: 0.3 + sweep})
		}
	}
	return segs
}

// TestHalfTurnSplitPinned pins how the measures' arc rings (arcRing) split an arc into pieces
// of at most half a turn: the points and bulges, to the last bit, so that sharing the split
// changes nothing. The kernel's test of the same name pins the booleans' arc fitting.
func TestHalfTurnSplitPinned(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, seg := range halfTurnArcs() {
		fmt.Fprintf(&b, "arc T0 %v T1 %v v.Y %v\n", seg.T0, seg.T1, seg.P[2].Y)
		start := seg.ArcPoint(seg.T0)
		var p geom.Path
		p.MoveTo(start)
		p = append(p, seg)
		p.Close()
		ring, ok := arcRing(&PathShape{path: p})
		fmt.Fprintf(&b, "  arcRing %v\n", ok)
		if ok {
			writeRing(&b, ring.Parts[0].Outer, ring.Parts[0].OuterBulges)
		}
	}
	golden.Check(t, "testdata/half_turns.golden", []byte(b.String()))
}

func writeRing(b *strings.Builder, pts []geom.Vec, bul []float64) {
	for i, q := range pts {
		fmt.Fprintf(b, "    %v %v bulge %v\n", q.X, q.Y, bul[i])
	}
}
