package scene

// Subset returns a copy of the scene holding the entities for which keep is true, with the
// groups that contain them (so that each keeps its world placement and z order). A kept
// group's members are kept only when keep says so too. The views of a large scene (a page of its JSON, a region of
// its drawing, one group) are drawn from such a subset. Shapes are shared, not copied: they
// are immutable.
func (s *Scene) Subset(keep func(*Entity) bool) *Scene {
	c := New()
	var copyList func(list *zlist, parent *Entity) zlist
	copyList = func(list *zlist, parent *Entity) zlist {
		var out []*Entity
		for e := range list.all() {
			n := &Entity{Name: e.Name, Shape: e.Shape, Transform: e.Transform, Style: e.Style.clone(), parent: parent}
			kept := keep(e)
			n.children = copyList(&e.children, n)
			if !kept && n.children.len() == 0 {
				continue
			}
			c.byName.add(n)
			out = append(out, n)
		}
		return newZlist(out)
	}
	c.roots = copyList(&s.roots, nil)
	// The layer table goes with the shapes: a shape on a layer draws in its colour and
	// linetype in a picture of a part of the scene as in the whole.
	c.layers, c.drafting = cloneLayers(s.layers), s.drafting
	return c
}
