package scene

// Offsets of areas: the options scripts give, the number of chords of a round join, and the
// result drawn as a Polygon; the offset itself is the engine's (internal/overlay/offset.go).

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/internal/overlay"
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

// resolve gives the engine's join for the options; the number of chords of a round join
// depends on the shape and distance and is set by offsetPolys.
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
func areaExtent(area []overlay.Polygon) float64 {
	var b Box
	for _, p := range area {
		for _, q := range p.Outer {
			b.Extend(Vec(q))
		}
	}
	return max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
}

// offsetPolys offsets an area by delta with the engine, with round joins flattened as
// offsetQuadSegments says for this shape and distance.
func offsetPolys(area []overlay.Polygon, delta float64, join overlay.Join) ([]overlay.Polygon, error) {
	if delta == 0 || len(area) == 0 {
		return area, nil
	}
	join.QuadSegments = offsetQuadSegments(math.Abs(delta), areaExtent(area))
	return overlay.Offset(area, delta, join)
}
