package scene

// The overlay engine: its input, graph types, point indexes and the snapping to its
// precision; overlayOnce runs the stages in order (noding, graph, winding, boundary).

import (
	"errors"
	"math"
)

// ovInput is one ring given to the engine. Each directed edge raises the winding number of
// its operand by one on its left: a counter-clockwise ring has winding 1 inside, a clockwise
// one -1.
type ovInput struct {
	pts []Vec
	op  uint8 // operand, 0 or 1
	// cross is set for rings that may cross themselves (raw offset curves): their edges are
	// noded against each other too. Other rings are simple, which saves those tests.
	cross bool
}

// windRule decides from the winding numbers of operands 0 and 1 whether a point is kept.
// It must reject (0, 0), the winding far away.
type windRule func(w0, w1 int32) bool

// errTopology is returned by overlay when its self-check fails; callers then fall back to
// simplefeatures.
var errTopology = errors.New("overlay topology check failed")

type ovSeg struct {
	a, b       Vec
	ua, ub     int32 // vertex ids of a and b
	minX, maxX float64
	minY, maxY float64
	ring       int32
	w          int32 // multiplicity: copies of this segment merged into it, less reversed ones
	op         uint8
	cross      bool
}

type ovSplit struct {
	seg int32
	p   Vec
}

// ovGraph is the noded planar graph. Edge e joins eu[e] to ev[e]; its half-edges are 2e
// (eu→ev) and 2e+1 (ev→eu). ed[e] is, per operand, the winding on the left of eu→ev minus the
// winding on its right.
type ovGraph struct {
	pts    []Vec
	eu, ev []int32
	ed     [][2]int32
	first  []int32 // out[first[v]:first[v+1]] are v's outgoing half-edges, counter-clockwise
	out    []int32
	pos    []int32 // index of each half-edge in its origin's list
	face   []int32 // face (cycle of next) of each half-edge
	nface  int
	eps    float64 // the precision: result rings no wider than this are dropped
}

func (g *ovGraph) origin(h int32) int32 {
	if h&1 == 0 {
		return g.eu[h>>1]
	}
	return g.ev[h>>1]
}

func (g *ovGraph) delta(h int32) [2]int32 {
	d := g.ed[h>>1]
	if h&1 == 1 {
		return [2]int32{-d[0], -d[1]}
	}
	return d
}

// cw is the outgoing half-edge next clockwise from o around their common origin.
func (g *ovGraph) cw(o int32) int32 {
	v := g.origin(o)
	lo, deg := g.first[v], g.first[v+1]-g.first[v]
	return g.out[lo+(g.pos[o]-lo+deg-1)%deg]
}

// pointIndex gives every distinct point a vertex id. It is a small open-addressing hash
// table, several times faster here than a map keyed by Vec.
type pointIndex struct {
	slots []int32 // vertex id + 1; 0 is empty
	mask  uint64
	pts   []Vec
}

func newPointIndex(n int) *pointIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &pointIndex{slots: make([]int32, size), mask: uint64(size - 1), pts: make([]Vec, 0, n)}
}

func (ix *pointIndex) id(p Vec) int32 {
	// Adding zero turns -0 into +0, which compares equal and must hash equal.
	x, y := math.Float64bits(p.X+0), math.Float64bits(p.Y+0)
	// Round coordinates have all-zero low bits, so the bits are mixed fully (murmur3's
	// finaliser) before the low ones pick the slot.
	h := x ^ (y*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		s := ix.slots[i]
		if s == 0 {
			if len(ix.pts) >= len(ix.slots)/2 {
				ix.grow()
				return ix.id(p)
			}
			ix.pts = append(ix.pts, p)
			ix.slots[i] = int32(len(ix.pts))
			return int32(len(ix.pts) - 1)
		}
		if ix.pts[s-1] == p {
			return s - 1
		}
	}
}

func (ix *pointIndex) grow() {
	pts := ix.pts
	*ix = *newPointIndex(2 * len(ix.slots))
	for _, p := range pts {
		ix.id(p)
	}
}

// overlay computes the area where keep holds for the winding numbers of the input rings, as
// non-overlapping polygons with counter-clockwise outer rings and clockwise holes. Points
// closer than the operands' precision (snapTolerance) are taken as one point: vertices merge
// with the first vertex seen within it, an edge passing within it of a vertex or crossing
// point is cut there, and result rings no wider than it are dropped. When its self-check
// still fails it tries once more at a coarser precision; errTopology means both attempts
// failed.
func overlay(in []ovInput, keep windRule) ([]ovPoly, error) {
	eps := snapTolerance(in)
	res, err := overlayOnce(in, keep, eps)
	if err == nil {
		return res, nil
	}
	return overlayOnce(in, keep, retryFactor*eps)
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
func snapTolerance(in []ovInput) float64 {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, r := range in {
		for _, p := range r.pts {
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

// snapIndex merges points closer than eps: snap returns the first point seen within eps of p
// (in x and in y), or records p. Cells are snapCell·eps wide: p's own cell holds every
// candidate unless p lies within eps of its side, when the neighbour across is searched too.
// The cells live in an open-addressing table, as pointIndex's points.
type snapIndex struct {
	eps, inv float64
	heads    []int32 // first point of each slot's cell + 1; 0 is empty
	mask     uint64
	used     int
	next     []int32 // the next point of the same cell, or -1
	pts      []Vec
}

func newSnapIndex(eps float64, n int) *snapIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &snapIndex{eps: eps, inv: 1 / (snapCell * eps), heads: make([]int32, size),
		mask: uint64(size - 1), next: make([]int32, 0, n), pts: make([]Vec, 0, n)}
}

// slot is the slot of cell k: the one holding it, or the empty one where it would go.
func (ix *snapIndex) slot(k [2]int64) uint64 {
	h := uint64(k[0])*0x9E3779B97F4A7C15 ^ uint64(k[1])*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		if h := ix.heads[i]; h == 0 || ix.cell(ix.pts[h-1]) == k {
			return i
		}
	}
}

// cell is the cell holding p (every point of a cell's list has the same one).
func (ix *snapIndex) cell(p Vec) [2]int64 {
	return [2]int64{int64(math.Floor(p.X * ix.inv)), int64(math.Floor(p.Y * ix.inv))}
}

// snapCell is the width of a snapIndex cell in units of eps.
const snapCell = 64

func (ix *snapIndex) snap(p Vec) Vec {
	fx, fy := p.X*ix.inv, p.Y*ix.inv
	flx, fly := math.Floor(fx), math.Floor(fy)
	kx, ky := int64(flx), int64(fly)
	// The cells within eps of p: its own, and the neighbour across a side that close.
	const edge = 1.0 / snapCell
	x0, x1, y0, y1 := kx, kx, ky, ky
	if fx-flx <= edge {
		x0--
	} else if fx-flx >= 1-edge {
		x1++
	}
	if fy-fly <= edge {
		y0--
	} else if fy-fly >= 1-edge {
		y1++
	}
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			for h := ix.heads[ix.slot([2]int64{cx, cy})] - 1; h >= 0; h = ix.next[h] {
				q := ix.pts[h]
				if math.Abs(q.X-p.X) <= ix.eps && math.Abs(q.Y-p.Y) <= ix.eps {
					return q
				}
			}
		}
	}
	if 2*(ix.used+1) > len(ix.heads) {
		ix.grow()
	}
	k := [2]int64{kx, ky}
	i := ix.slot(k)
	if ix.heads[i] == 0 {
		ix.used++
	}
	ix.next = append(ix.next, ix.heads[i]-1)
	ix.pts = append(ix.pts, p)
	ix.heads[i] = int32(len(ix.pts))
	return p
}

// grow doubles the table, moving every cell's list as it is.
func (ix *snapIndex) grow() {
	heads := ix.heads
	ix.heads = make([]int32, 2*len(heads))
	ix.mask = uint64(len(ix.heads) - 1)
	for _, h := range heads {
		if h != 0 {
			ix.heads[ix.slot(ix.cell(ix.pts[h-1]))] = h
		}
	}
}

func overlayOnce(in []ovInput, keep windRule, eps float64) ([]ovPoly, error) {
	if !(eps > 0) {
		return nil, nil // every point is the same point: no area
	}
	total := 0
	for _, r := range in {
		total += len(r.pts)
	}
	snap := newSnapIndex(eps, total)
	ix := newPointIndex(total + total/4)
	segs := make([]ovSeg, 0, total)
	ring := make([]Vec, 0, 64)
	for ri, r := range in {
		ring = ring[:0]
		for _, p := range r.pts {
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
				segs = append(segs, ovSeg{a: a, b: b, ua: ua, ub: ub, minX: min(a.X, b.X), maxX: max(a.X, b.X),
					minY: min(a.Y, b.Y), maxY: max(a.Y, b.Y), ring: int32(ri), w: 1, op: r.op, cross: r.cross})
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

// endCount tells the vertices where two edges may join the same two vertices: those with
// more than two edge ends, and those whose two edges lead to the same vertex (a ring that
// folds back on itself, as snapping can make one). A vertex that only continues one ring
// has two ends and two different neighbours.
type endCount struct {
	ends  []uint8
	other []int32 // the neighbour through the first edge, + 1
}

func newEndCount(nv int) endCount {
	return endCount{ends: make([]uint8, nv), other: make([]int32, nv)}
}

func (c endCount) add(u, v int32) {
	c.end(u, v)
	c.end(v, u)
}

func (c endCount) end(x, y int32) {
	switch c.ends[x] {
	case 0:
		c.other[x] = y + 1
		c.ends[x] = 1
	case 1:
		c.ends[x] = 2
		if c.other[x] == y+1 {
			c.ends[x] = 3 // folds back
		}
	default:
		c.ends[x] = 3
	}
}

func (c endCount) shared(x int32) bool { return c.ends[x] > 2 }

// mergeCopies turns segments that join the same two vertices for the same operand into one
// with their summed multiplicity (dropping it when they cancel), so that many copies of a
// shape, which the snapping makes share their edges, are noded once. Only segments whose ends
// are both shared with other rings can have copies; a vertex that only continues its ring has
// two segment ends.
func mergeCopies(segs []ovSeg, nv int) []ovSeg {
	ends := newEndCount(nv)
	for i := range segs {
		ends.add(segs[i].ua, segs[i].ub)
	}
	type key struct {
		u, v int32
		op   uint8
	}
	var first map[key]int32
	out := segs[:0]
	for _, s := range segs {
		if ends.shared(s.ua) && ends.shared(s.ub) {
			if first == nil {
				first = map[key]int32{}
			}
			k, w := key{s.ua, s.ub, s.op}, s.w
			if k.u > k.v {
				k.u, k.v, w = k.v, k.u, -w
			}
			if i, ok := first[k]; ok {
				if out[i].ua == k.u {
					out[i].w += w
				} else {
					out[i].w -= w
				}
				out[i].cross = out[i].cross || s.cross
				continue
			}
			first[k] = int32(len(out))
		}
		out = append(out, s)
	}
	if first == nil {
		return out
	}
	kept := out[:0]
	for _, s := range out {
		if s.w != 0 {
			kept = append(kept, s)
		}
	}
	return kept
}
