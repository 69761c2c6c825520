package render

// The STEP is checked by FreeCAD (its OpenCASCADE reader), run headless once over every file
// the test writes, since it takes a second or two to start: each file must read as valid
// solids with closed shells, of the volume the test computes (the closed form for exact
// solids, the written triangles for faceted ones), with faces of the right surface types.
// Skipped when freecadcmd is missing (failing under CADRUN_REQUIRE_TOOLS=1);
// .ci/debian-packages installs it (freecad-python3).

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// freecadScript reads each file named in STEP_FILES (separated by newlines) and prints one
// line, RESULT and a JSON object of what it found in each. The files named in NAMED_FILES are
// also imported into a document, whose objects FreeCAD labels with the products' names
// (one object a product, not grouped: the import modes that a headless FreeCAD runs).
const freecadScript = `import os, json
import FreeCAD, Part
p = FreeCAD.ParamGet("User parameter:BaseApp/Preferences/Mod/Import")
p.SetBool("UseLinkGroup", False)
p.SetInt("ImportMode", 0)
p.SetBool("UseBaseName", True)
import Import
res = {}
for f in os.environ["STEP_FILES"].split("\n"):
    try:
        s = Part.Shape()
        s.read(f)
        faces = {}
        for fc in s.Faces:
            n = type(fc.Surface).__name__
            faces[n] = faces.get(n, 0) + 1
        res[f] = dict(valid=s.isValid(), solids=len(s.Solids), shells=len(s.Shells),
                      closed=all(sh.isClosed() for sh in s.Shells), volume=s.Volume, faces=faces)
    except Exception as e:
        res[f] = dict(error=str(e))
for f in filter(None, os.environ["NAMED_FILES"].split("\n")):
    doc = FreeCAD.newDocument()
    Import.insert(f, doc.Name)
    res[f]["names"] = [o.Label for o in doc.Objects if o.TypeId == "Part::Feature"]
print("RESULT " + json.dumps(res))
`

// freecadShape is what FreeCAD found in a STEP.
type freecadShape struct {
	Valid  bool           `json:"valid"`
	Solids int            `json:"solids"`
	Shells int            `json:"shells"`
	Closed bool           `json:"closed"`
	Volume float64        `json:"volume"`
	Faces  map[string]int `json:"faces"`
	Names  []string       `json:"names"`
	Error  string         `json:"error"`
}

// freecadRead reads the STEP files with FreeCAD in one process, and the names of the solids
// of those named.
func freecadRead(t *testing.T, files, named []string) map[string]freecadShape {
	t.Helper()
	bin, err := exec.LookPath("freecadcmd")
	if err != nil {
		needTool(t, "freecadcmd (Debian package freecad-python3)")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "read_step.py")
	if err := os.WriteFile(script, []byte(freecadScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, script)
	// FreeCAD keeps its settings under HOME: a fresh one leaves the user's alone.
	cmd.Env = append(os.Environ(), "STEP_FILES="+strings.Join(files, "\n"), "NAMED_FILES="+strings.Join(named, "\n"), "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("freecadcmd: %v\n%s", err, out)
	}
	_, line, ok := strings.Cut(string(out), "RESULT ")
	if !ok {
		t.Fatalf("freecadcmd printed no result:\n%s", out)
	}
	line, _, _ = strings.Cut(line, "\n")
	got := map[string]freecadShape{}
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("reading FreeCAD's result: %v\n%s", err, line)
	}
	return got
}

// TestSTEPThroughFreeCAD: FreeCAD reads every STEP as valid closed solids of the right
// volume (1e-9 relative) and surface types: a cylinder for a hole, a torus for a revolved
// circle, a cone, a sphere, planes for a faceted solid's triangles; and names the solids of
// a file of several as their entities are named (Ø and a quote included).
func TestSTEPThroughFreeCAD(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("freecadcmd"); err != nil {
		needTool(t, "freecadcmd (Debian package freecad-python3)")
	}
	cases := stepCases(t)
	dir := t.TempDir()
	files := make([]string, len(cases))
	var named []string
	for i, c := range cases {
		b, err := STEP(c.sc, STEPOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		files[i] = filepath.Join(dir, c.name+".step")
		if err := os.WriteFile(files[i], b, 0o644); err != nil {
			t.Fatal(err)
		}
		if c.names != nil {
			named = append(named, files[i])
		}
	}
	got := freecadRead(t, files, named)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, ok := got[files[i]]
			if !ok || g.Error != "" {
				t.Fatalf("FreeCAD did not read %s: %s", c.name, g.Error)
			}
			if !g.Valid || !g.Closed || g.Solids != c.solids {
				t.Errorf("FreeCAD reads %d solids (want %d), valid %v, shells closed %v", g.Solids, c.solids, g.Valid, g.Closed)
			}
			if math.Abs(g.Volume-c.volume) > 1e-9*math.Abs(c.volume) {
				t.Errorf("FreeCAD's volume %.15g, want %.15g (off by %.3g relative)", g.Volume, c.volume, math.Abs(g.Volume-c.volume)/c.volume)
			}
			if diff := cmp.Diff(c.names, g.Names); diff != "" {
				t.Errorf("the solids' names mismatch (-want +got):\n%s", diff)
			}
			if c.faces != nil {
				if diff := cmp.Diff(c.faces, g.Faces); diff != "" {
					t.Errorf("faces by surface type mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}
