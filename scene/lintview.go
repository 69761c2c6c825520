package scene

// The lint's view of the model. The drawing lint (package scene/lint) reads a finished scene
// from above, as any writer does, and needs a few of the model's own measures to do it at the
// speed a run can afford: a shape's bounds under a map in closed form, a text's glyph box
// without moving every glyph, and the tolerance the area operations flatten at. They are
// exported here, in one place, so that what the lint may lean on is seen at a glance; a
// dimension laid out once per write is Layouts.Of (dimension.go), and the small measures of
// points and boxes the size labels are checked with are the kernel's (kernel.BoxGap,
// kernel.ClosestOnSegment, kernel.PolylineLength, kernel.SimilarityScale). Nothing in scene
// calls the lint.

import "github.com/cadrun/cadrun/scene/geom"

// ShapeBounds is the exact bounds of sh mapped by m: for the commonest shapes in closed form,
// without making their outline.
func ShapeBounds(sh Shape, m geom.Affine) geom.Box { return shapeBounds(sh, m) }

// GlyphBox is the box of the text's glyphs as laid out, relative to Pos and before the
// entity's map: the text's bounds under a map that does not turn it are this box's corners
// moved, where every glyph moved would cost the lint the bulk of its time on a scene of
// labels.
func (t *Text) GlyphBox() geom.Box { return t.layout.Path.Bounds() }

// CurveTolerance is the flattening tolerance of curves in a shape whose world bounds are b,
// as the area operations flatten them (CurveRelative).
func CurveTolerance(b geom.Box) float64 { return curveTolerance(b) }
