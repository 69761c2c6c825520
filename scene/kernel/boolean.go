package kernel

// Booleans, convex hulls and hole rules of areas, and the mapping of result rings into the
// frame they are stored in, all in world coordinates.
//
// Why an overlay engine of our own: simplefeatures (a port of JTS OverlayNG) is robust, but it
// pays too much per call and per segment: the reference workloads W2 and W3 (BENCH.md) were
// over their budgets even as a cascaded union. Every operation here is instead one pass of a
// small planar-graph engine, the package internal/overlay: a union of hundreds of shapes, a
// plate minus thousands of holes and the nonzero fill of a glyph outline are each one pass,
// and an offset is the positive fill of the raw offset curves. The engine snaps to a precision
// relative to the operands' extent (SnapRelative), checks its own topology and falls back to
// simplefeatures when that fails (Fallbacks); its package doc says what it guarantees.

import (
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// boolFuncs are the engine's operations, by overlay.Op.
var boolFuncs = [...]func(a, b []overlay.Polygon) ([]overlay.Polygon, error){
	overlay.OpUnion:      overlay.Union,
	overlay.OpDifference: overlay.Difference,
	overlay.OpIntersect:  overlay.Intersect,
	overlay.OpXor:        overlay.Xor,
}

// Boolean runs op on two lists of (possibly overlapping) polygons, each list the union of
// its members; b may be empty.
func Boolean(op overlay.Op, a, b []overlay.Polygon) ([]overlay.Polygon, error) {
	return boolFuncs[op](a, b)
}

// Hull is the convex hull of an area, with src (which may be nil) indexed for it: a hull's
// lines touch its arcs, so fit moves a vertex between an arc and a line to the line's point
// of tangency rather than to a crossing. Empty when the area encloses nothing.
func Hull(area []overlay.Polygon, src *Arcs) []overlay.Polygon {
	hull := overlay.ConvexHull(area)
	if src != nil {
		src.Index(AreaExtent(area))
		src.hull = true
	}
	return hull
}

// HoleRuleArea computes the area of a polygon part (an outer ring and its holes, as drawn)
// under the hole rule: the outer ring minus the union of the holes. ok reports that the part
// already is that area as drawn (every hole inside its outer ring, the holes apart), and so
// does a part with a self-intersecting ring or one the engine cannot read, which the area
// operations refuse or fall back on.
func HoleRuleArea(outerRing []geom.Vec, holes [][]geom.Vec) (area []overlay.Polygon, ok bool) {
	outer := CleanRing(outerRing)
	if len(outer) < 3 || CollinearRing(outer) {
		return nil, true
	}
	if _, bad := SelfCrossing(outer); bad {
		return nil, true
	}
	in := []overlay.Ring{{Points: overlay.OrientRing(outer, true)}}
	want := math.Abs(overlay.Area(outer))
	for _, drawn := range holes {
		h := CleanRing(drawn)
		if len(h) < 3 || CollinearRing(h) {
			continue
		}
		if _, bad := SelfCrossing(h); bad {
			return nil, true
		}
		in = append(in, overlay.Ring{Points: overlay.OrientRing(h, true), Operand: 1})
		want -= math.Abs(overlay.Area(h))
	}
	res, err := overlay.Overlay(in, func(wo, wh int32) bool { return wo > 0 && wh == 0 })
	if err != nil {
		return nil, true // left to the area operations, which fall back or report
	}
	if len(res) == 1 && len(res[0].Holes) == len(in)-1 && math.Abs(res[0].Area()-want) <= 1e-9*math.Abs(overlay.Area(outer)) {
		return res, true
	}
	return res, false
}

// MapBulgedRing is MapRing for a result ring whose chords on an arc of src become arcs: the
// bulges turn with a mirror and move with the ring's start.
func MapBulgedRing(src *Arcs, r []overlay.Point, m geom.Affine, mirror bool) ([]geom.Vec, []float64) {
	pts, bul := src.fit(r)
	if bul == nil {
		return MapRing(r, m, mirror), nil
	}
	for i, p := range pts {
		pts[i] = m.Apply(p)
	}
	if mirror {
		for i := range bul {
			bul[i] = -bul[i]
		}
		pts, bul = geom.ReverseBulged(pts, bul)
	}
	first := lowestLeftmost(pts)
	return rotateLeft(pts, first), rotateLeft(bul, first)
}

// lowestLeftmost is the index of the point with the lowest x, then the lowest y.
func lowestLeftmost(pts []geom.Vec) int {
	first := 0
	for i, p := range pts {
		if q := pts[first]; p.X < q.X || (p.X == q.X && p.Y < q.Y) {
			first = i
		}
	}
	return first
}

// rotateLeft rotates s left by k in place and returns it.
func rotateLeft[T any](s []T, k int) []T {
	slices.Reverse(s[:k])
	slices.Reverse(s[k:])
	slices.Reverse(s)
	return s
}

// MapRing maps a ring into the frame it is stored in and starts it at its lowest-leftmost
// vertex, so that results read the same whatever order the engine traced them in.
func MapRing(r []overlay.Point, m geom.Affine, mirror bool) []geom.Vec {
	out := make([]geom.Vec, len(r))
	for i, p := range r {
		out[i] = m.Apply(geom.Vec(p))
	}
	if mirror {
		slices.Reverse(out)
	}
	return rotateLeft(out, lowestLeftmost(out))
}

// MapRings is each ring as MapRing maps it under the identity: started at its lowest-leftmost
// vertex.
func MapRings(rs [][]overlay.Point) [][]geom.Vec {
	var out [][]geom.Vec
	for _, r := range rs {
		out = append(out, MapRing(r, geom.Identity, false))
	}
	return out
}
