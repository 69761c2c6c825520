package scene

// Booleans, offsets, convex hulls and areas of closed shapes, all in world coordinates.
//
// Why an overlay engine of our own: simplefeatures (a port of JTS OverlayNG) is robust, but it
// pays about 45 µs per call and 0.3 µs per segment, which put the reference workloads W2 and
// W3 (BENCH.md) at two to three times their budgets even as a cascaded union. Every operation
// here is instead one pass of a small planar-graph engine (overlay): node all ring edges
// against each other with exact orientation tests, trace the faces of the planar graph, give
// every face the winding number of each operand, and keep the boundary between faces that the
// operation's rule separates. A union of hundreds of shapes, a plate minus thousands of holes
// and the nonzero fill of a glyph outline are each one pass, and an offset is the positive
// fill of the raw offset curves (the Clipper method). Points closer than the precision (a
// fraction SnapRelative of the operands' extent) are one point, so near-coincident input
// shares edges instead of crossing itself at rounding error, and rings no wider than that are
// dropped from results. The engine checks its own topology (Euler's formula per component,
// consistent windings, closed boundaries); when that fails it retries at a coarser precision,
// and then the operation is redone with simplefeatures, which is slower but snaps in its own
// way; such fallbacks are logged and counted (Fallbacks). simplefeatures also supplies the
// convex hull.

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/peterstace/simplefeatures/geom"
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
	ErrGeometryFailed = errors.New("geometry operation failed")
)

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

func (op BoolOp) keep(a, b bool) bool {
	switch op {
	case Union:
		return a || b
	case Difference:
		return a && !b
	case Intersect:
		return a && b
	default:
		return a != b
	}
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
	pa, err := s.collectAreas(a)
	if err != nil {
		return nil, err
	}
	pb, err := s.collectAreas(b)
	if err != nil {
		return nil, err
	}
	res, err := booleanPolys(op, pa, pb)
	if err != nil {
		return nil, fmt.Errorf("computing the %s of %s and %s: %w", op, quoteNames(a), quoteNames(b), err)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("%s of %s and %s: %w: %s", op, quoteNames(a), quoteNames(b), ErrEmptyResult, emptyHint[op])
	}
	return s.putArea(result, res)
}

var emptyHint = [...]string{
	Union:      "the shapes enclose no area",
	Difference: "the second shapes cover all of the first; check their positions with getEntity",
	Intersect:  "the shapes do not overlap; move them so that they do, or use union",
	Xor:        "the shapes cover exactly the same area",
}

// booleanPolys runs op on two lists of (possibly overlapping) polygons.
func booleanPolys(op BoolOp, pa, pb []ovPoly) ([]ovPoly, error) {
	in := make([]ovInput, 0, countRings(pa)+countRings(pb))
	in = appendInputs(in, pa, 0)
	in = appendInputs(in, pb, 1)
	res, err := overlay(in, func(wa, wb int32) bool { return op.keep(wa > 0, wb > 0) })
	if err == nil {
		return res, nil
	}
	noteFallback(op.String(), countRings(pa)+countRings(pb))
	return booleanFallback(op, pa, pb)
}

// Offset grows (delta > 0) or shrinks (delta < 0) the area of the named entity (taken as
// Boolean takes it) by delta world units and draws the result as the Polygon entity result,
// placed as Boolean places its result. A shape that shrinks away is an ErrEmptyResult error.
// Corners are joined as
// opt.Join says; round joins use 8 segments per quarter circle (32 per full circle, as
// OpenSCAD, JSCAD and JTS default to and as workload W3 specifies), or more where a distance
// large for the shape needs them to stay within OffsetArcRelative of the result's size from
// the true arc. Nothing depends on the drawing's units: the same shape and distance scaled
// by any factor give the same result scaled.
func (s *Scene) Offset(name string, delta float64, result string, opt OffsetOptions) (*Entity, error) {
	join, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	if math.IsNaN(delta) || math.IsInf(delta, 0) {
		return nil, fmt.Errorf("%w: offset distance must be finite, got %v", ErrBadGeometry, delta)
	}
	if err := s.checkResultName(result); err != nil {
		return nil, err
	}
	area, err := s.areaOf(name)
	if err != nil {
		return nil, err
	}
	res, err := offsetPolys(area, delta, join)
	if err != nil {
		return nil, fmt.Errorf("offsetting %q by %v: %w", name, delta, err)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("offsetting %q by %v: %w: the shape is nowhere thicker than %v; use a smaller inset", name, delta, ErrEmptyResult, 2*math.Abs(delta))
	}
	return s.putArea(result, res)
}

// joinSpec is a resolved join: the miter limit is 1 for square joins, and unused for round.
type joinSpec struct {
	round bool
	limit float64
}

func (o OffsetOptions) resolve() (joinSpec, error) {
	switch o.Join {
	case "", JoinRound:
		return joinSpec{round: true}, nil
	case JoinSquare:
		// A square join is a miter cut at the offset distance itself.
		return joinSpec{limit: 1}, nil
	case JoinMiter:
		l := o.MiterLimit
		if l == 0 {
			l = DefaultMiterLimit
		}
		if math.IsNaN(l) || math.IsInf(l, 0) || l < 1 {
			return joinSpec{}, fmt.Errorf("%w: miter limit must be a finite number >= 1 (or 0 for the default %v), got %v", ErrBadOption, DefaultMiterLimit, o.MiterLimit)
		}
		return joinSpec{limit: l}, nil
	}
	return joinSpec{}, fmt.Errorf("%w: unknown join %q; use %q, %q or %q", ErrBadOption, o.Join, JoinRound, JoinSquare, JoinMiter)
}

// OffsetArcRelative is how far the chords of a round offset join may stray from the true
// arc, relative to the size of the result (the shape's extent plus twice the distance).
const OffsetArcRelative = 1e-3

// offsetQuadSegments is the number of chords per quarter circle of a round join of radius r
// on a shape of extent size: 8, as OpenSCAD's $fn=32, JSCAD and JTS, unless the radius needs
// more to keep the chords within OffsetArcRelative of the result's size.
func offsetQuadSegments(r, size float64) int {
	return min(max(8, ArcSegments(r, math.Pi/2, (size+2*r)*OffsetArcRelative)), MaxCurveSegments/4)
}

// areaExtent is the larger side of the bounding box of an area.
func areaExtent(area []ovPoly) float64 {
	var b Box
	for _, p := range area {
		for _, q := range p.outer {
			b.Extend(q)
		}
	}
	return max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
}

func offsetPolys(area []ovPoly, delta float64, join joinSpec) ([]ovPoly, error) {
	if delta == 0 || len(area) == 0 {
		return area, nil
	}
	quantum := math.Pi / 2 / float64(offsetQuadSegments(math.Abs(delta), areaExtent(area)))
	var in []ovInput
	for _, p := range area {
		in = append(in, ovInput{pts: offsetRing(p.outer, delta, join, quantum), cross: true})
		for _, h := range p.holes {
			in = append(in, ovInput{pts: offsetRing(h, delta, join, quantum), cross: true})
		}
	}
	res, err := overlay(in, func(w, _ int32) bool { return w > 0 })
	if err == nil {
		return res, nil
	}
	noteFallback("offset", len(in))
	return offsetFallback(area, delta, join)
}

// offsetRing returns the raw offset curve of a ring whose interior is on its left (an outer
// ring counter-clockwise or a hole clockwise): every edge moved by delta along its outward
// normal, outer corners joined by arcs, miters or square cuts, inner corners looped back
// through the original vertex. The curve crosses itself wherever the offset folds over; the
// region of positive winding is exactly the offset area (the Clipper construction).
func offsetRing(r []Vec, delta float64, join joinSpec, quantum float64) []Vec {
	n := len(r)
	norms := make([]Vec, n)
	for i := range n {
		d := r[(i+1)%n].Sub(r[i])
		l := d.Len()
		norms[i] = Vec{d.Y / l, -d.X / l}
	}
	out := make([]Vec, 0, 3*n)
	for i := range n {
		p := r[i]
		nk, nj := norms[(i+n-1)%n], norms[i]
		sinA := nk.X*nj.Y - nk.Y*nj.X
		cosA := nk.X*nj.X + nk.Y*nj.Y
		switch {
		case cosA > nearlyStraight:
			// A nearly straight corner (either way) gets the one point where the two moved
			// edges meet, whatever the join: it is exact for a miter, within 2.5e-4·delta of
			// a round join's arc (far inside its chords' error), and densely flattened
			// curves do not grow a loop at every vertex. The test is on the angle alone, so
			// that the result does not depend on the drawing's units.
			out = append(out, p.Add(nk.Add(nj).Mul(delta/(1+cosA))))
		case sinA*delta < 0:
			out = append(out, p.Add(nk.Mul(delta)), p, p.Add(nj.Mul(delta)))
		case join.round:
			a := math.Atan2(sinA, cosA)
			// Rounded to the nearest count, ties (a 45° multiple turn) down whatever the
			// rounding of a, so that scaled drawings get the same chords.
			steps := max(1, int(math.Abs(a)/quantum+0.5-1e-9))
			out = append(out, p.Add(nk.Mul(delta)))
			for k := 1; k < steps; k++ {
				sn, cs := math.Sincos(a * float64(k) / float64(steps))
				out = append(out, p.Add(Vec{nk.X*cs - nk.Y*sn, nk.X*sn + nk.Y*cs}.Mul(delta)))
			}
			out = append(out, p.Add(nj.Mul(delta)))
		default:
			out = appendMiter(out, p, nk, nj, cosA, delta, join.limit)
		}
	}
	return out
}

// nearlyStraight is the cosine of the turn (2.5°) below which offsetRing joins a corner with
// one point (Clipper2 uses the same threshold).
const nearlyStraight = 0.999

// appendMiter adds a miter join, cut square at limit·|delta| from the corner when the miter
// would reach further (JTS's limited mitre; with limit 1 this is the square join).
func appendMiter(out []Vec, p, nk, nj Vec, cosA, delta, limit float64) []Vec {
	r := 1 + cosA
	if r >= 2/(limit*limit) {
		return append(out, p.Add(nk.Add(nj).Mul(delta/r)))
	}
	ad := math.Abs(delta)
	reach := limit * ad
	bevelA, bevelB := p.Add(nk.Mul(delta)), p.Add(nj.Mul(delta))
	bis := nk.Add(nj)
	if ad*math.Sqrt(r/2) >= reach || bis.Len() < 1e-12 {
		return append(out, bevelA, bevelB)
	}
	sgn := math.Copysign(1, delta)
	b := bis.Mul(sgn / bis.Len())
	dk, dj := Vec{-nk.Y, nk.X}, Vec{-nj.Y, nj.X} // edge directions
	den1, den2 := dk.X*b.X+dk.Y*b.Y, dj.X*b.X+dj.Y*b.Y
	if math.Abs(den1) < 1e-12 || math.Abs(den2) < 1e-12 {
		return append(out, bevelA, bevelB)
	}
	t1 := (reach - ad*sgn*(nk.X*b.X+nk.Y*b.Y)) / den1
	t2 := (reach - ad*sgn*(nj.X*b.X+nj.Y*b.Y)) / den2
	return append(out, bevelA.Add(dk.Mul(t1)), bevelB.Add(dj.Mul(t2)))
}

// ConvexHull draws the convex hull of the named entity's area as the Polygon entity result.
func (s *Scene) ConvexHull(name, result string) (*Entity, error) {
	if err := s.checkResultName(result); err != nil {
		return nil, err
	}
	area, err := s.areaOf(name)
	if err != nil {
		return nil, err
	}
	if len(area) == 0 {
		return nil, fmt.Errorf("taking the hull of %q: %w: the shape encloses no area", name, ErrEmptyResult)
	}
	hull := polysFromGeom(toGeom(area).ConvexHull())
	if len(hull) == 0 {
		return nil, fmt.Errorf("taking the hull of %q: %w: the shape encloses no area", name, ErrEmptyResult)
	}
	return s.putArea(result, hull)
}

// Area is the area the named entity encloses in world units (a group: of the union of its
// members), with curves flattened as Boolean flattens them.
func (s *Scene) Area(name string) (float64, error) {
	area, err := s.areaOf(name)
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, p := range area {
		total += polyArea(p)
	}
	return total, nil
}

// Decompose splits the area of the named entity into its connected pieces and draws each as a
// Polygon entity named prefix_0, prefix_1, ..., largest first; it returns the new names. An
// existing shape of one of those names is replaced in place; a group of such a name is refused
// before anything is drawn.
func (s *Scene) Decompose(name, prefix string) ([]string, error) {
	area, err := s.areaOf(name)
	if err != nil {
		return nil, err
	}
	if len(area) == 0 {
		return nil, fmt.Errorf("decomposing %q: %w: the shape encloses no area", name, ErrEmptyResult)
	}
	sortPolys(area)
	names := make([]string, len(area))
	for i := range area {
		names[i] = prefix + "_" + strconv.Itoa(i)
		if err := s.checkResultName(names[i]); err != nil {
			return nil, fmt.Errorf("decomposing %q: %w", name, err)
		}
	}
	for i, p := range area {
		if _, err := s.putArea(names[i], []ovPoly{p}); err != nil {
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
	if e, ok := s.byName[name]; ok && e.IsGroup() {
		return fmt.Errorf("%w: %q is a group; delete it first or draw under another name", ErrBadName, name)
	}
	return nil
}

// putArea draws polys as a Polygon named name. A shape being replaced inside a group keeps
// its place in the group, so the world coordinates are mapped into the group's frame.
func (s *Scene) putArea(name string, polys []ovPoly) (*Entity, error) {
	sortPolys(polys)
	vertices := 0
	for _, p := range polys {
		vertices += len(p.outer)
		for _, h := range p.holes {
			vertices += len(h)
		}
	}
	if vertices > MaxVertices {
		return nil, fmt.Errorf("%w: the result has %d vertices; the limit is %d (MaxVertices)", ErrLimit, vertices, MaxVertices)
	}
	m, mirror := Identity, false
	if old, ok := s.byName[name]; ok && old.parent != nil {
		inv, ok := parentMatrix(old).Invert()
		if !ok {
			return nil, fmt.Errorf("%w: the group holding %q is singular", ErrBadTransform, name)
		}
		m, mirror = inv, inv.Det() < 0
	}
	shape := Polygon{Parts: make([]PolygonPart, len(polys))}
	for i, p := range polys {
		part := PolygonPart{Outer: mapRing(p.outer, m, mirror)}
		for _, h := range p.holes {
			part.Holes = append(part.Holes, mapRing(h, m, mirror))
		}
		shape.Parts[i] = part
	}
	return s.put(name, shape)
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
		area, ok := holeRuleArea(part)
		if ok {
			if parts != nil {
				parts = append(parts, part)
			}
			continue
		}
		if parts == nil {
			parts = slices.Clone(g.Parts[:i])
		}
		sortPolys(area)
		for _, p := range area {
			parts = append(parts, PolygonPart{Outer: mapRing(p.outer, Identity, false), Holes: mapRings(p.holes)})
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

func mapRings(rs [][]Vec) [][]Vec {
	var out [][]Vec
	for _, r := range rs {
		out = append(out, mapRing(r, Identity, false))
	}
	return out
}

// holeRuleArea computes the area of a polygon part under the hole rule; ok reports that the
// part already is that area as drawn (every hole inside its outer ring, the holes apart).
func holeRuleArea(part PolygonPart) (area []ovPoly, ok bool) {
	outer := cleanRing(part.Outer)
	if len(outer) < 3 || collinearRing(outer) {
		return nil, true
	}
	if _, bad := selfCrossing(outer); bad {
		return nil, true
	}
	in := []ovInput{{pts: orientRing(outer, true)}}
	want := math.Abs(ringArea(outer))
	for _, h := range part.Holes {
		h = cleanRing(h)
		if len(h) < 3 || collinearRing(h) {
			continue
		}
		if _, bad := selfCrossing(h); bad {
			return nil, true
		}
		in = append(in, ovInput{pts: orientRing(h, true), op: 1})
		want -= math.Abs(ringArea(h))
	}
	res, err := overlay(in, func(wo, wh int32) bool { return wo > 0 && wh == 0 })
	if err != nil {
		return nil, true // left to the area operations, which fall back or report
	}
	if len(res) == 1 && len(res[0].holes) == len(in)-1 && math.Abs(polyArea(res[0])-want) <= 1e-9*math.Abs(ringArea(outer)) {
		return res, true
	}
	return res, false
}

// mapRing maps a ring into the frame it is stored in and starts it at its lowest-leftmost
// vertex, so that results read the same whatever order the engine traced them in.
func mapRing(r []Vec, m Affine, mirror bool) []Vec {
	out := make([]Vec, len(r))
	for i, p := range r {
		out[i] = m.Apply(p)
	}
	if mirror {
		slices.Reverse(out)
	}
	first := 0
	for i, p := range out {
		if q := out[first]; p.X < q.X || (p.X == q.X && p.Y < q.Y) {
			first = i
		}
	}
	return slices.Concat(out[first:], out[:first])
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// ---- From entities to areas ----

// ovPoly is one polygon of an area: an outer ring and its holes, each closed without
// repeating its first point. Areas built here have the outer ring counter-clockwise and the
// holes clockwise, so that the interior is on the left of every ring.
type ovPoly struct {
	outer []Vec
	holes [][]Vec
}

// areaOf is the area of one entity as non-overlapping polygons.
func (s *Scene) areaOf(name string) ([]ovPoly, error) {
	polys, err := s.collectAreas([]string{name})
	if err != nil {
		return nil, err
	}
	if len(polys) <= 1 {
		return polys, nil
	}
	return booleanPolys(Union, polys, nil)
}

// collectAreas gathers the polygons of the named entities in world coordinates. Polygons of
// different entities (or parts) may overlap; the operation that uses them unions them.
func (s *Scene) collectAreas(names []string) ([]ovPoly, error) {
	var out []ovPoly
	for _, n := range names {
		e, err := s.Get(n)
		if err != nil {
			return nil, err
		}
		if out, err = s.collect(e, s.WorldMatrix(e), out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Scene) collect(e *Entity, m Affine, out []ovPoly) ([]ovPoly, error) {
	if e.IsGroup() {
		for _, c := range e.children {
			var err error
			if out, err = s.collect(c, m.Mul(c.Transform.Matrix()), out); err != nil {
				return nil, fmt.Errorf("reading group %q: %w", e.Name, err)
			}
		}
		return out, nil
	}
	var pg *Polygon
	switch sh := e.Shape.(type) {
	case Polygon:
		pg = &sh
	case *Polygon:
		pg = sh
	}
	if pg != nil {
		// Polygon parts map directly: each part is its outer ring minus its holes, and
		// parts are unioned. Put has made every part's holes lie inside it and apart.
		for _, part := range pg.Parts {
			outer, err := worldRing(e, part.Outer, m)
			if err != nil {
				return nil, err
			}
			if len(outer) == 0 {
				continue
			}
			p := ovPoly{outer: orientRing(outer, true)}
			for _, h := range part.Holes {
				hole, err := worldRing(e, h, m)
				if err != nil {
					return nil, err
				}
				if len(hole) > 0 {
					p.holes = append(p.holes, orientRing(hole, false))
				}
			}
			out = append(out, p)
		}
		return out, nil
	}
	path, err := e.Shape.Region()
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", e.Kind(), e.Name, err)
	}
	var rings [][]Vec
	world := path.Transform(m)
	for _, pl := range world.Flatten(curveTolerance(world.Bounds())) {
		if err := worldInRange(e, pl.Points); err != nil {
			return nil, err
		}
		r, err := checkedRing(e, cleanRing(pl.Points))
		if err != nil {
			return nil, err
		}
		if len(r) > 0 {
			rings = append(rings, r)
		}
	}
	switch len(rings) {
	case 0:
		return out, nil
	case 1:
		return append(out, ovPoly{outer: orientRing(rings[0], true)}), nil
	}
	// Several subpaths (text, compound paths) fill by the nonzero rule, as they are drawn.
	in := make([]ovInput, len(rings))
	for i, r := range rings {
		in[i] = ovInput{pts: r}
	}
	polys, err := overlay(in, func(w, _ int32) bool { return w != 0 })
	if err != nil {
		noteFallback("nonzero fill", len(rings))
		if polys, err = nonzeroFallback(rings); err != nil {
			return nil, fmt.Errorf("filling %s %q: %w", e.Kind(), e.Name, err)
		}
	}
	return append(out, polys...), nil
}

// CurveRelative is the flattening tolerance of curves in area operations relative to the
// shape's size (the larger side of its world bounds); it is never coarser than
// DefaultTolerance. A circle drawn in metres is then flattened as finely as the same circle
// in millimetres.
const CurveRelative = 1e-3

func curveTolerance(b Box) float64 {
	size := max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
	if !(size > 0) {
		return DefaultTolerance
	}
	return min(DefaultTolerance, size*CurveRelative)
}

// worldRing maps a polygon ring to world coordinates and checks it.
func worldRing(e *Entity, r []Vec, m Affine) ([]Vec, error) {
	w := make([]Vec, len(r))
	for i, p := range r {
		w[i] = m.Apply(p)
	}
	if err := worldInRange(e, w); err != nil {
		return nil, err
	}
	return checkedRing(e, cleanRing(w))
}

// worldInRange refuses world coordinates that transforms carried outside ±MaxCoord.
func worldInRange(e *Entity, pts []Vec) error {
	for _, p := range pts {
		if !(math.Abs(p.X) <= MaxCoord && math.Abs(p.Y) <= MaxCoord) {
			return fmt.Errorf("%s %q: %w", e.Kind(), e.Name, inRange("its world coordinate", p.X, p.Y))
		}
	}
	return nil
}

// cleanRing drops repeated points (and points within a rounding error of their neighbour,
// such as the end of a full arc) and the closing point.
func cleanRing(r []Vec) []Vec {
	out := make([]Vec, 0, len(r))
	for _, p := range r {
		if len(out) > 0 && nearlyEqual(out[len(out)-1], p) {
			continue
		}
		out = append(out, p)
	}
	for len(out) > 1 && nearlyEqual(out[len(out)-1], out[0]) {
		out = out[:len(out)-1]
	}
	return out
}

func nearlyEqual(a, b Vec) bool {
	const eps = 1e-12
	scale := max(math.Abs(a.X), math.Abs(a.Y))
	return math.Abs(a.X-b.X) <= eps*scale && math.Abs(a.Y-b.Y) <= eps*scale
}

// checkedRing returns r if it is simple, nil if all its points lie on one line (a degenerate
// subpath adds nothing under any fill rule), and an ErrSelfIntersecting error naming where it
// crosses or touches itself otherwise. The place named is the exact crossing; the library's
// Validate would name the ring's first vertex, which is rarely where the problem is.
func checkedRing(e *Entity, r []Vec) ([]Vec, error) {
	if len(r) < 3 || collinearRing(r) {
		return nil, nil
	}
	at, bad := selfCrossing(r)
	if !bad {
		return r, nil
	}
	hint := "split the crossing subpath into separate closed subpaths"
	if e.Kind() == KindPolygon {
		hint = "fix the ring order or split it into two polygons"
	}
	return nil, fmt.Errorf("%s %q is %w (at or near %s %s); %s", e.Kind(), e.Name, ErrSelfIntersecting,
		formatCoord(at.X), formatCoord(at.Y), hint)
}

func collinearRing(r []Vec) bool {
	for _, p := range r[2:] {
		if orient2d(r[0], r[1], p) != 0 {
			return false
		}
	}
	return true
}

func formatCoord(v float64) string {
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'g', 10, 64)
}

// selfCrossing reports whether a ring crosses or touches itself and where: non-adjacent
// edges must not meet at all, adjacent edges only at their shared vertex.
func selfCrossing(r []Vec) (Vec, bool) {
	n := len(r)
	edge := func(i int) (Vec, Vec) { return r[i], r[(i+1)%n] }
	test := func(i, j int) (Vec, bool) {
		if i > j {
			i, j = j, i
		}
		switch {
		case j == i+1 || (i == 0 && j == n-1):
			// Adjacent: they fold back over each other when collinear and pointing the same way
			// from the shared vertex.
			s, x, y := r[j], r[i], r[(j+1)%n]
			if i == 0 && j == n-1 {
				s, x, y = r[0], r[1], r[n-1]
			}
			if orient2d(x, s, y) == 0 && (x.X-s.X)*(y.X-s.X)+(x.Y-s.Y)*(y.Y-s.Y) > 0 {
				return s, true
			}
			return Vec{}, false
		}
		a1, a2 := edge(i)
		b1, b2 := edge(j)
		return segmentsMeet(a1, a2, b1, b2)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	minX := func(i int) float64 { a, b := edge(i); return min(a.X, b.X) }
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(minX(i), minX(j)) })
	var active []int
	for _, i := range order {
		a, b := edge(i)
		lo, hi := min(a.Y, b.Y), max(a.Y, b.Y)
		k := 0
		for _, j := range active {
			c, d := edge(j)
			if max(c.X, d.X) < min(a.X, b.X) {
				continue
			}
			active[k] = j
			k++
			if max(c.Y, d.Y) < lo || min(c.Y, d.Y) > hi {
				continue
			}
			if at, bad := test(i, j); bad {
				return at, true
			}
		}
		active = append(active[:k], i)
	}
	return Vec{}, false
}

// segmentsMeet reports whether two segments share any point, and one such point.
func segmentsMeet(p1, p2, q1, q2 Vec) (Vec, bool) {
	o1, o2 := orient2d(p1, p2, q1), orient2d(p1, p2, q2)
	if (o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0) {
		return Vec{}, false
	}
	o3, o4 := orient2d(q1, q2, p1), orient2d(q1, q2, p2)
	if (o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0) {
		return Vec{}, false
	}
	if o1 == 0 && o2 == 0 {
		for _, c := range [][3]Vec{{q1, p1, p2}, {q2, p1, p2}, {p1, q1, q2}, {p2, q1, q2}} {
			if onSegment(c[0], c[1], c[2]) {
				return c[0], true
			}
		}
		return Vec{}, false
	}
	switch {
	case o1 == 0:
		return q1, true
	case o2 == 0:
		return q2, true
	case o3 == 0:
		return p1, true
	case o4 == 0:
		return p2, true
	}
	return crossPoint(p1, p2, q1, q2), true
}

// onSegment reports whether p, known to be collinear with a and b, lies on the segment ab.
func onSegment(p, a, b Vec) bool {
	if a.X != b.X {
		return min(a.X, b.X) <= p.X && p.X <= max(a.X, b.X)
	}
	return min(a.Y, b.Y) <= p.Y && p.Y <= max(a.Y, b.Y)
}

// strictlyInside reports whether p, known to be collinear with a and b, lies on the segment
// ab and is neither end.
func strictlyInside(p, a, b Vec) bool {
	if a.X != b.X {
		return min(a.X, b.X) < p.X && p.X < max(a.X, b.X)
	}
	return min(a.Y, b.Y) < p.Y && p.Y < max(a.Y, b.Y)
}

// crossPoint is where segments p and q, known to cross properly, cross; it is kept inside
// both segments' bounding boxes so that rounding cannot move it away from them.
func crossPoint(p1, p2, q1, q2 Vec) Vec {
	d1, d2 := p2.Sub(p1), q2.Sub(q1)
	t := ((q1.X-p1.X)*d2.Y - (q1.Y-p1.Y)*d2.X) / (d1.X*d2.Y - d1.Y*d2.X)
	x := p1.Add(d1.Mul(t))
	x.X = min(max(x.X, min(p1.X, p2.X), min(q1.X, q2.X)), max(p1.X, p2.X), max(q1.X, q2.X))
	x.Y = min(max(x.Y, min(p1.Y, p2.Y), min(q1.Y, q2.Y)), max(p1.Y, p2.Y), max(q1.Y, q2.Y))
	return x
}

// orientErrBound is Shewchuk's bound on the rounding error of the float orientation test,
// relative to the sum of the magnitudes of its two products.
const orientErrBound = (3 + 16*0x1p-53) * 0x1p-53

// orient2d returns a number whose sign tells where c lies relative to the line a→b: positive
// on the left, negative on the right, zero on the line. The sign is exact: the float estimate
// is used when it clears the error bound, exact rational arithmetic otherwise, so that nodes,
// touches and collinear overlaps are decided consistently everywhere.
func orient2d(a, b, c Vec) float64 {
	if c == a || c == b || a == b {
		return 0 // shared ends are the most common exact zero
	}
	abx, aby := b.X-a.X, b.Y-a.Y
	acx, acy := c.X-a.X, c.Y-a.Y
	if (abx == 0 || acy == 0) && (aby == 0 || acx == 0) {
		return 0 // both products are exactly zero: a difference of floats is 0 only when exact
	}
	l, r := abx*acy, aby*acx
	det := l - r
	bound := orientErrBound * (math.Abs(l) + math.Abs(r))
	if det > bound || -det > bound {
		return det
	}
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	sub := func(u, v float64) *big.Rat { return new(big.Rat).Sub(rat(u), rat(v)) }
	left := new(big.Rat).Mul(sub(b.X, a.X), sub(c.Y, a.Y))
	right := new(big.Rat).Mul(sub(b.Y, a.Y), sub(c.X, a.X))
	return float64(left.Cmp(right))
}

// ringArea is the signed area of a ring: positive when counter-clockwise (Y up).
func ringArea(r []Vec) float64 {
	n := len(r)
	if n < 3 {
		return 0
	}
	// Relative to the first point, to keep precision far from the origin.
	o := r[0]
	sum := 0.0
	for i := 1; i+1 < n; i++ {
		a, b := r[i].Sub(o), r[i+1].Sub(o)
		sum += a.X*b.Y - a.Y*b.X
	}
	return sum / 2
}

func polyArea(p ovPoly) float64 {
	a := math.Abs(ringArea(p.outer))
	for _, h := range p.holes {
		a -= math.Abs(ringArea(h))
	}
	return a
}

// orientRing returns r counter-clockwise (ccw) or clockwise, reversing a copy if needed.
func orientRing(r []Vec, ccw bool) []Vec {
	if (ringArea(r) > 0) != ccw {
		r = slices.Clone(r)
		slices.Reverse(r)
	}
	return r
}

func ringBox(r []Vec) Box {
	var b Box
	for _, p := range r {
		b.Extend(p)
	}
	return b
}

// sortPolys puts polygons (and each polygon's holes) in a deterministic order: by area,
// largest first, then by the lowest x, then the lowest y of the bounds.
func sortPolys(polys []ovPoly) {
	for _, p := range polys {
		if len(p.holes) > 1 {
			sortByKey(p.holes, func(h []Vec) ringKey { return keyOf(h, math.Abs(ringArea(h))) })
		}
	}
	sortByKey(polys, func(p ovPoly) ringKey { return keyOf(p.outer, polyArea(p)) })
}

type ringKey struct{ area, minX, minY float64 }

func keyOf(r []Vec, area float64) ringKey {
	b := ringBox(r)
	return ringKey{area, b.Min.X, b.Min.Y}
}

// sortByKey sorts items by their keys, computing each key once.
func sortByKey[T any](items []T, key func(T) ringKey) {
	if len(items) < 2 {
		return
	}
	type keyed struct {
		k ringKey
		v T
	}
	ks := make([]keyed, len(items))
	for i, it := range items {
		ks[i] = keyed{key(it), it}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(b.k.area, a.k.area), cmp.Compare(a.k.minX, b.k.minX), cmp.Compare(a.k.minY, b.k.minY))
	})
	for i := range ks {
		items[i] = ks[i].v
	}
}

func countRings(polys []ovPoly) int {
	n := 0
	for _, p := range polys {
		n += 1 + len(p.holes)
	}
	return n
}

func appendInputs(in []ovInput, polys []ovPoly, op uint8) []ovInput {
	for _, p := range polys {
		in = append(in, ovInput{pts: p.outer, op: op})
		for _, h := range p.holes {
			in = append(in, ovInput{pts: h, op: op})
		}
	}
	return in
}

// ---- The overlay engine ----

// ovInput is one ring given to the engine. Each directed edge raises the winding number of
// its operand by one on its left: a counter-clockwise ring has winding 1 inside, a clockwise
// one -1.
type ovInput struct {
	pts []Vec
	op  uint8 // operand, 0 or 1
	// cross is set for rings that may cross themselves (raw offset curves): their edges are
	// noded against each other too. Other rings are simple, which saves those tests.
	cross bool
}

// windRule decides from the winding numbers of operands 0 and 1 whether a point is kept.
// It must reject (0, 0), the winding far away.
type windRule func(w0, w1 int32) bool

// errTopology is returned by overlay when its self-check fails; callers then fall back to
// simplefeatures.
var errTopology = errors.New("overlay topology check failed")

type ovSeg struct {
	a, b       Vec
	ua, ub     int32 // vertex ids of a and b
	minX, maxX float64
	minY, maxY float64
	ring       int32
	w          int32 // multiplicity: copies of this segment merged into it, less reversed ones
	op         uint8
	cross      bool
}

type ovSplit struct {
	seg int32
	p   Vec
}

// ovGraph is the noded planar graph. Edge e joins eu[e] to ev[e]; its half-edges are 2e
// (eu→ev) and 2e+1 (ev→eu). ed[e] is, per operand, the winding on the left of eu→ev minus the
// winding on its right.
type ovGraph struct {
	pts    []Vec
	eu, ev []int32
	ed     [][2]int32
	first  []int32 // out[first[v]:first[v+1]] are v's outgoing half-edges, counter-clockwise
	out    []int32
	pos    []int32 // index of each half-edge in its origin's list
	face   []int32 // face (cycle of next) of each half-edge
	nface  int
	eps    float64 // the precision: result rings no wider than this are dropped
}

func (g *ovGraph) origin(h int32) int32 {
	if h&1 == 0 {
		return g.eu[h>>1]
	}
	return g.ev[h>>1]
}

func (g *ovGraph) delta(h int32) [2]int32 {
	d := g.ed[h>>1]
	if h&1 == 1 {
		return [2]int32{-d[0], -d[1]}
	}
	return d
}

// cw is the outgoing half-edge next clockwise from o around their common origin.
func (g *ovGraph) cw(o int32) int32 {
	v := g.origin(o)
	lo, deg := g.first[v], g.first[v+1]-g.first[v]
	return g.out[lo+(g.pos[o]-lo+deg-1)%deg]
}

// pointIndex gives every distinct point a vertex id. It is a small open-addressing hash
// table, several times faster here than a map keyed by Vec.
type pointIndex struct {
	slots []int32 // vertex id + 1; 0 is empty
	mask  uint64
	pts   []Vec
}

func newPointIndex(n int) *pointIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &pointIndex{slots: make([]int32, size), mask: uint64(size - 1), pts: make([]Vec, 0, n)}
}

func (ix *pointIndex) id(p Vec) int32 {
	// Adding zero turns -0 into +0, which compares equal and must hash equal.
	x, y := math.Float64bits(p.X+0), math.Float64bits(p.Y+0)
	// Round coordinates have all-zero low bits, so the bits are mixed fully (murmur3's
	// finaliser) before the low ones pick the slot.
	h := x ^ (y*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		s := ix.slots[i]
		if s == 0 {
			if len(ix.pts) >= len(ix.slots)/2 {
				ix.grow()
				return ix.id(p)
			}
			ix.pts = append(ix.pts, p)
			ix.slots[i] = int32(len(ix.pts))
			return int32(len(ix.pts) - 1)
		}
		if ix.pts[s-1] == p {
			return s - 1
		}
	}
}

func (ix *pointIndex) grow() {
	pts := ix.pts
	*ix = *newPointIndex(2 * len(ix.slots))
	for _, p := range pts {
		ix.id(p)
	}
}

// overlay computes the area where keep holds for the winding numbers of the input rings, as
// non-overlapping polygons with counter-clockwise outer rings and clockwise holes. Points
// closer than the operands' precision (snapTolerance) are taken as one point: vertices merge
// with the first vertex seen within it, an edge passing within it of a vertex or crossing
// point is cut there, and result rings no wider than it are dropped. When its self-check
// still fails it tries once more at a coarser precision; errTopology means both attempts
// failed.
func overlay(in []ovInput, keep windRule) ([]ovPoly, error) {
	eps := snapTolerance(in)
	res, err := overlayOnce(in, keep, eps)
	if err == nil {
		return res, nil
	}
	return overlayOnce(in, keep, retryFactor*eps)
}

// Precision of the overlay engine. Two points are one when they are closer (in x and in y)
// than SnapRelative times the operands' extent (the larger side of their bounding box), or
// than snapFloat times their largest coordinate magnitude, whichever is larger; the second
// keeps the tolerance far above the rounding error of computed crossing points. Both are
// relative, so a drawing scaled by any factor gives the same result scaled.
const (
	// SnapRelative is the engine's precision relative to the operands' extent (2^-32, about
	// 2.3e-10): points closer than that are merged, and result parts or holes no wider than
	// it are dropped.
	SnapRelative = 0x1p-32
	snapFloat    = 0x1p-46
	// retryFactor coarsens the precision for the engine's second attempt.
	retryFactor = 64
)

// snapTolerance is the distance under which the overlay engine takes two points as one.
func snapTolerance(in []ovInput) float64 {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, r := range in {
		for _, p := range r.pts {
			x0, x1 = min(x0, p.X), max(x1, p.X)
			y0, y1 = min(y0, p.Y), max(y1, p.Y)
		}
	}
	if x0 > x1 {
		return 0
	}
	maxAbs := max(-x0, x1, -y0, y1)
	return max(max(x1-x0, y1-y0)*SnapRelative, maxAbs*snapFloat)
}

// snapIndex merges points closer than eps: snap returns the first point seen within eps of p
// (in x and in y), or records p. Cells are snapCell·eps wide: p's own cell holds every
// candidate unless p lies within eps of its side, when the neighbour across is searched too.
// The cells live in an open-addressing table, as pointIndex's points.
type snapIndex struct {
	eps, inv float64
	keys     [][2]int64 // cell of each slot
	heads    []int32    // first point of each slot's cell + 1; 0 is empty
	mask     uint64
	used     int
	next     []int32 // the next point of the same cell, or -1
	pts      []Vec
}

func newSnapIndex(eps float64, n int) *snapIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &snapIndex{eps: eps, inv: 1 / (snapCell * eps), keys: make([][2]int64, size), heads: make([]int32, size),
		mask: uint64(size - 1), next: make([]int32, 0, n), pts: make([]Vec, 0, n)}
}

// slot is the slot of cell k: the one holding it, or the empty one where it would go.
func (ix *snapIndex) slot(k [2]int64) uint64 {
	h := uint64(k[0])*0x9E3779B97F4A7C15 ^ uint64(k[1])*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		if ix.heads[i] == 0 || ix.keys[i] == k {
			return i
		}
	}
}

// snapCell is the width of a snapIndex cell in units of eps.
const snapCell = 64

func (ix *snapIndex) snap(p Vec) Vec {
	fx, fy := p.X*ix.inv, p.Y*ix.inv
	flx, fly := math.Floor(fx), math.Floor(fy)
	kx, ky := int64(flx), int64(fly)
	// The cells within eps of p: its own, and the neighbour across a side that close.
	const edge = 1.0 / snapCell
	x0, x1, y0, y1 := kx, kx, ky, ky
	if fx-flx <= edge {
		x0--
	} else if fx-flx >= 1-edge {
		x1++
	}
	if fy-fly <= edge {
		y0--
	} else if fy-fly >= 1-edge {
		y1++
	}
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			for h := ix.heads[ix.slot([2]int64{cx, cy})] - 1; h >= 0; h = ix.next[h] {
				q := ix.pts[h]
				if math.Abs(q.X-p.X) <= ix.eps && math.Abs(q.Y-p.Y) <= ix.eps {
					return q
				}
			}
		}
	}
	if 2*(ix.used+1) > len(ix.heads) {
		ix.grow()
	}
	k := [2]int64{kx, ky}
	i := ix.slot(k)
	if ix.heads[i] == 0 {
		ix.used++
		ix.keys[i] = k
	}
	ix.next = append(ix.next, ix.heads[i]-1)
	ix.pts = append(ix.pts, p)
	ix.heads[i] = int32(len(ix.pts))
	return p
}

// grow doubles the table, moving every cell's list as it is.
func (ix *snapIndex) grow() {
	keys, heads := ix.keys, ix.heads
	ix.keys, ix.heads = make([][2]int64, 2*len(keys)), make([]int32, 2*len(heads))
	ix.mask = uint64(len(ix.heads) - 1)
	for i, h := range heads {
		if h != 0 {
			j := ix.slot(keys[i])
			ix.keys[j], ix.heads[j] = keys[i], h
		}
	}
}

func overlayOnce(in []ovInput, keep windRule, eps float64) ([]ovPoly, error) {
	if !(eps > 0) {
		return nil, nil // every point is the same point: no area
	}
	total := 0
	for _, r := range in {
		total += len(r.pts)
	}
	snap := newSnapIndex(eps, total)
	ix := newPointIndex(total + total/4)
	segs := make([]ovSeg, 0, total)
	ring := make([]Vec, 0, 64)
	for ri, r := range in {
		ring = ring[:0]
		for _, p := range r.pts {
			if q := snap.snap(p); len(ring) == 0 || ring[len(ring)-1] != q {
				ring = append(ring, q)
			}
		}
		for len(ring) > 1 && ring[len(ring)-1] == ring[0] {
			ring = ring[:len(ring)-1]
		}
		n := len(ring)
		if n < 3 {
			continue
		}
		first := ix.id(ring[0])
		ua := first
		for i := range n {
			a, b := ring[i], ring[(i+1)%n]
			ub := first
			if i+1 < n {
				ub = ix.id(b)
			}
			if ua != ub {
				segs = append(segs, ovSeg{a: a, b: b, ua: ua, ub: ub, minX: min(a.X, b.X), maxX: max(a.X, b.X),
					minY: min(a.Y, b.Y), maxY: max(a.Y, b.Y), ring: int32(ri), w: 1, op: r.op, cross: r.cross})
			}
			ua = ub
		}
	}
	if segs = mergeCopies(segs, len(ix.pts)); len(segs) == 0 {
		return nil, nil
	}
	g := buildGraph(segs, nodeSegments(segs, snap), ix)
	if len(g.eu) == 0 {
		return nil, nil
	}
	g.eps = eps
	g.sortAround()
	g.traceFaces()
	wind, err := g.windings()
	if err != nil {
		return nil, err
	}
	inside := make([]bool, g.nface)
	for f, w := range wind {
		inside[f] = keep(w[0], w[1])
	}

	return g.boundary(inside)
}

// endCount tells the vertices where two edges may join the same two vertices: those with
// more than two edge ends, and those whose two edges lead to the same vertex (a ring that
// folds back on itself, as snapping can make one). A vertex that only continues one ring
// has two ends and two different neighbours.
type endCount struct {
	ends  []uint8
	other []int32 // the neighbour through the first edge, + 1
}

func newEndCount(nv int) endCount {
	return endCount{ends: make([]uint8, nv), other: make([]int32, nv)}
}

func (c endCount) add(u, v int32) {
	c.end(u, v)
	c.end(v, u)
}

func (c endCount) end(x, y int32) {
	switch c.ends[x] {
	case 0:
		c.other[x] = y + 1
		c.ends[x] = 1
	case 1:
		c.ends[x] = 2
		if c.other[x] == y+1 {
			c.ends[x] = 3 // folds back
		}
	default:
		c.ends[x] = 3
	}
}

func (c endCount) shared(x int32) bool { return c.ends[x] > 2 }

// mergeCopies turns segments that join the same two vertices for the same operand into one
// with their summed multiplicity (dropping it when they cancel), so that many copies of a
// shape, which the snapping makes share their edges, are noded once. Only segments whose ends
// are both shared with other rings can have copies; a vertex that only continues its ring has
// two segment ends.
func mergeCopies(segs []ovSeg, nv int) []ovSeg {
	ends := newEndCount(nv)
	for i := range segs {
		ends.add(segs[i].ua, segs[i].ub)
	}
	type key struct {
		u, v int32
		op   uint8
	}
	var first map[key]int32
	out := segs[:0]
	for _, s := range segs {
		if ends.shared(s.ua) && ends.shared(s.ub) {
			if first == nil {
				first = map[key]int32{}
			}
			k, w := key{s.ua, s.ub, s.op}, s.w
			if k.u > k.v {
				k.u, k.v, w = k.v, k.u, -w
			}
			if i, ok := first[k]; ok {
				if out[i].ua == k.u {
					out[i].w += w
				} else {
					out[i].w -= w
				}
				out[i].cross = out[i].cross || s.cross
				continue
			}
			first[k] = int32(len(out))
		}
		out = append(out, s)
	}
	if first == nil {
		return out
	}
	kept := out[:0]
	for _, s := range out {
		if s.w != 0 {
			kept = append(kept, s)
		}
	}
	return kept
}

// nodeSegments finds every point where two segments meet and is not already an end of the
// one it lies on: crossings, touches and the ends of collinear overlaps. Candidate pairs come
// from a uniform grid in which each segment is entered in the cells it passes through (not
// the cells of its bounding box, which for long diagonal edges are far more); a pair may
// share several cells, so a meeting point is recorded only by the cell that contains it.
//
// Within the precision snap.eps, an end of one segment that lies that close to another is a
// point of the other too, and a crossing point within it of a vertex or of an earlier
// crossing is that point (snap merges them), so that the graph has no edges shorter than the
// precision and rings that follow each other to rounding error share their edges exactly.
func nodeSegments(segs []ovSeg, snap *snapIndex) []ovSplit {
	eps := snap.eps
	n := len(segs)
	box := Box{Min: Vec{segs[0].minX, segs[0].minY}, Max: Vec{segs[0].maxX, segs[0].maxY}, NonEmpty: true}
	step := max(1, n/1024)
	sample := make([]float64, 0, n/step+1)
	for i := range segs {
		s := &segs[i]
		box.Extend(Vec{s.minX, s.minY})
		box.Extend(Vec{s.maxX, s.maxY})
		if i%step == 0 {
			sample = append(sample, max(s.maxX-s.minX, s.maxY-s.minY))
		}
	}
	slices.Sort(sample)
	w, h := box.Max.X-box.Min.X, box.Max.Y-box.Min.Y
	// Cells about as large as a typical segment, but no more than about 4 per segment.
	c := max(sample[len(sample)/2], math.Sqrt(w*h/float64(4*n)), max(w, h)/float64(4*n))
	nx, ny := int(w/c)+1, int(h/c)+1
	margin := c*1e-6 + 2*eps
	col := func(x float64) int { return min(nx-1, max(0, int((x-box.Min.X)/c))) }
	row := func(y float64) int { return min(ny-1, max(0, int((y-box.Min.Y)/c))) }
	cellOf := func(p Vec) int32 { return int32(row(p.Y)*nx + col(p.X)) }

	type entry struct{ cell, seg int32 }
	entries := make([]entry, 0, 2*n)
	for i := range segs {
		s := &segs[i]
		r0, r1 := row(s.minY-margin), row(s.maxY+margin)
		for r := r0; r <= r1; r++ {
			lo, hi := s.minX, s.maxX
			if row(s.minY) != row(s.maxY) {
				// The segment's x-range within this row of cells.
				ya := max(s.minY, box.Min.Y+float64(r)*c)
				yb := min(s.maxY, box.Min.Y+float64(r+1)*c)
				k := (s.b.X - s.a.X) / (s.b.Y - s.a.Y)
				xa, xb := s.a.X+(ya-s.a.Y)*k, s.a.X+(yb-s.a.Y)*k
				lo = max(s.minX, min(xa, xb)-margin)
				hi = min(s.maxX, max(xa, xb)+margin)
			}
			for q := col(lo - margin); q <= col(hi+margin); q++ {
				entries = append(entries, entry{int32(r*nx + q), int32(i)})
			}
		}
	}
	start := make([]int32, nx*ny+1)
	for _, e := range entries {
		start[e.cell+1]++
	}
	for i := range nx * ny {
		start[i+1] += start[i]
	}
	list := make([]int32, len(entries))
	fill := slices.Clone(start[:nx*ny])
	for _, e := range entries {
		list[fill[e.cell]] = e.seg
		fill[e.cell]++
	}

	var splits []ovSplit
	var collinear [][2]int32 // pairs of segments that overlap along a line
	var crossings []Vec
	var cell int32
	// near reports whether p, not an end of s, lies within eps of s's interior.
	near := func(p Vec, s *ovSeg) bool {
		if p == s.a || p == s.b || p.X < s.minX-eps || p.X > s.maxX+eps || p.Y < s.minY-eps || p.Y > s.maxY+eps {
			return false
		}
		d := s.b.Sub(s.a)
		l2 := d.X*d.X + d.Y*d.Y
		t := (p.X-s.a.X)*d.X + (p.Y-s.a.Y)*d.Y
		cross := d.X*(p.Y-s.a.Y) - d.Y*(p.X-s.a.X)
		return t > 0 && t < l2 && cross*cross <= eps*eps*l2
	}
	split := func(i int32, p Vec) {
		s := &segs[i]
		if p == s.a || p == s.b || cellOf(p) != cell {
			return
		}
		splits = append(splits, ovSplit{seg: i, p: p})
	}
	for cell = 0; cell < int32(nx*ny); cell++ {
		in := list[start[cell]:start[cell+1]]
		for a, i := range in {
			s := &segs[i]
			for _, j := range in[a+1:] {
				t := &segs[j]
				if t.maxX < s.minX-eps || t.minX > s.maxX+eps || t.maxY < s.minY-eps || t.minY > s.maxY+eps {
					continue
				}
				// Ends within the precision of the other segment cut it, even on the same
				// ring (a ring whose vertex lies that close to another of its edges touches
				// itself there).
				if near(t.a, s) {
					split(i, t.a)
				}
				if near(t.b, s) {
					split(i, t.b)
				}
				if near(s.a, t) {
					split(j, s.a)
				}
				if near(s.b, t) {
					split(j, s.b)
				}
				if t.ring == s.ring && !s.cross {
					continue
				}
				p1, p2, q1, q2 := s.a, s.b, t.a, t.b
				o1, o2 := orient2d(p1, p2, q1), orient2d(p1, p2, q2)
				if (o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0) {
					continue
				}
				o3, o4 := orient2d(q1, q2, p1), orient2d(q1, q2, p2)
				if (o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0) {
					continue
				}
				if o1 == 0 && o2 == 0 {
					// Collinear: each is cut where the other ends inside it.
					in1, in2 := strictlyInside(q1, p1, p2), strictlyInside(q2, p1, p2)
					in3, in4 := strictlyInside(p1, q1, q2), strictlyInside(p2, q1, q2)
					if in1 {
						split(i, q1)
					}
					if in2 {
						split(i, q2)
					}
					if in3 {
						split(j, p1)
					}
					if in4 {
						split(j, p2)
					}
					if (in1 || in2 || in3 || in4 || (q1 == p1 && q2 == p2) || (q1 == p2 && q2 == p1)) && cellOf(overlapStart(p1, p2, q1, q2)) == cell {
						collinear = append(collinear, [2]int32{i, j})
					}
					continue
				}
				if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 {
					// A touch: the end that lies on the other segment is where they meet.
					if o1 == 0 {
						split(i, q1)
					}
					if o2 == 0 {
						split(i, q2)
					}
					if o3 == 0 {
						split(j, p1)
					}
					if o4 == 0 {
						split(j, p2)
					}
					continue
				}
				x := crossPoint(p1, p2, q1, q2)
				if cellOf(x) != cell {
					continue
				}
				// Computed in its own cell only, so it is recorded once even if snapping
				// moves it into the next one.
				x = snap.snap(x)
				for _, k := range [2]int32{i, j} {
					if x != segs[k].a && x != segs[k].b {
						splits = append(splits, ovSplit{seg: k, p: x})
					}
				}
				crossings = append(crossings, x)
			}
		}
	}
	// A crossing point is rounded, and can land a few ulps on the far side of a third edge
	// that passes (almost) through it, typically one nearly collinear with a crossed edge;
	// the pieces would then cross. Such edges are cut at the point too.
	for _, x := range crossings {
		cell = cellOf(x)
		for _, i := range list[start[cell]:start[cell+1]] {
			if near(x, &segs[i]) {
				split(i, x)
			}
		}
	}
	if len(collinear) > 0 {
		splits = shareCollinearSplits(segs, splits, collinear)
	}
	return splits
}

// overlapStart is a point of the overlap of two collinear segments (the greatest of their
// lower ends along the line), used to count each overlapping pair in one grid cell only.
func overlapStart(p1, p2, q1, q2 Vec) Vec {
	less := func(a, b Vec) bool { return a.X < b.X || (a.X == b.X && a.Y < b.Y) }
	lo := func(a, b Vec) Vec {
		if less(b, a) {
			return b
		}
		return a
	}
	a, b := lo(p1, p2), lo(q1, q2)
	if less(a, b) {
		return b
	}
	return a
}

// shareCollinearSplits copies every cut of a segment onto the segments that overlap it along
// the same line. A crossing point is computed from the two segments that cross, so an edge
// crossing two overlapping sides (two squares side by side) gets two points a rounding error
// apart; unless both sides are cut at both, their pieces would overlap without coinciding.
func shareCollinearSplits(segs []ovSeg, splits []ovSplit, pairs [][2]int32) []ovSplit {
	parent := map[int32]int32{}
	var find func(int32) int32
	find = func(v int32) int32 {
		p, ok := parent[v]
		if !ok || p == v {
			return v
		}
		r := find(p)
		parent[v] = r
		return r
	}
	for _, pr := range pairs {
		a, b := find(pr[0]), find(pr[1])
		if a != b {
			parent[a] = b
		}
	}
	members := map[int32][]int32{}
	bySeg := map[int32][]Vec{}
	for _, pr := range pairs {
		for _, v := range pr {
			if _, ok := bySeg[v]; !ok {
				bySeg[v] = nil
				members[find(v)] = append(members[find(v)], v)
			}
		}
	}
	for _, sp := range splits {
		if cuts, ok := bySeg[sp.seg]; ok {
			bySeg[sp.seg] = append(cuts, sp.p)
		}
	}
	for _, group := range members {
		for _, m := range group {
			s := &segs[m]
			d := s.b.Sub(s.a)
			l2 := d.X*d.X + d.Y*d.Y
			for _, o := range group {
				if o == m {
					continue
				}
				for _, p := range bySeg[o] {
					t := (p.X-s.a.X)*d.X + (p.Y-s.a.Y)*d.Y
					if t > 0 && t < l2 && p != s.a && p != s.b {
						splits = append(splits, ovSplit{seg: m, p: p})
					}
				}
			}
		}
	}
	return splits
}

// buildGraph cuts the segments at their splits and merges the pieces into a graph; pieces on
// the same two vertices become one edge whose winding steps add up, and an edge whose steps
// cancel (a side shared by two touching shapes) is dropped, since the faces on its two sides
// have the same windings.
func buildGraph(segs []ovSeg, splits []ovSplit, ix *pointIndex) *ovGraph {
	// Cuts are ordered by their exact coordinates along the segment's main axis, not by a
	// computed parameter, which can round two cuts a few ulps apart onto the same value. (The
	// other axis would mislead: a cut on a nearly vertical segment may sit an ulp to either
	// side of it.)
	slices.SortFunc(splits, func(a, b ovSplit) int {
		if c := cmp.Compare(a.seg, b.seg); c != 0 {
			return c
		}
		s := &segs[a.seg]
		dx, dy := s.b.X-s.a.X, s.b.Y-s.a.Y
		var c int
		if math.Abs(dx) >= math.Abs(dy) {
			c = cmp.Or(cmp.Compare(a.p.X, b.p.X), cmp.Compare(a.p.Y, b.p.Y))
			if dx < 0 {
				c = -c
			}
		} else {
			c = cmp.Or(cmp.Compare(a.p.Y, b.p.Y), cmp.Compare(a.p.X, b.p.X))
			if dy < 0 {
				c = -c
			}
		}
		return c
	})
	type piece struct {
		u, v int32
		w    int32
		op   uint8
	}
	pieces := make([]piece, 0, len(segs)+2*len(splits))
	k := 0
	for i := range segs {
		s := &segs[i]
		prev := s.ua
		for ; k < len(splits) && splits[k].seg == int32(i); k++ {
			if p := ix.id(splits[k].p); p != prev {
				pieces = append(pieces, piece{prev, p, s.w, s.op})
				prev = p
			}
		}
		if prev != s.ub {
			pieces = append(pieces, piece{prev, s.ub, s.w, s.op})
		}
	}
	// Two pieces can only coincide where both ends are shared with other pieces: a vertex
	// that only continues one ring has two piece ends. Only those go through the map.
	ends := newEndCount(len(ix.pts))
	for _, p := range pieces {
		ends.add(p.u, p.v)
	}
	g := &ovGraph{}
	type pair struct{ u, v int32 }
	eid := map[pair]int32{}
	for _, p := range pieces {
		u, v, step := p.u, p.v, p.w
		if u > v {
			u, v, step = v, u, -step
		}
		e := int32(len(g.eu))
		if ends.shared(u) && ends.shared(v) {
			if old, ok := eid[pair{u, v}]; ok {
				g.ed[old][p.op] += step
				continue
			}
			eid[pair{u, v}] = e
		}
		g.eu, g.ev = append(g.eu, u), append(g.ev, v)
		var d [2]int32
		d[p.op] = step
		g.ed = append(g.ed, d)
	}
	// Drop edges whose steps cancel, and vertices left without edges.
	newID := make([]int32, len(ix.pts))
	for i := range newID {
		newID[i] = -1
	}
	pts := make([]Vec, 0, len(ix.pts))
	n := 0
	for e := range g.eu {
		if g.ed[e] == [2]int32{} {
			continue
		}
		u, v := g.eu[e], g.ev[e]
		if newID[u] < 0 {
			newID[u] = int32(len(pts))
			pts = append(pts, ix.pts[u])
		}
		if newID[v] < 0 {
			newID[v] = int32(len(pts))
			pts = append(pts, ix.pts[v])
		}
		g.eu[n], g.ev[n], g.ed[n] = newID[u], newID[v], g.ed[e]
		n++
	}
	g.eu, g.ev, g.ed, g.pts = g.eu[:n], g.ev[:n], g.ed[:n], pts
	return g
}

// sortAround lists each vertex's outgoing half-edges counter-clockwise, starting from the
// direction +x.
func (g *ovGraph) sortAround() {
	nv := len(g.pts)
	g.first = make([]int32, nv+1)
	for e := range g.eu {
		g.first[g.eu[e]+1]++
		g.first[g.ev[e]+1]++
	}
	for v := range nv {
		g.first[v+1] += g.first[v]
	}
	g.out = make([]int32, 2*len(g.eu))
	fill := slices.Clone(g.first[:nv])
	for h := range int32(2 * len(g.eu)) {
		v := g.origin(h)
		g.out[fill[v]] = h
		fill[v]++
	}
	g.pos = make([]int32, len(g.out))
	for v := range nv {
		list := g.out[g.first[v]:g.first[v+1]]
		if len(list) > 1 {
			o := g.pts[v]
			upper := func(h int32) bool {
				d := g.pts[g.origin(h^1)]
				return d.Y > o.Y || (d.Y == o.Y && d.X > o.X)
			}
			slices.SortFunc(list, func(a, b int32) int {
				ua, ub := upper(a), upper(b)
				if ua != ub {
					if ua {
						return -1
					}
					return 1
				}
				if s := orient2d(o, g.pts[g.origin(a^1)], g.pts[g.origin(b^1)]); s > 0 {
					return -1
				} else if s < 0 {
					return 1
				}
				return 0
			})
		}
		for i, h := range list {
			g.pos[h] = g.first[v] + int32(i)
		}
	}
}

// traceFaces groups the half-edges into faces: the face on the left of h continues with the
// half-edge next clockwise from h's twin at h's end.
func (g *ovGraph) traceFaces() {
	g.face = make([]int32, len(g.out))
	for i := range g.face {
		g.face[i] = -1
	}
	for h0 := range int32(len(g.face)) {
		if g.face[h0] >= 0 {
			continue
		}
		f := int32(g.nface)
		g.nface++
		for h := h0; g.face[h] < 0; h = g.cw(h ^ 1) {
			g.face[h] = f
		}
	}
}

// windings gives every face the winding numbers of both operands. Within a connected
// component they follow from one face by stepping across edges; the outer face of each
// component takes the winding at its leftmost vertex from a ray cast against the rest.
func (g *ovGraph) windings() ([][2]int32, error) {
	nv := len(g.pts)
	comp := make([]int32, nv)
	for i := range comp {
		comp[i] = int32(i)
	}
	find := func(v int32) int32 {
		for comp[v] != v {
			comp[v] = comp[comp[v]]
			v = comp[v]
		}
		return v
	}
	for e := range g.eu {
		a, b := find(g.eu[e]), find(g.ev[e])
		if a != b {
			comp[a] = b
		}
	}
	// Euler's formula V - E + F = 2 holds for every component of a plane graph; a noding
	// failure that leaves two edges crossing breaks it.
	euler := make(map[int32]int, 8)
	seed := make(map[int32]int32, 8)
	for v := range int32(nv) {
		c := find(v)
		euler[c]++
		if s, ok := seed[c]; !ok || g.pts[v].X < g.pts[s].X || (g.pts[v].X == g.pts[s].X && g.pts[v].Y < g.pts[s].Y) {
			seed[c] = v
		}
	}
	for e := range g.eu {
		euler[find(g.eu[e])]--
	}
	faceSeen := make([]bool, g.nface)
	for h, f := range g.face {
		if !faceSeen[f] {
			faceSeen[f] = true
			euler[find(g.origin(int32(h)))]++
		}
	}
	for _, x := range euler {
		if x != 2 {
			return nil, errTopology
		}
	}
	wind := make([][2]int32, g.nface)
	known := make([]bool, g.nface)
	ray := g.rayIndex(len(seed))
	queue := make([]int32, 0, 64)
	for _, v := range seed {
		// At the leftmost (then lowest) vertex every edge points right or straight up, so
		// the outer face is the one left of the last edge before the lower half-plane.
		list := g.out[g.first[v]:g.first[v+1]]
		k := len(list)
		for i, h := range list {
			d := g.pts[g.origin(h^1)]
			if !(d.Y > g.pts[v].Y || (d.Y == g.pts[v].Y && d.X > g.pts[v].X)) {
				k = i
				break
			}
		}
		h := list[(k+len(list)-1)%len(list)]
		f := g.face[h]
		wind[f], known[f] = ray(g.pts[v]), true
		queue = append(queue[:0], h)
		for len(queue) > 0 {
			h0 := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			w := wind[g.face[h0]]
			h := h0
			for {
				d := g.delta(h)
				t := g.face[h^1]
				wt := [2]int32{w[0] - d[0], w[1] - d[1]}
				if !known[t] {
					wind[t], known[t] = wt, true
					queue = append(queue, h^1)
				} else if wind[t] != wt {
					return nil, errTopology
				}
				if h = g.cw(h ^ 1); h == h0 {
					break
				}
			}
		}
	}
	return wind, nil
}

// rayIndex returns the winding at a point that no edge passes through, by casting a ray to
// the left. For more than a few queries the edges are first bucketed into horizontal bands.
func (g *ovGraph) rayIndex(queries int) func(Vec) [2]int32 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range g.pts {
		lo, hi = min(lo, p.Y), max(hi, p.Y)
	}
	nb := 1
	if queries > 8 {
		nb = min(1024, max(1, int(math.Sqrt(float64(len(g.eu))))))
	}
	h := (hi - lo) / float64(nb)
	band := func(y float64) int {
		if h <= 0 {
			return 0
		}
		return min(nb-1, max(0, int((y-lo)/h)))
	}
	first := make([]int32, nb+1)
	for e := range g.eu {
		a, b := g.pts[g.eu[e]].Y, g.pts[g.ev[e]].Y
		if a == b {
			continue // horizontal edges never cross a horizontal ray
		}
		for k := band(min(a, b)); k <= band(max(a, b)); k++ {
			first[k+1]++
		}
	}
	for k := range nb {
		first[k+1] += first[k]
	}
	list := make([]int32, first[nb])
	fill := slices.Clone(first[:nb])
	for e := range int32(len(g.eu)) {
		a, b := g.pts[g.eu[e]].Y, g.pts[g.ev[e]].Y
		if a == b {
			continue
		}
		for k := band(min(a, b)); k <= band(max(a, b)); k++ {
			list[fill[k]] = e
			fill[k]++
		}
	}
	return func(p Vec) [2]int32 {
		var w [2]int32
		k := band(p.Y)
		for _, e := range list[first[k]:first[k+1]] {
			a, b := g.pts[g.eu[e]], g.pts[g.ev[e]]
			if (a.Y > p.Y) == (b.Y > p.Y) {
				continue
			}
			d := g.ed[e]
			// Crossing an edge from its right to its left adds its step. Travelling right
			// from far away, an upward edge is crossed left to right, a downward one right to
			// left.
			if a.Y < b.Y {
				if orient2d(a, b, p) < 0 {
					w[0], w[1] = w[0]-d[0], w[1]-d[1]
				}
			} else if orient2d(b, a, p) < 0 {
				w[0], w[1] = w[0]+d[0], w[1]+d[1]
			}
		}
		return w
	}
}

// boundary traces the half-edges with a kept face on the left and a dropped one on the right
// into rings, splits rings where they touch themselves, and sorts them into outer rings
// (counter-clockwise) with the holes (clockwise) they enclose.
func (g *ovGraph) boundary(inside []bool) ([]ovPoly, error) {
	isB := func(h int32) bool { return inside[g.face[h]] && !inside[g.face[h^1]] }
	used := make([]bool, len(g.out))
	mark := make([]int32, len(g.pts))
	for i := range mark {
		mark[i] = -1
	}
	type outRing struct {
		pts       []Vec
		area, per float64 // signed area, perimeter
		box       Box
	}
	var shells, holes []outRing
	emit := func(ids []int32) {
		pts := make([]Vec, len(ids))
		for i, v := range ids {
			pts[i] = g.pts[v]
		}
		pts = dropCollinear(pts)
		if len(pts) < 3 {
			return
		}
		r := outRing{pts: pts, area: ringArea(pts), per: ringPerimeter(pts), box: ringBox(pts)}
		// A ring no wider than the precision (area <= eps·perimeter: a mean width of at
		// most 2·eps) is rounding noise, not geometry.
		if math.Abs(r.area) <= g.eps*r.per {
			return
		}
		switch {
		case r.area > 0:
			shells = append(shells, r)
		case r.area < 0:
			holes = append(holes, r)
		}
	}
	var cycle, stack []int32
	for h0 := range int32(len(g.out)) {
		if used[h0] || !isB(h0) {
			continue
		}
		cycle = cycle[:0]
		for h := h0; ; {
			if used[h] {
				return nil, errTopology
			}
			used[h] = true
			cycle = append(cycle, g.origin(h))
			// Turn as far right as possible at h's end: the wedges passed over all lie inside.
			o := h ^ 1
			deg := g.first[g.origin(o)+1] - g.first[g.origin(o)]
			for i := int32(0); ; i++ {
				if i == deg {
					return nil, errTopology
				}
				if o = g.cw(o); isB(o) {
					break
				}
			}
			if h = o; h == h0 {
				break
			}
		}
		// Split where the ring passes a vertex twice (a pinch), so that every ring is simple.
		stack = stack[:0]
		for _, v := range cycle {
			if p := mark[v]; p >= 0 {
				emit(stack[p:])
				for _, w := range stack[p+1:] {
					mark[w] = -1
				}
				stack = stack[:p+1]
				continue
			}
			mark[v] = int32(len(stack))
			stack = append(stack, v)
		}
		emit(stack)
		for _, v := range stack {
			mark[v] = -1
		}
	}
	slices.SortFunc(shells, func(a, b outRing) int { return cmp.Compare(a.area, b.area) })
	polys := make([]ovPoly, len(shells))
	// net and per are each part's area and the length of its rings, for the same test
	// on whole parts: an outer ring with a hole that nearly fills it is a sliver too.
	net := make([]float64, len(shells))
	per := make([]float64, len(shells))
	for i, s := range shells {
		polys[i].outer = s.pts
		net[i], per[i] = s.area, s.per
	}
	for _, h := range holes {
		var cand []int
		for i, s := range shells {
			if s.box.Min.X <= h.box.Min.X && s.box.Min.Y <= h.box.Min.Y && s.box.Max.X >= h.box.Max.X && s.box.Max.Y >= h.box.Max.Y {
				cand = append(cand, i)
			}
		}
		owner := -1
		if len(cand) == 1 {
			owner = cand[0]
		} else {
			// The smallest shell around a point of the hole's first edge; that point is on
			// no shell, since boundaries meet only at vertices.
			p := h.pts[0].Add(h.pts[1]).Mul(0.5)
			for _, i := range cand {
				if windingAt(shells[i].pts, p) != 0 {
					owner = i
					break
				}
			}
		}
		if owner < 0 {
			return nil, errTopology
		}
		polys[owner].holes = append(polys[owner].holes, h.pts)
		net[owner] += h.area
		per[owner] += h.per
	}
	kept := polys[:0]
	for i, p := range polys {
		if net[i] > g.eps*per[i] {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

func ringPerimeter(r []Vec) float64 {
	l := 0.0
	for i, p := range r {
		l += r[(i+1)%len(r)].Sub(p).Len()
	}
	return l
}

// dropCollinear removes vertices that lie on the straight line through their neighbours.
func dropCollinear(r []Vec) []Vec {
	out := r[:0:0]
	for _, p := range r {
		for len(out) >= 2 && orient2d(out[len(out)-2], out[len(out)-1], p) == 0 {
			out = out[:len(out)-1]
		}
		out = append(out, p)
	}
	for len(out) >= 3 {
		n := len(out)
		if orient2d(out[n-2], out[n-1], out[0]) == 0 {
			out = out[:n-1]
		} else if orient2d(out[n-1], out[0], out[1]) == 0 {
			out = out[1:]
		} else {
			break
		}
	}
	return out
}

// windingAt is the winding number of ring r around p (p not on r).
func windingAt(r []Vec, p Vec) int {
	w := 0
	n := len(r)
	for i := range n {
		a, b := r[i], r[(i+1)%n]
		if a.Y <= p.Y {
			if b.Y > p.Y && orient2d(a, b, p) > 0 {
				w++
			}
		} else if b.Y <= p.Y && orient2d(a, b, p) < 0 {
			w--
		}
	}
	return w
}

// ---- simplefeatures: conversions and fallbacks ----

// fallbacks counts the operations the overlay engine handed to simplefeatures.
var fallbacks atomic.Int64

// Fallbacks is how many operations the overlay engine has handed to simplefeatures since the
// process started, because its topology check failed twice. Each one is also logged (slog,
// level warning). A fallback gives a right answer more slowly; a count that grows points at a
// gap in the engine worth a test case.
func Fallbacks() int64 { return fallbacks.Load() }

func noteFallback(op string, rings int) {
	fallbacks.Add(1)
	slog.Warn("geometry: the overlay engine failed its topology check; the operation is redone with simplefeatures",
		"operation", op, "rings", rings)
}

func closedXY(r []Vec) []float64 {
	xy := make([]float64, 0, 2*len(r)+2)
	for _, p := range r {
		xy = append(xy, p.X, p.Y)
	}
	return append(xy, r[0].X, r[0].Y)
}

func toGeomPolygon(p ovPoly) geom.Polygon {
	rings := [][]float64{closedXY(p.outer)}
	for _, h := range p.holes {
		rings = append(rings, closedXY(h))
	}
	return geom.NewPolygonXY(rings...)
}

func toGeom(polys []ovPoly) geom.Geometry {
	if len(polys) == 1 {
		return toGeomPolygon(polys[0]).AsGeometry()
	}
	gp := make([]geom.Polygon, len(polys))
	for i, p := range polys {
		gp[i] = toGeomPolygon(p)
	}
	return geom.NewMultiPolygon(gp).AsGeometry()
}

// polysFromGeom reads the polygons of a library result, dropping lower-dimensional parts
// (an intersection of shapes that only touch) and normalising ring orientation, which the
// library does not guarantee.
func polysFromGeom(g geom.Geometry) []ovPoly {
	var out []ovPoly
	ring := func(ls geom.LineString, ccw bool) []Vec {
		seq := ls.Coordinates()
		r := make([]Vec, 0, seq.Length())
		for i := range seq.Length() {
			xy := seq.GetXY(i)
			r = append(r, Vec{xy.X, xy.Y})
		}
		r = cleanRing(r)
		if len(r) < 3 || ringArea(r) == 0 {
			return nil
		}
		return orientRing(r, ccw)
	}
	addPoly := func(p geom.Polygon) {
		if p.IsEmpty() {
			return
		}
		outer := ring(p.ExteriorRing(), true)
		if outer == nil {
			return
		}
		q := ovPoly{outer: outer}
		for i := range p.NumInteriorRings() {
			if h := ring(p.InteriorRingN(i), false); h != nil {
				q.holes = append(q.holes, h)
			}
		}
		out = append(out, q)
	}
	var walk func(geom.Geometry)
	walk = func(g geom.Geometry) {
		if p, ok := g.AsPolygon(); ok {
			addPoly(p)
		} else if mp, ok := g.AsMultiPolygon(); ok {
			for i := range mp.NumPolygons() {
				addPoly(mp.PolygonN(i))
			}
		} else if gc, ok := g.AsGeometryCollection(); ok {
			for i := range gc.NumGeometries() {
				walk(gc.GeometryN(i))
			}
		}
	}
	walk(g)
	return out
}

// geomUnion unions polygons that may overlap; each is first made a valid library polygon
// (outer minus holes), since holes here need not lie inside their outer ring.
func geomUnion(polys []ovPoly) (geom.Geometry, error) {
	gs := make([]geom.Geometry, 0, len(polys))
	for _, p := range polys {
		g := toGeomPolygon(ovPoly{outer: p.outer}).AsGeometry()
		if len(p.holes) > 0 {
			hs := make([]geom.Geometry, len(p.holes))
			for i, h := range p.holes {
				hs[i] = toGeomPolygon(ovPoly{outer: h}).AsGeometry()
			}
			holes, err := geom.UnionMany(hs)
			if err != nil {
				return geom.Geometry{}, err
			}
			if g, err = geom.Difference(g, holes); err != nil {
				return geom.Geometry{}, err
			}
		}
		gs = append(gs, g)
	}
	return geom.UnionMany(gs)
}

func booleanFallback(op BoolOp, pa, pb []ovPoly) ([]ovPoly, error) {
	a, err := geomUnion(pa)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	b, err := geomUnion(pb)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	var r geom.Geometry
	switch op {
	case Union:
		r, err = geom.Union(a, b)
	case Difference:
		r, err = geom.Difference(a, b)
	case Intersect:
		r, err = geom.Intersection(a, b)
	default:
		r, err = geom.SymmetricDifference(a, b)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	return polysFromGeom(r), nil
}

// nonzeroFallback approximates the nonzero fill with the library: rings wound like the
// largest one are unioned, the others unioned and subtracted. (It misses an island inside a
// hole, which the engine gets right; it only runs when the engine fails.)
func nonzeroFallback(rings [][]Vec) ([]ovPoly, error) {
	largest, sign := 0.0, 1.0
	for _, r := range rings {
		if a := ringArea(r); math.Abs(a) > largest {
			largest, sign = math.Abs(a), math.Copysign(1, a)
		}
	}
	var pos, neg []ovPoly
	for _, r := range rings {
		if ringArea(r)*sign > 0 {
			pos = append(pos, ovPoly{outer: orientRing(r, true)})
		} else {
			neg = append(neg, ovPoly{outer: orientRing(r, true)})
		}
	}
	return booleanFallback(Difference, pos, neg)
}

func offsetFallback(area []ovPoly, delta float64, join joinSpec) ([]ovPoly, error) {
	opts := []geom.BufferOption{geom.BufferQuadSegments(offsetQuadSegments(math.Abs(delta), areaExtent(area)))}
	if join.round {
		opts = append(opts, geom.BufferJoinStyleRound())
	} else {
		opts = append(opts, geom.BufferJoinStyleMitre(join.limit))
	}
	r, err := geom.Buffer(toGeom(area), delta, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	return polysFromGeom(r), nil
}
