package scene

// Fillets and chamfers. A corner between two straight edges is cut back along both edges and
// the two new ends are joined by an arc tangent to both (a fillet, stored as a bulge, so it
// stays exact in measures and DXF) or by a straight edge (a chamfer).
//
// They are computed in the shape's own coordinates, the frame getEntity shows its points in:
// a fillet is a feature of the part, not of where it is placed, so a shape stretched by its
// transform or its group shows its fillets stretched with it, as it shows its other edges.
//
// The cutting of a ring is the kernel's (kernel.CutRing); what stays here reads the shape as
// a polygon, chooses the corners, words the refusals with the shape's name and draws the
// result.

import (
	"errors"
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

// kernel is the cut as the kernel makes it.
func (c cornerCut) kernel() kernel.Corner { return kernel.Corner{Chamfer: c.chamfer} }

// cornerWhy says why a corner of each kind other than sharp cannot be cut.
var cornerWhy = [...]string{
	kernel.CornerArc:      "is next to an arc edge; fillets and chamfers join two straight edges",
	kernel.CornerStraight: "is straight (its edges run on in one line)",
	kernel.CornerFolded:   "folds back on itself or has an edge of no length",
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

// cutRings lists the polygon's rings in the order their vertices are numbered (part 0's
// outer ring, its holes, part 1's outer ring...), each corner classified.
func cutRings(g Polygon) []kernel.CutRing {
	var pts [][]geom.Vec
	var bul [][]float64
	for _, part := range g.Parts {
		pts, bul = append(pts, part.Outer), append(bul, part.OuterBulges)
		for k, h := range part.Holes {
			pts, bul = append(pts, h), append(bul, part.holeBulges(k))
		}
	}
	return kernel.CutRings(pts, bul)
}

// selectCorners marks the corners to cut: those listed, each of which must exist and be
// sharp, or else every sharp corner, of which there must be one.
func selectCorners(rings []kernel.CutRing, corners []int, name string, cut cornerCut) error {
	total := 0
	if n := len(rings); n > 0 {
		total = rings[n-1].Base + len(rings[n-1].Pts)
	}
	if len(corners) == 0 {
		found := false
		for _, r := range rings {
			for i, k := range r.Kind {
				r.Cut[i] = k == kernel.CornerSharp
				found = found || r.Cut[i]
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
		i := c - r.Base
		if k := r.Kind[i]; k != kernel.CornerSharp {
			return fmt.Errorf("%w: corner %d of %q %s; leave it out of corners", ErrBadOption, c, name, cornerWhy[k])
		}
		r.Cut[i] = true
	}
	return nil
}

// ringOf is the ring that holds vertex c of the numbering across rings.
func ringOf(rings []kernel.CutRing, c int) *kernel.CutRing {
	for k := range rings {
		if c < rings[k].Base+len(rings[k].Pts) {
			return &rings[k]
		}
	}
	return nil
}

// cutPolygon is g with the marked corners of its rings cut.
func cutPolygon(g Polygon, rings []kernel.CutRing, size float64, cut cornerCut, name string) (Polygon, error) {
	out := Polygon{Parts: make([]PolygonPart, len(g.Parts))}
	next := 0
	ring := func() ([]geom.Vec, []float64, error) {
		r := rings[next]
		next++
		pts, bul, err := r.CutCorners(size, cut.kernel())
		var room *kernel.RoomError
		if errors.As(err, &room) {
			return nil, nil, fmt.Errorf("%w: %s %s %v is too large for corner %d of %q: the largest that fits there is %.6g (a cut may use half of an edge it shares with another, all of one it has to itself); use a smaller %s or fewer corners",
				ErrBadGeometry, cut.verb, cut.size, size, room.Corner, name, room.Fits, cut.size)
		}
		return pts, bul, err
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
