package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// A picture of a scene with solids is their isometric view: its answer gives the scale and
// the plan window framed, and says in words that no pixel stands for one scene point, with no
// origin, rather than a plan mapping that would mislead.
func TestPictureOfSolidsMapping(t *testing.T) {
	s := scene.New()
	m := &scene.Mesh{}
	for i := range 8 {
		m.Vertices = append(m.Vertices, float32(i&1*10), float32(i>>1&1*10), float32(i>>2&1*10))
	}
	m.Triangles = []uint32{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
	if _, err := s.Put("cube", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		t.Fatal(err)
	}
	p := &picture{base: s, shown: s, width: 300, budget: DefaultImageBudget}
	_, info, _, err := p.draw(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Origin != nil || !strings.HasPrefix(info.Mapping, "an isometric view of the solids") || info.Scale <= 0 || len(info.Region) != 4 || info.Blank != "" {
		t.Fatalf("the answer of a picture of solids: %+v", info)
	}
	if r := info.Region; !(r[0] < 0 && r[1] < 0 && r[2] > 10 && r[3] > 10) {
		t.Errorf("region %v does not frame the cube's plan, 0..10 on both axes", r)
	}
}

// The render budget's estimate counts a solid's triangles, which its picture is drawn from:
// a solid is one entity of up to scene.MaxSolidTriangles.
func TestDrawingMemoryCountsTriangles(t *testing.T) {
	t.Parallel()
	m := &scene.Mesh{}
	for i := range 8 {
		m.Vertices = append(m.Vertices, float32(i&1), float32(i>>1&1), float32(i>>2&1))
	}
	m.Triangles = []uint32{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
	sc := scene.New()
	if _, err := sc.Put("cube", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		t.Fatal(err)
	}
	if got, want := drawingMemory(sc, svgBytesPerEntity), int64(svgBytesPerEntity)+12*triangleBytes; got != want {
		t.Errorf("%d bytes, want %d", got, want)
	}
}
