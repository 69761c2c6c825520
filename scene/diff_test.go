package scene

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
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

// TestSameStyleSeesEveryField: the exact style comparison compares the colours where they
// point and every other field with ==, so a pointer field it does not name would be compared
// by address, and any field of a kind == cannot compare would not build. Every field of
// Style is one of the three colours or plain.
func TestSameStyleSeesEveryField(t *testing.T) {
	t.Parallel()
	colours := map[string]bool{"Fill": true, "Stroke": true, "HatchColor": true}
	st := reflect.TypeOf(Style{})
	for i := range st.NumField() {
		f := st.Field(i)
		if colours[f.Name] {
			if f.Type != reflect.TypeOf((*Color)(nil)) {
				t.Errorf("Style.%s is %v, want *Color as sameStyle reads it", f.Name, f.Type)
			}
			continue
		}
		if !isPlain(f.Type) {
			t.Errorf("Style.%s is %v: sameStyle compares it with ==, which would not compare what it points to", f.Name, f.Type)
		}
	}
	if !isPlain(reflect.TypeOf(Transform{})) {
		t.Error("Transform is no longer plain: sameTransform compares it with ==")
	}
}

// TestExactComparisonIsDeepEqual: compared exactly, shapes, transforms and styles are equal
// where reflect.DeepEqual says so, for every kind of shape (plain types compared with ==, the
// others by reflection), a field changed, NaN, a signed zero, and a colour both share.
func TestExactComparisonIsDeepEqual(t *testing.T) {
	t.Parallel()
	s := sampleScene(t)
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	var shapes []Shape
	for _, e := range s.Walk() {
		shapes = append(shapes, e.Shape) // nil for a group
	}
	shapes = append(shapes,
		Circle{Radius: nan}, Circle{Radius: negZero}, Circle{}, Rect{Width: 8, Height: 4},
		Rect{Center: geom.Vec{X: 30}, Width: 8, Height: 4}, Line{Points: []geom.Vec{{X: nan}}},
		&Text{Text: "Hi, Ø20", Pos: geom.Vec{X: 0, Y: -40}, Size: 4, Align: text.AlignCenter, Font: "mono"})
	for _, a := range shapes {
		for _, b := range shapes {
			if got, want := sameShape(a, b, 0), reflect.DeepEqual(a, b); got != want {
				t.Errorf("sameShape(%#v, %#v) = %v, reflect.DeepEqual %v", a, b, got, want)
			}
		}
	}
	shared := &Color{nan, 0, 0, 1}
	styles := []Style{{}, {StrokeWidth: 1}, {StrokeWidth: negZero}, {Fill: &Color{1, 0, 0, 1}},
		{Fill: &Color{1, 0, 0, 1}}, {Fill: shared}, {Stroke: shared}, {HatchColor: &Color{0, 0, 0, 1}},
		{Linetype: "DASHED"}, {ColorSet: true}, {Cap: CapButt, Join: StrokeMiter, MiterLimit: 2}}
	for _, e := range s.Walk() {
		styles = append(styles, e.Style)
	}
	for _, a := range styles {
		for _, b := range styles {
			a0, b0 := a, b
			a0.ColorSet, b0.ColorSet = false, false
			if got, want := sameStyle(a, b, 0), reflect.DeepEqual(a0, b0); got != want {
				t.Errorf("sameStyle(%+v, %+v) = %v, reflect.DeepEqual %v", a, b, got, want)
			}
		}
	}
	transforms := []Transform{{}, {Rotate: nan}, {Rotate: negZero}, {Scale: geom.Vec{X: 1, Y: 1}}}
	for _, e := range s.Walk() {
		transforms = append(transforms, e.Transform)
	}
	for _, a := range transforms {
		for _, b := range transforms {
			if got, want := sameTransform(a, b, 0), reflect.DeepEqual(a, b); got != want {
				t.Errorf("sameTransform(%+v, %+v) = %v, reflect.DeepEqual %v", a, b, got, want)
			}
		}
	}
}

// BenchmarkCompare10k compares W1's 10,000 shapes, in rows of groups, with a copy of them
// that differs in one: what a small edit of a large scene pays before its answer.
func BenchmarkCompare10k(b *testing.B) {
	s := New()
	for j := range 100 {
		row := make([]string, 0, 100)
		for i := range 100 {
			k := 100*j + i
			name := "e" + strconv.Itoa(k)
			if k%2 == 0 {
				mustPut(b, s, name, Circle{Center: geom.Vec{X: float64(10 * i), Y: float64(10 * j)}, Radius: 4})
			} else {
				mustPut(b, s, name, Rect{Width: 6, Height: 4})
				must(b, s.Rotate(name, float64(k%90)*math.Pi/180, SpaceWorld))
				must(b, s.Translate(name, geom.Vec{X: float64(10 * i), Y: float64(10 * j)}, SpaceWorld))
			}
			row = append(row, name)
		}
		_, err := s.CreateGroup("row"+strconv.Itoa(j), row)
		must(b, err)
	}
	cur := s.Clone()
	mustPut(b, cur, "e0", Circle{Radius: 5})
	for b.Loop() {
		if d := Compare(s, cur, 0); len(d.Changed) != 1 || d.Same != s.Len()-1 {
			b.Fatalf("changed %v, same %d", d.Changed, d.Same)
		}
	}
}
