package scene

// Boundary distances. Distance counts closed shapes with their insides, so a hole inside a
// panel is at 0 from it: the regions meet. A drawing asks something else of that pair: how
// much material is left between the hole's edge and the panel's edge, or how far the hole's
// centre sits from the edge. These measures walk the same exact edges (lines and circular
// arcs) as Distance, leaving out only the inside tests.

import (
	"fmt"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/kernel"
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
	if len(ma.Lines) == 0 || len(mb.Lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to %q: %w: %s draws nothing to measure from", a, b, ErrEmptyResult, quoteNames(emptyOf(a, ma, b, mb)))
	}
	if opt.From == FromCenter {
		c, err := s.centerOf(a, ma)
		if err != nil {
			return Gap{}, err
		}
		g := mb.ToOutline(c)
		return Gap{Distance: g.Distance, A: c, B: g.A}, nil
	}
	g, err := kernel.OutlineDistance(&ma.Outline, &mb.Outline, MaxMeasurePairs)
	if err != nil {
		return Gap{}, errPairs(a, b, err)
	}
	return gapOf(g), nil
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
	if len(m.Lines) == 0 {
		return Gap{}, fmt.Errorf("measuring %q to a point: %w: it draws nothing to measure from", name, ErrEmptyResult)
	}
	if opt.From == FromCenter {
		c, err := s.centerOf(name, m)
		if err != nil {
			return Gap{}, err
		}
		return Gap{Distance: p.Sub(c).Len(), A: c, B: p}, nil
	}
	g := m.ToOutline(p)
	return Gap{Distance: g.Distance, A: g.A, B: p}, nil
}

// centerOf is the centre a FromCenter distance starts at: a circle's or an arc's own centre
// (an arc's centroid lies on its bulge), else the entity's centroid.
func (s *Scene) centerOf(name string, m *measured) (geom.Vec, error) {
	if m.Circle != nil {
		return m.Circle.C, nil
	}
	if e, err := s.Get(name); err == nil && !e.IsGroup() {
		if a, ok := e.Shape.(Arc); ok {
			return s.WorldMatrix(e).Apply(a.Center), nil
		}
	}
	return s.Centroid(name)
}
