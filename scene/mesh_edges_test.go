package scene

import (
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// unitBox is a box of side 1 at the origin, vertex i at (i&1, i>>1&1, i>>2&1).
func unitBox() *Mesh {
	box := &Mesh{}
	for i := range 8 {
		box.Vertices = append(box.Vertices, float32(i&1), float32(i>>1&1), float32(i>>2&1))
	}
	box.Triangles = []uint32{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
	return box
}

// seamedBox is unitBox with its top's second triangle (5, 7, 6) made of copies of vertices 5
// and 6 (8 and 9): a seam along the top's diagonal, as a kernel may leave one.
func seamedBox() *Mesh {
	m := unitBox()
	m.Vertices = append(m.Vertices, 1, 0, 1, 0, 1, 1)
	m.Triangles[9], m.Triangles[11] = 8, 9
	return m
}

// TestFeatureEdges: a box's 12 edges are its feature edges, not the diagonals splitting its
// faces; an open mesh's rim counts too.
func TestFeatureEdges(t *testing.T) {
	if got := len(unitBox().FeatureEdges(30)) / 2; got != 12 {
		t.Errorf("a box has %d feature edges, want 12", got)
	}
	// Two triangles of one square: the shared diagonal is flat; the four sides are a rim.
	sq := &Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, Triangles: []uint32{0, 1, 2, 0, 2, 3}}
	if got := len(sq.FeatureEdges(30)) / 2; got != 4 {
		t.Errorf("a square has %d feature edges, want its 4 sides", got)
	}
}

// TestMeshEdgesWeldSeams: a box whose top repeats two vertices along its diagonal has the
// edges of a box, every one between two faces. Paired by index, as the viewer's edges were,
// the diagonal's two sides and the two box edges beside the copies were each an edge of one
// face: 16 feature edges, the top crossed by its diagonal and two edges drawn twice.
func TestMeshEdgesWeldSeams(t *testing.T) {
	plain, seamed := unitBox().Edges(), seamedBox().Edges()
	if diff := cmp.Diff([]uint32{0, 1, 2, 3, 4, 5, 6, 7, 5, 6}, seamed.Weld); diff != "" {
		t.Errorf("weld mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(slices.Collect(plain.All()), slices.Collect(seamed.All())); diff != "" {
		t.Errorf("the seamed box's edges differ from the box's (-box +seamed):\n%s", diff)
	}
	if n := len(slices.Collect(seamed.All())); n != 18 {
		t.Errorf("%d edges, want a box's 12 and its faces' 6 diagonals", n)
	}
	for e := range seamed.All() {
		if e.T2 == NoFace || e.A >= e.B {
			t.Errorf("edge %+v: want ends in order and two faces", e)
		}
	}
	if diff := cmp.Diff(unitBox().FeatureEdges(30), seamedBox().FeatureEdges(30)); diff != "" {
		t.Errorf("feature edges mismatch (-box +seamed):\n%s", diff)
	}
}

// TestMeshEdges: boundaries, a triangle of no area, the two zeros and a non-manifold edge.
func TestMeshEdges(t *testing.T) {
	tests := []struct {
		name string
		mesh Mesh
		weld []uint32
		want []MeshEdge
	}{
		{
			name: "one triangle",
			mesh: Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, Triangles: []uint32{0, 1, 2}},
			weld: []uint32{0, 1, 2},
			want: []MeshEdge{{0, 1, 0, NoFace}, {0, 2, 0, NoFace}, {1, 2, 0, NoFace}},
		},
		{
			// −0 is the point +0 is.
			name: "minus zero",
			mesh: Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, float32(negZero()), 0, 0, 0, -1, 0}, Triangles: []uint32{0, 1, 2, 3, 4, 1}},
			weld: []uint32{0, 1, 2, 0, 4},
			want: []MeshEdge{{0, 1, 0, 1}, {0, 2, 0, NoFace}, {0, 4, 1, NoFace}, {1, 2, 0, NoFace}, {1, 4, 1, NoFace}},
		},
		{
			// Triangle 1 has two corners at one point (3 is 1's copy): none of its sides is an
			// edge, and the triangles either side of it meet.
			name: "no area",
			mesh: Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, -1, 0}, Triangles: []uint32{0, 1, 2, 0, 3, 1, 1, 0, 4}},
			weld: []uint32{0, 1, 2, 1, 4},
			want: []MeshEdge{{0, 1, 0, 2}, {0, 2, 0, NoFace}, {0, 4, 2, NoFace}, {1, 2, 0, NoFace}, {1, 4, 2, NoFace}},
		},
		{
			// Three triangles on one edge pair in order: the first two, then the third alone.
			name: "three on an edge",
			mesh: Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1}, Triangles: []uint32{0, 1, 2, 1, 0, 3, 0, 1, 4}},
			weld: []uint32{0, 1, 2, 3, 4},
			want: []MeshEdge{{0, 1, 0, 1}, {0, 1, 2, NoFace}, {0, 2, 0, NoFace}, {0, 3, 1, NoFace}, {0, 4, 2, NoFace}, {1, 2, 0, NoFace}, {1, 3, 1, NoFace}, {1, 4, 2, NoFace}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.mesh.Edges()
			if diff := cmp.Diff(tt.weld, got.Weld); diff != "" {
				t.Errorf("weld mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, slices.Collect(got.All())); diff != "" {
				t.Errorf("edges mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func negZero() float64 { return -1 / posInf() }

func posInf() float64 { return 1 / zero }

var zero float64

// BenchmarkMeshEdges finds the edges of a sphere of 199,712 triangles, the size of
// BenchmarkShade200k's.
func BenchmarkMeshEdges(b *testing.B) {
	m := &Mesh{}
	const rings, segments = 317, 316
	m.Vertices = append(m.Vertices, 0, 0, 1, 0, 0, -1)
	for i := 1; i < rings; i++ {
		th := math.Pi * float64(i) / rings
		for k := range segments {
			ph := 2 * math.Pi * float64(k) / segments
			m.Vertices = append(m.Vertices, float32(math.Sin(th)*math.Cos(ph)), float32(math.Sin(th)*math.Sin(ph)), float32(math.Cos(th)))
		}
	}
	at := func(ring, k int) uint32 { return uint32(2 + (ring-1)*segments + k%segments) }
	for k := range segments {
		m.Triangles = append(m.Triangles, 0, at(1, k), at(1, k+1), 1, at(rings-1, k+1), at(rings-1, k))
	}
	for i := 1; i < rings-1; i++ {
		for k := range segments {
			a, b, c, d := at(i, k), at(i, k+1), at(i+1, k), at(i+1, k+1)
			m.Triangles = append(m.Triangles, a, c, d, a, d, b)
		}
	}
	for b.Loop() {
		m.Edges()
	}
}

// TestMeshEdgesFan: a disc of 100,000 triangles fanned round its centre has its spokes
// between two triangles each and its rim of one, the spokes all under one vertex (a bucket
// sorted as a slice).
func TestMeshEdgesFan(t *testing.T) {
	const n = 100_000
	m := &Mesh{Vertices: []float32{0, 0, 0}}
	for k := range n {
		a := 2 * math.Pi * float64(k) / n
		m.Vertices = append(m.Vertices, float32(math.Cos(a)), float32(math.Sin(a)), 0)
		m.Triangles = append(m.Triangles, 0, uint32(1+k), uint32(1+(k+1)%n))
	}
	spokes, rim := 0, 0
	for e := range m.Edges().All() {
		switch {
		case e.A == 0 && e.T2 != NoFace:
			spokes++
		case e.A != 0 && e.T2 == NoFace:
			rim++
		default:
			t.Fatalf("edge %+v", e)
		}
	}
	if spokes != n || rim != n {
		t.Errorf("%d spokes and %d rim edges, want %d of each", spokes, rim, n)
	}
}
