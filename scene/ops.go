package scene

// Operations that rearrange the scene: transforms, groups, z order, style, copies.
// World-space variants convert a world quantity into the parent's frame, so that an entity
// inside a rotated or scaled group moves the way the caller sees it on screen.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// Space says in which frame a transform operation's quantities are given.
type Space string

// Spaces for transform operations.
const (
	// SpaceWorld: displacements and points are in world coordinates (what you see).
	SpaceWorld Space = "world"
	// SpaceLocal: displacements and points are in the parent's frame (the entity's own
	// translate/rotate/scale values change by exactly the amounts given).
	SpaceLocal Space = "local"
)

// ParseSpace checks a space name; "" means world.
func ParseSpace(s string) (Space, error) {
	switch Space(s) {
	case "", SpaceWorld:
		return SpaceWorld, nil
	case SpaceLocal:
		return SpaceLocal, nil
	}
	return "", fmt.Errorf("%w: unknown space %q; use 'world' or 'local'", ErrBadTransform, s)
}

// Translate moves the entity by d (in space).
func (s *Scene) Translate(name string, d geom.Vec, space Space) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if !finiteVec(d) {
		return fmt.Errorf("%w: translate by (%v, %v): values must be finite", ErrBadTransform, d.X, d.Y)
	}
	if space == SpaceWorld {
		inv, ok := parentMatrix(e).Invert()
		if !ok {
			return fmt.Errorf("%w: the parent of %q is singular", ErrBadTransform, name)
		}
		d = inv.ApplyVec(d)
	}
	e.Transform.Translate = e.Transform.Translate.Add(d)
	return nil
}

// Rotate turns the entity counter-clockwise by angle radians about its pivot. In world space
// the angle is as seen on screen: under a mirrored parent it is applied reversed. (A parent
// with unequal x and y scale cannot express every world rotation; the rotation is then
// applied in the parent's frame.)
func (s *Scene) Rotate(name string, angle float64, space Space) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if math.IsNaN(angle) || math.IsInf(angle, 0) {
		return fmt.Errorf("%w: rotate by %v: the angle must be finite (radians)", ErrBadTransform, angle)
	}
	if space == SpaceWorld && parentMatrix(e).Det() < 0 {
		angle = -angle
	}
	e.Transform.Rotate += angle
	return nil
}

// Scale multiplies the entity's scale along its own axes by (sx, sy). A negative factor
// mirrors; zero is refused. The fixed point is the pivot, or around when given (in space).
func (s *Scene) Scale(name string, sx, sy float64, space Space, around *geom.Vec) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	for _, f := range []float64{sx, sy} {
		if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: scale by (%v, %v): factors must be finite and non-zero (a negative factor mirrors)", ErrBadTransform, sx, sy)
		}
	}
	t := &e.Transform
	before := t.linear()
	t.Scale = geom.Vec{X: t.Scale.X * sx, Y: t.Scale.Y * sy}
	if around == nil {
		return nil
	}
	q := *around
	if !finiteVec(q) {
		return fmt.Errorf("%w: scale around (%v, %v): the point must be finite", ErrBadTransform, q.X, q.Y)
	}
	if space == SpaceWorld {
		inv, _ := parentMatrix(e).Invert()
		q = inv.Apply(q)
	}
	// xq is the local point that sits at q; keep it there.
	localInv, _ := Transform{Translate: t.Translate, Rotate: t.Rotate, Scale: geom.Vec{X: t.Scale.X / sx, Y: t.Scale.Y / sy}, Pivot: t.Pivot}.Matrix().Invert()
	rel := localInv.Apply(q).Sub(t.Pivot)
	t.Translate = t.Translate.Add(before.ApplyVec(rel)).Sub(t.linear().ApplyVec(rel))
	return nil
}

// SetPivot moves the pivot (in the entity's local coordinates) without moving the entity.
func (s *Scene) SetPivot(name string, p geom.Vec) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if !finiteVec(p) {
		return fmt.Errorf("%w: pivot (%v, %v) must be finite", ErrBadTransform, p.X, p.Y)
	}
	t := &e.Transform
	d := t.Pivot.Sub(p)
	t.Translate = t.Translate.Add(d).Sub(t.linear().ApplyVec(d))
	t.Pivot = p
	return nil
}

// SetFill sets the fill colour; nil removes the fill.
func (s *Scene) SetFill(name string, c *Color) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if err := checkColor(c); err != nil {
		return err
	}
	s.paintSubtree(e, func(st *Style) { st.Fill, st.ColorSet = copyColor(c), true })
	return nil
}

// SetStroke sets the stroke colour (nil removes it) and, when width >= 0, the width.
func (s *Scene) SetStroke(name string, c *Color, width float64) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if err := checkColor(c); err != nil {
		return err
	}
	if math.IsNaN(width) || math.IsInf(width, 0) {
		return fmt.Errorf("%w: stroke width must be finite, got %v", ErrBadGeometry, width)
	}
	s.paintSubtree(e, func(st *Style) {
		st.Stroke, st.ColorSet = copyColor(c), true
		if width >= 0 {
			st.StrokeWidth = width
		}
	})
	return nil
}

// SetStrokeCorners sets how the strokes of a shape, or of every shape under a group, end and
// turn: cap "" or "round", "butt" or "square"; join "" or "round", "miter" or "bevel"; the
// miter limit in stroke widths (0: SVG's 4). Round is stored as "", so that a scene set back
// to round reads as one never changed.
func (s *Scene) SetStrokeCorners(name, cap, join string, miterLimit float64) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if err := (Style{Cap: cap, Join: join, MiterLimit: miterLimit}).CheckStroke(); err != nil {
		return err
	}
	if cap == "round" {
		cap = ""
	}
	if join == "round" {
		join = ""
	}
	s.paintSubtree(e, func(st *Style) {
		st.Cap, st.Join, st.MiterLimit = cap, join, miterLimit
	})
	return nil
}

// paintSubtree applies a style change to a shape, or to every shape under a group.
func (s *Scene) paintSubtree(e *Entity, f func(*Style)) {
	f(&e.Style)
	for c := range e.children.all() {
		s.paintSubtree(c, f)
	}
}

func checkColor(c *Color) error {
	if c == nil {
		return nil
	}
	for i, v := range c {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("%w: colour channel %d is %v; channels are RGBA in 0..1", ErrBadGeometry, i, v)
		}
	}
	return nil
}

func copyColor(c *Color) *Color {
	if c == nil {
		return nil
	}
	k := *c
	return &k
}

// CreateGroup makes a new top-level group holding the named entities, each keeping its world
// placement. The members keep their stacking: they go into the group in the order they were
// painted before, whatever order the names are listed in (as upstream keeps them). The group's
// pivot is its own origin, [0, 0], as upstream's is, so scaling a new group scales its parts
// about the world origin.
func (s *Scene) CreateGroup(name string, children []string) (*Entity, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if s.Exists(name) {
		return nil, fmt.Errorf("%w: %q already exists; groups need a new name", ErrBadName, name)
	}
	members := make([]*Entity, 0, len(children))
	seen := map[string]bool{}
	for _, c := range children {
		e, err := s.Get(c)
		if err != nil {
			return nil, err
		}
		if seen[c] {
			return nil, fmt.Errorf("%w: %q is listed twice", ErrBadName, c)
		}
		seen[c] = true
		members = append(members, e)
	}
	if s.Len() >= MaxEntities {
		return nil, fmt.Errorf("%w: the scene already has %d entities (MaxEntities)", ErrLimit, MaxEntities)
	}
	s.sortByPaintOrder(members)
	g := &Entity{Name: name, Transform: Transform{Scale: geom.Vec{X: 1, Y: 1}}}
	s.byName.add(g)
	s.roots.insert(g, s.roots.len())
	for _, e := range members {
		if err := s.reparent(e, g, g.children.len()); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// sortByPaintOrder sorts entities back to front as the scene paints them (a group at its own
// place, before its members), comparing their paths of z ranks from the top level.
func (s *Scene) sortByPaintOrder(list []*Entity) {
	if len(list) < 2 {
		return
	}
	path := make(map[*Entity][]int, len(list))
	for _, e := range list {
		var p []int
		for x := e; x != nil; x = x.parent {
			p = append(p, s.ZRank(x))
		}
		slices.Reverse(p)
		path[e] = p
	}
	slices.SortStableFunc(list, func(a, b *Entity) int { return slices.Compare(path[a], path[b]) })
}

// AddToGroup moves entity into group (on top of its members), keeping its world placement.
func (s *Scene) AddToGroup(group, entity string) error {
	g, err := s.group(group)
	if err != nil {
		return err
	}
	e, err := s.Get(entity)
	if err != nil {
		return err
	}
	for a := g; a != nil; a = a.parent {
		if a == e {
			return fmt.Errorf("%w: adding %q to %q would make it its own ancestor", ErrCycle, entity, group)
		}
	}
	return s.reparent(e, g, g.children.len())
}

// RemoveFromGroup moves entity out of group to the group's parent, just above the group,
// keeping its world placement.
func (s *Scene) RemoveFromGroup(group, entity string) error {
	g, err := s.group(group)
	if err != nil {
		return err
	}
	e, err := s.Get(entity)
	if err != nil {
		return err
	}
	if e.parent != g {
		return fmt.Errorf("%w: %q is not a member of group %q", ErrNotFound, entity, group)
	}
	return s.reparent(e, g.parent, s.ZRank(g)+1)
}

// Ungroup dissolves a group: its members take its place in its parent, in their order,
// keeping their world placement.
func (s *Scene) Ungroup(name string) error {
	g, err := s.group(name)
	if err != nil {
		return err
	}
	at := s.ZRank(g)
	for i, c := range append([]*Entity(nil), g.children.slice()...) {
		if err := s.reparent(c, g.parent, at+1+i); err != nil {
			return err
		}
	}
	s.detach(g)
	s.byName.remove(g.Name)
	return nil
}

func (s *Scene) group(name string) (*Entity, error) {
	g, err := s.Get(name)
	if err != nil {
		return nil, err
	}
	if !g.IsGroup() {
		return nil, fmt.Errorf("%w: %q is a %s", ErrNotGroup, name, g.Kind())
	}
	return g, nil
}

// reparent moves e under parent at index i, rewriting its transform so that its world
// placement does not change. Between two frames that place alike (a top-level shape into a
// new group, which is placed as the top level is), the transform stays as it was: worked
// out again through the world matrix, its numbers would come back a rounding away from the
// script's (a rotation of 0.3 as 0.29999999999999993).
func (s *Scene) reparent(e, parent *Entity, i int) error {
	newParent := geom.Identity
	if parent != nil {
		newParent = s.WorldMatrix(parent)
	}
	if parentMatrix(e) == newParent {
		s.detach(e)
		s.attach(e, parent, i)
		return nil
	}
	world := s.WorldMatrix(e)
	inv, ok := newParent.Invert()
	if !ok {
		return fmt.Errorf("%w: group %q is singular", ErrBadTransform, parent.Name)
	}
	t, err := decompose(inv.Mul(world), e.Transform)
	if err != nil {
		return fmt.Errorf("moving %q: %w", e.Name, err)
	}
	s.detach(e)
	e.Transform = t
	s.attach(e, parent, i)
	return nil
}

// decompose writes the affine map m as a Transform with the pivot of like, preferring like's
// signs for the scale so that a mirrored entity stays described as mirrored.
func decompose(m geom.Affine, like Transform) (Transform, error) {
	sx := math.Hypot(m.A, m.B)
	if like.Scale.X < 0 {
		sx = -sx
	}
	if sx == 0 {
		return Transform{}, fmt.Errorf("%w: the result would be singular", ErrBadTransform)
	}
	rot := math.Atan2(m.B/sx, m.A/sx)
	if rot == 0 {
		rot = 0 // no negative zero in the stored transform
	}
	sy := m.Det() / sx
	// The second column must be perpendicular to the first: otherwise the map shears, which
	// a translate/rotate/scale transform cannot express.
	if shear := m.A*m.C + m.B*m.D; math.Abs(shear) > 1e-9*(m.A*m.A+m.B*m.B+m.C*m.C+m.D*m.D) {
		return Transform{}, fmt.Errorf("%w: the placement would need a shear (a parent scaled unevenly and rotated); use uniform scales on groups", ErrBadTransform)
	}
	t := Transform{Rotate: rot, Scale: geom.Vec{X: sx, Y: sy}, Pivot: like.Pivot}
	t.Translate = m.Apply(t.Pivot).Sub(t.Pivot)
	return t, nil
}

// Duplicate copies src (deeply, for a group) under newName, in src's parent directly above
// src. Members of a copied group are named newName_0, newName_1, ... in their z order (and
// newName_0_0 for a member of a member), as the upstream sandbox names them.
func (s *Scene) Duplicate(src, newName string) (*Entity, error) {
	e, err := s.Get(src)
	if err != nil {
		return nil, err
	}
	if err := checkName(newName); err != nil {
		return nil, err
	}
	if s.Exists(newName) {
		return nil, fmt.Errorf("%w: %q already exists; choose a new name for the copy", ErrBadName, newName)
	}
	copies := map[string]bool{}
	segs, tris := 0, 0 // the copied texts' outline segments, the copied solids' triangles
	var plan func(x *Entity, name string) error
	plan = func(x *Entity, name string) error {
		if copies[name] || (s.Exists(name) && name != newName) {
			return fmt.Errorf("%w: the copy of %q would be named %q, which already exists", ErrBadName, x.Name, name)
		}
		if err := checkName(name); err != nil {
			return err
		}
		copies[name] = true
		segs += textSegments(x.Shape)
		tris += solidTriangles(x.Shape)
		for i, c := range x.children.slice() {
			if err := plan(c, name+"_"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := plan(e, newName); err != nil {
		return nil, err
	}
	if s.Len()+len(copies) > MaxEntities {
		return nil, fmt.Errorf("%w: copying would make %d entities (MaxEntities is %d)", ErrLimit, s.Len()+len(copies), MaxEntities)
	}
	if total := s.byName.textSegs + segs; total > text.MaxTextSegments {
		return nil, fmt.Errorf("%w: copying %q would make the scene's texts %d outline segments, over %d (MaxTextSegments); draw less text, or in a font of simpler letters", ErrLimit, src, total, text.MaxTextSegments)
	}
	if total := s.byName.triangles + tris; total > MaxSceneTriangles {
		return nil, fmt.Errorf("%w: copying %q would make the scene's solids %d triangles, over %d (MaxSceneTriangles); copy fewer solids, or make them with fewer segments", ErrLimit, src, total, MaxSceneTriangles)
	}
	var clone func(x *Entity, name string, parent *Entity) *Entity
	clone = func(x *Entity, name string, parent *Entity) *Entity {
		n := &Entity{Name: name, Shape: x.Shape, Transform: x.Transform, Style: x.Style.clone(), parent: parent}
		s.byName.add(n)
		kids := make([]*Entity, 0, x.children.len())
		for i, c := range x.children.slice() {
			kids = append(kids, clone(c, name+"_"+strconv.Itoa(i), n))
		}
		n.children = newZlist(kids)
		return n
	}
	n := clone(e, newName, nil)
	s.attach(n, e.parent, s.ZRank(e)+1)
	return n, nil
}

// Mirror copies src under newName and reflects the copy about the centre of src's world
// bounds: axis "x" flips left and right (across the vertical line through the centre), "y"
// flips up and down.
func (s *Scene) Mirror(src, newName, axis string) (*Entity, error) {
	var refl geom.Affine
	switch axis {
	case "x":
		refl = geom.Scaling(-1, 1)
	case "y":
		refl = geom.Scaling(1, -1)
	default:
		return nil, fmt.Errorf("%w: mirror axis %q; use 'x' (flip left-right) or 'y' (flip up-down)", ErrBadTransform, axis)
	}
	e, err := s.Get(src)
	if err != nil {
		return nil, err
	}
	c := s.WorldBounds(e).Center()
	n, err := s.Duplicate(src, newName)
	if err != nil {
		return nil, err
	}
	world := geom.Translation(c).Mul(refl).Mul(geom.Translation(c.Mul(-1))).Mul(s.WorldMatrix(n))
	inv, _ := parentMatrix(n).Invert()
	t, err := decompose(inv.Mul(world), n.Transform)
	if err != nil {
		_ = s.Delete(newName)
		return nil, fmt.Errorf("mirroring %q: %w", src, err)
	}
	n.Transform = t
	return n, nil
}

// DrawOrder moves an entity within its siblings: "front", "back", "+N" (N steps towards the
// front), "-N", "above:NAME" or "below:NAME" (NAME must be a sibling).
func (s *Scene) DrawOrder(name, mode string) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	count := s.siblings(e).len()
	from := s.ZRank(e)
	to := from
	switch {
	case mode == "front":
		to = count - 1
	case mode == "back":
		to = 0
	case strings.HasPrefix(mode, "above:") || strings.HasPrefix(mode, "below:"):
		target := mode[:6]
		other, err := s.Get(mode[6:])
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrBadOrder, mode, err)
		}
		if other.parent != e.parent {
			return fmt.Errorf("%w: %q and %q are not siblings (parents %q and %q); z order applies within one group", ErrBadOrder, name, other.Name, e.Parent(), other.Parent())
		}
		if other == e {
			return nil
		}
		at := s.ZRank(other)
		if at > from {
			at-- // indices shift once e is taken out
		}
		if target == "above:" {
			at++
		}
		to = at
	default:
		n, err := strconv.Atoi(mode)
		if err != nil {
			return fmt.Errorf("%w: unknown mode %q; use front, back, +N, -N, above:NAME or below:NAME", ErrBadOrder, mode)
		}
		to = max(0, min(count-1, from+n))
	}
	parent := e.parent
	s.detach(e)
	s.attach(e, parent, to)
	return nil
}

// DrawOrderOf lists a group's members (or, for "", the top level) back to front.
func (s *Scene) DrawOrderOf(group string) ([]string, error) {
	if group == "" {
		return s.Roots(), nil
	}
	g, err := s.group(group)
	if err != nil {
		return nil, err
	}
	return g.Children(), nil
}
