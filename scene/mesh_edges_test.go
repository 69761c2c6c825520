package scene

import "testing"

// TestFeatureEdges: a box's 12 edges are its feature edges, not the diagonals splitting its
// faces; an open mesh's rim counts too.
func TestFeatureEdges(t *testing.T) {
	box := &Mesh{}
	for i := range 8 {
		box.Vertices = append(box.Vertices, float32(i&1), float32(i>>1&1), float32(i>>2&1))
	}
	box.Triangles = []uint32{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
	if got := len(box.FeatureEdges(30)) / 2; got != 12 {
		t.Errorf("a box has %d feature edges, want 12", got)
	}
	// Two triangles of one square: the shared diagonal is flat; the four sides are a rim.
	sq := &Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0}, Triangles: []uint32{0, 1, 2, 0, 2, 3}}
	if got := len(sq.FeatureEdges(30)) / 2; got != 4 {
		t.Errorf("a square has %d feature edges, want its 4 sides", got)
	}
}
