package scene

// The dash budget of a scene: how many dashes its linetypes cut, counted from the lengths
// (geom's Path.DashCount) before any writer cuts them (Path.Dash), so that a pattern tiny
// beside its line fails with the shape's name instead of filling the picture.

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
)

// MaxDashSegments caps the dashes and dots the linetypes of one scene make, as
// MaxHatchSegments caps its hatches: a pattern tiny beside its line (a dotted line 1e9 long,
// a linetype scale of 1e-12) would otherwise have a writer cut millions of dashes, a few
// hundred bytes each, in the process that draws the picture. It is documented in
// docs/limits.md.
const MaxDashSegments = 200_000

// dashBudget counts the dashes of a scene's strokes against MaxDashSegments.
type dashBudget struct {
	s     *Scene
	count float64   // the dashes counted so far
	limit float64   // the count past which add fails
	path  geom.Path // the outline of the shape being counted, reused
}

// add counts e's dashes (those of its members, for a group), failing with the first shape
// that passes the budget.
func (b *dashBudget) add(e *Entity) error {
	if e.IsGroup() {
		for c := range e.children.all() {
			if err := b.add(c); err != nil {
				return err
			}
		}
		return nil
	}
	d := b.s.Drawn(e)
	if !d.Plot || d.Style.Stroke == nil {
		return nil
	}
	pattern := d.Dashes()
	if pattern == nil {
		return nil
	}
	b.path = AppendOutline(b.path[:0], e.Shape, b.s.WorldMatrix(e))
	b.count += b.path.DashCount(pattern)
	if b.count > b.limit {
		scale := d.Style.LinetypeScale
		if scale == 0 {
			scale = 1
		}
		return fmt.Errorf("%w: dashing %q with %s at scale %v makes more than %d dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines", ErrLimit, e.Name, d.Style.Linetype, scale, MaxDashSegments)
	}
	return nil
}

// checkDashCount refuses the drafting properties just given to e when its dashes (those of
// its members, for a group) pass MaxDashSegments; the rest of the scene is counted when it
// is drawn (CheckDashes), since a transform or a layer changes its count.
func (s *Scene) checkDashCount(e *Entity) error {
	b := dashBudget{s: s, limit: MaxDashSegments}
	return b.add(e)
}

// CheckDashes fails when the dashes and dots of the scene's strokes together pass
// MaxDashSegments, naming the shape where they did. Every writer checks it before it draws,
// so that a shape scaled up after its linetype was set fails the same way in SVG, PNG, PDF
// and DXF, whether the writer cuts the dashes or leaves them to the reader.
func (s *Scene) CheckDashes() error {
	_, err := s.countDashes(MaxDashSegments)
	return err
}

// DashSegments is how many dashes and dots the scene's strokes make (CheckDashes counts
// them), for an estimate of what a picture of it takes.
func (s *Scene) DashSegments() float64 {
	n, _ := s.countDashes(math.Inf(1))
	return n
}

// countDashes counts the scene's dashes, failing past limit.
func (s *Scene) countDashes(limit float64) (float64, error) {
	if !s.drafting {
		return 0, nil
	}
	b := dashBudget{s: s, limit: limit}
	for c := range s.roots.all() {
		if err := b.add(c); err != nil {
			return b.count, err
		}
	}
	return b.count, nil
}
