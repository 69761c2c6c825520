package scene

import (
	"errors"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// TestBoundaryDistance: a hole inside a panel measures 0 from it as a region; by its
// boundary it is the material between the hole's edge and the panel's, and from its centre
// the distance to the panel's edge.
func TestBoundaryDistance(t *testing.T) {
	s := New()
	for name, sh := range map[string]Shape{
		"panel":   Rect{Center: geom.Vec{X: 50, Y: 30}, Width: 100, Height: 60},
		"hole":    Circle{Center: geom.Vec{X: 10, Y: 12}, Radius: 5},
		"slot":    Rect{Center: geom.Vec{X: 80, Y: 30}, Width: 20, Height: 6},
		"ring":    Circle{Center: geom.Vec{X: 200, Y: 0}, Radius: 60},
		"bore":    Circle{Center: geom.Vec{X: 203, Y: 4}, Radius: 5},
		"cross":   Circle{Center: geom.Vec{X: 260, Y: 0}, Radius: 8},
		"outside": Circle{Center: geom.Vec{X: -20, Y: 30}, Radius: 4},
		"bend":    Arc{Center: geom.Vec{X: 50, Y: 30}, Radius: 10, Start: 0, End: math.Pi / 2},
	} {
		if _, err := s.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	edge, centre := DistanceOptions{Boundary: true}, DistanceOptions{From: FromCenter}
	tests := []struct {
		a, b string
		opt  DistanceOptions
		want Gap
	}{
		{"hole", "panel", DistanceOptions{}, Gap{Distance: 0, A: geom.Vec{X: 15, Y: 12}, B: geom.Vec{X: 15, Y: 12}}},
		// The hole's edge is 5 from the panel's left and 7 from its bottom.
		{"hole", "panel", edge, Gap{Distance: 5, A: geom.Vec{X: 5, Y: 12}, B: geom.Vec{X: 0, Y: 12}}},
		{"panel", "hole", edge, Gap{Distance: 5, A: geom.Vec{X: 0, Y: 12}, B: geom.Vec{X: 5, Y: 12}}},
		{"hole", "panel", centre, Gap{Distance: 10, A: geom.Vec{X: 10, Y: 12}, B: geom.Vec{X: 0, Y: 12}}},
		{"hole", "panel", DistanceOptions{Boundary: true, From: FromCenter}, Gap{Distance: 10, A: geom.Vec{X: 10, Y: 12}, B: geom.Vec{X: 0, Y: 12}}},
		// A rectangle's centre is its centroid: the slot's is 20 from the panel's right edge,
		// its end 10 (the first of the nearest pairs, at the slot's corner).
		{"slot", "panel", centre, Gap{Distance: 20, A: geom.Vec{X: 80, Y: 30}, B: geom.Vec{X: 100, Y: 30}}},
		{"slot", "panel", edge, Gap{Distance: 10, A: geom.Vec{X: 90, Y: 27}, B: geom.Vec{X: 100, Y: 27}}},
		// Circles in closed form: the bore sits 5 off the ring's centre, 50 from its edge at
		// the thinnest, along the ray from the ring's centre through the bore's.
		{"bore", "ring", edge, Gap{Distance: 50, A: geom.Vec{X: 206, Y: 8}, B: geom.Vec{X: 236, Y: 48}}},
		{"ring", "bore", edge, Gap{Distance: 50, A: geom.Vec{X: 236, Y: 48}, B: geom.Vec{X: 206, Y: 8}}},
		{"bore", "ring", centre, Gap{Distance: 55, A: geom.Vec{X: 203, Y: 4}, B: geom.Vec{X: 236, Y: 48}}},
		// Crossing outlines meet at 0, at a point on both.
		{"cross", "ring", edge, Gap{Distance: 0, A: geom.Vec{X: 259.46666666666664, Y: -7.982202425117742}, B: geom.Vec{X: 259.46666666666664, Y: -7.982202425117742}}},
		// Apart, a boundary distance is the plain one.
		{"outside", "panel", edge, Gap{Distance: 16, A: geom.Vec{X: -16, Y: 30}, B: geom.Vec{X: 0, Y: 30}}},
		// An arc's centre is its circle's, not its centroid on the bulge.
		{"bend", "panel", centre, Gap{Distance: 30, A: geom.Vec{X: 50, Y: 30}, B: geom.Vec{X: 50, Y: 0}}},
	}
	for _, tt := range tests {
		got, err := s.DistanceWith(tt.a, tt.b, tt.opt)
		if err != nil {
			t.Errorf("DistanceWith(%q, %q, %+v): %v", tt.a, tt.b, tt.opt, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, approx); diff != "" {
			t.Errorf("DistanceWith(%q, %q, %+v) mismatch (-want +got):\n%s", tt.a, tt.b, tt.opt, diff)
		}
	}

	points := []struct {
		opt  DistanceOptions
		want Gap
	}{
		{DistanceOptions{}, Gap{Distance: 0, A: geom.Vec{X: 20, Y: 10}, B: geom.Vec{X: 20, Y: 10}}},
		{edge, Gap{Distance: 10, A: geom.Vec{X: 20, Y: 0}, B: geom.Vec{X: 20, Y: 10}}},
		{centre, Gap{Distance: 36.05551275463989, A: geom.Vec{X: 50, Y: 30}, B: geom.Vec{X: 20, Y: 10}}},
	}
	for _, tt := range points {
		got, err := s.DistanceToPointWith("panel", geom.Vec{X: 20, Y: 10}, tt.opt)
		if err != nil {
			t.Errorf("DistanceToPointWith(%+v): %v", tt.opt, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, approx); diff != "" {
			t.Errorf("DistanceToPointWith(%+v) mismatch (-want +got):\n%s", tt.opt, diff)
		}
	}

	_, err := s.DistanceWith("hole", "panel", DistanceOptions{From: "middle"})
	if want := `bad option: unknown distance from "middle"; use "edge" (the outline) or "center" (the centre)`; err == nil || err.Error() != want || !errors.Is(err, ErrBadOption) {
		t.Errorf("from middle: got %v, want %q", err, want)
	}
}
