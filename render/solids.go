package render

// What the writers of solids (STL, 3MF) share, and what every writer says about the entities
// its format cannot hold. A drawing (SVG, PDF, DXF) has no view of a solid yet and a mesh file
// has no place for a 2D shape: each leaves the other out, and says so with a warning naming
// them, so that a file that looks empty is never a surprise.

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// ErrNoSolids is returned for an STL or a 3MF of a scene that has no solid.
var ErrNoSolids = errors.New("no solids")

// holds is what a format can hold of a scene.
type holds int

const (
	holdsAll    holds = iota // every entity (scene.json, and a picture, which draws solids shaded)
	holdsFlat                // 2D shapes only (SVG, PDF, DXF)
	holdsSolids              // solids only (STL, 3MF)
)

// maxLeftOutNames caps the names a left-out warning lists.
const maxLeftOutNames = 10

// LeftOut is the warning for what a file in format f leaves out of s: the solids of a drawing
// (SVG, PDF, DXF), the 2D shapes of a mesh file (STL, 3MF, STEP, glTF); "" when it leaves
// nothing out. A STEP's also says which solids it writes exact and which faceted.
// `cadrun run -o`, `cadrun watch -out`, the export tool and `scene svg`/`scene dxf` show it.
func (f Format) LeftOut(s *scene.Scene) string {
	l := f.leftOut(s)
	if f.note == nil {
		return l
	}
	if n := f.note(s); n != "" && l != "" {
		return l + "; " + n
	} else if n != "" {
		return n
	}
	return l
}

func (f Format) leftOut(s *scene.Scene) string {
	var names []string
	switch f.holds {
	case holdsFlat:
		for _, it := range s.Solids() {
			names = append(names, it.Entity.Name)
		}
		if len(names) == 0 {
			return ""
		}
		what := "solids"
		if len(names) == 1 {
			what = "solid"
		}
		return fmt.Sprintf("left out %d %s (%s): %s draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them",
			len(names), what, nameList(names), f.name())
	case holdsSolids:
		for _, e := range s.Walk() {
			if !e.IsGroup() && e.Kind() != scene.KindSolid {
				names = append(names, e.Name)
			}
		}
		if len(names) == 0 {
			return ""
		}
		what := "shapes that are not solids"
		if len(names) == 1 {
			what = "shape that is not a solid"
		}
		return fmt.Sprintf("left out %d %s (%s): %s holds solids only; write .svg, .pdf, .dxf or .png to see them",
			len(names), what, nameList(names), f.name())
	}
	return ""
}

// name is the format's name in messages: "SVG", "3MF".
func (f Format) name() string { return strings.ToUpper(strings.TrimPrefix(f.Ext, ".")) }

// nameList lists names for a message, at most maxLeftOutNames of them and how many more.
func nameList(names []string) string {
	if len(names) <= maxLeftOutNames {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxLeftOutNames], ", "), len(names)-maxLeftOutNames)
}

// solidItems are the scene's solids for a mesh file in format, or ErrNoSolids.
func solidItems(s *scene.Scene, format string) ([]scene.SolidItem, error) {
	items := s.Solids()
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: the scene has no solid to write; %s holds only solids: make one (extrude, revolve, drawBox, drawCylinder, drawSphere), or write .svg, .pdf, .dxf or .png for a 2D drawing",
			ErrNoSolids, format)
	}
	return items, nil
}

// worldVertices is the mesh of it in world coordinates, rounded to float32 as both files hold
// them (STL in binary, 3MF as the shortest decimal that reads back the same float32), and
// whether its map mirrors (Det < 0): a mirrored mesh is turned inside out, so its triangles
// are written in the other order to keep them facing outwards.
func worldVertices(it scene.SolidItem) (v []float32, mirrored bool) {
	m := it.Entity.Shape.(*scene.Solid).Mesh
	v = make([]float32, len(m.Vertices))
	for i := range uint32(m.NumVertices()) {
		p := it.World.Apply(m.Vertex(i))
		v[3*i], v[3*i+1], v[3*i+2] = float32(p[0]), float32(p[1]), float32(p[2])
	}
	return v, it.World.Det() < 0
}

// weldWorld numbers the points of v (x, y, z float32 triples, as worldVertices gives them)
// that are the same float32 point as one: at[k] is point k's number, and pts the points in the
// order they first come. A mesh's copies of a point, and points the world map rounds
// together, become one vertex of what is written (a 3MF object, a faceted STEP shell).
func weldWorld(v []float32) (at []uint32, pts [][3]float32) {
	at = make([]uint32, len(v)/3)
	seen := make(map[[3]float32]uint32, len(v)/3)
	for k := range at {
		p := [3]float32{v[3*k], v[3*k+1], v[3*k+2]}
		j, ok := seen[p]
		if !ok {
			j = uint32(len(pts))
			seen[p] = j
			pts = append(pts, p)
		}
		at[k] = j
	}
	return at, pts
}

// triangle is triangle t of a mesh as written: its three vertex indices, in the order that
// faces outwards under a map that mirrors or not.
func triangle(tris []uint32, t int, mirrored bool) (a, b, c uint32) {
	a, b, c = tris[3*t], tris[3*t+1], tris[3*t+2]
	if mirrored {
		b, c = c, b
	}
	return a, b, c
}

// facetNormal is the unit normal of the triangle a, b, c of v (counter-clockwise seen from the
// side it points to), computed in float64 from the float32 coordinates written; zero for a
// triangle with no area.
func facetNormal(v []float32, a, b, c uint32) [3]float32 {
	p := func(i uint32) [3]float64 { return [3]float64{float64(v[3*i]), float64(v[3*i+1]), float64(v[3*i+2])} }
	pa, pb, pc := p(a), p(b), p(c)
	u := [3]float64{pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]}
	w := [3]float64{pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]}
	n := [3]float64{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	if !(l > 0) || math.IsInf(l, 0) {
		return [3]float32{}
	}
	return [3]float32{float32(n[0] / l), float32(n[1] / l), float32(n[2] / l)}
}

// SolidEdgeColor is the colour the pictures draw the edges of a solid of style st in.
func SolidEdgeColor(st scene.Style) scene.Color { return edgeColor(st) }
