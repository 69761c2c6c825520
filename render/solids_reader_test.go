package render

// The STL and the 3MF are checked by readers cadrun did not write: ADMesh reads the STL and
// repairs what it finds wrong (it must find nothing: no degenerate facet, no edge to fix, no
// facet facing inwards, no normal to fix) and measures its volume; manifold-3d in Node makes
// the STL's triangles a solid again; Assimp reads the 3MF's meshes. Each skips when its
// program is missing (failing under CADRUN_REQUIRE_TOOLS=1); .ci/debian-packages installs them.

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// admeshReport is what ADMesh says of an STL.
type admeshReport struct {
	Facets, Parts, Disconnected            int
	Degenerate, EdgesFixed, Removed, Added int
	Reversed, Backwards, NormalsFixed      int
	Volume                                 float64
}

// admeshFields are the report's lines, by the field each fills: the count is the "Original"
// column where the line has two.
var admeshFields = []struct {
	re  *regexp.Regexp
	set func(r *admeshReport, v float64)
}{
	{regexp.MustCompile(`Number of facets\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Facets = int(v) }},
	{regexp.MustCompile(`Number of parts\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Parts = int(v) }},
	{regexp.MustCompile(`Total disconnected facets\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Disconnected = int(v) }},
	{regexp.MustCompile(`Degenerate facets\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Degenerate = int(v) }},
	{regexp.MustCompile(`Edges fixed\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.EdgesFixed = int(v) }},
	{regexp.MustCompile(`Facets removed\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Removed = int(v) }},
	{regexp.MustCompile(`Facets added\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Added = int(v) }},
	{regexp.MustCompile(`Facets reversed\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Reversed = int(v) }},
	{regexp.MustCompile(`Backwards edges\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.Backwards = int(v) }},
	{regexp.MustCompile(`Normals fixed\s*:\s*(\d+)`), func(r *admeshReport, v float64) { r.NormalsFixed = int(v) }},
	{regexp.MustCompile(`Volume\s*:\s*(-?[0-9.]+)`), func(r *admeshReport, v float64) { r.Volume = v }},
}

// admesh runs ADMesh on the STL file and reads its report.
func admesh(t *testing.T, file string) admeshReport {
	t.Helper()
	bin, err := exec.LookPath("admesh")
	if err != nil {
		needTool(t, "admesh (Debian package admesh)")
	}
	out, err := exec.Command(bin, file).CombinedOutput()
	if err != nil {
		t.Fatalf("admesh %s: %v\n%s", file, err, out)
	}
	var r admeshReport
	for _, f := range admeshFields {
		m := f.re.FindSubmatch(out)
		if m == nil {
			t.Fatalf("admesh's report has no %s:\n%s", f.re, out)
		}
		v, err := strconv.ParseFloat(string(m[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		f.set(&r, v)
	}
	return r
}

// TestSTLThroughADMesh: ADMesh reads each STL as the closed solids it holds, with nothing to
// repair, and its volume is the meshes' (computed here in float64) within float32 rounding and
// the report's six decimals.
func TestSTLThroughADMesh(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range solidScenes(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := STL(c.sc)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, c.name+".stl")
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			got := admesh(t, file)
			if math.Abs(got.Volume-c.volume) > 2e-6*c.volume+1e-6 {
				t.Errorf("ADMesh's volume %v, the meshes' %v", got.Volume, c.volume)
			}
			got.Volume = 0
			want := admeshReport{Facets: c.sc.SceneTriangles(), Parts: c.parts}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ADMesh's report mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSTLThroughManifold: manifold-3d, in Node, makes each STL's triangles a solid again
// (status NoError: every edge shared by two facets facing the same way), with the meshes'
// volume and every triangle.
func TestSTLThroughManifold(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat("../scene/solid/internal/manifold/npm/node_modules/manifold-3d/manifold.js"); err != nil || statErr != nil {
		needTool(t, "node or the manifold-3d package (make kernel)")
	}
	dir := t.TempDir()
	for _, c := range solidScenes(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := STL(c.sc)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, c.name+".stl")
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(node, "testdata/stl_manifold.mjs", file).Output()
			if err != nil {
				t.Fatalf("node testdata/stl_manifold.mjs: %v", err)
			}
			var got struct {
				Status    string  `json:"status"`
				Volume    float64 `json:"volume"`
				Triangles int     `json:"triangles"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("reading %s: %v", out, err)
			}
			if got.Status != "NoError" || got.Triangles != c.sc.SceneTriangles() || math.Abs(got.Volume-c.volume) > 1e-6*c.volume {
				t.Errorf("manifold-3d read status %s, %d triangles, volume %v; want NoError, %d, %v",
					got.Status, got.Triangles, got.Volume, c.sc.SceneTriangles(), c.volume)
			}
		})
	}
}

// assimpMesh matches a mesh line of `assimp info`: "0 (2): [8 / 0 / 12 | triangle]", its
// vertices, bones and faces.
var assimpMesh = regexp.MustCompile(`(?m)^\s+\d+ \(.*\): \[(\d+) / \d+ / (\d+) \| triangle\]`)

// assimpMaterials matches the count of materials.
var assimpMaterials = regexp.MustCompile(`(?m)^Materials:\s+(\d+)`)

// TestThreeMFThroughAssimp: Assimp reads the 3MF as one mesh per solid, each with its
// vertices once and its triangles, and a material per distinct colour.
func TestThreeMFThroughAssimp(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("assimp")
	if err != nil {
		needTool(t, "assimp (Debian package assimp-utils)")
	}
	s := colourScene(t)
	b, err := ThreeMF(s, ThreeMFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "parts.3mf")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "info", file).CombinedOutput()
	if err != nil {
		t.Fatalf("assimp info: %v\n%s", err, out)
	}
	var got [][2]string
	for _, m := range assimpMesh.FindAllSubmatch(out, -1) {
		got = append(got, [2]string{string(m[1]), string(m[2])})
	}
	// Two cubes of 8 corners and 12 triangles; a 12-gon prism of 26 vertices and 48 triangles.
	want := [][2]string{{"8", "12"}, {"8", "12"}, {"26", "48"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Assimp's meshes mismatch (-want +got, vertices and faces):\n%s\n%s", diff, out)
	}
	if m := assimpMaterials.FindSubmatch(out); m == nil || string(m[1]) != "2" {
		t.Errorf("Assimp's materials: %q, want 2\n%s", m, out)
	}
}
