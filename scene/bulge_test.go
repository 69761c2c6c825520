package scene

import (
	"math"
	"strings"
	"testing"
)

// bulgedDisc is a circle of radius r about c as a polygon of two half-turn arcs, with a
// square hole of side 2h about c.
func bulgedDisc(c Vec, r, h float64) Polygon {
	return Polygon{Parts: []PolygonPart{{
		Outer:       []Vec{{c.X - r, c.Y}, {c.X + r, c.Y}},
		OuterBulges: []float64{1, 1},
		Holes:       [][]Vec{{{c.X - h, c.Y - h}, {c.X - h, c.Y + h}, {c.X + h, c.Y + h}, {c.X + h, c.Y - h}}},
	}}}
}

func TestBulgedPolygon(t *testing.T) {
	t.Parallel()
	s := New()
	if _, err := s.Put("d", bulgedDisc(Vec{3, 4}, 2, 0.5)); err != nil {
		t.Fatal(err)
	}
	e, _ := s.Get("d")
	g := e.Shape.(Polygon)
	a, m := bulgedMoment(g.Parts[0].Outer, g.Parts[0].OuterBulges)
	if want := 4 * math.Pi; math.Abs(a-want) > 1e-12*want {
		t.Errorf("area %v, want %v", a, want)
	}
	if c := m.Mul(1 / a); c.Sub(Vec{3, 4}).Len() > 1e-12 {
		t.Errorf("centroid %v, want (3, 4)", c)
	}
	if l := bulgedLength(g.Parts[0].Outer, g.Parts[0].OuterBulges); math.Abs(l-4*math.Pi) > 1e-12 {
		t.Errorf("length %v, want 4π", l)
	}
	if b := s.Bounds(); b.Min.Sub(Vec{1, 2}).Len() > 1e-12 || b.Max.Sub(Vec{5, 6}).Len() > 1e-12 {
		t.Errorf("bounds %v, want (1, 2)-(5, 6)", b)
	}
	// The outline is one full turn and the square hole.
	out := g.Outline()
	if len(out) < 3 || out[1].Kind != SegArc || math.Abs(math.Abs(out[1].T1-out[1].T0)-2*math.Pi) > 1e-12 || out[2].Kind != SegClose {
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

func TestReverseBulged(t *testing.T) {
	t.Parallel()
	pts := []Vec{{0, 0}, {2, 0}, {2, 2}, {0, 2}}
	bul := []float64{0.3, 0, -0.2, 0}
	a := bulgedArea(pts, bul)
	rp, rb := reverseBulged(pts, bul)
	if r := bulgedArea(rp, rb); math.Abs(a+r) > 1e-12 {
		t.Errorf("reversed area %v, want %v", r, -a)
	}
	if l, r := bulgedLength(pts, bul), bulgedLength(rp, rb); math.Abs(l-r) > 1e-12 {
		t.Errorf("reversed length %v, want %v", r, l)
	}
}

func TestBulgeChecks(t *testing.T) {
	t.Parallel()
	for _, g := range []Polygon{
		{Parts: []PolygonPart{{Outer: []Vec{{0, 0}, {1, 0}, {1, 1}}, OuterBulges: []float64{1}}}},
		{Parts: []PolygonPart{{Outer: []Vec{{0, 0}, {1, 0}, {1, 1}}, OuterBulges: []float64{2, 0, 0}}}},
		{Parts: []PolygonPart{{Outer: []Vec{{0, 0}, {1, 0}}}}},
		{Parts: []PolygonPart{{Outer: []Vec{{0, 0}, {1, 0}, {1, 1}}, HoleBulges: [][]float64{{1}}}}},
	} {
		if err := g.validate(); err == nil {
			t.Errorf("%+v: accepted", g)
		}
	}
}
