package kernel

// Offsets that keep arcs. The scene reads the area with its circular arcs (Arcs, arcfit.go), so
// that every ring is lines and arcs; the raw offset curve of such a ring (the Clipper
// construction, as scene/internal/overlay/offset.go builds it from points) moves each line by
// the distance along its outward normal, turns each arc into the concentric arc of its radius
// plus or minus the distance, and joins outer corners with an exact arc about the corner (a
// round join) or a miter, inner corners with a loop through the corner. The curve is flattened
// for the engine with every arc recorded, the engine takes its positive fill, and the result's
// chords on those arcs become arcs again. So the offset of a polygon has exact round corners,
// that of a rounded shape keeps its arcs' centres, and a hole's offset is a circle.

import (
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// OffsetArcs offsets an area read with its arcs in src (not yet indexed) by delta, and
// returns the arcs the result's chords lie on for its fit; false means the engine gave up and
// the caller should offset the flattened area (OffsetPolys).
func OffsetArcs(area []overlay.Polygon, src *Arcs, delta float64, join overlay.Join) ([]overlay.Polygon, *Arcs, bool) {
	src.Index(AreaExtent(area))
	out := &Arcs{}
	// The raw curve's chords only carry the topology to the engine (its arcs come back
	// exact), so they are as fine relative to the result's size whatever the units, as the
	// engine's own offset flattens its joins.
	tol := (AreaExtent(area) + 2*math.Abs(delta)) * OffsetArcRelative
	var rings []overlay.Ring
	add := func(r []overlay.Point) {
		pts, bul := src.fit(r)
		if raw := out.rawOffset(pts, bul, delta, join, tol); len(raw) >= 3 {
			rings = append(rings, overlay.Ring{Points: raw, SelfCrossing: true})
		}
	}
	for _, p := range area {
		add(p.Outer)
		for _, h := range p.Holes {
			add(h)
		}
	}
	res, err := overlay.Overlay(rings, func(w, _ int32) bool { return w > 0 })
	if err != nil {
		return nil, nil, false
	}
	var all []overlay.Point
	for _, r := range rings {
		all = append(all, r.Points...)
	}
	out.Index(AreaExtent([]overlay.Polygon{{Outer: all}}))
	return res, out, true
}

// offsetEdge is one edge of a ring of lines and arcs, with its outward normals at both ends.
type offsetEdge struct {
	p, q       geom.Vec
	arc        *geom.CircArc // nil for a line
	nStart, nE geom.Vec      // outward unit normals at p and q
}

// ringEdges are the edges of a ring whose interior lies on its left.
func ringEdges(pts []geom.Vec, bul []float64) []offsetEdge {
	n := len(pts)
	edges := make([]offsetEdge, 0, n)
	for i := range n {
		p, q := pts[i], pts[(i+1)%n]
		if p == q {
			continue
		}
		e := offsetEdge{p: p, q: q}
		if k := geom.BulgeOf(bul, i); k != 0 {
			a := geom.EdgeArc(p, q, k)
			e.arc = &a
			// Counter-clockwise, the centre is on the left: outward is away from it.
			sign := math.Copysign(1, a.Sweep)
			e.nStart = p.Sub(a.C).Mul(sign / a.R)
			e.nE = q.Sub(a.C).Mul(sign / a.R)
		} else {
			d := q.Sub(p)
			l := d.Len()
			e.nStart = geom.Vec{X: d.Y / l, Y: -d.X / l}
			e.nE = e.nStart
		}
		edges = append(edges, e)
	}
	return edges
}

// rawOffset is the raw offset curve of a ring of lines and arcs, flattened at tol, with each
// arc it holds recorded in src.
func (src *Arcs) rawOffset(pts []geom.Vec, bul []float64, delta float64, join overlay.Join, tol float64) []overlay.Point {
	edges := ringEdges(pts, bul)
	n := len(edges)
	out := make([]overlay.Point, 0, 4*n)
	put := func(v geom.Vec) {
		if p := overlay.Point(v); len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	for i := range edges {
		prev, e := &edges[(i+n-1)%n], &edges[i]
		src.join(put, e.p, prev.nE, e.nStart, delta, join, tol)
		if e.arc == nil {
			put(e.p.Add(e.nStart.Mul(delta)))
			put(e.q.Add(e.nE.Mul(delta)))
			continue
		}
		a := *e.arc
		switch r := offsetRadius(a, delta); {
		case r < -1e-9*a.R:
			// An arc the offset passes the centre of is a corner at its centre, offset by
			// the rest of the distance: the ends' offsets looped through the centre, as the
			// engine loops an inner corner through its vertex (a rounded corner inset by
			// more than its radius is a sharp one inset by the rest).
			put(e.p.Add(e.nStart.Mul(delta)))
			put(a.C)
			put(e.q.Add(e.nE.Mul(delta)))
		case r <= 1e-9*a.R:
			// An arc the offset reaches the centre of (a closing by a round join's own
			// radius): the centre, a sharp corner again.
			put(a.C)
		default:
			src.flattenArc(put, geom.CircArc{C: a.C, R: r, A0: a.A0, Sweep: a.Sweep}, tol)
		}
	}
	for len(out) > 1 && out[len(out)-1] == out[0] {
		out = out[:len(out)-1]
	}
	return out
}

// join adds the join at corner p between an edge ending with outward normal nk and one
// starting with nj.
func (src *Arcs) join(put func(geom.Vec), p, nk, nj geom.Vec, delta float64, join overlay.Join, tol float64) {
	sinA := nk.X*nj.Y - nk.Y*nj.X
	cosA := nk.X*nj.X + nk.Y*nj.Y
	switch {
	case cosA > 1-1e-12:
		// The edges meet smoothly (a line tangent to an arc): their offsets meet too.
	case sinA*delta < 0:
		put(p.Add(nk.Mul(delta)))
		put(p)
	case join.Round:
		start := nk.Mul(math.Copysign(1, delta))
		src.flattenArc(put, geom.CircArc{C: p, R: math.Abs(delta), A0: math.Atan2(start.Y, start.X), Sweep: math.Atan2(sinA, cosA)}, tol)
	default:
		for _, q := range overlay.MiterJoin(nil, overlay.Point(p), overlay.Point(nk), overlay.Point(nj), cosA, delta, join.MiterLimit) {
			put(geom.Vec(q))
		}
	}
}

// flattenArc adds an arc's chords' ends and records the arc.
func (src *Arcs) flattenArc(put func(geom.Vec), a geom.CircArc, tol float64) {
	n := rawSegments(a, tol)
	src.addArc(a, n)
	for k := 0; k <= n; k++ {
		put(a.At(a.Sweep * float64(k) / float64(n)))
	}
}

// offsetRadius is the radius of an arc's offset by delta: larger for an arc that bulges
// outward (counter-clockwise on a ring with its inside on the left) when the area grows.
func offsetRadius(a geom.CircArc, delta float64) float64 {
	return a.R + delta*math.Copysign(1, a.Sweep)
}

// rawSegments is how many chords an arc of the raw offset curve becomes: within tol, and at
// least 4 to a quarter turn. The chords only carry the topology to the engine (the fit puts
// the true arcs back), so they can be coarser than a drawing's: an arc's chords stray by at
// most 2% of its radius, and only features closer than that could come out joined or apart
// differently than the true arcs would have them. Half the chords of 8 to a quarter turn
// halve the engine's work on an offset made of joins.
func rawSegments(a geom.CircArc, tol float64) int {
	return max(geom.ArcSegments(a.R, math.Abs(a.Sweep), tol), int(math.Ceil(math.Abs(a.Sweep)/(math.Pi/8)-1e-9)))
}
