package scene

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// unitCube is a closed cube of side 1 from the origin, oriented outwards.
func unitCube() *Mesh {
	m := &Mesh{}
	for i := range 8 {
		m.Vertices = append(m.Vertices, float32(i&1), float32(i>>1&1), float32(i>>2&1))
	}
	m.Triangles = []uint32{
		0, 2, 1, 1, 2, 3, // z = 0, facing down
		4, 5, 6, 5, 7, 6, // z = 1
		0, 1, 4, 1, 5, 4, // y = 0
		2, 6, 3, 3, 6, 7, // y = 1
		0, 4, 2, 2, 4, 6, // x = 0
		1, 3, 5, 3, 7, 5, // x = 1
	}
	return m
}

func TestSolidJSONRoundTrip(t *testing.T) {
	s := New()
	sd := &Solid{Mesh: unitCube(), Place: Translation3(Vec3{0, 0, 0.1}), Recipe: Recipe{Op: "box", Volume: 1, VolumeExact: true}}
	if _, err := s.Put("cube", sd); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate("cube", geom.Vec{X: 2, Y: 3}, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"version":5`) {
		t.Fatalf("a scene with a solid is version 5: %.80s", b)
	}
	back, err := ReadJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := back.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Fatalf("round trip changed the document:\n%s\n%s", b, b2)
	}
	e, _ := back.Get("cube")
	got := e.Shape.(*Solid)
	if got.Mesh.NumTriangles() != 12 || got.Recipe.Volume != 1 || got.Place != sd.Place {
		t.Fatalf("solid read back as %+v", got)
	}
	box := got.Bounds3(Lift(back.WorldMatrix(e)))
	if want := (Box3{Min: Vec3{2, 3, 0.1}, Max: Vec3{3, 4, 1.1}, NonEmpty: true}); box != want {
		t.Fatalf("bounds %v, want %v", box, want)
	}
	if wb := back.WorldBounds(e); wb.Min != (geom.Vec{X: 2, Y: 3}) || wb.Max != (geom.Vec{X: 3, Y: 4}) {
		t.Fatalf("2D bounds %v", wb)
	}
	if back.SceneTriangles() != 12 {
		t.Fatalf("scene triangles %d", back.SceneTriangles())
	}
}

func TestSolidRefusals(t *testing.T) {
	s := New()
	bad := unitCube()
	bad.Triangles[0] = 99
	if _, err := s.Put("x", &Solid{Mesh: bad, Place: Identity3}); !errors.Is(err, ErrBadGeometry) {
		t.Fatalf("an index past the vertices: %v", err)
	}
	if _, err := s.Put("x", &Solid{Mesh: unitCube()}); !errors.Is(err, ErrBadTransform) {
		t.Fatalf("a zero placement: %v", err)
	}
	nan := unitCube()
	nan.Vertices[0] = float32(math.NaN())
	if _, err := s.Put("x", &Solid{Mesh: nan, Place: Identity3}); !errors.Is(err, ErrBadGeometry) {
		t.Fatalf("a NaN vertex: %v", err)
	}
	if _, err := s.Put("c", &Solid{Mesh: unitCube(), Place: Identity3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Boolean(Union, []string{"c"}, []string{"c"}, "u"); err == nil || !strings.Contains(err.Error(), "solid") {
		t.Fatalf("a 2D boolean of a solid: %v", err)
	}
}

func TestAffine3(t *testing.T) {
	m := Lift(geom.Rotation(0.3).Mul(geom.Scaling(2, 3))).Mul(Translation3(Vec3{1, 2, 3}))
	inv, ok := m.Invert()
	if !ok {
		t.Fatal("not invertible")
	}
	p := Vec3{0.5, -2, 7}
	q := inv.Apply(m.Apply(p))
	for i := range 3 {
		if math.Abs(q[i]-p[i]) > 1e-12 {
			t.Fatalf("inverse: %v, want %v", q, p)
		}
	}
	if d := m.Det(); math.Abs(d-6) > 1e-12 {
		t.Fatalf("det %v, want 6", d)
	}
}

// TestSolidJSONIsCompact: a solid of 100,000 triangles keeps scene.json within a few MB (its
// mesh as base64 of float32 and uint32: 16 bytes a vertex and 16 a triangle), and reads back
// to the same bytes.
func TestSolidJSONIsCompact(t *testing.T) {
	// A torus of 250 × 200 quads: 50,000 vertices, 100,000 triangles, closed.
	const nu, nv = 250, 200
	m := &Mesh{}
	for i := range nu {
		for j := range nv {
			u, v := 2*math.Pi*float64(i)/nu, 2*math.Pi*float64(j)/nv
			r := 30 + 8*math.Cos(v)
			m.Vertices = append(m.Vertices, float32(r*math.Cos(u)), float32(r*math.Sin(u)), float32(8*math.Sin(v)))
		}
	}
	id := func(i, j int) uint32 { return uint32((i%nu)*nv + j%nv) }
	for i := range nu {
		for j := range nv {
			a, b, c, d := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			m.Triangles = append(m.Triangles, a, b, c, a, c, d)
		}
	}
	s := New()
	if _, err := s.Put("ring", &Solid{Mesh: m, Place: Identity3}); err != nil {
		t.Fatal(err)
	}
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 3<<20 {
		t.Errorf("a scene of one 100,000-triangle solid is %d bytes of JSON, over 3 MB", len(b))
	}
	back, err := ReadJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := back.MarshalJSON()
	if string(b) != string(b2) {
		t.Error("the document changed on a round trip")
	}
}
