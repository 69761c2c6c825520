package scene

import (
	"cmp"
	"math"
	"slices"
)

// FeatureEdges is the mesh's edges where its faces meet at more than deg degrees (a box's
// edges, a cylinder's rims, not the seams between the facets of its side), and the edges of
// one face only, as pairs of vertex indices. The pictures and the 3D viewer draw them.
func (m *Mesh) FeatureEdges(deg float64) []uint32 {
	cosMax := math.Cos(deg * math.Pi / 180)
	nt := m.NumTriangles()
	normals := make([]Vec3, nt)
	for t := range nt {
		a, b, c := m.Vertex(m.Triangles[3*t]), m.Vertex(m.Triangles[3*t+1]), m.Vertex(m.Triangles[3*t+2])
		u := Vec3{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		v := Vec3{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		n := Vec3{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
		if l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2]); l > 0 {
			n = Vec3{n[0] / l, n[1] / l, n[2] / l}
		}
		normals[t] = n
	}
	type edge struct{ a, b uint32 }
	// first holds the triangle that brought each edge; an edge seen twice is settled then.
	first := make(map[edge]int32, 3*nt/2)
	var out []uint32
	for t := range nt {
		for k := range 3 {
			a, b := m.Triangles[3*t+k], m.Triangles[3*t+(k+1)%3]
			if a > b {
				a, b = b, a
			}
			e := edge{a, b}
			o, seen := first[e]
			if !seen {
				first[e] = int32(t)
				continue
			}
			delete(first, e)
			n, p := normals[t], normals[o]
			if n[0]*p[0]+n[1]*p[1]+n[2]*p[2] < cosMax {
				out = append(out, a, b)
			}
		}
	}
	// The edges of one face, in order, so that the same mesh gives the same answer.
	rim := make([]edge, 0, len(first))
	for e := range first {
		rim = append(rim, e)
	}
	slices.SortFunc(rim, func(x, y edge) int { return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b)) })
	for _, e := range rim {
		out = append(out, e.a, e.b)
	}
	return out
}
