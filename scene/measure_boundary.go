package scene

// Boundary distances. Distance counts closed shapes with their insides, so a hole inside a
// panel is at 0 from it: the regions meet. A drawing asks something else of that pair: how
// much material is left between the hole's edge and the panel's edge, or how far the hole's
// centre sits from the edge. These measures walk the same exact edges (lines and circular
// arcs) as Distance, leaving out only the inside tests.

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
)

// DistanceFrom names where a boundary distance starts on the first shape.
type DistanceFrom string

const (
	// FromEdge measures from the first shape's outline (the default).
	FromEdge DistanceFrom = "edge"
	// FromCenter measures from the first shape's centre: a circle's or an arc's centre, of
	// any other shape its centroid.
	FromCenter DistanceFrom = "center"
)

// DistanceOptions chooses what a distance is measured between.
type DistanceOptions struct {
	// Boundary measures between outlines only: a shape inside a closed other is as far from
	// it as its outline is from the other's, not 0. Outlines that cross or touch are at 0.
	Boundary bool
	// From is where the distance starts on the first shape; FromCenter measures from its
	// centre to the other's outline (it implies Boundary). Empty is FromEdge.
	From DistanceFrom
}

// check refuses an unknown From.
func (o DistanceOptions) check() error {
	switch o.From {
	case "", FromEdge, FromCenter:
		return nil
	}
	return fmt.Errorf("%w: unknown distance from %q; use %q (the outline) or %q (the centre)", ErrBadOption, string(o.From), FromEdge, FromCenter)
}

// DistanceWith is Distance measured as opt says; the zero options are Distance itself.
func (s *Scene) DistanceWith(a, b string, opt DistanceOptions) (Gap, error) {
	if err := opt.check(); err != nil {
		return Gap{}, err
	}
	if !opt.Boundary && opt.From != FromCenter {
		return s.Distance(a, b)
	}
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
	if opt.From == FromCenter {
		c, err := s.centerOf(a, ma)
		if err != nil {
			return Gap{}, err
		}
		g := pointToOutline(mb, c)
		return Gap{Distance: g.Distance, A: c, B: g.A}, nil
	}
	return outlineGap(a, ma, b, mb, MaxMeasurePairs)
}

// DistanceToPointWith is DistanceToPoint measured as opt says: with Boundary, from the
// shape's outline even when p lies inside it; with FromCenter, from its centre.
func (s *Scene) DistanceToPointWith(name string, p geom.Vec, opt DistanceOptions) (Gap, error) {
	if err := opt.check(); err != nil {
		return Gap{}, err
	}
	if !opt.Boundary && opt.From != FromCenter {
		return s.DistanceToPoint(name, p)
	}
	if err := inRange("the point", p.X, p.Y); err != nil {
		return Gap{}, err
	}
	m, err := s.measure(name)
	if err != nil {
		return Gap{}, err
	}
	if len(m.lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to a point: %w: it draws nothing to measure from", name, ErrEmptyResult)
	}
	if opt.From == FromCenter {
		c, err := s.centerOf(name, m)
		if err != nil {
			return Gap{}, err
		}
		return Gap{Distance: p.Sub(c).Len(), A: c, B: p}, nil
	}
	g := pointToOutline(m, p)
	return Gap{Distance: g.Distance, A: g.A, B: p}, nil
}

// centerOf is the centre a FromCenter distance starts at: a circle's or an arc's own centre
// (an arc's centroid lies on its bulge), else the entity's centroid.
func (s *Scene) centerOf(name string, m *measured) (geom.Vec, error) {
	if m.circle != nil {
		return m.circle.c, nil
	}
	if e, err := s.Get(name); err == nil && !e.IsGroup() {
		if a, ok := e.Shape.(Arc); ok {
			return s.WorldMatrix(e).Apply(a.Center), nil
		}
	}
	return s.Centroid(name)
}

// pointToOutline is the point of m's outline nearest p (A) and its distance, inside or out.
func pointToOutline(m *measured, p geom.Vec) Gap {
	if m.circle != nil {
		d := p.Sub(m.circle.c)
		l := d.Len()
		u := geom.Vec{X: 1}
		if l > 0 {
			u = d.Mul(1 / l)
		}
		return Gap{Distance: math.Abs(l - m.circle.r), A: m.circle.c.Add(u.Mul(m.circle.r)), B: p}
	}
	return m.nearestOnOutline(p)
}

// outlineGap is gapBetween without the insides: the nearest points of the two outlines, 0
// where they cross or touch.
func outlineGap(an string, a *measured, bn string, b *measured, maxPairs int) (Gap, error) {
	if a.circle != nil && b.circle != nil {
		return circlesOutlineGap(*a.circle, *b.circle), nil
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
		w.pairs = 0
	}
	if !w.nearest(0, 0) {
		return Gap{}, w.errPairs(an, bn)
	}
	return w.best, nil
}

// circlesOutlineGap is the distance between two circles' outlines in closed form: apart, the
// gap between them; one inside the other, the thinnest of the ring between them; crossing,
// 0 at a crossing.
func circlesOutlineGap(a, b circleShape) Gap {
	d := b.c.Sub(a.c)
	l := d.Len()
	u := geom.Vec{X: 1} // concentric circles: every direction is nearest; take +x
	if l > 0 {
		u = d.Mul(1 / l)
	}
	switch {
	case l >= a.r+b.r:
		return Gap{Distance: l - a.r - b.r, A: a.c.Add(u.Mul(a.r)), B: b.c.Sub(u.Mul(b.r))}
	case l <= math.Abs(a.r-b.r):
		// One inside the other: both nearest points lie on the ray from the outer centre
		// through the inner one.
		if a.r <= b.r {
			return Gap{Distance: b.r - a.r - l, A: a.c.Add(u.Mul(-a.r)), B: b.c.Add(u.Mul(-b.r))}
		}
		return Gap{Distance: a.r - b.r - l, A: a.c.Add(u.Mul(a.r)), B: b.c.Add(u.Mul(b.r))}
	}
	x := (l*l + a.r*a.r - b.r*b.r) / (2 * l)
	h := math.Sqrt(max(a.r*a.r-x*x, 0))
	p := a.c.Add(u.Mul(x)).Add(geom.Vec{X: -u.Y, Y: u.X}.Mul(h))
	return Gap{A: p, B: p}
}
