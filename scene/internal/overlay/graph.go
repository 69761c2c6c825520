package overlay

// The planar graph: noded pieces merged into edges, sorted around their vertices, traced into
// faces.

import (
	"cmp"
	"math"
	"slices"
)

// graph is the noded planar graph. Edge e joins eu[e] to ev[e]; its half-edges are 2e
// (eu→ev) and 2e+1 (ev→eu). ed[e] is, per operand, the winding on the left of eu→ev minus the
// winding on its right.
type graph struct {
	pts    []Point
	eu, ev []int32
	ed     [][2]int32
	first  []int32 // out[first[v]:first[v+1]] are v's outgoing half-edges, counter-clockwise
	out    []int32
	pos    []int32 // index of each half-edge in its origin's list
	face   []int32 // face (cycle of next) of each half-edge
	nface  int
	eps    float64 // the precision: result rings no wider than this are dropped
}

func (g *graph) origin(h int32) int32 {
	if h&1 == 0 {
		return g.eu[h>>1]
	}
	return g.ev[h>>1]
}

func (g *graph) delta(h int32) [2]int32 {
	d := g.ed[h>>1]
	if h&1 == 1 {
		return [2]int32{-d[0], -d[1]}
	}
	return d
}

// cw is the outgoing half-edge next clockwise from o around their common origin.
func (g *graph) cw(o int32) int32 {
	v := g.origin(o)
	if i := g.pos[o]; i > g.first[v] {
		return g.out[i-1]
	}
	return g.out[g.first[v+1]-1] // the list wraps round
}

// buildGraph cuts the segments at their splits and merges the pieces into a graph; pieces on
// the same two vertices become one edge whose winding steps add up, and an edge whose steps
// cancel (a side shared by two touching shapes) is dropped, since the faces on its two sides
// have the same windings.
func buildGraph(segs []segment, splits []cut, ix *pointIndex) *graph {
	splits = sortCuts(segs, splits)
	type piece struct {
		u, v int32
		w    int32
		op   uint8
	}
	pieces := make([]piece, 0, len(segs)+len(splits)) // each cut adds at most one
	k := 0
	for i := range segs {
		s := &segs[i]
		prev := s.ua
		for ; k < len(splits) && splits[k].seg == int32(i); k++ {
			if p := ix.id(splits[k].p); p != prev {
				pieces = append(pieces, piece{prev, p, s.w, s.op})
				prev = p
			}
		}
		if prev != s.ub {
			pieces = append(pieces, piece{prev, s.ub, s.w, s.op})
		}
	}
	// Two pieces can only coincide where both ends are shared with other pieces: a vertex
	// that only continues one ring has two piece ends. Only those go through the map.
	ends := newEndCount(len(ix.pts))
	for _, p := range pieces {
		ends.add(p.u, p.v)
	}
	g := &graph{eu: make([]int32, 0, len(pieces)), ev: make([]int32, 0, len(pieces)), ed: make([][2]int32, 0, len(pieces))}
	type pair struct{ u, v int32 }
	eid := map[pair]int32{}
	for _, p := range pieces {
		u, v, step := p.u, p.v, p.w
		if u > v {
			u, v, step = v, u, -step
		}
		e := int32(len(g.eu))
		if ends.shared(u) && ends.shared(v) {
			if old, ok := eid[pair{u, v}]; ok {
				g.ed[old][p.op] += step
				continue
			}
			eid[pair{u, v}] = e
		}
		g.eu, g.ev = append(g.eu, u), append(g.ev, v)
		var d [2]int32
		d[p.op] = step
		g.ed = append(g.ed, d)
	}
	// Drop edges whose steps cancel, and vertices left without edges.
	newID := make([]int32, len(ix.pts))
	for i := range newID {
		newID[i] = -1
	}
	pts := make([]Point, 0, len(ix.pts))
	n := 0
	for e := range g.eu {
		if g.ed[e] == [2]int32{} {
			continue
		}
		u, v := g.eu[e], g.ev[e]
		if newID[u] < 0 {
			newID[u] = int32(len(pts))
			pts = append(pts, ix.pts[u])
		}
		if newID[v] < 0 {
			newID[v] = int32(len(pts))
			pts = append(pts, ix.pts[v])
		}
		g.eu[n], g.ev[n], g.ed[n] = newID[u], newID[v], g.ed[e]
		n++
	}
	g.eu, g.ev, g.ed, g.pts = g.eu[:n], g.ev[:n], g.ed[:n], pts
	return g
}

// sortCuts orders the cuts by segment and along each segment. The cuts are grouped by a
// counting sort, since most segments have none or one, and each group is sorted by the exact
// coordinates along the segment's main axis, not by a computed parameter, which can round two
// cuts a few ulps apart onto the same value. (The other axis would mislead: a cut on a nearly
// vertical segment may sit an ulp to either side of it.) Cuts that compare equal are the same
// point, snapped to one representative, so their order does not matter.
func sortCuts(segs []segment, splits []cut) []cut {
	if len(splits) < 2 {
		return splits
	}
	start := make([]int32, len(segs)+1)
	for _, c := range splits {
		start[c.seg+1]++
	}
	for i := range segs {
		start[i+1] += start[i]
	}
	out := make([]cut, len(splits))
	for _, c := range splits {
		out[start[c.seg]] = c
		start[c.seg]++
	}
	// start[i] is now the end of segment i's cuts.
	lo := int32(0)
	for i := range segs {
		hi := start[i]
		if hi-lo > 1 {
			s := &segs[i]
			dx, dy := s.b.X-s.a.X, s.b.Y-s.a.Y
			byX, flip := math.Abs(dx) >= math.Abs(dy), dx < 0
			if !byX {
				flip = dy < 0
			}
			slices.SortFunc(out[lo:hi], func(a, b cut) int {
				var c int
				if byX {
					c = cmp.Or(cmp.Compare(a.p.X, b.p.X), cmp.Compare(a.p.Y, b.p.Y))
				} else {
					c = cmp.Or(cmp.Compare(a.p.Y, b.p.Y), cmp.Compare(a.p.X, b.p.X))
				}
				if flip {
					c = -c
				}
				return c
			})
		}
		lo = hi
	}
	return out
}

// sortAround lists each vertex's outgoing half-edges counter-clockwise, starting from the
// direction +x.
func (g *graph) sortAround() {
	nv := len(g.pts)
	g.first = make([]int32, nv+1)
	for e := range g.eu {
		g.first[g.eu[e]+1]++
		g.first[g.ev[e]+1]++
	}
	for v := range nv {
		g.first[v+1] += g.first[v]
	}
	g.out = make([]int32, 2*len(g.eu))
	fill := slices.Clone(g.first[:nv])
	for h := range int32(2 * len(g.eu)) {
		v := g.origin(h)
		g.out[fill[v]] = h
		fill[v]++
	}
	g.pos = make([]int32, len(g.out))
	for v := range nv {
		list := g.out[g.first[v]:g.first[v+1]]
		if len(list) > 1 {
			o := g.pts[v]
			upper := func(h int32) bool {
				d := g.pts[g.origin(h^1)]
				return d.Y > o.Y || (d.Y == o.Y && d.X > o.X)
			}
			ccw := func(a, b int32) int {
				ua, ub := upper(a), upper(b)
				if ua != ub {
					if ua {
						return -1
					}
					return 1
				}
				if s := Orient(o, g.pts[g.origin(a^1)], g.pts[g.origin(b^1)]); s > 0 {
					return -1
				} else if s < 0 {
					return 1
				}
				return 0
			}
			if len(list) == 2 {
				// Most vertices; this is what the sort does with two.
				if ccw(list[1], list[0]) < 0 {
					list[0], list[1] = list[1], list[0]
				}
			} else {
				slices.SortFunc(list, ccw)
			}
		}
		for i, h := range list {
			g.pos[h] = g.first[v] + int32(i)
		}
	}
}

// traceFaces groups the half-edges into faces: the face on the left of h continues with the
// half-edge next clockwise from h's twin at h's end.
func (g *graph) traceFaces() {
	g.face = make([]int32, len(g.out))
	for i := range g.face {
		g.face[i] = -1
	}
	for h0 := range int32(len(g.face)) {
		if g.face[h0] >= 0 {
			continue
		}
		f := int32(g.nface)
		g.nface++
		for h := h0; g.face[h] < 0; h = g.cw(h ^ 1) {
			g.face[h] = f
		}
	}
}
