package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// bulgedDisc is a circle of radius r about c as a polygon of two half-turn arcs, with a
// square hole of side 2h about c.
func bulgedDisc(c geom.Vec, r, h float64) Polygon {
	return Polygon{Parts: []PolygonPart{{
		Outer:       []geom.Vec{{X: c.X - r, Y: c.Y}, {X: c.X + r, Y: c.Y}},
		OuterBulges: []float64{1, 1},
		Holes:       [][]geom.Vec{{{X: c.X - h, Y: c.Y - h}, {X: c.X - h, Y: c.Y + h}, {X: c.X + h, Y: c.Y + h}, {X: c.X + h, Y: c.Y - h}}},
	}}}
}

func TestBulgedPolygon(t *testing.T) {
	t.Parallel()
	s := New()
	if _, err := s.Put("d", bulgedDisc(geom.Vec{X: 3, Y: 4}, 2, 0.5)); err != nil {
		t.Fatal(err)
	}
	e, _ := s.Get("d")
	g := e.Shape.(Polygon)
	a, m := geom.BulgedMoment(g.Parts[0].Outer, g.Parts[0].OuterBulges)
	if want := 4 * math.Pi; math.Abs(a-want) > 1e-12*want {
		t.Errorf("area %v, want %v", a, want)
	}
	if c := m.Mul(1 / a); c.Sub(geom.Vec{X: 3, Y: 4}).Len() > 1e-12 {
		t.Errorf("centroid %v, want (3, 4)", c)
	}
	if l := geom.BulgedLength(g.Parts[0].Outer, g.Parts[0].OuterBulges); math.Abs(l-4*math.Pi) > 1e-12 {
		t.Errorf("length %v, want 4π", l)
	}
	if b := s.Bounds(); b.Min.Sub(geom.Vec{X: 1, Y: 2}).Len() > 1e-12 || b.Max.Sub(geom.Vec{X: 5, Y: 6}).Len() > 1e-12 {
		t.Errorf("bounds %v, want (1, 2)-(5, 6)", b)
	}
	// The outline is one full turn and the square hole.
	out := g.Outline()
	if len(out) < 3 || out[1].Kind != geom.SegArc || math.Abs(math.Abs(out[1].T1-out[1].T0)-2*math.Pi) > 1e-12 || out[2].Kind != geom.SegClose {
		t.Errorf("outline %+v: want one full-turn arc, closed", out[:3])
	}
	// scene.json holds the bulges as version 2 and reads them back.
	doc, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(doc)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	again, _ := back.MarshalJSON()
	if string(again) != string(doc) {
		t.Errorf("round trip differs:\n%s\n%s", doc, again)
	}
	if !strings.Contains(string(doc), `"version":2`) || !strings.Contains(string(doc), `"outerBulges":[1,1]`) {
		t.Errorf("document: %s", doc)
	}
}

func TestBulgeChecks(t *testing.T) {
	t.Parallel()
	for _, g := range []Polygon{
		{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}}, OuterBulges: []float64{1}}}},
		{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}}, OuterBulges: []float64{2, 0, 0}}}},
		{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}}}}},
		{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}}, HoleBulges: [][]float64{{1}}}}},
	} {
		if err := g.validate(); err == nil {
			t.Errorf("%+v: accepted", g)
		}
	}
}
