package scene

// Benchmarks for the reference workloads W2 and W3 of BENCH.md, run on the scene API the way
// a script's calls reach it. The workload builders are shared with boolean_test.go, which
// checks the same scenes for correctness.

import (
	"math"
	"strconv"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// regularPolygon is the n-gon inscribed in the circle (c, r), first vertex at angle 0.
func regularPolygon(c geom.Vec, r float64, n int) []geom.Vec {
	pts := make([]geom.Vec, n)
	for i := range pts {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		pts[i] = geom.Vec{X: c.X + r*co, Y: c.Y + r*s}
	}
	return pts
}

// w2aScene holds W2 (A): 200 circles of radius 4 as 64-gon polygons on a golden-angle
// spiral, named c0..c199.
func w2aScene(tb testing.TB) (*Scene, []string) {
	s := New()
	golden := math.Pi * (3 - math.Sqrt(5))
	names := make([]string, 200)
	for k := range names {
		rk := 3 * math.Sqrt(float64(k))
		sn, cs := math.Sincos(float64(k) * golden)
		names[k] = "c" + strconv.Itoa(k)
		if _, err := s.Put(names[k], Polygon{Parts: []PolygonPart{{Outer: regularPolygon(geom.Vec{X: rk * cs, Y: rk * sn}, 4, 64)}}}); err != nil {
			tb.Fatal(err)
		}
	}
	return s, names
}

// w2bScene holds W2 (B): the plate [0,100]² and a 50 x 50 grid of unit squares with lower
// left corners (2i+0.5, 2j+0.5), named h0..h2499.
func w2bScene(tb testing.TB) (*Scene, []string) {
	s := New()
	if _, err := s.Put("plate", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 100, Y: 100}, {X: 0, Y: 100}}}}}); err != nil {
		tb.Fatal(err)
	}
	names := make([]string, 0, 2500)
	for i := range 50 {
		for j := range 50 {
			x, y := 2*float64(i)+0.5, 2*float64(j)+0.5
			n := "h" + strconv.Itoa(len(names))
			if _, err := s.Put(n, Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: x, Y: y}, {X: x + 1, Y: y}, {X: x + 1, Y: y + 1}, {X: x, Y: y + 1}}}}}); err != nil {
				tb.Fatal(err)
			}
			names = append(names, n)
		}
	}
	return s, names
}

// w3Scene holds W3: the 1,000-vertex star named "star".
func w3Scene(tb testing.TB) *Scene {
	s := New()
	pts := make([]geom.Vec, 1000)
	for k := range pts {
		r := 1000.0
		if k%2 == 1 {
			r = 900
		}
		sn, cs := math.Sincos(float64(k) * 0.36 * math.Pi / 180)
		pts[k] = geom.Vec{X: r * cs, Y: r * sn}
	}
	if _, err := s.Put("star", Polygon{Parts: []PolygonPart{{Outer: pts}}}); err != nil {
		tb.Fatal(err)
	}
	return s
}

func BenchmarkBooleanW2A(b *testing.B) {
	s, names := w2aScene(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Boolean(Union, names, nil, "u"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBooleanW2B(b *testing.B) {
	s, names := w2bScene(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Boolean(Difference, []string{"plate"}, names, "d"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOffsetW3(b *testing.B) {
	s := w3Scene(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Offset("star", 2, "out", OffsetOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Offset("star", -2, "in", OffsetOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBooleanPair is the fixed cost of one small operation: two overlapping 64-gons.
func BenchmarkBooleanPair(b *testing.B) {
	s := New()
	for i, c := range []geom.Vec{{X: 0, Y: 0}, {X: 3, Y: 0}} {
		if _, err := s.Put("c"+strconv.Itoa(i), Polygon{Parts: []PolygonPart{{Outer: regularPolygon(c, 4, 64)}}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Boolean(Union, []string{"c0"}, []string{"c1"}, "u"); err != nil {
			b.Fatal(err)
		}
	}
}

// The same workloads through simplefeatures alone (the fallback path), for comparison with
// the engine; they are the reason the engine exists.

func BenchmarkBooleanW2ALibrary(b *testing.B) {
	s, names := w2aScene(b)
	polys, err := s.collectAreas(names, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := libraryBoolean(Union, polys, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBooleanW2BLibrary(b *testing.B) {
	s, names := w2bScene(b)
	plate, err := s.collectAreas([]string{"plate"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	holes, err := s.collectAreas(names, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := libraryBoolean(Difference, plate, holes); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOffsetW3Library(b *testing.B) {
	s := w3Scene(b)
	star, err := s.areaOf("star")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range []float64{2, -2} {
			if _, err := libraryOffset(star, d, overlay.Join{Round: true}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// nearCopiesScene holds the case of testdata/repros/10-slow-near-copies.js: 60 copies of a
// 48-gon of radius 30, each vertex moved by at most 1e-9, named c0..c59.
func nearCopiesScene(tb testing.TB) (*Scene, []string) {
	s := New()
	names := make([]string, 60)
	for k := range names {
		pts := make([]geom.Vec, 48)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / 48
			pts[i] = geom.Vec{X: 30*math.Cos(a) + 1e-9*math.Sin(float64(1000*k+7*i)), Y: 30*math.Sin(a) + 1e-9*math.Cos(float64(1300*k+3*i))}
		}
		names[k] = "c" + strconv.Itoa(k)
		if _, err := s.Put(names[k], Polygon{Parts: []PolygonPart{{Outer: pts}}}); err != nil {
			tb.Fatal(err)
		}
	}
	return s, names
}

// BenchmarkUnionNearCopies is repro 10: it must stay well under 50 ms.
func BenchmarkUnionNearCopies(b *testing.B) {
	s, names := nearCopiesScene(b)
	for b.Loop() {
		if _, err := s.Boolean(Union, names, nil, "u"); err != nil {
			b.Fatal(err)
		}
	}
}

// washersScene holds a 50 x 50 grid of washers, squares of side 2.5 at pitch 3 with a
// square hole of side 1.5, named w0..w2499: their union has 2,500 outer rings and 2,500
// holes, each hole inside one of them.
func washersScene(tb testing.TB) (*Scene, []string) {
	s := New()
	names := make([]string, 0, 2500)
	for i := range 50 {
		for j := range 50 {
			x, y := 3*float64(i), 3*float64(j)
			part := PolygonPart{
				Outer: []geom.Vec{{X: x, Y: y}, {X: x + 2.5, Y: y}, {X: x + 2.5, Y: y + 2.5}, {X: x, Y: y + 2.5}},
				Holes: [][]geom.Vec{{{X: x + 0.5, Y: y + 0.5}, {X: x + 0.5, Y: y + 2}, {X: x + 2, Y: y + 2}, {X: x + 2, Y: y + 0.5}}},
			}
			n := "w" + strconv.Itoa(len(names))
			if _, err := s.Put(n, Polygon{Parts: []PolygonPart{part}}); err != nil {
				tb.Fatal(err)
			}
			names = append(names, n)
		}
	}
	return s, names
}

// BenchmarkBooleanWashers is the union of 2,500 washers: as many holes as outer rings, each
// hole to be given to the one around it.
func BenchmarkBooleanWashers(b *testing.B) {
	s, names := washersScene(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Boolean(Union, names, nil, "u"); err != nil {
			b.Fatal(err)
		}
	}
}
