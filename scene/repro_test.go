package scene_test

// The scripts in testdata/repros each showed a defect of the area operations found by
// differential testing against Clipper2; their first comment says what is expected. Each runs
// here through the runtime, as `cadrun run` runs it, and must give that.

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// runRepro runs a script as the main module; it returns the numbers each console line
// printed and the failure, if any, as "line N: message".
func runRepro(t *testing.T, src string) ([][]float64, string) {
	t.Helper()
	res, err := runtime.Run(t.Context(), runtime.MapSource{runtime.MainModule: src}, runtime.MainModule, runtime.Options{})
	if d := (*runtime.Diagnostic)(nil); errors.As(err, &d) {
		return nil, "line " + strconv.Itoa(d.Line) + ": " + d.Message
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	var nums [][]float64
	for _, l := range res.Logs {
		var row []float64
		for _, f := range strings.Fields(l) {
			if v, err := strconv.ParseFloat(strings.Trim(f, "(),:;"), 64); err == nil {
				row = append(row, v)
			}
		}
		nums = append(nums, row)
	}
	return nums, ""
}

func readRepro(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "repros", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutLines drops the given 1-based lines, to run what follows a line that fails.
func withoutLines(src string, drop ...int) string {
	lines := strings.Split(src, "\n")
	var out []string
	for i, l := range lines {
		keep := true
		for _, d := range drop {
			keep = keep && d != i+1
		}
		if keep {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// near compares within a relative tolerance.
func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*max(math.Abs(a), math.Abs(b)) }

func TestRepros(t *testing.T) {
	const emptyDifference = "the result would be empty: the second shapes cover all of the first; check their positions with getEntity"
	tests := []struct {
		file    string
		drop    []int  // lines left out
		failure string // the expected failure, "" for none
		check   func(t *testing.T, nums [][]float64)
	}{
		{file: "01-crash-huge-coordinates.js",
			failure: "line 4: drawPolygon: bad geometry: points[0].x is -6e+299, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
		{file: "02-near-coincident-copies.js",
			failure: `line 7: booleanDifference: difference of "A" and "B": ` + emptyDifference},
		{file: "02-near-coincident-copies.js", drop: []int{7, 8},
			check: func(t *testing.T, nums [][]float64) {
				if a, i := nums[0][0], nums[1][0]; !near(a, i, 1e-9) {
					t.Errorf("A & B = %v, want all of A (%v)", i, a)
				}
			}},
		{file: "03-offset-by-1e-12.js",
			check: func(t *testing.T, nums [][]float64) {
				for _, row := range nums {
					if got := row[len(row)-1]; !near(got, 1.866, 1e-9) {
						t.Errorf("inset area %v, want 1.866", got)
					}
				}
			}},
		{file: "04-hole-outside-outer-getArea.js",
			check: func(t *testing.T, nums [][]float64) {
				if got := nums[0][0]; !near(got, 0.1185, 1e-12) {
					t.Errorf("getArea %v, want 0.1185 (the outer triangle)", got)
				}
			}},
		{file: "05-hole-crossing-outer-in-a-list.js",
			check: func(t *testing.T, nums [][]float64) {
				if diff := cmp.Diff([]float64{196, 196}, nums[0]); diff != "" {
					t.Errorf("areas mismatch (-want +got):\n%s", diff)
				}
			}},
		{file: "06-overlapping-holes.js",
			check: func(t *testing.T, nums [][]float64) {
				want := [][]float64{{142, 142}, {148, 148, 148}, {0.5, 189, 189}}
				if diff := cmp.Diff(want, nums); diff != "" {
					t.Errorf("areas mismatch (-want +got):\n%s", diff)
				}
			}},
		{file: "07-offset-depends-on-units.js",
			check: func(t *testing.T, nums [][]float64) {
				// The hexagon drawn (side 10, its y rounded to 8.66) grown by 0.5: round joins
				// are exact arcs, which add π·0.5²; miters add 6·0.5²·tan(30°).
				side := math.Hypot(5, 8.66)
				hexArea := 2 * (10 + 20) / 2 * 8.66 // two trapezoids
				round := hexArea + (2*10+4*side)*0.5 + math.Pi*0.25
				for i, want := range []float64{round, 290.666} {
					m, mm := nums[i][0], nums[i][len(nums[i])-1]
					if !near(m, mm, 1e-9) || !near(mm, want, 1e-5) {
						t.Errorf("line %d: metres %v mm2, millimetres %v mm2, want both %v", i, m, mm, want)
					}
				}
			}},
		{file: "08-offset-small-scale-topology.js",
			check: func(t *testing.T, nums [][]float64) {
				// nums[0] = {-6 (from "1e-6"), parts, area}, nums[1] = {parts, 1e12, area/1e12}.
				small, unit := nums[0], nums[1]
				if small[1] != 1 || unit[0] != 1 || !near(small[2], unit[2], 1e-9) {
					t.Errorf("at 1e-6 scale %v parts of area %v; at unit scale %v parts of area %v·1e12; want one part, the same area", small[1], small[2], unit[0], unit[2])
				}
			}},
		{file: "09-rounding-noise.js",
			failure: `line 6: booleanDifference: difference of "S2" and "U": ` + emptyDifference},
		{file: "09-rounding-noise.js", drop: []int{6, 7},
			check: func(t *testing.T, nums [][]float64) {
				if got := nums[0][1]; got != 1 {
					t.Errorf("S0 u (T - S0) has %v parts, want 1", got)
				}
			}},
		{file: "10-slow-near-copies.js",
			check: func(t *testing.T, nums [][]float64) {
				if area, parts := nums[0][0], nums[0][1]; !near(area, 2819.3657, 1e-7) || parts != 1 {
					t.Errorf("union of the copies: area %v in %v parts, want 2819.3657 in 1", area, parts)
				}
			}},
		{file: "11-offset-falls-back.js",
			check: func(t *testing.T, nums [][]float64) {
				if got := nums[0][0]; !near(got, 1137.934484, 1e-9) {
					t.Errorf("area %v, want 1137.934484", got)
				}
			}},
	}
	for _, tt := range tests {
		name := tt.file
		if tt.drop != nil {
			name += " without the failing line"
		}
		t.Run(name, func(t *testing.T) {
			before := scene.Fallbacks()
			nums, failure := runRepro(t, withoutLines(readRepro(t, tt.file), tt.drop...))
			if failure != tt.failure {
				t.Fatalf("failure mismatch (-want +got):\n%s", cmp.Diff(tt.failure, failure))
			}
			if tt.check != nil {
				tt.check(t, nums)
			}
			// Not in parallel: the count is the process's.
			if n := scene.Fallbacks() - before; n != 0 {
				t.Errorf("%d operations fell back to simplefeatures; the engine must handle them", n)
			}
		})
	}
}
