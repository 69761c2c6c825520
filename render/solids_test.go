package render

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene"
)

// unitCube is a closed cube of side 1 from the origin, oriented outwards.
func unitCube() *scene.Mesh {
	m := &scene.Mesh{}
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

// prism is a closed n-gon prism about the z axis, radius r, from z = 0 to h, oriented
// outwards: a cylinder as a mesh approximates it. The caps are fans from their centres.
func prism(n int, r, h float64) *scene.Mesh {
	m := &scene.Mesh{}
	for k := range n {
		a := 2 * math.Pi * float64(k) / float64(n)
		x, y := float32(r*math.Cos(a)), float32(r*math.Sin(a))
		m.Vertices = append(m.Vertices, x, y, 0, x, y, float32(h)) // 2k below, 2k+1 above
	}
	bottom, top := uint32(2*n), uint32(2*n+1)
	m.Vertices = append(m.Vertices, 0, 0, 0, 0, 0, float32(h))
	for k := range uint32(n) {
		j := (k + 1) % uint32(n)
		m.Triangles = append(m.Triangles,
			2*k, 2*j, 2*j+1, 2*k, 2*j+1, 2*k+1, // the side, seen from outside
			bottom, 2*j, 2*k, // the bottom, facing down
			top, 2*k+1, 2*j+1, // the top, facing up
		)
	}
	return m
}

// meshVolume is the volume the mesh encloses, in float64 from its float32 vertices (the sum
// of the signed tetrahedra from the origin), times |det| of the map that places it.
func meshVolume(m *scene.Mesh, place scene.Affine3) float64 {
	v := 0.0
	for t := range m.NumTriangles() {
		a, b, c := m.Vertex(m.Triangles[3*t]), m.Vertex(m.Triangles[3*t+1]), m.Vertex(m.Triangles[3*t+2])
		v += a[0]*(b[1]*c[2]-b[2]*c[1]) - a[1]*(b[0]*c[2]-b[2]*c[0]) + a[2]*(b[0]*c[1]-b[1]*c[0])
	}
	return v / 6 * math.Abs(place.Det())
}

// turnedMirrored turns about the axis (1, 1, 1) by 120 degrees (x to y, y to z, z to x),
// mirrors through the origin, scales by 2 and moves: a map with Det -8.
var turnedMirrored = scene.Affine3{
	0, 0, -2, 5,
	-2, 0, 0, -3,
	0, -2, 0, 1,
}

// solidScenes are the meshes the readers check, each alone in a scene, and all of them in one.
func solidScenes(t *testing.T) []struct {
	name   string
	sc     *scene.Scene
	volume float64
	parts  int
} {
	t.Helper()
	if d := turnedMirrored.Det(); d != -8 {
		t.Fatalf("turnedMirrored has Det %v, want -8", d)
	}
	solids := []struct {
		name  string
		mesh  *scene.Mesh
		place scene.Affine3
	}{
		{"cube", unitCube(), scene.Identity3},
		{"mirrored", unitCube(), turnedMirrored},
		{"cylinder", prism(48, 5, 10), scene.Translation3(scene.Vec3{20, 0, -2})},
	}
	type sceneCase = struct {
		name   string
		sc     *scene.Scene
		volume float64
		parts  int
	}
	var out []sceneCase
	all := sceneCase{name: "all", sc: scene.New(), parts: len(solids)}
	for _, sd := range solids {
		one := sceneCase{name: sd.name, sc: scene.New(), volume: meshVolume(sd.mesh, sd.place), parts: 1}
		for _, sc := range []*scene.Scene{one.sc, all.sc} {
			if _, err := sc.Put(sd.name, &scene.Solid{Mesh: sd.mesh, Place: sd.place}); err != nil {
				t.Fatal(err)
			}
		}
		all.volume += one.volume
		out = append(out, one)
	}
	out = append(out, all)
	// The example parts, as their expected scenes hold them: made by the kernel from scripts.
	ex, err := examples.SolidScenes(os.DirFS(filepath.Join("..", "examples")))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(ex)) {
		c := sceneCase{name: strings.ReplaceAll(name, " ", "-"), sc: ex[name]}
		for _, it := range c.sc.Solids() {
			c.volume += meshVolume(it.Entity.Shape.(*scene.Solid).Mesh, it.World)
			c.parts++
		}
		out = append(out, c)
	}
	return out
}

// stlFacet is a triangle of a binary STL.
type stlFacet struct {
	Normal [3]float32
	V      [3][3]float32
}

// readSTL reads a binary STL: its header and its facets.
func readSTL(t *testing.T, b []byte) (string, []stlFacet) {
	t.Helper()
	if len(b) < 84 {
		t.Fatalf("an STL of %d bytes", len(b))
	}
	n := int(binary.LittleEndian.Uint32(b[80:]))
	if len(b) != 84+50*n {
		t.Fatalf("an STL of %d triangles is %d bytes, want %d", n, len(b), 84+50*n)
	}
	facets := make([]stlFacet, n)
	f := func(at int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[at:])) }
	for i := range facets {
		r := 84 + 50*i
		for k := range 3 {
			facets[i].Normal[k] = f(r + 4*k)
			for j := range 3 {
				facets[i].V[j][k] = f(r + 12 + 12*j + 4*k)
			}
		}
	}
	return string(b[:80]), facets
}

// TestSTLTriangles: each facet is its triangle through the solid's world map, rounded to
// float32, in the mesh's order, or in the other order under a mirroring map; its normal is
// the unit normal of the facet as written, pointing outwards.
func TestSTLTriangles(t *testing.T) {
	t.Parallel()
	for _, c := range solidScenes(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := STL(c.sc)
			if err != nil {
				t.Fatal(err)
			}
			header, facets := readSTL(t, b)
			if !strings.HasPrefix(header, "binary STL written by cadrun") || strings.HasPrefix(header, "solid") {
				t.Errorf("header %q", header)
			}
			var want []stlFacet
			for _, it := range c.sc.Solids() {
				m := it.Entity.Shape.(*scene.Solid).Mesh
				for tr := range m.NumTriangles() {
					var f stlFacet
					for j := range 3 {
						p := it.World.Apply(m.Vertex(m.Triangles[3*tr+j]))
						f.V[j] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
					}
					if it.World.Det() < 0 {
						f.V[1], f.V[2] = f.V[2], f.V[1]
					}
					want = append(want, f)
				}
			}
			got := make([]stlFacet, len(facets))
			volume := 0.0
			for i, f := range facets {
				got[i] = stlFacet{V: f.V}
				a, b, c := vec64(f.V[0]), vec64(f.V[1]), vec64(f.V[2])
				n := cross(sub(b, a), sub(c, a))
				l := math.Sqrt(dot(n, n))
				if g := vec64(f.Normal); math.Abs(dot(g, g)-1) > 1e-6 || dot(g, n)/l < 1-1e-6 {
					t.Errorf("facet %d: normal %v, want the unit normal %v", i, f.Normal, [3]float64{n[0] / l, n[1] / l, n[2] / l})
				}
				volume += dot(a, n) / 6
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("facets mismatch (-want +got):\n%s", diff)
			}
			// Outward facets enclose a positive volume, the mesh's.
			if math.Abs(volume-c.volume) > 1e-5*c.volume {
				t.Errorf("the facets enclose %v, want %v", volume, c.volume)
			}
		})
	}
}

func vec64(v [3]float32) [3]float64 { return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])} }
func sub(a, b [3]float64) [3]float64 {
	return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]}
}
func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// TestSolidFilesNeedSolids: an STL or a 3MF of a scene without a solid is refused, saying
// what to do.
func TestSolidFilesNeedSolids(t *testing.T) {
	t.Parallel()
	s := scene.New()
	if _, err := s.Put("plate", scene.Circle{Radius: 4}); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".stl", ".3mf"} {
		f, err := ByExt("part" + ext)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.Render(s, Options{})
		name := strings.ToUpper(ext[1:])
		want := "no solids: the scene has no solid to write; " + name + " holds only solids: make one (extrude, revolve, drawBox, drawCylinder, drawSphere), or write .svg, .pdf, .dxf or .png for a 2D drawing"
		if !errors.Is(err, ErrNoSolids) || err.Error() != want {
			t.Errorf("%s: error %v, want %q", ext, err, want)
		}
	}
}

// TestLeftOut: the drawings name the solids they leave out, the mesh files the 2D shapes;
// a picture and scene.json leave nothing out.
func TestLeftOut(t *testing.T) {
	t.Parallel()
	mixed := scene.New()
	for _, name := range []string{"bracket", "knob"} {
		if _, err := mixed.Put(name, &scene.Solid{Mesh: unitCube(), Place: scene.Identity3}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := mixed.Put("label", scene.Circle{Radius: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := mixed.CreateGroup("g", []string{"knob", "label"}); err != nil {
		t.Fatal(err)
	}
	many := scene.New()
	for i := range 12 {
		if _, err := many.Put(string(rune('a'+i)), &scene.Solid{Mesh: unitCube(), Place: scene.Identity3}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		ext  string
		sc   *scene.Scene
		want string
	}{
		{".svg", mixed, "left out 2 solids (bracket, knob): SVG draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them"},
		{".pdf", mixed, "left out 2 solids (bracket, knob): PDF draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them"},
		{".dxf", many, "left out 12 solids (a, b, c, d, e, f, g, h, i, j and 2 more): DXF draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them"},
		{".stl", mixed, "left out 1 shape that is not a solid (label): STL holds solids only; write .svg, .pdf, .dxf or .png to see them"},
		{".3mf", mixed, "left out 1 shape that is not a solid (label): 3MF holds solids only; write .svg, .pdf, .dxf or .png to see them"},
		{".stl", many, ""},
		{".png", mixed, ""},
		{".json", mixed, ""},
	} {
		f, err := ByExt("x" + c.ext)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.LeftOut(c.sc); got != c.want {
			t.Errorf("%s: LeftOut %q, want %q", c.ext, got, c.want)
		}
	}
}

// threeMF is what a test reads of a 3MF: its entries and its model.
type threeMF struct {
	files map[string][]byte
	model struct {
		Unit     string `xml:"unit,attr"`
		Metadata []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:",chardata"`
		} `xml:"metadata"`
		Materials []struct {
			ID   int `xml:"id,attr"`
			Base []struct {
				Name  string `xml:"name,attr"`
				Color string `xml:"displaycolor,attr"`
			} `xml:"base"`
		} `xml:"resources>basematerials"`
		Objects []struct {
			ID       int    `xml:"id,attr"`
			Type     string `xml:"type,attr"`
			Name     string `xml:"name,attr"`
			PID      int    `xml:"pid,attr"`
			PIndex   int    `xml:"pindex,attr"`
			Vertices []struct {
				X float32 `xml:"x,attr"`
				Y float32 `xml:"y,attr"`
				Z float32 `xml:"z,attr"`
			} `xml:"mesh>vertices>vertex"`
			Triangles []struct {
				V1 int `xml:"v1,attr"`
				V2 int `xml:"v2,attr"`
				V3 int `xml:"v3,attr"`
			} `xml:"mesh>triangles>triangle"`
		} `xml:"resources>object"`
		Items []struct {
			ObjectID int `xml:"objectid,attr"`
		} `xml:"build>item"`
	}
}

// readThreeMF unzips a 3MF and reads its model.
func readThreeMF(t *testing.T, b []byte) *threeMF {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	m := &threeMF{files: map[string][]byte{}}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		if m.files[f.Name], err = io.ReadAll(r); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model"}, names); diff != "" {
		t.Fatalf("entries mismatch (-want +got):\n%s", diff)
	}
	if err := xml.Unmarshal(m.files["3D/3dmodel.model"], &m.model); err != nil {
		t.Fatal(err)
	}
	return m
}

// colourScene is two coloured cubes, one of them mirrored, and a cylinder in the default
// colour, named as a reader must keep them.
func colourScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	red := scene.Color{1, 0, 0, 1}
	for _, c := range []struct {
		name  string
		mesh  *scene.Mesh
		place scene.Affine3
		fill  *scene.Color
	}{
		{"red cube", unitCube(), scene.Translation3(scene.Vec3{-3, 0, 0}), &red},
		{"mirrored <red> & cube", unitCube(), turnedMirrored, &red},
		{"cylinder", prism(12, 2, 3), scene.Identity3, nil},
	} {
		e, err := s.Put(c.name, &scene.Solid{Mesh: c.mesh, Place: c.place})
		if err != nil {
			t.Fatal(err)
		}
		if c.fill != nil {
			e.Style.Fill = c.fill
		}
	}
	return s
}

// TestThreeMF reads a 3MF back as a zip: its content types and relationship, the model's unit
// (the export's), one object of type model per solid with its entity's name and colour
// (a material per distinct colour), its vertices each once, in world coordinates, and a
// build item per object.
func TestThreeMF(t *testing.T) {
	t.Parallel()
	s := colourScene(t)
	for _, c := range []struct {
		unit Unit
		want string
	}{{"", "millimeter"}, {UnitMM, "millimeter"}, {UnitCM, "centimeter"}, {UnitM, "meter"}, {UnitIn, "inch"}, {UnitFt, "foot"}} {
		b, err := ThreeMF(s, ThreeMFOptions{Unit: c.unit})
		if err != nil {
			t.Fatal(err)
		}
		if got := readThreeMF(t, b).model.Unit; got != c.want {
			t.Errorf("unit %q: the model says %q, want %q", c.unit, got, c.want)
		}
	}
	b, err := ThreeMF(s, ThreeMFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := readThreeMF(t, b)
	for _, want := range []string{`Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"`, `Extension="rels"`} {
		if !strings.Contains(string(m.files["[Content_Types].xml"]), want) {
			t.Errorf("[Content_Types].xml lacks %s", want)
		}
	}
	if !strings.Contains(string(m.files["_rels/.rels"]), `Target="/3D/3dmodel.model"`) {
		t.Errorf("_rels/.rels does not point at the model:\n%s", m.files["_rels/.rels"])
	}
	if len(m.model.Materials) != 1 || len(m.model.Materials[0].Base) != 2 {
		t.Fatalf("materials %+v, want one basematerials of two colours", m.model.Materials)
	}
	colours := map[int]string{}
	for i, base := range m.model.Materials[0].Base {
		colours[i] = base.Color
	}
	if diff := cmp.Diff(map[int]string{0: "#FF0000FF", 1: "#A3ADBDFF"}, colours); diff != "" {
		t.Errorf("colours mismatch (-want +got):\n%s", diff)
	}
	type object struct {
		ID                    int
		Type, Name, Colour    string
		Vertices, Triangles   int
		InBuild, Outward, Min bool
	}
	var got []object
	built := map[int]bool{}
	for _, it := range m.model.Items {
		built[it.ObjectID] = true
	}
	items := s.Solids()
	for i, o := range m.model.Objects {
		ob := object{ID: o.ID, Type: o.Type, Name: o.Name, Colour: colours[o.PIndex], Vertices: len(o.Vertices), Triangles: len(o.Triangles), InBuild: built[o.ID]}
		if o.PID != m.model.Materials[0].ID {
			t.Errorf("object %q: pid %d, want the basematerials' %d", o.Name, o.PID, m.model.Materials[0].ID)
		}
		// The volume the triangles enclose is the mesh's, positive: they face outwards.
		v := 0.0
		for _, tr := range o.Triangles {
			p := func(i int) [3]float64 {
				return [3]float64{float64(o.Vertices[i].X), float64(o.Vertices[i].Y), float64(o.Vertices[i].Z)}
			}
			v += dot(p(tr.V1), cross(p(tr.V2), p(tr.V3))) / 6
		}
		sd := items[i].Entity.Shape.(*scene.Solid)
		want := meshVolume(sd.Mesh, items[i].World)
		ob.Outward = math.Abs(v-want) <= 1e-5*want
		// Its lowest corner is where the world map takes the mesh.
		box := sd.Bounds3(scene.Lift(s.WorldMatrix(items[i].Entity)))
		lo := [3]float32{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(1))}
		for _, p := range o.Vertices {
			lo = [3]float32{min(lo[0], p.X), min(lo[1], p.Y), min(lo[2], p.Z)}
		}
		ob.Min = lo == [3]float32{float32(box.Min[0]), float32(box.Min[1]), float32(box.Min[2])}
		got = append(got, ob)
	}
	want := []object{
		{2, "model", "red cube", "#FF0000FF", 8, 12, true, true, true},
		{3, "model", "mirrored <red> & cube", "#FF0000FF", 8, 12, true, true, true},
		{4, "model", "cylinder", "#A3ADBDFF", 26, 48, true, true, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects mismatch (-want +got):\n%s", diff)
	}
	if len(m.model.Items) != len(m.model.Objects) {
		t.Errorf("%d build items for %d objects", len(m.model.Items), len(m.model.Objects))
	}
	if len(m.model.Metadata) != 1 || m.model.Metadata[0].Name != "Application" || m.model.Metadata[0].Value != "cadrun" {
		t.Errorf("metadata %+v", m.model.Metadata)
	}
}

// TestThreeMFGolden: the same scene makes the same bytes, and its model is the golden one
// (the model's text, which a review can read; the zip around it is checked by TestThreeMF).
func TestThreeMFGolden(t *testing.T) {
	t.Parallel()
	a, err := ThreeMF(colourScene(t), ThreeMFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ThreeMF(colourScene(t), ThreeMFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two 3MF of one scene differ")
	}
	golden.Check(t, "testdata/solids.3dmodel.model", readThreeMF(t, a).files["3D/3dmodel.model"])
}

// TestThreeMFDropsCollapsedTriangles: a triangle whose corners the world map rounds to fewer
// than three distinct float32 points is left out (3MF allows none), and the points that
// became one are one vertex.
func TestThreeMFDropsCollapsedTriangles(t *testing.T) {
	t.Parallel()
	m := unitCube()
	m.Vertices = append(m.Vertices, 1, 1, 1)   // a copy of corner 7
	m.Triangles = append(m.Triangles, 7, 8, 3) // collapsed: two corners at one point
	s := scene.New()
	if _, err := s.Put("cube", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		t.Fatal(err)
	}
	b, err := ThreeMF(s, ThreeMFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := readThreeMF(t, b).model.Objects[0]
	if len(o.Vertices) != 8 || len(o.Triangles) != 12 {
		t.Errorf("%d vertices and %d triangles, want the cube's 8 and 12", len(o.Vertices), len(o.Triangles))
	}
}
