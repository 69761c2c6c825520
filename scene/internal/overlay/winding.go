package overlay

// Windings: every face of the graph gets the winding number of each operand, by stepping
// across edges from the outer face of each component, whose winding a ray cast gives.

import "math"

// windings gives every face the winding numbers of both operands. Within a connected
// component they follow from one face by stepping across edges; the outer face of each
// component takes the winding at its leftmost vertex from a ray cast against the rest.
func (g *graph) windings() ([][2]int32, error) {
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
	// Per component, by its root: V - E + F, and the seed vertex (+ 1).
	euler := make([]int32, nv)
	seedOf := make([]int32, nv)
	var seeds []int32 // the roots
	for v := range int32(nv) {
		c := find(v)
		euler[c]++
		if s := seedOf[c] - 1; s < 0 {
			seeds = append(seeds, c)
			seedOf[c] = v + 1
		} else if g.pts[v].X < g.pts[s].X || (g.pts[v].X == g.pts[s].X && g.pts[v].Y < g.pts[s].Y) {
			seedOf[c] = v + 1
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
	for _, c := range seeds {
		if euler[c] != 2 {
			return nil, ErrTopology
		}
		seedOf[c]-- // now the seed itself
	}
	wind := make([][2]int32, g.nface)
	known := make([]bool, g.nface)
	ray := g.rayIndex(len(seeds))
	queue := make([]int32, 0, 64)
	for _, c := range seeds {
		v := seedOf[c]
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
					return nil, ErrTopology
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
// the left. For more than a few queries the edges are first bucketed into a grid: horizontal
// bands, and within each band columns by the edge's left end, so that a ray reads only the
// band's edges that start left of it (an edge that starts right of p is wholly right of it,
// since a column never decreases as x grows). For a few queries, each scans all edges.
func (g *graph) rayIndex(queries int) func(Point) [2]int32 {
	nb, ylo, h := 1, 0.0, 0.0
	xlo, cw := 0.0, 0.0
	// Band k, columns 0..m list list[first[k*nb]:first[k*nb+m+1]]; nil: all edges.
	var first, list []int32
	band := func(y float64) int {
		if h <= 0 {
			return 0
		}
		return min(nb-1, max(0, int((y-ylo)/h)))
	}
	column := func(x float64) int {
		if cw <= 0 {
			return 0
		}
		return min(nb-1, max(0, int((x-xlo)/cw)))
	}
	if queries > 8 {
		yhi, xhi := math.Inf(-1), math.Inf(-1)
		ylo, xlo = math.Inf(1), math.Inf(1)
		for _, p := range g.pts {
			ylo, yhi = min(ylo, p.Y), max(yhi, p.Y)
			xlo, xhi = min(xlo, p.X), max(xhi, p.X)
		}
		nb = min(1024, max(1, int(math.Sqrt(float64(len(g.eu))))))
		h, cw = (yhi-ylo)/float64(nb), (xhi-xlo)/float64(nb)
		first = make([]int32, nb*nb+1)
		for pass := range 2 {
			if pass == 1 {
				for c := range nb * nb {
					first[c+1] += first[c]
				}
				list = make([]int32, first[nb*nb])
			}
			for e := range int32(len(g.eu)) {
				a, b := g.pts[g.eu[e]], g.pts[g.ev[e]]
				if a.Y == b.Y {
					continue // horizontal edges never cross a horizontal ray
				}
				m := column(min(a.X, b.X))
				for k := band(min(a.Y, b.Y)); k <= band(max(a.Y, b.Y)); k++ {
					if c := k*nb + m; pass == 0 {
						first[c+1]++
					} else {
						list[first[c]] = e
						first[c]++
					}
				}
			}
		}
		// The filling moved each start to the end of its list, the start of the next one.
		copy(first[1:], first[:nb*nb])
		first[0] = 0
	}
	return func(p Point) [2]int32 {
		var w [2]int32
		i, end := int32(0), int32(len(g.eu))
		if list != nil {
			c := band(p.Y) * nb
			i, end = first[c], first[c+column(p.X)+1]
		}
		for ; i < end; i++ {
			e := i
			if list != nil {
				e = list[i]
			}
			a, b := g.pts[g.eu[e]], g.pts[g.ev[e]]
			// The ray takes an edge's lower end and not its upper one, so that a vertex on
			// it counts once; it misses edges wholly right of p.
			if (a.Y > p.Y) == (b.Y > p.Y) || (a.X > p.X && b.X > p.X) {
				continue
			}
			d := g.ed[e]
			// Crossing an edge from its right to its left adds its step. Travelling right
			// from far away, an upward edge is crossed left to right, a downward one right to
			// left. An edge wholly left of p is crossed, which is what Orient would say.
			left := a.X < p.X && b.X < p.X
			if a.Y < b.Y {
				if left || Orient(a, b, p) < 0 {
					w[0], w[1] = w[0]-d[0], w[1]-d[1]
				}
			} else if left || Orient(b, a, p) < 0 {
				w[0], w[1] = w[0]+d[0], w[1]+d[1]
			}
		}
		return w
	}
}
