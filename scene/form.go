package scene

// A solid's exact form: while a solid is still what one sweep made of a profile of lines and
// circular arcs (no 3D boolean, hull or twist has changed it), the profile and the sweep say
// exactly what it is, where its mesh only approximates the curves. A section cut across the
// sweep is the profile itself, arcs kept; a STEP file writes planes, cylinders, cones and tori
// from it instead of facets.

import (
	"fmt"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/kernel"
)

// Form ops.
const (
	FormExtrude = "extrude"
	FormRevolve = "revolve"
)

// Form is a solid's exact shape in its own frame, the frame of its mesh (Place maps both to
// the world).
type Form struct {
	// Op is FormExtrude or FormRevolve.
	Op string `json:"op"`
	// Profile is the swept region: parts of outer rings counter-clockwise and holes
	// clockwise, their edges lines and circular arcs (bulges).
	//
	// An extrusion sweeps it, as it lies in the plane, from z = Base to Base + Height.
	//
	// A revolution turns it about the profile's Y axis by Angle radians (2π for a whole turn),
	// the profile's (x, y) going to (x·cos t, x·sin t, y): the Y axis becomes Z and the turn
	// starts in the XZ plane. The profile lies at x >= 0.
	Profile Polygon `json:"profile"`
	Base    float64 `json:"base,omitempty"`
	Height  float64 `json:"height,omitempty"`
	Angle   float64 `json:"angle,omitempty"`
	// Offset moves the swept solid (a primitive's centre).
	Offset Vec3 `json:"offset,omitzero"`
}

// validate reports a form that could not have come from a sweep.
func (f *Form) validate() error {
	switch f.Op {
	case FormExtrude:
		if !(f.Height > 0) || math.IsInf(f.Height, 0) || math.IsNaN(f.Base) || math.IsInf(f.Base, 0) {
			return fmt.Errorf("%w: an extrusion's form has height %v from %v; want a finite height > 0", ErrBadGeometry, f.Height, f.Base)
		}
	case FormRevolve:
		if !(f.Angle > 0 && f.Angle <= 2*math.Pi+1e-12) {
			return fmt.Errorf("%w: a revolution's form turns %v radians; want (0, 2π]", ErrBadGeometry, f.Angle)
		}
	default:
		return fmt.Errorf("%w: a solid's form is %q; want %q or %q", ErrBadGeometry, f.Op, FormExtrude, FormRevolve)
	}
	for _, c := range f.Offset {
		if math.IsNaN(c) || math.Abs(c) > MaxCoord {
			return fmt.Errorf("%w: a solid's form is offset by %v", ErrBadGeometry, f.Offset)
		}
	}
	if len(f.Profile.Parts) == 0 {
		return fmt.Errorf("%w: a solid's form has no profile", ErrBadGeometry)
	}
	return f.Profile.validate()
}

// curvesOf is a region as a polygon of lines and circular arcs, outer rings counter-clockwise
// and holes clockwise, each hole in the smallest outer ring around it; false when a subpath
// is not closed or holds a curve that is no circular arc (a Bézier, an ellipse).
func curvesOf(region geom.Path) (Polygon, bool) {
	type ring struct {
		pts    []geom.Vec
		bul    []float64
		chords []geom.Vec
		area   float64
	}
	var rings []ring
	start := 0
	for i, sg := range region {
		if sg.Kind != geom.SegClose {
			continue
		}
		pts, bul, ok := kernel.BulgedSubpath(region[start : i+1])
		if !ok {
			return Polygon{}, false
		}
		start = i + 1
		if len(pts) < 2 {
			continue
		}
		a := geom.BulgedArea(pts, bul)
		if a == 0 {
			continue
		}
		rings = append(rings, ring{pts: pts, bul: bul, chords: bulgedChords(pts, bul), area: a})
	}
	if start != len(region) || len(rings) == 0 || len(rings) > MaxProfileRings {
		return Polygon{}, false
	}
	// Nesting depth by the even-odd reading, as the profile's chords are oriented
	// (orientByNesting): an even depth bounds area, an odd one a hole.
	depth := make([]int, len(rings))
	for i, r := range rings {
		for j, o := range rings {
			if j != i && pointInRing(r.chords[0], o.chords) {
				depth[i]++
			}
		}
	}
	var g Polygon
	part := make([]int, len(rings))
	for i, r := range rings {
		if depth[i]%2 != 0 {
			continue
		}
		if r.area < 0 {
			r.pts, r.bul = geom.ReverseBulged(r.pts, r.bul)
		}
		part[i] = len(g.Parts)
		g.Parts = append(g.Parts, PolygonPart{Outer: r.pts, OuterBulges: r.bul})
	}
	for i, r := range rings {
		if depth[i]%2 == 0 {
			continue
		}
		// The hole's part is the outer ring one level up that holds it.
		owner := -1
		for j, o := range rings {
			if depth[j] == depth[i]-1 && pointInRing(r.chords[0], o.chords) {
				owner = j
			}
		}
		if owner < 0 {
			return Polygon{}, false
		}
		if r.area > 0 {
			r.pts, r.bul = geom.ReverseBulged(r.pts, r.bul)
		}
		p := &g.Parts[part[owner]]
		p.Holes = append(p.Holes, r.pts)
		p.HoleBulges = append(p.HoleBulges, r.bul)
	}
	return g, true
}

// EmptyEdge is how long an edge of a form's profile is, relative to the profile's size, at
// most, to be no edge: a boolean's seam (two arcs meeting, an edge of 1e-16), the end of an
// arc computed by its sine and cosine landing beside the start of the line after it, a
// rounded corner of radius 0. A form holds none (NewForm drops them), so that a section, a
// projection along the axis and a STEP face take its edges as they are: readers refuse a face
// of no width. The size is the larger side of the profile's box, and no less than a
// millionth of its reach from the origin, under which its coordinates' rounding lies.
const EmptyEdge = 1e-9

// NewForm is f as a solid keeps it: its profile without the edges no longer than EmptyEdge
// of its size, each one's end merged into its start, and without the rings that leaves too
// few points to bound an area (a part goes with its outer ring); nil when nothing is left.
// f's profile is valid (Polygon.validate).
func NewForm(f Form) *Form {
	var box geom.Box
	reach := 0.0
	for _, part := range f.Profile.Parts {
		for _, p := range part.Outer {
			box.Extend(p)
			reach = math.Max(reach, math.Max(math.Abs(p.X), math.Abs(p.Y)))
		}
	}
	sz := box.Size()
	tiny := EmptyEdge * math.Max(math.Max(sz.X, sz.Y), 1e-6*reach)
	var out Polygon
	changed := false
	for _, part := range f.Profile.Parts {
		pts, bul := dropEmptyEdges(part.Outer, part.OuterBulges, tiny)
		changed = changed || len(pts) != len(part.Outer)
		if len(pts) < minRingPoints(bul) {
			continue
		}
		np := PolygonPart{Outer: pts, OuterBulges: bul}
		for k, h := range part.Holes {
			pts, bul := dropEmptyEdges(h, part.holeBulges(k), tiny)
			changed = changed || len(pts) != len(h)
			if len(pts) < minRingPoints(bul) {
				continue
			}
			// Bulges for each hole before this one, nil where straight, as a part keeps them.
			if bul != nil {
				np.HoleBulges = append(np.HoleBulges, make([][]float64, len(np.Holes)-len(np.HoleBulges))...)
				np.HoleBulges = append(np.HoleBulges, bul)
			}
			np.Holes = append(np.Holes, pts)
		}
		out.Parts = append(out.Parts, np)
	}
	if len(out.Parts) == 0 {
		return nil
	}
	if changed {
		f.Profile = out
	}
	return &f
}

// dropEmptyEdges is a ring without its edges no longer than tiny: where vertex i lies that
// near the next, the edge before it ends at the next instead, so vertex i and its edge go.
// bul is nil for a straight ring, and stays nil.
func dropEmptyEdges(pts []geom.Vec, bul []float64, tiny float64) ([]geom.Vec, []float64) {
	empty := func(i int) bool { return pts[i].Sub(pts[(i+1)%len(pts)]).Len() <= tiny }
	i := 0
	for i < len(pts) && !empty(i) {
		i++
	}
	if i == len(pts) {
		return pts, bul // the ring as it came: most have no such edge
	}
	op := slices.Clone(pts[:i])
	var ob []float64
	if bul != nil {
		ob = slices.Clone(bul[:i])
	}
	for ; i < len(pts); i++ {
		if empty(i) {
			continue
		}
		op = append(op, pts[i])
		if bul != nil {
			ob = append(ob, bul[i])
		}
	}
	return op, ob
}

// bulgedChords is a bulged ring with each arc as chords fine enough to tell inside from
// outside for rings that do not cross (eight to a half turn).
func bulgedChords(pts []geom.Vec, bul []float64) []geom.Vec {
	out := make([]geom.Vec, 0, len(pts))
	for i, p := range pts {
		out = append(out, p)
		if bul[i] == 0 {
			continue
		}
		a := geom.EdgeArc(p, pts[(i+1)%len(pts)], bul[i])
		for k := 1; k < 8; k++ {
			out = append(out, a.At(a.Sweep*float64(k)/8))
		}
	}
	return out
}

// Volume is the form's volume in closed form, in its own frame: the profile's area times
// the height for an extrusion, and for a revolution the angle times the profile's first
// moment about the axis (Pappus).
func (f *Form) Volume() float64 {
	var area, momentX float64
	for _, part := range f.Profile.Parts {
		a, m := geom.BulgedMoment(part.Outer, part.OuterBulges)
		area, momentX = area+a, momentX+m.X
		for k, h := range part.Holes {
			a, m := geom.BulgedMoment(h, part.holeBulges(k))
			area, momentX = area+a, momentX+m.X
		}
	}
	if f.Op == FormRevolve {
		return f.Angle * momentX
	}
	return area * f.Height
}
