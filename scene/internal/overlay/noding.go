package overlay

// Noding: every point where two segments meet, or come within the precision, becomes a
// vertex of both.

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// segment is one edge of an input ring after snapping.
type segment struct {
	a, b   Point
	ua, ub int32 // vertex ids of a and b
	ring   int32
	w      int32 // multiplicity: copies of this segment merged into it, less reversed ones
	op     uint8
	cross  bool
}

// bbox is the segment's bounding box. It is computed where needed rather than stored, which
// would make every segment half as large again.
func (s *segment) bbox() (minX, minY, maxX, maxY float64) {
	return min(s.a.X, s.b.X), min(s.a.Y, s.b.Y), max(s.a.X, s.b.X), max(s.a.Y, s.b.Y)
}

// cut is a point p where segment seg is to be cut.
type cut struct {
	seg int32
	p   Point
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
func mergeCopies(segs []segment, nv int) []segment {
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

// nodeSegments finds every point where two segments meet and is not already an end of the
// one it lies on: crossings, touches and the ends of collinear overlaps. Candidate pairs come
// from a uniform grid in which each segment is entered in the cells it passes through (not
// the cells of its bounding box, which for long diagonal edges are far more); a pair may
// share several cells, so a meeting point is recorded only by the cell that contains it.
//
// Within the precision snap.eps, an end of one segment that lies that close to another is a
// point of the other too, and a crossing point within it of a vertex or of an earlier
// crossing is that point (snap merges them), so that the graph has no edges shorter than the
// precision and rings that follow each other to rounding error share their edges exactly.
func nodeSegments(segs []segment, snap *snapIndex) []cut {
	eps := snap.eps
	n := len(segs)
	x0, y0, x1, y1 := segs[0].bbox()
	bounds := box{min: Point{x0, y0}, max: Point{x1, y1}, nonEmpty: true}
	step := max(1, n/1024)
	sample := make([]float64, 0, n/step+1)
	for i := range segs {
		minX, minY, maxX, maxY := segs[i].bbox()
		bounds.min.X, bounds.min.Y = min(bounds.min.X, minX), min(bounds.min.Y, minY)
		bounds.max.X, bounds.max.Y = max(bounds.max.X, maxX), max(bounds.max.Y, maxY)
		if i%step == 0 {
			sample = append(sample, max(maxX-minX, maxY-minY))
		}
	}
	slices.Sort(sample)
	w, h := bounds.max.X-bounds.min.X, bounds.max.Y-bounds.min.Y
	// Cells about as large as a typical segment, but no more than about 4 per segment.
	c := max(sample[len(sample)/2], math.Sqrt(w*h/float64(4*n)), max(w, h)/float64(4*n))
	nx, ny := int(w/c)+1, int(h/c)+1
	margin := c*1e-6 + 2*eps
	col := func(x float64) int { return min(nx-1, max(0, int((x-bounds.min.X)/c))) }
	row := func(y float64) int { return min(ny-1, max(0, int((y-bounds.min.Y)/c))) }
	cellOf := func(p Point) int32 { return int32(row(p.Y)*nx + col(p.X)) }

	// Each segment is listed in the cells it passes through, in two passes over the same
	// arithmetic: one counts the cells' lists, the other fills them. start[c] counts up from
	// the start of cell c's list to its end, which then is where the next list starts.
	start := make([]int32, nx*ny+1)
	var list []int32
	for pass := range 2 {
		if pass == 1 {
			for i := range nx * ny {
				start[i+1] += start[i]
			}
			list = make([]int32, start[nx*ny])
		}
		enter := func(i, r, q0, q1 int) {
			for q := q0; q <= q1; q++ {
				if cell := r*nx + q; pass == 0 {
					start[cell+1]++
				} else {
					list[start[cell]] = int32(i)
					start[cell]++
				}
			}
		}
		for i := range segs {
			s := &segs[i]
			minX, minY, maxX, maxY := s.bbox()
			r0, r1 := row(minY-margin), row(maxY+margin)
			if row(minY) == row(maxY) {
				q0, q1 := col(minX-margin), col(maxX+margin)
				for r := r0; r <= r1; r++ {
					enter(i, r, q0, q1)
				}
				continue
			}
			k := (s.b.X - s.a.X) / (s.b.Y - s.a.Y)
			for r := r0; r <= r1; r++ {
				// The segment's x-range within this row of cells.
				ya := max(minY, bounds.min.Y+float64(r)*c)
				yb := min(maxY, bounds.min.Y+float64(r+1)*c)
				xa, xb := s.a.X+(ya-s.a.Y)*k, s.a.X+(yb-s.a.Y)*k
				lo := max(minX, min(xa, xb)-margin)
				hi := min(maxX, max(xa, xb)+margin)
				enter(i, r, col(lo-margin), col(hi+margin))
			}
		}
	}
	inCell := func(c int32) []int32 {
		if c == 0 {
			return list[:start[0]]
		}
		return list[start[c-1]:start[c]]
	}

	// near reports whether p, not an end of s, lies within eps of s's interior.
	near := func(p Point, s *segment) bool {
		if p == s.a || p == s.b {
			return false
		}
		if minX, minY, maxX, maxY := s.bbox(); p.X < minX-eps || p.X > maxX+eps || p.Y < minY-eps || p.Y > maxY+eps {
			return false
		}
		d := s.b.Sub(s.a)
		l2 := d.X*d.X + d.Y*d.Y
		t := (p.X-s.a.X)*d.X + (p.Y-s.a.Y)*d.Y
		cross := d.X*(p.Y-s.a.Y) - d.Y*(p.X-s.a.X)
		return t > 0 && t < l2 && cross*cross <= eps*eps*l2
	}
	// scan tests the pairs of cells [lo, hi) and returns what it finds, in order, as events:
	// the tests are independent of each other, so that ranges of cells can be scanned at
	// the same time. Only snapping crossing points depends on what came before; that is
	// left to the replay, in cell order.
	scan := func(lo, hi int32) []nodeEvent {
		var ev []nodeEvent
		for cell := lo; cell < hi; cell++ {
			split := func(i int32, p Point) {
				s := &segs[i]
				if p == s.a || p == s.b || cellOf(p) != cell {
					return
				}
				ev = append(ev, nodeEvent{kind: evCut, i: i, p: p})
			}
			in := inCell(cell)
			for a, i := range in {
				s := &segs[i]
				sx0, sy0, sx1, sy1 := s.bbox()
				sx0, sy0, sx1, sy1 = sx0-eps, sy0-eps, sx1+eps, sy1+eps
				for _, j := range in[a+1:] {
					// t's box misses s's (widened by eps) when both of t's ends are beyond the
					// same side of it.
					t := &segs[j]
					if (t.a.X < sx0 && t.b.X < sx0) || (t.a.X > sx1 && t.b.X > sx1) ||
						(t.a.Y < sy0 && t.b.Y < sy0) || (t.a.Y > sy1 && t.b.Y > sy1) {
						continue
					}
					// Ends within the precision of the other segment cut it, even on the same
					// ring (a ring whose vertex lies that close to another of its edges touches
					// itself there).
					if near(t.a, s) {
						split(i, t.a)
					}
					if near(t.b, s) {
						split(i, t.b)
					}
					if near(s.a, t) {
						split(j, s.a)
					}
					if near(s.b, t) {
						split(j, s.b)
					}
					if t.ring == s.ring && !s.cross {
						continue
					}
					p1, p2, q1, q2 := s.a, s.b, t.a, t.b
					o1, o2 := Orient(p1, p2, q1), Orient(p1, p2, q2)
					if (o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0) {
						continue
					}
					o3, o4 := Orient(q1, q2, p1), Orient(q1, q2, p2)
					if (o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0) {
						continue
					}
					if o1 == 0 && o2 == 0 {
						// Collinear: each is cut where the other ends inside it.
						in1, in2 := strictlyInside(q1, p1, p2), strictlyInside(q2, p1, p2)
						in3, in4 := strictlyInside(p1, q1, q2), strictlyInside(p2, q1, q2)
						if in1 {
							split(i, q1)
						}
						if in2 {
							split(i, q2)
						}
						if in3 {
							split(j, p1)
						}
						if in4 {
							split(j, p2)
						}
						if (in1 || in2 || in3 || in4 || (q1 == p1 && q2 == p2) || (q1 == p2 && q2 == p1)) && cellOf(overlapStart(p1, p2, q1, q2)) == cell {
							ev = append(ev, nodeEvent{kind: evCollinear, i: i, j: j})
						}
						continue
					}
					if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 {
						// A touch: the end that lies on the other segment is where they meet.
						if o1 == 0 {
							split(i, q1)
						}
						if o2 == 0 {
							split(i, q2)
						}
						if o3 == 0 {
							split(j, p1)
						}
						if o4 == 0 {
							split(j, p2)
						}
						continue
					}
					// Computed in its own cell only, so it is recorded once even if snapping
					// moves it into the next one.
					if x := CrossPoint(p1, p2, q1, q2); cellOf(x) == cell {
						ev = append(ev, nodeEvent{kind: evCross, i: i, j: j, p: x})
					}
				}
			}
		}
		return ev
	}
	found := scanCells(int32(nx*ny), n, start, scan)
	events := 0
	for _, ev := range found {
		events += len(ev)
	}
	splits := make([]cut, 0, 2*events) // a crossing cuts both its segments
	var collinear [][2]int32           // pairs of segments that overlap along a line
	var crossings []Point
	for _, ev := range found {
		for _, e := range ev {
			switch e.kind {
			case evCut:
				splits = append(splits, cut{seg: e.i, p: e.p})
			case evCollinear:
				collinear = append(collinear, [2]int32{e.i, e.j})
			case evCross:
				x := snap.snap(e.p)
				for _, k := range [2]int32{e.i, e.j} {
					if x != segs[k].a && x != segs[k].b {
						splits = append(splits, cut{seg: k, p: x})
					}
				}
				crossings = append(crossings, x)
			}
		}
	}
	// A crossing point is rounded, and can land a few ulps on the far side of a third edge
	// that passes (almost) through it, typically one nearly collinear with a crossed edge;
	// the pieces would then cross. Such edges are cut at the point too.
	for _, x := range crossings {
		for _, i := range inCell(cellOf(x)) {
			if s := &segs[i]; x != s.a && x != s.b && near(x, s) {
				splits = append(splits, cut{seg: i, p: x})
			}
		}
	}
	if len(collinear) > 0 {
		splits = shareCollinearSplits(segs, splits, collinear)
	}
	return splits
}

// nodeEvent is what scanning a cell finds: a cut of segment i at p, a collinear overlap of
// segments i and j, or their crossing at p (before snapping).
type nodeEvent struct {
	kind uint8
	i, j int32
	p    Point
}

const (
	evCut = iota
	evCollinear
	evCross
)

// parallelSegments is the number of segments from which the cells are scanned by several
// goroutines; below it, starting them costs more than it saves.
const parallelSegments = 4096

// scanCells runs scan over the cells [0, ncell) and returns its events in cell order. With
// enough segments and more than one processor, the cells are cut into chunks of about equal
// numbers of entries (end[c] is where cell c's entries end), scanned by up to GOMAXPROCS
// goroutines.
func scanCells(ncell int32, nseg int, end []int32, scan func(lo, hi int32) []nodeEvent) [][]nodeEvent {
	workers := min(runtime.GOMAXPROCS(0), 8)
	if nseg < parallelSegments || workers < 2 || ncell < 2 {
		return [][]nodeEvent{scan(0, ncell)}
	}
	chunks := 4 * workers
	bounds := make([]int32, 0, chunks+1)
	bounds = append(bounds, 0)
	total := int64(end[ncell-1])
	for c := int32(0); c < ncell && len(bounds) < chunks; c++ {
		if int64(end[c])*int64(chunks) >= total*int64(len(bounds)) {
			bounds = append(bounds, c+1)
		}
	}
	if bounds[len(bounds)-1] != ncell {
		bounds = append(bounds, ncell)
	}
	out := make([][]nodeEvent, len(bounds)-1)
	var next atomic.Int32
	var wg sync.WaitGroup
	work := func() {
		for k := int(next.Add(1) - 1); k < len(out); k = int(next.Add(1) - 1) {
			out[k] = scan(bounds[k], bounds[k+1])
		}
	}
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

// overlapStart is a point of the overlap of two collinear segments (the greatest of their
// lower ends along the line), used to count each overlapping pair in one grid cell only.
func overlapStart(p1, p2, q1, q2 Point) Point {
	less := func(a, b Point) bool { return a.X < b.X || (a.X == b.X && a.Y < b.Y) }
	lo := func(a, b Point) Point {
		if less(b, a) {
			return b
		}
		return a
	}
	a, b := lo(p1, p2), lo(q1, q2)
	if less(a, b) {
		return b
	}
	return a
}

// shareCollinearSplits copies every cut of a segment onto the segments that overlap it along
// the same line. A crossing point is computed from the two segments that cross, so an edge
// crossing two overlapping sides (two squares side by side) gets two points a rounding error
// apart; unless both sides are cut at both, their pieces would overlap without coinciding.
func shareCollinearSplits(segs []segment, splits []cut, pairs [][2]int32) []cut {
	parent := map[int32]int32{}
	var find func(int32) int32
	find = func(v int32) int32 {
		p, ok := parent[v]
		if !ok || p == v {
			return v
		}
		r := find(p)
		parent[v] = r
		return r
	}
	for _, pr := range pairs {
		a, b := find(pr[0]), find(pr[1])
		if a != b {
			parent[a] = b
		}
	}
	members := map[int32][]int32{}
	bySeg := map[int32][]Point{}
	for _, pr := range pairs {
		for _, v := range pr {
			if _, ok := bySeg[v]; !ok {
				bySeg[v] = nil
				members[find(v)] = append(members[find(v)], v)
			}
		}
	}
	for _, sp := range splits {
		if cuts, ok := bySeg[sp.seg]; ok {
			bySeg[sp.seg] = append(cuts, sp.p)
		}
	}
	for _, group := range members {
		for _, m := range group {
			s := &segs[m]
			d := s.b.Sub(s.a)
			l2 := d.X*d.X + d.Y*d.Y
			for _, o := range group {
				if o == m {
					continue
				}
				for _, p := range bySeg[o] {
					t := (p.X-s.a.X)*d.X + (p.Y-s.a.Y)*d.Y
					if t > 0 && t < l2 && p != s.a && p != s.b {
						splits = append(splits, cut{seg: m, p: p})
					}
				}
			}
		}
	}
	return splits
}
