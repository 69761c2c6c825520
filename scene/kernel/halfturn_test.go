package kernel

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestHalfTurnSplitPinned pins how the booleans' arc fitting (appendArc) splits an arc into
// pieces of at most half a turn: the points and bulges, to the last bit, so that sharing the
// split changes nothing. The arcs are the scene's test's, whose golden file pins the measures'
// arc rings from the same arcs.
func TestHalfTurnSplitPinned(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for _, sweep := range []float64{0.5, math.Pi / 2, math.Pi - 1e-12, math.Pi, math.Pi + 1e-12, math.Pi + 0.2, 1.5 * math.Pi, 2*math.Pi - 0.1, 2 * math.Pi} {
		for _, turn := range []float64{1, -1} {
			seg := geom.Seg{Kind: geom.SegArc, P: [3]geom.Vec{{X: 3, Y: -2}, {X: 2.5, Y: 0}, {X: 0, Y: 2.5 * turn}}, T0: 0.3, T1: 0.3 + sweep}
			a, _ := geom.CircleOf(seg)
			fmt.Fprintf(&b, "arc T0 %v T1 %v v.Y %v\n", seg.T0, seg.T1, seg.P[2].Y)
			pts, bul := appendArc(nil, nil, &flatArc{CircArc: a}, seg.ArcPoint(seg.T0), a.Sweep)
			fmt.Fprintf(&b, "  appendArc\n")
			for i, q := range pts {
				fmt.Fprintf(&b, "    %v %v bulge %v\n", q.X, q.Y, bul[i])
			}
		}
	}
	golden.Check(t, "testdata/half_turns.golden", []byte(b.String()))
}
