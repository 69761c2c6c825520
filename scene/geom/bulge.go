package geom

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

// CircArc is a circular arc: centre C, radius R, from angle A0 sweeping Sweep radians
// (counter-clockwise when positive).
type CircArc struct {
	C         Vec
	R         float64
	A0, Sweep float64
}

// At is the point of the arc at angle A0 + t.
func (a CircArc) At(t float64) Vec {
	sn, cs := math.Sincos(a.A0 + t)
	return Vec{a.C.X + a.R*cs, a.C.Y + a.R*sn}
}

// Spans reports whether the direction at angle th lies on the arc (positive sweep).
func (a *CircArc) Spans(th float64) bool {
	t := math.Mod(th-a.A0, 2*math.Pi)
	if t < 0 {
		t += 2 * math.Pi
	}
	return t <= a.Sweep
}

// SpansDir reports whether the direction d from the centre lies on the arc.
func (a *CircArc) SpansDir(d Vec) bool { return a.Spans(math.Atan2(d.Y, d.X)) }

// circularTolerance is how far (relative) an arc's two axis vectors may differ in length or
// from a right angle and still be taken as a circle: a turn's matrix comes out of sine and
// cosine.
const circularTolerance = 1e-12

// CircleOf is an arc segment as an arc of its circle (radius the length of its first axis),
// starting at the world angle of its first point and sweeping counter-clockwise when positive,
// or false for an arc that is elliptical: axes of different lengths, or not square, beyond
// circularTolerance. Under a mirror the angle runs against the parameter.
func CircleOf(s Seg) (CircArc, bool) {
	u, v := s.P[1], s.P[2]
	ru, rv := u.Len(), v.Len()
	if ru == 0 || math.Abs(ru-rv) > circularTolerance*ru || math.Abs(u.X*v.X+u.Y*v.Y) > circularTolerance*ru*rv {
		return CircArc{}, false
	}
	o := 1.0
	if u.X*v.Y-u.Y*v.X < 0 {
		o = -1
	}
	return CircArc{C: s.P[0], R: ru, A0: math.Atan2(u.Y, u.X) + o*s.T0, Sweep: o * (s.T1 - s.T0)}, true
}

// CircularSweep reports whether an arc segment traces a circle (the one test, CircleOf), and
// its sweep in the world: positive counter-clockwise.
func (s Seg) CircularSweep() (float64, bool) {
	a, ok := CircleOf(s)
	return a.Sweep, ok
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

// EdgeArc is the arc of the edge from p to q with bulge k (k != 0, p != q).
func EdgeArc(p, q Vec, k float64) CircArc {
	sweep := 4 * math.Atan(k)
	d := q.Sub(p)
	chord := d.Len()
	half := sweep / 2
	// The centre lies off the chord's midpoint, to the left of p→q for a counter-clockwise
	// arc of less than half a turn.
	h := chord / (2 * math.Tan(half))
	n := Vec{-d.Y / chord, d.X / chord}
	c := p.Add(q).Mul(0.5).Add(n.Mul(h))
	return CircArc{C: c, R: chord / (2 * math.Abs(math.Sin(half))), A0: math.Atan2(p.Y-c.Y, p.X-c.X), Sweep: sweep}
}

// BulgeOf is the bulge of edge i of a ring whose bulges may be nil (all straight).
func BulgeOf(bulges []float64, i int) float64 {
	if bulges == nil {
		return 0
	}
	return bulges[i]
}

// HasBulge reports whether any edge of the ring is an arc.
func HasBulge(bulges []float64) bool {
	for _, k := range bulges {
		if k != 0 {
			return true
		}
	}
	return false
}

// SegmentArea is the signed area between an arc and its chord: positive for a
// counter-clockwise arc, which adds area to a counter-clockwise ring.
func (a CircArc) SegmentArea() float64 {
	return a.R * a.R / 2 * (a.Sweep - math.Sin(a.Sweep))
}

// Length is the arc's length.
func (a CircArc) Length() float64 { return a.R * math.Abs(a.Sweep) }

// SegmentCentroid is the centroid of the region between the arc and its chord.
func (a CircArc) SegmentCentroid() Vec {
	half := a.Sweep / 2
	s := math.Sin(half)
	d := 4 * a.R * s * s * s / (3 * (a.Sweep - math.Sin(a.Sweep)))
	return a.At(half).Sub(a.C).Mul(d / a.R).Add(a.C)
}

// BulgedArea is the signed area of a ring with bulges (counter-clockwise positive).
func BulgedArea(pts []Vec, bulges []float64) float64 {
	a, _ := BulgedMoment(pts, bulges)
	return a
}

// BulgedMoment is the signed area of a ring with bulges and its first moment (area times
// centroid), from the shoelace formula and one circular segment per arc.
func BulgedMoment(pts []Vec, bulges []float64) (float64, Vec) {
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
		if k := BulgeOf(bulges, i); k != 0 && p != q {
			arc := EdgeArc(p, q, k)
			sa := arc.SegmentArea()
			area += sa
			m = m.Add(arc.SegmentCentroid().Mul(sa))
		}
	}
	return area, m.Add(o.Mul(area))
}

// BulgedLength is the length of a closed ring with bulges.
func BulgedLength(pts []Vec, bulges []float64) float64 {
	total := 0.0
	n := len(pts)
	for i := range n {
		p, q := pts[i], pts[(i+1)%n]
		if k := BulgeOf(bulges, i); k != 0 && p != q {
			total += EdgeArc(p, q, k).Length()
		} else {
			total += q.Sub(p).Len()
		}
	}
	return total
}

// ReverseBulged returns the ring traversed the other way: the vertices reversed, and the
// bulge of each edge negated and moved with it.
func ReverseBulged(pts []Vec, bulges []float64) ([]Vec, []float64) {
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

// AppendBulgedRing adds the ring to p as a closed subpath running counter-clockwise when ccw
// is set, clockwise otherwise. Consecutive arcs on one circle become one arc segment, so a
// ring that is a whole circle is one full turn (which the DXF writer makes a CIRCLE).
func AppendBulgedRing(p Path, pts []Vec, bulges []float64, ccw bool) Path {
	if (BulgedArea(pts, bulges) > 0) != ccw {
		pts, bulges = ReverseBulged(pts, bulges)
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
		k := BulgeOf(bulges, i)
		if k == 0 || a == b {
			open = nil
			if i < n-1 {
				p.LineTo(b)
			}
			continue
		}
		arc := EdgeArc(a, b, k)
		if open != nil && sameCircle(open, arc) {
			open.T1 += arc.Sweep
			continue
		}
		p.ArcTo(arc.C, Vec{arc.R, 0}, Vec{0, arc.R}, arc.A0, arc.A0+arc.Sweep)
		open = &p[len(p)-1]
	}
	// A ring that starts in the middle of the circle its last arc ends on is joined too.
	if first := &p[start+1]; open != nil && open != first && first.Kind == SegArc {
		last := CircArc{C: open.P[0], R: open.P[1].X, A0: open.T0, Sweep: open.T1 - open.T0}
		if sameCircle(first, last) {
			first.T0 -= last.Sweep
			p[start].P[0] = arcPoint(*first, first.T0)
			p = p[:len(p)-1]
		}
	}
	p.Close()
	return p
}

// sameCircle reports whether arc continues segment s on the same circle.
func sameCircle(s *Seg, arc CircArc) bool {
	r := s.P[1].X
	tol := 1e-12 * max(r, math.Abs(s.P[0].X), math.Abs(s.P[0].Y))
	return math.Abs(s.P[0].X-arc.C.X) <= tol && math.Abs(s.P[0].Y-arc.C.Y) <= tol && math.Abs(r-arc.R) <= tol &&
		(s.T1-s.T0)*arc.Sweep > 0 && math.Abs(s.T1-s.T0+arc.Sweep) <= 2*math.Pi+1e-9
}

// CheckBulges checks a ring's bulges against its vertices: one per edge, finite, at most
// MaxBulge, and none on an edge of zero length. what names the ring in the error, which says
// what is wrong and what to do; the caller wraps it in its own sentinel.
func CheckBulges(what string, pts []Vec, bulges []float64) error {
	if bulges == nil {
		return nil
	}
	if len(bulges) != len(pts) {
		return fmt.Errorf("%s has %d points and %d bulges; give one bulge per edge (the last closes the ring), 0 for a straight edge",
			what, len(pts), len(bulges))
	}
	n := len(pts)
	for i, k := range bulges {
		if math.IsNaN(k) || math.Abs(k) > MaxBulge {
			return fmt.Errorf("%s: bulge %d is %v; a bulge is tan(sweep/4), between -%d and %d (half a turn); split a larger arc in two",
				what, i, k, MaxBulge, MaxBulge)
		}
		if k != 0 && pts[i] == pts[(i+1)%n] {
			return fmt.Errorf("%s: edge %d has a bulge but no length; an arc needs two distinct end points", what, i)
		}
	}
	return nil
}
