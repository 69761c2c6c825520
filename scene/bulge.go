package scene

// Bulged rings: polygon edges that are circular arcs, stored as DXF stores them. Edge i of a
// ring runs from vertex i to vertex i+1 (the last edge closes the ring); its bulge is
// tan(sweep/4), positive when the arc turns counter-clockwise (Y up), 0 for a straight edge.
// On a counter-clockwise ring a positive bulge bulges outward. A bulge is at most 1 in
// magnitude (half a turn), so a full circle is two edges.
//
// The areas, lengths and centroids here are closed forms: a ring of lines and arcs is its
// polygon of vertices plus one circular segment per arc.

import (
	"fmt"
	"iter"
	"math"
)

// MaxBulge is the largest bulge of a polygon edge: half a turn.
const MaxBulge = 1

// circArc is a circular arc: centre c, radius r, from angle a0 sweeping sweep radians
// (counter-clockwise when positive).
type circArc struct {
	c         Vec
	r         float64
	a0, sweep float64
}

// at is the point of the arc at angle a0 + t.
func (a circArc) at(t float64) Vec {
	sn, cs := math.Sincos(a.a0 + t)
	return Vec{a.c.X + a.r*cs, a.c.Y + a.r*sn}
}

// circularTolerance is how far (relative) an arc's two axis vectors may differ in length or
// from a right angle and still be taken as a circle: a turn's matrix comes out of sine and
// cosine.
const circularTolerance = 1e-12

// circleOf is an arc segment as an arc of its circle (radius the length of its first axis),
// starting at the world angle of its first point and sweeping counter-clockwise when positive,
// or false for an arc that is elliptical: axes of different lengths, or not square, beyond
// circularTolerance. Under a mirror the angle runs against the parameter.
func circleOf(s Seg) (circArc, bool) {
	u, v := s.P[1], s.P[2]
	ru, rv := u.Len(), v.Len()
	if ru == 0 || math.Abs(ru-rv) > circularTolerance*ru || math.Abs(u.X*v.X+u.Y*v.Y) > circularTolerance*ru*rv {
		return circArc{}, false
	}
	o := 1.0
	if u.X*v.Y-u.Y*v.X < 0 {
		o = -1
	}
	return circArc{c: s.P[0], r: ru, a0: math.Atan2(u.Y, u.X) + o*s.T0, sweep: o * (s.T1 - s.T0)}, true
}

// CircularSweep reports whether an arc segment traces a circle (the one test, circleOf), and
// its sweep in the world: positive counter-clockwise.
func (s Seg) CircularSweep() (float64, bool) {
	a, ok := circleOf(s)
	return a.sweep, ok
}

// HalfTurns is the one split of a circular arc of sweep radians into polyline edges (a DXF
// polyline's, an arc ring's, a fitted boolean's): the fewest equal pieces of at most half a
// turn, which keeps every bulge within ±1, and the bulge of each, tan(sweep/4n).
func HalfTurns(sweep float64) (pieces int, bulge float64) {
	pieces = max(1, int(math.Ceil(math.Abs(sweep)/math.Pi-1e-9)))
	return pieces, math.Tan(sweep / float64(4*pieces))
}

// HalfTurnPoints yields the end of each piece of the circular arc segment s split as
// HalfTurns splits its sweep (CircularSweep's), with the piece's bulge.
func (s Seg) HalfTurnPoints(sweep float64) iter.Seq2[Vec, float64] {
	return func(yield func(Vec, float64) bool) {
		n, k := HalfTurns(sweep)
		for i := 1; i <= n; i++ {
			if !yield(s.ArcPoint(s.T0+(s.T1-s.T0)*float64(i)/float64(n)), k) {
				return
			}
		}
	}
}

// edgeArc is the arc of the edge from p to q with bulge k (k != 0, p != q).
func edgeArc(p, q Vec, k float64) circArc {
	sweep := 4 * math.Atan(k)
	d := q.Sub(p)
	chord := d.Len()
	half := sweep / 2
	// The centre lies off the chord's midpoint, to the left of p→q for a counter-clockwise
	// arc of less than half a turn.
	h := chord / (2 * math.Tan(half))
	n := Vec{-d.Y / chord, d.X / chord}
	c := p.Add(q).Mul(0.5).Add(n.Mul(h))
	return circArc{c: c, r: chord / (2 * math.Abs(math.Sin(half))), a0: math.Atan2(p.Y-c.Y, p.X-c.X), sweep: sweep}
}

// bulgeOf is the bulge of edge i of a ring whose bulges may be nil (all straight).
func bulgeOf(bulges []float64, i int) float64 {
	if bulges == nil {
		return 0
	}
	return bulges[i]
}

// hasBulge reports whether any edge of the ring is an arc.
func hasBulge(bulges []float64) bool {
	for _, k := range bulges {
		if k != 0 {
			return true
		}
	}
	return false
}

// HasArcs reports whether any edge of the polygon is a circular arc.
func (g Polygon) HasArcs() bool {
	for _, part := range g.Parts {
		if part.hasArcs() {
			return true
		}
	}
	return false
}

func (part PolygonPart) hasArcs() bool {
	if hasBulge(part.OuterBulges) {
		return true
	}
	for _, b := range part.HoleBulges {
		if hasBulge(b) {
			return true
		}
	}
	return false
}

// holeBulges is the bulges of hole k, nil when straight.
func (part PolygonPart) holeBulges(k int) []float64 {
	if k < len(part.HoleBulges) {
		return part.HoleBulges[k]
	}
	return nil
}

// segmentArea is the signed area between an arc and its chord: positive for a
// counter-clockwise arc, which adds area to a counter-clockwise ring.
func (a circArc) segmentArea() float64 {
	return a.r * a.r / 2 * (a.sweep - math.Sin(a.sweep))
}

// length is the arc's length.
func (a circArc) length() float64 { return a.r * math.Abs(a.sweep) }

// segmentCentroid is the centroid of the region between the arc and its chord.
func (a circArc) segmentCentroid() Vec {
	half := a.sweep / 2
	s := math.Sin(half)
	d := 4 * a.r * s * s * s / (3 * (a.sweep - math.Sin(a.sweep)))
	return a.at(half).Sub(a.c).Mul(d / a.r).Add(a.c)
}

// bulgedArea is the signed area of a ring with bulges (counter-clockwise positive).
func bulgedArea(pts []Vec, bulges []float64) float64 {
	a, _ := bulgedMoment(pts, bulges)
	return a
}

// bulgedMoment is the signed area of a ring with bulges and its first moment (area times
// centroid), from the shoelace formula and one circular segment per arc.
func bulgedMoment(pts []Vec, bulges []float64) (float64, Vec) {
	var area float64
	var m Vec
	n := len(pts)
	if n == 0 {
		return 0, m
	}
	// Relative to the first point, so that a ring far from the origin loses no digits.
	o := pts[0]
	for i := range n {
		p, q := pts[i].Sub(o), pts[(i+1)%n].Sub(o)
		cr := p.X*q.Y - q.X*p.Y
		area += cr / 2
		m.X += (p.X + q.X) * cr / 6
		m.Y += (p.Y + q.Y) * cr / 6
		if k := bulgeOf(bulges, i); k != 0 && p != q {
			arc := edgeArc(p, q, k)
			sa := arc.segmentArea()
			area += sa
			m = m.Add(arc.segmentCentroid().Mul(sa))
		}
	}
	return area, m.Add(o.Mul(area))
}

// bulgedLength is the length of a closed ring with bulges.
func bulgedLength(pts []Vec, bulges []float64) float64 {
	total := 0.0
	n := len(pts)
	for i := range n {
		p, q := pts[i], pts[(i+1)%n]
		if k := bulgeOf(bulges, i); k != 0 && p != q {
			total += edgeArc(p, q, k).length()
		} else {
			total += q.Sub(p).Len()
		}
	}
	return total
}

// reverseBulged returns the ring traversed the other way: the vertices reversed, and the
// bulge of each edge negated and moved with it.
func reverseBulged(pts []Vec, bulges []float64) ([]Vec, []float64) {
	n := len(pts)
	rp := make([]Vec, n)
	for i, p := range pts {
		rp[n-1-i] = p
	}
	if bulges == nil {
		return rp, nil
	}
	// The edge from old i to i+1 becomes the edge from new n-2-i to n-1-i.
	rb := make([]float64, n)
	for i := range n {
		rb[(2*n-2-i)%n] = -bulges[i]
	}
	return rp, rb
}

// appendBulgedRing adds the ring to p as a closed subpath running counter-clockwise when ccw
// is set, clockwise otherwise. Consecutive arcs on one circle become one arc segment, so a
// ring that is a whole circle is one full turn (which the DXF writer makes a CIRCLE).
func appendBulgedRing(p Path, pts []Vec, bulges []float64, ccw bool) Path {
	if (bulgedArea(pts, bulges) > 0) != ccw {
		pts, bulges = reverseBulged(pts, bulges)
	}
	n := len(pts)
	if n == 0 {
		return p
	}
	start := len(p)
	p.MoveTo(pts[0])
	var open *Seg // the arc segment last added, while the next may extend it
	for i := range n {
		a, b := pts[i], pts[(i+1)%n]
		k := bulgeOf(bulges, i)
		if k == 0 || a == b {
			open = nil
			if i < n-1 {
				p.LineTo(b)
			}
			continue
		}
		arc := edgeArc(a, b, k)
		if open != nil && sameCircle(open, arc) {
			open.T1 += arc.sweep
			continue
		}
		p.ArcTo(arc.c, Vec{arc.r, 0}, Vec{0, arc.r}, arc.a0, arc.a0+arc.sweep)
		open = &p[len(p)-1]
	}
	// A ring that starts in the middle of the circle its last arc ends on is joined too.
	if first := &p[start+1]; open != nil && open != first && first.Kind == SegArc {
		last := circArc{c: open.P[0], r: open.P[1].X, a0: open.T0, sweep: open.T1 - open.T0}
		if sameCircle(first, last) {
			first.T0 -= last.sweep
			p[start].P[0] = arcPoint(*first, first.T0)
			p = p[:len(p)-1]
		}
	}
	p.Close()
	return p
}

// sameCircle reports whether arc continues segment s on the same circle.
func sameCircle(s *Seg, arc circArc) bool {
	r := s.P[1].X
	tol := 1e-12 * max(r, math.Abs(s.P[0].X), math.Abs(s.P[0].Y))
	return math.Abs(s.P[0].X-arc.c.X) <= tol && math.Abs(s.P[0].Y-arc.c.Y) <= tol && math.Abs(r-arc.r) <= tol &&
		(s.T1-s.T0)*arc.sweep > 0 && math.Abs(s.T1-s.T0+arc.sweep) <= 2*math.Pi+1e-9
}

// checkBulges checks a ring's bulges against its vertices: one per edge, finite, at most
// MaxBulge, and none on an edge of zero length.
func checkBulges(what string, pts []Vec, bulges []float64) error {
	if bulges == nil {
		return nil
	}
	if len(bulges) != len(pts) {
		return fmt.Errorf("%w: %s has %d points and %d bulges; give one bulge per edge (the last closes the ring), 0 for a straight edge",
			ErrBadGeometry, what, len(pts), len(bulges))
	}
	n := len(pts)
	for i, k := range bulges {
		if math.IsNaN(k) || math.Abs(k) > MaxBulge {
			return fmt.Errorf("%w: %s: bulge %d is %v; a bulge is tan(sweep/4), between -%d and %d (half a turn); split a larger arc in two",
				ErrBadGeometry, what, i, k, MaxBulge, MaxBulge)
		}
		if k != 0 && pts[i] == pts[(i+1)%n] {
			return fmt.Errorf("%w: %s: edge %d has a bulge but no length; an arc needs two distinct end points", ErrBadGeometry, what, i)
		}
	}
	return nil
}

// arcBounds is the exact bounds of a polygon with arc edges mapped by m: its outer rings'
// vertices, and each arc's extremes (arcExtrema on the arc as a path segment, exact under any
// map).
func (g Polygon) arcBounds(m Affine) Box {
	var b Box
	for _, part := range g.Parts {
		n := len(part.Outer)
		for i, p := range part.Outer {
			b.Extend(m.Apply(p))
			q := part.Outer[(i+1)%n]
			if k := bulgeOf(part.OuterBulges, i); k != 0 && p != q {
				a := edgeArc(p, q, k)
				s := Seg{Kind: SegArc, P: [3]Vec{a.c, {a.r, 0}, {0, a.r}}, T0: a.a0, T1: a.a0 + a.sweep}
				s.transform(m)
				arcExtrema(&b, s)
			}
		}
	}
	return b
}
