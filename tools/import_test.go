package tools

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/racebuild"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// negativeHatch is a HATCH whose polyline boundary declares -5 vertices (group 93): the
// importer panicked on it, and the server with it.
const negativeHatch = "0\nSECTION\n2\nENTITIES\n0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n71\n0\n91\n1\n92\n2\n72\n0\n73\n1\n93\n-5\n0\nENDSEC\n0\nEOF\n"

// TestImportFailureLeavesServerServing: a drawing the importer fails on is refused, not
// applied, and the server goes on serving: the conversion runs in a worker process of its own,
// so a panic or a limit passed ends that worker, not the server.
func TestImportFailureLeavesServerServing(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	_, err := call[*ImportOut](t, s, "import", map[string]any{"content": negativeHatch, "module": "m"})
	if !errors.Is(err, engine.ErrNotApplied) || !strings.HasPrefix(err.Error(), "importing the content given: ") {
		t.Fatalf("got %v, want the import refused and not applied", err)
	}
	if _, err := call[GlobOut](t, s, "glob", nil); err != nil {
		t.Errorf("glob after the refused import: %v", err)
	}
	out, err := call[*ImportOut](t, s, "import", map[string]any{"content": "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\n1\n20\n1\n40\n2\n0\nENDSEC\n0\nEOF\n", "module": "m"})
	if err != nil || out.Kinds["CIRCLE"] != 1 {
		t.Errorf("the import after the refused one: %v, %+v", err, out)
	}
}

// layeredDXF is a drawing as CAD programs save one: a layer table (layer 0 in black, a layer
// cut in red and DASHDOT, which cadrun lacks, not plotted), a block, and entities on layer 0
// that every such drawing has.
func layeredDXF(lineY string) string {
	return "0\nSECTION\n2\nHEADER\n9\n$INSUNITS\n70\n4\n0\nENDSEC\n" +
		"0\nSECTION\n2\nTABLES\n0\nTABLE\n2\nLAYER\n" +
		"0\nLAYER\n2\n0\n62\n7\n6\nCONTINUOUS\n" +
		"0\nLAYER\n2\ncut\n62\n1\n6\nDASHDOT\n290\n0\n" +
		"0\nENDTAB\n0\nENDSEC\n" +
		"0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nBolt\n10\n0\n20\n0\n0\nCIRCLE\n8\n0\n10\n0\n20\n0\n40\n1.5\n0\nENDBLK\n0\nENDSEC\n" +
		"0\nSECTION\n2\nENTITIES\n" +
		"0\nLINE\n8\n0\n10\n0\n20\n" + lineY + "\n11\n40\n21\n" + lineY + "\n" +
		"0\nCIRCLE\n8\ncut\n10\n20\n20\n10\n40\n5\n" +
		"0\nINSERT\n8\n0\n2\nBolt\n10\n5\n20\n5\n" +
		"0\nENDSEC\n0\nEOF\n"
}

// TestImportsRunTogether: two DXF drawings and an SVG drawing imported into one workspace
// run from one main that calls all three: each module declares nothing at its top level but
// its export, and every name it draws starts with its prefix, so that no two clash (the
// modules once all declared deg and the DXF ones both drew 0-line1 and a group 0). Each
// answer describes the module made and how to draw it from main, not main's scene.
func TestImportsRunTogether(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{
		"imports/t-part.dxf":  layeredDXF("0"),
		"imports/bracket.dxf": layeredDXF("30"),
		"imports/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">` +
			`<g id="marks"><circle cx="10" cy="5" r="4" fill="red"/><path d="M 20 2 L 35 2 L 35 12 Z" fill="none" stroke="black"/></g></svg>`,
	})
	var got []string
	for _, in := range []map[string]any{
		{"path": "t-part.dxf"},
		{"path": "bracket.dxf", "prefix": "br"},
		{"path": "logo.svg"},
	} {
		out, err := call[*ImportOut](t, s, "import", in)
		if err != nil {
			t.Fatalf("import %v: %v", in, err)
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	want := []string{
		`{
  "module": "modules/t-part.js",
  "format": "dxf",
  "export": "tPart",
  "prefix": "t-part",
  "use": "import {tPart} from 't-part';\ntPart();",
  "units": "mm",
  "insunits": 4,
  "kinds": {
    "CIRCLE": 2,
    "INSERT": 1,
    "LINE": 1
  },
  "layers": {
    "0": 2,
    "cut": 1
  },
  "blocks": 1,
  "expanded": 4,
  "notes": {
    "LAYER: linetype DASHDOT is not one of cadrun's, drawn as its nearest, center": 1
  },
  "bounds": {
    "min": [
      0,
      0
    ],
    "max": [
      40,
      15
    ]
  },
  "created": true,
  "entry": 2
}`,
		`{
  "module": "modules/bracket.js",
  "format": "dxf",
  "export": "bracket",
  "prefix": "br",
  "use": "import {bracket} from 'bracket';\nbracket();",
  "units": "mm",
  "insunits": 4,
  "kinds": {
    "CIRCLE": 2,
    "INSERT": 1,
    "LINE": 1
  },
  "layers": {
    "0": 2,
    "cut": 1
  },
  "blocks": 1,
  "expanded": 4,
  "notes": {
    "LAYER: linetype DASHDOT is not one of cadrun's, drawn as its nearest, center": 1
  },
  "bounds": {
    "min": [
      0,
      3.5
    ],
    "max": [
      40,
      30
    ]
  },
  "created": true,
  "entry": 3
}`,
		`{
  "module": "modules/logo.js",
  "format": "svg",
  "export": "logo",
  "prefix": "logo",
  "use": "import {logo} from 'logo';\nlogo();",
  "units": "mm",
  "insunits": 0,
  "kinds": {
    "circle": 1,
    "g": 1,
    "path": 1
  },
  "layers": {
    "logo-marks": 2
  },
  "blocks": 0,
  "expanded": 3,
  "bounds": {
    "min": [
      6,
      -12
    ],
    "max": [
      35,
      -1
    ]
  },
  "created": true,
  "entry": 4
}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers mismatch (-want +got):\n%s", diff)
	}
	main := "import {tPart} from 't-part';\nimport {bracket} from 'bracket';\nimport {logo} from 'logo';\n\n" +
		"createGroup('part', tPart());\nbracket();\nlogo();\n"
	res, err := call[*ChangeResult](t, s, "write", map[string]any{"file": "scene.code.js", "code": main})
	if err != nil {
		t.Fatalf("a main that calls all three: %v\n%s", err, fileBytes(t, dir, "modules/t-part.js"))
	}
	drawn := []string{"part", "t-part-0-line1", "t-part-0-insert1", "t-part-0-insert1-1", "t-part-cut-circle1",
		"br-0-line1", "br-0-insert1", "br-0-insert1-1", "br-cut-circle1", "logo-marks", "logo-circle1", "logo-path1"}
	if diff := cmp.Diff(drawn, res.Added); diff != "" {
		t.Errorf("main's entities mismatch (-want +got):\n%s", diff)
	}
}

// TestImportPrefixRefused: a prefix that could not start a name, or so long that the names
// made of it would pass a name's length, is refused as bad input naming what to give.
func TestImportPrefixRefused(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	circle := "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n40\n2\n0\nENDSEC\n0\nEOF\n"
	long := strings.Repeat("p", MaxPrefixBytes+1)
	for prefix, want := range map[string]string{
		long:    `bad input: import: prefix "` + long + `" is 33 bytes, over 32 (MaxPrefixBytes); give a shorter one`,
		"a b":   `bad input: import: prefix "a b": use letters, digits, _ and -, starting with a letter or digit`,
		"_x":    `bad input: import: prefix "_x": use letters, digits, _ and -, starting with a letter or digit`,
		"pièce": `bad input: import: prefix "pièce": use letters, digits, _ and -, starting with a letter or digit`,
	} {
		_, err := call[*ImportOut](t, s, "import", map[string]any{"content": circle, "module": "m", "prefix": prefix})
		if err == nil || err.Error() != want {
			t.Errorf("prefix %q: got %v\nwant %s", prefix, err, want)
		}
	}
}

// TestImportLayoutRefused: a layout the DXF lacks, or a layout for an SVG, is bad input naming
// the layouts there are, or to leave it out.
func TestImportLayoutRefused(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	circle := "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n40\n2\n0\nENDSEC\n0\nEOF\n"
	svg := `<svg xmlns="http://www.w3.org/2000/svg"><circle r="2"/></svg>`
	for _, c := range []struct{ content, want string }{
		{circle, `bad input: import: no such layout "Sheet1": the file's layouts are Model`},
		{svg, `bad input: import: layout "Sheet1": only a DXF has layouts; leave layout out`},
	} {
		_, err := call[*ImportOut](t, s, "import", map[string]any{"content": c.content, "module": "m", "layout": "Sheet1"})
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// contourDXF is a DXF of n polylines of 200 vertices each, every coordinate to a float64's
// full precision, as contours exported from a survey are: about 8,700 bytes a polyline.
func contourDXF(n int) string {
	var b strings.Builder
	b.WriteString("0\nSECTION\n2\nENTITIES\n")
	x, y := 100.0, 100.0
	for i := range n {
		b.WriteString("0\nLWPOLYLINE\n8\ncontour\n90\n200\n70\n0\n")
		for j := range 200 {
			x += math.Sin(float64(i*200+j)) / 3
			y += math.Cos(float64(i*200+j)*1.7) / 3
			b.WriteString("10\n" + strconv.FormatFloat(x, 'g', -1, 64) + "\n20\n" + strconv.FormatFloat(y, 'g', -1, 64) + "\n")
		}
	}
	b.WriteString("0\nENDSEC\n0\nEOF\n")
	return b.String()
}

// TestImportLargeDrawing: a 1 MB drawing whose module would pass MaxSourceBytes lands as the
// module and the data files it reads, and main that calls it runs from the workspace; it was
// refused.
func TestImportLargeDrawing(t *testing.T) {
	if racebuild.On {
		t.Skip("a 1 MB drawing's conversion under the race detector passes MaxImportTime; make test runs this without it")
	}
	t.Parallel()
	s, dir := newSession(t, map[string]string{"imports/survey.dxf": contourDXF(120), "data/survey/1.json": "[]\n"})
	out, err := call[*ImportOut](t, s, "import", map[string]any{"path": "survey.dxf"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if len(out.DataFiles) == 0 || out.Kinds["LWPOLYLINE"] != 120 {
		t.Fatalf("data files %v, kinds %v", out.DataFiles, out.Kinds)
	}
	for _, f := range append([]string{"survey"}, out.DataFiles...) {
		if _, err := os.Stat(filepath.Join(dir, runtime.PathOf(f))); err != nil {
			t.Errorf("%s was not written: %v", runtime.PathOf(f), err)
		}
	}
	if !strings.Contains(out.Text(), "data: data/survey/1.json") {
		t.Errorf("the answer does not name the data:\n%s", out.Text())
	}
	res, err := call[*ChangeResult](t, s, "write", map[string]any{"file": "main", "code": out.Use})
	if err != nil {
		t.Fatalf("main calling the import: %v", err)
	}
	if res.Entities != 120 || res.Bounds != out.Bounds {
		t.Errorf("main draws %d entities in %v, want 120 in %v", res.Entities, res.Bounds, out.Bounds)
	}
	// A data file of that name that the session has not read is overwritten and said, as the
	// module would be.
	if !slices.Contains(out.Warnings, "data/survey/1.json: "+engine.OverwriteWarning) {
		t.Errorf("warnings %q do not name the data file overwritten", out.Warnings)
	}
	// Imported again, smaller, the drawing fits its module: the data files of the first
	// import are deleted after it (main, calling the module, runs without them), a data file
	// of another name in the folder is kept, and one that main still reads is kept and said.
	for name, content := range map[string]string{"data/survey/notes.json": "{}\n", "data/survey/9.json": "[1]\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := call[*ChangeResult](t, s, "write", map[string]any{"file": "main", "code": out.Use + "\nreadJSON('survey/9')\n"}); err != nil {
		t.Fatalf("main reading a data file: %v", err)
	}
	again, err := call[*ImportOut](t, s, "import", map[string]any{"content": contourDXF(3), "format": "dxf", "module": "survey"})
	if err != nil {
		t.Fatalf("import again: %v", err)
	}
	var want []string
	for _, f := range out.DataFiles {
		want = append(want, runtime.PathOf(f))
	}
	if len(again.DataFiles) != 0 || !slices.Equal(again.Removed, want) {
		t.Errorf("the smaller import writes %v and removes %v; want none written and the first import's %v removed", again.DataFiles, again.Removed, out.DataFiles)
	}
	for _, f := range out.DataFiles {
		if _, err := os.Stat(filepath.Join(dir, runtime.PathOf(f))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there: %v", runtime.PathOf(f), err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data/survey/notes.json")); err != nil {
		t.Errorf("the user's own data file: %v", err)
	}
	if len(again.Warnings) != 1 || !strings.HasPrefix(again.Warnings[0], "data/survey/9.json: kept, though this import does not write it: ") {
		t.Errorf("warnings %q; want data/survey/9.json kept and said", again.Warnings)
	}
	if !strings.Contains(again.Text(), "removed: data/survey/1.json") {
		t.Errorf("the answer does not name what it removed:\n%s", again.Text())
	}
}
