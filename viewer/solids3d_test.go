package viewer

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestSolidsData: the 3D view's data holds each solid in world coordinates with its feature
// edges, a mirrored solid's triangles turned back outwards, the 2D shapes as segments, and
// a scene over the cap is refused naming it.
func TestSolidsData(t *testing.T) {
	s := circles(t, "c")
	if _, err := s.Put("box", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("unit", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{1, 1, 1})); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate("unit", geom.Vec{X: 100}, scene.SpaceWorld); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mirror("unit", "flipped", "x"); err != nil {
		t.Fatal(err)
	}
	b, err := solidsData(s, DefaultMaxViewerTriangles)
	if err != nil {
		t.Fatal(err)
	}
	if string(b[:4]) != solidsMagic {
		t.Fatalf("starts %q", b[:4])
	}
	n := binary.LittleEndian.Uint32(b[4:])
	var head solidsHeader
	if err := json.Unmarshal(b[8:8+n], &head); err != nil {
		t.Fatal(err)
	}
	if len(head.Solids) != 3 || head.Solids[0].Edges != 12 || head.Solids[0].Triangles != 12 {
		t.Fatalf("header %+v", head.Solids)
	}
	if len(head.Flat) != 1 || head.Flat[0].Name != "c" || head.Flat[0].Segments < 8 {
		t.Errorf("the 2D shapes %+v; want the circle c as segments", head.Flat)
	}
	off := (8 + int(n) + 3) &^ 3
	f32 := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*i:])) }
	u32 := func(i int) uint32 { return binary.LittleEndian.Uint32(b[off+4*i:]) }
	// The box as it lies.
	box := boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})
	for i, x := range box.Mesh.Vertices {
		if f32(i) != x {
			t.Fatalf("vertex coordinate %d is %v, want %v", i, f32(i), x)
		}
	}
	off += 2 * 4 * (24 + 36 + 24) // the first two boxes' vertices, triangles and edges
	// The unit box moved to x = 100 and its copy mirrored about its middle, x = 100.5.
	if x := f32(0); x != 101 {
		t.Errorf("the mirrored box's vertex 0 has x = %v, want 101", x)
	}
	off += 4 * 24
	if a, b2, c := u32(0), u32(1), u32(2); a != box.Mesh.Triangles[0] || b2 != box.Mesh.Triangles[2] || c != box.Mesh.Triangles[1] {
		t.Errorf("the mirrored box's first triangle is %d %d %d; want it turned back", a, b2, c)
	}

	if _, err := solidsData(s, 20); err == nil || !strings.Contains(err.Error(), "MaxTriangles") {
		t.Errorf("over the cap: %v", err)
	}
}
