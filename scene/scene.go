// Package scene is cadrun's 2D model: named entities (shapes and groups) in a tree, each with
// a transform, a style and a z rank among its siblings; exact bounds; booleans, offsets and
// other geometry on closed shapes; and a lossless, versioned JSON form.
//
// Start with New, draw with Put, arrange with the transform, group and order operations, and
// hand the scene to the renderers in scene/render. A Scene is not safe for concurrent use;
// the caller serialises access (a run owns its scene until it returns it).
package scene

import (
	"errors"
	"fmt"
	"iter"
	"math"

	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// Errors returned by scene operations; each is wrapped with the details.
var (
	// ErrNotFound is returned when a named entity does not exist.
	ErrNotFound = errors.New("no such entity")
	// ErrBadName is returned for an empty or oversized entity name.
	ErrBadName = errors.New("bad entity name")
	// ErrBadGeometry is returned for a shape parameter out of its domain (NaN, a zero radius).
	ErrBadGeometry = errors.New("bad geometry")
	// ErrBadTransform is returned for a transform that would be singular or not finite.
	ErrBadTransform = errors.New("bad transform")
	// ErrNotClosed is returned when an operation needs an area but the shape encloses none.
	ErrNotClosed = errors.New("shape is not closed")
	// ErrNotGroup is returned when a group operation names an entity that is not a group.
	ErrNotGroup = errors.New("not a group")
	// ErrCycle is returned when grouping would make an entity its own ancestor.
	ErrCycle = errors.New("group cycle")
	// ErrLimit is returned when a count or size cap is exceeded; the message names the cap.
	// It is the text package's sentinel, the lowest package that passes a cap (a text's
	// outlines), so that every limit a scene passes answers errors.Is(err, ErrLimit).
	ErrLimit = text.ErrLimit
	// ErrBadOrder is returned for a draw-order mode that cannot be applied.
	ErrBadOrder = errors.New("bad draw order")
)

// Caps that keep one script from exhausting the host. They are documented in docs/limits.md.
const (
	// MaxEntities caps the entities in one scene.
	MaxEntities = 1_000_000
	// MaxVertices caps the vertices of one polygon or polyline.
	MaxVertices = 1_000_000
	// MaxNameBytes caps an entity name.
	MaxNameBytes = 256
	// MaxCoord bounds every coordinate and size a shape is drawn with, and every world
	// coordinate an area operation reads: |v| <= 1e15. Far below the float range, it keeps
	// the products the geometry forms finite and exact comparisons exact.
	MaxCoord = 1e15
)

// Color is RGBA with each channel in 0..1.
type Color [4]float64

// Black is opaque black, the default stroke.
var Black = Color{0, 0, 0, 1}

// Style is how an entity is painted. A nil Fill or Stroke paints nothing. StrokeWidth is the
// pen's width in scene units and is not affected by transforms, like a pen on a plotter; 0,
// the default, is a hairline (see Hairline).
//
// The drafting fields (see linetype.go) are resolved when the scene is drawn (Scene.Drawn):
// an empty Linetype or Layer takes the nearest group's, then the layer's.
type Style struct {
	Fill        *Color  `json:"fill"`
	Stroke      *Color  `json:"stroke"`
	StrokeWidth float64 `json:"strokeWidth"`
	// Linetype names a linetype of Linetypes; "" has none of its own.
	Linetype string `json:"linetype,omitempty"`
	// LinetypeScale multiplies the linetype's pattern; 0 means 1.
	LinetypeScale float64 `json:"linetypeScale,omitempty"`
	// Layer names a layer of the scene's table; "" is on none of its own.
	Layer string `json:"layer,omitempty"`
	// ColorSet records that the script set the fill or stroke colour, which a layer's
	// colour then leaves alone; a new shape's default colours take the layer's.
	ColorSet bool `json:"colorSet,omitempty"`
	// Hatch names a pattern of HatchPatterns; "" has none of its own.
	Hatch string `json:"hatch,omitempty"`
	// HatchAngle turns the hatch pattern, in radians counter-clockwise.
	HatchAngle float64 `json:"hatchAngle,omitempty"`
	// HatchScale multiplies the hatch pattern's lengths; 0 means 1.
	HatchScale float64 `json:"hatchScale,omitempty"`
	// HatchColor is the hatch's colour; nil draws it in the stroke's.
	HatchColor *Color `json:"hatchColor,omitempty"`
	// Cap is how a stroke's open ends are drawn: "" round (cadrun's default), CapButt or
	// CapSquare.
	Cap string `json:"cap,omitempty"`
	// Join is how a stroke turns at a corner: "" round (cadrun's default), StrokeMiter or
	// StrokeBevel.
	Join string `json:"join,omitempty"`
	// MiterLimit is the longest a miter join reaches, in stroke widths, past which it is
	// bevelled, as SVG's stroke-miterlimit; 0 means 4, SVG's default.
	MiterLimit float64 `json:"miterLimit,omitempty"`
}

// The caps and joins a stroke may have besides round, by their SVG names.
const (
	CapButt     = "butt"
	CapSquare   = "square"
	StrokeMiter = "miter"
	StrokeBevel = "bevel"
)

// StrokeMiterLimit is SVG's stroke-miterlimit, which a MiterLimit of 0 stands for.
const StrokeMiterLimit = 4

// MaxMiterLimit caps a miter limit: a picture and a PDF page leave room around a mitred
// stroke for a miter as long as the limit allows, which a limit of millions would make
// millions of widths wide.
const MaxMiterLimit = 100

// Miter returns the style's miter limit, 0 read as StrokeMiterLimit.
func (st Style) Miter() float64 {
	if st.MiterLimit == 0 {
		return StrokeMiterLimit
	}
	return st.MiterLimit
}

// CheckStroke reports whether the cap, join and miter limit are ones cadrun draws.
func (st Style) CheckStroke() error {
	switch st.Cap {
	case "", "round", CapButt, CapSquare:
	default:
		return fmt.Errorf("%w: stroke cap %q is not butt, round or square", ErrBadGeometry, st.Cap)
	}
	switch st.Join {
	case "", "round", StrokeMiter, StrokeBevel:
	default:
		return fmt.Errorf("%w: stroke join %q is not miter, round or bevel", ErrBadGeometry, st.Join)
	}
	if math.IsNaN(st.MiterLimit) || math.IsInf(st.MiterLimit, 0) || st.MiterLimit != 0 && st.MiterLimit < 1 {
		return fmt.Errorf("%w: miter limit must be a number >= 1, got %v", ErrBadGeometry, st.MiterLimit)
	}
	if st.MiterLimit > MaxMiterLimit {
		return fmt.Errorf("%w: miter limit %v is over %d (MaxMiterLimit); a miter that long is a spike: use a bevel join", ErrLimit, st.MiterLimit, MaxMiterLimit)
	}
	return nil
}

// Hairline reports whether the stroke has no width of its own. Every renderer reads this one
// fact: a hairline is the thinnest line the medium draws, of the same width on screen and on
// paper whatever the drawing's units (one pixel in PNG, a 1px non-scaling stroke in SVG,
// width 0 in PDF, the default lineweight in DXF), as CAD programs draw a line with no
// lineweight. A width > 0 is a pen in scene units.
func (st Style) Hairline() bool { return st.StrokeWidth == 0 }

// DefaultStyle is the style of a new shape: a black hairline stroke, no fill.
func DefaultStyle() Style { return newStyle(KindRect, new(Color)) }

// newStyle is the style a new shape of kind k is drawn with, its colour kept in c (set to
// black): DefaultStyle, but text is filled, with no stroke, so that the letters read, and a
// dimension is both, so that its lines stroke and its arrows and letters fill.
func newStyle(k Kind, c *Color) Style {
	*c = Black
	switch k {
	case KindText:
		return Style{Fill: c}
	case KindDimension:
		return Style{Stroke: c, Fill: c}
	case KindSolid:
		*c = SolidColor
		return Style{Fill: c}
	}
	return Style{Stroke: c}
}

// Transform places an entity in its parent's frame: the local map is
// translate(T) · translate(Pivot) · rotate(Rotate) · scale(Scale) · translate(-Pivot).
type Transform struct {
	Translate geom.Vec `json:"translate"`
	Rotate    float64  `json:"rotate"`
	Scale     geom.Vec `json:"scale"`
	Pivot     geom.Vec `json:"pivot"`
}

// Matrix is the local affine map of t: translate by Translate+Pivot, rotate, scale, and
// translate by -Pivot, composed as geom.Affine.Mul composes them (matrixByMul, in the tests).
//
// It is written out in numbers because every placement asks for it (world matrices, bounds,
// each call's finiteness check, every writer), and Go keeps a struct of six numbers in memory
// rather than in registers: the four products of Mul cost several times the arithmetic. Every
// product and sum is the one Mul computes, in the same order, so that the matrix is the same
// to the bit (TestMatrixIsMulToTheBit); only products by a constant 1, which are exact, are
// left out.
func (t Transform) Matrix() geom.Affine {
	tx, ty := t.Translate.X+t.Pivot.X, t.Translate.Y+t.Pivot.Y
	s, c := math.Sincos(t.Rotate)
	// Translation(tx, ty) · Rotation: {1, 0, 0, 1, tx, ty} · {c, s, -s, c, 0, 0}.
	a1, b1 := c+0*s, 0*c+s
	c1, d1 := -s+0*c, 0*-s+c
	e1, f1 := (0+0)+tx, (0+0)+ty
	// · Scaling: {sx, 0, 0, sy, 0, 0}.
	sx, sy := t.Scale.X, t.Scale.Y
	a2, b2 := a1*sx+c1*0, b1*sx+d1*0
	c2, d2 := a1*0+c1*sy, b1*0+d1*sy
	e2, f2 := a1*0+c1*0+e1, b1*0+d1*0+f1
	// · Translation(-pivot): {1, 0, 0, 1, -px, -py}.
	px, py := t.Pivot.X*-1, t.Pivot.Y*-1
	return geom.Affine{
		A: a2 + c2*0,
		B: b2 + d2*0,
		C: a2*0 + c2,
		D: b2*0 + d2,
		E: a2*px + c2*py + e2,
		F: b2*px + d2*py + f2,
	}
}

// linear is the rotation·scale part of the local map.
func (t Transform) linear() geom.Affine {
	return geom.Rotation(t.Rotate).Mul(geom.Scaling(t.Scale.X, t.Scale.Y))
}

// Entity is a named shape or group. Its fields are read-only outside this package: change an
// entity through the Scene's operations so that the tree stays consistent.
type Entity struct {
	Name      string
	Shape     Shape // nil for a group
	Transform Transform
	Style     Style

	parent   *Entity
	children zlist // back to front
	slot     int   // e's place in its parent's children (or the scene's roots); see zlist
}

// Kind is the entity's kind.
func (e *Entity) Kind() Kind {
	if e.Shape == nil {
		return KindGroup
	}
	return e.Shape.Kind()
}

// IsGroup reports whether e is a group.
func (e *Entity) IsGroup() bool { return e.Shape == nil }

// Parent is the name of the enclosing group, or "" at the top level.
func (e *Entity) Parent() string {
	if e.parent == nil {
		return ""
	}
	return e.parent.Name
}

// Children lists a group's members back to front.
func (e *Entity) Children() []string { return names(&e.children) }

// Scene is a tree of named entities.
type Scene struct {
	byName nameIndex
	roots  zlist // back to front

	// last is the entity Put drew or redrew most recently, while it is in the scene, and
	// lastBox its local bounds, which Put finds for the pivot. A script names the shape it
	// has just drawn again at once (to move it, to check it), so a look-up of that name is a
	// string comparison instead of the map's hash and probe, and its bounds are not found
	// twice. Only Put sets them and only the removal of that entity clears them (an entity
	// keeps its name, and nothing but Put changes the shape of an entity in a scene), so a
	// scene that is only read stays safe to share.
	last    *Entity
	lastBox geom.Box

	// layers is the layer table in creation order (at most MaxLayers, found by a scan).
	layers []Layer
	// drafting is set once a linetype or a layer has been used, so that a scene without
	// them is drawn without resolving any (Scene.Drawn).
	drafting bool
}

// New returns an empty scene.
func New() *Scene { return &Scene{} }

// Len is the number of entities, groups included.
func (s *Scene) Len() int { return s.byName.len() }

// Get returns the named entity.
func (s *Scene) Get(name string) (*Entity, error) {
	e, ok := s.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return e, nil
}

// Exists reports whether an entity of that name exists.
func (s *Scene) Exists(name string) bool { _, ok := s.Lookup(name); return ok }

// Lookup returns the named entity, or false; unlike Get it builds no error, for callers that
// ask about many names that may not exist.
func (s *Scene) Lookup(name string) (*Entity, bool) {
	if e := s.last; e != nil && e.Name == name {
		return e, true
	}
	return s.byName.get(name)
}

// Put draws shape under name. A new name goes on top of the top level with the default style
// and the pivot at the centre of the shape's bounds; an existing shape of that name is
// replaced in place, keeping its parent and z rank but taking the new geometry, a fresh
// transform and the default style.
//
// A Polygon is its outer rings minus the union of their holes: holes may overlap each other
// and cross or lie outside their outer ring, and what lies outside is ignored. A part whose
// holes do any of that is stored as the area it stands for (the parts and holes a boolean
// would give), so that every later operation and both renderers see the same area.
func (s *Scene) Put(name string, shape Shape) (*Entity, error) {
	e, _, err := s.PutOver(name, shape)
	return e, err
}

// PutOver is Put, also saying whether the name was taken (over): the shape replaced the
// entity of that name, or the error is that it is a group's. A caller that notes names drawn
// again (the runtime does, for a script that reuses a name by mistake) then looks the name
// up once, where asking Exists first looked it up twice for every new shape.
func (s *Scene) PutOver(name string, shape Shape) (e *Entity, over bool, err error) {
	if err := checkName(name); err != nil {
		return nil, false, err
	}
	if err := shape.validate(); err != nil {
		return nil, false, err
	}
	if pg, ok := shape.(Polygon); ok {
		var err error
		if shape, err = applyHoleRule(pg); err != nil {
			return nil, false, err
		}
	}
	return s.putChecked(name, shape)
}

// put is Put for shapes already validated and normalised (the area operations' results).
func (s *Scene) put(name string, shape Shape) (*Entity, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	e, _, err := s.putChecked(name, shape)
	return e, err
}

// drawn is a new shape entity with room for its default colour, so that drawing a shape
// allocates one object, not two. The colour stays with the entity when its style later
// points elsewhere (32 bytes).
type drawn struct {
	e     Entity
	color Color
}

// putChecked is put once the name is checked; over says whether the name was taken.
func (s *Scene) putChecked(name string, shape Shape) (e *Entity, over bool, err error) {
	box := localBounds(shape)
	tr := Transform{Scale: geom.Vec{X: 1, Y: 1}, Pivot: box.Center()}
	var (
		old *Entity
		at  int
		h   uint64
	)
	if e := s.last; e != nil && e.Name == name {
		old = e
	} else {
		old, at, h = s.byName.find(name)
	}
	if old != nil && old.IsGroup() {
		return nil, true, fmt.Errorf("%w: %q is a group; delete it first or draw under another name", ErrBadName, name)
	}
	if n := textSegments(shape); n > 0 {
		if err := s.checkTextSegments(name, shape, n, old); err != nil {
			return nil, old != nil, err
		}
	}
	if n := solidTriangles(shape); n > 0 {
		if err := s.checkTriangles(name, n, old); err != nil {
			return nil, old != nil, err
		}
	}
	if old != nil {
		s.byName.textSegs += textSegments(shape) - textSegments(old.Shape)
		s.byName.triangles += solidTriangles(shape) - solidTriangles(old.Shape)
		s.byName.solids += solidCount(shape) - solidCount(old.Shape)
		old.Shape, old.Transform, old.Style = shape, tr, newStyle(shape.Kind(), new(Color))
		s.last, s.lastBox = old, box
		return old, true, nil
	}
	if s.byName.len() >= MaxEntities {
		return nil, false, fmt.Errorf("%w: the scene already has %d entities (MaxEntities)", ErrLimit, MaxEntities)
	}
	d := &drawn{e: Entity{Name: name, Shape: shape, Transform: tr}}
	e = &d.e
	e.Style = newStyle(shape.Kind(), &d.color)
	s.byName.addAt(at, h, e)
	s.roots.insert(e, s.roots.len())
	s.last, s.lastBox = e, box
	return e, false, nil
}

// TextSegments is the outline segments of the scene's texts together (MaxTextSegments): what
// they hold in memory, at 72 bytes a segment, and what a picture of them flattens.
func (s *Scene) TextSegments() int { return s.byName.textSegs }

// checkTextSegments refuses a text (or a dimension) sh of n outline segments under name when
// the scene's texts would pass MaxTextSegments with it (in place of old, the entity it is drawn
// over, if any).
func (s *Scene) checkTextSegments(name string, sh Shape, n int, old *Entity) error {
	total := s.byName.textSegs + n
	if old != nil {
		total -= textSegments(old.Shape)
	}
	if total <= text.MaxTextSegments {
		return nil
	}
	what := fmt.Sprintf("the text %q has", name)
	if sh.Kind() == KindDimension {
		what = fmt.Sprintf("the text of dimension %q has", name)
	}
	return fmt.Errorf("%w: %s %d outline segments, which would make the scene's texts %d, over %d (MaxTextSegments); draw less text, or in a font of simpler letters", ErrLimit, what, n, total, text.MaxTextSegments)
}

func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: a name must not be empty", ErrBadName)
	}
	if len(name) > MaxNameBytes {
		return fmt.Errorf("%w: name is %d bytes; the limit is %d (MaxNameBytes)", ErrBadName, len(name), MaxNameBytes)
	}
	return nil
}

// Delete removes the named entity; deleting a group removes its whole subtree.
func (s *Scene) Delete(name string) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	s.detach(e)
	s.forget(e)
	return nil
}

func (s *Scene) forget(e *Entity) {
	s.byName.remove(e.Name)
	if e == s.last {
		s.last = nil
	}
	for c := range e.children.all() {
		s.forget(c)
	}
}

// siblings returns the list e lives in.
func (s *Scene) siblings(e *Entity) *zlist {
	if e.parent == nil {
		return &s.roots
	}
	return &e.parent.children
}

// detach removes e from its sibling list, leaving it parentless.
func (s *Scene) detach(e *Entity) {
	s.siblings(e).remove(e)
	e.parent = nil
}

// attach inserts e into parent's children (nil: top level) at index i (clamped).
func (s *Scene) attach(e, parent *Entity, i int) {
	e.parent = parent
	s.siblings(e).insert(e, i)
}

func names(list *zlist) []string {
	out := make([]string, 0, list.len())
	for e := range list.all() {
		out = append(out, e.Name)
	}
	return out
}

// Roots lists the top-level entities back to front.
func (s *Scene) Roots() []string { return names(&s.roots) }

// ZRank is e's index among its siblings, 0 at the back.
func (s *Scene) ZRank(e *Entity) int { return s.siblings(e).rank(e) }

// WorldMatrix maps e's local coordinates to world coordinates.
func (s *Scene) WorldMatrix(e *Entity) geom.Affine {
	m := e.Transform.Matrix()
	for p := e.parent; p != nil; p = p.parent {
		m = p.Transform.Matrix().Mul(m)
	}
	return m
}

// parentMatrix maps e's parent frame to world coordinates.
func parentMatrix(e *Entity) geom.Affine {
	m := geom.Identity
	for p := e.parent; p != nil; p = p.parent {
		m = p.Transform.Matrix().Mul(m)
	}
	return m
}

// LocalBounds is the exact bounds of e's geometry in its own coordinates (before its own
// transform); a group's are the bounds of its children placed in it.
func (s *Scene) LocalBounds(e *Entity) geom.Box {
	if !e.IsGroup() {
		if e == s.last {
			return s.lastBox
		}
		return localBounds(e.Shape)
	}
	var b geom.Box
	for c := range e.children.all() {
		b.Union(s.boundsUnder(c, c.Transform.Matrix()))
	}
	return b
}

// WorldBounds is the exact world-space bounds of e (a group: of its subtree).
func (s *Scene) WorldBounds(e *Entity) geom.Box { return s.boundsUnder(e, s.WorldMatrix(e)) }

func (s *Scene) boundsUnder(e *Entity, m geom.Affine) geom.Box {
	if !e.IsGroup() {
		return shapeBounds(e.Shape, m)
	}
	var b geom.Box
	for c := range e.children.all() {
		b.Union(s.boundsUnder(c, m.Mul(c.Transform.Matrix())))
	}
	return b
}

// Bounds is the world bounds of the whole scene.
func (s *Scene) Bounds() geom.Box { return s.Frame(false).Bounds }

// Frame is what a writer needs to know of a scene before it draws it, found in one walk of
// the tree (a walk costs more in memory reads than in arithmetic).
type Frame struct {
	Bounds geom.Box // the scene's world bounds, as Bounds gives them
	// StrokeWidth is the widest StrokeWidth of a shape that has a stroke colour, 0 when none
	// is wider.
	StrokeWidth float64
	// Locals holds every entity's local map (its Transform.Matrix) in Walk order, when asked
	// for. Composing them down the tree as the writer walks again gives each entity's world
	// map without computing any matrix twice.
	Locals []geom.Affine
}

// Frame walks the tree once in Walk order. It composes each entity's map with its parent's
// as boundsUnder does (a top-level entity's world map is its own map), so that the bounds are
// the union of the same shape boxes as the recursive walk under WorldBounds finds; it keeps
// the local maps when keepLocals is set.
func (s *Scene) Frame(keepLocals bool) Frame { return s.FrameWith(keepLocals, nil) }

// FrameWith is Frame with the dimensions laid out through l, for a write that draws them next
// (PaintWith).
func (s *Scene) FrameWith(keepLocals bool, l *Layouts) Frame {
	var f Frame
	if keepLocals {
		f.Locals = make([]geom.Affine, 0, s.Len())
	}
	world := make([]geom.Affine, 0, 8) // world[d]: the world map of the group open at depth d
	for depth, e := range s.Walk() {
		m := e.Transform.Matrix()
		if keepLocals {
			f.Locals = append(f.Locals, m)
		}
		if depth > 0 {
			m = world[depth-1].Mul(m)
		}
		if e.IsGroup() {
			world = append(world[:depth], m)
			continue
		}
		if d, ok := e.Shape.(*Dimension); ok && l != nil {
			p, _ := l.Of(d, m)
			f.Bounds.Union(p.Bounds()) // boundsUnder's, from the layout kept
		} else {
			f.Bounds.Union(shapeBounds(e.Shape, m))
		}
		if e.Style.Stroke != nil {
			f.StrokeWidth = math.Max(f.StrokeWidth, e.Style.StrokeWidth)
		}
	}
	return f
}

// Item is one shape ready to paint: its world-space outline and style.
type Item struct {
	Entity *Entity
	World  geom.Affine
	Path   geom.Path // world coordinates
	// Label is where a dimension's text stands, from the layout that drew Path.
	Label drafting.DimText
}

// Paint yields the shapes back to front, groups flattened in their z order.
func (s *Scene) Paint() iter.Seq[Item] { return s.PaintWith(nil) }

// PaintWith is Paint with the dimensions laid out through l (a dimension's Path is then the
// one l keeps: read it, do not change it).
func (s *Scene) PaintWith(l *Layouts) iter.Seq[Item] {
	return func(yield func(Item) bool) {
		var walk func(list *zlist, m geom.Affine) bool
		walk = func(list *zlist, m geom.Affine) bool {
			// A plain loop: an iterator inside this recursive closure would allocate per group.
			for _, e := range list.items {
				if e == nil {
					continue
				}
				w := m.Mul(e.Transform.Matrix())
				if e.IsGroup() {
					if !walk(&e.children, w) {
						return false
					}
					continue
				}
				it := Item{Entity: e, World: w}
				if d, ok := e.Shape.(*Dimension); ok {
					it.Path, it.Label = l.Of(d, w)
				} else {
					it.Path = AppendOutline(nil, e.Shape, w)
				}
				if !yield(it) {
					return false
				}
			}
			return true
		}
		walk(&s.roots, geom.Identity)
	}
}

// Walk yields every entity depth-first in z order (a group before its children), with its
// depth (0 at the top level).
func (s *Scene) Walk() iter.Seq2[int, *Entity] {
	return func(yield func(int, *Entity) bool) {
		var walk func(list *zlist, depth int) bool
		walk = func(list *zlist, depth int) bool {
			for _, e := range list.items { // see Paint
				if e == nil {
					continue
				}
				if !yield(depth, e) {
					return false
				}
				if !walk(&e.children, depth+1) {
					return false
				}
			}
			return true
		}
		walk(&s.roots, 0)
	}
}

// Clone returns a deep copy of the scene.
func (s *Scene) Clone() *Scene {
	c := New()
	var copyList func(list *zlist, parent *Entity) zlist
	copyList = func(list *zlist, parent *Entity) zlist {
		out := make([]*Entity, 0, list.len())
		for e := range list.all() {
			n := &Entity{Name: e.Name, Shape: e.Shape, Transform: e.Transform, Style: e.Style.clone(), parent: parent}
			n.children = copyList(&e.children, n)
			c.byName.add(n)
			out = append(out, n)
		}
		return newZlist(out)
	}
	c.byName = newNameIndex(s.Len())
	c.roots = copyList(&s.roots, nil)
	c.layers, c.drafting = cloneLayers(s.layers), s.drafting
	return c
}

func (st Style) clone() Style {
	if st.Fill != nil {
		f := *st.Fill
		st.Fill = &f
	}
	if st.Stroke != nil {
		k := *st.Stroke
		st.Stroke = &k
	}
	st.HatchColor = copyColor(st.HatchColor)
	return st
}

func finiteVec(v geom.Vec) bool {
	return !math.IsNaN(v.X) && !math.IsNaN(v.Y) && !math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0)
}
