package scene

// Measuring: distances, clearances, overlaps, perimeters and centroids, answered from the
// scene in world coordinates. Distances are measured on the shapes' lines and circular arcs
// exactly (kernel/measure_arcs.go); other curves, and the areas overlaps and perimeters add
// up, are flattened as the boolean operations flatten them. The geometry is the kernel's
// (kernel.Outline and its walks); what stays here reads the entities into outlines and areas,
// chooses what each measure compares and words its answers and refusals.
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
// edge trees compares only edges about as near as the answer (kernel/measure_index.go), so the cap
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

// measured is an entity's shape in world coordinates: its outline as the kernel measures it,
// and its area.
type measured struct {
	kernel.Outline
	area   []overlay.Polygon // the closed shapes' area (members may overlap); nil when open
	length float64           // length of the open outlines
	// arcs are the circular arcs area was flattened from, so that a shared area is exact.
	arcs kernel.Arcs
	// points counts the outline points flattened so far, against maxPoints (0 means
	// MaxMeasurePoints).
	points, maxPoints int
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
	_, m.Circle = s.exactEntity(e)
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
	ringsFrom := len(out.Bound.Rings)
	out.Bound.AddPath(world, tol)
	if closed {
		if _, pie := e.Shape.(Arc); pie { // its region is the pie slice, its outline the arc
			var bd kernel.Boundary
			bd.AddPath(region.Transform(m), tol)
			out.Regions = append(out.Regions, bd.Rings)
		} else {
			out.Regions = append(out.Regions, out.Bound.Rings[ringsFrom:])
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
			out.Box.Extend(p)
		}
		out.Lines = append(out.Lines, pts)
		if !closed {
			out.length += kernel.PolylineLength(pts)
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
	if len(ma.Lines) == 0 || len(mb.Lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to %q: %w: %s draws nothing to measure from", a, b, ErrEmptyResult, quoteNames(emptyOf(a, ma, b, mb)))
	}
	return gapBetween(a, ma, b, mb, MaxMeasurePairs)
}

func emptyOf(a string, ma *measured, b string, mb *measured) []string {
	var out []string
	if len(ma.Lines) == 0 {
		out = append(out, a)
	}
	if len(mb.Lines) == 0 && b != a {
		out = append(out, b)
	}
	return out
}

// gapBetween is the distance between the shapes of entities an and bn, comparing at most
// maxPairs pairs of edges (kernel.Distance).
func gapBetween(an string, a *measured, bn string, b *measured, maxPairs int) (Gap, error) {
	g, err := kernel.Distance(&a.Outline, &b.Outline, maxPairs)
	if err != nil {
		return Gap{}, errPairs(an, bn, err)
	}
	return gapOf(g), nil
}

// gapOf is the kernel's gap as the scene answers it, without a name.
func gapOf(g kernel.Gap) Gap { return Gap{Distance: g.Distance, A: g.A, B: g.B} }

// errPairs words the kernel's refusal of a distance that would compare more than its cap of
// pairs of edges (kernel.PairsError) with the shapes' names.
func errPairs(a, b string, err error) error {
	var pe *kernel.PairsError
	if !errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%w: measuring %q (%d edges) to %q (%d edges) compares more than %d pairs of edges (MaxMeasurePairs): their edges lie about as near to each other as the answer everywhere; measure simpler parts of them, or decompose them first",
		ErrLimit, a, pe.EdgesA, b, pe.EdgesB, pe.MaxPairs)
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
			cands = append(cands, cand{o, kernel.BoxGap(me.Box, b)})
		}
	}
	if len(me.Lines) == 0 {
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
		if len(mo.Lines) == 0 {
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
		if b := s.WorldBounds(e); !b.NonEmpty || kernel.BoxGap(me.Box, b) > 0 {
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
		if a > 0 || kernel.ShareArea(&me.Outline, &mo.Outline, MaxMeasurePairs) {
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
			total += kernel.RingLength(p.Outer)
			for _, h := range p.Holes {
				total += kernel.RingLength(h)
			}
		}
	}
	return total, nil
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
				a, c := kernel.RingMoment(r)
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
	for _, l := range m.Lines {
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
	if m.Circle == nil && len(m.Lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to a point: %w: it draws nothing to measure from", name, ErrEmptyResult)
	}
	return gapOf(m.ToPoint(p)), nil
}

// dot is the dot product of a and b: the dimensions' layout projects onto their lines with it.
func dot(a, b geom.Vec) float64 { return a.X*b.X + a.Y*b.Y }
