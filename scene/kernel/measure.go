package kernel

// Measuring outlines: the distance between two shapes' outlines and their insides, the point
// of an outline nearest a point, and the lengths and moments of rings, in world coordinates.
// Distances are measured on the lines and circular arcs of the outlines exactly
// (measure_arcs.go), through a tree of boxes over each outline's edges (measure_index.go).

import (
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// Gap is the distance between two shapes and their closest points: A on the first, B on the
// second. Distance is 0 when the shapes touch or overlap; A and B are then one point they
// share. The scene's Gap adds the other shape's name.
type Gap struct {
	Distance float64
	A, B     geom.Vec
}

// Circle is a shape that is one circle in world coordinates, measured in closed form.
type Circle struct {
	C geom.Vec
	R float64
}

// Outline is a shape's outline in world coordinates, as the measures read it. The scene fills
// it (a group's members together); the kernel builds its edge tree on first use.
type Outline struct {
	// Lines are the outlines as polylines; a closed one repeats its first point at the end.
	Lines [][]geom.Vec
	// Bound is the outlines as lines and arcs, for distances.
	Bound Boundary
	// Regions holds each closed shape's region as rings of lines and arcs, for inside tests;
	// each fills by the nonzero rule.
	Regions [][][]Edge
	// Box bounds Lines.
	Box geom.Box
	// Circle is set when the shape is one circle, which is then measured in closed form.
	Circle *Circle
	tree   *edgeTree // built on first use
}

// Distance is the distance between two outlines counted with their insides (a shape inside
// another, or overlapping it, is at 0), comparing at most maxPairs pairs of edges (two exact
// circles are measured in closed form, without the cap); a *PairsError past it.
func Distance(a, b *Outline, maxPairs int) (Gap, error) {
	switch {
	case a.Circle != nil && b.Circle != nil:
		d := b.Circle.C.Sub(a.Circle.C)
		l := d.Len()
		if l <= a.Circle.R+b.Circle.R || l == 0 {
			p := a.Circle.C.Add(d.Mul(a.Circle.R / max(l, a.Circle.R+b.Circle.R)))
			if l < math.Abs(a.Circle.R-b.Circle.R) || l == 0 {
				p = a.Circle.C // one inside the other: its centre is in both
				if b.Circle.R < a.Circle.R {
					p = b.Circle.C
				}
			}
			return Gap{A: p, B: p}, nil
		}
		u := d.Mul(1 / l)
		return Gap{Distance: l - a.Circle.R - b.Circle.R, A: a.Circle.C.Add(u.Mul(a.Circle.R)), B: b.Circle.C.Sub(u.Mul(b.Circle.R))}, nil
	}
	return edgeDistance(a, b, maxPairs, true)
}

// OutlineDistance is Distance without the insides: the nearest points of the two outlines, 0
// where they cross or touch.
func OutlineDistance(a, b *Outline, maxPairs int) (Gap, error) {
	if a.Circle != nil && b.Circle != nil {
		return circlesOutlineGap(*a.Circle, *b.Circle), nil
	}
	return edgeDistance(a, b, maxPairs, false)
}

// edgeDistance walks the two outlines' edge trees: where their boxes touch, for the first
// pair of edges that meet (a gap of 0), and, counting insides, for a point of one inside the
// other; then for the nearest pair. Past maxPairs pairs, a *PairsError.
func edgeDistance(a, b *Outline, maxPairs int, insides bool) (Gap, error) {
	w := &edgeWalk{a: a.edgeTree(), b: b.edgeTree(), maxPairs: maxPairs}
	if len(w.a.edges) == 0 || len(w.b.edges) == 0 {
		return pointGap(a, b), nil
	}
	if BoxGap(a.Box, b.Box) == 0 {
		if !w.meet(0, 0) {
			return Gap{}, w.errPairs()
		}
		if w.found {
			return w.best, nil
		}
		if insides {
			if p, ok := inEachOther(a, b); ok {
				return Gap{A: p, B: p}, nil
			}
		}
		w.pairs = 0
	}
	if !w.nearest(0, 0) {
		return Gap{}, w.errPairs()
	}
	return w.best, nil
}

// circlesOutlineGap is the distance between two circles' outlines in closed form: apart, the
// gap between them; one inside the other, the thinnest of the ring between them; crossing,
// 0 at a crossing.
func circlesOutlineGap(a, b Circle) Gap {
	d := b.C.Sub(a.C)
	l := d.Len()
	u := geom.Vec{X: 1} // concentric circles: every direction is nearest; take +x
	if l > 0 {
		u = d.Mul(1 / l)
	}
	switch {
	case l >= a.R+b.R:
		return Gap{Distance: l - a.R - b.R, A: a.C.Add(u.Mul(a.R)), B: b.C.Sub(u.Mul(b.R))}
	case l <= math.Abs(a.R-b.R):
		// One inside the other: both nearest points lie on the ray from the outer centre
		// through the inner one.
		if a.R <= b.R {
			return Gap{Distance: b.R - a.R - l, A: a.C.Add(u.Mul(-a.R)), B: b.C.Add(u.Mul(-b.R))}
		}
		return Gap{Distance: a.R - b.R - l, A: a.C.Add(u.Mul(a.R)), B: b.C.Add(u.Mul(b.R))}
	}
	x := (l*l + a.R*a.R - b.R*b.R) / (2 * l)
	h := math.Sqrt(max(a.R*a.R-x*x, 0))
	p := a.C.Add(u.Mul(x)).Add(geom.Vec{X: -u.Y, Y: u.X}.Mul(h))
	return Gap{A: p, B: p}
}

// ToOutline is the point of o's outline nearest p (A) and its distance, inside or out; B is p.
func (o *Outline) ToOutline(p geom.Vec) Gap {
	if c := o.Circle; c != nil {
		d := p.Sub(c.C)
		l := d.Len()
		u := geom.Vec{X: 1}
		if l > 0 {
			u = d.Mul(1 / l)
		}
		return Gap{Distance: math.Abs(l - c.R), A: c.C.Add(u.Mul(c.R)), B: p}
	}
	return o.nearest(p)
}

// ToPoint is the distance from o's shape to p, counted with its inside (0 when p lies in a
// closed shape): A is the closest point of the shape, B is p.
func (o *Outline) ToPoint(p geom.Vec) Gap {
	if c := o.Circle; c != nil {
		d := p.Sub(c.C)
		l := d.Len()
		if l <= c.R {
			return Gap{A: p, B: p}
		}
		return Gap{Distance: l - c.R, A: c.C.Add(d.Mul(c.R / l)), B: p}
	}
	if o.inside(p) {
		return Gap{A: p, B: p}
	}
	return o.nearest(p)
}

// nearest is the point of o's outline (its lines and arcs, and its lone points) nearest p:
// A on the outline, B at p. Circle is not consulted.
func (o *Outline) nearest(p geom.Vec) Gap {
	best := Gap{Distance: math.Inf(1)}
	for i := range o.Bound.edges {
		q := closestOnEdge(p, &o.Bound.edges[i])
		if d := p.Sub(q).Len(); d < best.Distance {
			best = Gap{Distance: d, A: q, B: p}
		}
	}
	for _, l := range o.Lines {
		if len(l) == 1 {
			if d := p.Sub(l[0]).Len(); d < best.Distance {
				best = Gap{Distance: d, A: l[0], B: p}
			}
		}
	}
	return best
}

// pointGap measures shapes of which one has no edges (an outline of a single point), the
// plain way: there are few of them.
func pointGap(a, b *Outline) Gap {
	best := Gap{Distance: math.Inf(1)}
	each := func(l []geom.Vec, f func(p, q geom.Vec)) {
		if len(l) == 1 {
			f(l[0], l[0])
		}
		for i := 1; i < len(l); i++ {
			f(l[i-1], l[i])
		}
	}
	for _, la := range a.Lines {
		for _, lb := range b.Lines {
			each(la, func(p1, p2 geom.Vec) {
				each(lb, func(q1, q2 geom.Vec) {
					if d, pa, pb := segmentGap(p1, p2, q1, q2); d < best.Distance {
						best = Gap{Distance: d, A: pa, B: pb}
					}
				})
			})
		}
	}
	return best
}

// inEachOther finds a point two shapes whose outlines do not meet share: the start of an
// outline of one inside the other's area.
func inEachOther(a, b *Outline) (geom.Vec, bool) {
	for _, pair := range [2][2]*Outline{{a, b}, {b, a}} {
		for _, p := range pair[0].Bound.starts {
			if pair[1].inside(p) {
				return p, true
			}
		}
	}
	return geom.Vec{}, false
}

// ClosestOnSegment is the point of the segment ab nearest p.
func ClosestOnSegment(p, a, b geom.Vec) geom.Vec {
	d := b.Sub(a)
	l2 := d.X*d.X + d.Y*d.Y
	if l2 == 0 {
		return a
	}
	t := ((p.X-a.X)*d.X + (p.Y-a.Y)*d.Y) / l2
	return a.Add(d.Mul(min(max(t, 0), 1)))
}

// segmentGap is the distance between segments that do not meet, and their closest points.
func segmentGap(a1, a2, b1, b2 geom.Vec) (float64, geom.Vec, geom.Vec) {
	best, pa, pb := math.Inf(1), geom.Vec{}, geom.Vec{}
	try := func(x, y geom.Vec) {
		if d := y.Sub(x).Len(); d < best {
			best, pa, pb = d, x, y
		}
	}
	try(a1, ClosestOnSegment(a1, b1, b2))
	try(a2, ClosestOnSegment(a2, b1, b2))
	try(ClosestOnSegment(b1, a1, a2), b1)
	try(ClosestOnSegment(b2, a1, a2), b2)
	return best, pa, pb
}

// BoxGap is a lower bound of the distance between shapes in the two boxes.
func BoxGap(a, b geom.Box) float64 {
	dx := max(a.Min.X-b.Max.X, b.Min.X-a.Max.X, 0)
	dy := max(a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y, 0)
	return math.Hypot(dx, dy)
}

// PolylineLength is the length of an open polyline.
func PolylineLength(pts []geom.Vec) float64 {
	l := 0.0
	for i := 1; i < len(pts); i++ {
		l += pts[i].Sub(pts[i-1]).Len()
	}
	return l
}

// RingLength is the length of a closed ring, its closing edge included.
func RingLength(r []overlay.Point) float64 {
	if len(r) < 2 {
		return 0
	}
	l := 0.0
	for i := 1; i < len(r); i++ {
		l += r[i].Sub(r[i-1]).Len()
	}
	return l + r[0].Sub(r[len(r)-1]).Len()
}

// RingMoment is a ring's unsigned area and its centroid, relative to its first point for
// precision far from the origin.
func RingMoment(r []overlay.Point) (float64, geom.Vec) {
	o := r[0]
	a, cx, cy := 0.0, 0.0, 0.0
	for i := 1; i+1 < len(r); i++ {
		p, q := r[i].Sub(o), r[i+1].Sub(o)
		cr := p.X*q.Y - q.X*p.Y
		a += cr
		cx += (p.X + q.X) * cr
		cy += (p.Y + q.Y) * cr
	}
	if a == 0 {
		return 0, geom.Vec(o)
	}
	return math.Abs(a / 2), geom.Vec{X: o.X + cx/(3*a), Y: o.Y + cy/(3*a)}
}
