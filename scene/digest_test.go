package scene

// TestResultDigests pins the area operations' results to the bit: seeded random cases (the
// differential test's generator, and larger scenes of many shapes, squares in grids and
// washers), W2 and W3 go through Boolean, Offset and Area, and a SHA-256 of every result's
// coordinates, by group of cases, is compared with testdata/result_digests.txt. The overlay
// engine's speed work keeps this file unchanged; a change of results shows here as the
// groups it touches, to be looked at before UPDATE_GOLDEN=1 rewrites it.

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene/geom"
)

// digestOf is a result's digest: its parts' coordinates as bits, or the error's text.
func digestOf(e *Entity, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	h := sha256.New()
	var buf [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	parts := e.Shape.(Polygon).Parts
	for _, p := range parts {
		for _, r := range append([][]geom.Vec{p.Outer}, p.Holes...) {
			put(uint64(len(r)))
			for _, v := range r {
				put(math.Float64bits(v.X))
				put(math.Float64bits(v.Y))
			}
		}
		put(math.MaxUint64)
	}
	return fmt.Sprintf("%d parts %x", len(parts), h.Sum(nil)[:12])
}

// bigCase is a larger scene than genCase's: many random polygons, a plate with a grid of
// square holes, a grid of circles, or washers.
func bigCase(rng *rand.Rand) diffCase {
	var dc diffCase
	switch rng.IntN(5) {
	case 0:
		dc.kind = "many circles"
		for range 10 + rng.IntN(60) {
			c := geom.Vec{X: rng.Float64() * 40, Y: rng.Float64() * 40}
			dc.a = append(dc.a, onePoly(regularPolygon(c, 1+rng.Float64()*5, 8+rng.IntN(60))))
		}
		for range rng.IntN(20) {
			c := geom.Vec{X: rng.Float64() * 40, Y: rng.Float64() * 40}
			dc.b = append(dc.b, onePoly(starRing(rng, c, 1+rng.Float64()*5, 3+rng.IntN(20))))
		}
	case 1:
		dc.kind = "square grid"
		n := 3 + rng.IntN(20)
		pitch := []float64{1, 1.5, 2, 0.999999999}[rng.IntN(4)]
		dc.a = []Polygon{boolRect(-1, -1, float64(n)*pitch+1, float64(n)*pitch+1)}
		for i := range n {
			for j := range n {
				if rng.IntN(5) > 0 {
					x, y := float64(i)*pitch, float64(j)*pitch
					dc.b = append(dc.b, boolRect(x, y, x+1, y+1))
				}
			}
		}
	case 2:
		dc.kind = "grid of circles"
		n := 2 + rng.IntN(10)
		r := 0.5 + rng.Float64()
		for i := range n {
			for j := range n {
				dc.a = append(dc.a, onePoly(regularPolygon(geom.Vec{X: float64(i), Y: float64(j)}, r, 4*(1+rng.IntN(16)))))
			}
		}
		dc.b = []Polygon{onePoly(starRing(rng, geom.Vec{X: float64(n) / 2, Y: float64(n) / 2}, float64(n)/2, 5+rng.IntN(30)))}
	case 3:
		dc.kind = "washers"
		n := 2 + rng.IntN(25)
		for i := range n {
			for j := range n {
				x, y := float64(i)*3+rng.Float64()*0.5, float64(j)*3+rng.Float64()*0.5
				p := boolRect(x, y, x+2.5, y+2.5)
				if rng.IntN(3) > 0 {
					p.Parts[0].Holes = [][]geom.Vec{{{X: x + 0.5, Y: y + 0.5}, {X: x + 0.5, Y: y + 2}, {X: x + 2, Y: y + 2}, {X: x + 2, Y: y + 0.5}}}
				}
				dc.a = append(dc.a, p)
			}
		}
		for range rng.IntN(4) {
			c := geom.Vec{X: rng.Float64() * float64(n) * 3, Y: rng.Float64() * float64(n) * 3}
			dc.b = append(dc.b, onePoly(regularPolygon(c, 1+rng.Float64()*float64(n), 3+rng.IntN(30))))
		}
	default:
		dc.kind = "stars"
		for range 2 + rng.IntN(30) {
			c := geom.Vec{X: rng.Float64() * 20, Y: rng.Float64() * 20}
			dc.a = append(dc.a, onePoly(starRing(rng, c, 1+rng.Float64()*8, 3+rng.IntN(40))))
		}
		for range 1 + rng.IntN(30) {
			c := geom.Vec{X: rng.Float64() * 20, Y: rng.Float64() * 20}
			dc.b = append(dc.b, onePoly(starRing(rng, c, 1+rng.Float64()*8, 3+rng.IntN(40))))
		}
	}
	if rng.IntN(3) == 0 {
		s, c := math.Sincos(rng.Float64() * 2 * math.Pi)
		dc.kind += " turned"
		turn := func(p geom.Vec) geom.Vec { return geom.Vec{X: c*p.X - s*p.Y + 7, Y: s*p.X + c*p.Y - 3} }
		dc.a, dc.b = mapPolys(dc.a, turn), mapPolys(dc.b, turn)
	}
	return dc
}

// caseDigests runs every operation on one case and writes one line per result to w.
func caseDigests(t *testing.T, w *strings.Builder, dc diffCase, rng *rand.Rand) {
	s, an, bn := diffScene(t, dc)
	for op := Union; op <= Xor; op++ {
		a, b := an, bn
		if op == Union && rng.IntN(2) == 0 {
			a, b = append(append([]string(nil), an...), bn...), nil // the list form
		}
		if len(b) == 0 && op != Union {
			continue
		}
		e, err := s.Boolean(op, a, b, "r")
		fmt.Fprintf(w, "%s: %s\n", op, digestOf(e, err))
	}
	if _, err := s.Boolean(Union, an, nil, "A"); err == nil {
		for _, j := range []JoinType{JoinRound, JoinSquare, JoinMiter} {
			d := (rng.Float64()*2 - 1) * 0.3
			e, err := s.Offset("A", d, "o", OffsetOptions{Join: j})
			fmt.Fprintf(w, "offset %s %v: %s\n", j, d, digestOf(e, err))
		}
	}
	if area, err := s.Area("a0"); err == nil {
		fmt.Fprintf(w, "area %x\n", math.Float64bits(area))
	}
}

func TestResultDigests(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		// Other architectures may fuse a multiplication and an addition into one rounding.
		t.Skipf("the digests are of amd64's floating point, not %s's", runtime.GOARCH)
	}
	t.Parallel()
	var out strings.Builder
	group := func(name string, cases int, next func(*rand.Rand) diffCase, rng *rand.Rand) {
		const per = 25
		for first := 0; first < cases; first += per {
			var lines strings.Builder
			for range min(per, cases-first) {
				caseDigests(t, &lines, next(rng), rng)
			}
			fmt.Fprintf(&out, "%s cases %d-%d: %x\n", name, first, min(first+per, cases)-1, sha256.Sum256([]byte(lines.String())))
		}
	}
	for seed := uint64(1); seed <= 4; seed++ {
		group(fmt.Sprintf("seed %d", seed), 100, genCase, rand.New(rand.NewPCG(seed, 99)))
	}
	group("larger", 50, bigCase, rand.New(rand.NewPCG(5, 99)))
	s, names := w2aScene(t)
	e, err := s.Boolean(Union, names, nil, "u")
	fmt.Fprintf(&out, "W2 (A): %s\n", digestOf(e, err))
	s, names = w2bScene(t)
	e, err = s.Boolean(Difference, []string{"plate"}, names, "d")
	fmt.Fprintf(&out, "W2 (B): %s\n", digestOf(e, err))
	s = w3Scene(t)
	e, err = s.Offset("star", 2, "out", OffsetOptions{})
	fmt.Fprintf(&out, "W3 +2: %s\n", digestOf(e, err))
	e, err = s.Offset("star", -2, "in", OffsetOptions{})
	fmt.Fprintf(&out, "W3 -2: %s\n", digestOf(e, err))
	golden.Check(t, "testdata/result_digests.txt", []byte(out.String()))
}
