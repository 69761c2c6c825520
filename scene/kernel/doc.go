// Package kernel is the plane geometry kernel's algorithms: booleans, convex hulls, offsets,
// fillets and chamfers, the refit of arcs onto their results, the checks every ring passes on
// its way in, distances measured on exact outlines, and the closed forms single shapes are
// measured by. It works on rings and paths in world coordinates (geom.Vec, geom.Path and the
// overlay engine's polygons), never on shapes or names: the scene finds a named shape, turns
// it into world rings with the circular arcs they were flattened from (Arcs) or into an
// outline (Outline), calls the kernel, and puts the answer back as a shape. Errors that need a
// shape's name to be read are the scene's to word (RoomError, PairsError).
//
// Start with Boolean and Arcs (arcfit.go: why results keep exact arcs), then OffsetArcs
// (offsetarcs.go), CutRing (fillet.go) and ring.go; the measures start at Outline and
// Distance (measure.go: a shape's exact edges and the walk of their trees). The overlay
// engine itself is scene/internal/overlay; its package doc says what it guarantees. Only
// scene and tests import this package: renderers, the runtime and the tools go through scene.
package kernel
