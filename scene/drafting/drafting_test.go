package drafting

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestDashes pins a linetype's dash pattern as the writers take it: lengths without signs,
// times the scale (0 and less mean 1), nil for a continuous line or an unknown name.
func TestDashes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		scale float64
		want  []float64
	}{
		{"dashed", 1, []float64{6, 3}},
		{"dashed", 2, []float64{12, 6}},
		{"center", 0, []float64{15, 3, 3, 3}},
		{"dot", -1, []float64{0, 3}},
		{"continuous", 1, nil},
		{"wavy", 1, nil},
	} {
		if diff := cmp.Diff(c.want, Dashes(c.name, c.scale)); diff != "" {
			t.Errorf("Dashes(%q, %v) mismatch (-want +got):\n%s", c.name, c.scale, diff)
		}
	}
}

// TestDashesOfNoPatternAllocateNothing: every writer, the dash budget and the scene tool's
// size estimate ask Dashes once per shape, mostly for a style with no linetype; answering nil
// must not build the unknown-name refusal (it was an eighth of W1's whole process).
func TestDashesOfNoPatternAllocateNothing(t *testing.T) {
	for _, name := range []string{"", "continuous", "wavy"} {
		if n := testing.AllocsPerRun(100, func() { Dashes(name, 1) }); n != 0 {
			t.Errorf("Dashes(%q) makes %v allocations, want 0", name, n)
		}
	}
}

// TestLookupNamesTheChoices: an unknown linetype or hatch is its sentinel, with the names
// there are.
func TestLookupNamesTheChoices(t *testing.T) {
	t.Parallel()
	_, err := LookupLinetype("wavy")
	if want := `unknown linetype "wavy": use one of continuous, dashed, hidden, center, phantom, dot`; !errors.Is(err, ErrBadLinetype) || err.Error() != want {
		t.Errorf("LookupLinetype: %v, want %s", err, want)
	}
	_, err = LookupHatch("brick")
	if want := `unknown hatch pattern "brick": use one of solid, ansi31, ansi37, dots, or 'none' to remove it`; !errors.Is(err, ErrBadHatch) || err.Error() != want {
		t.Errorf("LookupHatch: %v, want %s", err, want)
	}
	for _, name := range LinetypeNames() {
		if lt, err := LookupLinetype(name); err != nil || lt.Name != name {
			t.Errorf("LookupLinetype(%q) = %v, %v", name, lt.Name, err)
		}
	}
	for _, name := range HatchNames() {
		if h, err := LookupHatch(name); err != nil || h.Name != name {
			t.Errorf("LookupHatch(%q) = %v, %v", name, h.Name, err)
		}
	}
}

// TestPlaced turns and scales a pattern as AutoCAD places one: the angle added in degrees,
// the base point turned and scaled, the offset (in the lines' own frame) and the dashes
// scaled.
func TestPlaced(t *testing.T) {
	t.Parallel()
	dots, err := LookupHatch("dots")
	if err != nil {
		t.Fatal(err)
	}
	got := dots.Placed(math.Pi/2, 2)
	want := []HatchLine{{Angle: 90, Base: geom.Vec{}, Offset: geom.Vec{X: 1.5875, Y: 3.175}, Dashes: []float64{0, -3.175}}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 })); diff != "" {
		t.Errorf("Placed mismatch (-want +got):\n%s", diff)
	}
	if got := dots.Placed(0, 0); got[0].Offset != dots.Lines[0].Offset {
		t.Errorf("a scale of 0 is 1: offset %v, want %v", got[0].Offset, dots.Lines[0].Offset)
	}
}
