package picture

import (
	"context"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
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
	p := &Picture{Base: s, Shown: s, Width: 300, Budget: DefaultImageBudget}
	_, info, _, err := p.Draw(context.Background())
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
	if got, want := DrawingMemory(sc, SVGBytesPerEntity), int64(SVGBytesPerEntity)+12*triangleBytes; got != want {
		t.Errorf("%d bytes, want %d", got, want)
	}
}

// TestDrawingMemoryCountsTextOutlines holds the render budget's estimate to a text's outline
// segments, not its one entity: a label of 2,000 letters is about 36,000 segments, which a
// picture draws at about 350 bytes each, where 400 bytes an entity counted 400.
func TestDrawingMemoryCountsTextOutlines(t *testing.T) {
	t.Parallel()
	sc := scene.New()
	if _, err := sc.Put("box", scene.Rect{Width: 10, Height: 10}); err != nil {
		t.Fatal(err)
	}
	if got, want := DrawingMemory(sc, SVGBytesPerEntity), int64(SVGBytesPerEntity); got != want {
		t.Errorf("a rectangle: %d bytes, want %d", got, want)
	}
	if _, err := sc.Put("label", &scene.Text{Text: strings.Repeat("Ø20 H7 ", 286), Size: 5}); err != nil {
		t.Fatal(err)
	}
	segs := sc.TextSegments()
	if segs < 20_000 {
		t.Fatalf("2,000 letters of DejaVu Sans have %d segments; want over 20,000", segs)
	}
	if got, want := DrawingMemory(sc, SVGBytesPerEntity), 2*int64(SVGBytesPerEntity)+int64(segs)*textBytesPerSegment; got != want {
		t.Errorf("with the label: %d bytes, want %d", got, want)
	}
	if got, want := DrawingMemory(sc, 0), int64(segs)*textBytesPerSegment; got != want {
		t.Errorf("a picture's geometry: %d bytes, want %d", got, want)
	}
}

// TestDrawingMemoryCountsDashes holds the render budget's estimate to the dashes a picture
// cuts: a dotted line 300,000 long is one entity of 100,001 dots, about 110 MB to draw.
func TestDrawingMemoryCountsDashes(t *testing.T) {
	t.Parallel()
	sc := scene.New()
	if _, err := sc.Put("l", scene.Line{Points: []geom.Vec{{}, {X: 3e5}}}); err != nil {
		t.Fatal(err)
	}
	if err := sc.SetLinetype("l", "dot", 0); err != nil {
		t.Fatal(err)
	}
	if got, want := DrawingMemory(sc, SVGBytesPerEntity), int64(SVGBytesPerEntity)+2*vertexBytes+100_001*dashBytes; got != want {
		t.Errorf("a dotted line: %d bytes, want %d", got, want)
	}
}

// TestDrawingMemoryCountsVertices holds the render budget's estimate to the points a picture
// is drawn through, not its entities: a polyline of 100,000 vertices, a polygon of as many and
// a path of 3 segments, where 400 bytes an entity counted 1,200 bytes for all three.
func TestDrawingMemoryCountsVertices(t *testing.T) {
	t.Parallel()
	pts := make([]geom.Vec, 100_000)
	for i := range pts {
		pts[i] = geom.Vec{X: float64(i % 1000), Y: float64(i / 1000)}
	}
	sc := scene.New()
	for name, sh := range map[string]scene.Shape{
		"line":    scene.Line{Points: pts},
		"polygon": scene.Polygon{Parts: []scene.PolygonPart{{Outer: pts}}},
		"path":    &scene.PathShape{Data: "M0 0 L10 0 L10 10"},
		"circle":  scene.Circle{Radius: 5},
	} {
		if _, err := sc.Put(name, sh); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := DrawingMemory(sc, SVGBytesPerEntity), 4*int64(SVGBytesPerEntity)+(2*100_000+3)*vertexBytes; got != want {
		t.Errorf("%d bytes, want %d", got, want)
	}
}
