package scene

// Fillets and chamfers. A corner between two straight edges is cut back along both edges and
// the two new ends are joined by an arc tangent to both (a fillet, stored as a bulge, so it
// stays exact in measures and DXF) or by a straight edge (a chamfer).
//
// They are computed in the shape's own coordinates, the frame getEntity shows its points in:
// a fillet is a feature of the part, not of where it is placed, so a shape stretched by its
// transform or its group shows its fillets stretched with it, as it shows its other edges.

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/kernel"
)

// CornerOptions selects the corners Fillet and Chamfer cut and where the result is drawn.
type CornerOptions struct {
	// Corners lists the corners to cut by vertex index, numbered across the polygon's rings in
	// order: part 0's outer ring, then each of its holes, then part 1's outer ring, and so on
	// (a rectangle's corners run counter-clockwise from its bottom-left one). Empty: every
	// corner between two straight edges.
	Corners []int
	// Result names the entity to draw the result as; empty (or the input's own name) cuts the
	// input in place.
	Result string
}

// cornerSlack is how far past an edge's room, relative to the edge's length, a cut may reach
// and still be taken as reaching it exactly: a right angle's tangent length r/tan(π/4) comes
// out a rounding above r, and a square of side 2r filleted by r must still become a circle.
const cornerSlack = 1e-9

// Fillet rounds corners of the named polygon, rectangle or rounded rectangle: each corner
// between two straight edges (opt.Corners, or all of them, convex and concave alike) is
// replaced by an exact circular arc of the given radius tangent to both edges, stored as a
// bulge. The radius is in the shape's own coordinates (see the file comment).
//
// The radius must be finite and > 0. A listed corner must exist (the message gives the valid
// range) and lie between two straight edges that turn there: a corner next to an arc edge, a
// straight (180°) corner and a folded one are skipped by default and refused when listed. A
// fillet may use half of an edge it shares with another cut corner and all of an edge it has
// to itself; one that needs more is refused with the corner's index and the largest radius
// that fits there. The limit is local to the two edges: a large fillet can still reach another
// part of the outline, which the area operations then report.
//
// In place (opt.Result empty or the input's name), the entity keeps its transform, style,
// group and z rank, and becomes a polygon. A result of another name leaves the input and is
// drawn as Boolean draws its result, where the input is seen (mapped into the frame of the
// group of an existing result); when that map stretches unevenly the result keeps the input's
// coordinates and takes the map as its transform, so that its arcs stay arcs.
func (s *Scene) Fillet(name string, radius float64, opt CornerOptions) (*Entity, error) {
	return s.cutCorners(name, radius, opt, cornerCut{verb: "fillet", size: "radius"})
}

// Chamfer bevels corners as Fillet rounds them: each corner is replaced by a straight edge
// between the points at the given distance from it along its two edges. Its limits and
// placement are Fillet's, with the distance for the radius.
func (s *Scene) Chamfer(name string, distance float64, opt CornerOptions) (*Entity, error) {
	return s.cutCorners(name, distance, opt, cornerCut{verb: "chamfer", size: "distance", chamfer: true})
}

// cornerCut is what a fillet or chamfer does at one corner, and how its messages name it.
type cornerCut struct {
	verb, size string
	chamfer    bool
}

// reach is how far along each edge the cut of the given size runs from a corner where the
// outline turns by turn radians.
func (c cornerCut) reach(size, turn float64) float64 {
	if c.chamfer {
		return size
	}
	return size * math.Tan(math.Abs(turn)/2)
}

// bulge is the bulge of the edge that replaces a corner turning by turn: the fillet's arc
// turns as the outline does, which makes a convex corner's arc bulge out and a concave one's in.
func (c cornerCut) bulge(turn float64) float64 {
	if c.chamfer {
		return 0
	}
	return math.Tan(turn / 4)
}

// cornerKind is what a corner is, which decides whether it can be cut.
type cornerKind int

const (
	cornerSharp    cornerKind = iota // between two straight edges: cut
	cornerArc                        // an edge is an arc
	cornerStraight                   // the edges run on in one line (180°)
	cornerFolded                     // the edges fold back on each other, or one has no length
)

// cornerWhy says why a corner of each kind other than sharp cannot be cut.
var cornerWhy = [...]string{
	cornerArc:      "is next to an arc edge; fillets and chamfers join two straight edges",
	cornerStraight: "is straight (its edges run on in one line)",
	cornerFolded:   "folds back on itself or has an edge of no length",
}

// cutRing is one ring of the polygon being cut: its points and bulges, the index of its first
// vertex in the numbering across rings, and what each corner is and whether it is cut.
type cutRing struct {
	pts  []geom.Vec
	bul  []float64
	base int
	kind []cornerKind
	turn []float64 // the signed turn at each sharp corner, radians, left positive
	cut  []bool
}

// cutCorners cuts corners of the named entity as Fillet describes.
func (s *Scene) cutCorners(name string, size float64, opt CornerOptions, cut cornerCut) (*Entity, error) {
	if err := positive(cut.verb+" "+cut.size, size); err != nil {
		return nil, err
	}
	e, err := s.Get(name)
	if err != nil {
		return nil, err
	}
	result := opt.Result
	if result == "" {
		result = name
	}
	if err := s.checkResultName(result); err != nil {
		return nil, err
	}
	g, err := cornerPolygon(e)
	if err != nil {
		return nil, err
	}
	rings := cutRings(g)
	if err := selectCorners(rings, opt.Corners, name, cut); err != nil {
		return nil, err
	}
	out, err := cutPolygon(g, rings, size, cut, name)
	if err != nil {
		return nil, err
	}
	return s.putCut(e, out, result)
}

// cornerPolygon is the entity's shape as a polygon in its own coordinates: a rectangle's four
// corners, a rounded rectangle's straight sides and corner arcs.
func cornerPolygon(e *Entity) (Polygon, error) {
	switch g := e.Shape.(type) {
	case Polygon:
		return g, nil
	case Rect:
		return rectPolygon(g.Center, g.Width/2, g.Height/2), nil
	case RoundedRect:
		return roundedRectPolygon(g), nil
	}
	return Polygon{}, fmt.Errorf("%w: %q is a %s; fillets and chamfers work on polygons (boolean and offset results too), rectangles and rounded rectangles",
		ErrBadGeometry, e.Name, e.Kind())
}

// rectPolygon is the rectangle about c of half sizes hw, hh, counter-clockwise from its
// bottom-left corner as its outline runs.
func rectPolygon(c geom.Vec, hw, hh float64) Polygon {
	return Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{
		{X: c.X - hw, Y: c.Y - hh}, {X: c.X + hw, Y: c.Y - hh}, {X: c.X + hw, Y: c.Y + hh}, {X: c.X - hw, Y: c.Y + hh},
	}}}}
}

// roundedRectPolygon is the rounded rectangle's outline as a ring of its sides and quarter
// circle arcs, counter-clockwise from the start of its bottom side; a side of no length (the
// radius half the width or height) is left out.
func roundedRectPolygon(r RoundedRect) Polygon {
	hw, hh := r.Width/2, r.Height/2
	rad := math.Min(r.Radius, math.Min(hw, hh))
	if rad <= 0 {
		return rectPolygon(r.Center, hw, hh)
	}
	c, k := r.Center, math.Tan(math.Pi/8)
	x0, x1, y0, y1 := c.X-hw, c.X+hw, c.Y-hh, c.Y+hh
	pts := []geom.Vec{{X: x0 + rad, Y: y0}, {X: x1 - rad, Y: y0}, {X: x1, Y: y0 + rad}, {X: x1, Y: y1 - rad}, {X: x1 - rad, Y: y1}, {X: x0 + rad, Y: y1}, {X: x0, Y: y1 - rad}, {X: x0, Y: y0 + rad}}
	bul := []float64{0, k, 0, k, 0, k, 0, k}
	var part PolygonPart
	for i, p := range pts {
		if bul[i] == 0 && p == pts[(i+1)%len(pts)] {
			continue
		}
		part.Outer = append(part.Outer, p)
		part.OuterBulges = append(part.OuterBulges, bul[i])
	}
	return Polygon{Parts: []PolygonPart{part}}
}

// cutRings lists the polygon's rings in the order their vertices are numbered, each corner
// classified.
func cutRings(g Polygon) []cutRing {
	var rings []cutRing
	base := 0
	add := func(pts []geom.Vec, bul []float64) {
		r := cutRing{pts: pts, bul: bul, base: base, kind: make([]cornerKind, len(pts)), turn: make([]float64, len(pts)), cut: make([]bool, len(pts))}
		for i := range pts {
			r.kind[i], r.turn[i] = classifyCorner(pts, bul, i)
		}
		rings = append(rings, r)
		base += len(pts)
	}
	for _, part := range g.Parts {
		add(part.Outer, part.OuterBulges)
		for k, h := range part.Holes {
			add(h, part.holeBulges(k))
		}
	}
	return rings
}

// classifyCorner says what corner i of the ring is and, for a sharp one, by how much the
// outline turns there (left positive).
func classifyCorner(pts []geom.Vec, bul []float64, i int) (cornerKind, float64) {
	n := len(pts)
	prev := (i + n - 1) % n
	if geom.BulgeOf(bul, prev) != 0 || geom.BulgeOf(bul, i) != 0 {
		return cornerArc, 0
	}
	d1, d2 := pts[i].Sub(pts[prev]), pts[(i+1)%n].Sub(pts[i])
	l1, l2 := d1.Len(), d2.Len()
	if l1 == 0 || l2 == 0 {
		return cornerFolded, 0
	}
	cross, dot := d1.X*d2.Y-d1.Y*d2.X, d1.X*d2.X+d1.Y*d2.Y
	if math.Abs(cross) <= 1e-12*l1*l2 {
		if dot > 0 {
			return cornerStraight, 0
		}
		return cornerFolded, 0
	}
	return cornerSharp, math.Atan2(cross, dot)
}

// selectCorners marks the corners to cut: those listed, each of which must exist and be
// sharp, or else every sharp corner, of which there must be one.
func selectCorners(rings []cutRing, corners []int, name string, cut cornerCut) error {
	total := 0
	if n := len(rings); n > 0 {
		total = rings[n-1].base + len(rings[n-1].pts)
	}
	if len(corners) == 0 {
		found := false
		for _, r := range rings {
			for i, k := range r.kind {
				r.cut[i] = k == cornerSharp
				found = found || r.cut[i]
			}
		}
		if !found {
			return fmt.Errorf("%w: %q has no corner between two straight edges to %s (its corners are all next to arcs or straight)", ErrBadGeometry, name, cut.verb)
		}
		return nil
	}
	for _, c := range corners {
		if c < 0 || c >= total {
			return fmt.Errorf("%w: %q has no corner %d; its corners are 0..%d, numbered across its rings (outer ring, its holes, then the next part)", ErrBadOption, name, c, total-1)
		}
		r := ringOf(rings, c)
		i := c - r.base
		if k := r.kind[i]; k != cornerSharp {
			return fmt.Errorf("%w: corner %d of %q %s; leave it out of corners", ErrBadOption, c, name, cornerWhy[k])
		}
		r.cut[i] = true
	}
	return nil
}

// ringOf is the ring that holds vertex c of the numbering across rings.
func ringOf(rings []cutRing, c int) *cutRing {
	for k := range rings {
		if c < rings[k].base+len(rings[k].pts) {
			return &rings[k]
		}
	}
	return nil
}

// cutPolygon is g with the marked corners of its rings cut.
func cutPolygon(g Polygon, rings []cutRing, size float64, cut cornerCut, name string) (Polygon, error) {
	out := Polygon{Parts: make([]PolygonPart, len(g.Parts))}
	next := 0
	ring := func() ([]geom.Vec, []float64, error) {
		r := rings[next]
		next++
		return cutRingCorners(r, size, cut, name)
	}
	for i, part := range g.Parts {
		var p PolygonPart
		var err error
		if p.Outer, p.OuterBulges, err = ring(); err != nil {
			return Polygon{}, err
		}
		for k := range part.Holes {
			h, bul, err := ring()
			if err != nil {
				return Polygon{}, err
			}
			p.Holes = append(p.Holes, h)
			if bul != nil {
				if p.HoleBulges == nil {
					p.HoleBulges = make([][]float64, len(part.Holes))
				}
				p.HoleBulges[k] = bul
			}
		}
		out.Parts[i] = p
	}
	return out, nil
}

// cutRingCorners cuts the marked corners of one ring, after checking that each cut fits.
// An edge that two cuts (or one cut reaching its far end) use up entirely is left out, so
// that the arcs or cuts on either side of it meet.
func cutRingCorners(r cutRing, size float64, cut cornerCut, name string) ([]geom.Vec, []float64, error) {
	n := len(r.pts)
	reach := make([]float64, n)
	for i := range n {
		if r.cut[i] {
			reach[i] = cut.reach(size, r.turn[i])
		}
	}
	if err := r.checkRoom(reach, size, cut, name); err != nil {
		return nil, nil, err
	}
	var pts []geom.Vec
	var bul []float64
	for i, v := range r.pts {
		next := (i + 1) % n
		used := reach[i] + reach[next]
		spent := used > 0 && used >= r.pts[next].Sub(v).Len()*(1-cornerSlack)
		if !r.cut[i] {
			if !spent {
				pts, bul = append(pts, v), append(bul, geom.BulgeOf(r.bul, i))
			}
			continue
		}
		prev := r.pts[(i+n-1)%n]
		pts, bul = append(pts, toward(v, prev, reach[i])), append(bul, cut.bulge(r.turn[i]))
		if !spent {
			pts, bul = append(pts, toward(v, r.pts[next], reach[i])), append(bul, 0)
		}
	}
	if !geom.HasBulge(bul) {
		bul = nil
	}
	return pts, bul, nil
}

// toward is the point at distance d from p on the way to q.
func toward(p, q geom.Vec, d float64) geom.Vec {
	u := q.Sub(p)
	return p.Add(u.Mul(d / u.Len()))
}

// checkRoom refuses a cut that runs past the middle of an edge it shares with another cut, or
// past the end of an edge it has to itself, naming the corner and the largest size that fits.
func (r cutRing) checkRoom(reach []float64, size float64, cut cornerCut, name string) error {
	n := len(r.pts)
	for i := range n {
		if !r.cut[i] {
			continue
		}
		prev, next := (i+n-1)%n, (i+1)%n
		room := math.Min(r.edgeRoom(prev, i), r.edgeRoom(i, next))
		if reach[i] > room*(1+cornerSlack) {
			return fmt.Errorf("%w: %s %s %v is too large for corner %d of %q: the largest that fits there is %.6g (a cut may use half of an edge it shares with another, all of one it has to itself); use a smaller %s or fewer corners",
				ErrBadGeometry, cut.verb, cut.size, size, r.base+i, name, size*room/reach[i], cut.size)
		}
	}
	return nil
}

// edgeRoom is how much of the edge between corners a and b (one of them cut) a cut at its
// end may use: half when both ends are cut, else all of it.
func (r cutRing) edgeRoom(a, b int) float64 {
	l := r.pts[b].Sub(r.pts[a]).Len()
	if r.cut[a] && r.cut[b] {
		return l / 2
	}
	return l
}

// putCut draws the cut polygon: in place keeping the entity's transform and style, else as
// the result (see Fillet).
func (s *Scene) putCut(e *Entity, g Polygon, result string) (*Entity, error) {
	if result == e.Name {
		tr, st := e.Transform, e.Style
		n, err := s.Put(result, g)
		if err != nil {
			return nil, err
		}
		n.Transform, n.Style = tr, st
		return n, nil
	}
	place, err := s.resultPlace(result)
	if err != nil {
		return nil, err
	}
	m := place.Mul(s.WorldMatrix(e))
	if _, ok := kernel.SimilarityScale(m); ok {
		return s.Put(result, mapPolygon(g, m))
	}
	tr, err := decompose(m, Transform{Scale: geom.Vec{X: 1, Y: 1}, Pivot: localBounds(g).Center()})
	if err != nil {
		return nil, fmt.Errorf("placing the result %q: %w", result, err)
	}
	n, err := s.Put(result, g)
	if err != nil {
		return nil, err
	}
	n.Transform = tr
	return n, nil
}

// mapPolygon maps a polygon by a similarity m: its arcs stay arcs, turning the other way
// under a mirror.
func mapPolygon(g Polygon, m geom.Affine) Polygon {
	mirror := m.Det() < 0
	ring := func(pts []geom.Vec, bul []float64) ([]geom.Vec, []float64) {
		out := make([]geom.Vec, len(pts))
		for i, p := range pts {
			out[i] = m.Apply(p)
		}
		if bul == nil || !mirror {
			return out, bul
		}
		neg := make([]float64, len(bul))
		for i, k := range bul {
			neg[i] = -k
		}
		return out, neg
	}
	out := Polygon{Parts: make([]PolygonPart, len(g.Parts))}
	for i, part := range g.Parts {
		var p PolygonPart
		p.Outer, p.OuterBulges = ring(part.Outer, part.OuterBulges)
		for k, h := range part.Holes {
			pts, bul := ring(h, part.holeBulges(k))
			p.Holes = append(p.Holes, pts)
			if bul != nil {
				if p.HoleBulges == nil {
					p.HoleBulges = make([][]float64, len(part.Holes))
				}
				p.HoleBulges[k] = bul
			}
		}
		out.Parts[i] = p
	}
	return out
}
