package scene

// From entities to areas: world-coordinate polygons of shapes, groups, paths and text, the
// checks on their rings, and the exact predicates and ring measures the engine shares.

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
)

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
