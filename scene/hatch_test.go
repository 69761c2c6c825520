package scene

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// hatchPlate is a 20 x 20 square centred at (30, 10) with a hole of radius 5 in its middle,
// as a boolean result (a polygon with an arc-edged hole).
func hatchPlate(t *testing.T) *Scene {
	t.Helper()
	s := New()
	must(t, putShape(s, "sq", Rect{Center: geom.Vec{X: 30, Y: 10}, Width: 20, Height: 20}))
	must(t, putShape(s, "hole", Circle{Center: geom.Vec{X: 30, Y: 10}, Radius: 5}))
	_, err := s.Boolean(Difference, []string{"sq"}, []string{"hole"}, "plate")
	must(t, err)
	return s
}

// plateInside reports whether p is in the plate's area, up to the hole's flattening (at most
// CurveRelative of the plate's size, inside the circle), and how far it is from its edges.
func plateInside(p geom.Vec) (inside bool, edge float64) {
	d := p.Sub(geom.Vec{X: 30, Y: 10})
	toSquare := 10 - max(math.Abs(d.X), math.Abs(d.Y))
	toHole := d.Len() - 5
	return toSquare >= -1e-9 && toHole >= -20*CurveRelative, min(math.Abs(toSquare), math.Abs(toHole))
}

func hatchOf(t *testing.T, s *Scene, name string) Hatching {
	t.Helper()
	hs, err := s.Hatches()
	must(t, err)
	e, err := s.Get(name)
	must(t, err)
	return hs[e]
}

// TestHatchClipsToTheArea checks each pattern on a plate with a hole: every segment's ends
// lie on the plate's edges (or, for dashes and dots, inside it), its middle inside the plate
// and out of the hole, its direction the pattern's, and the lines' total length times their
// spacing is the plate's area (the dots' count times a dot's cell, likewise).
func TestHatchClipsToTheArea(t *testing.T) {
	t.Parallel()
	area := 400 - 25*math.Pi
	for _, c := range []struct {
		pattern      string
		angle, scale float64
		dirs         []float64 // the directions of the lines, degrees mod 180
		measure      func(h Hatching) float64
		want         float64
	}{
		{"ansi31", 0, 1, []float64{45}, totalLength, area / 3.175},
		// vertical lines 6.35 apart through the origin: x = 25.4, 31.75 and 38.1 cross the plate,
		// the first two cut by the hole
		{"ansi31", math.Pi / 4, 2, []float64{90}, totalLength, 60 - 2*math.Sqrt(25-4.6*4.6) - 2*math.Sqrt(25-1.75*1.75)},
		{"ansi37", 0, 1, []float64{45, 135}, totalLength, 2 * area / 3.175},
		{"dots", 0, 1, nil, func(h Hatching) float64 { return float64(len(h.Segments)) }, area / (1.5875 * 1.5875)},
	} {
		s := hatchPlate(t)
		must(t, s.SetHatch("plate", c.pattern, c.angle, c.scale, nil))
		h := hatchOf(t, s, "plate")
		if h.Solid || len(h.Segments) == 0 || h.Color != Black {
			t.Fatalf("%s: want black segments, got %d (solid %v, colour %v)", c.pattern, len(h.Segments), h.Solid, h.Color)
		}
		for _, seg := range h.Segments {
			mid := seg[0].Add(seg[1]).Mul(0.5)
			if in, _ := plateInside(mid); !in {
				t.Fatalf("%s: segment %v has its middle outside the plate or in its hole", c.pattern, seg)
			}
			if c.dirs == nil {
				if seg[0] != seg[1] {
					t.Fatalf("%s: want dots, got the segment %v", c.pattern, seg)
				}
				continue
			}
			for _, p := range seg {
				if in, edge := plateInside(p); !in || edge > 20*CurveRelative {
					t.Fatalf("%s: segment %v ends at %v, %v from the plate's edge (inside %v)", c.pattern, seg, p, edge, in)
				}
			}
			d := seg[1].Sub(seg[0])
			dir := math.Mod(math.Atan2(d.Y, d.X)*180/math.Pi+360, 180)
			if !slicesContainsNear(c.dirs, dir) {
				t.Fatalf("%s: segment %v runs at %v°, want one of %v", c.pattern, seg, dir, c.dirs)
			}
		}
		if got := c.measure(h); math.Abs(got-c.want) > 0.05*c.want {
			t.Errorf("%s at %v, scale %v: got %v, want about %v", c.pattern, c.angle, c.scale, got, c.want)
		}
	}
}

func totalLength(h Hatching) float64 {
	n := 0.0
	for _, s := range h.Segments {
		n += s[1].Sub(s[0]).Len()
	}
	return n
}

func slicesContainsNear(xs []float64, x float64) bool {
	for _, v := range xs {
		if math.Abs(math.Mod(x-v+540, 180)-180) < 1e-6 || math.Abs(x-v) < 1e-6 {
			return true
		}
	}
	return false
}

// TestHatchOnGroupsAndColours: a group's hatch reaches its closed members without their own,
// not its open ones; a member's own wins; the colour is the hatch's, else the stroke's; solid
// has no segments; none removes it.
func TestHatchOnGroupsAndColours(t *testing.T) {
	t.Parallel()
	s := New()
	must(t, putShape(s, "a", Rect{Width: 10, Height: 10}))
	must(t, putShape(s, "b", Circle{Center: geom.Vec{X: 20, Y: 0}, Radius: 5}))
	must(t, putShape(s, "edge", Line{Points: []geom.Vec{{X: 0, Y: -10}, {X: 20, Y: -10}}}))
	_, err := s.CreateGroup("g", []string{"a", "b", "edge"})
	must(t, err)
	must(t, s.SetStroke("b", &Color{1, 0, 0, 1}, 0))
	must(t, s.SetHatch("g", "ansi31", 0, 1, nil))
	must(t, s.SetHatch("a", "solid", 0, 1, &Color{0, 0, 1, 1}))
	hs, err := s.Hatches()
	must(t, err)
	type got struct {
		Pattern string
		Solid   bool
		Color   Color
		Lines   bool
	}
	want := map[string]got{
		"a": {"solid", true, Color{0, 0, 1, 1}, false},
		"b": {"ansi31", false, Color{1, 0, 0, 1}, true},
	}
	have := map[string]got{}
	for e, h := range hs {
		have[e.Name] = got{h.Pattern, h.Solid, h.Color, len(h.Segments) > 0}
	}
	if diff := cmp.Diff(want, have); diff != "" {
		t.Errorf("hatches: mismatch (-want +got):\n%s", diff)
	}
	must(t, s.SetHatch("g", "none", 0, 0, nil))
	must(t, s.SetHatch("a", "", 0, 0, nil))
	if hs, err := s.Hatches(); err != nil || len(hs) != 0 {
		t.Errorf("after removing: got %v, %v", hs, err)
	}
}

func TestHatchErrors(t *testing.T) {
	t.Parallel()
	s := New()
	must(t, putShape(s, "l", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}}}))
	must(t, putShape(s, "arc", Arc{Radius: 5, End: 1}))
	must(t, putShape(s, "open", &PathShape{Data: "M0 0 L10 0 L10 10"}))
	must(t, putShape(s, "big", Rect{Width: 1000, Height: 1000}))
	for _, name := range []string{"l", "arc", "open"} {
		err := s.SetHatch(name, "ansi31", 0, 1, nil)
		if !errors.Is(err, ErrNotClosed) || !strings.Contains(err.Error(), "encloses none; hatch a closed shape") {
			t.Errorf("%s: got %v, want a refusal saying to hatch a closed shape", name, err)
		}
	}
	err := s.SetHatch("big", "crosshatch", 0, 1, nil)
	if !errors.Is(err, drafting.ErrBadHatch) || err.Error() != `unknown hatch pattern "crosshatch": use one of solid, ansi31, ansi37, dots, or 'none' to remove it` {
		t.Errorf("unknown pattern: got %v", err)
	}
	err = s.SetHatch("big", "ansi31", 0, 0.001, nil)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxHatchSegments") || !strings.Contains(err.Error(), "use a larger scale") {
		t.Errorf("tiny scale: got %v, want the MaxHatchSegments limit", err)
	}
	if e, _ := s.Get("big"); e.Style.Hatch != "" {
		t.Errorf("a refused hatch was kept: %+v", e.Style)
	}
	err = s.SetHatch("big", "dots", 0, -1, nil)
	if !errors.Is(err, ErrBadGeometry) {
		t.Errorf("negative scale: got %v", err)
	}
	// A shape scaled up after it was hatched passes the limit when drawn.
	must(t, s.SetHatch("big", "ansi31", 0, 0.05, nil))
	must(t, s.Scale("big", 100, 100, SpaceWorld, nil))
	if _, err := s.Hatches(); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), `"big"`) {
		t.Errorf("scaled up: got %v, want the limit naming the shape", err)
	}
}

func TestHatchJSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := hatchPlate(t)
	must(t, s.SetHatch("plate", "ansi37", 0.5, 2, &Color{0, 0.5, 0, 1}))
	first, err := s.MarshalJSON()
	must(t, err)
	if !strings.Contains(string(first), `"version":4,`) || !strings.Contains(string(first), `"hatch":"ansi37","hatchAngle":0.5,"hatchScale":2,"hatchColor":[0,0.5,0,1]`) {
		t.Fatalf("version 4 document with the hatch expected, got\n%s", first)
	}
	back, err := ReadJSON(first)
	must(t, err)
	second, err := back.MarshalJSON()
	must(t, err)
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Fatalf("scene -> JSON -> scene -> JSON changed (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(hatchOf(t, s, "plate"), hatchOf(t, back, "plate")); diff != "" {
		t.Errorf("hatch changed (-want +got):\n%s", diff)
	}
	checkWriterMatchesReflect(t, s)
	checkReadersAgree(t, first)
	bad := strings.Replace(string(first), `"hatch":"ansi37"`, `"hatch":"brick"`, 1)
	if _, err := ReadJSON([]byte(bad)); !errors.Is(err, drafting.ErrBadHatch) {
		t.Errorf("unknown pattern in a document: got %v", err)
	}
}
