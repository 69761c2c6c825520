package scene

// Closed forms of a shape's area, perimeter and centroid, for the measurements of a single
// shape: a circle's area is πr², not a 50-gon's. An affine map multiplies every area by the
// absolute value of its determinant and takes a centre to a centre, so areas and centroids
// of circles, ellipses and rounded rectangles stay exact under any transform. A circle or an
// ellipse maps to an ellipse whose semi-axes are the singular values of the map times its
// radii, whose perimeter is computed (kernel.EllipsePerimeter) rather than sampled; a rounded
// rectangle keeps an exact perimeter under a similarity, where its corners stay circular.
// A polygon with arc edges (a boolean, offset or fillet result that kept its arcs) is measured
// from its lines and arcs.

import (
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// exactShape is a shape's closed-form measures in world units.
type exactShape struct {
	area      float64 // 0 for an open shape
	perimeter float64 // for an open shape: its length
	centroid  geom.Vec
	// closed tells a shape with an area from an open one (an arc).
	closed bool
	// perimeterKnown is false where only the area and centroid have a closed form.
	perimeterKnown bool
}

// exactOf returns the closed-form measures of a shape drawn under the world map w, or false
// for a shape that has none here (polygons and paths measure exactly from their edges).
func exactOf(shape Shape, w geom.Affine) (exactShape, bool) {
	det := math.Abs(w.A*w.D - w.B*w.C)
	switch g := shape.(type) {
	case Circle:
		a, b := kernel.EllipseAxes(w, g.Radius, g.Radius)
		return exactShape{area: math.Pi * g.Radius * g.Radius * det, perimeter: kernel.EllipsePerimeter(a, b),
			centroid: w.Apply(g.Center), closed: true, perimeterKnown: true}, true
	case Ellipse:
		a, b := kernel.EllipseAxes(w, g.RX, g.RY)
		return exactShape{area: math.Pi * g.RX * g.RY * det, perimeter: kernel.EllipsePerimeter(a, b),
			centroid: w.Apply(g.Center), closed: true, perimeterKnown: true}, true
	case RoundedRect:
		rad := math.Max(0, math.Min(g.Radius, math.Min(g.Width, g.Height)/2))
		out := exactShape{area: (g.Width*g.Height - (4-math.Pi)*rad*rad) * det, centroid: w.Apply(g.Center), closed: true}
		if s, ok := kernel.SimilarityScale(w); ok {
			out.perimeter = (2*(g.Width+g.Height) - 8*rad + 2*math.Pi*rad) * s
			out.perimeterKnown = true
		}
		return out, true
	case Arc:
		// An arc's area is its pie slice (Arc.Region); its centroid lies on the bisector at
		// 4r·sin(θ/2)/(3θ) from the centre.
		sweep := g.sweepEnd() - g.Start
		mid := g.Start + sweep/2
		d := 4 * g.Radius * math.Sin(sweep/2) / (3 * sweep)
		out := exactShape{area: g.Radius * g.Radius * sweep / 2 * det, centroid: w.Apply(g.Center.Add(geom.Vec{X: d * math.Cos(mid), Y: d * math.Sin(mid)})), closed: true}
		if sc, ok := kernel.SimilarityScale(w); ok {
			out.perimeter, out.perimeterKnown = (2*g.Radius+g.Radius*sweep)*sc, true
			if sweep >= 2*math.Pi*(1-1e-12) { // a whole disc: the two radii are one line inside it
				out.perimeter = 2 * math.Pi * g.Radius * sc
			}
		}
		return out, true
	case Polygon:
		return exactPolygon(g, w)
	case *Polygon:
		return exactPolygon(*g, w)
	case *PathShape:
		if ring, ok := arcRing(g); ok {
			return exactPolygon(ring, w)
		}
	}
	return exactShape{}, false
}

// exactPolygon is the closed-form measures of a polygon with arc edges whose parts lie apart
// (at most maxExactMembers of them), from its rings' segments (geom/bulge.go); a polygon without
// arcs, or whose parts may overlap, has none here.
func exactPolygon(g Polygon, w geom.Affine) (exactShape, bool) {
	if !g.HasArcs() || len(g.Parts) > maxExactMembers {
		return exactShape{}, false
	}
	// Parts lie apart when their bounds do not meet, or when one lies within the bounds of a
	// hole of the other (a result's island in a hole).
	boxes := make([]geom.Box, len(g.Parts))
	holes := make([][]geom.Box, len(g.Parts))
	for i, part := range g.Parts {
		boxes[i] = Polygon{Parts: []PolygonPart{{Outer: part.Outer, OuterBulges: part.OuterBulges}}}.Outline().Bounds()
		for k, h := range part.Holes {
			holes[i] = append(holes[i], Polygon{Parts: []PolygonPart{{Outer: h, OuterBulges: part.holeBulges(k)}}}.Outline().Bounds())
		}
	}
	for i := range boxes {
		for j, o := range boxes[:i] {
			if kernel.BoxesMeet(o, boxes[i]) && !insideAny(boxes[i], holes[j]) && !insideAny(o, holes[i]) &&
				!partsApart(g.Parts[i], g.Parts[j]) {
				return exactShape{}, false
			}
		}
	}
	var area, length float64
	var moment geom.Vec
	ring := func(pts []geom.Vec, bul []float64, sign float64) {
		a, m := geom.BulgedMoment(pts, bul)
		if a < 0 {
			a, m = -a, m.Mul(-1)
		}
		area += sign * a
		moment = moment.Add(m.Mul(sign))
		length += geom.BulgedLength(pts, bul)
	}
	for _, part := range g.Parts {
		ring(part.Outer, part.OuterBulges, 1)
		for k, h := range part.Holes {
			ring(h, part.holeBulges(k), -1)
		}
	}
	if !(area > 0) {
		return exactShape{}, false
	}
	det := math.Abs(w.A*w.D - w.B*w.C)
	out := exactShape{area: area * det, centroid: w.Apply(moment.Mul(1 / area)), closed: true}
	if sc, ok := kernel.SimilarityScale(w); ok {
		out.perimeter, out.perimeterKnown = length*sc, true
	}
	return out, true
}

// exactNamed is the named entity's closed-form measures (exactEntity), or nil when it has
// none or does not exist (the flattened measure then answers, or says why).
func (s *Scene) exactNamed(name string) *exactShape {
	e, err := s.Get(name)
	if err != nil {
		return nil
	}
	ex, _ := s.exactEntity(e)
	return ex
}

// maxExactMembers caps the members of a group measured in closed form: the test that they
// lie apart compares every pair of their bounds.
const maxExactMembers = 64

// exactEntity returns the closed-form measures of an entity: a shape's (exactOf), or a
// group's when every member has them, encloses an area and lies apart from the others (their
// world bounds do not meet), so that the union of their areas is their sum. A group of one
// member is that member. circle is the entity's one circle when it is a circle (or a group
// of one) drawn under a similarity, for distances.
func (s *Scene) exactEntity(e *Entity) (ex *exactShape, circle *kernel.Circle) {
	type leaf struct {
		x   exactShape
		box geom.Box // in world coordinates
	}
	var leaves []leaf
	var walk func(e *Entity, w geom.Affine) bool
	walk = func(e *Entity, w geom.Affine) bool {
		if e.IsGroup() {
			for c := range e.children.all() {
				if isNote(c) {
					continue
				}
				if !walk(c, w.Mul(c.Transform.Matrix())) {
					return false
				}
			}
			return true
		}
		x, ok := exactOf(e.Shape, w)
		if !ok || len(leaves) == maxExactMembers {
			return false
		}
		// A shape that transforms carried outside ±MaxCoord is refused by the flattened
		// measures, which say so; its closed forms could overflow.
		b := shapeBounds(e.Shape, w)
		if inRange("", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y) != nil {
			return false
		}
		if c, isCircle := e.Shape.(Circle); isCircle {
			if scale, ok := kernel.SimilarityScale(w); ok {
				circle = &kernel.Circle{C: w.Apply(c.Center), R: c.Radius * scale}
			}
		}
		leaves = append(leaves, leaf{x, b})
		return true
	}
	if !walk(e, s.WorldMatrix(e)) || len(leaves) == 0 {
		return nil, nil
	}
	if len(leaves) == 1 {
		return &leaves[0].x, circle
	}
	sum := exactShape{closed: true, perimeterKnown: true}
	var moment geom.Vec
	for i, l := range leaves {
		if !l.x.closed {
			return nil, nil
		}
		for _, o := range leaves[:i] {
			if kernel.BoxesMeet(o.box, l.box) {
				return nil, nil
			}
		}
		sum.area += l.x.area
		sum.perimeter += l.x.perimeter
		sum.perimeterKnown = sum.perimeterKnown && l.x.perimeterKnown
		moment = moment.Add(l.x.centroid.Mul(l.x.area))
	}
	if sum.area == 0 {
		return nil, nil
	}
	sum.centroid = moment.Mul(1 / sum.area)
	return &sum, nil
}

// partsApart reports whether two parts whose bounds meet share no area: their flattened
// areas add up to the area of their union, but for what flattening overlaps where they
// share an arc.
func partsApart(a, b PolygonPart) bool {
	// slack is what flattening may make two parts that share an arc overlap: the concave
	// side's chords lie outside its arc, the convex side's inside, each by up to the
	// tolerance along the part's boundary.
	slack := 0.0
	flat := func(p PolygonPart) []overlay.Polygon {
		out := Polygon{Parts: []PolygonPart{p}}.Outline()
		tol := out.BudgetTolerance(curveTolerance(out.Bounds()), geom.MaxFlattenPoints) // the slack is Flatten's
		pls := out.Flatten(tol)
		poly := overlay.Polygon{Outer: overlay.OrientRing(kernel.CleanRing(pls[0].Points), true)}
		slack += tol * geom.BulgedLength(p.Outer, p.OuterBulges)
		for k, pl := range pls[1:] {
			poly.Holes = append(poly.Holes, overlay.OrientRing(kernel.CleanRing(pl.Points), false))
			if k < len(p.Holes) {
				slack += tol * geom.BulgedLength(p.Holes[k], p.holeBulges(k))
			}
		}
		return []overlay.Polygon{poly}
	}
	pa, pb := flat(a), flat(b)
	u, err := kernel.Boolean(overlay.OpUnion, pa, pb)
	if err != nil {
		// Parts that touch along a shared edge or arc are what the engine finds hardest
		// and what a result's parts do; parts that overlap by an area it handles.
		return true
	}
	sum, union := pa[0].Area()+pb[0].Area(), 0.0
	for _, p := range u {
		union += p.Area()
	}
	return math.Abs(sum-union) <= 1e-9*sum+2*slack
}

// insideAny reports whether b lies within one of boxes.
func insideAny(b geom.Box, boxes []geom.Box) bool {
	for _, o := range boxes {
		if o.Min.X <= b.Min.X && o.Min.Y <= b.Min.Y && b.Max.X <= o.Max.X && b.Max.Y <= o.Max.Y {
			return true
		}
	}
	return false
}

// arcRing is a path of one closed subpath of lines and circular arcs (an imported DXF outline,
// a slot drawn with A commands) as a polygon with arc edges, so that it is measured in closed
// form; false for anything else (Béziers, elliptical arcs, several subpaths), which the
// flattened measures answer.
func arcRing(p *PathShape) (Polygon, bool) {
	pts, bul, ok := kernel.BulgedSubpath(p.path)
	if !ok || !geom.HasBulge(bul) {
		return Polygon{}, false
	}
	return Polygon{Parts: []PolygonPart{{Outer: pts, OuterBulges: bul}}}, true
}
