package kernel

// Arcs through the overlay engine. The engine works on polylines, so every circular arc of an
// operand (a circle, an arc, a rounded corner, an arc edge of a polygon) is flattened into
// chords on the way in, and the source arc of each is recorded here with exactly how it was
// flattened. On the way out, an edge of a result ring whose two ends lie on one chord of a
// recorded arc is a piece of that arc: consecutive such edges become one arc of the source
// circle again, and the vertex where an arc meets a line or another arc is moved from the
// crossing of the chords to the true crossing of the circle and the line or circle. A result
// is thus made of lines and arcs of the operands' circles, exact to float precision, at the
// cost of one pass over its vertices.
//
// Ellipses, Béziers and arcs under an uneven scale stay flattened as before. A ring whose
// refitted area strays from its flattened area by more than the flattening allows keeps its
// chords (a safety net that should never be needed).

import (
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// flatArc is a circular arc as it was flattened: n chords of equal sweep from a0.
type flatArc struct {
	geom.CircArc
	n int
	// step is the sweep of one chord, sag its sagitta (the furthest a point of a chord lies
	// from the circle) and inner the distance from the centre to a chord's middle.
	step, sag, inner float64
	box              geom.Box
}

// Arcs is the set of circular arcs the operands of an area operation were flattened from,
// with a grid to find those near a point. The caller records the arcs as it flattens
// (AddPath) and indexes them once the operands' extent is known (Index); the result's rings
// are then fitted to them (MapBulgedRing, FittedArea). A nil *Arcs records nothing and fits
// nothing: a result keeps its chords. The zero value is ready to use.
type Arcs struct {
	arcs []flatArc
	// grid maps a cell to the arcs whose boxes meet it, as a range of cellArcs; cell is the
	// cell size (0: none yet).
	grid     map[[2]int64]cellRange
	cellArcs []int32
	cell     float64
	// maxSag is the largest sagitta of the arcs' chords.
	maxSag float64
	// hull is set for a convex hull, whose lines touch its arcs: a vertex between an arc and
	// a line is the line's point of tangency, not a crossing.
	hull bool
	// eps is how far from a chord a result vertex may lie and still be on it: a few times
	// the engine's precision.
	eps float64
}

// AddPath records the circular arcs of a world path that Flatten(tol) turns into chords.
func (src *Arcs) AddPath(p geom.Path, tol float64) {
	if src == nil {
		return
	}
	for i := range p {
		s := &p[i]
		if s.Kind != geom.SegArc {
			continue
		}
		a, ok := geom.CircleOf(*s)
		if !ok {
			continue // elliptical: left flattened
		}
		// As many chords as Flatten cuts it into.
		src.addArc(a, geom.ArcSegments(max(s.P[1].Len(), s.P[2].Len()), math.Abs(s.T1-s.T0), tol))
	}
}

// addArc records an arc flattened into n chords of equal sweep.
func (src *Arcs) addArc(a geom.CircArc, n int) {
	arc := flatArc{CircArc: a, n: n, step: a.Sweep / float64(n)}
	arc.inner = a.R * math.Cos(arc.step/2)
	arc.sag = a.R - arc.inner
	arc.box = geom.Box{Min: geom.Vec{X: a.C.X - a.R, Y: a.C.Y - a.R}, Max: geom.Vec{X: a.C.X + a.R, Y: a.C.Y + a.R}, NonEmpty: true}
	src.arcs = append(src.arcs, arc)
}

// Index builds the grid and sets the tolerance from the operands' extent (AreaExtent); the fit
// needs it. It is called once, after the last arc is added.
func (src *Arcs) Index(extent float64) {
	src.eps = 256 * overlay.SnapRelative * extent
	if len(src.arcs) == 0 {
		return
	}
	// The cell is the median arc's box, so that most arcs meet a few cells; an arc far
	// larger meets many, up to a cap past which the cell grows.
	sizes := make([]float64, len(src.arcs))
	for i := range src.arcs {
		sizes[i] = 2 * src.arcs[i].R
	}
	src.cell = max(median(sizes), extent/4096, 1e-300)
	for {
		cells := 0.0
		for i := range src.arcs {
			b := src.arcs[i].box
			cells += (math.Floor(b.Max.X/src.cell) - math.Floor(b.Min.X/src.cell) + 1) *
				(math.Floor(b.Max.Y/src.cell) - math.Floor(b.Min.Y/src.cell) + 1)
		}
		if cells <= 16*float64(len(src.arcs))+1024 {
			break
		}
		src.cell *= 2
	}
	// Two passes: count the arcs of each cell, then place them, so that the cells share one
	// slice.
	src.grid = make(map[[2]int64]cellRange, 4*len(src.arcs))
	src.eachCell(func(k [2]int64, _ int32) {
		r := src.grid[k]
		r.n++
		src.grid[k] = r
	})
	next := int32(0)
	for k, r := range src.grid {
		r.start, next = next, next+r.n
		r.n = 0
		src.grid[k] = r
	}
	src.cellArcs = make([]int32, next)
	src.eachCell(func(k [2]int64, i int32) {
		r := src.grid[k]
		src.cellArcs[r.start+r.n] = i
		r.n++
		src.grid[k] = r
	})
	for i := range src.arcs {
		src.maxSag = max(src.maxSag, src.arcs[i].sag)
	}
}

// cellRange is where a cell's arcs lie in cellArcs.
type cellRange struct{ start, n int32 }

// eachCell calls f for every cell an arc's box meets, arcs in order.
func (src *Arcs) eachCell(f func(k [2]int64, arc int32)) {
	for i := range src.arcs {
		b := src.arcs[i].box
		x0, y0 := src.key(b.Min)
		x1, y1 := src.key(b.Max)
		for x := x0; x <= x1; x++ {
			for y := y0; y <= y1; y++ {
				f([2]int64{x, y}, int32(i))
			}
		}
	}
}

// near is the arcs whose boxes meet p's cell.
func (src *Arcs) near(p geom.Vec) []int32 {
	x, y := src.key(p)
	r := src.grid[[2]int64{x, y}]
	return src.cellArcs[r.start : r.start+r.n]
}

func (src *Arcs) key(p geom.Vec) (int64, int64) {
	return int64(math.Floor(p.X / src.cell)), int64(math.Floor(p.Y / src.cell))
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// label finds the source arc of each edge of a ring (pts[i] to pts[i+1]), -1 for none, and
// whether any edge lies on an arc. Most edges continue the arc of the edge before, which is
// tried first; the arcs near both ends are looked up only when it does not hold.
func (src *Arcs) label(pts []geom.Vec) ([]int, bool) {
	n := len(pts)
	lab := make([]int, n)
	hits := make([]vertexHits, n)
	found := make([]bool, n)
	at := func(i int) *vertexHits {
		if !found[i] {
			hits[i], found[i] = src.hitsAt(pts[i]), true
		}
		return &hits[i]
	}
	onArc, prev := false, -1
	// The chords of arc prev that vertex i lies on, when known (known is then true).
	var c0, c1 int
	known := false
	for i := range n {
		j := (i + 1) % n
		if prev >= 0 {
			a := &src.arcs[prev]
			if !known {
				c0, c1 = src.chordsAt(a, pts[i])
			}
			q0, q1 := src.chordsAt(a, pts[j])
			if c0 >= 0 && q0 >= 0 && (c0 == q0 || c0 == q1 || c1 >= 0 && (c1 == q0 || c1 == q1)) {
				lab[i] = prev
				c0, c1, known = q0, q1, true
				continue
			}
		}
		lab[i] = common(at(i), at(j))
		prev, known = lab[i], false
		onArc = onArc || prev >= 0
	}
	return lab, onArc
}

// vertexHits is what a result vertex lies on: up to maxHits arcs (two where arcs meet, more
// where join arcs crowd), and on each up to two chords (two where it is a chord's end).
type vertexHits struct {
	n   int
	arc [maxHits]int32
	j   [maxHits][2]int32
}

const maxHits = 4

// hitsAt finds the arcs and chords p lies on.
func (src *Arcs) hitsAt(p geom.Vec) vertexHits {
	var h vertexHits
	for _, i := range src.near(p) {
		j0, j1 := src.chordsAt(&src.arcs[i], p)
		if j0 < 0 {
			continue
		}
		h.arc[h.n], h.j[h.n] = i, [2]int32{int32(j0), int32(j1)}
		if h.n++; h.n == maxHits {
			break
		}
	}
	return h
}

// common is the arc whose one chord both vertices lie on, or -1.
func common(a, b *vertexHits) int {
	for x := range a.n {
		for y := range b.n {
			if a.arc[x] != b.arc[y] {
				continue
			}
			for _, j := range a.j[x] {
				if j >= 0 && (j == b.j[y][0] || j == b.j[y][1]) {
					return int(a.arc[x])
				}
			}
		}
	}
	return -1
}

// chordsAt is the chords of a that p lies on (two at a chord's end), -1 for none.
func (src *Arcs) chordsAt(a *flatArc, p geom.Vec) (int, int) {
	dx, dy := p.X-a.C.X, p.Y-a.C.Y
	d2, hi, lo := dx*dx+dy*dy, a.R+src.eps, max(0, a.R-a.sag-src.eps)
	if d2 > hi*hi || d2 < lo*lo {
		return -1, -1
	}
	// The angle from the arc's start, in the arc's direction, in chords.
	t := math.Remainder(math.Atan2(dy, dx)-a.A0, 2*math.Pi)
	if a.Sweep < 0 {
		t = -t
	}
	step := math.Abs(a.step)
	if t < -step {
		t += 2 * math.Pi
	}
	x := t / step
	j := int(math.Floor(x))
	d := math.Sqrt(d2)
	slack := src.eps / max(d, src.eps) / step // the precision, in chords at this radius
	found := [2]int{-1, -1}
	k := 0
	full := math.Abs(a.Sweep) >= 2*math.Pi-1e-9
	for c := j - 1; c <= j+1 && k < 2; c++ {
		// p must lie within chord c's sector, and on its line: at angle off from the
		// chord's middle, the line is r·cos(step/2)/cos(off) from the centre.
		if x < float64(c)-slack || x > float64(c+1)+slack {
			continue
		}
		idx := c
		if full {
			idx = (c%a.n + a.n) % a.n // a full circle's chords wrap around
		}
		if idx < 0 || idx >= a.n || k == 1 && found[0] == idx {
			continue
		}
		off := (x - float64(c) - 0.5) * step
		if math.Abs(d*math.Cos(off)-a.inner) <= src.eps {
			found[k] = idx
			k++
		}
	}
	return found[0], found[1]
}

// fit turns a result ring (in world coordinates) into points and bulges: runs of edges on a
// source arc become arcs, their ends moved onto the true crossings. bulges is nil when no edge
// is an arc, and when src is nil or not indexed.
func (src *Arcs) fit(r []overlay.Point) ([]geom.Vec, []float64) {
	pts := make([]geom.Vec, len(r))
	for i, p := range r {
		pts[i] = geom.Vec(p)
	}
	n := len(pts)
	if src == nil || src.grid == nil || n < 3 {
		return pts, nil
	}
	lab, onArc := src.label(pts)
	if !onArc {
		return pts, nil
	}
	src.settle(pts, lab)
	// Start at the beginning of a run, so that no run wraps around the end.
	first := -1
	for i := range n {
		if lab[i] != lab[(i+n-1)%n] {
			first = i
			break
		}
	}
	if first < 0 {
		// Every edge on one circle: a whole circle when the ring goes once around its
		// centre; otherwise a sliver between chords that cross (two arcs a hair apart),
		// which keeps its chords.
		a := &src.arcs[lab[0]]
		turn := 0.0
		for i := range n {
			turn += turnAbout(a.C, pts[i], pts[(i+1)%n])
		}
		if math.Abs(math.Abs(turn)-2*math.Pi) > 1e-6 {
			return pts, nil
		}
		return src.wholeCircle(a, bulgedSignOf(r))
	}
	out := make([]geom.Vec, 0, n)
	bul := make([]float64, 0, n)
	for k := 0; k < n; {
		i := (first + k) % n
		start := src.junction(pts, lab, i)
		if lab[i] < 0 {
			out = append(out, start)
			bul = append(bul, 0)
			k++
			continue
		}
		// The run of edges on arc lab[i], from vertex i to vertex e.
		m := 1
		for k+m < n && lab[(i+m)%n] == lab[i] {
			m++
		}
		e := (i + m) % n
		end := src.junction(pts, lab, e)
		a := &src.arcs[lab[i]]
		sweep := 0.0
		for j := range m {
			sweep += turnAbout(a.C, pts[(i+j)%n], pts[(i+j+1)%n])
		}
		sweep += turnAbout(a.C, pts[e], end) - turnAbout(a.C, pts[i], start)
		out, bul = appendArc(out, bul, a, start, sweep)
		k += m
	}
	out, bul = dropShortEdges(out, bul, src.eps)
	// A ring needs three points, or two when an edge is an arc (a lens, a circle); bul is
	// nil when none is.
	fewest := 3
	if bul != nil {
		fewest = 2
	}
	if len(out) < fewest || !src.agrees(r, out, bul) {
		return pts, nil
	}
	return out, bul
}

// bulgedSignOf is 1 for a counter-clockwise ring, -1 for a clockwise one.
func bulgedSignOf(r []overlay.Point) float64 {
	if overlay.Area(r) < 0 {
		return -1
	}
	return 1
}

// wholeCircle is a ring that is all of arc a's circle: two half turns from its leftmost point,
// counter-clockwise when sign is positive.
func (src *Arcs) wholeCircle(a *flatArc, sign float64) ([]geom.Vec, []float64) {
	l, r := geom.Vec{X: a.C.X - a.R, Y: a.C.Y}, geom.Vec{X: a.C.X + a.R, Y: a.C.Y}
	return []geom.Vec{l, r}, []float64{sign, sign}
}

// turnAbout is the signed angle from p to q seen from c, in (-π, π].
func turnAbout(c, p, q geom.Vec) float64 {
	u, v := p.Sub(c), q.Sub(c)
	return math.Atan2(u.X*v.Y-u.Y*v.X, u.X*v.X+u.Y*v.Y)
}

// appendArc adds the arc of a's circle from start sweeping sweep, as edges of at most half a
// turn; the point it ends at is the next one added.
func appendArc(out []geom.Vec, bul []float64, a *flatArc, start geom.Vec, sweep float64) ([]geom.Vec, []float64) {
	pieces, k := geom.HalfTurns(sweep)
	a0 := math.Atan2(start.Y-a.C.Y, start.X-a.C.X)
	out = append(out, start)
	bul = append(bul, k)
	for i := 1; i < pieces; i++ {
		sn, cs := math.Sincos(a0 + sweep*float64(i)/float64(pieces))
		out = append(out, geom.Vec{X: a.C.X + a.R*cs, Y: a.C.Y + a.R*sn})
		bul = append(bul, k)
	}
	return out, bul
}

// junction is where vertex v of the ring truly lies: where the arcs or lines of the edges
// before and after it cross. A vertex between two lines, or inside a run of one arc, stays.
func (src *Arcs) junction(pts []geom.Vec, lab []int, v int) geom.Vec {
	n := len(pts)
	before, after := lab[(v+n-1)%n], lab[v]
	p := pts[v]
	if before == after || before < 0 && after < 0 {
		return p
	}
	if src.hull {
		if got, ok := src.tangentPoint(pts, lab, v); ok {
			return got
		}
	}
	if got, ok := src.crossing(pts, lab, v); ok {
		return got
	}
	// No true crossing near: the vertex goes onto the circle of the arc.
	a := &src.arcs[max(before, after)]
	d := p.Sub(a.C)
	if l := d.Len(); l > 0 {
		return a.C.Add(d.Mul(a.R / l))
	}
	return p
}

// tangentPoint is where the line before or after vertex v (the other side an arc) touches
// that arc, on a convex hull running counter-clockwise: the line is tangent to its arc and
// to the arc or the vertex at its other end, with both on its left. false where the line
// has no arc, or the tangent cannot be drawn (one circle inside the other).
func (src *Arcs) tangentPoint(pts []geom.Vec, lab []int, v int) (geom.Vec, bool) {
	n := len(pts)
	before, after := lab[(v+n-1)%n], lab[v]
	switch {
	case before >= 0 && after < 0:
		// Arc A, then the line to vertex w, after which arc B or a plain vertex.
		a := &src.arcs[before]
		w := (v + 1) % n
		if b := lab[w]; b >= 0 && b != before {
			nrm, ok := outerTangent(a, &src.arcs[b])
			return a.C.Add(nrm.Mul(a.R)), ok
		}
		nrm, ok := tangentFrom(a, pts[w], -1)
		return a.C.Add(nrm.Mul(a.R)), ok
	case before < 0 && after >= 0:
		// A line from vertex u, before which arc A or a plain vertex, then arc B.
		b := &src.arcs[after]
		u := (v + n - 1) % n
		if a := lab[(u+n-1)%n]; a >= 0 && a != after {
			nrm, ok := outerTangent(&src.arcs[a], b)
			return b.C.Add(nrm.Mul(b.R)), ok
		}
		nrm, ok := tangentFrom(b, pts[u], 1)
		return b.C.Add(nrm.Mul(b.R)), ok
	}
	return geom.Vec{}, false
}

// outerTangent is the outward normal (to the right of the way from a to b) of the line that
// touches the circles of a and b with both on its left.
func outerTangent(a, b *flatArc) (geom.Vec, bool) {
	d := b.C.Sub(a.C)
	l := d.Len()
	if l == 0 || math.Abs(a.R-b.R) > l {
		return geom.Vec{}, false
	}
	th := math.Atan2(d.Y, d.X) - math.Acos((a.R-b.R)/l)
	return geom.Vec{X: math.Cos(th), Y: math.Sin(th)}, true
}

// tangentFrom is the outward normal at the point where a line through p touches a's circle
// with the circle on its left: the line runs from the circle to p when side is -1, from p to
// the circle when side is 1.
func tangentFrom(a *flatArc, p geom.Vec, side float64) (geom.Vec, bool) {
	d := p.Sub(a.C)
	l := d.Len()
	if l <= a.R {
		return geom.Vec{}, false
	}
	th := math.Atan2(d.Y, d.X) + side*math.Acos(a.R/l)
	return geom.Vec{X: math.Cos(th), Y: math.Sin(th)}, true
}

// crossing is the true crossing of the arcs or lines before and after vertex v (at least one
// an arc), and whether it lies near the vertex: as near as the chords' stray from the arc
// allows (and the precision). A crossing further away is the other root, or there is none:
// the two do not cross here.
func (src *Arcs) crossing(pts []geom.Vec, lab []int, v int) (geom.Vec, bool) {
	n := len(pts)
	before, after := lab[(v+n-1)%n], lab[v]
	p := pts[v]
	var got geom.Vec
	var ok bool
	switch {
	case before >= 0 && after >= 0:
		got, ok = circlesCross(&src.arcs[before], &src.arcs[after], p)
	case before >= 0:
		got, ok = lineCrossesCircle(&src.arcs[before], p, pts[(v+1)%n], p)
	default:
		got, ok = lineCrossesCircle(&src.arcs[after], pts[(v+n-1)%n], p, p)
	}
	// The chords stray from their arc by its sagitta; where a line or arc crosses it at a
	// shallow angle, that moves the crossing along the line by up to the half chord a line
	// a sagitta deep cuts from the circle, √(2·r·sag).
	limit := 0.0
	for _, l := range [2]int{before, after} {
		if l >= 0 {
			a := &src.arcs[l]
			limit = max(limit, 4*a.sag+2*math.Sqrt(2*a.R*a.sag))
		}
	}
	return got, ok && got.Sub(p).Len() <= limit+src.eps
}

// settle gives a run of edges on one arc the arc before it when the run meets its
// neighbours where no true crossing is: two arcs closer than their chords' sagittas (the
// joins of corners a hair apart) make the flattened boundary switch between them at chord
// crossings, where the true boundary stays on one.
func (src *Arcs) settle(pts []geom.Vec, lab []int) {
	n := len(lab)
	for changed := true; changed; {
		changed = false
		for i := range n {
			a, b := lab[(i+n-1)%n], lab[i]
			if a < 0 || b < 0 || a == b {
				continue // i does not start a run of an arc after another arc
			}
			m := 1
			for m < n && lab[(i+m)%n] == b {
				m++
			}
			e := (i + m) % n
			if lab[e] < 0 || m == n {
				continue
			}
			if _, near := src.crossing(pts, lab, i); near {
				continue
			}
			if _, near := src.crossing(pts, lab, e); near {
				continue
			}
			for k := range m {
				lab[(i+k)%n] = a
			}
			changed = true
		}
	}
}

// circlesCross is the crossing of the circles of a and b nearest p.
func circlesCross(a, b *flatArc, p geom.Vec) (geom.Vec, bool) {
	d := b.C.Sub(a.C)
	l := d.Len()
	if l == 0 {
		return geom.Vec{}, false
	}
	x := (l*l + a.R*a.R - b.R*b.R) / (2 * l)
	h := tangentHalf(a.R, x)
	u := d.Mul(1 / l)
	base := a.C.Add(u.Mul(x))
	n := geom.Vec{X: -u.Y, Y: u.X}
	c1, c2 := base.Add(n.Mul(h)), base.Sub(n.Mul(h))
	if c2.Sub(p).Len() < c1.Sub(p).Len() {
		return c2, true
	}
	return c1, true
}

// lineCrossesCircle is the crossing of the line through q0 and q1 with a's circle nearest p.
func lineCrossesCircle(a *flatArc, q0, q1, p geom.Vec) (geom.Vec, bool) {
	d := q1.Sub(q0)
	l := d.Len()
	if l == 0 {
		return geom.Vec{}, false
	}
	u := d.Mul(1 / l)
	// The foot of the centre on the line, and half the chord the line cuts.
	f := q0.Add(u.Mul(a.C.Sub(q0).X*u.X + a.C.Sub(q0).Y*u.Y))
	h := tangentHalf(a.R, f.Sub(a.C).Len())
	c1, c2 := f.Add(u.Mul(h)), f.Sub(u.Mul(h))
	if c2.Sub(p).Len() < c1.Sub(p).Len() {
		return c2, true
	}
	return c1, true
}

// tangentHalf is half the chord a line at distance d from the centre cuts from a circle of
// radius r. Where the line is tangent to within rounding (an arc meeting a line or another arc
// smoothly, as a fillet does), the square root would turn a rounding error of d into a
// visible shift along the line; the half chord is then 0, the tangent point, which lies within
// 5e-13 of the radius of the circle.
func tangentHalf(r, d float64) float64 {
	h2 := r*r - d*d
	if h2 < 1e-12*r*r {
		return 0
	}
	return math.Sqrt(h2)
}

// dropShortEdges merges vertices closer than eps to the next: a straight edge between two
// that moved onto one crossing is dropped, and an arc keeps its bulge.
func dropShortEdges(pts []geom.Vec, bul []float64, eps float64) ([]geom.Vec, []float64) {
	for i := 0; len(pts) > 2 && i < len(pts); {
		j := (i + 1) % len(pts)
		if pts[i].Sub(pts[j]).Len() > eps {
			i++
			continue
		}
		if bul[i] == 0 || bul[j] != 0 {
			// Drop edge i (its start merges into the next vertex).
			pts = append(pts[:i], pts[i+1:]...)
			bul = append(bul[:i], bul[i+1:]...)
		} else {
			pts = append(pts[:j], pts[j+1:]...)
			bul = append(bul[:j], bul[j+1:]...)
			if j < i {
				i--
			}
		}
	}
	if !geom.HasBulge(bul) {
		bul = nil
	}
	return pts, bul
}

// agrees reports whether the fitted ring encloses what the flattened one did, within what
// flattening may take: each chord cuts off at most its sagitta times its length.
func (src *Arcs) agrees(r []overlay.Point, pts []geom.Vec, bul []float64) bool {
	flat := overlay.Area(r)
	fitted := geom.BulgedArea(pts, bul)
	var slack float64
	for i := range r {
		p, q := geom.Vec(r[i]), geom.Vec(r[(i+1)%len(r)])
		slack += q.Sub(p).Len()
	}
	return math.Abs(fitted-flat) <= 2*(src.maxSag+src.eps)*slack && (fitted > 0) == (flat > 0)
}

// FittedArea is the area of res (an engine result, such as the intersection of two areas
// read with their arcs in a and b), its chords on their arcs made arcs again, so that the
// overlap of circles is exact. extent is the operands' (AreaExtent); a and b are not changed.
func FittedArea(res []overlay.Polygon, a, b *Arcs, extent float64) float64 {
	if len(res) == 0 || len(a.arcs)+len(b.arcs) == 0 {
		total := 0.0
		for _, p := range res {
			total += p.Area()
		}
		return total
	}
	src := &Arcs{arcs: append(slices.Clip(a.arcs), b.arcs...)}
	src.Index(extent)
	total := 0.0
	for _, p := range res {
		pts, bul := src.fit(p.Outer)
		total += math.Abs(geom.BulgedArea(pts, bul))
		for _, h := range p.Holes {
			pts, bul := src.fit(h)
			total -= math.Abs(geom.BulgedArea(pts, bul))
		}
	}
	return total
}
