package scene

// The lint's view of the model. The drawing lint (package scene/lint) reads a finished scene
// from above, as any writer does, and needs a few of the model's own measures to do it at the
// speed a run can afford: a shape's bounds under a map in closed form, a text's glyph box
// without moving every glyph, the tolerance the area operations flatten at, and the small
// measures of points and boxes the size labels are checked with. They are exported here, in
// one place, so that what the lint may lean on is seen at a glance; a dimension laid out
// once per write is Layouts.Of (dimension.go). Nothing in scene calls the lint.

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

// SimilarityScale is the scale of m when m is a similarity (a uniform scale, a turn, maybe a
// mirror), within rounding; false otherwise, where a circle's image is no circle.
func SimilarityScale(m geom.Affine) (float64, bool) { return similarityScale(m) }

// PolylineLength is the length of the open polyline through pts.
func PolylineLength(pts []geom.Vec) float64 { return polylineLength(pts) }

// ClosestOnSegment is the point of the segment ab closest to p.
func ClosestOnSegment(p, a, b geom.Vec) geom.Vec { return closestOnSegment(p, a, b) }

// BoxGap is a lower bound of the distance between shapes in the boxes a and b: 0 where they
// meet.
func BoxGap(a, b geom.Box) float64 { return boxGap(a, b) }
