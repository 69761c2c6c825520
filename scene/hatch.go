package scene

// Hatches are drafting properties like linetypes (linetype.go): they mark the inside of a
// closed shape for the reader of a drawing (a section, a material) and never change its
// outline, so every measure and boolean ignores them. A hatch is one of a fixed set of
// patterns (drafting.HatchPatterns). The pictures get the hatch as line segments clipped to
// the shape's area (Scene.Hatches), computed once per picture: the scene finds the area's
// rings and keeps the budget, drafting.ClipHatch clips the pattern's lines to them.

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// MaxHatchSegments caps the hatch segments (lines, dashes and dots) of one scene, so that a
// pattern spacing tiny beside its shape cannot make a picture of millions of lines; it is
// documented in docs/limits.md.
const MaxHatchSegments = 200_000

// Hatchable reports whether an entity's shape can carry a hatch: a shape that encloses an
// area. Lines, arcs and open paths cannot (an arc's area, the pie slice booleans take, is not
// what it draws).
func Hatchable(e *Entity) bool {
	if e.IsGroup() || e.Kind() == KindArc {
		return false
	}
	_, err := e.Shape.Region()
	return err == nil
}

// SetHatch gives an entity a hatch pattern at an angle (radians) and a scale (0 means 1),
// drawn in color (nil: the entity's stroke colour); on a group, the group's closed members
// without a hatch of their own are hatched with it. "" or "none" removes it. A shape that
// encloses nothing is refused, and so is a hatch whose segments would pass MaxHatchSegments.
func (s *Scene) SetHatch(name, pattern string, angle, scale float64, color *Color) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if pattern == "" || pattern == "none" {
		st := &e.Style
		st.Hatch, st.HatchAngle, st.HatchScale, st.HatchColor = "", 0, 0, nil
		return nil
	}
	st := Style{Hatch: pattern, HatchAngle: angle, HatchScale: scale, HatchColor: color}
	if err := checkHatch(st); err != nil {
		return err
	}
	if !e.IsGroup() && !Hatchable(e) {
		return fmt.Errorf("%w: a hatch fills an area, and %s %q encloses none; hatch a closed shape (a polygon, a rect, a circle, a path ending in Z)", ErrNotClosed, e.Kind(), name)
	}
	if scale == 1 {
		scale = 0 // 1 is the default; storing it as 0 keeps one form for one meaning
	}
	old := e.Style
	e.Style.Hatch, e.Style.HatchAngle, e.Style.HatchScale, e.Style.HatchColor = pattern, angle, scale, copyColor(color)
	wasDrafting := s.drafting
	s.drafting = true
	if err := s.checkHatchCount(e); err != nil {
		e.Style, s.drafting = old, wasDrafting
		return err
	}
	return nil
}

// checkHatch validates a style's hatch fields.
func checkHatch(st Style) error {
	if st.Hatch == "" {
		if st.HatchAngle != 0 || st.HatchScale != 0 || st.HatchColor != nil {
			return fmt.Errorf("%w: hatch angle, scale or colour without a hatch pattern", ErrBadGeometry)
		}
		return nil
	}
	if _, err := drafting.LookupHatch(st.Hatch); err != nil {
		return err
	}
	if math.IsNaN(st.HatchScale) || math.IsInf(st.HatchScale, 0) || st.HatchScale < 0 || st.HatchScale > MaxCoord {
		return fmt.Errorf("%w: hatch scale must be a number > 0, got %v", ErrBadGeometry, st.HatchScale)
	}
	if math.IsNaN(st.HatchAngle) || math.IsInf(st.HatchAngle, 0) {
		return fmt.Errorf("%w: hatch angle must be a finite number of radians, got %v", ErrBadGeometry, st.HatchAngle)
	}
	return checkColor(st.HatchColor)
}

// checkHatchCount refuses a hatch on e (or, for a group, on its members) whose segments pass
// MaxHatchSegments.
func (s *Scene) checkHatchCount(e *Entity) error {
	budget := MaxHatchSegments
	var visit func(e *Entity) error
	visit = func(e *Entity) error {
		if e.IsGroup() {
			for c := range e.children.all() {
				if err := visit(c); err != nil {
					return err
				}
			}
			return nil
		}
		h, err := s.hatching(e, s.Drawn(e).Style, budget)
		budget -= len(h.Segments)
		return err
	}
	return visit(e)
}

// Hatching is the hatch of one shape in world coordinates.
type Hatching struct {
	// Solid is set for a solid fill: the writer fills the shape's outline in Color.
	Solid bool
	// Segments are the pattern's lines, dashes and dots (both ends equal) clipped to the
	// shape's area, holes left out.
	Segments [][2]geom.Vec
	// Color is the hatch colour: its own, else the drawn stroke's, else the fill's.
	Color Color
	// Pattern is the pattern's name; Angle (radians) and Scale (never 0) place it.
	Pattern      string
	Angle, Scale float64
}

// Hatches is the hatch of every drawn shape that has one (its own or its group's), keyed by
// entity; nil when the scene has none. It fails when the scene's hatch segments together pass
// MaxHatchSegments, naming the shape where they did.
func (s *Scene) Hatches() (map[*Entity]Hatching, error) {
	if !s.drafting {
		return nil, nil
	}
	var out map[*Entity]Hatching
	budget := MaxHatchSegments
	for _, e := range s.Walk() {
		if e.IsGroup() {
			continue
		}
		d := s.Drawn(e)
		if d.Style.Hatch == "" || !d.Plot || !Hatchable(e) {
			continue
		}
		h, err := s.hatching(e, d.Style, budget)
		if err != nil {
			return nil, err
		}
		budget -= len(h.Segments)
		if out == nil {
			out = make(map[*Entity]Hatching)
		}
		out[e] = h
	}
	return out, nil
}

// hatching computes e's hatch with drawn style st, failing when it has more than budget
// segments.
func (s *Scene) hatching(e *Entity, st Style, budget int) (Hatching, error) {
	if st.Hatch == "" || !Hatchable(e) {
		return Hatching{}, nil
	}
	pat, err := drafting.LookupHatch(st.Hatch)
	if err != nil {
		return Hatching{}, err
	}
	h := Hatching{Solid: pat.Solid, Color: hatchColor(st), Pattern: pat.Name, Angle: st.HatchAngle, Scale: st.HatchScale}
	if h.Scale == 0 {
		h.Scale = 1
	}
	if pat.Solid {
		return h, nil
	}
	polys, err := s.collect(e, s.WorldMatrix(e), nil, nil)
	if err != nil {
		return Hatching{}, fmt.Errorf("hatching %q: %w", e.Name, err)
	}
	if len(polys) > 1 {
		if polys, err = kernel.Boolean(overlay.OpUnion, polys, nil); err != nil {
			return Hatching{}, fmt.Errorf("hatching %q: %w", e.Name, err)
		}
	}
	segs, ok := drafting.ClipHatch(hatchRings(polys), pat.Placed(st.HatchAngle, st.HatchScale), budget)
	if !ok {
		return Hatching{}, fmt.Errorf("%w: hatching %q with %s at scale %v makes more than %d segments in the scene (MaxHatchSegments); use a larger scale in setHatch", ErrLimit, e.Name, pat.Name, h.Scale, MaxHatchSegments)
	}
	h.Segments = segs
	return h, nil
}

// hatchRings are the rings of polys, outers and holes, as the hatch's clipping takes them:
// their points copied into one slab.
func hatchRings(polys []overlay.Polygon) [][]geom.Vec {
	n, k := 0, 0
	for _, p := range polys {
		n += len(p.Outer)
		k += 1 + len(p.Holes)
		for _, h := range p.Holes {
			n += len(h)
		}
	}
	slab := make([]geom.Vec, 0, n)
	rings := make([][]geom.Vec, 0, k)
	add := func(r []overlay.Point) {
		i := len(slab)
		for _, q := range r {
			slab = append(slab, geom.Vec(q))
		}
		rings = append(rings, slab[i:len(slab):len(slab)])
	}
	for _, p := range polys {
		add(p.Outer)
		for _, h := range p.Holes {
			add(h)
		}
	}
	return rings
}

// hatchColor is the colour a hatch is drawn in.
func hatchColor(st Style) Color {
	switch {
	case st.HatchColor != nil:
		return *st.HatchColor
	case st.Stroke != nil:
		return *st.Stroke
	case st.Fill != nil:
		return *st.Fill
	}
	return Black
}
