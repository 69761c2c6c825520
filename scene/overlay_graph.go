package scene

// The planar graph: noded pieces merged into edges, sorted around their vertices, traced into
// faces, and every face given the winding number of each operand.

import (
	"cmp"
	"math"
	"slices"
)

// buildGraph cuts the segments at their splits and merges the pieces into a graph; pieces on
// the same two vertices become one edge whose winding steps add up, and an edge whose steps
// cancel (a side shared by two touching shapes) is dropped, since the faces on its two sides
// have the same windings.
func buildGraph(segs []ovSeg, splits []ovSplit, ix *pointIndex) *ovGraph {
	// Cuts are ordered by their exact coordinates along the segment's main axis, not by a
	// computed parameter, which can round two cuts a few ulps apart onto the same value. (The
	// other axis would mislead: a cut on a nearly vertical segment may sit an ulp to either
	// side of it.)
	slices.SortFunc(splits, func(a, b ovSplit) int {
		if c := cmp.Compare(a.seg, b.seg); c != 0 {
			return c
		}
		s := &segs[a.seg]
		dx, dy := s.b.X-s.a.X, s.b.Y-s.a.Y
		var c int
		if math.Abs(dx) >= math.Abs(dy) {
			c = cmp.Or(cmp.Compare(a.p.X, b.p.X), cmp.Compare(a.p.Y, b.p.Y))
			if dx < 0 {
				c = -c
			}
		} else {
			c = cmp.Or(cmp.Compare(a.p.Y, b.p.Y), cmp.Compare(a.p.X, b.p.X))
			if dy < 0 {
				c = -c
			}
		}
		return c
	})
	type piece struct {
		u, v int32
		w    int32
		op   uint8
	}
	pieces := make([]piece, 0, len(segs)+2*len(splits))
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
	g := &ovGraph{}
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
	pts := make([]Vec, 0, len(ix.pts))
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

// sortAround lists each vertex's outgoing half-edges counter-clockwise, starting from the
// direction +x.
func (g *ovGraph) sortAround() {
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
			slices.SortFunc(list, func(a, b int32) int {
				ua, ub := upper(a), upper(b)
				if ua != ub {
					if ua {
						return -1
					}
					return 1
				}
				if s := orient2d(o, g.pts[g.origin(a^1)], g.pts[g.origin(b^1)]); s > 0 {
					return -1
				} else if s < 0 {
					return 1
				}
				return 0
			})
		}
		for i, h := range list {
			g.pos[h] = g.first[v] + int32(i)
		}
	}
}

// traceFaces groups the half-edges into faces: the face on the left of h continues with the
// half-edge next clockwise from h's twin at h's end.
func (g *ovGraph) traceFaces() {
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

// windings gives every face the winding numbers of both operands. Within a connected
// component they follow from one face by stepping across edges; the outer face of each
// component takes the winding at its leftmost vertex from a ray cast against the rest.
func (g *ovGraph) windings() ([][2]int32, error) {
	nv := len(g.pts)
	comp := make([]int32, nv)
	for i := range comp {
		comp[i] = int32(i)
	}
	find := func(v int32) int32 {
		for comp[v] != v {
			comp[v] = comp[comp[v]]
			v = comp[v]
		}
		return v
	}
	for e := range g.eu {
		a, b := find(g.eu[e]), find(g.ev[e])
		if a != b {
			comp[a] = b
		}
	}
	// Euler's formula V - E + F = 2 holds for every component of a plane graph; a noding
	// failure that leaves two edges crossing breaks it.
	euler := make(map[int32]int, 8)
	seed := make(map[int32]int32, 8)
	for v := range int32(nv) {
		c := find(v)
		euler[c]++
		if s, ok := seed[c]; !ok || g.pts[v].X < g.pts[s].X || (g.pts[v].X == g.pts[s].X && g.pts[v].Y < g.pts[s].Y) {
			seed[c] = v
		}
	}
	for e := range g.eu {
		euler[find(g.eu[e])]--
	}
	faceSeen := make([]bool, g.nface)
	for h, f := range g.face {
		if !faceSeen[f] {
			faceSeen[f] = true
			euler[find(g.origin(int32(h)))]++
		}
	}
	for _, x := range euler {
		if x != 2 {
			return nil, errTopology
		}
	}
	wind := make([][2]int32, g.nface)
	known := make([]bool, g.nface)
	ray := g.rayIndex(len(seed))
	queue := make([]int32, 0, 64)
	for _, v := range seed {
		// At the leftmost (then lowest) vertex every edge points right or straight up, so
		// the outer face is the one left of the last edge before the lower half-plane.
		list := g.out[g.first[v]:g.first[v+1]]
		k := len(list)
		for i, h := range list {
			d := g.pts[g.origin(h^1)]
			if !(d.Y > g.pts[v].Y || (d.Y == g.pts[v].Y && d.X > g.pts[v].X)) {
				k = i
				break
			}
		}
		h := list[(k+len(list)-1)%len(list)]
		f := g.face[h]
		wind[f], known[f] = ray(g.pts[v]), true
		queue = append(queue[:0], h)
		for len(queue) > 0 {
			h0 := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			w := wind[g.face[h0]]
			h := h0
			for {
				d := g.delta(h)
				t := g.face[h^1]
				wt := [2]int32{w[0] - d[0], w[1] - d[1]}
				if !known[t] {
					wind[t], known[t] = wt, true
					queue = append(queue, h^1)
				} else if wind[t] != wt {
					return nil, errTopology
				}
				if h = g.cw(h ^ 1); h == h0 {
					break
				}
			}
		}
	}
	return wind, nil
}

// rayIndex returns the winding at a point that no edge passes through, by casting a ray to
// the left. For more than a few queries the edges are first bucketed into horizontal bands.
func (g *ovGraph) rayIndex(queries int) func(Vec) [2]int32 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range g.pts {
		lo, hi = min(lo, p.Y), max(hi, p.Y)
	}
	nb := 1
	if queries > 8 {
		nb = min(1024, max(1, int(math.Sqrt(float64(len(g.eu))))))
	}
	h := (hi - lo) / float64(nb)
	band := func(y float64) int {
		if h <= 0 {
			return 0
		}
		return min(nb-1, max(0, int((y-lo)/h)))
	}
	first := make([]int32, nb+1)
	for e := range g.eu {
		a, b := g.pts[g.eu[e]].Y, g.pts[g.ev[e]].Y
		if a == b {
			continue // horizontal edges never cross a horizontal ray
		}
		for k := band(min(a, b)); k <= band(max(a, b)); k++ {
			first[k+1]++
		}
	}
	for k := range nb {
		first[k+1] += first[k]
	}
	list := make([]int32, first[nb])
	fill := slices.Clone(first[:nb])
	for e := range int32(len(g.eu)) {
		a, b := g.pts[g.eu[e]].Y, g.pts[g.ev[e]].Y
		if a == b {
			continue
		}
		for k := band(min(a, b)); k <= band(max(a, b)); k++ {
			list[fill[k]] = e
			fill[k]++
		}
	}
	return func(p Vec) [2]int32 {
		var w [2]int32
		k := band(p.Y)
		for _, e := range list[first[k]:first[k+1]] {
			a, b := g.pts[g.eu[e]], g.pts[g.ev[e]]
			if (a.Y > p.Y) == (b.Y > p.Y) {
				continue
			}
			d := g.ed[e]
			// Crossing an edge from its right to its left adds its step. Travelling right
			// from far away, an upward edge is crossed left to right, a downward one right to
			// left.
			if a.Y < b.Y {
				if orient2d(a, b, p) < 0 {
					w[0], w[1] = w[0]-d[0], w[1]-d[1]
				}
			} else if orient2d(b, a, p) < 0 {
				w[0], w[1] = w[0]+d[0], w[1]+d[1]
			}
		}
		return w
	}
}
