package overlay

// Boundary: the edges between kept and dropped faces traced into simple rings, slivers below
// the precision dropped, holes given to the outer rings around them.

import (
	"cmp"
	"math"
	"slices"
)

// boundary traces the half-edges with a kept face on the left and a dropped one on the right
// into rings, splits rings where they touch themselves, and sorts them into outer rings
// (counter-clockwise) with the holes (clockwise) they enclose.
func (g *graph) boundary(inside []bool) ([]Polygon, error) {
	isB := func(h int32) bool { return inside[g.face[h]] && !inside[g.face[h^1]] }
	used := make([]bool, len(g.out))
	mark := make([]int32, len(g.pts))
	for i := range mark {
		mark[i] = -1
	}
	type outRing struct {
		pts       []Point
		area, per float64 // signed area, perimeter
		box       box
	}
	var shells, holes []outRing
	// The rings' points are cut from shared blocks, since thousands of small rings (a plate
	// with its holes) would otherwise be thousands of allocations.
	var block []Point
	emit := func(ids []int32) {
		if cap(block)-len(block) < len(ids) {
			block = make([]Point, 0, max(len(ids), 4096))
		}
		start := len(block)
		for _, v := range ids {
			block = append(block, g.pts[v])
		}
		// dropCollinear may drop the first points too: move what it keeps to the start.
		end := start + copy(block[start:], dropCollinear(block[start:]))
		pts := block[start:end:end]
		block = block[:end]
		if len(pts) < 3 {
			block = block[:start]
			return
		}
		r := outRing{pts: pts, area: Area(pts), per: ringPerimeter(pts), box: ringBox(pts)}
		// A ring no wider than the precision (area <= eps·perimeter: a mean width of at
		// most 2·eps) is rounding noise, not geometry.
		if math.Abs(r.area) <= g.eps*r.per {
			return
		}
		switch {
		case r.area > 0:
			shells = append(shells, r)
		case r.area < 0:
			holes = append(holes, r)
		}
	}
	var cycle, stack []int32
	for h0 := range int32(len(g.out)) {
		if used[h0] || !isB(h0) {
			continue
		}
		cycle = cycle[:0]
		for h := h0; ; {
			if used[h] {
				return nil, ErrTopology
			}
			used[h] = true
			cycle = append(cycle, g.origin(h))
			// Turn as far right as possible at h's end: the wedges passed over all lie inside.
			o := h ^ 1
			deg := g.first[g.origin(o)+1] - g.first[g.origin(o)]
			for i := int32(0); ; i++ {
				if i == deg {
					return nil, ErrTopology
				}
				if o = g.cw(o); isB(o) {
					break
				}
			}
			if h = o; h == h0 {
				break
			}
		}
		// Split where the ring passes a vertex twice (a pinch), so that every ring is simple.
		stack = stack[:0]
		for _, v := range cycle {
			if p := mark[v]; p >= 0 {
				emit(stack[p:])
				for _, w := range stack[p+1:] {
					mark[w] = -1
				}
				stack = stack[:p+1]
				continue
			}
			mark[v] = int32(len(stack))
			stack = append(stack, v)
		}
		emit(stack)
		for _, v := range stack {
			mark[v] = -1
		}
	}
	slices.SortFunc(shells, func(a, b outRing) int { return cmp.Compare(a.area, b.area) })
	polys := make([]Polygon, len(shells))
	// net and per are each part's area and the length of its rings, for the same test
	// on whole parts: an outer ring with a hole that nearly fills it is a sliver too.
	net := make([]float64, len(shells))
	per := make([]float64, len(shells))
	for i, s := range shells {
		polys[i].Outer = s.pts
		net[i], per[i] = s.area, s.per
	}
	owners := make([]int32, len(holes))
	holeCount := make([]int32, len(shells))
	var cand []int
	for k, h := range holes {
		cand = cand[:0]
		for i, s := range shells {
			if s.box.min.X <= h.box.min.X && s.box.min.Y <= h.box.min.Y && s.box.max.X >= h.box.max.X && s.box.max.Y >= h.box.max.Y {
				cand = append(cand, i)
			}
		}
		owner := -1
		if len(cand) == 1 {
			owner = cand[0]
		} else {
			// The smallest shell around a point of the hole's first edge; that point is on
			// no shell, since boundaries meet only at vertices.
			p := h.pts[0].Add(h.pts[1]).Mul(0.5)
			for _, i := range cand {
				if windingAt(shells[i].pts, p) != 0 {
					owner = i
					break
				}
			}
		}
		if owner < 0 {
			return nil, ErrTopology
		}
		owners[k] = int32(owner)
		holeCount[owner]++
	}
	for i, n := range holeCount {
		if n > 0 {
			polys[i].Holes = make([][]Point, 0, n)
		}
	}
	for k, h := range holes {
		owner := owners[k]
		polys[owner].Holes = append(polys[owner].Holes, h.pts)
		net[owner] += h.area
		per[owner] += h.per
	}
	kept := polys[:0]
	for i, p := range polys {
		if net[i] > g.eps*per[i] {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

func ringPerimeter(r []Point) float64 {
	l := 0.0
	for i, p := range r {
		l += r[(i+1)%len(r)].Sub(p).Len()
	}
	return l
}

// dropCollinear removes vertices that lie on the straight line through their neighbours,
// in place: the result shares r's first elements.
func dropCollinear(r []Point) []Point {
	out := r[:0]
	for _, p := range r {
		for len(out) >= 2 && Orient(out[len(out)-2], out[len(out)-1], p) == 0 {
			out = out[:len(out)-1]
		}
		out = append(out, p)
	}
	for len(out) >= 3 {
		n := len(out)
		if Orient(out[n-2], out[n-1], out[0]) == 0 {
			out = out[:n-1]
		} else if Orient(out[n-1], out[0], out[1]) == 0 {
			out = out[1:]
		} else {
			break
		}
	}
	return out
}

// windingAt is the winding number of ring r around p (p not on r).
func windingAt(r []Point, p Point) int {
	w := 0
	n := len(r)
	for i := range n {
		a, b := r[i], r[(i+1)%n]
		if a.Y <= p.Y {
			if b.Y > p.Y && Orient(a, b, p) > 0 {
				w++
			}
		} else if b.Y <= p.Y && Orient(a, b, p) < 0 {
			w--
		}
	}
	return w
}
