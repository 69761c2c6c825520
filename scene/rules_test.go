package scene

import (
	"fmt"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// TestCoordinateRange: coordinates and sizes beyond ±MaxCoord are refused where the shape is
// drawn, and world coordinates that transforms carry beyond it where an area is read.
func TestCoordinateRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		shape Shape
		want  string
	}{
		{"polygon", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: -2e15}}}}},
			"bad geometry: points[2].y is -2e+15, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
		{"hole", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 0, Y: 1}}, Holes: [][]geom.Vec{{{X: 0, Y: 0}, {X: 1e300, Y: 0}, {X: 0, Y: 1}}}}}},
			"bad geometry: hole[1].x is 1e+300, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
		{"circle centre", Circle{Center: geom.Vec{X: 3e15, Y: 0}, Radius: 1},
			"bad geometry: center is 3e+15, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
		{"circle radius", Circle{Radius: 1e16},
			"bad geometry: radius is 1e+16, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
		{"path", &PathShape{Data: "M 0 0 L 1e20 0 L 0 1 Z"},
			"bad geometry: path coordinate is 1e+20, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := New().Put("x", tt.shape)
			if diff := cmp.Diff(tt.want, fmt.Sprint(err)); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// In range as drawn, out of range once scaled: the area operations refuse it.
	s := New()
	if _, err := s.Put("big", boolRect(0, 0, 1e15, 1e15)); err != nil {
		t.Fatal(err)
	}
	if err := s.Scale("big", 1e10, 1e10, SpaceWorld, &geom.Vec{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Area("big")
	want := `polygon "big": bad geometry: its world coordinate is 1e+25, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin`
	if diff := cmp.Diff(want, fmt.Sprint(err)); diff != "" {
		t.Errorf("area of the scaled shape: error mismatch (-want +got):\n%s", diff)
	}
}

// TestHoleRule: a polygon is its outer ring minus the union of its holes, whatever the holes
// do; drawPolygon stores a part whose holes overlap, cross or leave the outer ring as that
// area, and keeps a part whose holes lie inside and apart as drawn.
func TestHoleRule(t *testing.T) {
	t.Parallel()
	sq := func(x0, y0, x1, y1 float64) []geom.Vec {
		return []geom.Vec{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	tests := []struct {
		name   string
		part   PolygonPart
		area   float64
		stored []PolygonPart
	}{
		{"holes inside and apart are kept as drawn",
			PolygonPart{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{sq(1, 1, 2, 2), sq(5, 5, 6, 6)}}, 98,
			[]PolygonPart{{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{sq(1, 1, 2, 2), sq(5, 5, 6, 6)}}}},
		{"overlapping holes are one hole",
			PolygonPart{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{sq(1, 1, 4, 4), sq(3, 3, 5, 5)}}, 100 - 9 - 4 + 1,
			[]PolygonPart{{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{{{X: 1, Y: 1}, {X: 1, Y: 4}, {X: 3, Y: 4}, {X: 3, Y: 5}, {X: 5, Y: 5}, {X: 5, Y: 3}, {X: 4, Y: 3}, {X: 4, Y: 1}}}}}},
		{"a hole outside is ignored",
			PolygonPart{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{sq(20, 20, 21, 21)}}, 100,
			[]PolygonPart{{Outer: sq(0, 0, 10, 10)}}},
		{"a hole across the outer ring cuts it",
			PolygonPart{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{sq(8, 4, 12, 6)}}, 96,
			[]PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 4}, {X: 8, Y: 4}, {X: 8, Y: 6}, {X: 10, Y: 6}, {X: 10, Y: 10}, {X: 0, Y: 10}}}}},
		{"a hole across the middle splits it",
			PolygonPart{Outer: sq(0, 0, 10, 10), Holes: [][]geom.Vec{sq(-1, 4, 11, 6)}}, 80,
			[]PolygonPart{{Outer: sq(0, 0, 10, 4)}, {Outer: sq(0, 6, 10, 10)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			e, err := s.Put("p", Polygon{Parts: []PolygonPart{tt.part}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.stored, e.Shape.(Polygon).Parts); diff != "" {
				t.Errorf("stored parts mismatch (-want +got):\n%s", diff)
			}
			area, err := s.Area("p")
			if err != nil || area != tt.area {
				t.Errorf("Area = %v, %v; want %v", area, err, tt.area)
			}
			names, err := s.Decompose("p", "d")
			if err != nil || len(names) != len(tt.stored) {
				t.Errorf("Decompose = %v, %v; want %d pieces", names, err, len(tt.stored))
			}
			// The hull is the hull of the area: a hole across the middle leaves the corners.
			if _, err := s.ConvexHull("p", "h"); err != nil {
				t.Fatal(err)
			}
			if a, err := s.Area("h"); err != nil || a != 100 {
				t.Errorf("hull area = %v, %v; want 100", a, err)
			}
			// The same area read back from JSON.
			b, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			r, err := ReadJSON(b)
			if err != nil {
				t.Fatal(err)
			}
			if a, err := r.Area("p"); err != nil || a != tt.area {
				t.Errorf("Area after JSON = %v, %v; want %v", a, err, tt.area)
			}
		})
	}
	_, err := New().Put("p", Polygon{Parts: []PolygonPart{{Outer: sq(0, 0, 1, 1), Holes: [][]geom.Vec{sq(-1, -1, 2, 2)}}}})
	want := "bad geometry: the holes cover all of the polygon; draw smaller holes or none"
	if diff := cmp.Diff(want, fmt.Sprint(err)); diff != "" {
		t.Errorf("holes covering everything: error mismatch (-want +got):\n%s", diff)
	}
}

// TestCurvesFlattenRelative: curves are flattened relative to the shape's size, so a union
// of circles drawn in metres is the one drawn in millimetres, scaled.
func TestCurvesFlattenRelative(t *testing.T) {
	t.Parallel()
	area := func(unit float64) float64 {
		s := New()
		for n, x := range map[string]float64{"a": 0, "b": 4} {
			if _, err := s.Put(n, Circle{Center: geom.Vec{X: x * unit, Y: 0}, Radius: 5 * unit}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Boolean(Union, []string{"a"}, []string{"b"}, "u"); err != nil {
			t.Fatal(err)
		}
		a, err := s.Area("u")
		if err != nil {
			t.Fatal(err)
		}
		return a / (unit * unit)
	}
	mm, m := area(1), area(1e-3)
	if math.Abs(m-mm) > 1e-9*mm {
		t.Errorf("union of two circles: %v mm² drawn in metres, %v mm² drawn in millimetres; want the same", m, mm)
	}
}
