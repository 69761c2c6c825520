package scene

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNewFormDropsEmptyEdges: a form's profile keeps no edge of EmptyEdge of its size or
// less, merging its end into its start, and no ring left too small to bound an area; an edge
// a little longer stays, and a profile with none is kept as it came.
func TestNewFormDropsEmptyEdges(t *testing.T) {
	ring := func(pts ...Vec) []Vec { return pts }
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
				Outer:       ring(Vec{0, 0}, Vec{10, 0}, Vec{10, 5}, Vec{5, 10}, Vec{5 - 5e-9, 10}, Vec{0, 10}),
				OuterBulges: []float64{0, 0, 0.4142135623730951, 0, 0, 0},
			}}},
			want: &Polygon{Parts: []PolygonPart{{
				Outer:       ring(Vec{0, 0}, Vec{10, 0}, Vec{10, 5}, Vec{5 - 5e-9, 10}, Vec{0, 10}),
				OuterBulges: []float64{0, 0, 0.4142135623730951, 0, 0},
			}}},
		},
		{
			name: "longer kept",
			in:   Polygon{Parts: []PolygonPart{{Outer: ring(Vec{0, 0}, Vec{10, 0}, Vec{10, 1e-7}, Vec{10, 10}, Vec{0, 10})}}},
			want: &Polygon{Parts: []PolygonPart{{Outer: ring(Vec{0, 0}, Vec{10, 0}, Vec{10, 1e-7}, Vec{10, 10}, Vec{0, 10})}}},
		},
		{
			// A square of side 1 a hundred million from the origin: its coordinates round at
			// 1.5e-8, so the size is a millionth of its reach (100), and an edge of 5e-8 is none.
			name: "far out",
			in:   Polygon{Parts: []PolygonPart{{Outer: ring(Vec{1e8, 0}, Vec{1e8 + 1, 0}, Vec{1e8 + 1, 5e-8}, Vec{1e8 + 1, 1}, Vec{1e8, 1})}}},
			want: &Polygon{Parts: []PolygonPart{{Outer: ring(Vec{1e8, 0}, Vec{1e8 + 1, 5e-8}, Vec{1e8 + 1, 1}, Vec{1e8, 1})}}},
		},
		{
			// A hole of 1e-9 across in a square of 10 is no hole; the second hole, an arc's
			// circle, keeps its bulges in their place.
			name: "hole gone",
			in: Polygon{Parts: []PolygonPart{{
				Outer:      ring(Vec{0, 0}, Vec{10, 0}, Vec{10, 10}, Vec{0, 10}),
				Holes:      [][]Vec{ring(Vec{5, 5}, Vec{5, 5 + 1e-9}, Vec{5 + 1e-9, 5}), ring(Vec{2, 2}, Vec{3, 2})},
				HoleBulges: [][]float64{nil, {-1, -1}},
			}}},
			want: &Polygon{Parts: []PolygonPart{{
				Outer:      ring(Vec{0, 0}, Vec{10, 0}, Vec{10, 10}, Vec{0, 10}),
				Holes:      [][]Vec{ring(Vec{2, 2}, Vec{3, 2})},
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
	sq := Polygon{Parts: []PolygonPart{{Outer: []Vec{{0, 0}, {10, 0}, {10, 2e-9}, {10, 10}, {0, 10}}}}}
	sd := &Solid{Mesh: &Mesh{}, Place: Identity3, Form: &Form{Op: FormExtrude, Profile: sq, Height: 1}}
	b, err := json.Marshal(sd)
	if err != nil {
		t.Fatal(err)
	}
	var back Solid
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	want := []Vec{{0, 0}, {10, 2e-9}, {10, 10}, {0, 10}}
	if back.Form == nil {
		t.Fatal("the form is lost")
	}
	if diff := cmp.Diff(want, back.Form.Profile.Parts[0].Outer); diff != "" {
		t.Errorf("outer ring mismatch (-want +got):\n%s", diff)
	}
}
