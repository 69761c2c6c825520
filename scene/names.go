package scene

import (
	"hash/maphash"
	"iter"
)

// nameIndex finds a scene's entities by name.
//
// A script draws mostly new names. With a Go map each costs two hashes and two probes (is the
// name there? then the insert), and each time the map grows every name is hashed again,
// reading its bytes from wherever the script's string lives. This table keeps each name's
// hash beside its entity: a miss is decided on hashes alone, the look-up and the insert that
// follows share one probe (slot), and growing moves slots without reading a name.
//
// Open addressing with linear probing, at most 3/4 full; a removal shifts the slots after it
// back instead of leaving a tombstone, so a table that only ever held n names probes as one
// that holds them now. Reading never changes the table.
type nameIndex struct {
	slots []nameSlot // a power of two long, or empty
	n     int        // the entities indexed
	// textSegs is the outline segments of the indexed texts, kept as entities come and go,
	// so that drawing a text checks the scene's total (MaxTextSegments) at once.
	textSegs int
	// triangles is the triangles of the indexed solids' meshes (MaxSceneTriangles), kept the
	// same way.
	triangles int
	// solids counts the indexed solids, so that a writer asks in one read whether a scene
	// has any (Scene.HasSolids) instead of walking it on every picture and export.
	solids int
}

type nameSlot struct {
	hash uint64
	e    *Entity // nil: empty
}

// nameSeed seeds the names' hashes, one per process, so that a script cannot choose names that
// all land in one run of slots.
var nameSeed = maphash.MakeSeed()

func hashName(name string) uint64 { return maphash.String(nameSeed, name) }

// newNameIndex makes an index with room for n names before it grows.
func newNameIndex(n int) nameIndex {
	if n == 0 {
		return nameIndex{}
	}
	return nameIndex{slots: make([]nameSlot, slotsFor(n))}
}

// slotsFor is the smallest power of two, at least 8, that holds n names at most 3/4 full.
func slotsFor(n int) int {
	p := 8
	for n*4 > p*3 {
		p *= 2
	}
	return p
}

func (t *nameIndex) len() int { return t.n }

// slot finds name (hashed h): the index of its slot and true, or of the empty slot where it
// would go and false. The table must have slots.
func (t *nameIndex) slot(name string, h uint64) (int, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.e == nil {
			return int(i), false
		}
		if s.hash == h && s.e.Name == name {
			return int(i), true
		}
	}
}

// get returns the entity named name.
func (t *nameIndex) get(name string) (*Entity, bool) {
	if t.n == 0 {
		return nil, false
	}
	i, ok := t.slot(name, hashName(name))
	return t.slots[i].e, ok
}

// find is get for a name about to be added when missing: it returns the entity, or the
// place (index and hash) to hand to addAt.
func (t *nameIndex) find(name string) (e *Entity, at int, h uint64) {
	h = hashName(name)
	if len(t.slots) == 0 {
		return nil, -1, h
	}
	i, ok := t.slot(name, h)
	if ok {
		return t.slots[i].e, i, h
	}
	return nil, i, h
}

// addAt indexes e, whose name hashed to h is missing, at the slot find gave (-1 for none),
// unless the table must grow first.
func (t *nameIndex) addAt(at int, h uint64, e *Entity) {
	if at < 0 || (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
		at, _ = t.slot(e.Name, h)
	}
	t.slots[at] = nameSlot{hash: h, e: e}
	t.n++
	t.textSegs += textSegments(e.Shape)
	t.triangles += solidTriangles(e.Shape)
	t.solids += solidCount(e.Shape)
}

// add indexes e, whose name is missing.
func (t *nameIndex) add(e *Entity) {
	_, at, h := t.find(e.Name)
	t.addAt(at, h, e)
}

// grow doubles the slots (or makes the first), moving each entry by its kept hash.
func (t *nameIndex) grow() {
	old := t.slots
	t.slots = make([]nameSlot, max(8, 2*len(old)))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.e == nil {
			continue
		}
		i := s.hash & mask
		for t.slots[i].e != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// remove takes name out of the index, if it is there.
func (t *nameIndex) remove(name string) {
	if t.n == 0 {
		return
	}
	hole, ok := t.slot(name, hashName(name))
	if !ok {
		return
	}
	t.textSegs -= textSegments(t.slots[hole].e.Shape)
	t.triangles -= solidTriangles(t.slots[hole].e.Shape)
	t.solids -= solidCount(t.slots[hole].e.Shape)
	// Shift back every later slot of the run that may sit in the hole: one whose home (the
	// slot its hash points at) is not cyclically after the hole, so that it is still found.
	mask := len(t.slots) - 1
	for j := (hole + 1) & mask; t.slots[j].e != nil; j = (j + 1) & mask {
		home := int(t.slots[j].hash) & mask
		if (j-home)&mask >= (j-hole)&mask {
			t.slots[hole] = t.slots[j]
			hole = j
		}
	}
	t.slots[hole] = nameSlot{}
	t.n--
}

// all yields the indexed entities, in no particular order.
func (t *nameIndex) all() iter.Seq[*Entity] {
	return func(yield func(*Entity) bool) {
		for _, s := range t.slots {
			if s.e != nil && !yield(s.e) {
				return
			}
		}
	}
}

// textSegments is the outline segments of a text's layout, or of a dimension's text
// (MaxTextSegments); 0 for other shapes.
func textSegments(sh Shape) int {
	switch sh := sh.(type) {
	case *Text:
		if sh != nil {
			return len(sh.layout.Path)
		}
	case *Dimension:
		if sh != nil {
			return sh.textSegs
		}
	}
	return 0
}
