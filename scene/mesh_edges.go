package scene

// A mesh's edges, found once for every reader: the pictures (their silhouettes and feature
// edges), the drawings' projections and the 3D viewer. Vertices are welded by position before
// the triangles' sides are paired, because a mesh may repeat a vertex where its faces meet (a
// seam of the kernel's output, a mesh read from a file): paired by index, the two sides of
// such a seam would each be an edge of one face, drawn as a rim across a smooth face. The
// pairing buckets each side under its lower vertex and sorts each bucket (a handful of sides),
// without a map, so that a picture of MaxSolidTriangles pays little for it.

import (
	"cmp"
	"iter"
	"math"
	"slices"
)

// NoFace is a MeshEdge's T2 when the edge has one face only (a mesh that is not closed).
const NoFace = math.MaxUint32

// MeshEdge is one undirected edge of a mesh: its ends A < B, each the first vertex at its
// position (MeshEdges.Weld), and the triangles on either side, T1 before T2 in the mesh, T2
// NoFace for an edge of one face.
type MeshEdge struct {
	A, B   uint32
	T1, T2 uint32
}

// MeshEdges is a mesh's adjacency: its vertices welded by position and its edges with their
// faces, from which its feature edges (faces meeting at over FeatureAngle) and, for a view,
// its silhouette (a face turned to the viewer beside one turned away) follow. It is read
// only once made: readers may share it.
type MeshEdges struct {
	// Weld is, for each vertex, the first vertex at the same position (itself when none
	// comes before it); +0 and −0 are one position.
	Weld []uint32
	// The triangles' sides under their lower end (welded): vertex v's are
	// sides[start[v]:start[v+1]], each its upper end << 32 | its triangle, sorted, so that
	// the sides of one edge lie together. All pairs them as it goes: a list of the edges
	// would cost a picture of MaxSolidTriangles as much again as finding them.
	start []uint32
	sides []uint64
}

// Edges is the mesh's adjacency.
func (m *Mesh) Edges() *MeshEdges { return m.WeldedEdges(m.Weld()) }

// WeldedEdges is the mesh's adjacency from its vertices welded already (weld is m.Weld()),
// for a reader that needs them before it knows whether it needs the edges.
func (m *Mesh) WeldedEdges(weld []uint32) *MeshEdges {
	nv := m.NumVertices()
	nt := m.NumTriangles()
	// A triangle two of whose corners weld into one has no area and no normal: it has no
	// edges, and the faces beside it meet across it.
	corners := func(t int) (a, b, c uint32, ok bool) {
		a, b, c = weld[m.Triangles[3*t]], weld[m.Triangles[3*t+1]], weld[m.Triangles[3*t+2]]
		return a, b, c, a != b && b != c && c != a
	}
	start := make([]uint32, nv+1)
	for t := range nt {
		if a, b, c, ok := corners(t); ok {
			start[min(a, b)+1]++
			start[min(b, c)+1]++
			start[min(c, a)+1]++
		}
	}
	for i := 1; i <= nv; i++ {
		start[i] += start[i-1]
	}
	sides := make([]uint64, start[nv])
	fill := make([]uint32, nv)
	copy(fill, start[:nv])
	put := func(a, b uint32, t int) {
		lo := min(a, b)
		sides[fill[lo]] = uint64(max(a, b))<<32 | uint64(t)
		fill[lo]++
	}
	for t := range nt {
		if a, b, c, ok := corners(t); ok {
			put(a, b, t)
			put(b, c, t)
			put(c, a, t)
		}
	}
	// Each bucket holds the sides around one vertex, a handful, sorted in place by insertion;
	// a vertex many triangles share (the middle of a fan) is sorted as a slice, so that it
	// costs n log n, not n².
	for lo := range nv {
		bucket := sides[start[lo]:start[lo+1]]
		if len(bucket) > 16 {
			slices.Sort(bucket)
			continue
		}
		for i := 1; i < len(bucket); i++ {
			for j := i; j > 0 && bucket[j-1] > bucket[j]; j-- {
				bucket[j-1], bucket[j] = bucket[j], bucket[j-1]
			}
		}
	}
	return &MeshEdges{Weld: weld, start: start, sides: sides}
}

// All is the mesh's edges, ordered by A, then B. Where more than two triangles share an edge
// (a mesh that is not manifold), they pair in their order in the mesh, each pair an edge.
func (a *MeshEdges) All() iter.Seq[MeshEdge] {
	return func(yield func(MeshEdge) bool) {
		for lo := range len(a.start) - 1 {
			bucket := a.sides[a.start[lo]:a.start[lo+1]]
			for i := 0; i < len(bucket); {
				hi := uint32(bucket[i] >> 32)
				e := MeshEdge{A: uint32(lo), B: hi, T1: uint32(bucket[i]), T2: NoFace}
				i++
				if i < len(bucket) && uint32(bucket[i]>>32) == hi {
					e.T2 = uint32(bucket[i])
					i++
				}
				if !yield(e) {
					return
				}
			}
		}
	}
}

// Weld is, for each vertex, the first vertex at its position (+0 and −0 are one). An
// open-addressed table of vertex numbers, hashed by the coordinates' bits, finds them: a Go
// map keyed by the coordinates takes several times as long on a mesh of MaxSolidTriangles.
func (m *Mesh) Weld() []uint32 {
	nv := m.NumVertices()
	weld := make([]uint32, nv)
	bits := 1
	for 1<<bits < 2*nv {
		bits++
	}
	mask := uint64(1)<<bits - 1
	table := make([]uint32, 1<<bits) // vertex + 1; 0 is empty
	// Equal positions are equal float32s (−0 is +0, and no coordinate is NaN); the hash
	// takes −0 as +0 too.
	bitsOf := func(x float32) uint64 {
		if x == 0 {
			return 0
		}
		return uint64(math.Float32bits(x))
	}
	for i := range uint32(nv) {
		v := m.Vertices[3*i : 3*i+3 : 3*i+3]
		h := (bitsOf(v[0])<<32 | bitsOf(v[1])) * 0x9e3779b97f4a7c15
		h ^= bitsOf(v[2]) * 0xc2b2ae3d27d4eb4f
		h ^= h >> 29
		h *= 0xbf58476d1ce4e5b9
		h = (h >> 32) & mask
		for {
			s := table[h]
			if s == 0 {
				table[h] = i + 1
				weld[i] = i
				break
			}
			if w := m.Vertices[3*(s-1) : 3*s : 3*s]; w[0] == v[0] && w[1] == v[1] && w[2] == v[2] {
				weld[i] = s - 1
				break
			}
			h = (h + 1) & mask
		}
	}
	return weld
}

// FeatureEdges is the mesh's edges where its faces meet at more than deg degrees (a box's
// edges, a cylinder's rims, not the seams between the facets of its side), and the edges of
// one face only, as pairs of vertex indices (each the first vertex at its position). The 3D
// viewer draws them.
func (m *Mesh) FeatureEdges(deg float64) []uint32 {
	cosMax := math.Cos(deg * math.Pi / 180)
	adj := m.Edges()
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
	// The edges between two faces come in the order of the later face's sides, then the rim
	// in order of its ends: the order the viewer's data has always had.
	type found struct {
		e    MeshEdge
		side uint32 // 3·T2 + the side of T2 it is
	}
	var sharp []found
	var rim []MeshEdge
	for e := range adj.All() {
		if e.T2 == NoFace {
			rim = append(rim, e)
			continue
		}
		n, p := normals[e.T1], normals[e.T2]
		if n[0]*p[0]+n[1]*p[1]+n[2]*p[2] >= cosMax {
			continue
		}
		k := uint32(0)
		for ; k < 2; k++ {
			a, b := adj.Weld[m.Triangles[3*e.T2+k]], adj.Weld[m.Triangles[3*e.T2+(k+1)%3]]
			if min(a, b) == e.A && max(a, b) == e.B {
				break
			}
		}
		sharp = append(sharp, found{e, 3*e.T2 + k})
	}
	slices.SortFunc(sharp, func(x, y found) int { return cmp.Compare(x.side, y.side) })
	out := make([]uint32, 0, 2*(len(sharp)+len(rim)))
	for _, f := range sharp {
		out = append(out, f.e.A, f.e.B)
	}
	for _, e := range rim {
		out = append(out, e.A, e.B)
	}
	return out
}
