package geom

import (
	"math"
	"testing"
)

// circle is the outline of a circle of radius r about the origin, as a circle shape draws
// it: one full turn of an arc segment.
func circle(r float64) Path {
	var p Path
	p.MoveTo(Vec{r, 0})
	p.ArcTo(Vec{}, Vec{r, 0}, Vec{0, r}, 0, 2*math.Pi)
	p.Close()
	return p
}

// dashLengths is the length of each subpath of a dashed path (lines and arcs measured exactly).
func dashLengths(t *testing.T, p Path) []float64 {
	t.Helper()
	var out []float64
	var here Vec
	for _, s := range p {
		switch s.Kind {
		case SegMove:
			out = append(out, 0)
			here = s.P[0]
		case SegLine:
			out[len(out)-1] += s.P[0].Sub(here).Len()
			here = s.P[0]
		case SegArc:
			if d := s.ArcPoint(s.T0).Sub(here).Len(); d > 1e-9 {
				t.Fatalf("an arc dash starts %g from the pen", d)
			}
			out[len(out)-1] += s.P[1].Len() * math.Abs(s.T1-s.T0)
			here = s.End()
		default:
			t.Fatalf("a dash holds a segment of kind %d", s.Kind)
		}
	}
	return out
}

func TestDashLine(t *testing.T) {
	var p Path
	p.Polyline([]Vec{{}, {X: 20}}, false)
	got := dashLengths(t, p.Dash([]float64{6, 3}, 0.01))
	want := []float64{6, 6, 2} // 0-6, 9-15, 18-20
	if len(got) != len(want) {
		t.Fatalf("dashes %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("dashes %v, want %v", got, want)
		}
	}
}

// TestDashCircleExact dashes a circle of radius 10 (length 20π) with 6 on, 3 off: every dash is
// an exact arc on the circle, the pattern runs on across the closing, and the dashes add up to
// what the pattern covers of 20π.
func TestDashCircleExact(t *testing.T) {
	p := circle(10)
	dashed := p.Dash([]float64{6, 3}, 0.01)
	for _, s := range dashed {
		if s.Kind == SegLine {
			t.Fatalf("a circle's dash was flattened: %v", s)
		}
	}
	got := dashLengths(t, dashed)
	sum := 0.0
	for _, v := range got {
		sum += v
	}
	n := 20 * math.Pi
	full := math.Floor(n / 9)
	want := full*6 + math.Min(6, n-full*9)
	if math.Abs(sum-want) > 1e-9 {
		t.Fatalf("dashes sum to %v, want %v (%d dashes)", sum, want, len(got))
	}
}

func TestDashDotsAndRestart(t *testing.T) {
	var p Path
	p.Polyline([]Vec{{}, {X: 10}}, false)
	p.Polyline([]Vec{{Y: 5}, {X: 10, Y: 5}}, false)
	dashed := p.Dash([]float64{0, 4}, 0.01)
	got := dashLengths(t, dashed)
	if len(got) != 6 { // dots at 0, 4, 8 on each line
		t.Fatalf("%d dots %v, want 6", len(got), got)
	}
	if dashed[6].Kind != SegMove || dashed[6].P[0] != (Vec{Y: 5}) {
		t.Fatalf("the pattern does not start afresh at the second subpath: %v", dashed[6])
	}
}

func TestDashNoPattern(t *testing.T) {
	p := circle(1)
	if got := p.Dash([]float64{0, 0}, 0.01); len(got) != len(p) {
		t.Fatalf("an empty pattern changed the path")
	}
}
