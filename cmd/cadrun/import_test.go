package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
	"github.com/cadrun/cadrun/tools/mcpserver"
)

// smallDXF is an R12 file with a layer, a circle and a bulged polyline.
const smallDXF = "0\nSECTION\n2\nHEADER\n9\n$INSUNITS\n70\n4\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n" +
	"0\nCIRCLE\n8\nholes\n10\n5\n20\n5\n40\n2\n" +
	"0\nLWPOLYLINE\n8\nslot\n90\n2\n70\n1\n10\n0\n20\n0\n42\n1\n10\n10\n20\n0\n42\n1\n" +
	"0\nPOINT\n8\nholes\n10\n0\n20\n0\n0\nENDSEC\n0\nEOF\n"

// TestImportWritesAModule: `cadrun import` writes the module through the write
// transaction (undo takes it back), prints what it made, and refuses a file it cannot read
// or a workspace whose main the module would break, leaving the files as they were.
func TestImportWritesAModule(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	dir := t.TempDir()
	file := filepath.Join(dir, "Part 1.dxf")
	if err := os.WriteFile(file, []byte(smallDXF), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := cadrun(t, "", "import", file, "-workspace", ws)
	if status != 0 {
		t.Fatalf("exit %d: %s %s", status, stdout, stderr)
	}
	want := "wrote modules/Part_1.js: exports part1; 2 layers, 0 block functions\n" +
		"units: mm ($INSUNITS 4)\n" +
		"bounds: [0, -5] to [10, 7]\n" +
		"entities: CIRCLE 1, LWPOLYLINE 1\n" +
		"layers: holes 1, slot 1\n" +
		"skipped:\n" +
		"  1 POINT: a point has no size; cadrun draws no dots\n" +
		"to draw it, add to main (scene.code.js):\n" +
		"  import {part1} from 'Part_1';\n" +
		"  part1();\n" +
		"every name it draws starts with Part_1-; part1() returns the names it drew at the top level\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("output mismatch (-want +got):\n%s", diff)
	}
	code := readString(t, filepath.Join(ws, "modules", "Part_1.js"))
	if !strings.Contains(code, "drawBezier('Part_1-slot-lwpolyline1', 'M 0 0 A 5 5 0 0 1 10 0 A 5 5 0 0 1 0 0 Z');") {
		t.Errorf("module:\n%s", code)
	}
	if status, stdout, _ := cadrun(t, "", "tool", "scene", "--workspace", ws, "--params", `{"command":"undo"}`); status != 0 {
		t.Fatalf("undo: %s", stdout)
	}
	if _, err := os.Stat(filepath.Join(ws, "modules", "Part_1.js")); !os.IsNotExist(err) {
		t.Errorf("after undo the module is still there: %v", err)
	}

	// A main that the module breaks (it draws a name main draws too, then main fails):
	// nothing lands.
	main := "import {part} from 'part';\npart();\nif (exists('part-holes-circle1')) throw new Error('clash')\n"
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	if status, _, stderr := cadrun(t, "", "import", file, "-workspace", ws, "-module", "part"); status != 1 || !strings.Contains(stderr, "not applied") {
		t.Errorf("a failing main: exit %d, %s", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "modules", "part.js")); !os.IsNotExist(err) {
		t.Errorf("a failed import left modules/part.js: %v", err)
	}

	bin := filepath.Join(dir, "b.dxf")
	if err := os.WriteFile(bin, []byte("AutoCAD Binary DXF\r\n\x1a\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if status, _, stderr := cadrun(t, "", "import", bin, "-workspace", ws); status != 1 || !strings.Contains(stderr, "binary DXF is not supported: save the drawing as ASCII DXF") {
		t.Errorf("binary: exit %d, %s", status, stderr)
	}
	if status, _, _ := cadrun(t, "", "import", "-workspace", ws); status != 2 {
		t.Errorf("no file: exit %d, want 2", status)
	}
}

// TestImportRefusedAlikeEverywhere: the import tool over MCP (the SDK's client, in memory)
// and through `cadrun tool import` refuse the same inputs with the same message; `cadrun
// import FILE`, which reads the file the user names and then goes through the same code,
// says the same about the drawing and the options.
func TestImportRefusedAlikeEverywhere(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	dir := t.TempDir()
	malformed := "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\nabc\n0\nENDSEC\n0\nEOF\n"
	for name, content := range map[string]string{"imports/ok.dxf": smallDXF, "imports/bad.dxf": malformed} {
		if err := os.MkdirAll(filepath.Join(ws, "imports"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(dir, "bad.dxf")
	if err := os.WriteFile(outside, []byte(malformed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "imports", "link.dxf")); err != nil {
		t.Fatal(err)
	}
	w, err := modules.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(tools.NewServer(ctx, w, runtime.InProcess{}, runtime.Options{}), "test").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	for _, c := range []struct {
		params string
		cli    []string // the same refusal by `cadrun import`, when it has one
		want   string   // what all of them say
	}{
		{`{"path":"bad.dxf"}`, []string{"import", outside}, `line 8: group 10 needs a finite number, got "abc"`},
		{`{"path":"../bad.dxf"}`, nil, `bad input: import: bad import path: "../bad.dxf": give a file in the workspace's imports/ folder`},
		{`{"path":"link.dxf"}`, nil, "reading imports/link.dxf: not a regular file: imports/link.dxf is a symbolic link; copy the drawing itself into imports/"},
		{`{"path":"ok.dxf","module":"main"}`, []string{"import", outside, "-module", "main"}, `bad input: import: module "main" is the scene's main program`},
		{`{"path":"ok.dxf","units":"furlong"}`, []string{"import", outside, "-units", "furlong"}, `bad input: import: unknown units "furlong": give one of`},
		{`{"path":"ok.dxf","module":"a/b"}`, []string{"import", outside, "-module", "a/b"}, `bad input: import: module: bad module name: "a/b"`},
		{`{"path":"ok.dxf","prefix":"-x"}`, []string{"import", outside, "-prefix", "-x"}, `bad input: import: prefix "-x": use letters, digits, _ and -, starting with a letter or digit`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "import", Arguments: json.RawMessage(c.params)})
		if err != nil {
			t.Fatal(err)
		}
		mcpMsg := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || !strings.Contains(mcpMsg, c.want) {
			t.Errorf("MCP import %s: error %v, %q; want %q", c.params, res.IsError, mcpMsg, c.want)
		}
		status, stdout, _ := cadrun(t, "", "tool", "import", "--workspace", ws, "--params", c.params)
		var reply struct{ Error string }
		if err := json.Unmarshal([]byte(stdout), &reply); err != nil || status == 0 || reply.Error != mcpMsg {
			t.Errorf("cadrun tool import %s: exit %d, %q; MCP said %q", c.params, status, reply.Error, mcpMsg)
		}
		if c.cli == nil {
			continue
		}
		status, _, stderr := cadrun(t, "", append(c.cli, "-workspace", ws)...)
		if status == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("cadrun %q: exit %d, %s; want %q", c.cli, status, stderr, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "modules")); !os.IsNotExist(err) {
		t.Errorf("refused imports made modules/: %v", err)
	}
}

// TestImportSVG: `cadrun import` reads an SVG file through the same command and transaction,
// told from DXF by its extension, its shapes in millimetres with Y up.
func TestImportSVG(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	file := filepath.Join(t.TempDir(), "logo.svg")
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">` +
		`<g id="marks"><circle cx="10" cy="5" r="4" fill="red"/><rect x="20" y="2" width="15" height="10"/></g></svg>`
	if err := os.WriteFile(file, []byte(svg), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := cadrun(t, "", "import", file, "-workspace", ws)
	if status != 0 {
		t.Fatalf("exit %d: %s %s", status, stdout, stderr)
	}
	want := "wrote modules/logo.js: exports logo; 1 top-level groups, 0 symbol functions\n" +
		"units: mm\n" +
		"bounds: [6, -12] to [35, -1]\n" +
		"entities: circle 1, g 1, rect 1\n" +
		"layers: logo-marks 2\n" +
		"to draw it, add to main (scene.code.js):\n" +
		"  import {logo} from 'logo';\n" +
		"  logo();\n" +
		"every name it draws starts with logo-; logo() returns the names it drew at the top level\n"
	if diff := cmp.Diff(want, stdout); diff != "" {
		t.Errorf("output mismatch (-want +got):\n%s", diff)
	}
	if status, _, stderr := cadrun(t, "", "import", file, "-workspace", ws, "-module", "logo2", "-units", "furlong"); status != 2 ||
		!strings.Contains(stderr, `unknown units "furlong": use mm, cm, in, pt or px`) {
		t.Errorf("bad units: exit %d, %s", status, stderr)
	}
}
