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
	owners, ok := holeOwners(shells, holes, newShellGrid(shells))
	if !ok {
		return nil, ErrTopology
	}
	holeCount := make([]int32, len(shells))
	for _, o := range owners {
		holeCount[o]++
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

// outRing is a ring of the result as traced, with what sorting it into parts needs.
type outRing struct {
	pts       []Point
	area, per float64 // signed area, perimeter
	box       box
}

// holeOwners gives each hole the smallest shell around it, by index into shells, which are
// sorted by area; ok is false when a hole is inside none. The candidates are the shells whose
// bounding boxes hold the hole's; with a grid of the shells' boxes (newShellGrid) they are
// looked up in it, so that thousands of parts with a hole each do not test every shell
// against every hole, and the answer is the same.
func holeOwners(shells, holes []outRing, grid *shellGrid) (owners []int32, ok bool) {
	owners = make([]int32, len(holes))
	around := func(s, h *outRing) bool {
		return s.box.min.X <= h.box.min.X && s.box.min.Y <= h.box.min.Y && s.box.max.X >= h.box.max.X && s.box.max.Y >= h.box.max.Y
	}
	var cand []int32
	for k := range holes {
		h := &holes[k]
		cand = cand[:0]
		if grid != nil {
			for _, i := range grid.at(h.box.min) {
				if around(&shells[i], h) {
					cand = append(cand, i)
				}
			}
		} else {
			for i := range shells {
				if around(&shells[i], h) {
					cand = append(cand, int32(i))
				}
			}
		}
		owner := int32(-1)
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
			return nil, false
		}
		owners[k] = owner
	}
	return owners, true
}

// shellGrid lists, for each cell of a uniform grid over the shells' bounding boxes, the
// shells whose boxes reach into it, in the order of the shells. A shell whose box holds a
// point's is listed in that point's cell, since the cell of a coordinate never decreases as
// the coordinate grows.
type shellGrid struct {
	min            Point
	cw, ch         float64 // cell size; 0 when the boxes have no width or height
	nx, ny         int
	start, members []int32 // cell c lists members[start[c]:start[c+1]]
}

// newShellGrid indexes the shells' boxes, or returns nil when there are too few shells to
// be worth it, or when the boxes overlap so much (shells nested in shells) that the grid
// would list most shells in most cells.
func newShellGrid(shells []outRing) *shellGrid {
	if len(shells) <= 8 {
		return nil
	}
	var b box
	for i := range shells {
		b.extend(shells[i].box.min)
		b.extend(shells[i].box.max)
	}
	k := min(1024, int(math.Ceil(math.Sqrt(float64(len(shells))))))
	g := &shellGrid{min: b.min, nx: k, ny: k}
	if w := b.max.X - b.min.X; w > 0 {
		g.cw = w / float64(k)
	}
	if h := b.max.Y - b.min.Y; h > 0 {
		g.ch = h / float64(k)
	}
	g.start = make([]int32, g.nx*g.ny+1)
	for pass := range 2 {
		if pass == 1 {
			for c := range g.nx * g.ny {
				g.start[c+1] += g.start[c]
			}
			if int(g.start[g.nx*g.ny]) > 16*len(shells)+1024 {
				return nil
			}
			g.members = make([]int32, g.start[g.nx*g.ny])
		}
		for i := range shells {
			x0, y0 := g.cell(shells[i].box.min)
			x1, y1 := g.cell(shells[i].box.max)
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					if c := y*g.nx + x; pass == 0 {
						g.start[c+1]++
					} else {
						g.members[g.start[c]] = int32(i)
						g.start[c]++
					}
				}
			}
		}
	}
	// The filling moved each start to the end of its list, the start of the next one.
	copy(g.start[1:], g.start[:g.nx*g.ny])
	g.start[0] = 0
	return g
}

func (g *shellGrid) cell(p Point) (x, y int) {
	if g.cw > 0 {
		x = min(g.nx-1, max(0, int((p.X-g.min.X)/g.cw)))
	}
	if g.ch > 0 {
		y = min(g.ny-1, max(0, int((p.Y-g.min.Y)/g.ch)))
	}
	return x, y
}

// at lists the shells whose boxes reach into p's cell.
func (g *shellGrid) at(p Point) []int32 {
	x, y := g.cell(p)
	c := y*g.nx + x
	return g.members[g.start[c]:g.start[c+1]]
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
