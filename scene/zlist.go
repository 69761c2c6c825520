package scene

import (
	"iter"
	"slices"
)

// zlist is a sibling list, back to front: the top level or a group's members.
//
// Scripts often delete many entities in a row (their inputs, once a boolean has drawn the
// result), and a dense slice makes each delete search and shift the list: quadratic in all.
// So every entity keeps its slot in the list, and a delete leaves a hole there instead of
// shifting: O(1). The holes are squeezed out once they are half the list, by the next insert
// that needs a dense index, or never (readers step over them), so n deletes cost O(n) in all.
// Reading never changes the list, so a scene that is only read stays safe to share.
type zlist struct {
	items []*Entity // nil where an entity was deleted
	holes int       // the nils in items
}

// newZlist makes a list of entities, renumbering their slots.
func newZlist(list []*Entity) zlist {
	for i, e := range list {
		e.slot = i
	}
	return zlist{items: list}
}

// len is the number of entities in the list.
func (l *zlist) len() int { return len(l.items) - l.holes }

// all yields the entities back to front.
func (l *zlist) all() iter.Seq[*Entity] {
	return func(yield func(*Entity) bool) {
		for _, e := range l.items {
			if e != nil && !yield(e) {
				return
			}
		}
	}
}

// slice returns the entities back to front; the caller must not change it.
func (l *zlist) slice() []*Entity {
	if l.holes == 0 {
		return l.items
	}
	out := make([]*Entity, 0, l.len())
	for e := range l.all() {
		out = append(out, e)
	}
	return out
}

// rank is e's index among the entities, 0 at the back.
func (l *zlist) rank(e *Entity) int {
	if e.slot >= len(l.items) || l.items[e.slot] != e {
		panic("scene: entity missing from its sibling list: " + e.Name)
	}
	if l.holes == 0 {
		return e.slot
	}
	r := e.slot
	for _, x := range l.items[:e.slot] {
		if x == nil {
			r--
		}
	}
	return r
}

// remove takes e out of the list, leaving a hole.
func (l *zlist) remove(e *Entity) {
	if e.slot >= len(l.items) || l.items[e.slot] != e {
		panic("scene: entity missing from its sibling list: " + e.Name)
	}
	l.items[e.slot] = nil
	l.holes++
	for n := len(l.items); n > 0 && l.items[n-1] == nil; n-- {
		l.items = l.items[:n-1]
		l.holes--
	}
	if l.holes > len(l.items)/2 {
		l.compact()
	}
}

// insert puts e at index i among the entities (clamped), shifting those at i and above
// towards the front.
func (l *zlist) insert(e *Entity, i int) {
	if i >= l.len() {
		e.slot = len(l.items)
		if len(l.items) == cap(l.items) {
			// Double: past 256 entries append grows a slice by about a quarter, and a long
			// list (a scene's top level) would be copied four times over as it fills.
			l.items = slices.Grow(l.items, max(8, len(l.items)))
		}
		l.items = append(l.items, e)
		return
	}
	l.compact()
	i = max(0, i)
	l.items = append(l.items, nil)
	copy(l.items[i+1:], l.items[i:])
	l.items[i] = e
	for j := i; j < len(l.items); j++ {
		l.items[j].slot = j
	}
}

// compact squeezes out the holes, renumbering the slots.
func (l *zlist) compact() {
	if l.holes == 0 {
		return
	}
	n := 0
	for _, e := range l.items {
		if e != nil {
			e.slot = n
			l.items[n] = e
			n++
		}
	}
	clear(l.items[n:])
	l.items = l.items[:n]
	l.holes = 0
}
