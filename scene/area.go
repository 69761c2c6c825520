package scene

// From entities to areas: world-coordinate polygons of shapes, groups, paths and text, in the
// overlay engine's points, and the checks on their rings.

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// areaOf is the area of one entity as non-overlapping polygons.
func (s *Scene) areaOf(name string) ([]overlay.Polygon, error) {
	return s.areaWithArcs(name, nil)
}

// areaWithArcs is areaOf recording the circular arcs the area was flattened from in src (when
// not nil), so that a result drawn from it keeps them (arcfit.go).
func (s *Scene) areaWithArcs(name string, src *arcSources) ([]overlay.Polygon, error) {
	polys, err := s.collectAreas([]string{name}, src)
	if err != nil {
		return nil, err
	}
	if len(polys) <= 1 {
		return polys, nil
	}
	return booleanPolys(Union, polys, nil)
}

// collectAreas gathers the polygons of the named entities in world coordinates, and the arcs
// they were flattened from in src when it is not nil. Polygons of different entities (or
// parts) may overlap; the operation that uses them unions them.
func (s *Scene) collectAreas(names []string, src *arcSources) ([]overlay.Polygon, error) {
	out := make([]overlay.Polygon, 0, len(names)) // one each, most often
	for _, n := range names {
		e, err := s.Get(n)
		if err != nil {
			return nil, err
		}
		if out, err = s.collect(e, s.WorldMatrix(e), out, src); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Scene) collect(e *Entity, m geom.Affine, out []overlay.Polygon, src *arcSources) ([]overlay.Polygon, error) {
	if e.IsGroup() {
		for c := range e.children.all() {
			var err error
			if out, err = s.collect(c, m.Mul(c.Transform.Matrix()), out, src); err != nil {
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
	// A polygon with arc edges is read through its outline, as curved shapes are: outer
	// rings run counter-clockwise and holes clockwise, so its nonzero fill is its area.
	if pg != nil && !pg.HasArcs() {
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
			p := overlay.Polygon{Outer: overlay.OrientRing(outer, true)}
			for _, h := range part.Holes {
				hole, err := worldRing(e, h, m)
				if err != nil {
					return nil, err
				}
				if len(hole) > 0 {
					p.Holes = append(p.Holes, overlay.OrientRing(hole, false))
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
	if pg != nil {
		return s.collectArcPolygon(e, path, m, out, src)
	}
	var rings [][]overlay.Point
	world := path.Transform(m)
	// The arcs are recorded at the tolerance Flatten will use (MaxFlattenPoints).
	tol := world.BudgetTolerance(curveTolerance(world.Bounds()), geom.MaxFlattenPoints)
	src.addPath(world, tol)
	for _, pl := range world.Flatten(tol) {
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
		return append(out, overlay.Polygon{Outer: overlay.OrientRing(rings[0], true)}), nil
	}
	// Several subpaths (text, compound paths) fill by the nonzero rule, as they are drawn.
	polys, err := overlay.Nonzero(rings)
	if err != nil {
		return nil, fmt.Errorf("filling %s %q: %w", e.Kind(), e.Name, err)
	}
	return append(out, polys...), nil
}

// collectArcPolygon adds the area of a polygon with arc edges, whose outline is path. Its
// rings are simple as arcs, but where two arcs meet in a thin cusp (an inset's spike between
// two round joins) their chords may cross: the rings are filled as the engine fills raw
// offset curves, by the positive winding of rings that may cross themselves, which is the
// polygon's area (outer rings run counter-clockwise, holes clockwise).
func (s *Scene) collectArcPolygon(e *Entity, path geom.Path, m geom.Affine, out []overlay.Polygon, src *arcSources) ([]overlay.Polygon, error) {
	world := path.Transform(m)
	// The arcs are recorded at the tolerance Flatten will use (MaxFlattenPoints).
	tol := world.BudgetTolerance(curveTolerance(world.Bounds()), geom.MaxFlattenPoints)
	src.addPath(world, tol)
	var rings []overlay.Ring
	for _, pl := range world.Flatten(tol) {
		if err := worldInRange(e, pl.Points); err != nil {
			return nil, err
		}
		if r := cleanRing(pl.Points); len(r) >= 3 {
			rings = append(rings, overlay.Ring{Points: r, SelfCrossing: true})
		}
	}
	polys, err := overlay.Overlay(rings, func(w, _ int32) bool { return w > 0 })
	if err != nil {
		return nil, fmt.Errorf("filling %s %q: %w", e.Kind(), e.Name, err)
	}
	return append(out, polys...), nil
}

// CurveRelative is the flattening tolerance of curves in area operations relative to the
// shape's size (the larger side of its world bounds); it is never coarser than
// DefaultTolerance. A circle drawn in metres is then flattened as finely as the same circle
// in millimetres.
const CurveRelative = 1e-3

func curveTolerance(b geom.Box) float64 {
	size := max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
	if !(size > 0) {
		return geom.DefaultTolerance
	}
	return min(geom.DefaultTolerance, size*CurveRelative)
}

// worldRing maps a polygon ring to world coordinates and checks it. It is worldInRange,
// cleanRing and checkedRing in one pass over the points, without the intermediate copy.
func worldRing(e *Entity, r []geom.Vec, m geom.Affine) ([]overlay.Point, error) {
	out := make([]overlay.Point, 0, len(r))
	for _, v := range r {
		p := overlay.Point(m.Apply(v))
		if !(math.Abs(p.X) <= MaxCoord && math.Abs(p.Y) <= MaxCoord) {
			return nil, fmt.Errorf("%s %q: %w", e.Kind(), e.Name, inRange("its world coordinate", p.X, p.Y))
		}
		if len(out) > 0 && nearlyEqual(out[len(out)-1], p) {
			continue
		}
		out = append(out, p)
	}
	for len(out) > 1 && nearlyEqual(out[len(out)-1], out[0]) {
		out = out[:len(out)-1]
	}
	return checkedRing(e, out)
}

// worldInRange refuses world coordinates that transforms carried outside ±MaxCoord.
func worldInRange(e *Entity, pts []geom.Vec) error {
	for _, p := range pts {
		if !(math.Abs(p.X) <= MaxCoord && math.Abs(p.Y) <= MaxCoord) {
			return fmt.Errorf("%s %q: %w", e.Kind(), e.Name, inRange("its world coordinate", p.X, p.Y))
		}
	}
	return nil
}

// cleanRing drops repeated points (and points within a rounding error of their neighbour,
// such as the end of a full arc) and the closing point, returning the engine's points.
func cleanRing(r []geom.Vec) []overlay.Point {
	out := make([]overlay.Point, 0, len(r))
	for _, p := range r {
		if len(out) > 0 && nearlyEqual(out[len(out)-1], overlay.Point(p)) {
			continue
		}
		out = append(out, overlay.Point(p))
	}
	for len(out) > 1 && nearlyEqual(out[len(out)-1], out[0]) {
		out = out[:len(out)-1]
	}
	return out
}

func nearlyEqual(a, b overlay.Point) bool {
	const eps = 1e-12
	scale := max(math.Abs(a.X), math.Abs(a.Y))
	return math.Abs(a.X-b.X) <= eps*scale && math.Abs(a.Y-b.Y) <= eps*scale
}

// checkedRing returns r if it is simple, nil if all its points lie on one line (a degenerate
// subpath adds nothing under any fill rule), and an ErrSelfIntersecting error naming where it
// crosses or touches itself otherwise. The place named is the exact crossing; the library's
// Validate would name the ring's first vertex, which is rarely where the problem is.
func checkedRing(e *Entity, r []overlay.Point) ([]overlay.Point, error) {
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

func collinearRing(r []overlay.Point) bool {
	for _, p := range r[2:] {
		if overlay.Orient(r[0], r[1], p) != 0 {
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
func selfCrossing(r []overlay.Point) (overlay.Point, bool) {
	if strictlyConvex(r) {
		return overlay.Point{}, false
	}
	n := len(r)
	edge := func(i int) (overlay.Point, overlay.Point) { return r[i], r[(i+1)%n] }
	test := func(i, j int) (overlay.Point, bool) {
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
			if overlay.Orient(x, s, y) == 0 && (x.X-s.X)*(y.X-s.X)+(x.Y-s.Y)*(y.Y-s.Y) > 0 {
				return s, true
			}
			return overlay.Point{}, false
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
	return overlay.Point{}, false
}

// strictlyConvex reports whether r turns the same way, never straight, at every vertex and
// goes round once: then it is a convex polygon, simple, and selfCrossing has nothing to find.
// Most rings are (circles, rectangles, regular polygons), and the test is one orientation per
// vertex instead of a sweep. Going round once is counted exactly: the edges' y-directions,
// zeros skipped, change sign twice per turn, since each turn is less than a half-turn.
func strictlyConvex(r []overlay.Point) bool {
	n := len(r)
	if n < 3 {
		return false
	}
	var turn float64
	changes, last := 0, 0
	for i := range n {
		a, b, c := r[(i+n-1)%n], r[i], r[(i+1)%n]
		o := overlay.Orient(a, b, c)
		if o == 0 || (turn != 0 && (o > 0) != (turn > 0)) {
			return false
		}
		turn = o
		// A difference of floats is 0 only when they are equal, so its sign is exact.
		dir := 0
		if dy := c.Y - b.Y; dy > 0 {
			dir = 1
		} else if dy < 0 {
			dir = -1
		}
		if dir != 0 {
			if last != 0 && dir != last {
				changes++
			}
			last = dir
		}
	}
	// The cyclic sequence closes: the first nonzero direction against the last.
	for i := range n {
		if dy := r[(i+1)%n].Y - r[i].Y; dy != 0 {
			if (dy > 0) != (last > 0) {
				changes++
			}
			break
		}
	}
	return changes == 2
}

// segmentsMeet reports whether two segments share any point, and one such point.
func segmentsMeet(p1, p2, q1, q2 overlay.Point) (overlay.Point, bool) {
	o1, o2 := overlay.Orient(p1, p2, q1), overlay.Orient(p1, p2, q2)
	if (o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0) {
		return overlay.Point{}, false
	}
	o3, o4 := overlay.Orient(q1, q2, p1), overlay.Orient(q1, q2, p2)
	if (o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0) {
		return overlay.Point{}, false
	}
	if o1 == 0 && o2 == 0 {
		for _, c := range [][3]overlay.Point{{q1, p1, p2}, {q2, p1, p2}, {p1, q1, q2}, {p2, q1, q2}} {
			if onSegment(c[0], c[1], c[2]) {
				return c[0], true
			}
		}
		return overlay.Point{}, false
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
	return overlay.CrossPoint(p1, p2, q1, q2), true
}

// onSegment reports whether p, known to be collinear with a and b, lies on the segment ab.
func onSegment(p, a, b overlay.Point) bool {
	if a.X != b.X {
		return min(a.X, b.X) <= p.X && p.X <= max(a.X, b.X)
	}
	return min(a.Y, b.Y) <= p.Y && p.Y <= max(a.Y, b.Y)
}

func ringBox(r []overlay.Point) geom.Box {
	var b geom.Box
	for _, p := range r {
		b.Extend(geom.Vec(p))
	}
	return b
}

// sortPolys puts polygons (and each polygon's holes) in a deterministic order: by area,
// largest first, then by the lowest x, then the lowest y of the bounds.
func sortPolys(polys []overlay.Polygon) {
	for _, p := range polys {
		if len(p.Holes) > 1 {
			sortByKey(p.Holes, func(h []overlay.Point) ringKey { return keyOf(h, math.Abs(overlay.Area(h))) })
		}
	}
	sortByKey(polys, func(p overlay.Polygon) ringKey { return keyOf(p.Outer, p.Area()) })
}

type ringKey struct{ area, minX, minY float64 }

func keyOf(r []overlay.Point, area float64) ringKey {
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
