package scene

import "github.com/cadrun/cadrun/scene/geom"

// A shape's outline appended to a path under a map, for the writers that draw a scene
// entity by entity into one reused path.

// AppendOutline appends sh's outline mapped by m to p and returns the extended path: the
// segments of sh.Outline().Transform(m), bit for bit, built in p's spare capacity; a
// dimension's is its layout under m, which keeps its text upright and its arrows their size. A writer
// that reuses one path for every entity draws a scene without an allocation per shape.
func AppendOutline(p geom.Path, sh Shape, m geom.Affine) geom.Path {
	start := len(p)
	switch sh := sh.(type) {
	case *Dimension: // laid out in world space (dimension.go)
		return append(p, sh.worldOutline(m)...)
	case Circle: // the commonest kinds by their type (see shapeBounds)
		p = sh.appendOutline(p)
	case Rect:
		p = sh.appendOutline(p)
	case outlineAppender:
		p = sh.appendOutline(p)
	default:
		p = append(p, sh.Outline()...)
	}
	for i := start; i < len(p); i++ {
		p[i].Transform(m)
	}
	return p
}

// outlineAppender is implemented by shapes that can build their outline in a given path;
// their Outline is appendOutline(nil).
type outlineAppender interface {
	appendOutline(p geom.Path) geom.Path
}
