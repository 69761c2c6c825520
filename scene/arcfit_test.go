package scene

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// A plate with rounded corners minus round holes and a rounded slot, all apart, is its blank
// less its cut-outs: area, perimeter and centroid in closed form, to 1e-12.
func TestPlateMinusHolesExact(t *testing.T) {
	t.Parallel()
	s := New()
	blank := RoundedRect{Center: geom.Vec{X: 0, Y: 0}, Width: 180, Height: 110, Radius: 12}
	boolPut(t, s, "blank", blank)
	type hole struct {
		name string
		sh   Shape
	}
	holes := []hole{
		{"bore", Circle{Center: geom.Vec{X: -30, Y: 0}, Radius: 15}},
		{"slot", RoundedRect{Center: geom.Vec{X: 52, Y: 0}, Width: 12, Height: 36, Radius: 6}},
	}
	for i := range 6 {
		a := math.Pi/2 + float64(i)*math.Pi/3
		holes = append(holes, hole{"bolt" + string(rune('0'+i)), Circle{Center: geom.Vec{X: -30 + 32*math.Cos(a), Y: 32 * math.Sin(a)}, Radius: 4}})
	}
	for i, c := range []geom.Vec{{X: -77, Y: -42}, {X: 77, Y: -42}, {X: 77, Y: 42}, {X: -77, Y: 42}} {
		holes = append(holes, hole{"corner" + string(rune('0'+i)), Circle{Center: c, Radius: 5}})
	}
	var names []string
	ex, _ := exactOf(blank, geom.Identity)
	wantArea, wantPer, moment := ex.area, ex.perimeter, ex.centroid.Mul(ex.area)
	for _, h := range holes {
		boolPut(t, s, h.name, h.sh)
		names = append(names, h.name)
		x, _ := exactOf(h.sh, geom.Identity)
		wantArea -= x.area
		wantPer += x.perimeter
		moment = moment.Sub(x.centroid.Mul(x.area))
	}
	e, err := s.Boolean(Difference, []string{"blank"}, names, "part")
	if err != nil {
		t.Fatal(err)
	}
	p := boolPolygon(t, e)
	if len(p.Parts) != 1 || len(p.Parts[0].Holes) != len(holes) || len(p.Parts[0].Outer) != 8 {
		t.Fatalf("got %d parts, %d holes, %d outer vertices; want 1, %d, 8", len(p.Parts), len(p.Parts[0].Holes), len(p.Parts[0].Outer), len(holes))
	}
	area, _ := s.Area("part")
	per, _ := s.Perimeter("part")
	cen, _ := s.Centroid("part")
	if !near(area, wantArea, 1e-12) || !near(per, wantPer, 1e-12) || cen.Sub(moment.Mul(1/wantArea)).Len() > 1e-12*180 {
		t.Errorf("area %v perimeter %v centroid %v; want %v, %v, %v", area, per, cen, wantArea, wantPer, moment.Mul(1/wantArea))
	}
}

// Where an arc meets a line or another arc, the result's vertex is their true crossing.
func TestArcJunctionsExact(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "c", Circle{Radius: 10})
	boolPut(t, s, "sq", boolRect(-7.5, -7.5, 7.5, 7.5))
	boolPut(t, s, "d", Circle{Center: geom.Vec{X: 12, Y: 0}, Radius: 10})
	e, err := s.Boolean(Intersect, []string{"c"}, []string{"sq"}, "cap")
	if err != nil {
		t.Fatal(err)
	}
	part := boolPolygon(t, e).Parts[0]
	for i, v := range part.Outer {
		onCircle := math.Abs(v.Len()-10) <= 1e-12*10
		onSquare := math.Abs(math.Max(math.Abs(v.X), math.Abs(v.Y))-7.5) <= 1e-12*10
		if !onCircle || !onSquare {
			t.Errorf("vertex %d %v: on the circle %v, on the square %v", i, v, onCircle, onSquare)
		}
	}
	// The circle less the four segments the square's sides cut off.
	h := math.Sqrt(100 - 7.5*7.5)
	seg := 100*math.Acos(7.5/10) - 7.5*h // one circular segment beyond a side
	if got, want := boolArea(t, s, "cap"), 100*math.Pi-4*seg; !near(got, want, 1e-12) {
		t.Errorf("circle ∩ square area %v, want %v", got, want)
	}
	e, err = s.Boolean(Union, []string{"c"}, []string{"d"}, "lens")
	if err != nil {
		t.Fatal(err)
	}
	part = boolPolygon(t, e).Parts[0]
	for i, v := range part.Outer {
		if r0, r1 := v.Len(), v.Sub(geom.Vec{X: 12, Y: 0}).Len(); math.Abs(r0-10) > 1e-12*10 && math.Abs(r1-10) > 1e-12*10 {
			t.Errorf("vertex %d %v lies on neither circle", i, v)
		}
	}
	// Two discs of radius 10, 12 apart: 2πr² less the lens they share.
	lens := 2*100*math.Acos(6.0/10) - 6*2*8
	if got, want := boolArea(t, s, "lens"), 200*math.Pi-lens; !near(got, want, 1e-12) {
		t.Errorf("union area %v, want %v", got, want)
	}
}

// The area two shapes share keeps their arcs: a circle inside a square shares all of its
// area, and two discs their lens, in closed form.
func TestOverlapAreaExact(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "sq", boolRect(-5, -5, 5, 5))
	boolPut(t, s, "c", Circle{Radius: 2})
	boolPut(t, s, "d", Circle{Center: geom.Vec{X: 12, Y: 20}, Radius: 10})
	boolPut(t, s, "e", Circle{Center: geom.Vec{X: 24, Y: 20}, Radius: 10})
	got, _, err := s.Overlaps("sq")
	if err != nil || len(got) != 1 || !near(got[0].Area, 4*math.Pi, 1e-14) {
		t.Errorf("circle in a square: %v %v, want area 4π", got, err)
	}
	lens := 2*100*math.Acos(6.0/10) - 6*2*8
	if got, _, err := s.Overlaps("d"); err != nil || len(got) != 1 || !near(got[0].Area, lens, 1e-12) {
		t.Errorf("two discs: %v %v, want their lens %v", got, err, lens)
	}
}

// The convex hull of two circles is two arcs joined by their common tangents: its area and
// perimeter in closed form.
func TestHullOfCirclesExact(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "a", Circle{Radius: 10})
	boolPut(t, s, "b", Circle{Center: geom.Vec{X: 30, Y: 0}, Radius: 5})
	g, err := s.CreateGroup("pair", []string{"a", "b"})
	if err != nil || g == nil {
		t.Fatal(err)
	}
	e, err := s.ConvexHull("pair", "hull")
	if err != nil {
		t.Fatal(err)
	}
	p := boolPolygon(t, e).Parts[0]
	// The tangents leave the centres' line at the angle whose cosine is (10 − 5)/30: each
	// is 30·sin of it long, and the arcs sweep 2(π − α) on the big circle and 2α on the small.
	alpha := math.Acos(5.0 / 30)
	tan := 30 * math.Sin(alpha)
	wantPer := 2*tan + 10*2*(math.Pi-alpha) + 5*2*alpha
	wantArea := 100*(math.Pi-alpha) + 25*alpha + 2*(0.5*tan*(10+5))
	per, _ := s.Perimeter("hull")
	area, _ := s.Area("hull")
	if !near(per, wantPer, 1e-12) || !near(area, wantArea, 1e-12) {
		t.Errorf("hull perimeter %v area %v, want %v, %v (%d vertices, bulges %v)", per, area, wantPer, wantArea, len(p.Outer), p.OuterBulges)
	}
}

// A path of lines and circular arcs (a slot, as an imported DXF outline draws it) is measured
// in closed form.
func TestArcPathExact(t *testing.T) {
	t.Parallel()
	s := New()
	// A slot 20 long between the centres of its round ends, 6 wide.
	boolPut(t, s, "slot", &PathShape{Data: "M 0 -3 L 20 -3 A 3 3 0 0 1 20 3 L 0 3 A 3 3 0 0 1 0 -3 Z"})
	area, _ := s.Area("slot")
	per, _ := s.Perimeter("slot")
	if !near(area, 120+9*math.Pi, 1e-14) || !near(per, 40+6*math.Pi, 1e-14) {
		t.Errorf("slot area %v perimeter %v, want %v and %v", area, per, 120+9*math.Pi, 40+6*math.Pi)
	}
}
