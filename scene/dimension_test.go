package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
	"github.com/google/go-cmp/cmp"
)

// dimSample draws one dimension of each type about a 40 × 20 rectangle and a circle of
// radius 5 at (10, 5), all of them in one group that is then rotated and scaled by 2.
func dimSample(t *testing.T) *Scene {
	t.Helper()
	s := New()
	dims := map[string]*Dimension{
		"d_aligned": {Type: DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 30, Y: 40}}, Offset: 5},
		"d_h":       {Type: DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 20}}, Offset: 8},
		"d_v":       {Type: DimVertical, Points: []geom.Vec{{X: 40, Y: 0}, {X: 40, Y: 20}}, Offset: -8},
		"d_r":       {Type: DimRadius, Points: []geom.Vec{{X: 10, Y: 5}}, Radius: 5, Angle: math.Pi / 4, Outside: true},
		"d_dia":     {Type: DimDiameter, Points: []geom.Vec{{X: 10, Y: 5}}, Radius: 5, Angle: 0.3, Text: "<> H7"},
		"d_ang":     {Type: DimAngle, Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}}, Radius: 8},
	}
	names := []string{"d_aligned", "d_h", "d_v", "d_r", "d_dia", "d_ang"}
	for _, n := range names {
		d := dims[n]
		d.Precision, d.Size = DefaultDimPrecision, DefaultDimSize
		if _, err := s.Put(n, d); err != nil {
			t.Fatalf("Put(%q): %v", n, err)
		}
	}
	if _, err := s.CreateGroup("g", names); err != nil {
		t.Fatal(err)
	}
	must(t, s.Rotate("g", 0.7, SpaceWorld))
	must(t, s.Scale("g", 2, 2, SpaceWorld, nil))
	return s
}

func TestDimensionMeasuresUnderItsGroup(t *testing.T) {
	t.Parallel()
	s := dimSample(t)
	want := map[string]struct {
		v    float64
		text string
	}{
		"d_aligned": {100, "100"},
		"d_h":       {80, "80"},
		"d_v":       {40, "40"},
		"d_r":       {10, "R10"},
		"d_dia":     {20, "Ø20 H7"},
		"d_ang":     {45, "45°"},
	}
	for name, w := range want {
		d, err := s.Detail(name)
		must(t, err)
		if d.Measured == nil || math.Abs(*d.Measured-w.v) > 1e-9 {
			t.Errorf("%s: measured %v, want %v", name, d.Measured, w.v)
		}
		if d.DisplayText != w.text {
			t.Errorf("%s: text %q, want %q", name, d.DisplayText, w.text)
		}
		if d.Kind != KindDimension || d.Type != "Dimension" {
			t.Errorf("%s: kind %q type %q", name, d.Kind, d.Type)
		}
	}
}

func TestDimensionMirroredAngleKeepsItsSweep(t *testing.T) {
	t.Parallel()
	d := &Dimension{Type: DimAngle, Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 0, Y: 10}}, Radius: 5, Precision: 2, Size: 1}
	must(t, d.validate())
	if got := d.Measured(geom.Scaling(-1, 1)); math.Abs(got-90) > 1e-9 {
		t.Errorf("mirrored: %v°, want 90°", got)
	}
	if got := d.Measured(geom.Scaling(1, 3)); math.Abs(got-90) > 1e-9 {
		t.Errorf("stretched: %v°, want 90°", got)
	}
}

func TestDimensionJSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := dimSample(t)
	first, err := s.MarshalJSON()
	must(t, err)
	if !strings.Contains(string(first), `"version":4`) {
		t.Errorf("a scene with dimensions is not version 4:\n%.80s", first)
	}
	back, err := ReadJSON(first)
	must(t, err)
	second, err := back.MarshalJSON()
	must(t, err)
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Fatalf("scene -> JSON -> scene -> JSON changed (-first +second):\n%s", diff)
	}
	a, _ := s.Detail("d_dia")
	b, _ := back.Detail("d_dia")
	if *a.Measured != *b.Measured || a.DisplayText != b.DisplayText || a.WorldBounds != b.WorldBounds {
		t.Errorf("read back: %v %q %v, want %v %q %v", *b.Measured, b.DisplayText, b.WorldBounds, *a.Measured, a.DisplayText, a.WorldBounds)
	}
}

func TestDimensionStyleAndRegion(t *testing.T) {
	t.Parallel()
	s := New()
	e, err := s.Put("d", &Dimension{Type: DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}}, Offset: 3, Precision: 2, Size: 2.5})
	must(t, err)
	if e.Style.Fill == nil || e.Style.Stroke == nil || *e.Style.Fill != Black || *e.Style.Stroke != Black {
		t.Errorf("default style %+v, want black stroke and fill", e.Style)
	}
	if _, err := e.Shape.Region(); err == nil || !strings.Contains(err.Error(), ErrNotClosed.Error()) {
		t.Errorf("Region: %v, want ErrNotClosed", err)
	}
}

func TestDimensionValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    Dimension
		want string
	}{
		{Dimension{Type: "slant", Points: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}}, Size: 1}, `dimension type "slant" is not`},
		{Dimension{Type: DimAligned, Points: []geom.Vec{{X: 1, Y: 1}, {X: 1, Y: 1}}, Size: 1}, "coincide"},
		{Dimension{Type: DimAngle, Points: []geom.Vec{{X: 0, Y: 0}, {X: 0, Y: 0}, {X: 1, Y: 0}}, Radius: 1, Size: 1}, "coincides with its centre"},
		{Dimension{Type: DimRadius, Points: []geom.Vec{{X: 0, Y: 0}}, Size: 1}, "radius must be"},
		{Dimension{Type: DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}}, Size: 0}, "size must be"},
		{Dimension{Type: DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}}, Size: 1, Precision: 9}, "precision must be 0 to 8"},
	} {
		err := c.d.validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.d, err, c.want)
		}
	}
}

// The pieces land where a drafter puts them: the dimension line at the offset, the arrow
// tips on the extension lines, the text centred above the line and upright, the extension
// lines off the measured points by a gap and past the line by an overshoot.
func TestDimensionLinearLayout(t *testing.T) {
	t.Parallel()
	d := &Dimension{Type: DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 10, Precision: 2, Size: 2.5}
	must(t, d.validate())
	p := d.Outline()
	subs := subpaths(p)
	// ext 1, ext 2, line, two arrows, then the glyphs "4" and "0".
	if len(subs) < 7 {
		t.Fatalf("%d subpaths, want at least 7", len(subs))
	}
	wantOpen := [][2]geom.Vec{{{X: 0, Y: 0.625}, {X: 0, Y: 11.25}}, {{X: 40, Y: 0.625}, {X: 40, Y: 11.25}}, {{X: 0, Y: 10}, {X: 40, Y: 10}}}
	for i, w := range wantOpen {
		if got := [2]geom.Vec{subs[i][0].P[0], subs[i][1].P[0]}; got != w {
			t.Errorf("subpath %d runs %v, want %v", i, got, w)
		}
	}
	if tip := subs[3][0].P[0]; tip != (geom.Vec{X: 0, Y: 10}) {
		t.Errorf("first arrow tip at %v, want (0, 10)", tip)
	}
	if base := subs[3][1].P[0]; base.X != 2.5 {
		t.Errorf("first arrow points the wrong way: base at %v", base)
	}
	var text geom.Path
	for _, sp := range subs[5:] {
		text = append(text, sp...)
	}
	b := text.Bounds()
	if c := (b.Min.X + b.Max.X) / 2; math.Abs(c-20) > 0.5 {
		t.Errorf("text centred at x = %v, want 20", c)
	}
	if b.Min.Y < 10.5 || b.Max.Y > 10.625+2.5 {
		t.Errorf("text spans y %v..%v, want just above the line at 10", b.Min.Y, b.Max.Y)
	}
}

// subpaths splits p at its moves.
func subpaths(p geom.Path) []geom.Path {
	var out []geom.Path
	for _, s := range p {
		if s.Kind == geom.SegMove {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], s)
	}
	return out
}

// TestGroupMeasuresLeaveDimensionsOut: a circle grouped with its diameter dimension measures
// as the circle alone: area, perimeter, centroid and the distance to another shape.
func TestGroupMeasuresLeaveDimensionsOut(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "hole", Circle{Center: geom.Vec{X: 10, Y: 0}, Radius: 5})
	mustPut(t, s, "d", &Dimension{Type: DimDiameter, Points: []geom.Vec{{X: 10, Y: 0}}, Radius: 5, Angle: 0.3, Precision: 2, Size: 2.5, Outside: true})
	if _, err := s.CreateGroup("g", []string{"hole", "d"}); err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "wall", Line{Points: []geom.Vec{{X: 30, Y: -20}, {X: 30, Y: 20}}})
	area, err := s.Area("g")
	must(t, err)
	per, err := s.Perimeter("g")
	must(t, err)
	c, err := s.Centroid("g")
	must(t, err)
	gap, err := s.Distance("g", "wall")
	must(t, err)
	if math.Abs(area-25*math.Pi) > 1e-9 || math.Abs(per-10*math.Pi) > 1e-9 || c.Sub(geom.Vec{X: 10, Y: 0}).Len() > 1e-9 || math.Abs(gap.Distance-15) > 1e-9 {
		t.Errorf("area %v, perimeter %v, centroid %v, distance to the wall %v; want the circle's: %v, %v, [10 0], 15",
			area, per, c, gap.Distance, 25*math.Pi, 10*math.Pi)
	}
}

// TestDimensionTextAt: textAt sets the text's middle where it says, in the dimension's frame,
// turned along its line, for every kind of dimension; the lines stay, and scene.json keeps it.
func TestDimensionTextAt(t *testing.T) {
	t.Parallel()
	at := geom.Vec{X: 30, Y: 12}
	dims := map[string]*Dimension{
		"horizontal": {Type: DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 8, Size: 2.5, Precision: 2, TextAt: &at},
		"diameter":   {Type: DimDiameter, Points: []geom.Vec{{X: 0, Y: 0}}, Radius: 10, Angle: math.Pi / 4, Size: 2.5, Precision: 2, TextAt: &at},
		"angle":      {Type: DimAngle, Points: []geom.Vec{{X: 0, Y: 0}, {X: 30, Y: 0}, {X: 20, Y: 20}}, Radius: 15, Size: 2.5, Precision: 2, TextAt: &at},
	}
	s := New()
	for name, d := range dims {
		if _, err := s.Put(name, d); err != nil {
			t.Fatal(err)
		}
		if err := s.Translate(name, geom.Vec{X: 100}, SpaceWorld); err != nil {
			t.Fatal(err)
		}
		e, _ := s.Get(name)
		m := s.WorldMatrix(e)
		tu := d.TextUnder(m)
		if got, want := tu.Place.Apply(tu.Box.Center()), m.Apply(at); cmp.Diff(want, got, approx) != "" {
			t.Errorf("%s: the text's middle is at %v, want %v", name, got, want)
		}
		// The lines are the outline before the text's glyphs, and stay where they were.
		plain := *d
		plain.TextAt = nil
		l, err := text.LayoutString(d.DisplayText(m), d.Size, text.AlignCenter, "")
		must(t, err)
		withText, without := d.worldOutline(m), plain.worldOutline(m)
		lines := len(without) - len(l.Path)
		if len(withText) != len(without) || cmp.Diff(without[:lines], withText[:lines]) != "" {
			t.Errorf("%s: the lines moved with the text", name)
		}
	}
	b, err := s.MarshalJSON()
	must(t, err)
	if !strings.Contains(string(b), `"textAt":[30,12]`) {
		t.Errorf("scene.json does not keep textAt:\n%s", b)
	}
	back, err := ReadJSON(b)
	must(t, err)
	again, err := back.MarshalJSON()
	must(t, err)
	if diff := cmp.Diff(string(b), string(again)); diff != "" {
		t.Errorf("scene -> JSON -> scene -> JSON changed (-first +second):\n%s", diff)
	}
}
