package kernel

// Offsets of flattened areas: the number of chords of a round join for a shape and distance;
// the offset itself is the engine's (internal/overlay/offset.go). Offsets that keep arcs are
// offsetarcs.go.

import (
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// OffsetArcRelative is how far the chords of a round offset join may stray from the true
// arc, relative to the size of the result (the shape's extent plus twice the distance).
const OffsetArcRelative = 1e-3

// OffsetQuadSegments is the number of chords per quarter circle of a round join of radius r
// on a shape of extent size: 8, as OpenSCAD's $fn=32, JSCAD and JTS, unless the radius needs
// more to keep the chords within OffsetArcRelative of the result's size.
func OffsetQuadSegments(r, size float64) int {
	return min(max(8, geom.ArcSegments(r, math.Pi/2, (size+2*r)*OffsetArcRelative)), geom.MaxCurveSegments/4)
}

// AreaExtent is the larger side of the bounding box of an area.
func AreaExtent(area []overlay.Polygon) float64 {
	var b geom.Box
	for _, p := range area {
		for _, q := range p.Outer {
			b.Extend(geom.Vec(q))
		}
	}
	return max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
}

// OffsetPolys offsets an area by delta with the engine, with round joins flattened as
// OffsetQuadSegments says for this shape and distance.
func OffsetPolys(area []overlay.Polygon, delta float64, join overlay.Join) ([]overlay.Polygon, error) {
	if delta == 0 || len(area) == 0 {
		return area, nil
	}
	join.QuadSegments = OffsetQuadSegments(math.Abs(delta), AreaExtent(area))
	return overlay.Offset(area, delta, join)
}
