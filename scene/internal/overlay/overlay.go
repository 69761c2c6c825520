// Package overlay is the planar overlay engine behind the scene's booleans, offsets and
// nonzero fills: rings of Points in, non-overlapping Polygons out.
//
// Each operation is one pass: node all ring edges against each other with exact orientation
// tests (noding.go), merge the pieces into a planar graph and trace its faces (graph.go), give
// every face the winding number of each operand (winding.go), and trace the boundary between
// the faces that the operation's rule keeps and those it drops (boundary.go). An offset is the
// positive fill of the raw offset curves (offset.go, the Clipper method). Start with Union,
// Difference, Intersect, Xor, Nonzero and Offset; Overlay is the pass itself, for rules of
// one's own.
//
// What it guarantees:
//   - Results are polygons with counter-clockwise outer rings and clockwise holes (Y up), each
//     closed without repeating its first point, simple, and apart from each other except at
//     single points; every hole lies inside its outer ring.
//   - Points closer than the precision (SnapRelative of the operands' extent, see Overlay) are
//     one point, and rings or parts no wider than it are dropped. The precision is relative,
//     so the same drawing scaled by any factor gives the same result scaled.
//   - The engine checks its own topology (Euler's formula per component, consistent windings,
//     closed boundaries). When the check fails twice, Union, Difference, Intersect, Xor,
//     Nonzero and Offset redo the operation with simplefeatures (fallback.go), which is slower
//     but snaps in its own way; each such fallback is logged and counted (Fallbacks). Overlay
//     itself returns ErrTopology instead.
//
// The functions keep no state but the fallback counter and are safe for concurrent use. On
// large inputs the noding scans its grid with up to GOMAXPROCS goroutines and replays what
// they find in the serial order, so the result is the same on any number of processors.
// Input rings are read, never changed.
package overlay

import (
	"errors"
	"math"
)

// Point is a point of the plane.
type Point struct{ X, Y float64 }

// Polygon is one polygon of an area: an outer ring and its holes, each closed without
// repeating its first point. Inputs to the operations may overlap each other and have their
// holes anywhere (a polygon is its outer ring minus the union of its holes), but the outer
// ring must run counter-clockwise and the holes clockwise.
type Polygon struct {
	Outer []Point
	Holes [][]Point
}

// Ring is one ring given to Overlay. Each directed edge raises the winding number of its
// operand by one on its left: a counter-clockwise ring has winding 1 inside, a clockwise one
// -1.
type Ring struct {
	Points  []Point
	Operand uint8 // 0 or 1
	// SelfCrossing is set for rings that may cross themselves (raw offset curves): their
	// edges are noded against each other too. Other rings must be simple, which saves those
	// tests.
	SelfCrossing bool
}

// Rule decides from the winding numbers of operands 0 and 1 whether a point is kept. It must
// reject (0, 0), the winding far away.
type Rule func(w0, w1 int32) bool

// Errors of the engine.
var (
	// ErrTopology is returned by Overlay when its self-check fails at both precisions;
	// callers then fall back to another method.
	ErrTopology = errors.New("overlay topology check failed")
	// ErrFailed is returned when neither the engine nor simplefeatures can compute a
	// result (numerical degeneracy); the message carries the library's reason.
	ErrFailed = errors.New("geometry operation failed")
)

// Overlay computes the area where keep holds for the winding numbers of the rings, as
// non-overlapping polygons with counter-clockwise outer rings and clockwise holes. Points
// closer than the operands' precision are taken as one point: vertices merge with the first
// vertex seen within it, an edge passing within it of a vertex or crossing point is cut
// there, and result rings no wider than it are dropped. When its self-check fails it tries
// once more at a coarser precision; ErrTopology means both attempts failed.
func Overlay(in []Ring, keep Rule) ([]Polygon, error) {
	eps := snapTolerance(in)
	res, err := overlayOnce(in, keep, eps)
	if err == nil {
		return res, nil
	}
	return overlayOnce(in, keep, retryFactor*eps)
}

// Union is the area inside a or inside b. Each list may hold overlapping polygons; b may be
// empty, for the union of a's polygons.
func Union(a, b []Polygon) ([]Polygon, error) { return boolean(OpUnion, a, b) }

// Difference is the area inside a and not inside b.
func Difference(a, b []Polygon) ([]Polygon, error) { return boolean(OpDifference, a, b) }

// Intersect is the area inside both a and b.
func Intersect(a, b []Polygon) ([]Polygon, error) { return boolean(OpIntersect, a, b) }

// Xor is the area inside exactly one of a and b.
func Xor(a, b []Polygon) ([]Polygon, error) { return boolean(OpXor, a, b) }

// Nonzero is the area of nonzero winding of rings of any orientation (the fill of a
// compound path or a glyph). The rings must be simple; they may overlap each other.
func Nonzero(rings [][]Point) ([]Polygon, error) {
	in := make([]Ring, len(rings))
	for i, r := range rings {
		in[i] = Ring{Points: r}
	}
	polys, err := Overlay(in, func(w, _ int32) bool { return w != 0 })
	if err == nil {
		return polys, nil
	}
	noteFallback("nonzero fill", len(rings))
	return nonzeroFallback(rings)
}

// Op names a boolean operation, for LibraryBoolean.
type Op uint8

// The boolean operations, as Union, Difference, Intersect and Xor compute them.
const (
	OpUnion Op = iota
	OpDifference
	OpIntersect
	OpXor
)

var opNames = [...]string{OpUnion: "union", OpDifference: "difference", OpIntersect: "intersect", OpXor: "xor"}

// String is the operation's name, as the fallback log spells it.
func (o Op) String() string { return opNames[o] }

func (o Op) keep(a, b bool) bool {
	switch o {
	case OpUnion:
		return a || b
	case OpDifference:
		return a && !b
	case OpIntersect:
		return a && b
	default:
		return a != b
	}
}

// boolean runs o on two lists of (possibly overlapping) polygons.
func boolean(o Op, pa, pb []Polygon) ([]Polygon, error) {
	in := make([]Ring, 0, countRings(pa)+countRings(pb))
	in = appendRings(in, pa, 0)
	in = appendRings(in, pb, 1)
	res, err := Overlay(in, func(wa, wb int32) bool { return o.keep(wa > 0, wb > 0) })
	if err == nil {
		return res, nil
	}
	noteFallback(o.String(), countRings(pa)+countRings(pb))
	return booleanFallback(o, pa, pb)
}

func countRings(polys []Polygon) int {
	n := 0
	for _, p := range polys {
		n += 1 + len(p.Holes)
	}
	return n
}

func appendRings(in []Ring, polys []Polygon, operand uint8) []Ring {
	for _, p := range polys {
		in = append(in, Ring{Points: p.Outer, Operand: operand})
		for _, h := range p.Holes {
			in = append(in, Ring{Points: h, Operand: operand})
		}
	}
	return in
}

// Precision of the overlay engine. Two points are one when they are closer (in x and in y)
// than SnapRelative times the operands' extent (the larger side of their bounding box), or
// than snapFloat times their largest coordinate magnitude, whichever is larger; the second
// keeps the tolerance far above the rounding error of computed crossing points. Both are
// relative, so a drawing scaled by any factor gives the same result scaled.
const (
	// SnapRelative is the engine's precision relative to the operands' extent (2^-32, about
	// 2.3e-10): points closer than that are merged, and result parts or holes no wider than
	// it are dropped.
	SnapRelative = 0x1p-32
	snapFloat    = 0x1p-46
	// retryFactor coarsens the precision for the engine's second attempt.
	retryFactor = 64
)

// snapTolerance is the distance under which the overlay engine takes two points as one.
func snapTolerance(in []Ring) float64 {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, r := range in {
		for _, p := range r.Points {
			x0, x1 = min(x0, p.X), max(x1, p.X)
			y0, y1 = min(y0, p.Y), max(y1, p.Y)
		}
	}
	if x0 > x1 {
		return 0
	}
	maxAbs := max(-x0, x1, -y0, y1)
	return max(max(x1-x0, y1-y0)*SnapRelative, maxAbs*snapFloat)
}

// overlayOnce runs the stages in order at precision eps: snapping and noding, the graph, the
// windings, the boundary.
func overlayOnce(in []Ring, keep Rule, eps float64) ([]Polygon, error) {
	if !(eps > 0) {
		return nil, nil // every point is the same point: no area
	}
	total := 0
	for _, r := range in {
		total += len(r.Points)
	}
	snap := newSnapIndex(eps, total)
	ix := newPointIndex(total + total/4)
	segs := make([]segment, 0, total)
	ring := make([]Point, 0, 64)
	for ri, r := range in {
		ring = ring[:0]
		for _, p := range r.Points {
			if q := snap.snap(p); len(ring) == 0 || ring[len(ring)-1] != q {
				ring = append(ring, q)
			}
		}
		for len(ring) > 1 && ring[len(ring)-1] == ring[0] {
			ring = ring[:len(ring)-1]
		}
		n := len(ring)
		if n < 3 {
			continue
		}
		first := ix.id(ring[0])
		ua := first
		for i := range n {
			a, b := ring[i], ring[(i+1)%n]
			ub := first
			if i+1 < n {
				ub = ix.id(b)
			}
			if ua != ub {
				segs = append(segs, segment{a: a, b: b, ua: ua, ub: ub, ring: int32(ri), w: 1, op: r.Operand, cross: r.SelfCrossing})
			}
			ua = ub
		}
	}
	if segs = mergeCopies(segs, len(ix.pts)); len(segs) == 0 {
		return nil, nil
	}
	g := buildGraph(segs, nodeSegments(segs, snap), ix)
	if len(g.eu) == 0 {
		return nil, nil
	}
	g.eps = eps
	g.sortAround()
	g.traceFaces()
	wind, err := g.windings()
	if err != nil {
		return nil, err
	}
	inside := make([]bool, g.nface)
	for f, w := range wind {
		inside[f] = keep(w[0], w[1])
	}

	return g.boundary(inside)
}
