package scene

import (
	"encoding/json"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// TestNewFormDropsEmptyEdges: a form's profile keeps no edge of EmptyEdge of its size or
// less, merging its end into its start, and no ring left too small to bound an area; an edge
// a little longer stays, and a profile with none is kept as it came.
func TestNewFormDropsEmptyEdges(t *testing.T) {
	ring := func(pts ...geom.Vec) []geom.Vec { return pts }
	tests := []struct {
		name string
		in   Polygon
		want *Polygon
	}{
		{
			// A quarter arc, then an edge of 5e-9 (under 1e-9 of the size, 10), as a boolean
			// leaves where an arc meets a line.
			name: "after an arc",
			in: Polygon{Parts: []PolygonPart{{
				Outer:       ring(geom.Vec{X: 0, Y: 0}, geom.Vec{X: 10, Y: 0}, geom.Vec{X: 10, Y: 5}, geom.Vec{X: 5, Y: 10}, geom.Vec{X: 5 - 5e-9, Y: 10}, geom.Vec{X: 0, Y: 10}),
				OuterBulges: []float64{0, 0, 0.4142135623730951, 0, 0, 0},
			}}},
			want: &Polygon{Parts: []PolygonPart{{
				Outer:       ring(geom.Vec{X: 0, Y: 0}, geom.Vec{X: 10, Y: 0}, geom.Vec{X: 10, Y: 5}, geom.Vec{X: 5 - 5e-9, Y: 10}, geom.Vec{X: 0, Y: 10}),
				OuterBulges: []float64{0, 0, 0.4142135623730951, 0, 0},
			}}},
		},
		{
			name: "longer kept",
			in:   Polygon{Parts: []PolygonPart{{Outer: ring(geom.Vec{X: 0, Y: 0}, geom.Vec{X: 10, Y: 0}, geom.Vec{X: 10, Y: 1e-7}, geom.Vec{X: 10, Y: 10}, geom.Vec{X: 0, Y: 10})}}},
			want: &Polygon{Parts: []PolygonPart{{Outer: ring(geom.Vec{X: 0, Y: 0}, geom.Vec{X: 10, Y: 0}, geom.Vec{X: 10, Y: 1e-7}, geom.Vec{X: 10, Y: 10}, geom.Vec{X: 0, Y: 10})}}},
		},
		{
			// A square of side 1 a hundred million from the origin: its coordinates round at
			// 1.5e-8, so the size is a millionth of its reach (100), and an edge of 5e-8 is none.
			name: "far out",
			in:   Polygon{Parts: []PolygonPart{{Outer: ring(geom.Vec{X: 1e8, Y: 0}, geom.Vec{X: 1e8 + 1, Y: 0}, geom.Vec{X: 1e8 + 1, Y: 5e-8}, geom.Vec{X: 1e8 + 1, Y: 1}, geom.Vec{X: 1e8, Y: 1})}}},
			want: &Polygon{Parts: []PolygonPart{{Outer: ring(geom.Vec{X: 1e8, Y: 0}, geom.Vec{X: 1e8 + 1, Y: 5e-8}, geom.Vec{X: 1e8 + 1, Y: 1}, geom.Vec{X: 1e8, Y: 1})}}},
		},
		{
			// A hole of 1e-9 across in a square of 10 is no hole; the second hole, an arc's
			// circle, keeps its bulges in their place.
			name: "hole gone",
			in: Polygon{Parts: []PolygonPart{{
				Outer:      ring(geom.Vec{X: 0, Y: 0}, geom.Vec{X: 10, Y: 0}, geom.Vec{X: 10, Y: 10}, geom.Vec{X: 0, Y: 10}),
				Holes:      [][]geom.Vec{ring(geom.Vec{X: 5, Y: 5}, geom.Vec{X: 5, Y: 5 + 1e-9}, geom.Vec{X: 5 + 1e-9, Y: 5}), ring(geom.Vec{X: 2, Y: 2}, geom.Vec{X: 3, Y: 2})},
				HoleBulges: [][]float64{nil, {-1, -1}},
			}}},
			want: &Polygon{Parts: []PolygonPart{{
				Outer:      ring(geom.Vec{X: 0, Y: 0}, geom.Vec{X: 10, Y: 0}, geom.Vec{X: 10, Y: 10}, geom.Vec{X: 0, Y: 10}),
				Holes:      [][]geom.Vec{ring(geom.Vec{X: 2, Y: 2}, geom.Vec{X: 3, Y: 2})},
				HoleBulges: [][]float64{{-1, -1}},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Form{Op: FormExtrude, Profile: tt.in, Height: 1}
			if err := in.validate(); err != nil {
				t.Fatal(err)
			}
			got := NewForm(in)
			if got == nil {
				t.Fatal("no form")
			}
			if diff := cmp.Diff(*tt.want, got.Profile); diff != "" {
				t.Errorf("profile mismatch (-want +got):\n%s", diff)
			}
			if err := got.validate(); err != nil {
				t.Errorf("the form made is refused: %v", err)
			}
		})
	}
}

// TestFormFromJSONDropsEmptyEdges: a form read from scene.json (an older cadrun's) is made as
// every form is, without its edges of no length.
func TestFormFromJSONDropsEmptyEdges(t *testing.T) {
	sq := Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 2e-9}, {X: 10, Y: 10}, {X: 0, Y: 10}}}}}
	sd := &Solid{Mesh: &Mesh{}, Place: Identity3, Form: &Form{Op: FormExtrude, Profile: sq, Height: 1}}
	b, err := json.Marshal(sd)
	if err != nil {
		t.Fatal(err)
	}
	var back Solid
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	want := []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 2e-9}, {X: 10, Y: 10}, {X: 0, Y: 10}}
	if back.Form == nil {
		t.Fatal("the form is lost")
	}
	if diff := cmp.Diff(want, back.Form.Profile.Parts[0].Outer); diff != "" {
		t.Errorf("outer ring mismatch (-want +got):\n%s", diff)
	}
}
