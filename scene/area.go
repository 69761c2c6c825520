package scene

// From entities to areas: world-coordinate polygons of shapes, groups, paths and text, in the
// overlay engine's points, and the checks on their rings.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// areaOf is the area of one entity as non-overlapping polygons.
func (s *Scene) areaOf(name string) ([]overlay.Polygon, error) {
	return s.areaWithArcs(name, nil)
}

// areaWithArcs is areaOf recording the circular arcs the area was flattened from in src (when
// not nil), so that a result drawn from it keeps them (kernel.Arcs).
func (s *Scene) areaWithArcs(name string, src *kernel.Arcs) ([]overlay.Polygon, error) {
	polys, err := s.collectAreas([]string{name}, src)
	if err != nil {
		return nil, err
	}
	if len(polys) <= 1 {
		return polys, nil
	}
	return kernel.Boolean(overlay.OpUnion, polys, nil)
}

// collectAreas gathers the polygons of the named entities in world coordinates, and the arcs
// they were flattened from in src when it is not nil. Polygons of different entities (or
// parts) may overlap; the operation that uses them unions them.
func (s *Scene) collectAreas(names []string, src *kernel.Arcs) ([]overlay.Polygon, error) {
	out := make([]overlay.Polygon, 0, len(names)) // one each, most often
	for _, n := range names {
		e, err := s.Get(n)
		if err != nil {
			return nil, err
		}
		if out, err = s.collect(e, s.WorldMatrix(e), out, src); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Scene) collect(e *Entity, m geom.Affine, out []overlay.Polygon, src *kernel.Arcs) ([]overlay.Polygon, error) {
	if e.IsGroup() {
		for c := range e.children.all() {
			var err error
			if out, err = s.collect(c, m.Mul(c.Transform.Matrix()), out, src); err != nil {
				return nil, fmt.Errorf("reading group %q: %w", e.Name, err)
			}
		}
		return out, nil
	}
	var pg *Polygon
	switch sh := e.Shape.(type) {
	case Polygon:
		pg = &sh
	case *Polygon:
		pg = sh
	}
	// A polygon with arc edges is read through its outline, as curved shapes are: outer
	// rings run counter-clockwise and holes clockwise, so its nonzero fill is its area.
	if pg != nil && !pg.HasArcs() {
		// Polygon parts map directly: each part is its outer ring minus its holes, and
		// parts are unioned. Put has made every part's holes lie inside it and apart.
		for _, part := range pg.Parts {
			outer, err := worldRing(e, part.Outer, m)
			if err != nil {
				return nil, err
			}
			if len(outer) == 0 {
				continue
			}
			p := overlay.Polygon{Outer: overlay.OrientRing(outer, true)}
			for _, h := range part.Holes {
				hole, err := worldRing(e, h, m)
				if err != nil {
					return nil, err
				}
				if len(hole) > 0 {
					p.Holes = append(p.Holes, overlay.OrientRing(hole, false))
				}
			}
			out = append(out, p)
		}
		return out, nil
	}
	path, err := e.Shape.Region()
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", e.Kind(), e.Name, err)
	}
	if pg != nil {
		return s.collectArcPolygon(e, path, m, out, src)
	}
	var rings [][]overlay.Point
	world := path.Transform(m)
	// The arcs are recorded at the tolerance Flatten will use (MaxFlattenPoints).
	tol := world.BudgetTolerance(curveTolerance(world.Bounds()), geom.MaxFlattenPoints)
	src.AddPath(world, tol)
	for _, pl := range world.Flatten(tol) {
		if err := worldInRange(e, pl.Points); err != nil {
			return nil, err
		}
		r, err := checkedRing(e, kernel.CleanRing(pl.Points))
		if err != nil {
			return nil, err
		}
		if len(r) > 0 {
			rings = append(rings, r)
		}
	}
	switch len(rings) {
	case 0:
		return out, nil
	case 1:
		return append(out, overlay.Polygon{Outer: overlay.OrientRing(rings[0], true)}), nil
	}
	// Several subpaths (text, compound paths) fill by the nonzero rule, as they are drawn.
	polys, err := overlay.Nonzero(rings)
	if err != nil {
		return nil, fmt.Errorf("filling %s %q: %w", e.Kind(), e.Name, err)
	}
	return append(out, polys...), nil
}

// collectArcPolygon adds the area of a polygon with arc edges, whose outline is path. Its
// rings are simple as arcs, but where two arcs meet in a thin cusp (an inset's spike between
// two round joins) their chords may cross: the rings are filled as the engine fills raw
// offset curves, by the positive winding of rings that may cross themselves, which is the
// polygon's area (outer rings run counter-clockwise, holes clockwise).
func (s *Scene) collectArcPolygon(e *Entity, path geom.Path, m geom.Affine, out []overlay.Polygon, src *kernel.Arcs) ([]overlay.Polygon, error) {
	world := path.Transform(m)
	// The arcs are recorded at the tolerance Flatten will use (MaxFlattenPoints).
	tol := world.BudgetTolerance(curveTolerance(world.Bounds()), geom.MaxFlattenPoints)
	src.AddPath(world, tol)
	var rings []overlay.Ring
	for _, pl := range world.Flatten(tol) {
		if err := worldInRange(e, pl.Points); err != nil {
			return nil, err
		}
		if r := kernel.CleanRing(pl.Points); len(r) >= 3 {
			rings = append(rings, overlay.Ring{Points: r, SelfCrossing: true})
		}
	}
	polys, err := overlay.Overlay(rings, func(w, _ int32) bool { return w > 0 })
	if err != nil {
		return nil, fmt.Errorf("filling %s %q: %w", e.Kind(), e.Name, err)
	}
	return append(out, polys...), nil
}

// CurveRelative is the flattening tolerance of curves in area operations relative to the
// shape's size (the larger side of its world bounds); it is never coarser than
// DefaultTolerance. A circle drawn in metres is then flattened as finely as the same circle
// in millimetres.
const CurveRelative = 1e-3

func curveTolerance(b geom.Box) float64 {
	size := max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
	if !(size > 0) {
		return geom.DefaultTolerance
	}
	return min(geom.DefaultTolerance, size*CurveRelative)
}

// worldRing maps a polygon ring to world coordinates and checks it. It is worldInRange,
// kernel.CleanRing and checkedRing in one pass over the points, without the intermediate copy.
func worldRing(e *Entity, r []geom.Vec, m geom.Affine) ([]overlay.Point, error) {
	out := make([]overlay.Point, 0, len(r))
	for _, v := range r {
		p := overlay.Point(m.Apply(v))
		if !(math.Abs(p.X) <= MaxCoord && math.Abs(p.Y) <= MaxCoord) {
			return nil, fmt.Errorf("%s %q: %w", e.Kind(), e.Name, inRange("its world coordinate", p.X, p.Y))
		}
		if len(out) > 0 && kernel.NearlyEqual(out[len(out)-1], p) {
			continue
		}
		out = append(out, p)
	}
	for len(out) > 1 && kernel.NearlyEqual(out[len(out)-1], out[0]) {
		out = out[:len(out)-1]
	}
	return checkedRing(e, out)
}

// worldInRange refuses world coordinates that transforms carried outside ±MaxCoord.
func worldInRange(e *Entity, pts []geom.Vec) error {
	for _, p := range pts {
		if !(math.Abs(p.X) <= MaxCoord && math.Abs(p.Y) <= MaxCoord) {
			return fmt.Errorf("%s %q: %w", e.Kind(), e.Name, inRange("its world coordinate", p.X, p.Y))
		}
	}
	return nil
}

// checkedRing returns r if it is simple, nil if all its points lie on one line (a degenerate
// subpath adds nothing under any fill rule), and an ErrSelfIntersecting error naming where it
// crosses or touches itself otherwise. The place named is the exact crossing; the library's
// Validate would name the ring's first vertex, which is rarely where the problem is.
func checkedRing(e *Entity, r []overlay.Point) ([]overlay.Point, error) {
	if len(r) < 3 || kernel.CollinearRing(r) {
		return nil, nil
	}
	at, bad := kernel.SelfCrossing(r)
	if !bad {
		return r, nil
	}
	hint := "split the crossing subpath into separate closed subpaths"
	if e.Kind() == KindPolygon {
		hint = "fix the ring order or split it into two polygons"
	}
	return nil, fmt.Errorf("%s %q is %w (at or near %s %s); %s", e.Kind(), e.Name, ErrSelfIntersecting,
		formatCoord(at.X), formatCoord(at.Y), hint)
}

func formatCoord(v float64) string {
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'g', 10, 64)
}
