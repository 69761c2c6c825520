package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
)

// solidScene is a scene of two solids (closed cubes, one in a group) and a 2D shape, as
// scene.json holds it: the workspace's scene when it has no script.
func solidScene(t *testing.T) *scene.Scene {
	t.Helper()
	cube := func() *scene.Mesh {
		m := &scene.Mesh{}
		for i := range 8 {
			m.Vertices = append(m.Vertices, float32(i&1), float32(i>>1&1), float32(i>>2&1))
		}
		m.Triangles = []uint32{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
		return m
	}
	sc := scene.New()
	for _, name := range []string{"bracket", "knob"} {
		if _, err := sc.Put(name, &scene.Solid{Mesh: cube(), Place: scene.Translation3(scene.Vec3{float64(len(name)), 0, 0})}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sc.Put("label", scene.Circle{Radius: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.CreateGroup("parts", []string{"knob"}); err != nil {
		t.Fatal(err)
	}
	return sc
}

// newSolidSession is a session whose scene is solidScene, read from scene.json.
func newSolidSession(t *testing.T) (*Session, string) {
	t.Helper()
	b, err := solidScene(t).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return newSession(t, map[string]string{"scene.json": string(b)})
}

// TestExportSolids: export writes the solids as STL, 3MF, GLB and STEP, and every format says what its
// file leaves out: a drawing the solids, a mesh file the 2D shapes.
func TestExportSolids(t *testing.T) {
	t.Parallel()
	s, dir := newSolidSession(t)
	const (
		solids = "left out 2 solids (bracket, knob): %s draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them"
		flat   = "left out 1 shape that is not a solid (label): %s holds solids only; write .svg, .pdf, .dxf or .png to see them"
	)
	for _, c := range []struct {
		path, magic, warning string
	}{
		{"out/part.stl", "binary STL written by cadrun", strings.Replace(flat, "%s", "STL", 1)},
		{"out/part.3mf", "PK\x03\x04", strings.Replace(flat, "%s", "3MF", 1)},
		{"out/part.glb", "glTF", strings.Replace(flat, "%s", "GLB", 1)},
		{"out/part.step", "ISO-10303-21;", strings.Replace(flat, "%s", "STEP", 1) +
			"; STEP solids faceted (planar triangles): bracket (a mesh), knob (a mesh); for exact faces, make holes and pockets with 2D booleans before extruding"},
		{"out/part.svg", "<svg", strings.Replace(solids, "%s", "SVG", 1)},
		{"out/part.pdf", "%PDF-", strings.Replace(solids, "%s", "PDF", 1)},
		{"out/part.dxf", "  0\nSECTION", strings.Replace(solids, "%s", "DXF", 1)},
		{"out/part.json", "{", ""},
	} {
		out, err := call[*ExportOut](t, s, "export", ExportIn{Path: c.path})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, c.path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), c.magic) || out.Bytes != len(b) {
			t.Errorf("%s: answer %+v, file of %d bytes starting %.10q", c.path, out, len(b), b)
		}
		var want []string
		if c.warning != "" {
			want = []string{c.warning}
		}
		if diff := cmp.Diff(want, out.Warnings); diff != "" {
			t.Errorf("%s: warnings mismatch (-want +got):\n%s", c.path, diff)
		}
	}
	if _, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/x", Format: "3mf", Units: "in"}); err != nil {
		t.Fatalf("format 3mf, units in: %v", err)
	}
}

// stepMain makes a plate with holes made in 2D (exact in a STEP) and a block drilled by a 3D
// boolean (faceted).
const stepMain = `drawRoundedRect('outline', 0, 0, 60, 30, 5); drawCircle('h', 15, 0, 4)
booleanDifference('outline', 'h', 'profile'); extrude('profile', 8, 'plate')
drawBox('box', 0, 40, 5, 20, 20, 10); drawCylinder('pin', 0, 40, 5, 4, 30); booleanDifference('box', 'pin', 'block')
for (const n of ['outline', 'h', 'profile', 'box', 'pin']) deleteEntity(n)`

// TestExportSTEP: the export tool writes a STEP, and its answer says which solids are exact
// and which faceted, and why.
func TestExportSTEP(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": stepMain})
	out, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/part", Format: "step", Units: "in"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", "part.step"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Format != "step" || out.Bytes != len(b) || !strings.Contains(string(b), "CONVERSION_BASED_UNIT('INCH'") {
		t.Errorf("answer %+v, a file of %d bytes", out, len(b))
	}
	want := []string{"STEP solids exact (planes, cylinders, cones, tori, spheres): plate; faceted (planar triangles): block (a 3D difference); for exact faces, make holes and pockets with 2D booleans before extruding"}
	if diff := cmp.Diff(want, out.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

// TestExportSolidsRefused: an STL of a scene without solids is refused, saying to make one.
func TestExportSolidsRefused(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)"})
	_, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/part.stl"})
	if err == nil || !strings.Contains(err.Error(), "no solids: the scene has no solid to write; STL holds only solids: make one (extrude, revolve, drawBox") {
		t.Errorf("error %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "part.stl")); !os.IsNotExist(err) {
		t.Errorf("the refused STL was written: %v", err)
	}
}

// TestSceneDrawingsNameSolids: scene svg and scene dxf draw the 2D shapes and name the solids
// they leave out in omitted.
func TestSceneDrawingsNameSolids(t *testing.T) {
	t.Parallel()
	s, _ := newSolidSession(t)
	for _, command := range []string{"svg", "dxf"} {
		out, err := call[SceneOut](t, s, "scene", SceneIn{Command: command})
		if err != nil {
			t.Fatal(err)
		}
		want := &Omitted{Shown: 2, Total: 4, Note: "left out 2 solids (bracket, knob): " + strings.ToUpper(command) + " draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them"}
		if diff := cmp.Diff(want, out.Omitted); diff != "" {
			t.Errorf("%s: omitted mismatch (-want +got):\n%s", command, diff)
		}
		if out.SVG == "" && out.DXF == "" {
			t.Errorf("%s: nothing drawn", command)
		}
	}
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "svg", Name: "label"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Omitted != nil {
		t.Errorf("an SVG of a 2D shape alone: omitted %+v", out.Omitted)
	}
}
