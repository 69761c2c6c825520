package scene

// Profiles: a closed 2D entity as a solid is made from it. Its curves stay curves up to this
// point; here, and only here, they become chords, at a tolerance the caller chooses (the
// solid's, not a picture's), and the measures the shape has in closed form come along so that
// the solid's can be exact.

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
)

// Chords is how a profile's curves become chords.
type Chords struct {
	// Rel and Abs bound an arc's sagitta: it stays within max(Rel·r, Abs) of the arc of
	// radius r; a Bézier's chords stay within Abs of it.
	Rel, Abs float64
	// Segments, when > 0, is the number of chords of a whole circle instead (an arc gets its
	// share of them, at least one).
	Segments int
}

// Caps on one profile, documented in docs/limits.md.
const (
	// MaxProfilePoints caps the points of one profile once its curves are chords.
	MaxProfilePoints = 1_000_000
	// MaxProfileRings caps the contours of one shape of a profile: which of them are holes is
	// found by testing each against the others.
	MaxProfileRings = 10_000
)

// Profile is a closed 2D entity ready to become a solid.
type Profile struct {
	// Rings are the entity's contours in world coordinates, counter-clockwise around area and
	// clockwise around holes, so that where the members of a group overlap, their areas unite
	// (the positive fill rule).
	Rings [][]geom.Vec
	// Area and Centroid are the region's, and Perimeter the length of its boundary; each is
	// in closed form (the curves as curves) when Exact (PerimeterExact) is set, else measured
	// on the chords.
	Area, Perimeter       float64
	Centroid              geom.Vec
	Exact, PerimeterExact bool
	// Curved reports that a curve became chords.
	Curved bool
	// Curves is the region with its curves, when it is one shape whose edges are lines and
	// circular arcs (not a group, a text, an ellipse or a Bézier): what a solid's Form keeps.
	Curves *Polygon
}

// Profile returns the named entity's profile: a closed shape, a text, or a group of them.
func (s *Scene) Profile(name string, ch Chords) (*Profile, error) {
	e, err := s.Get(name)
	if err != nil {
		return nil, err
	}
	pr := &Profile{}
	points := 0
	var walk func(e *Entity, m geom.Affine) error
	walk = func(e *Entity, m geom.Affine) error {
		if e.IsGroup() {
			for c := range e.children.all() {
				if isNote(c) {
					continue
				}
				if err := walk(c, m.Mul(c.Transform.Matrix())); err != nil {
					return err
				}
			}
			return nil
		}
		if e.Kind() == KindSolid {
			return fmt.Errorf("%w: %q is a solid; a profile is a closed 2D shape", ErrNotClosed, e.Name)
		}
		region, err := e.Shape.Region()
		if err != nil {
			return fmt.Errorf("%q: %w", e.Name, err)
		}
		rings, curved := chordsOf(region.Transform(m), ch, &points)
		if points > MaxProfilePoints {
			return fmt.Errorf("%w: the profile %q has more than %d points (MaxProfilePoints) once its curves are chords; use fewer segments or a coarser tolerance", ErrLimit, name, MaxProfilePoints)
		}
		pr.Curved = pr.Curved || curved
		if len(rings) > MaxProfileRings && e.Kind() != KindText {
			return fmt.Errorf("%w: %q has %d contours, over %d (MaxProfileRings); make the solid of fewer shapes at a time and unite the solids", ErrLimit, e.Name, len(rings), MaxProfileRings)
		}
		if e.Kind() == KindText {
			orientBySign(rings)
		} else {
			orientByNesting(rings)
		}
		pr.Rings = append(pr.Rings, rings...)
		return nil
	}
	if err := walk(e, s.WorldMatrix(e)); err != nil {
		return nil, err
	}
	if len(pr.Rings) == 0 {
		return nil, fmt.Errorf("%w: %q encloses no area; a solid is made of a closed shape", ErrNotClosed, name)
	}
	var moment geom.Vec
	for _, r := range pr.Rings {
		a, m := vecRingMoment(r)
		pr.Area += a
		moment = moment.Add(m)
		for i := range r {
			pr.Perimeter += r[(i+1)%len(r)].Sub(r[i]).Len()
		}
	}
	if pr.Area > 0 {
		pr.Centroid = moment.Mul(1 / pr.Area)
	}
	if ex, _ := s.exactEntity(e); ex != nil && ex.closed {
		pr.Area, pr.Centroid, pr.Exact = ex.area, ex.centroid, true
		if ex.perimeterKnown {
			pr.Perimeter, pr.PerimeterExact = ex.perimeter, true
		}
	} else if !pr.Curved && !e.IsGroup() {
		// Straight edges only, of one shape whose rings nest: the chords are the shape.
		pr.Exact, pr.PerimeterExact = true, e.Kind() != KindText
	}
	if !(pr.Area > 0) {
		return nil, fmt.Errorf("%w: %q encloses no area; a solid is made of a closed shape", ErrNotClosed, name)
	}
	if !e.IsGroup() && e.Kind() != KindText {
		if region, err := e.Shape.Region(); err == nil {
			if g, ok := curvesOf(region.Transform(s.WorldMatrix(e))); ok {
				pr.Curves = &g
			}
		}
	}
	return pr, nil
}

// chordsOf flattens a closed region into rings, adding their points to *points; curved
// reports that some curve became chords.
func chordsOf(p geom.Path, ch Chords, points *int) (rings [][]geom.Vec, curved bool) {
	var cur []geom.Vec
	var here geom.Vec
	add := func(v geom.Vec) {
		if n := len(cur); n == 0 || cur[n-1] != v {
			cur = append(cur, v)
			*points++
		}
		here = v
	}
	end := func() {
		if n := len(cur); n > 1 && cur[n-1] == cur[0] {
			cur = cur[:n-1]
		}
		if len(cur) >= 3 {
			rings = append(rings, cur)
		}
		cur = nil
	}
	for _, sg := range p {
		if *points > MaxProfilePoints {
			return rings, curved
		}
		switch sg.Kind {
		case geom.SegMove:
			end()
			add(sg.P[0])
		case geom.SegLine:
			add(sg.P[0])
		case geom.SegQuad:
			curved = true
			p0 := here
			n := geom.CurveSegments(p0.Sub(sg.P[0].Mul(2)).Add(sg.P[1]).Len()*2, ch.Abs)
			for i := 1; i <= n; i++ {
				add(geom.QuadAt(p0, sg.P[0], sg.P[1], float64(i)/float64(n)))
			}
		case geom.SegCubic:
			curved = true
			p0 := here
			dd := math.Max(p0.Sub(sg.P[0].Mul(2)).Add(sg.P[1]).Len(), sg.P[0].Sub(sg.P[1].Mul(2)).Add(sg.P[2]).Len())
			n := geom.CurveSegments(6*dd, ch.Abs)
			for i := 1; i <= n; i++ {
				add(geom.CubicAt(p0, sg.P[0], sg.P[1], sg.P[2], float64(i)/float64(n)))
			}
		case geom.SegArc:
			curved = true
			sweep := math.Abs(sg.T1 - sg.T0)
			var n int
			if ch.Segments > 0 {
				n = max(1, int(math.Ceil(float64(ch.Segments)*sweep/(2*math.Pi)-1e-9)))
			} else {
				r := math.Max(sg.P[1].Len(), sg.P[2].Len())
				n = geom.ArcSegments(r, sweep, math.Max(ch.Rel*r, ch.Abs))
			}
			add(sg.ArcPoint(sg.T0))
			for i := 1; i <= n; i++ {
				add(sg.ArcPoint(sg.T0 + (sg.T1-sg.T0)*float64(i)/float64(n)))
			}
		case geom.SegClose:
			end()
		}
	}
	end()
	return rings, curved
}

// vecRingMoment is a ring's signed area and first moment (area times centroid).
func vecRingMoment(r []geom.Vec) (float64, geom.Vec) {
	var a float64
	var m geom.Vec
	for i := range r {
		p, q := r[i], r[(i+1)%len(r)]
		c := p.X*q.Y - q.X*p.Y
		a += c
		m.X += (p.X + q.X) * c
		m.Y += (p.Y + q.Y) * c
	}
	return a / 2, m.Mul(1.0 / 6)
}

// orientBySign turns a text's glyph contours so that the letters' area is positive: a font
// draws its outlines one way round and its counters the other, which the glyphs keep, but
// fonts differ in which way is which.
func orientBySign(rings [][]geom.Vec) {
	total := 0.0
	for _, r := range rings {
		a, _ := vecRingMoment(r)
		total += a
	}
	if total < 0 {
		for _, r := range rings {
			reverseRing(r)
		}
	}
}

// orientByNesting turns a shape's rings counter-clockwise where they bound area and clockwise
// where they bound a hole, by how many of the others enclose each (the even-odd reading of a
// polygon's outer rings and holes).
func orientByNesting(rings [][]geom.Vec) {
	boxes := make([]geom.Box, len(rings))
	for i, r := range rings {
		for _, p := range r {
			boxes[i].Extend(p)
		}
	}
	for i, r := range rings {
		depth := 0
		p := r[0]
		for j, o := range rings {
			if b := boxes[j]; j != i && p.X >= b.Min.X && p.X <= b.Max.X && p.Y >= b.Min.Y && p.Y <= b.Max.Y && pointInRing(p, o) {
				depth++
			}
		}
		a, _ := vecRingMoment(r)
		if (depth%2 == 0) != (a > 0) {
			reverseRing(r)
		}
	}
}

func reverseRing(r []geom.Vec) {
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
}

// pointInRing reports whether p lies inside the ring (crossing number).
func pointInRing(p geom.Vec, r []geom.Vec) bool {
	in := false
	for i, j := 0, len(r)-1; i < len(r); j, i = i, i+1 {
		a, b := r[i], r[j]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}
