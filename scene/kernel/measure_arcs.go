package kernel

// Distances are measured on the shapes' true boundaries where those are lines and circular
// arcs: a circle, an arc, a rounded rectangle's corners, a path's circular arcs and a
// polygon's bulged edges stay circular arcs under any map that keeps circles circles, and
// are measured as arcs (closest points in closed form, crossings solved) rather than as the
// chords of their flattening, which lie up to the flattening tolerance inside them. Only what
// has no such form (ellipses, Béziers, arcs under uneven scales) is measured on its chords.
//
// Each arc is cut into pieces of at most a quarter turn: a piece's bounding box is then tight
// for the edge trees (measure_index.go), and the region between a piece and its chord is the
// part of its disc beyond the chord, which is what the point-in-ring test needs.

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// Boundary collects a shape's outline as edges (lines and arc pieces) in world coordinates.
// The zero value is empty and ready to use.
type Boundary struct {
	edges []Edge
	// Rings are the closed subpaths, for inside tests (Outline.Regions). A ring shares the
	// edges' array: its edges do not change once it is closed.
	Rings  [][]Edge
	starts []geom.Vec // the first point of each subpath
	sub    int        // the key of the next subpath
}

// AddPath adds the subpaths of a world path: circular arcs as arc pieces, other curves as
// the chords Flatten makes of them at tol.
func (bd *Boundary) AddPath(p geom.Path, tol float64) {
	var here, first geom.Vec
	from := len(bd.edges) // the current subpath's first edge
	open := false
	n := 0 // edges in the current subpath, for keys
	add := func(a, b geom.Vec, arc *geom.CircArc) {
		if a == b {
			return
		}
		n++
		bd.edges = append(bd.edges, Edge{a: a, b: b, key: [2]int{bd.sub, n}, arc: arc})
	}
	finish := func(closed bool) {
		if !open {
			return
		}
		if closed {
			add(here, first, nil)
		}
		// A ring shares the edges' array; a later subpath that moves the array leaves the
		// ring on the old one, whose edges no longer change.
		if closed && len(bd.edges) > from {
			bd.Rings = append(bd.Rings, bd.edges[from:len(bd.edges):len(bd.edges)])
		}
		bd.starts = append(bd.starts, first)
		bd.sub++
		n, open = 0, false
	}
	for _, s := range p {
		switch s.Kind {
		case geom.SegMove:
			finish(false)
			here, first, open, from = s.P[0], s.P[0], true, len(bd.edges)
			continue
		case geom.SegClose:
			finish(true)
			here = first
			continue
		}
		if !open {
			first, open, from = here, true, len(bd.edges)
		}
		switch {
		case s.Kind == geom.SegLine:
			add(here, s.P[0], nil)
			here = s.P[0]
		case s.Kind == geom.SegArc && isCircular(s):
			start := s.ArcPoint(s.T0)
			add(here, start, nil)
			here = start
			pieces := int(math.Ceil(math.Abs(s.T1-s.T0) / (math.Pi / 2)))
			for i := 1; i <= pieces; i++ {
				t0 := s.T0 + (s.T1-s.T0)*float64(i-1)/float64(pieces)
				t1 := s.T0 + (s.T1-s.T0)*float64(i)/float64(pieces)
				q := s.ArcPoint(t1)
				add(here, q, circularPiece(s, t0, t1))
				here = q
			}
		default:
			for _, pl := range (geom.Path{{Kind: geom.SegMove, P: [3]geom.Vec{here}}, s}).Flatten(tol) {
				for _, q := range pl.Points[1:] {
					add(here, q, nil)
					here = q
				}
			}
		}
	}
	finish(false)
}

// isCircular reports whether an arc segment traces a circle (geom.CircleOf).
func isCircular(s geom.Seg) bool {
	_, ok := geom.CircleOf(s)
	return ok
}

// circularPiece is the part of a circular arc segment from parameter t0 to t1, as an arc of
// positive sweep (its direction is read from its edge's ends where it matters).
func circularPiece(s geom.Seg, t0, t1 float64) *geom.CircArc {
	u, v := s.P[1], s.P[2]
	phi := math.Atan2(u.Y, u.X)
	o := 1.0 // the world angle is phi + o·t
	if cross(u, v) < 0 {
		o = -1
	}
	return &geom.CircArc{C: s.P[0], R: (u.Len() + v.Len()) / 2, A0: phi + min(o*t0, o*t1), Sweep: math.Abs(t1 - t0)}
}

func dot(a, b geom.Vec) float64   { return a.X*b.X + a.Y*b.Y }
func cross(a, b geom.Vec) float64 { return a.X*b.Y - a.Y*b.X }

// extendArcBox extends b by the arc's extreme points (its ends are added by the caller).
func extendArcBox(b *geom.Box, a *geom.CircArc) {
	for k := range 4 {
		th := float64(k) * math.Pi / 2
		if a.Spans(th) {
			sn, cs := math.Sincos(th)
			b.Extend(geom.Vec{X: a.C.X + a.R*cs, Y: a.C.Y + a.R*sn})
		}
	}
}

// closestOnEdge is the point of edge e nearest p.
func closestOnEdge(p geom.Vec, e *Edge) geom.Vec {
	if e.arc == nil {
		return ClosestOnSegment(p, e.a, e.b)
	}
	return closestOnArc(p, e)
}

// closestOnArc is the point of the arc edge e nearest p: along the ray from the centre
// through p when the arc spans it, else the nearer end.
func closestOnArc(p geom.Vec, e *Edge) geom.Vec {
	a := e.arc
	d := p.Sub(a.C)
	if l := d.Len(); l > 0 && a.SpansDir(d) {
		return a.C.Add(d.Mul(a.R / l))
	}
	if p.Sub(e.a).Len() <= p.Sub(e.b).Len() {
		return e.a
	}
	return e.b
}

// edgeGap is the distance between two edges and their closest points; 0, at a point they
// share, when they meet (lines that cross are left to the walk's meet: segmentGap).
func edgeGap(x, y *Edge) (float64, geom.Vec, geom.Vec) {
	switch {
	case x.arc == nil && y.arc == nil:
		return segmentGap(x.a, x.b, y.a, y.b)
	case x.arc == nil:
		d, py, px := arcLineGap(y, x)
		return d, px, py
	case y.arc == nil:
		return arcLineGap(x, y)
	}
	return arcArcGap(x, y)
}

// gapPicker keeps the nearest of candidate pairs of points.
type gapPicker struct {
	d      float64
	pa, pb geom.Vec
}

func (g *gapPicker) try(pa, pb geom.Vec) {
	if d := pb.Sub(pa).Len(); d < g.d {
		g.d, g.pa, g.pb = d, pa, pb
	}
}

// arcLineGap is the distance between an arc edge and a line edge. The closest pair is a
// crossing, or has an end of one of them, or joins the line's foot of the perpendicular from
// the centre to the arc along that perpendicular.
func arcLineGap(arc, line *Edge) (float64, geom.Vec, geom.Vec) {
	if ps := lineArcCrossings(line, arc); len(ps) > 0 {
		return 0, ps[0], ps[0]
	}
	// The pair along the perpendicular goes first: of equal candidates the first is kept,
	// and its point on the arc is computed from the centre, not from an arc's end.
	g := gapPicker{d: math.Inf(1)}
	a := arc.arc
	f := ClosestOnSegment(a.C, line.a, line.b)
	if d := f.Sub(a.C); d.Len() > 0 && a.SpansDir(d) {
		g.try(a.C.Add(d.Mul(a.R/d.Len())), f)
	}
	g.try(closestOnArc(line.a, arc), line.a)
	g.try(closestOnArc(line.b, arc), line.b)
	g.try(arc.a, ClosestOnSegment(arc.a, line.a, line.b))
	g.try(arc.b, ClosestOnSegment(arc.b, line.a, line.b))
	return g.d, g.pa, g.pb
}

// arcArcGap is the distance between two arc edges. The closest pair is a crossing, or lies
// on the line through both centres, or has an end of one of them (tried in that order, as in
// arcLineGap).
func arcArcGap(x, y *Edge) (float64, geom.Vec, geom.Vec) {
	if ps := arcArcCrossings(x, y); len(ps) > 0 {
		return 0, ps[0], ps[0]
	}
	g := gapPicker{d: math.Inf(1)}
	a, b := x.arc, y.arc
	if d := b.C.Sub(a.C); d.Len() > 0 {
		u := d.Mul(1 / d.Len())
		for _, sa := range [2]float64{1, -1} {
			if !a.SpansDir(u.Mul(sa)) {
				continue
			}
			for _, sb := range [2]float64{1, -1} {
				if b.SpansDir(u.Mul(sb)) {
					g.try(a.C.Add(u.Mul(sa*a.R)), b.C.Add(u.Mul(sb*b.R)))
				}
			}
		}
	}
	g.try(x.a, closestOnArc(x.a, y))
	g.try(x.b, closestOnArc(x.b, y))
	g.try(closestOnArc(y.a, x), y.a)
	g.try(closestOnArc(y.b, x), y.b)
	return g.d, g.pa, g.pb
}

// lineArcCrossings is where a line edge meets an arc edge.
func lineArcCrossings(line, arc *Edge) []geom.Vec {
	a := arc.arc
	d := line.b.Sub(line.a)
	f := line.a.Sub(a.C)
	qa, qb, qc := dot(d, d), 2*dot(f, d), dot(f, f)-a.R*a.R
	disc := qb*qb - 4*qa*qc
	if qa == 0 || disc < 0 {
		return nil
	}
	sq := math.Sqrt(disc)
	var out []geom.Vec
	for _, t := range [2]float64{(-qb - sq) / (2 * qa), (-qb + sq) / (2 * qa)} {
		if t < 0 || t > 1 {
			continue
		}
		p := line.a.Add(d.Mul(t))
		if a.SpansDir(p.Sub(a.C)) {
			out = append(out, p)
		}
	}
	return out
}

// arcArcCrossings is where two arc edges meet.
func arcArcCrossings(x, y *Edge) []geom.Vec {
	a, b := x.arc, y.arc
	d := b.C.Sub(a.C)
	l := d.Len()
	if l == 0 || l > a.R+b.R || l < math.Abs(a.R-b.R) {
		return nil
	}
	// The crossings lie on the line across the centres at m from a's, h either side.
	m := (l*l + a.R*a.R - b.R*b.R) / (2 * l)
	h := math.Sqrt(max(a.R*a.R-m*m, 0))
	u := d.Mul(1 / l)
	base := a.C.Add(u.Mul(m))
	var out []geom.Vec
	for _, s := range [2]float64{1, -1} {
		p := base.Add(geom.Vec{X: -u.Y, Y: u.X}.Mul(s * h))
		if a.SpansDir(p.Sub(a.C)) && b.SpansDir(p.Sub(b.C)) {
			out = append(out, p)
		}
		if h == 0 {
			break
		}
	}
	return out
}

// edgesMeet is a point where two edges meet, if they do.
func edgesMeet(x, y *Edge) (geom.Vec, bool) {
	if x.arc == nil && y.arc == nil {
		p, ok := segmentsMeet(overlay.Point(x.a), overlay.Point(x.b), overlay.Point(y.a), overlay.Point(y.b))
		return geom.Vec(p), ok
	}
	if ps := edgeCrossings(x, y); len(ps) > 0 {
		return ps[0], true
	}
	return geom.Vec{}, false
}

// edgeCrossings is where two edges meet.
func edgeCrossings(x, y *Edge) []geom.Vec {
	switch {
	case x.arc == nil && y.arc == nil:
		if p, ok := segmentsMeet(overlay.Point(x.a), overlay.Point(x.b), overlay.Point(y.a), overlay.Point(y.b)); ok {
			return []geom.Vec{geom.Vec(p)}
		}
		return nil
	case x.arc == nil:
		return lineArcCrossings(x, y)
	case y.arc == nil:
		return lineArcCrossings(y, x)
	}
	return arcArcCrossings(x, y)
}

// winding is the winding number of a closed ring of edges about p: that of its chords, plus,
// for each arc piece whose region between arc and chord holds p, one turn in the arc's
// direction.
func winding(p geom.Vec, ring []Edge) int {
	w := 0
	for i := range ring {
		e := &ring[i]
		a, b := e.a, e.b
		side := cross(b.Sub(a), p.Sub(a))
		if a.Y <= p.Y {
			if b.Y > p.Y && side > 0 {
				w++
			}
		} else if b.Y <= p.Y && side < 0 {
			w--
		}
		if e.arc == nil {
			continue
		}
		// The centre lies left of a→b for a counter-clockwise piece; p is in the piece's
		// region when it is in the disc on the other side of the chord.
		cs := cross(b.Sub(a), e.arc.C.Sub(a))
		if side*cs < 0 && p.Sub(e.arc.C).Len() < e.arc.R {
			if cs > 0 {
				w++
			} else {
				w--
			}
		}
	}
	return w
}

// inside reports whether p lies inside the closed shapes of o (Regions), each filled by the
// nonzero rule (a polygon's holes run against its outer ring).
func (o *Outline) inside(p geom.Vec) bool {
	for _, rings := range o.Regions {
		w := 0
		for _, r := range rings {
			w += winding(p, r)
		}
		if w != 0 {
			return true
		}
	}
	return false
}

// edgeParam orders points along an edge: the fraction of the chord for a line, the angle
// from the arc's start for an arc.
func edgeParam(e *Edge, p geom.Vec) float64 {
	if e.arc == nil {
		d := e.b.Sub(e.a)
		return dot(p.Sub(e.a), d) / dot(d, d)
	}
	t := math.Mod(math.Atan2(p.Y-e.arc.C.Y, p.X-e.arc.C.X)-e.arc.A0, 2*math.Pi)
	if t < 0 {
		t += 2 * math.Pi
	}
	return t
}

// midway is the point of the edge halfway between two of its points.
func midway(e *Edge, p, q geom.Vec) geom.Vec {
	m := p.Add(q).Mul(0.5)
	if e.arc == nil {
		return m
	}
	t := (edgeParam(e, p) + edgeParam(e, q)) / 2
	return e.arc.At(t)
}

// ShareArea reports whether two closed shapes share area on their exact boundaries: a part
// of one's Boundary between its crossings with the other's lies inside the other, deeper
// than rounding, or one lies inside the other without crossing it. False when the walk over
// their edges went past maxPairs (the caller then keeps its flattened answer).
func ShareArea(a, b *Outline, maxPairs int) bool {
	ta, tb := a.edgeTree(), b.edgeTree()
	if len(ta.edges) == 0 || len(tb.edges) == 0 || len(b.Regions) == 0 || !BoxesMeet(a.Box, b.Box) {
		return false
	}
	// Rounding decides nothing: a point counts as inside only deeper than eps.
	eps := 1e-9 * math.Sqrt(max(boxDiag(a.Box), boxDiag(b.Box)))
	deepIn := func(p geom.Vec, o *Outline) bool { return o.inside(p) && o.edgeDist(p) > eps }
	for _, p := range a.Bound.starts {
		if deepIn(p, b) {
			return true
		}
	}
	for _, p := range b.Bound.starts {
		if len(a.Regions) > 0 && deepIn(p, a) {
			return true
		}
	}
	hits := map[int][]geom.Vec{} // crossings on each edge of a
	pairs := 0
	var walk func(i, j int) bool
	walk = func(i, j int) bool {
		na, nb := &ta.nodes[i], &tb.nodes[j]
		if !BoxesMeet(na.box, nb.box) {
			return true
		}
		if na.leaf() && nb.leaf() {
			if pairs += (na.hi - na.lo) * (nb.hi - nb.lo); pairs > maxPairs {
				return false
			}
			for k := na.lo; k < na.hi; k++ {
				for l := nb.lo; l < nb.hi; l++ {
					if ps := edgeCrossings(&ta.edges[k], &tb.edges[l]); len(ps) > 0 {
						hits[k] = append(hits[k], ps...)
					}
				}
			}
			return true
		}
		if nb.leaf() || !na.leaf() && boxDiag(na.box) >= boxDiag(nb.box) {
			return walk(na.left, j) && walk(na.right, j)
		}
		return walk(i, nb.left) && walk(i, nb.right)
	}
	if !walk(0, 0) {
		return false
	}
	for _, k := range slices.Sorted(maps.Keys(hits)) {
		e := &ta.edges[k]
		ps := append([]geom.Vec{e.a}, hits[k]...)
		ps = append(ps, e.b)
		slices.SortFunc(ps, func(p, q geom.Vec) int { return cmp.Compare(edgeParam(e, p), edgeParam(e, q)) })
		for i := 1; i < len(ps); i++ {
			if deepIn(midway(e, ps[i-1], ps[i]), b) {
				return true
			}
		}
	}
	return false
}

// edgeDist is the distance from p to the nearest edge of o (every edge: few points ask).
func (o *Outline) edgeDist(p geom.Vec) float64 {
	best := math.Inf(1)
	for i := range o.edgeTree().edges {
		e := &o.tree.edges[i]
		best = min(best, closestOnEdge(p, e).Sub(p).Len())
	}
	return best
}
