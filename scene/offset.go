package scene

// Offsets of areas: the options scripts give, a circle's or a rectangle's offset in closed
// form, and the result drawn as a Polygon; the offset itself is the kernel's
// (kernel.OffsetArcs, and kernel.OffsetPolys when the engine gives up on the arcs).

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// Offset grows (delta > 0) or shrinks (delta < 0) the area of the named entity (taken as
// Boolean takes it) by delta world units and draws the result as the Polygon entity result,
// placed as Boolean places its result. A shape that shrinks away is an ErrEmptyResult error.
// Corners are joined as
// opt.Join says; round joins use 8 segments per quarter circle (32 per full circle, as
// OpenSCAD, JSCAD and JTS default to and as workload W3 specifies), or more where a distance
// large for the shape needs them to stay within kernel.OffsetArcRelative of the result's size
// from the true arc. Nothing depends on the drawing's units: the same shape and distance scaled
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
	if shape, ok := s.exactOffset(name, delta, join, result); ok {
		return s.put(result, shape)
	}
	src := &kernel.Arcs{}
	area, err := s.areaWithArcs(name, src)
	if err != nil {
		return nil, err
	}
	if delta == 0 || len(area) == 0 {
		src.Index(kernel.AreaExtent(area))
		return s.putArea(result, area, src)
	}
	res, rsrc, ok := kernel.OffsetArcs(area, src, delta, join)
	if !ok {
		// The engine gave up on the curve with arcs: the flattened area's offset, which
		// falls back to the library when it must.
		if res, err = kernel.OffsetPolys(area, delta, join); err != nil {
			return nil, fmt.Errorf("offsetting %q by %v: %w", name, delta, err)
		}
		rsrc = nil
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("offsetting %q by %v: %w: the shape is nowhere thicker than %v; use a smaller inset", name, delta, ErrEmptyResult, 2*math.Abs(delta))
	}
	return s.putArea(result, res, rsrc)
}

// resolve gives the engine's join for the options; the number of chords of a round join
// depends on the shape and distance and is set by kernel.OffsetPolys.
func (o OffsetOptions) resolve() (overlay.Join, error) {
	switch o.Join {
	case "", JoinRound:
		return overlay.Join{Round: true}, nil
	case JoinSquare:
		// A square join is a miter cut at the offset distance itself.
		return overlay.Join{MiterLimit: 1}, nil
	case JoinMiter:
		l := o.MiterLimit
		if l == 0 {
			l = DefaultMiterLimit
		}
		if math.IsNaN(l) || math.IsInf(l, 0) || l < 1 {
			return overlay.Join{}, fmt.Errorf("%w: miter limit must be a finite number >= 1 (or 0 for the default %v), got %v", ErrBadOption, DefaultMiterLimit, o.MiterLimit)
		}
		return overlay.Join{MiterLimit: l}, nil
	}
	return overlay.Join{}, fmt.Errorf("%w: unknown join %q; use %q, %q or %q", ErrBadOption, o.Join, JoinRound, JoinSquare, JoinMiter)
}

// exactOffset is the offset of a circle, a rectangle or a rounded rectangle when it is that
// shape again, drawn where putArea would place the result: a circle grows or shrinks into a
// circle; a rectangle grows into a rounded rectangle with round joins (into a rectangle with
// miter joins), and shrinks into a rectangle; a rounded rectangle's corners keep their
// centres, their radius grown or shrunk by the distance (to a sharp corner when it would go
// below zero). Only when the shape is drawn upright under a uniform scale (a circle: under any
// similarity); otherwise, and for a result that would vanish, false, and the engine's offset
// answers.
func (s *Scene) exactOffset(name string, delta float64, join overlay.Join, result string) (Shape, bool) {
	e, ok := s.Lookup(name)
	if !ok || e.IsGroup() {
		return nil, false
	}
	place, err := s.resultPlace(result) // where putArea would draw it
	if err != nil {
		return nil, false
	}
	ps, ok := kernel.SimilarityScale(place)
	if !ok {
		return nil, false
	}
	m := place.Mul(s.WorldMatrix(e))
	d := delta * ps // the distance in the result's units
	switch g := e.Shape.(type) {
	case Circle:
		sc, ok := kernel.SimilarityScale(m)
		if r := g.Radius*sc + d; ok && r > 0 {
			return Circle{Center: m.Apply(g.Center), Radius: r}, true
		}
	case Rect:
		return uprightOffset(m, g.Center, g.Width, g.Height, 0, d, join)
	case RoundedRect:
		rad := math.Max(0, math.Min(g.Radius, math.Min(g.Width, g.Height)/2))
		return uprightOffset(m, g.Center, g.Width, g.Height, rad, d, join)
	}
	return nil, false
}

// uprightOffset offsets a rectangle of corner radius rad (0: sharp) drawn under m by d, when
// m keeps it upright (a uniform scale, maybe a half turn or a mirror, and a move).
func uprightOffset(m geom.Affine, c geom.Vec, w, h, rad, d float64, join overlay.Join) (Shape, bool) {
	if m.B != 0 || m.C != 0 || math.Abs(m.A) != math.Abs(m.D) || m.A == 0 {
		return nil, false
	}
	sc := math.Abs(m.A)
	w, h, rad = w*sc+2*d, h*sc+2*d, rad*sc
	if w <= 0 || h <= 0 {
		return nil, false
	}
	center := m.Apply(c)
	switch {
	case rad > 0 || (d > 0 && join.Round):
		// A rounded corner's arc keeps its centre; a sharp corner grows a round join of
		// radius d about it.
		if r := rad + d; r > 0 {
			return RoundedRect{Center: center, Width: w, Height: h, Radius: r}, true
		}
		return Rect{Center: center, Width: w, Height: h}, true
	case d < 0 || join.MiterLimit >= math.Sqrt2:
		// Shrinking keeps sharp corners sharp, and a miter that reaches a right angle's tip too.
		return Rect{Center: center, Width: w, Height: h}, true
	}
	return nil, false // a square join cuts the corners
}
