package scene

// One comparison of two scenes serves every caller that says what changed: a change's answer
// (added, removed, changed, restacked), the scene diff tool and its picture, and the snapshot
// tests of `cadrun test`. They word it each in their own way, but which entities differ, and
// in what, is decided here only, so that they never disagree.

import (
	"math"
	"reflect"
	"sync"
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
//
// Each entity is looked up in the other scene once: an edit of a large scene compares it
// with the last after every run, and the answer waits for it.
func Compare(old, cur *Scene, tol float64) Diff {
	var d Diff
	// matches are cur's entities found in old, in cur's walk order, each with its rank among
	// its siblings that old has under the same parent (-1 when its parent changed): an entity
	// is restacked when that place changes, not when a sibling below it is added or removed.
	type match struct {
		cur, old *Entity
		rank     int
	}
	matches := make([]match, 0, cur.Len())
	next := map[*Entity]int{} // a parent (nil: the top level) -> its next child's rank
	for _, e := range cur.Walk() {
		o, ok := old.Lookup(e.Name)
		if !ok {
			d.Added = append(d.Added, e.Name)
			continue
		}
		m := match{cur: e, old: o, rank: -1}
		if o.Parent() == e.Parent() {
			m.rank = next[e.parent]
			next[e.parent]++
		}
		matches = append(matches, m)
	}
	oldRank := make(map[*Entity]int, len(matches))
	clear(next)
	for _, o := range old.Walk() {
		e, ok := cur.Lookup(o.Name)
		if !ok {
			d.Removed = append(d.Removed, o.Name)
			continue
		}
		if o.Parent() == e.Parent() {
			oldRank[o] = next[o.parent]
			next[o.parent]++
		}
	}
	for _, m := range matches {
		o, e := m.old, m.cur
		var what []string
		if o.Kind() != e.Kind() || !sameShape(o.Shape, e.Shape, tol) {
			what = append(what, "geometry")
		}
		if !sameTransform(o.Transform, e.Transform, tol) {
			what = append(what, "transform")
		}
		if !sameStyle(o.Style, e.Style, tol) {
			what = append(what, "style")
		}
		if m.rank >= 0 && oldRank[o] != m.rank {
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
	return d
}

// NearlyEqual reports whether a and b are equal within tol: relative to the larger of the
// two, absolute below 1.
func NearlyEqual(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// sameStyle compares two styles as a reader sees them: ColorSet is bookkeeping for layer
// colours, which a document without layers does not keep, so a scene read back from one
// still compares equal to the scene that wrote it. Exactly (tol 0), the colours are
// compared where they point and the rest with ==, as reflect.DeepEqual would compare them
// (TestSameStyleSeesEveryField keeps the list of pointers whole).
func sameStyle(a, b Style, tol float64) bool {
	a.ColorSet, b.ColorSet = false, false
	if tol != 0 {
		return equalWithin(a, b, tol)
	}
	if !sameColor(a.Fill, b.Fill) || !sameColor(a.Stroke, b.Stroke) || !sameColor(a.HatchColor, b.HatchColor) {
		return false
	}
	a.Fill, a.Stroke, a.HatchColor = nil, nil, nil
	b.Fill, b.Stroke, b.HatchColor = nil, nil, nil
	return a == b
}

// sameColor compares two colours where they point, nil equal to nil only.
func sameColor(a, b *Color) bool {
	if a == b || a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// sameTransform compares two transforms; a Transform is numbers only, so that exactly ==
// is reflect.DeepEqual.
func sameTransform(a, b Transform, tol float64) bool {
	if tol != 0 {
		return equalWithin(a, b, tol)
	}
	return a == b
}

// sameShape compares two shapes; exactly, a shape of a plain type (numbers, strings and
// booleans, in structs and arrays) is compared with ==, which for such a type is
// reflect.DeepEqual without the reflection.
func sameShape(a, b Shape, tol float64) bool {
	if tol != 0 {
		return equalWithin(a, b, tol)
	}
	t := reflect.TypeOf(a)
	if t != reflect.TypeOf(b) {
		return false
	}
	if t != nil && plainType(t) {
		return a == b
	}
	return reflect.DeepEqual(a, b)
}

// plainTypes caches plainType's answers by type.
var plainTypes sync.Map // reflect.Type -> bool

// plainType reports whether t holds only booleans, numbers and strings, in structs and
// arrays: no pointer, slice, map, interface, function or channel, whose == would compare
// where they point rather than what.
func plainType(t reflect.Type) bool {
	if v, ok := plainTypes.Load(t); ok {
		return v.(bool)
	}
	plain := isPlain(t)
	plainTypes.Store(t, plain)
	return plain
}

func isPlain(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Array:
		return isPlain(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !isPlain(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}

// equalWithin is reflect.DeepEqual with floating-point numbers equal within tol.
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
