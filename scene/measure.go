package scene

// Measuring: distances, clearances, overlaps, perimeters and centroids, answered from the
// scene in world coordinates. Distances are measured on the shapes' lines and circular arcs
// exactly (measure_arcs.go); other curves, and the areas overlaps and perimeters add up, are
// flattened as the boolean operations flatten them.
//
// A group is measured as the union of its members: their closed shapes make its area, and
// the outlines of its open members (lines, arcs) are part of its shape too.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// MaxMeasureResults caps the lists Clearance and Overlaps answer; the count of everything
// found comes with them.
const MaxMeasureResults = 100

// MaxMeasurePairs caps the pairs of edges one distance compares. The walk of the two shapes'
// edge trees compares only edges about as near as the answer (measure_index.go), so the cap
// is reached only by shapes whose edges are everywhere that near; it keeps such a measure
// under a second.
const MaxMeasurePairs = 10_000_000

// MaxMeasurePoints caps the points of outline one measure flattens, all its shapes together
// (a group's members each up to MaxFlattenPoints), counted from their segments before any
// point is made: about 100 bytes of edges and polylines a point.
const MaxMeasurePoints = 4_000_000

// Gap is the distance between two shapes and their closest points: A on the first, B on the
// second. Distance is 0 when the shapes touch or overlap (or one lies inside the other); A and
// B are then one point they share.
type Gap struct {
	Name     string   `json:"name,omitempty"`
	Distance float64  `json:"distance"`
	A        geom.Vec `json:"a"`
	B        geom.Vec `json:"b"`
}

// Overlap is another entity that shares area with the measured one.
type Overlap struct {
	Name string  `json:"name"`
	Area float64 `json:"area"`
}

// measured is an entity's shape in world coordinates.
type measured struct {
	lines  [][]geom.Vec      // outlines as polylines; a closed one repeats its first point at the end
	area   []overlay.Polygon // the closed shapes' area (members may overlap); nil when open
	length float64           // length of the open outlines
	bound  boundary          // the outlines as lines and arcs, for distances
	// regions holds each closed shape's region as rings of lines and arcs, for inside
	// tests; each fills by the nonzero rule.
	regions [][][]edge
	// arcs are the circular arcs area was flattened from, so that a shared area is exact.
	arcs   kernel.Arcs
	circle *circleShape
	box    geom.Box
	tree   *edgeTree // built on first use
	// points counts the outline points flattened so far, against maxPoints (0 means
	// MaxMeasurePoints).
	points, maxPoints int
}

type circleShape struct {
	c geom.Vec
	r float64
}

// measure reads the named entity's shape for measuring.
func (s *Scene) measure(name string) (*measured, error) {
	e, err := s.Get(name)
	if err != nil {
		return nil, err
	}
	m := &measured{}
	if err := s.measureInto(e, s.WorldMatrix(e), m); err != nil {
		return nil, err
	}
	_, m.circle = s.exactEntity(e)
	return m, nil
}

func (s *Scene) measureInto(e *Entity, m geom.Affine, out *measured) error {
	if e.IsGroup() {
		for c := range e.children.all() {
			if isNote(c) {
				continue
			}
			if err := s.measureInto(c, m.Mul(c.Transform.Matrix()), out); err != nil {
				return fmt.Errorf("reading group %q: %w", e.Name, err)
			}
		}
		return nil
	}
	world := AppendOutline(nil, e.Shape, m)
	b := world.Bounds()
	// addPath flattens a segment at a time: the path's point budget is taken here, for
	// the whole outline (MaxFlattenPoints).
	tol := world.BudgetTolerance(curveTolerance(b), geom.MaxFlattenPoints)
	limit := cmp.Or(out.maxPoints, MaxMeasurePoints)
	if out.points += world.FlattenPoints(tol); out.points > limit {
		return fmt.Errorf("%w: measuring %s %q flattens more than %d points of outline (MaxMeasurePoints); measure its parts one at a time, or simplify its curves",
			ErrLimit, e.Kind(), e.Name, limit)
	}
	closed := true
	region, err := e.Shape.Region()
	if err != nil {
		if !errors.Is(err, ErrNotClosed) {
			return fmt.Errorf("%s %q: %w", e.Kind(), e.Name, err)
		}
		closed = false
	}
	ringsFrom := len(out.bound.rings)
	out.bound.addPath(world, tol)
	if closed {
		if _, pie := e.Shape.(Arc); pie { // its region is the pie slice, its outline the arc
			var bd boundary
			bd.addPath(region.Transform(m), tol)
			out.regions = append(out.regions, bd.rings)
		} else {
			out.regions = append(out.regions, out.bound.rings[ringsFrom:])
		}
	}
	for _, pl := range world.Flatten(tol) {
		if err := worldInRange(e, pl.Points); err != nil {
			return err
		}
		pts := pl.Points
		if pl.Closed && len(pts) > 0 && pts[len(pts)-1] != pts[0] {
			pts = append(slices.Clone(pts), pts[0])
		}
		for _, p := range pts {
			out.box.Extend(p)
		}
		out.lines = append(out.lines, pts)
		if !closed {
			out.length += polylineLength(pts)
		}
	}
	if closed {
		var err error
		if out.area, err = s.collect(e, m, out.area, &out.arcs); err != nil {
			return err
		}
	}
	return nil
}

func polylineLength(pts []geom.Vec) float64 {
	l := 0.0
	for i := 1; i < len(pts); i++ {
		l += pts[i].Sub(pts[i-1]).Len()
	}
	return l
}

// Distance is the smallest distance between the shapes of entities a and b in world units,
// with the closest points. Closed shapes count with their insides: a shape inside another, or
// overlapping it, is at distance 0.
func (s *Scene) Distance(a, b string) (Gap, error) {
	ma, err := s.measure(a)
	if err != nil {
		return Gap{}, err
	}
	mb, err := s.measure(b)
	if err != nil {
		return Gap{}, err
	}
	if len(ma.lines) == 0 || len(mb.lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to %q: %w: %s draws nothing to measure from", a, b, ErrEmptyResult, quoteNames(emptyOf(a, ma, b, mb)))
	}
	return gapBetween(a, ma, b, mb, MaxMeasurePairs)
}

func emptyOf(a string, ma *measured, b string, mb *measured) []string {
	var out []string
	if len(ma.lines) == 0 {
		out = append(out, a)
	}
	if len(mb.lines) == 0 && b != a {
		out = append(out, b)
	}
	return out
}

// gapBetween is the distance between the shapes of entities an and bn, comparing at most
// maxPairs pairs of edges (an exact circle is measured in linear time, without the cap).
func gapBetween(an string, a *measured, bn string, b *measured, maxPairs int) (Gap, error) {
	switch {
	case a.circle != nil && b.circle != nil:
		d := b.circle.c.Sub(a.circle.c)
		l := d.Len()
		if l <= a.circle.r+b.circle.r || l == 0 {
			p := a.circle.c.Add(d.Mul(a.circle.r / max(l, a.circle.r+b.circle.r)))
			if l < math.Abs(a.circle.r-b.circle.r) || l == 0 {
				p = a.circle.c // one inside the other: its centre is in both
				if b.circle.r < a.circle.r {
					p = b.circle.c
				}
			}
			return Gap{A: p, B: p}, nil
		}
		u := d.Mul(1 / l)
		return Gap{Distance: l - a.circle.r - b.circle.r, A: a.circle.c.Add(u.Mul(a.circle.r)), B: b.circle.c.Sub(u.Mul(b.circle.r))}, nil
	}
	w := &edgeWalk{a: a.edgeTree(), b: b.edgeTree(), maxPairs: maxPairs}
	if len(w.a.edges) == 0 || len(w.b.edges) == 0 {
		return pointGap(a, b), nil
	}
	if boxGap(a.box, b.box) == 0 {
		if !w.meet(0, 0) {
			return Gap{}, w.errPairs(an, bn)
		}
		if w.found {
			return w.best, nil
		}
		if p, ok := inEachOther(a, b); ok {
			return Gap{A: p, B: p}, nil
		}
		w.pairs = 0
	}
	if !w.nearest(0, 0) {
		return Gap{}, w.errPairs(an, bn)
	}
	return w.best, nil
}

// pointGap measures shapes of which one has no edges (an outline of a single point), the
// plain way: there are few of them.
func pointGap(a, b *measured) Gap {
	best := Gap{Distance: math.Inf(1)}
	each := func(l []geom.Vec, f func(p, q geom.Vec)) {
		if len(l) == 1 {
			f(l[0], l[0])
		}
		for i := 1; i < len(l); i++ {
			f(l[i-1], l[i])
		}
	}
	for _, la := range a.lines {
		for _, lb := range b.lines {
			each(la, func(p1, p2 geom.Vec) {
				each(lb, func(q1, q2 geom.Vec) {
					if d, pa, pb := segmentGap(p1, p2, q1, q2); d < best.Distance {
						best = Gap{Distance: d, A: pa, B: pb}
					}
				})
			})
		}
	}
	return best
}

// inEachOther finds a point two shapes whose outlines do not meet share: the start of an
// outline of one inside the other's area.
func inEachOther(a, b *measured) (geom.Vec, bool) {
	for _, pair := range [2][2]*measured{{a, b}, {b, a}} {
		for _, p := range pair[0].bound.starts {
			if pair[1].insideRegion(p) {
				return p, true
			}
		}
	}
	return geom.Vec{}, false
}

func closestOnSegment(p, a, b geom.Vec) geom.Vec {
	d := b.Sub(a)
	l2 := d.X*d.X + d.Y*d.Y
	if l2 == 0 {
		return a
	}
	t := ((p.X-a.X)*d.X + (p.Y-a.Y)*d.Y) / l2
	return a.Add(d.Mul(min(max(t, 0), 1)))
}

// segmentGap is the distance between segments that do not meet, and their closest points.
func segmentGap(a1, a2, b1, b2 geom.Vec) (float64, geom.Vec, geom.Vec) {
	best, pa, pb := math.Inf(1), geom.Vec{}, geom.Vec{}
	try := func(x, y geom.Vec) {
		if d := y.Sub(x).Len(); d < best {
			best, pa, pb = d, x, y
		}
	}
	try(a1, closestOnSegment(a1, b1, b2))
	try(a2, closestOnSegment(a2, b1, b2))
	try(closestOnSegment(b1, a1, a2), b1)
	try(closestOnSegment(b2, a1, a2), b2)
	return best, pa, pb
}

// boxGap is a lower bound of the distance between shapes in the two boxes.
func boxGap(a, b geom.Box) float64 {
	dx := max(a.Min.X-b.Max.X, b.Min.X-a.Max.X, 0)
	dy := max(a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y, 0)
	return math.Hypot(dx, dy)
}

// othersOf lists the shapes (not groups) outside the named entity's own subtree, in z order.
func (s *Scene) othersOf(name string) []string {
	var out []string
	for _, e := range s.Walk() {
		if e.IsGroup() || e.Name == name || s.within(e, name) || e.Kind() == KindSolid {
			continue
		}
		out = append(out, e.Name)
	}
	return out
}

// OtherSolids lists the solids outside the named entity, in Walk order: what a solid's
// clearance and overlaps are measured against, as othersOf lists a shape's.
func (s *Scene) OtherSolids(name string) []string {
	var out []string
	for _, e := range s.Walk() {
		if e.Kind() == KindSolid && e.Name != name && !s.within(e, name) {
			out = append(out, e.Name)
		}
	}
	return out
}

// within reports whether e sits (at any depth) in the group named group.
func (s *Scene) within(e *Entity, group string) bool {
	for p := e.parent; p != nil; p = p.parent {
		if p.Name == group {
			return true
		}
	}
	return false
}

// Clearance is the smallest gaps between the named entity and others (every shape outside it
// when others is nil; none when it is an empty list), nearest first, at most limit of them
// (1..MaxMeasureResults), and the number of entities measured. The list is never nil.
func (s *Scene) Clearance(name string, others []string, limit int) ([]Gap, int, error) {
	if limit < 1 || limit > MaxMeasureResults {
		return nil, 0, fmt.Errorf("%w: clearance limit %d is out of range; give 1 to %d", ErrLimit, limit, MaxMeasureResults)
	}
	me, err := s.measure(name)
	if err != nil {
		return nil, 0, err
	}
	if others == nil {
		others = s.othersOf(name)
	}
	type cand struct {
		name string
		lb   float64
	}
	cands := make([]cand, 0, len(others))
	for _, o := range others {
		if o == name {
			return nil, 0, fmt.Errorf("%w: clearance of %q against itself; leave it out of the list", ErrBadOption, name)
		}
		e, err := s.Get(o)
		if err != nil {
			return nil, 0, err
		}
		// The exact world bounds hold every point of the flattened shape: their gap to the
		// entity's is a lower bound of the distance, found without flattening anything.
		if b := s.WorldBounds(e); b.NonEmpty {
			cands = append(cands, cand{o, boxGap(me.box, b)})
		}
	}
	if len(me.lines) == 0 {
		return nil, len(cands), fmt.Errorf("clearance of %q: %w: it draws nothing to measure from", name, ErrEmptyResult)
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.lb, b.lb) })
	gaps := []Gap{}
	for _, c := range cands {
		// Once the list is full and the next lower bound is farther than its last entry, no
		// later shape can come nearer.
		if len(gaps) == limit && c.lb > gaps[len(gaps)-1].Distance {
			break
		}
		mo, err := s.measure(c.name)
		if err != nil {
			return nil, 0, err
		}
		if len(mo.lines) == 0 {
			continue
		}
		g, err := gapBetween(name, me, c.name, mo, MaxMeasurePairs)
		if err != nil {
			return nil, 0, err
		}
		g.Name = c.name
		i, _ := slices.BinarySearchFunc(gaps, g, func(x, y Gap) int {
			if x.Distance <= y.Distance {
				return -1
			}
			return 1
		})
		gaps = slices.Insert(gaps, i, g)
		if len(gaps) > limit {
			gaps = gaps[:limit]
		}
	}
	return gaps, len(cands), nil
}

// Overlaps lists the shapes outside the named entity that share area with it, with the area
// they share, largest first, at most MaxMeasureResults of them, and how many there are. Only
// closed shapes have area: open lines crossing it are not listed (Clearance finds them at 0).
// The areas are those of the flattened shapes; a shape that shares area with it only on the
// exact arcs, less than the flattening resolves, is listed with the area 0.
// The list is never nil: nothing overlapping is an empty list.
func (s *Scene) Overlaps(name string) ([]Overlap, int, error) {
	me, err := s.measure(name)
	if err != nil {
		return nil, 0, err
	}
	if len(me.area) == 0 {
		return nil, 0, fmt.Errorf("overlaps of %q: %w: it encloses no area; use clearance for open shapes", name, ErrEmptyResult)
	}
	out := []Overlap{}
	for _, o := range s.othersOf(name) {
		e, err := s.Get(o)
		if err != nil {
			return nil, 0, err
		}
		if b := s.WorldBounds(e); !b.NonEmpty || boxGap(me.box, b) > 0 {
			continue
		}
		mo, err := s.measure(o)
		if err != nil {
			return nil, 0, err
		}
		if len(mo.area) == 0 {
			continue
		}
		res, err := kernel.Boolean(overlay.OpIntersect, me.area, mo.area)
		if err != nil {
			return nil, 0, fmt.Errorf("intersecting %q with %q: %w", name, o, err)
		}
		a := sharedArea(res, me, mo)
		// The flattened overlay misses an overlap thinner than its chords' sag; the exact
		// boundaries find it, and it is listed with the area 0 the overlay resolves.
		if a > 0 || shareArea(me, mo, MaxMeasurePairs) {
			out = append(out, Overlap{o, a})
		}
	}
	slices.SortStableFunc(out, func(x, y Overlap) int { return cmp.Compare(y.Area, x.Area) })
	n := len(out)
	if len(out) > MaxMeasureResults {
		out = out[:MaxMeasureResults]
	}
	return out, n, nil
}

// sharedArea is the area of the intersection res of two measured shapes, its chords on their
// circles' arcs made arcs again (kernel.FittedArea), so that the overlap of circles is exact.
func sharedArea(res []overlay.Polygon, a, b *measured) float64 {
	return kernel.FittedArea(res, &a.arcs, &b.arcs, max(kernel.AreaExtent(a.area), kernel.AreaExtent(b.area)))
}

// Perimeter is the length of the entity's boundary in world units: for a closed shape, its
// area's boundary (holes included); for an open one, its length; for a group, the boundary of
// the union of its closed members plus the length of its open ones.
func (s *Scene) Perimeter(name string) (float64, error) {
	if ex := s.exactNamed(name); ex != nil && ex.perimeterKnown {
		return ex.perimeter, nil
	}
	m, err := s.measure(name)
	if err != nil {
		return 0, err
	}
	total := m.length
	if len(m.area) > 0 {
		area, err := kernel.Boolean(overlay.OpUnion, m.area, nil)
		if err != nil {
			return 0, fmt.Errorf("perimeter of %q: %w", name, err)
		}
		for _, p := range area {
			total += ringLength(p.Outer)
			for _, h := range p.Holes {
				total += ringLength(h)
			}
		}
	}
	return total, nil
}

func ringLength(r []overlay.Point) float64 {
	if len(r) < 2 {
		return 0
	}
	l := 0.0
	for i := 1; i < len(r); i++ {
		l += r[i].Sub(r[i-1]).Len()
	}
	return l + r[0].Sub(r[len(r)-1]).Len()
}

// Centroid is the entity's centre of mass in world coordinates: area-weighted over its closed
// shapes (a group: the union of its members' areas); for shapes that enclose no area,
// length-weighted over their outlines.
func (s *Scene) Centroid(name string) (geom.Vec, error) {
	if ex := s.exactNamed(name); ex != nil {
		return ex.centroid, nil
	}
	m, err := s.measure(name)
	if err != nil {
		return geom.Vec{}, err
	}
	if len(m.area) > 0 {
		area, err := kernel.Boolean(overlay.OpUnion, m.area, nil)
		if err != nil {
			return geom.Vec{}, fmt.Errorf("centroid of %q: %w", name, err)
		}
		var sum geom.Vec
		total := 0.0
		for _, p := range area {
			for k, r := range append([][]overlay.Point{p.Outer}, p.Holes...) {
				a, c := ringMoment(r)
				if k > 0 {
					a = -math.Abs(a)
				} else {
					a = math.Abs(a)
				}
				sum = sum.Add(c.Mul(a))
				total += a
			}
		}
		if total > 0 {
			return sum.Mul(1 / total), nil
		}
	}
	var sum geom.Vec
	total := 0.0
	for _, l := range m.lines {
		for i := 1; i < len(l); i++ {
			d := l[i].Sub(l[i-1]).Len()
			sum = sum.Add(l[i].Add(l[i-1]).Mul(d / 2))
			total += d
		}
	}
	if total == 0 {
		return geom.Vec{}, fmt.Errorf("centroid of %q: %w: it has no area and no length", name, ErrEmptyResult)
	}
	return sum.Mul(1 / total), nil
}

// ringMoment is a ring's unsigned area and its centroid, relative to its first point for
// precision far from the origin.
func ringMoment(r []overlay.Point) (float64, geom.Vec) {
	o := r[0]
	a, cx, cy := 0.0, 0.0, 0.0
	for i := 1; i+1 < len(r); i++ {
		p, q := r[i].Sub(o), r[i+1].Sub(o)
		cr := p.X*q.Y - q.X*p.Y
		a += cr
		cx += (p.X + q.X) * cr
		cy += (p.Y + q.Y) * cr
	}
	if a == 0 {
		return 0, geom.Vec(o)
	}
	return math.Abs(a / 2), geom.Vec{X: o.X + cx/(3*a), Y: o.Y + cy/(3*a)}
}

// DistanceToPoint is the smallest distance from the named entity's shape to the world point
// p: A is the closest point of the shape, B is p. It is 0 when p lies inside a closed shape.
func (s *Scene) DistanceToPoint(name string, p geom.Vec) (Gap, error) {
	if err := inRange("the point", p.X, p.Y); err != nil {
		return Gap{}, err
	}
	m, err := s.measure(name)
	if err != nil {
		return Gap{}, err
	}
	if m.circle != nil {
		d := p.Sub(m.circle.c)
		l := d.Len()
		if l <= m.circle.r {
			return Gap{A: p, B: p}, nil
		}
		return Gap{Distance: l - m.circle.r, A: m.circle.c.Add(d.Mul(m.circle.r / l)), B: p}, nil
	}
	if len(m.lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to a point: %w: it draws nothing to measure from", name, ErrEmptyResult)
	}
	if m.insideRegion(p) {
		return Gap{A: p, B: p}, nil
	}
	return m.nearestOnOutline(p), nil
}

// nearestOnOutline is the point of m's outline (its lines and arcs, and its lone points)
// nearest p: A on the outline, B at p.
func (m *measured) nearestOnOutline(p geom.Vec) Gap {
	best := Gap{Distance: math.Inf(1)}
	for i := range m.bound.edges {
		q := closestOnEdge(p, &m.bound.edges[i])
		if d := p.Sub(q).Len(); d < best.Distance {
			best = Gap{Distance: d, A: q, B: p}
		}
	}
	for _, l := range m.lines {
		if len(l) == 1 {
			if d := p.Sub(l[0]).Len(); d < best.Distance {
				best = Gap{Distance: d, A: l[0], B: p}
			}
		}
	}
	return best
}
