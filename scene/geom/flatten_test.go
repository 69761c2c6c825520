package geom

import (
	"reflect"
	"strings"
	"testing"
)

// cusps is a path of n cubics that each fold back on themselves, h units tall: at a fine
// tolerance every one of them is MaxCurveSegments chords.
func cusps(t *testing.T, n int, h string) Path {
	t.Helper()
	p, err := ParsePathData("M 0 0" + strings.Repeat(" c 0 "+h+" 0 -"+h+" 0 0", n))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func points(pls []Polyline) int {
	n := 0
	for _, pl := range pls {
		n += len(pl.Points)
	}
	return n
}

// TestFlattenPointBudget flattens paths whose curves alone would pass MaxFlattenPoints: the
// points made stay within it (the tolerance coarsened), counted, not timed.
func TestFlattenPointBudget(t *testing.T) {
	t.Parallel()
	big := cusps(t, 1000, "350") // 1,000 × 4,096 chords at 1e-6
	for _, c := range []struct {
		name string
		make func() int
	}{
		{"Flatten", func() int { return points(big.Flatten(1e-6)) }},
		{"Dash", func() int { return len(big.Dash([]float64{1e9, 1}, 1e-6)) }},
	} {
		if n := c.make(); n > MaxFlattenPoints+len(big) {
			t.Errorf("%s of %d cubics made %d points, want at most %d (MaxFlattenPoints)", c.name, len(big)-1, n, MaxFlattenPoints)
		}
	}
	if n := big.FlattenPoints(big.BudgetTolerance(1e-6, MaxFlattenPoints)); n > MaxFlattenPoints {
		t.Errorf("FlattenPoints at the budget's tolerance = %d, want at most %d", n, MaxFlattenPoints)
	}
}

// TestFlattenWithinBudgetUnchanged checks that ordinary paths flatten exactly as at their
// tolerance, and that FlattenPoints counts what Flatten makes.
func TestFlattenWithinBudgetUnchanged(t *testing.T) {
	t.Parallel()
	for _, d := range []string{
		"M 0 0 C 10 20 30 -20 40 0 Q 50 10 60 0 Z",
		"M 0 0 L 10 0 A 5 5 0 0 1 10 10 Z M 20 20 c 0 350 0 -350 0 0",
		"M 0 0 A 10 4 30 1 1 5 5 L 0 5 Z C 1 1 2 2 3 3",
	} {
		p, err := ParsePathData(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, tol := range []float64{1, 0.01, 1e-6} {
			if got, want := p.Flatten(tol), p.FlattenAt(tol, 0); !reflect.DeepEqual(got, want) {
				t.Errorf("%q at %g: Flatten differs from the tolerance's flattening", d, tol)
			}
			if got, want := p.FlattenAt(tol, p.FlattenPoints(tol)), p.FlattenAt(tol, 0); !reflect.DeepEqual(got, want) {
				t.Errorf("%q at %g: the flattening with room made for its points differs", d, tol)
			}
			if got := p.BudgetTolerance(tol, MaxFlattenPoints); got != tol {
				t.Errorf("%q at %g: BudgetTolerance = %g, want the tolerance kept", d, tol, got)
			}
			if n, made := p.FlattenPoints(tol), points(p.FlattenAt(tol, 0)); made > n {
				t.Errorf("%q at %g: Flatten made %d points, FlattenPoints counted %d", d, tol, made, n)
			}
		}
	}
}

// TestFlattenPolylinesApart: the polylines of one flattening share an array, and appending to
// one never writes into the next.
func TestFlattenPolylinesApart(t *testing.T) {
	t.Parallel()
	p, err := ParsePathData("M 0 0 L 10 0 L 10 10 Z M 20 0 A 5 5 0 0 1 30 0 M 40 0 L 50 0")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, p.FlattenPoints(0.01)} {
		pls := p.FlattenAt(0.01, n)
		want := pls[1].Points[0]
		for i := range pls {
			pls[i].Points = append(pls[i].Points, Vec{-1, -1})
		}
		if got := pls[1].Points[0]; got != want || len(pls) != 3 {
			t.Errorf("room for %d: after appending to each polyline the second starts at %v, want %v", n, got, want)
		}
	}
}
