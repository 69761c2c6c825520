package render

// The GLB is checked by readers cadrun did not write: the Khronos glTF validator (npm
// gltf-validator, pinned in .tools/package.json), run once in Node over every file, must find
// no error and no warning; Assimp must read each solid as a named mesh of its triangles with
// its material, in metres with Y up. Each skips when its program is missing (failing under
// CADRUN_REQUIRE_TOOLS=1); .ci/deps installs them.

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/google/go-cmp/cmp"
)

// glbCases are the scenes the GLB is checked on: the STL's (a cube, a mirrored one, a
// cylinder, all three, the examples) and the STEP's plate, ring and drilled block.
func glbCases(t *testing.T) []struct {
	name string
	sc   *scene.Scene
} {
	t.Helper()
	var out []struct {
		name string
		sc   *scene.Scene
	}
	for _, c := range solidScenes(t) {
		out = append(out, struct {
			name string
			sc   *scene.Scene
		}{c.name, c.sc})
	}
	for _, c := range stepCases(t) {
		switch c.name {
		case "plate", "ring", "drilled", "several", "placed":
			out = append(out, struct {
				name string
				sc   *scene.Scene
			}{"step-" + c.name, c.sc})
		}
	}
	return out
}

// readGLB reads a GLB's header and chunks: its JSON document and its binary buffer.
func readGLB(t *testing.T, b []byte) (gltfDoc, []byte) {
	t.Helper()
	u := func(at int) int { return int(binary.LittleEndian.Uint32(b[at:])) }
	if len(b) < 28 || u(0) != glbMagic || u(4) != 2 || u(8) != len(b) || u(16) != glbChunkJSON {
		t.Fatalf("not a GLB of version 2 and its own length: %.20q", b)
	}
	jl := u(12)
	var doc gltfDoc
	if err := json.Unmarshal(b[20:20+jl], &doc); err != nil {
		t.Fatal(err)
	}
	at := 20 + jl
	if u(at+4) != glbChunkBIN || at+8+u(at) != len(b) {
		t.Fatalf("the binary chunk is not where the file ends")
	}
	return doc, b[at+8:]
}

// TestGLBFrame: lengths are metres, Y is up, a solid's vertices are written once for each
// normal they take (a box's corner three times, a cylinder's side smooth), its colour is
// linear, and a mirrored solid's facets still face out.
func TestGLBFrame(t *testing.T) {
	t.Parallel()
	sc := scene.New()
	if _, err := sc.Put("cube", &scene.Solid{Mesh: unitCube(), Place: scene.Affine3{10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10, 5}}); err != nil {
		t.Fatal(err)
	}
	if err := sc.SetFill("cube", &scene.Color{1, 0.5, 0, 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Put("cyl", &scene.Solid{Mesh: prism(48, 5, 10), Place: scene.Identity3}); err != nil {
		t.Fatal(err)
	}
	b, err := GLB(sc, GLTFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	doc, bin := readGLB(t, b)
	if got := []string{doc.Nodes[0].Name, doc.Nodes[1].Name, doc.Meshes[0].Name}; !cmp.Equal(got, []string{"cube", "cyl", "cube"}) {
		t.Errorf("names %v", got)
	}
	pos := doc.Accessors[doc.Meshes[0].Primitives[0].Attributes.Position]
	// The cube spans x 0..10 mm, y 0..10, z 5..15: in glTF x 0..0.01 m, y (up) 0.005..0.015,
	// z (-y) -0.01..0.
	if want := []float32{0, 0.005, -0.01}; !cmp.Equal(pos.Min, want, cmp.Comparer(near32)) {
		t.Errorf("the cube's min %v, want %v", pos.Min, want)
	}
	if want := []float32{0.01, 0.015, 0}; !cmp.Equal(pos.Max, want, cmp.Comparer(near32)) {
		t.Errorf("the cube's max %v, want %v", pos.Max, want)
	}
	if pos.Count != 24 {
		t.Errorf("the cube has %d vertices, want 24 (each corner once for each of its three faces)", pos.Count)
	}
	if got := doc.Materials[doc.Meshes[0].Primitives[0].Material].PBR.BaseColor; got != [4]float64{1, 0.214041, 0, 1} {
		t.Errorf("the cube's base colour %v, want sRGB (1, 0.5, 0) made linear", got)
	}
	// The cylinder's side: each side vertex has a normal in the horizontal plane (glTF's
	// xz), pointing away from the axis.
	cyl := doc.Meshes[1].Primitives[0].Attributes
	pa, na := doc.Accessors[cyl.Position], doc.Accessors[cyl.Normal]
	f := func(view, i int) float32 {
		v := doc.BufferViews[view]
		return math.Float32frombits(binary.LittleEndian.Uint32(bin[v.ByteOffset+4*i:]))
	}
	smooth := 0
	for i := range pa.Count {
		px, pz := f(pa.BufferView, 3*i), f(pa.BufferView, 3*i+2)
		nx, ny, nz := f(na.BufferView, 3*i), f(na.BufferView, 3*i+1), f(na.BufferView, 3*i+2)
		if ny == 0 && px*nx+pz*nz > 0 && math.Abs(float64(nx*pz-nz*px)) < 1e-6 {
			smooth++ // radial: a smooth side, not a facet's normal
		}
	}
	if smooth != 96 {
		t.Errorf("%d of the cylinder's vertices have radial normals, want 96 (48 round the top and the bottom)", smooth)
	}
	// A mirrored cube's facets face out: each vertex's normal points away from its centre, and
	// its triangles turn counter-clockwise about it.
	mir := scene.New()
	if _, err := mir.Put("m", &scene.Solid{Mesh: unitCube(), Place: turnedMirrored}); err != nil {
		t.Fatal(err)
	}
	b, err = GLB(mir, GLTFOptions{Unit: UnitM})
	if err != nil {
		t.Fatal(err)
	}
	doc, bin = readGLB(t, b)
	prim := doc.Meshes[0].Primitives[0]
	pa, na = doc.Accessors[prim.Attributes.Position], doc.Accessors[prim.Attributes.Normal]
	ia := doc.Accessors[prim.Indices]
	vec := func(view, i int) [3]float64 {
		return [3]float64{float64(f(view, 3*i)), float64(f(view, 3*i+1)), float64(f(view, 3*i+2))}
	}
	var centre [3]float64
	for k := range 3 {
		centre[k] = float64(pa.Min[k]+pa.Max[k]) / 2
	}
	for t3 := range ia.Count / 3 {
		var p [3][3]float64
		for k := range 3 {
			v := doc.BufferViews[ia.BufferView]
			p[k] = vec(pa.BufferView, int(binary.LittleEndian.Uint32(bin[v.ByteOffset+4*(3*t3+k):])))
		}
		e1 := [3]float64{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]}
		e2 := [3]float64{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]}
		n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		if out := n[0]*(p[0][0]-centre[0]) + n[1]*(p[0][1]-centre[1]) + n[2]*(p[0][2]-centre[2]); out <= 0 {
			t.Errorf("the mirrored cube's triangle %d faces in", t3)
		}
	}
	for i := range na.Count {
		p, n := vec(pa.BufferView, i), vec(na.BufferView, i)
		if n[0]*(p[0]-centre[0])+n[1]*(p[1]-centre[1])+n[2]*(p[2]-centre[2]) <= 0 {
			t.Errorf("the mirrored cube's vertex %d has a normal facing in", i)
		}
	}
	if _, err := GLB(scene.New(), GLTFOptions{}); err == nil || !strings.Contains(err.Error(), "GLB holds only solids") {
		t.Errorf("a scene without solids: %v", err)
	}
}

func near32(a, b float32) bool { return math.Abs(float64(a-b)) <= 1e-9 }

// validatorScript runs the Khronos validator on each file named on its command line and
// prints one line of JSON: each file's counts of errors and warnings and its first messages.
const validatorScript = `const v = require(process.argv[1]);
const fs = require('fs');
(async () => {
  const out = {};
  for (const f of process.argv.slice(2)) {
    const r = await v.validateBytes(new Uint8Array(fs.readFileSync(f)));
    out[f] = {errors: r.issues.numErrors, warnings: r.issues.numWarnings, messages: r.issues.messages.slice(0, 5)};
  }
  console.log(JSON.stringify(out));
})().catch(e => { console.error(e); process.exit(1); });`

// TestGLBThroughValidator: the Khronos glTF validator finds no error and no warning in any
// GLB.
func TestGLBThroughValidator(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	validator, _ := filepath.Abs(filepath.Join("..", ".tools", "node_modules", "gltf-validator"))
	if _, statErr := os.Stat(validator); err != nil || statErr != nil {
		needTool(t, "node or the gltf-validator package (.ci/deps installs .tools)")
	}
	dir := t.TempDir()
	var files []string
	for _, c := range glbCases(t) {
		b, err := GLB(c.sc, GLTFOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f := filepath.Join(dir, c.name+".glb")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out, err := exec.Command(node, append([]string{"-e", validatorScript, validator}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("the validator: %v\n%s", err, out)
	}
	var got map[string]struct {
		Errors, Warnings int
		Messages         []any
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("reading the validator's answer: %v\n%s", err, out)
	}
	for _, f := range files {
		r, ok := got[f]
		if !ok || r.Errors != 0 || r.Warnings != 0 {
			t.Errorf("%s: the validator finds %d errors and %d warnings: %v", filepath.Base(f), r.Errors, r.Warnings, r.Messages)
		}
	}
}

// assimpBounds matches the bounds `assimp info` gives.
var assimpBounds = regexp.MustCompile(`(?m)^(Minimum|Maximum) point\s+\(([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+)\)`)

// TestGLBThroughAssimp: Assimp reads each solid as a mesh of its name and its triangles, with
// a material for each colour, within the solids' bounds in metres with Y up.
func TestGLBThroughAssimp(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("assimp")
	if err != nil {
		needTool(t, "assimp (Debian package assimp-utils)")
	}
	dir := t.TempDir()
	for _, c := range glbCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := GLB(c.sc, GLTFOptions{})
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, c.name+".glb")
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(bin, "info", file).CombinedOutput()
			if err != nil {
				t.Fatalf("assimp info: %v\n%s", err, out)
			}
			type mesh struct {
				Name  string
				Faces int
			}
			var got, want []mesh
			for _, m := range regexp.MustCompile(`(?m)^\s+\d+ \((.*)\): \[\d+ / \d+ / (\d+) \| triangle\]`).FindAllSubmatch(out, -1) {
				n, _ := strconv.Atoi(string(m[2]))
				got = append(got, mesh{string(m[1]), n})
			}
			colors := map[scene.Color]bool{}
			var box scene.Box3
			for _, it := range c.sc.Solids() {
				want = append(want, mesh{it.Entity.Name, it.Entity.Shape.(*scene.Solid).Mesh.NumTriangles()})
				colors[solidColor(c.sc, it.Entity)] = true
				v, _ := worldVertices(it)
				for i := 0; i < len(v); i += 3 {
					box.Extend(scene.Vec3{float64(v[i]), float64(v[i+1]), float64(v[i+2])})
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("assimp's meshes mismatch (-want +got):\n%s", diff)
			}
			if m := assimpMaterials.FindSubmatch(out); m == nil || string(m[1]) != strconv.Itoa(len(colors)) {
				t.Errorf("assimp's materials: %q, want %d", m, len(colors))
			}
			// glTF's (x, y, z) is the world's (x, z, -y), in metres.
			wantB := map[string][3]float64{
				"Minimum": {box.Min[0] / 1000, box.Min[2] / 1000, -box.Max[1] / 1000},
				"Maximum": {box.Max[0] / 1000, box.Max[2] / 1000, -box.Min[1] / 1000},
			}
			bounds := assimpBounds.FindAllSubmatch(out, -1)
			if len(bounds) != 2 {
				t.Fatalf("assimp gives no bounds:\n%s", out)
			}
			for _, m := range bounds {
				for k := range 3 {
					v, _ := strconv.ParseFloat(string(m[2+k]), 64)
					// assimp prints six decimals
					if w := wantB[string(m[1])][k]; math.Abs(v-w) > 1e-6+1e-6*math.Abs(w) {
						t.Errorf("assimp's %s point %s, want %v", m[1], m[0], wantB[string(m[1])])
						break
					}
				}
			}
		})
	}
}
