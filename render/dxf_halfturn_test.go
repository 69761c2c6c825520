package render

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDXFHalfTurnsPinned pins how the DXF writer splits a circular arc into polyline bulges
// of at most half a turn: the vertices and bulges, to the last bit, for sweeps around the half
// turns both ways round, so that sharing the split (geom.Seg.HalfTurnPoints) changes nothing.
func TestDXFHalfTurnsPinned(t *testing.T) {
	t.Parallel()
	d := &dxfDoc{tol: 0.01, quantum: 1e-9}
	var b strings.Builder
	for _, sweep := range []float64{0.5, math.Pi / 2, math.Pi - 1e-12, math.Pi, math.Pi + 1e-12, math.Pi + 0.2, 1.5 * math.Pi, 2*math.Pi - 0.1, 2 * math.Pi} {
		for _, turn := range []float64{1, -1} {
			seg := geom.Seg{Kind: geom.SegArc, P: [3]geom.Vec{{X: 3, Y: -2}, {X: 2.5}, {Y: 2.5 * turn}}, T0: 0.3, T1: 0.3 + sweep}
			var p geom.Path
			p.MoveTo(geom.Vec{X: 3, Y: -2})
			p = append(p, seg)
			p.Close()
			pts, closed := d.vertices(p)
			fmt.Fprintf(&b, "sweep %v turn %v closed %v\n", sweep, turn, closed)
			for _, v := range pts {
				fmt.Fprintf(&b, "  %v %v bulge %v\n", v.p.X, v.p.Y, v.bulge)
			}
		}
	}
	golden.Check(t, "testdata/dxf_half_turns.golden", []byte(b.String()))
}
