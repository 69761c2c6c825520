package scene

// One comparison of two scenes serves every caller that says what changed: a change's answer
// (added, removed, changed, restacked), the scene diff tool and its picture, and the snapshot
// tests of `cadrun test`. They word it each in their own way, but which entities differ, and
// in what, is decided here only, so that they never disagree.

import (
	"math"
	"reflect"
)

// Diff is what differs between two scenes, entity by entity (by name).
type Diff struct {
	Added   []string     // in the newer scene's walk order
	Removed []string     // in the older scene's walk order
	Changed []EntityDiff // in the newer scene's walk order
	Same    int          // entities in both, unchanged
}

// EntityDiff is one entity in both scenes that differs.
type EntityDiff struct {
	Name string
	Kind Kind // in the newer scene
	// What lists what differs, in this order: geometry (the kind or the shape), transform,
	// style, z (its place among the siblings both scenes have under the same parent), group
	// (its parent).
	What []string
}

// OnlyZ reports a change of stacking alone: a restacked entity.
func (d EntityDiff) OnlyZ() bool { return len(d.What) == 1 && d.What[0] == "z" }

// Has reports whether what is one of the things that differ.
func (d EntityDiff) Has(what string) bool {
	for _, w := range d.What {
		if w == what {
			return true
		}
	}
	return false
}

// Compare compares old with cur entity by entity. Numbers of a shape, a transform or a style
// count as equal within tol (see NearlyEqual); 0 compares them exactly.
func Compare(old, cur *Scene, tol float64) Diff {
	var d Diff
	zOld, zCur := commonRanks(old, cur), commonRanks(cur, old)
	for _, e := range cur.Walk() {
		o, err := old.Get(e.Name)
		if err != nil {
			d.Added = append(d.Added, e.Name)
			continue
		}
		var what []string
		if o.Kind() != e.Kind() || !equalWithin(o.Shape, e.Shape, tol) {
			what = append(what, "geometry")
		}
		if !equalWithin(o.Transform, e.Transform, tol) {
			what = append(what, "transform")
		}
		if !sameStyle(o.Style, e.Style, tol) {
			what = append(what, "style")
		}
		if zOld[e.Name] != zCur[e.Name] {
			what = append(what, "z")
		}
		if o.Parent() != e.Parent() {
			what = append(what, "group")
		}
		if what == nil {
			d.Same++
			continue
		}
		d.Changed = append(d.Changed, EntityDiff{Name: e.Name, Kind: e.Kind(), What: what})
	}
	for _, e := range old.Walk() {
		if !cur.Exists(e.Name) {
			d.Removed = append(d.Removed, e.Name)
		}
	}
	return d
}

// commonRanks is the place of each entity of s among those of its siblings that other has
// under the same parent: an entity is restacked when that place changes, not when a sibling
// below it is added or removed.
func commonRanks(s, other *Scene) map[string]int {
	ranks := make(map[string]int, s.Len())
	next := map[string]int{}     // parent -> the next rank
	for _, e := range s.Walk() { // siblings come in z order
		if o, err := other.Get(e.Name); err == nil && o.Parent() == e.Parent() {
			ranks[e.Name] = next[e.Parent()]
			next[e.Parent()]++
		}
	}
	return ranks
}

// NearlyEqual reports whether a and b are equal within tol: relative to the larger of the
// two, absolute below 1.
func NearlyEqual(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// equalWithin is reflect.DeepEqual with floating-point numbers equal within tol.
// sameStyle compares two styles as a reader sees them: ColorSet is bookkeeping for layer
// colours, which a document without layers does not keep, so a scene read back from one
// still compares equal to the scene that wrote it.
func sameStyle(a, b Style, tol float64) bool {
	a.ColorSet, b.ColorSet = false, false
	return equalWithin(a, b, tol)
}

func equalWithin(a, b any, tol float64) bool {
	if tol == 0 {
		return reflect.DeepEqual(a, b)
	}
	return valuesWithin(reflect.ValueOf(a), reflect.ValueOf(b), tol)
}

// valuesWithin compares as reflect.DeepEqual does, floats within tol. Scene values hold no
// cycles, and a pointer both sides share is equal without a look at what it points to.
func valuesWithin(a, b reflect.Value, tol float64) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return NearlyEqual(a.Float(), b.Float(), tol)
	case reflect.Pointer:
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		return valuesWithin(a.Elem(), b.Elem(), tol)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return valuesWithin(a.Elem(), b.Elem(), tol)
	case reflect.Struct:
		for i := range a.NumField() {
			if !valuesWithin(a.Field(i), b.Field(i), tol) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !valuesWithin(a.Index(i), b.Index(i), tol) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !valuesWithin(a.MapIndex(k), bv, tol) {
				return false
			}
		}
		return true
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	return reflect.DeepEqual(valueOf(a), valueOf(b))
}

// valueOf is v's value for a comparison of plain kinds (bool, integers, strings, complex
// numbers), read field by field so that unexported fields can be compared too.
func valueOf(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.String:
		return v.String()
	case reflect.Complex64, reflect.Complex128:
		return v.Complex()
	}
	return nil
}
