package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// partDXF is an R12 file in millimetres with two layers, a circle, a bulged polyline and a
// point (which the importer skips).
const partDXF = "0\nSECTION\n2\nHEADER\n9\n$INSUNITS\n70\n4\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n" +
	"0\nCIRCLE\n8\nholes\n10\n5\n20\n5\n40\n2\n" +
	"0\nLWPOLYLINE\n8\nslot\n90\n2\n70\n1\n10\n0\n20\n0\n42\n1\n10\n10\n20\n0\n42\n1\n" +
	"0\nPOINT\n8\nholes\n10\n0\n20\n0\n0\nENDSEC\n0\nEOF\n"

// TestMCPImport: the import tool over an MCP session reads a drawing from imports/ or from
// content, writes modules/NAME.js through the write transaction and answers what it made;
// one undo takes the module back, and a main the module breaks leaves nothing behind.
func TestMCPImport(t *testing.T) {
	t.Parallel()
	ms, dir := newMCPRunner(t, runtime.InProcess{}, runtime.Options{}, map[string]string{
		"imports/sub/Part 1.dxf": partDXF,
	})
	cs := connectMCP(t, ms)

	res := callMCP(t, cs, "import", map[string]any{"path": "imports/sub/Part 1.dxf"})
	if res.IsError {
		t.Fatalf("import by path: %s", text(t, res))
	}
	got := structured[tools.ImportOut](t, res)
	want := "wrote modules/Part_1.js: exports part1; 2 layers, 0 block functions\nunits: mm ($INSUNITS 4)\nbounds: [0, -5] to [10, 7]\n" +
		"entities: CIRCLE 1, LWPOLYLINE 1\nlayers: holes 1, slot 1\nskipped:\n  1 POINT: a point has no size; cadrun draws no dots\n" +
		"to draw it, add to main (scene.code.js):\n  import {part1} from 'Part_1';\n  part1();\n" +
		"every name it draws starts with Part_1-; part1() returns the names it drew at the top level\n"
	if diff := cmp.Diff(want, got.Text()); diff != "" {
		t.Errorf("summary mismatch (-want +got):\n%s", diff)
	}
	if !got.Created || got.Entry == 0 {
		t.Errorf("the write's answer: created %v, entry %d", got.Created, got.Entry)
	}
	if code := fileBytes(t, dir, "modules/Part_1.js"); !strings.Contains(code, "drawCircle('Part_1-holes-circle1', 5, 5, 2);") {
		t.Errorf("module:\n%s", code)
	}
	if res := callMCP(t, cs, "scene", map[string]any{"command": "undo"}); res.IsError {
		t.Fatalf("undo: %s", text(t, res))
	}
	if _, err := os.Stat(filepath.Join(dir, "modules", "Part_1.js")); !os.IsNotExist(err) {
		t.Errorf("after one undo the module is still there: %v", err)
	}

	// Content, one layer, units given.
	res = callMCP(t, cs, "import", map[string]any{"content": partDXF, "module": "part", "layers": []string{"holes"}, "units": "in"})
	if res.IsError {
		t.Fatalf("import by content: %s", text(t, res))
	}
	got = structured[tools.ImportOut](t, res)
	if diff := cmp.Diff(map[string]int{"CIRCLE": 1}, got.Kinds); diff != "" || got.Units != "in" || got.Module != "modules/part.js" {
		t.Errorf("content import: units %q, module %q, kinds (-want +got):\n%s", got.Units, got.Module, diff)
	}

	// A main that the module breaks: nothing lands, the module stays as it was.
	before := fileBytes(t, dir, "modules/part.js")
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("import {part} from 'part';\npart();\nif (exists('part-slot-lwpolyline1')) throw new Error('clash')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = callMCP(t, cs, "import", map[string]any{"content": partDXF, "module": "part"})
	if msg := text(t, res); !res.IsError || !strings.Contains(msg, "Error: clash") || !strings.HasSuffix(msg, "not applied; the file is unchanged") {
		t.Errorf("a failing main: error %v, %s", res.IsError, msg)
	}
	if after := fileBytes(t, dir, "modules/part.js"); after != before {
		t.Errorf("a failed import changed modules/part.js:\n%s", after)
	}
}

// TestMCPImportRefusals: paths outside imports/, links leading out, FIFOs, files over the
// limit and malformed drawings are refused with what to do, and nothing is written.
func TestMCPImportRefusals(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "secret.dxf")
	if err := os.WriteFile(outside, []byte(partDXF), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, dir := newMCPRunner(t, runtime.InProcess{}, runtime.Options{}, map[string]string{"imports/ok.dxf": partDXF})
	if err := os.Symlink(outside, filepath.Join(dir, "imports", "link.dxf")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(dir, "imports", "away")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "imports", "pipe.dxf"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "imports", "big.dxf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(tools.MaxImportBytes + 1000); err != nil { // sparse: nothing written
		t.Fatal(err)
	}
	big.Close()
	cs := connectMCP(t, ms)
	badPath := func(p string) string {
		return `bad input: import: bad import path: "` + p + `": give a file in the workspace's imports/ folder, such as imports/plan.dxf ` +
			"(names of letters, digits, spaces and _ . , + ( ) -, not starting with a dot; no absolute path, no ..); drawings are imported from there only"
	}
	const notApplied = "\nnot applied; the file is unchanged"
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "../ok.dxf"}, badPath("../ok.dxf")},
		{map[string]any{"path": "imports/../scene.code.js"}, badPath("../scene.code.js")},
		{map[string]any{"path": outside}, badPath(outside)},
		{map[string]any{"path": "imports/link.dxf"}, "reading imports/link.dxf: not a regular file: imports/link.dxf is a symbolic link; " +
			"copy the drawing itself into imports/ (links are not followed there, wherever they lead)" + notApplied},
		{map[string]any{"path": "away/secret.dxf"}, "reading imports/away/secret.dxf: not a regular file: imports/away is a symbolic link; " +
			"copy the drawing itself into imports/ (links are not followed there, wherever they lead)" + notApplied},
		{map[string]any{"path": "pipe.dxf"}, "reading imports/pipe.dxf: not a regular file: imports/pipe.dxf is a named pipe (FIFO); cadrun reads only regular files there: remove it" + notApplied},
		{map[string]any{"path": "big.dxf"}, "importing imports/big.dxf: over a limit: the file is over the 20971520-byte limit on imported files (MaxBytes)" + notApplied},
		{map[string]any{"content": "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\nabc\n0\nENDSEC\n0\nEOF\n", "module": "m"},
			`importing the content given: line 8: group 10 needs a finite number, got "abc"` + notApplied},
		{map[string]any{"path": "ok.dxf", "content": partDXF}, "bad input: import: give path (a file in imports/) or content (the file's text), one of them"},
		{map[string]any{"content": partDXF}, "bad input: import: give module, the name of the module to write, with content"},
		{map[string]any{"path": "ok.dxf", "module": "main"}, `bad input: import: module "main" is the scene's main program; give module, a name for the drawing's own module`},
		{map[string]any{"path": "ok.dxf", "units": "furlong"}, `bad input: import: unknown units "furlong": give one of Gm, angstrom, au, cm, ...`},
		{map[string]any{"path": "ok.dxf", "format": "dwg"}, `bad input: import: unknown drawing format "dwg": import reads dxf and svg`},
	} {
		res := callMCP(t, cs, "import", c.args)
		got := text(t, res)
		want, prefix := strings.CutSuffix(c.want, ", ...")
		if !res.IsError || (prefix && !strings.HasPrefix(got, want)) || (!prefix && got != want) {
			t.Errorf("import %v: error %v\n got %q\nwant %q", c.args, res.IsError, got, c.want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "modules")); len(entries) > 0 {
		t.Errorf("refused imports left modules/: %v", entries)
	}
}
