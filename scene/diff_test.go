package scene

import (
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// diffBase is a plate, an edge, and a hole in a group part, back to front.
func diffBase(t *testing.T) *Scene {
	t.Helper()
	s := New()
	mustPut(t, s, "plate", Rect{Width: 40, Height: 20})
	mustPut(t, s, "hole", Circle{Center: geom.Vec{X: 10, Y: 0}, Radius: 3})
	mustPut(t, s, "edge", Circle{Radius: 1})
	_, err := s.CreateGroup("part", []string{"hole"})
	must(t, err)
	return s
}

// TestCompare: each kind of change is named once, with what differs; a member moved with its
// group is not itself changed; removing an entity does not restack the ones above it; numbers
// within the tolerance are equal, and a tolerance of 0 compares them exactly.
func TestCompare(t *testing.T) {
	t.Parallel()
	red := Color{1, 0, 0, 1}
	tests := []struct {
		name   string
		tol    float64
		change func(*Scene) error
		want   Diff
	}{
		{"same", 0, func(*Scene) error { return nil }, Diff{Same: 4}},
		{"added and removed", 0, func(s *Scene) error {
			if _, err := s.Put("pin", Circle{Radius: 1}); err != nil {
				return err
			}
			return s.Delete("plate")
		}, Diff{Added: []string{"pin"}, Removed: []string{"plate"}, Same: 3}},
		{"moved", 0, func(s *Scene) error { return s.Translate("plate", geom.Vec{X: 3, Y: 4}, SpaceWorld) },
			Diff{Changed: []EntityDiff{{Name: "plate", Kind: KindRect, What: []string{"transform"}}}, Same: 3}},
		{"group moved, member not", 0, func(s *Scene) error { return s.Translate("part", geom.Vec{X: 0, Y: 1}, SpaceWorld) },
			Diff{Changed: []EntityDiff{{Name: "part", Kind: KindGroup, What: []string{"transform"}}}, Same: 3}},
		{"reshaped and restyled", 0, func(s *Scene) error {
			if _, err := s.Put("edge", Rect{Width: 1, Height: 1}); err != nil {
				return err
			}
			return s.SetFill("plate", &red)
		}, Diff{Changed: []EntityDiff{
			{Name: "plate", Kind: KindRect, What: []string{"style"}},
			{Name: "edge", Kind: KindRect, What: []string{"geometry"}},
		}, Same: 2}},
		{"restacked", 0, func(s *Scene) error { return s.DrawOrder("plate", "front") },
			Diff{Changed: []EntityDiff{
				{Name: "edge", Kind: KindCircle, What: []string{"z"}},
				{Name: "part", Kind: KindGroup, What: []string{"z"}},
				{Name: "plate", Kind: KindRect, What: []string{"z"}},
			}, Same: 1}},
		{"removing is not restacking", 0, func(s *Scene) error { return s.Delete("plate") },
			Diff{Removed: []string{"plate"}, Same: 3}},
		{"regrouped", 0, func(s *Scene) error { return s.AddToGroup("part", "edge") },
			Diff{Changed: []EntityDiff{{Name: "edge", Kind: KindCircle, What: []string{"group"}}}, Same: 3}},
		{"noise within the tolerance", 1e-6, func(s *Scene) error { return s.Translate("plate", geom.Vec{X: 1e-9, Y: 0}, SpaceWorld) },
			Diff{Same: 4}},
		{"noise compared exactly", 0, func(s *Scene) error { return s.Translate("plate", geom.Vec{X: 1e-9, Y: 0}, SpaceWorld) },
			Diff{Changed: []EntityDiff{{Name: "plate", Kind: KindRect, What: []string{"transform"}}}, Same: 3}},
		{"over the tolerance", 1e-6, func(s *Scene) error { return s.Translate("plate", geom.Vec{X: 1e-3, Y: 0}, SpaceWorld) },
			Diff{Changed: []EntityDiff{{Name: "plate", Kind: KindRect, What: []string{"transform"}}}, Same: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := diffBase(t)
			cur := old.Clone()
			must(t, tt.change(cur))
			if diff := cmp.Diff(tt.want, Compare(old, cur, tt.tol)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEqualWithin: the tolerant comparison agrees with reflect.DeepEqual on the kinds of value
// a scene holds (pointers, nil and empty slices, arrays, strings) and forgives only numbers.
func TestEqualWithin(t *testing.T) {
	t.Parallel()
	red, red2 := Color{1, 0, 0, 1}, Color{1, 1e-9, 0, 1}
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"near colours", Style{Fill: &red}, Style{Fill: &red2}, true},
		{"nil fill", Style{Fill: &red}, Style{}, false},
		{"nil and empty points", Line{}, Line{Points: []geom.Vec{}}, false},
		{"near points", Line{Points: []geom.Vec{{X: 1, Y: 2}}}, Line{Points: []geom.Vec{{X: 1, Y: 2 + 1e-9}}}, true},
		{"far points", Line{Points: []geom.Vec{{X: 1, Y: 2}}}, Line{Points: []geom.Vec{{X: 1, Y: 2.1}}}, false},
		{"other kinds", Line{}, Circle{}, false},
		{"large numbers, relative", Circle{Radius: 1e9}, Circle{Radius: 1e9 + 1}, true},
	}
	for _, tt := range tests {
		if got := equalWithin(tt.a, tt.b, 1e-6); got != tt.want {
			t.Errorf("%s: equalWithin = %t, want %t", tt.name, got, tt.want)
		}
	}
}
