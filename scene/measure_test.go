package scene

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/scene/geom"
)

var approx = cmpopts.EquateApprox(0, 1e-9)

func measureScene(t *testing.T) *Scene {
	t.Helper()
	s := New()
	put := func(name string, sh Shape) {
		t.Helper()
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	put("c1", Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 2})
	put("c2", Circle{Center: geom.Vec{X: 10, Y: 0}, Radius: 3})
	put("outer", Rect{Center: geom.Vec{X: 100, Y: 0}, Width: 40, Height: 20})
	put("inner", Rect{Center: geom.Vec{X: 105, Y: 0}, Width: 10, Height: 4})
	put("sq1", Rect{Center: geom.Vec{X: 0, Y: 100}, Width: 10, Height: 10})
	put("sq2", Rect{Center: geom.Vec{X: 6, Y: 103}, Width: 10, Height: 10})
	put("wire", Line{Points: []geom.Vec{{X: -5, Y: 50}, {X: 5, Y: 50}}})
	return s
}

func TestDistance(t *testing.T) {
	s := measureScene(t)
	tests := []struct {
		a, b string
		want Gap
	}{
		// Two circles: 10 between centres, less radii 2 and 3.
		{"c1", "c2", Gap{Distance: 5, A: geom.Vec{X: 2, Y: 0}, B: geom.Vec{X: 7, Y: 0}}},
		{"c2", "c1", Gap{Distance: 5, A: geom.Vec{X: 7, Y: 0}, B: geom.Vec{X: 2, Y: 0}}},
		// A rectangle inside another is at distance 0, at a point of the inner one.
		{"inner", "outer", Gap{Distance: 0, A: geom.Vec{X: 100, Y: -2}, B: geom.Vec{X: 100, Y: -2}}},
		// Overlapping squares meet where their outlines cross.
		{"sq1", "sq2", Gap{Distance: 0, A: geom.Vec{X: 5, Y: 98}, B: geom.Vec{X: 5, Y: 98}}},
		// A circle to a line: from the centre to the line, less the radius.
		{"c1", "wire", Gap{Distance: 48, A: geom.Vec{X: 0, Y: 2}, B: geom.Vec{X: 0, Y: 50}}},
		{"wire", "sq1", Gap{Distance: 45, A: geom.Vec{X: -5, Y: 50}, B: geom.Vec{X: -5, Y: 95}}},
	}
	for _, tt := range tests {
		got, err := s.Distance(tt.a, tt.b)
		if err != nil {
			t.Fatalf("Distance(%q, %q): %v", tt.a, tt.b, err)
		}
		if diff := cmp.Diff(tt.want, got, approx); diff != "" {
			t.Errorf("Distance(%q, %q) mismatch (-want +got):\n%s", tt.a, tt.b, diff)
		}
	}
	_, err := s.Distance("c1", "nope")
	if got, want := err.Error(), `no such entity: "nope"`; got != want || !errors.Is(err, ErrNotFound) {
		t.Errorf("Distance to a missing entity: got %q, want %q", got, want)
	}
}

func TestMeasureRotatedGroup(t *testing.T) {
	s := New()
	for name, sh := range map[string]Shape{
		"a":    Rect{Center: geom.Vec{X: 5, Y: 0}, Width: 2, Height: 2},
		"b":    Circle{Center: geom.Vec{X: 10, Y: 0}, Radius: 1},
		"post": Rect{Center: geom.Vec{X: 0, Y: 20}, Width: 2, Height: 2},
	} {
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGroup("g", []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	// A quarter turn about the origin puts a at (0, 5) and b at (0, 10).
	if err := s.Rotate("g", math.Pi/2, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	g, err := s.Distance("post", "g")
	if err != nil {
		t.Fatal(err)
	}
	// b is still an exact circle: from post's bottom edge (y 19) down to b's top (y 11).
	want := Gap{Distance: 8, A: geom.Vec{X: 0, Y: 19}, B: geom.Vec{X: 0, Y: 11}}
	if diff := cmp.Diff(want, g, approx); diff != "" {
		t.Errorf("Distance(post, g) mismatch (-want +got):\n%s", diff)
	}
	gb, err := s.Distance("post", "b")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Gap{Distance: 8, A: geom.Vec{X: 0, Y: 19}, B: geom.Vec{X: 0, Y: 11}}, gb, approx); diff != "" {
		t.Errorf("Distance(post, b) mismatch (-want +got):\n%s", diff)
	}
	c, err := s.Centroid("a")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(geom.Vec{X: 0, Y: 5}, c, approx); diff != "" {
		t.Errorf("Centroid(a) mismatch (-want +got):\n%s", diff)
	}
	p, err := s.Perimeter("b")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(2*math.Pi, p, approx); diff != "" {
		t.Errorf("Perimeter(b) mismatch (-want +got):\n%s", diff)
	}
}

func TestClearance(t *testing.T) {
	s := measureScene(t)
	gaps, n, err := s.Clearance("c1", nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []Gap{
		{Name: "c2", Distance: 5, A: geom.Vec{X: 2, Y: 0}, B: geom.Vec{X: 7, Y: 0}},
		{Name: "wire", Distance: 48, A: geom.Vec{X: 0, Y: 2}, B: geom.Vec{X: 0, Y: 50}},
	}
	if diff := cmp.Diff(want, gaps, approx); diff != "" {
		t.Errorf("Clearance(c1) mismatch (-want +got):\n%s", diff)
	}
	if n != 6 {
		t.Errorf("Clearance(c1) measured %d entities, want 6", n)
	}
	gaps, n, err = s.Clearance("sq1", []string{"wire", "sq2"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want = []Gap{
		{Name: "sq2", Distance: 0, A: geom.Vec{X: 5, Y: 98}, B: geom.Vec{X: 5, Y: 98}},
		{Name: "wire", Distance: 45, A: geom.Vec{X: -5, Y: 95}, B: geom.Vec{X: -5, Y: 50}},
	}
	if diff := cmp.Diff(want, gaps, approx); diff != "" || n != 2 {
		t.Errorf("Clearance(sq1, [wire sq2]) (n %d) mismatch (-want +got):\n%s", n, diff)
	}
	for _, tt := range []struct {
		others []string
		limit  int
		want   string
	}{
		{nil, 0, "limit exceeded: clearance limit 0 is out of range; give 1 to 100"},
		{[]string{"c1"}, 5, `bad option: clearance of "c1" against itself; leave it out of the list`},
		{[]string{"gone"}, 5, `no such entity: "gone"`},
	} {
		_, _, err := s.Clearance("c1", tt.others, tt.limit)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Clearance(c1, %v, %d): got %v, want %q", tt.others, tt.limit, err, tt.want)
		}
	}
}

func TestOverlaps(t *testing.T) {
	s := measureScene(t)
	got, n, err := s.Overlaps("sq1")
	if err != nil {
		t.Fatal(err)
	}
	// sq1 spans x -5..5, y 95..105; sq2 x 1..11, y 98..108: they share 4 by 7.
	if diff := cmp.Diff([]Overlap{{"sq2", 28}}, got, approx); diff != "" || n != 1 {
		t.Errorf("Overlaps(sq1) (n %d) mismatch (-want +got):\n%s", n, diff)
	}
	got, n, err = s.Overlaps("outer")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Overlap{{"inner", 40}}, got, approx); diff != "" || n != 1 {
		t.Errorf("Overlaps(outer) (n %d) mismatch (-want +got):\n%s", n, diff)
	}
	_, _, err = s.Overlaps("wire")
	if want := `overlaps of "wire": the result would be empty: it encloses no area; use clearance for open shapes`; err == nil || err.Error() != want {
		t.Errorf("Overlaps(wire): got %v, want %q", err, want)
	}
}

func TestPerimeterAndCentroid(t *testing.T) {
	s := measureScene(t)
	if _, err := s.CreateGroup("squares", []string{"sq1", "sq2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("frame", Polygon{Parts: []PolygonPart{{
		Outer: []geom.Vec{{X: 200, Y: 0}, {X: 210, Y: 0}, {X: 210, Y: 10}, {X: 200, Y: 10}},
		Holes: [][]geom.Vec{{{X: 202, Y: 2}, {X: 202, Y: 4}, {X: 204, Y: 4}, {X: 204, Y: 2}}},
	}}}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name      string
		perimeter float64
		centroid  geom.Vec
	}{
		{"c2", 6 * math.Pi, geom.Vec{X: 10, Y: 0}},
		{"outer", 120, geom.Vec{X: 100, Y: 0}},
		{"wire", 10, geom.Vec{X: 0, Y: 50}},
		// The union of the squares: 10x10 + 10x10 - 4x7 = 172, outline 2*(16+13) = 58.
		{"squares", 58, geom.Vec{X: (100*0 + 100*6 - 28*3) / 172.0, Y: (100*100 + 100*103 - 28*101.5) / 172.0}},
		// A 10x10 square less a 2x2 hole: 96 of area, edges 40 + 8.
		{"frame", 48, geom.Vec{X: (100*205 - 4*203) / 96.0, Y: (100*5 - 4*3) / 96.0}},
	} {
		p, err := s.Perimeter(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.Centroid(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.perimeter, p, approx); diff != "" {
			t.Errorf("Perimeter(%q) mismatch (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.centroid, c, approx); diff != "" {
			t.Errorf("Centroid(%q) mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestDistanceToPoint(t *testing.T) {
	s := measureScene(t)
	for _, tt := range []struct {
		name string
		p    geom.Vec
		want Gap
	}{
		{"c1", geom.Vec{X: 0, Y: 5}, Gap{Distance: 3, A: geom.Vec{X: 0, Y: 2}, B: geom.Vec{X: 0, Y: 5}}},
		{"outer", geom.Vec{X: 100, Y: 0}, Gap{A: geom.Vec{X: 100, Y: 0}, B: geom.Vec{X: 100, Y: 0}}},
		{"outer", geom.Vec{X: 130, Y: 0}, Gap{Distance: 10, A: geom.Vec{X: 120, Y: 0}, B: geom.Vec{X: 130, Y: 0}}},
		{"wire", geom.Vec{X: 0, Y: 53}, Gap{Distance: 3, A: geom.Vec{X: 0, Y: 50}, B: geom.Vec{X: 0, Y: 53}}},
	} {
		got, err := s.DistanceToPoint(tt.name, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got, approx); diff != "" {
			t.Errorf("DistanceToPoint(%q, %v) mismatch (-want +got):\n%s", tt.name, tt.p, diff)
		}
	}
	_, err := s.DistanceToPoint("c1", geom.Vec{X: math.NaN(), Y: 0})
	if want := "bad geometry: the point must be finite, got NaN"; err == nil || err.Error() != want {
		t.Errorf("a NaN point: got %v, want %q", err, want)
	}
}

func BenchmarkClearance10k(b *testing.B) {
	s := New()
	for i := range 10000 {
		name := "s" + strconv.Itoa(i)
		var sh Shape = Rect{Center: geom.Vec{X: float64(i%100) * 3, Y: float64(i/100) * 3}, Width: 1, Height: 1}
		if i%2 == 1 {
			sh = Circle{Center: geom.Vec{X: float64(i%100) * 3, Y: float64(i/100) * 3}, Radius: 0.5}
		}
		if _, err := s.Put(name, sh); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, _, err := s.Clearance("s5050", nil, 10); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOverlaps10k(b *testing.B) {
	s := New()
	for i := range 10000 {
		if _, err := s.Put("s"+strconv.Itoa(i), Rect{Center: geom.Vec{X: float64(i%100) * 2, Y: float64(i/100) * 2}, Width: 3, Height: 3}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, _, err := s.Overlaps("s5050"); err != nil {
			b.Fatal(err)
		}
	}
}

// A circle under a uniform scale and a turn stays exact; under a non-uniform scale it is an
// ellipse, measured flattened.
func TestCircleExactUnderSimilarity(t *testing.T) {
	s := New()
	for name, sh := range map[string]Shape{
		"c":  Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 1},
		"e":  Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 1},
		"pt": Rect{Center: geom.Vec{X: 20, Y: 0}, Width: 2, Height: 2},
	} {
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Scale("c", 3, 3, SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Rotate("c", 0.3, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	if err := s.Scale("e", 3, 1, SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	g, err := s.Distance("c", "pt")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Gap{Distance: 16, A: geom.Vec{X: 3, Y: 0}, B: geom.Vec{X: 19, Y: 0}}, g, approx); diff != "" {
		t.Errorf("Distance(c, pt) mismatch (-want +got):\n%s", diff)
	}
	p, err := s.Perimeter("e")
	if err != nil {
		t.Fatal(err)
	}
	// An ellipse of radii 3 and 1 has a perimeter of about 13.3649; flattened, a little less.
	if p > 13.3650 || p < 13.35 {
		t.Errorf("Perimeter(e) = %v, want just under 13.3649", p)
	}
}

// TestDistancePairLimit: the cap on pairs of edges is left for shapes whose edges all lie as
// near each other as the answer (two polygons of 8,000 edges each compare a few thousand:
// the kernel's TestWalkPairs): two bundles of 3,500 long parallel strokes, interleaved, every
// stroke's box overlapping every other's, are refused with their names and edges.
func TestDistancePairLimit(t *testing.T) {
	s := New()
	const n = 3500
	for _, g := range []struct {
		name string
		off  float64
	}{{"ga", 0}, {"gb", 0.5}} {
		names := make([]string, n)
		for i := range n {
			names[i] = fmt.Sprintf("%s%d", g.name, i)
			y := float64(i) + g.off
			if _, err := s.Put(names[i], Line{Points: []geom.Vec{{X: 0, Y: y}, {X: 1e4, Y: y + 1e4}}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.CreateGroup(g.name, names); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Distance("ga", "gb")
	want := `limit exceeded: measuring "ga" (3500 edges) to "gb" (3500 edges) compares more than 10000000 pairs of edges (MaxMeasurePairs): their edges lie about as near to each other as the answer everywhere; measure simpler parts of them, or decompose them first`
	if err == nil || err.Error() != want || !errors.Is(err, ErrLimit) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func BenchmarkDistance1000x1000(b *testing.B) { benchmarkDistance(b, 1000) }

// BenchmarkDistance3200x3200: a pair the comparison of every pair of edges refused
// (MaxMeasurePairs) and GEOS measures in 0.16 ms.
func BenchmarkDistance3200x3200(b *testing.B) { benchmarkDistance(b, 3200) }

func benchmarkDistance(b *testing.B, n int) {
	s := New()
	for name, cx := range map[string]float64{"p": 0, "q": 100} {
		pts := make([]geom.Vec, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			pts[i] = geom.Vec{X: cx + 10*math.Cos(a), Y: 10 * math.Sin(a)}
		}
		if _, err := s.Put(name, Polygon{Parts: []PolygonPart{{Outer: pts}}}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if _, err := s.Distance("p", "q"); err != nil {
			b.Fatal(err)
		}
	}
}
