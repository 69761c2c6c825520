package scene

import (
	"errors"
	"fmt"
	"testing"

	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDashCount holds DashCount to what Dash makes: never fewer (the budget is checked on the
// count, so a picture can never cut more than it allowed), and for lines and circular arcs,
// which are cut exactly, the same.
func TestDashCount(t *testing.T) {
	t.Parallel()
	var lines, quad geom.Path
	lines.Polyline([]geom.Vec{{}, {X: 20}, {X: 20, Y: 7.5}}, false)
	lines.Polyline([]geom.Vec{{X: 50}, {X: 53}, {X: 53, Y: 3}}, true)
	quad.MoveTo(geom.Vec{})
	quad.QuadTo(geom.Vec{X: 10, Y: 20}, geom.Vec{X: 20})
	quad.CubicTo(geom.Vec{X: 30, Y: -5}, geom.Vec{X: 35, Y: 5}, geom.Vec{X: 40})
	for _, tc := range []struct {
		name  string
		p     geom.Path
		exact bool
	}{
		{"lines", lines, true},
		{"circle", Circle{Radius: 10}.Outline(), true},
		{"arc", Arc{Center: geom.Vec{X: 1}, Radius: 4, Start: 0.3, End: 2.5}.Outline(), true},
		{"ellipse", Ellipse{RX: 10, RY: 3}.Outline(), false},
		{"curves", quad, false},
	} {
		for _, lt := range []string{"dashed", "center", "dot"} {
			for _, scale := range []float64{0.1, 1, 7} {
				pattern := drafting.Dashes(lt, scale)
				got := 0
				for _, s := range tc.p.Dash(pattern, 1e-3) {
					if s.Kind == geom.SegMove {
						got++
					}
				}
				n := tc.p.DashCount(pattern)
				if n < float64(got) || (tc.exact && n != float64(got)) {
					t.Errorf("%s, %s at %v: DashCount %v, Dash made %d", tc.name, lt, scale, n, got)
				}
			}
		}
	}
	if n := lines.DashCount(nil); n != 0 {
		t.Errorf("a continuous line counts %v dashes", n)
	}
}

// TestDashLimit refuses a linetype whose dashes pass MaxDashSegments when it is set, naming
// the shape, the linetype, its scale and the limit, and checks the scene's total when it is
// drawn, where a transform, a layer or many shapes together pass it.
func TestDashLimit(t *testing.T) {
	t.Parallel()
	limited := func(t *testing.T, err error, name, linetype string, scale float64) {
		t.Helper()
		want := fmt.Sprintf("limit exceeded: dashing %q with %s at scale %v makes more than %d dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines", name, linetype, scale, MaxDashSegments)
		if !errors.Is(err, ErrLimit) || err.Error() != want {
			t.Errorf("got %v, want %s", err, want)
		}
	}
	s := New()
	_, err := s.Put("long", Line{Points: []geom.Vec{{}, {X: 1e9}}})
	must(t, err)
	_, err = s.Put("short", Line{Points: []geom.Vec{{}, {X: 1}}})
	must(t, err)
	limited(t, s.SetLinetype("long", "dot", 0), "long", "dot", 1)
	limited(t, s.SetLinetype("short", "dot", 1e-12), "short", "dot", 1e-12)
	for _, name := range []string{"long", "short"} {
		if e, _ := s.Get(name); e.Style.Linetype != "" || e.Style.LinetypeScale != 0 {
			t.Errorf("%s: a refused linetype was kept: %+v", name, e.Style)
		}
	}
	must(t, s.CheckDashes())

	// A layer's linetype counts when the shape is put on it.
	must(t, s.CreateLayer(Layer{Name: "dotted", Linetype: "dot", Plot: true}))
	limited(t, s.SetLayer("long", "dotted"), "long", "dot", 1)
	must(t, s.SetLayer("short", "dotted"))

	// A line at 3/4 of the budget is allowed; scaled up after, or with a second such line,
	// the scene passes it when drawn.
	length := 3 * MaxDashSegments * 3 / 4.0
	_, err = s.Put("a", Line{Points: []geom.Vec{{}, {X: length}}})
	must(t, err)
	must(t, s.SetLinetype("a", "dot", 0))
	must(t, s.CheckDashes())
	if n, want := s.DashSegments(), float64(3*MaxDashSegments/4+1+1); n != want {
		t.Errorf("the scene counts %v dashes, want %v (a's and short's dots)", n, want)
	}
	_, err = s.Put("b", Line{Points: []geom.Vec{{}, {X: length}}})
	must(t, err)
	must(t, s.SetLinetype("b", "dot", 0))
	limited(t, s.CheckDashes(), "b", "dot", 1)
	must(t, s.Delete("b"))
	must(t, s.Scale("a", 2, 2, SpaceWorld, nil))
	limited(t, s.CheckDashes(), "a", "dot", 1)

	// A shape that draws no stroke, or is on a layer that does not plot, makes no dashes.
	must(t, s.SetStroke("a", nil, 0))
	must(t, s.CheckDashes())
	must(t, s.SetStroke("a", &Black, 0))
	limited(t, s.CheckDashes(), "a", "dot", 1)
	must(t, s.CreateLayer(Layer{Name: "notes", Plot: false}))
	must(t, s.SetLayer("a", "notes"))
	must(t, s.CheckDashes())
}
