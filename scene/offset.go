package scene

// Offsets: the raw offset curve of every ring (the Clipper construction), filled by the
// overlay engine with the positive winding rule.

import (
	"fmt"
	"math"
)

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
