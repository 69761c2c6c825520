package scene

// Polygons with arc edges: the model's side of bulged rings, whose arithmetic (areas,
// lengths, paths of a ring) is geom's (geom/bulge.go).

import (
	"fmt"

	"github.com/cadrun/cadrun/scene/geom"
)

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
	if geom.HasBulge(part.OuterBulges) {
		return true
	}
	for _, b := range part.HoleBulges {
		if geom.HasBulge(b) {
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

// checkBulges checks a ring's bulges against its vertices (geom.CheckBulges), as
// ErrBadGeometry.
func checkBulges(what string, pts []geom.Vec, bulges []float64) error {
	if err := geom.CheckBulges(what, pts, bulges); err != nil {
		return fmt.Errorf("%w: %w", ErrBadGeometry, err)
	}
	return nil
}

// arcBounds is the exact bounds of a polygon with arc edges mapped by m: its outer rings'
// vertices, and each arc's extremes (Box.ExtendArc on the arc as a path segment, exact under any
// map).
func (g Polygon) arcBounds(m geom.Affine) geom.Box {
	var b geom.Box
	for _, part := range g.Parts {
		n := len(part.Outer)
		for i, p := range part.Outer {
			b.Extend(m.Apply(p))
			q := part.Outer[(i+1)%n]
			if k := geom.BulgeOf(part.OuterBulges, i); k != 0 && p != q {
				a := geom.EdgeArc(p, q, k)
				s := geom.Seg{Kind: geom.SegArc, P: [3]geom.Vec{a.C, {X: a.R, Y: 0}, {X: 0, Y: a.R}}, T0: a.A0, T1: a.A0 + a.Sweep}
				s.Transform(m)
				b.ExtendArc(s)
			}
		}
	}
	return b
}
