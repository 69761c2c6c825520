package scene

// Hatches are drafting properties like linetypes (linetype.go): they mark the inside of a
// closed shape for the reader of a drawing (a section, a material) and never change its
// outline, so every measure and boolean ignores them. A hatch is one of a fixed set of
// patterns (drafting.HatchPatterns). The pictures get the hatch as line segments clipped to
// the shape's area (Scene.Hatches), computed once per picture.

import (
	"cmp"
	"fmt"
	"math"
	"slices"

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
	var rings [][]overlay.Point
	for _, p := range polys {
		rings = append(rings, p.Outer)
		rings = append(rings, p.Holes...)
	}
	c := hatchClip{rings: rings, budget: budget}
	for _, l := range pat.Placed(st.HatchAngle, st.HatchScale) {
		if !c.family(l) {
			return Hatching{}, fmt.Errorf("%w: hatching %q with %s at scale %v makes more than %d segments in the scene (MaxHatchSegments); use a larger scale in setHatch", ErrLimit, e.Name, pat.Name, h.Scale, MaxHatchSegments)
		}
	}
	h.Segments = c.out
	return h, nil
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

// hatchClip clips families of pattern lines to an area given as rings, by the even-odd rule
// (the rings of non-overlapping polygons and their holes, so that even-odd is the area).
type hatchClip struct {
	rings  [][]overlay.Point
	budget int
	out    [][2]geom.Vec
	xs     []float64 // a line's crossings, reused
}

// family adds the segments of one family of lines; false when they pass the budget.
func (c *hatchClip) family(l drafting.HatchLine) bool {
	a := l.Angle * math.Pi / 180
	u := geom.Vec{X: math.Cos(a), Y: math.Sin(a)}  // along the lines
	n := geom.Vec{X: -math.Sin(a), Y: math.Cos(a)} // across them
	dot := func(p, q geom.Vec) float64 { return p.X*q.X + p.Y*q.Y }
	step := l.Offset.Y
	if step == 0 {
		return true
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range c.rings {
		for _, p := range r {
			t := dot(geom.Vec(p), n)
			lo, hi = min(lo, t), max(hi, t)
		}
	}
	bs, bt := dot(l.Base, u), dot(l.Base, n)
	k0, k1 := (lo-bt)/step, (hi-bt)/step
	if step < 0 {
		k0, k1 = k1, k0
	}
	first, last := math.Ceil(k0), math.Floor(k1)
	if last-first+1 > float64(c.budget-len(c.out)) {
		return false // at least one segment a line would pass it
	}
	period := 0.0
	for _, v := range l.Dashes {
		period += math.Abs(v)
	}
	for k := first; k <= last; k++ {
		t := bt + k*step
		c.crossings(t, u, n)
		phase := bs + k*l.Offset.X
		for i := 0; i+1 < len(c.xs); i += 2 {
			if !c.span(c.xs[i], c.xs[i+1], t, phase, period, l.Dashes, u, n) {
				return false
			}
		}
	}
	return true
}

// crossings sets c.xs to where the line across = t meets the rings, along u, sorted. An edge
// counts when its ends lie on either side of the line, the end on it counting as below, so
// that a vertex on the line is counted once or not at all, never half.
func (c *hatchClip) crossings(t float64, u, n geom.Vec) {
	c.xs = c.xs[:0]
	for _, r := range c.rings {
		for i := range r {
			p, q := geom.Vec(r[i]), geom.Vec(r[(i+1)%len(r)])
			tp, tq := p.X*n.X+p.Y*n.Y, q.X*n.X+q.Y*n.Y
			if (tp <= t) == (tq <= t) {
				continue
			}
			sp, sq := p.X*u.X+p.Y*u.Y, q.X*u.X+q.Y*u.Y
			c.xs = append(c.xs, sp+(t-tp)/(tq-tp)*(sq-sp))
		}
	}
	slices.SortFunc(c.xs, cmp.Compare[float64])
}

// span adds the part of the line across = t between along = s0 and s1 that the dash pattern
// draws, the pattern starting at along = phase; false when past the budget.
func (c *hatchClip) span(s0, s1, t, phase, period float64, dashes []float64, u, n geom.Vec) bool {
	at := func(s float64) geom.Vec { return u.Mul(s).Add(n.Mul(t)) }
	add := func(a, b float64) bool {
		if len(c.out) >= c.budget {
			return false
		}
		c.out = append(c.out, [2]geom.Vec{at(a), at(b)})
		return true
	}
	if len(dashes) == 0 || period <= 0 {
		return s1 <= s0 || add(s0, s1)
	}
	// Each period draws at least one dash or dot: more periods than the budget fail at once,
	// and the periods are counted, not summed, so that a step lost in rounding cannot stall.
	if (s1-s0)/period > float64(c.budget-len(c.out)) {
		return false
	}
	for m := math.Floor((s0 - phase) / period); ; m++ {
		pos := phase + m*period
		if pos > s1 {
			break
		}
		for _, d := range dashes {
			switch {
			case d == 0:
				if pos >= s0 && pos <= s1 && !add(pos, pos) {
					return false
				}
			case d > 0:
				if a, b := max(pos, s0), min(pos+d, s1); a < b && !add(a, b) {
					return false
				}
			}
			pos += math.Abs(d)
		}
	}
	return true
}
