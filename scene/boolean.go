package scene

// Booleans, offsets, convex hulls and areas of closed shapes, all in world coordinates. The
// geometry is the kernel's (scene/kernel: the overlay engine, the arc refit, the ring checks);
// what stays here is what is about the scene: which entities an operation reads and how they
// become areas (area.go), the hole rule of Polygon parts, the names and errors scripts see,
// the order of result parts, and placing a result in the frame of the shape it replaces.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// Errors returned by the area operations, in addition to the scene errors.
var (
	// ErrSelfIntersecting is returned when a ring of an input shape crosses or touches itself;
	// the message names the entity and where. Such rings are reported, never repaired.
	ErrSelfIntersecting = errors.New("self-intersecting")
	// ErrEmptyResult is returned when a boolean, offset or decomposition would leave no area.
	ErrEmptyResult = errors.New("the result would be empty")
	// ErrBadOption is returned for an unknown boolean operation or join type, or an option out
	// of its range; the message lists the valid values.
	ErrBadOption = errors.New("bad option")
	// ErrGeometryFailed is returned when neither the overlay engine nor the fallback library
	// can compute a result (numerical degeneracy); the message carries the library's reason.
	ErrGeometryFailed = overlay.ErrFailed
)

// SnapRelative is the engine's precision relative to the operands' extent (2^-32, about
// 2.3e-10): points closer than that are merged, and result parts or holes no wider than it
// are dropped.
const SnapRelative = overlay.SnapRelative

// Fallbacks is how many operations the overlay engine has handed to simplefeatures since the
// process started, because its topology check failed twice. Each one is also logged (slog,
// level warning). A fallback gives a right answer more slowly; a count that grows points at a
// gap in the engine worth a test case.
func Fallbacks() int64 { return overlay.Fallbacks() }

// BoolOp is a boolean operation on areas.
type BoolOp int

// The boolean operations.
const (
	Union      BoolOp = iota // inside a or inside b
	Difference               // inside a and not inside b
	Intersect                // inside both a and b
	Xor                      // inside exactly one of a and b
)

var boolOpNames = [...]string{Union: "union", Difference: "difference", Intersect: "intersect", Xor: "xor"}

// String is the operation's name as scripts spell it.
func (op BoolOp) String() string {
	if op < 0 || int(op) >= len(boolOpNames) {
		return "BoolOp(" + strconv.Itoa(int(op)) + ")"
	}
	return boolOpNames[op]
}

// ParseBoolOp reads an operation name ("union", "difference", "intersect", "xor").
func ParseBoolOp(s string) (BoolOp, error) {
	for i, n := range boolOpNames {
		if n == s {
			return BoolOp(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown boolean operation %q; use %s", ErrBadOption, s, strings.Join(boolOpNames[:], ", "))
}

// engineOps are the kernel's operations, by BoolOp.
var engineOps = [...]overlay.Op{
	Union:      overlay.OpUnion,
	Difference: overlay.OpDifference,
	Intersect:  overlay.OpIntersect,
	Xor:        overlay.OpXor,
}

// JoinType is how an offset turns an outer corner.
type JoinType string

// Join types of Offset.
const (
	// JoinRound rounds corners with circular arcs (the default).
	JoinRound JoinType = "round"
	// JoinSquare cuts corners square, at the offset distance from the original corner.
	JoinSquare JoinType = "square"
	// JoinMiter extends the edges to a sharp point, cut square where it would reach further
	// than MiterLimit times the distance.
	JoinMiter JoinType = "miter"
)

// DefaultMiterLimit is the miter limit used when OffsetOptions.MiterLimit is 0 (as upstream).
const DefaultMiterLimit = 2

// OffsetOptions tunes Offset; the zero value means round joins.
type OffsetOptions struct {
	Join JoinType `json:"join,omitempty"`
	// MiterLimit caps a miter join at this multiple of the distance (>= 1; 0 means 2).
	MiterLimit float64 `json:"miterLimit,omitempty"`
}

// Boolean combines the areas of the entities named in a with those named in b and draws the
// result as a new top-level Polygon entity named result, with the default style. Each list
// acts as the union of its members, so that a plate minus a hundred holes is one operation;
// b may be empty for a union. The inputs stay in the scene.
//
// Areas are taken in world coordinates with curves flattened to CurveRelative of the shape's
// size (at most DefaultTolerance). A group is the union of its members; a Polygon is the
// union of its parts, each its outer ring minus the union of its holes; paths and text fill
// by the nonzero rule, as they are drawn. A line encloses
// nothing and is an ErrNotClosed error; a ring that crosses or touches itself is an
// ErrSelfIntersecting error naming where.
//
// The result has one part per connected piece, largest first (then by lowest x, lowest y),
// outer rings counter-clockwise and holes clockwise (Y up), each starting at its
// lowest-leftmost vertex. An existing shape named result is replaced in place as Put does;
// if it sits in a group, the result is mapped into the group's frame so that it still
// appears where it was computed. An empty result is an ErrEmptyResult error.
func (s *Scene) Boolean(op BoolOp, a, b []string, result string) (*Entity, error) {
	if op < Union || op > Xor {
		return nil, fmt.Errorf("%w: unknown boolean operation %d; use %s", ErrBadOption, int(op), strings.Join(boolOpNames[:], ", "))
	}
	if err := s.checkResultName(result); err != nil {
		return nil, err
	}
	if len(a) == 0 {
		return nil, fmt.Errorf("%w: %s needs at least one shape in its first list", ErrBadOption, op)
	}
	if len(b) == 0 && op != Union {
		return nil, fmt.Errorf("%w: %s needs at least one shape in its second list", ErrBadOption, op)
	}
	src := &kernel.Arcs{}
	pa, err := s.collectAreas(a, src)
	if err != nil {
		return nil, err
	}
	pb, err := s.collectAreas(b, src)
	if err != nil {
		return nil, err
	}
	res, err := kernel.Boolean(engineOps[op], pa, pb)
	if err != nil {
		return nil, fmt.Errorf("computing the %s of %s and %s: %w", op, quoteNames(a), quoteNames(b), err)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s of %s and %s: %w: %s", op, quoteNames(a), quoteNames(b), ErrEmptyResult, emptyHint[op])
	}
	src.Index(max(kernel.AreaExtent(pa), kernel.AreaExtent(pb)))
	return s.putArea(result, res, src)
}

var emptyHint = [...]string{
	Union:      "the shapes enclose no area",
	Difference: "the second shapes cover all of the first; check their positions with getEntity",
	Intersect:  "the shapes do not overlap; move them so that they do, or use union",
	Xor:        "the shapes cover exactly the same area",
}

// ConvexHull draws the convex hull of the named entity's area as the Polygon entity result.
func (s *Scene) ConvexHull(name, result string) (*Entity, error) {
	if err := s.checkResultName(result); err != nil {
		return nil, err
	}
	src := &kernel.Arcs{}
	area, err := s.areaWithArcs(name, src)
	if err != nil {
		return nil, err
	}
	if len(area) == 0 {
		return nil, fmt.Errorf("taking the hull of %q: %w: the shape encloses no area", name, ErrEmptyResult)
	}
	hull := kernel.Hull(area, src)
	if len(hull) == 0 {
		return nil, fmt.Errorf("taking the hull of %q: %w: the shape encloses no area", name, ErrEmptyResult)
	}
	return s.putArea(result, hull, src)
}

// Area is the area the named entity encloses in world units (a group: of the union of its
// members). A circle's, an ellipse's and a rounded rectangle's is exact, and a group's of such
// shapes lying apart (exact.go); other curves are flattened as Boolean flattens them.
func (s *Scene) Area(name string) (float64, error) {
	if ex := s.exactNamed(name); ex != nil && ex.closed {
		return ex.area, nil
	}
	area, err := s.areaOf(name)
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, p := range area {
		total += p.Area()
	}
	return total, nil
}

// Decompose splits the area of the named entity into its connected pieces and draws each as a
// Polygon entity named prefix_0, prefix_1, ..., largest first; it returns the new names. An
// existing shape of one of those names is replaced in place; a group of such a name is refused
// before anything is drawn.
func (s *Scene) Decompose(name, prefix string) ([]string, error) {
	src := &kernel.Arcs{}
	area, err := s.areaWithArcs(name, src)
	if err != nil {
		return nil, err
	}
	if len(area) == 0 {
		return nil, fmt.Errorf("decomposing %q: %w: the shape encloses no area", name, ErrEmptyResult)
	}
	src.Index(kernel.AreaExtent(area))
	kernel.SortPolys(area)
	names := make([]string, len(area))
	for i := range area {
		names[i] = prefix + "_" + strconv.Itoa(i)
		if err := s.checkResultName(names[i]); err != nil {
			return nil, fmt.Errorf("decomposing %q: %w", name, err)
		}
	}
	for i, p := range area {
		if _, err := s.putArea(names[i], []overlay.Polygon{p}, src); err != nil {
			return names[:i], fmt.Errorf("decomposing %q: %w", name, err)
		}
	}
	return names, nil
}

// checkResultName refuses a result name that Put would refuse, before any work is done.
func (s *Scene) checkResultName(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if e, ok := s.Lookup(name); ok && e.IsGroup() {
		return fmt.Errorf("%w: %q is a group; delete it first or draw under another name", ErrBadName, name)
	}
	return nil
}

// putArea draws polys as a Polygon named name, their chords on an arc of src (which may be
// nil) made arcs again. A shape being replaced inside a group keeps its place in the group, so
// the world coordinates are mapped into the group's frame; a group that stretches unevenly
// would make the arcs elliptical, so there the result keeps its chords.
func (s *Scene) putArea(name string, polys []overlay.Polygon, src *kernel.Arcs) (*Entity, error) {
	kernel.SortPolys(polys)
	vertices := 0
	for _, p := range polys {
		vertices += len(p.Outer)
		for _, h := range p.Holes {
			vertices += len(h)
		}
	}
	if vertices > MaxVertices {
		return nil, fmt.Errorf("%w: the result has %d vertices; the limit is %d (MaxVertices)", ErrLimit, vertices, MaxVertices)
	}
	m, err := s.resultPlace(name)
	if err != nil {
		return nil, err
	}
	mirror := m.Det() < 0
	if _, ok := kernel.SimilarityScale(m); !ok {
		src = nil
	}
	shape := Polygon{Parts: make([]PolygonPart, len(polys))}
	for i, p := range polys {
		var part PolygonPart
		part.Outer, part.OuterBulges = kernel.MapBulgedRing(src, p.Outer, m, mirror)
		if len(p.Holes) > 0 {
			part.Holes = make([][]geom.Vec, len(p.Holes))
			for k, h := range p.Holes {
				var bul []float64
				part.Holes[k], bul = kernel.MapBulgedRing(src, h, m, mirror)
				if bul != nil {
					if part.HoleBulges == nil {
						part.HoleBulges = make([][]float64, len(p.Holes))
					}
					part.HoleBulges[k] = bul
				}
			}
		}
		shape.Parts[i] = part
	}
	return s.put(name, shape)
}

// resultPlace maps world coordinates into the frame a result named name is drawn in: the
// group that holds an entity of that name already (it is replaced in place), else the top
// level.
func (s *Scene) resultPlace(name string) (geom.Affine, error) {
	old, ok := s.Lookup(name)
	if !ok || old.parent == nil {
		return geom.Identity, nil
	}
	inv, ok := parentMatrix(old).Invert()
	if !ok {
		return geom.Identity, fmt.Errorf("%w: the group holding %q is singular", ErrBadTransform, name)
	}
	return inv, nil
}

// applyHoleRule returns g with every part whose holes overlap each other, or cross or leave
// its outer ring, replaced by the polygons of its area: the outer ring minus the union of the
// holes. Parts whose holes already lie inside and apart are kept as drawn, and so is a part
// with a self-intersecting ring, which the area operations refuse with the place it crosses.
func applyHoleRule(g Polygon) (Polygon, error) {
	var parts []PolygonPart
	for i, part := range g.Parts {
		if len(part.Holes) == 0 {
			if parts != nil {
				parts = append(parts, part)
			}
			continue
		}
		area, ok := kernel.HoleRuleArea(part.Outer, part.Holes)
		if ok {
			if parts != nil {
				parts = append(parts, part)
			}
			continue
		}
		if parts == nil {
			parts = slices.Clone(g.Parts[:i])
		}
		kernel.SortPolys(area)
		for _, p := range area {
			parts = append(parts, PolygonPart{Outer: kernel.MapRing(p.Outer, geom.Identity, false), Holes: kernel.MapRings(p.Holes)})
		}
	}
	if parts == nil {
		return g, nil
	}
	if len(parts) == 0 {
		return Polygon{}, fmt.Errorf("%w: the holes cover all of the polygon; draw smaller holes or none", ErrBadGeometry)
	}
	return Polygon{Parts: parts}, nil
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
