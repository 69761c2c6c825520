package kernel

// Rings in, rings checked: the cleaning and the simplicity test every ring passes on its way
// to the overlay engine, and the order results are read in. A ring here is closed without
// repeating its first point, in world coordinates.

import (
	"cmp"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// CleanRing drops repeated points (and points within a rounding error of their neighbour,
// such as the end of a full arc) and the closing point, returning the engine's points.
func CleanRing(r []geom.Vec) []overlay.Point {
	out := make([]overlay.Point, 0, len(r))
	for _, p := range r {
		if len(out) > 0 && NearlyEqual(out[len(out)-1], overlay.Point(p)) {
			continue
		}
		out = append(out, overlay.Point(p))
	}
	for len(out) > 1 && NearlyEqual(out[len(out)-1], out[0]) {
		out = out[:len(out)-1]
	}
	return out
}

// NearlyEqual reports whether two points are one within a rounding error of their size
// (1e-12 relative): the end of a full arc and its start, a ring's closing point.
func NearlyEqual(a, b overlay.Point) bool {
	const eps = 1e-12
	scale := max(math.Abs(a.X), math.Abs(a.Y))
	return math.Abs(a.X-b.X) <= eps*scale && math.Abs(a.Y-b.Y) <= eps*scale
}

// CollinearRing reports whether all the points of r (at least three) lie on one line: such
// a ring encloses nothing under any fill rule.
func CollinearRing(r []overlay.Point) bool {
	for _, p := range r[2:] {
		if overlay.Orient(r[0], r[1], p) != 0 {
			return false
		}
	}
	return true
}

// SelfCrossing reports whether a ring crosses or touches itself and where: non-adjacent
// edges must not meet at all, adjacent edges only at their shared vertex.
func SelfCrossing(r []overlay.Point) (overlay.Point, bool) {
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
// goes round once: then it is a convex polygon, simple, and SelfCrossing has nothing to find.
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

// SortPolys puts polygons (and each polygon's holes) in a deterministic order: by area,
// largest first, then by the lowest x, then the lowest y of the bounds.
func SortPolys(polys []overlay.Polygon) {
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
