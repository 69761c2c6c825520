package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	for _, want := range []string{
		"wrote modules/Part_1.js: 2 layers, 0 block functions\n",
		"units: mm ($INSUNITS 4)\n",
		"bounds: [0, -5] to [10, 7]\n",
		"entities: CIRCLE 1, LWPOLYLINE 1\n",
		"layers: holes 1, slot 1\n",
		"  1 POINT: a point has no size; cadrun draws no dots\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code := readString(t, filepath.Join(ws, "modules", "Part_1.js"))
	if !strings.Contains(code, "drawBezier('slot-lwpolyline1', 'M 0 0 A 5 5 0 0 1 10 0 A 5 5 0 0 1 0 0 Z');") {
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
	main := "import 'part'\nif (exists('holes')) throw new Error('clash')\n"
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
