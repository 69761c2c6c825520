package engine

// Comparing two scenes entity by entity: what a change's answer lists as added, removed,
// changed and restacked, and what scene diff says and draws, from one comparison.

import (
	"reflect"
	"slices"

	"github.com/cadrun/cadrun/scene"
)

// EntityDelta is one entity in both scenes that differs.
type EntityDelta struct {
	Name string
	Kind scene.Kind
	// What lists what differs, in this order: geometry, transform, style, z (its place among
	// the siblings both scenes have), group (its parent).
	What []string
}

// OnlyZ reports a change of stacking alone.
func (d EntityDelta) OnlyZ() bool { return len(d.What) == 1 && d.What[0] == "z" }

// Delta is what differs between two scenes, in walk order.
type Delta struct {
	Added   []string // in cur's order
	Removed []string // in old's order
	Changed []EntityDelta
	Same    int // entities in both, unchanged
}

// Compare compares two scenes entity by entity (by name).
func Compare(old, cur *scene.Scene) Delta {
	var d Delta
	zOld, zCur := commonRanks(old, cur), commonRanks(cur, old)
	for _, e := range cur.Walk() {
		o, err := old.Get(e.Name)
		if err != nil {
			d.Added = append(d.Added, e.Name)
			continue
		}
		var what []string
		if o.Kind() != e.Kind() || !reflect.DeepEqual(o.Shape, e.Shape) {
			what = append(what, "geometry")
		}
		if o.Transform != e.Transform {
			what = append(what, "transform")
		}
		if !reflect.DeepEqual(o.Style, e.Style) {
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
		d.Changed = append(d.Changed, EntityDelta{Name: e.Name, Kind: e.Kind(), What: what})
	}
	for _, e := range old.Walk() {
		if !cur.Exists(e.Name) {
			d.Removed = append(d.Removed, e.Name)
		}
	}
	return d
}

// Altered names what d's newer scene added or altered (not only restacked): the uncapped
// added and changed of a change's answer (diffScenes), what a view highlights as changed.
func (d Delta) Altered() []string {
	names := slices.Clone(d.Added)
	for _, c := range d.Changed {
		if !c.OnlyZ() {
			names = append(names, c.Name)
		}
	}
	return names
}

// commonRanks is the place of each entity of s among those of its siblings that other has
// under the same parent: an entity is restacked when that place changes, not when a sibling
// below it is added or removed.
func commonRanks(s, other *scene.Scene) map[string]int {
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
