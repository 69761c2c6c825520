package overlay

// Offsets: the raw offset curve of every ring (the Clipper construction), filled by the
// engine with the positive winding rule.

import "math"

// Join is how Offset turns an outer corner.
type Join struct {
	// Round joins corners with circular arcs of QuadSegments chords per quarter circle (at
	// least 1); otherwise corners are mitred, cut square at MiterLimit times the distance
	// from the corner (MiterLimit >= 1; 1 is a square join).
	Round        bool
	MiterLimit   float64
	QuadSegments int
}

// Offset grows (delta > 0) or shrinks (delta < 0) an area by delta: every ring's edges move
// by delta along their outward normal, corners are joined as join says, and the positive
// fill of the resulting curves is the result. Holes shrink as the area grows. A zero delta
// or an empty area is returned as it is.
func Offset(area []Polygon, delta float64, join Join) ([]Polygon, error) {
	if delta == 0 || len(area) == 0 {
		return area, nil
	}
	quantum := math.Pi / 2 / float64(join.QuadSegments)
	var in []Ring
	for _, p := range area {
		in = append(in, Ring{Points: offsetRing(p.Outer, delta, join, quantum), SelfCrossing: true})
		for _, h := range p.Holes {
			in = append(in, Ring{Points: offsetRing(h, delta, join, quantum), SelfCrossing: true})
		}
	}
	res, err := Overlay(in, func(w, _ int32) bool { return w > 0 })
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
func offsetRing(r []Point, delta float64, join Join, quantum float64) []Point {
	n := len(r)
	norms := make([]Point, n)
	for i := range n {
		d := r[(i+1)%n].Sub(r[i])
		l := d.Len()
		norms[i] = Point{d.Y / l, -d.X / l}
	}
	out := make([]Point, 0, 3*n)
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
		case join.Round:
			a := math.Atan2(sinA, cosA)
			// Rounded to the nearest count, ties (a 45° multiple turn) down whatever the
			// rounding of a, so that scaled drawings get the same chords.
			steps := max(1, int(math.Abs(a)/quantum+0.5-1e-9))
			out = append(out, p.Add(nk.Mul(delta)))
			for k := 1; k < steps; k++ {
				sn, cs := math.Sincos(a * float64(k) / float64(steps))
				out = append(out, p.Add(Point{nk.X*cs - nk.Y*sn, nk.X*sn + nk.Y*cs}.Mul(delta)))
			}
			out = append(out, p.Add(nj.Mul(delta)))
		default:
			out = appendMiter(out, p, nk, nj, cosA, delta, join.MiterLimit)
		}
	}
	return out
}

// nearlyStraight is the cosine of the turn (2.5°) below which offsetRing joins a corner with
// one point (Clipper2 uses the same threshold).
const nearlyStraight = 0.999

// MiterJoin appends to out the miter join at corner p between edges of outward normals nk
// and nj (cosA their dot product), as Offset joins corners, for offsets built elsewhere.
func MiterJoin(out []Point, p, nk, nj Point, cosA, delta, limit float64) []Point {
	return appendMiter(out, p, nk, nj, cosA, delta, limit)
}

// appendMiter adds a miter join, cut square at limit·|delta| from the corner when the miter
// would reach further (JTS's limited mitre; with limit 1 this is the square join).
func appendMiter(out []Point, p, nk, nj Point, cosA, delta, limit float64) []Point {
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
	dk, dj := Point{-nk.Y, nk.X}, Point{-nj.Y, nj.X} // edge directions
	den1, den2 := dk.X*b.X+dk.Y*b.Y, dj.X*b.X+dj.Y*b.Y
	if math.Abs(den1) < 1e-12 || math.Abs(den2) < 1e-12 {
		return append(out, bevelA, bevelB)
	}
	t1 := (reach - ad*sgn*(nk.X*b.X+nk.Y*b.Y)) / den1
	t2 := (reach - ad*sgn*(nj.X*b.X+nj.Y*b.Y)) / den2
	return append(out, bevelA.Add(dk.Mul(t1)), bevelB.Add(dj.Mul(t2)))
}
