package render

import (
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

func mustSVG(t *testing.T, s *scene.Scene, opt SVGOptions) string {
	t.Helper()
	b, err := SVG(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSVGSmall(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Center: geom.Vec{X: 0, Y: 5}, Width: 10, Height: 10})
	red := scene.Color{1, 0, 0, 0.5}
	if err := s.SetFill("r", &red); err != nil {
		t.Fatal(err)
	}
	v := View{Min: geom.Vec{X: -10, Y: -10}, Max: geom.Vec{X: 10, Y: 10}}
	got := mustSVG(t, s, SVGOptions{View: &v, Width: 200})
	// Y is flipped: the rectangle spans y 0..10 in the world, -10..0 in SVG.
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-10 -10 20 20" width="200">
<path data-name="r" d="M -5 0 L 5 0 L 5 -10 L -5 -10 Z" fill="#ff0000" fill-opacity="0.5" stroke="#000000" stroke-width="1" vector-effect="non-scaling-stroke" stroke-linejoin="round" stroke-linecap="round"/>
</svg>
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSVGEscapesNames(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, `a"<b>&`, scene.Circle{Radius: 1})
	if got := mustSVG(t, s, SVGOptions{}); !strings.Contains(got, `data-name="a&#34;&lt;b&gt;&amp;"`) {
		t.Errorf("name not escaped:\n%s", got)
	}
}

// TestSVGArcsMatchGeometry parses the A commands the writer emits for rotated, scaled and
// mirrored ellipses and checks that their end points and radii describe the true ellipse.
func TestSVGArcsMatchGeometry(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		rot    float64
		sx, sy float64
	}{
		{"plain", 0, 1, 1},
		{"rotated", 0.5, 1, 1},
		{"stretched", 0.3, 2, 0.5},
		{"mirrored", 1.2, -1, 1.5},
	}
	num := regexp.MustCompile(`A ([-\d.]+) ([-\d.]+) ([-\d.]+) ([01]) ([01]) ([-\d.]+) ([-\d.]+)`)
	for _, c := range cases {
		s := scene.New()
		put(t, s, "e", scene.Ellipse{RX: 3, RY: 1})
		if err := s.Rotate("e", c.rot, scene.SpaceWorld); err != nil {
			t.Fatal(err)
		}
		if err := s.Scale("e", c.sx, c.sy, scene.SpaceLocal, nil); err != nil {
			t.Fatal(err)
		}
		e, _ := s.Get("e")
		m := s.WorldMatrix(e)
		got := mustSVG(t, s, SVGOptions{})
		arcs := num.FindAllStringSubmatch(got, -1)
		if len(arcs) != 2 {
			t.Fatalf("%s: want a full ellipse as 2 half arcs, got %d in\n%s", c.name, len(arcs), got)
		}
		for _, a := range arcs {
			rx, _ := strconv.ParseFloat(a[1], 64)
			ry, _ := strconv.ParseFloat(a[2], 64)
			wantRX := m.Mul(geom.Scaling(3, 1)).MaxScale()
			if math.Abs(rx-wantRX) > 1e-3 || ry <= 0 || ry > rx {
				t.Errorf("%s: radii %v %v, want rx %v", c.name, rx, ry, wantRX)
			}
			// Both end points lie on the transformed ellipse.
			x, _ := strconv.ParseFloat(a[6], 64)
			y, _ := strconv.ParseFloat(a[7], 64)
			inv, _ := m.Invert()
			p := inv.Apply(geom.Vec{X: x, Y: -y})
			if d := math.Abs(p.X*p.X/9 + p.Y*p.Y - 1); d > 1e-3 {
				t.Errorf("%s: end point (%v,%v) is off the ellipse by %v", c.name, x, y, d)
			}
		}
	}
}

func TestSVGDeterministic(t *testing.T) {
	t.Parallel()
	a := mustSVG(t, demoScene(t), SVGOptions{})
	b := mustSVG(t, demoScene(t), SVGOptions{})
	if a != b {
		t.Error("two renders of the same scene differ")
	}
}

func TestSVGGolden(t *testing.T) {
	t.Parallel()
	golden.Check(t, "testdata/svg_every_kind.svg", []byte(mustSVG(t, demoScene(t), SVGOptions{})))
}

func TestSVGEmptyScene(t *testing.T) {
	t.Parallel()
	want := "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-50 -50 100 100\">\n</svg>\n"
	if diff := cmp.Diff(want, mustSVG(t, scene.New(), SVGOptions{})); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSVGBadOptions(t *testing.T) {
	t.Parallel()
	flat := View{Min: geom.Vec{X: 0, Y: 0}, Max: geom.Vec{X: 10, Y: 0}}
	if _, err := SVG(scene.New(), SVGOptions{View: &flat}); err == nil || err.Error() != "view must have a positive width and height, got 10 x 0" {
		t.Errorf("flat view: got %v", err)
	}
	if _, err := SVG(scene.New(), SVGOptions{Margin: -1}); err == nil || err.Error() != "margin must be a finite fraction >= 0, got -1" {
		t.Errorf("negative margin: got %v", err)
	}
}

func put(t testing.TB, s *scene.Scene, name string, sh scene.Shape) {
	t.Helper()
	if _, err := s.Put(name, sh); err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
}

func demoScene(t testing.TB) *scene.Scene {
	t.Helper()
	s, err := examples.KindsScene()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSVGHoleRule: the path of a polygon whose holes overlap and cross its outer ring is its
// area, an outer ring and one hole, so that any fill rule paints what the area operations
// take.
func TestSVGHoleRule(t *testing.T) {
	t.Parallel()
	rect := func(x0, y0, x1, y1 float64) []geom.Vec {
		return []geom.Vec{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	s := scene.New()
	put(t, s, "p", scene.Polygon{Parts: []scene.PolygonPart{{Outer: rect(0, 0, 10, 10), Holes: [][]geom.Vec{rect(2, 2, 5, 5), rect(4, 4, 6, 6), rect(8, 4, 12, 6)}}}})
	v := View{Min: geom.Vec{X: 0, Y: 0}, Max: geom.Vec{X: 10, Y: 10}}
	got := mustSVG(t, s, SVGOptions{View: &v, Width: 100})
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 -10 10 10" width="100">
<path data-name="p" d="M 0 0 L 10 0 L 10 -4 L 8 -4 L 8 -6 L 10 -6 L 10 -10 L 0 -10 Z M 2 -2 L 2 -5 L 4 -5 L 4 -6 L 6 -6 L 6 -4 L 5 -4 L 5 -2 Z" fill="none" stroke="#000000" stroke-width="1" vector-effect="non-scaling-stroke" stroke-linejoin="round" stroke-linecap="round"/>
</svg>
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSVGDataKinds(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "hole", scene.Circle{Radius: 1})
	if _, err := s.CreateGroup("part", []string{"hole"}); err != nil {
		t.Fatal(err)
	}
	v := View{Min: geom.Vec{X: -2, Y: -2}, Max: geom.Vec{X: 2, Y: 2}}
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 4 4">
<g data-name="part" data-kind="group">
 <path data-name="hole" data-kind="circle" d="M 1 0 A 1 1 0 0 0 -1 0 A 1 1 0 0 0 1 0 Z" fill="none" stroke="#000000" stroke-width="1" vector-effect="non-scaling-stroke" stroke-linejoin="round" stroke-linecap="round"/>
</g>
</svg>
`
	if diff := cmp.Diff(want, mustSVG(t, s, SVGOptions{View: &v, DataKinds: true})); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// Without the option the output is as before.
	if got := mustSVG(t, s, SVGOptions{View: &v}); strings.Contains(got, "data-kind") {
		t.Errorf("data-kind without DataKinds:\n%s", got)
	}
}

// TestSVGRepeatedStyles pins the style attributes of shapes that share a style with the shape
// before them (written once and copied) and of shapes whose style changes.
func TestSVGRepeatedStyles(t *testing.T) {
	t.Parallel()
	s := scene.New()
	red := scene.Color{1, 0, 0, 0.25}
	blue := scene.Color{0, 0, 1, 1}
	for i, set := range []func(name string) error{
		func(string) error { return nil },
		func(string) error { return nil },
		func(n string) error { return s.SetFill(n, &red) },
		func(n string) error { return s.SetFill(n, &red) },
		func(n string) error { return s.SetStroke(n, &blue, 0.5) },
		func(n string) error { return s.SetStroke(n, &blue, 0) },
		func(n string) error { return s.SetStroke(n, nil, 0) },
		func(string) error { return nil },
	} {
		name := strconv.Itoa(i)
		put(t, s, name, scene.Rect{Center: geom.Vec{X: float64(2 * i)}, Width: 1, Height: 1})
		if err := set(name); err != nil {
			t.Fatal(err)
		}
	}
	v := View{Min: geom.Vec{X: -1, Y: -1}, Max: geom.Vec{X: 15, Y: 1}}
	got := mustSVG(t, s, SVGOptions{View: &v})
	const hair = ` stroke-width="1" vector-effect="non-scaling-stroke" stroke-linejoin="round" stroke-linecap="round"`
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 16 2">
<path data-name="0" d="M -0.5 0.5 L 0.5 0.5 L 0.5 -0.5 L -0.5 -0.5 Z" fill="none" stroke="#000000"` + hair + `/>
<path data-name="1" d="M 1.5 0.5 L 2.5 0.5 L 2.5 -0.5 L 1.5 -0.5 Z" fill="none" stroke="#000000"` + hair + `/>
<path data-name="2" d="M 3.5 0.5 L 4.5 0.5 L 4.5 -0.5 L 3.5 -0.5 Z" fill="#ff0000" fill-opacity="0.25" stroke="#000000"` + hair + `/>
<path data-name="3" d="M 5.5 0.5 L 6.5 0.5 L 6.5 -0.5 L 5.5 -0.5 Z" fill="#ff0000" fill-opacity="0.25" stroke="#000000"` + hair + `/>
<path data-name="4" d="M 7.5 0.5 L 8.5 0.5 L 8.5 -0.5 L 7.5 -0.5 Z" fill="none" stroke="#0000ff" stroke-width="0.5" stroke-linejoin="round" stroke-linecap="round"/>
<path data-name="5" d="M 9.5 0.5 L 10.5 0.5 L 10.5 -0.5 L 9.5 -0.5 Z" fill="none" stroke="#0000ff"` + hair + `/>
<path data-name="6" d="M 11.5 0.5 L 12.5 0.5 L 12.5 -0.5 L 11.5 -0.5 Z" fill="none" stroke="none"/>
<path data-name="7" d="M 13.5 0.5 L 14.5 0.5 L 14.5 -0.5 L 13.5 -0.5 Z" fill="none" stroke="#000000"` + hair + `/>
</svg>
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestSameStyleSeesEveryField fails when scene.Style gains a field, which sameStyle must then
// compare: two styles that differ only in it would otherwise be written alike.
func TestSameStyleSeesEveryField(t *testing.T) {
	t.Parallel()
	var fields []string
	for f := range reflect.TypeFor[scene.Style]().Fields() {
		fields = append(fields, f.Name)
	}
	if diff := cmp.Diff([]string{"Fill", "Stroke", "StrokeWidth", "Linetype", "LinetypeScale", "Layer", "ColorSet", "Hatch", "HatchAngle", "HatchScale", "HatchColor", "Cap", "Join", "MiterLimit"}, fields); diff != "" {
		t.Errorf("scene.Style's fields changed; make sameStyle compare them all, then update this list: mismatch (-want +got):\n%s", diff)
	}
}

// TestSVGNestedGroups pins the <g> nesting: a group last in its group (both closed at once),
// an empty group, a moved group's transform reaching its members, and shapes after the groups.
func TestSVGNestedGroups(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "c", scene.Circle{Radius: 1})
	put(t, s, "r", scene.Rect{Width: 2, Height: 2})
	put(t, s, "last", scene.Rect{Center: geom.Vec{X: 5}, Width: 2, Height: 2})
	for _, g := range []struct {
		name     string
		children []string
	}{{"inner", []string{"c"}}, {"outer", []string{"inner", "r"}}, {"empty", nil}} {
		if _, err := s.CreateGroup(g.name, g.children); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Translate("outer", geom.Vec{X: -3}, scene.SpaceWorld); err != nil {
		t.Fatal(err)
	}
	if err := s.DrawOrder("last", "front"); err != nil {
		t.Fatal(err)
	}
	v := View{Min: geom.Vec{X: -5, Y: -2}, Max: geom.Vec{X: 7, Y: 2}}
	got := mustSVG(t, s, SVGOptions{View: &v, DataKinds: true})
	const style = ` fill="none" stroke="#000000" stroke-width="1" vector-effect="non-scaling-stroke" stroke-linejoin="round" stroke-linecap="round"/>`
	want := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-5 -2 12 4">
<g data-name="outer" data-kind="group">
 <path data-name="r" data-kind="rect" d="M -4 1 L -2 1 L -2 -1 L -4 -1 Z"` + style + `
 <g data-name="inner" data-kind="group">
  <path data-name="c" data-kind="circle" d="M -2 0 A 1 1 0 0 0 -4 0 A 1 1 0 0 0 -2 0 Z"` + style + `
 </g>
</g>
<g data-name="empty" data-kind="group">
</g>
<path data-name="last" data-kind="rect" d="M 4 1 L 6 1 L 6 -1 L 4 -1 Z"` + style + `
</svg>
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestSVGFitDrawsAsAGivenView: a fitted SVG takes every entity's local map from the walk
// that finds the bounds (Scene.Frame), a given view computes them as it draws; both
// must write the same bytes, FitView's frame included, for nested, rotated and mirrored
// groups as for the workloads' scene.
func TestSVGFitDrawsAsAGivenView(t *testing.T) {
	t.Parallel()
	nested := scene.New()
	put(t, nested, "c", scene.Ellipse{Center: geom.Vec{X: 1, Y: -2}, RX: 3, RY: 1})
	put(t, nested, "r", scene.Rect{Width: 2, Height: 4})
	put(t, nested, "p", &scene.PathShape{Data: "M 0 0 C 1 3 4 -2 5 0 Q 6 2 7 0 A 2 1 30 0 1 9 1 Z"})
	put(t, nested, "last", scene.Circle{Center: geom.Vec{X: 5}, Radius: 2})
	for _, step := range []func() error{
		func() error { _, err := nested.CreateGroup("inner", []string{"c", "p"}); return err },
		func() error { return nested.Rotate("inner", math.Pi/2, scene.SpaceWorld) },
		func() error { _, err := nested.CreateGroup("outer", []string{"inner", "r"}); return err },
		func() error { return nested.Scale("outer", -1, 2, scene.SpaceLocal, nil) },
		func() error { return nested.Rotate("r", 0.3, scene.SpaceLocal) },
		func() error { return nested.Translate("outer", geom.Vec{X: -3, Y: 7}, scene.SpaceWorld) },
		func() error { _, err := nested.CreateGroup("empty", nil); return err },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	w1, err := examples.W1Scene()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*scene.Scene{"nested": nested, "every kind": demoScene(t), "W1": w1} {
		fit := FitView(s, DefaultMargin)
		for _, kinds := range []bool{false, true} {
			want := mustSVG(t, s, SVGOptions{View: &fit, DataKinds: kinds})
			if diff := cmp.Diff(want, mustSVG(t, s, SVGOptions{DataKinds: kinds})); diff != "" {
				t.Errorf("%s: mismatch (-given view +fitted):\n%s", name, diff)
			}
		}
	}
}
