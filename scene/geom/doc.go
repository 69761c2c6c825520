// Package geom is the plane geometry kernel's words: points and displacements (Vec), affine
// maps (Affine), boxes (Box), and paths of lines, Béziers and elliptical arcs (Path, Seg)
// that stay exact under a map; their flattening to polylines within a tolerance and a point
// budget, SVG path data, dashing, and the closed forms of circular arcs and of rings whose
// edges bulge into arcs (CircArc, BulgedArea, AppendBulgedRing).
//
// Start with Path: build one with MoveTo, LineTo, ArcTo and Close (or ParsePathData), map it
// with Transform, measure it with Bounds, and turn it into points with Flatten.
//
// geom knows no shape, entity or scene: the model in package scene reduces every shape to a
// Path and works in these types, as do the writers in render and the solids' profiles. It
// imports only the standard library, so anything may import it.
package geom
