package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoWritesSVGPNGDXFAndPDF(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"demo", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	for _, name := range []string{"street", "plate", "floorplan", "pattern", "offset", "laser", "panel", "shopdrawing"} {
		svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
		if err != nil || !bytes.HasPrefix(svg, []byte("<svg ")) {
			t.Errorf("%s.svg: %v", name, err)
		}
		png, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s.png: %v", name, err)
		}
		dxf, err := os.ReadFile(filepath.Join(dir, name+".dxf"))
		if err != nil || !bytes.HasPrefix(bytes.TrimLeft(dxf, " "), []byte("0\nSECTION\n")) || !bytes.HasSuffix(dxf, []byte("EOF\n")) {
			t.Errorf("%s.dxf: %v %.20q", name, err, dxf)
		}
		pdf, err := os.ReadFile(filepath.Join(dir, name+".pdf"))
		if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) || !bytes.HasSuffix(bytes.TrimRight(pdf, "\r\n"), []byte("%%EOF")) {
			t.Errorf("%s.pdf: %v %.20q", name, err, pdf)
		}
	}
	// The parts made of solids come as STL (binary: an 80-byte header, a count, 50 bytes a
	// triangle), 3MF (a zip), STEP, glTF binary and PNG; the readers that check them (ADMesh,
	// Assimp, FreeCAD, the Khronos validator) are in render.
	for _, name := range []string{"anglebracket", "knob"} {
		stl, err := os.ReadFile(filepath.Join(dir, name+".stl"))
		if err != nil || len(stl) < 84 || len(stl) != 84+50*int(binary.LittleEndian.Uint32(stl[80:])) {
			t.Errorf("%s.stl: %v, %d bytes", name, err, len(stl))
		}
		tmf, err := os.ReadFile(filepath.Join(dir, name+".3mf"))
		if err != nil || !bytes.HasPrefix(tmf, []byte("PK\x03\x04")) {
			t.Errorf("%s.3mf: %v", name, err)
		}
		png, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s.png: %v", name, err)
		}
		step, err := os.ReadFile(filepath.Join(dir, name+".step"))
		if err != nil || !bytes.HasPrefix(step, []byte("ISO-10303-21;")) {
			t.Errorf("%s.step: %v %.20q", name, err, step)
		}
		glb, err := os.ReadFile(filepath.Join(dir, name+".glb"))
		if err != nil || !bytes.HasPrefix(glb, []byte("glTF")) {
			t.Errorf("%s.glb: %v %.20q", name, err, glb)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: cadrun <command>"},
		{[]string{"frobnicate"}, 2, `cadrun: unknown command "frobnicate"`},
		{[]string{"demo", "-bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"demo", "extra"}, 2, "usage: cadrun demo [-o DIR]"},
		{[]string{"help"}, 0, "commands:"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), tt.code, tt.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("run(%q) wrote to stdout: %q", tt.args, stdout.String())
		}
	}
}

func TestRunWorkspace(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "plate.svg")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "-workspace", "../../examples/plate", "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	svg, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(svg, []byte("<svg ")) {
		t.Errorf("plate.svg: %v", err)
	}
	if !strings.Contains(stderr.String(), "12 cut-outs in one difference") {
		t.Errorf("console output missing from stderr:\n%s", stderr.String())
	}
}

func TestRunFailureShowsDiagnostic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "broken.js")
	if err := os.WriteFile(script, []byte("drawCircle('a', 0, 0, 1)\ndrawCirle('b', 0, 0, 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.png")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", script, "-o", out}, &stdout, &stderr)
	want := script + ":2:1: ReferenceError: drawCirle is not defined\n    2 | drawCirle('b', 0, 0, 1)\n        ^\nhint: did you mean drawCircle?"
	if code != 1 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, stderr:\n%s\nwant prefix:\n%s", code, stderr.String(), want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run wrote its output")
	}
	if code := run([]string{"run", script, "-o", filepath.Join(dir, "out.gif")}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown output format: exit %d, want 2", code)
	}
}

func TestToolRunner(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	call := func(args ...string) (int, map[string]any, string) {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"tool"}, args...), &stdout, &stderr)
		var reply map[string]any
		if err := json.Unmarshal(stdout.Bytes(), &reply); err != nil {
			t.Fatalf("stdout is not one JSON object: %q (%v)", stdout.String(), err)
		}
		return code, reply, stderr.String()
	}
	code, reply, _ := call("write", "--workspace", ws, "--params", `{"file":"main","code":"drawCircle('c', 0, 0, 5)"}`)
	if code != 0 || reply["status"] != "success" || reply["error"] != nil {
		t.Fatalf("write: %d %v", code, reply)
	}
	code, reply, _ = call("scene", "--workspace", ws, "--params", `{"command":"info"}`)
	info := reply["data"].(map[string]any)["info"].(map[string]any)
	if code != 0 || info["entities"] != 1.0 {
		t.Errorf("scene info: %d %v", code, reply)
	}
	code, reply, _ = call("write", "--workspace", ws, "--params", `{"file":"main","code":"drawCircle('c', 0, 0, -5)"}`)
	if code != 1 || reply["status"] != "error" || !strings.Contains(reply["error"].(string), "not applied; the file is unchanged") {
		t.Errorf("failed write: %d %v", code, reply)
	}
	if code, reply, _ = call("nope", "--workspace", ws); code != 2 || reply["status"] != "error" {
		t.Errorf("unknown tool: %d %v", code, reply)
	}
	if code, reply, _ = call("--list"); code != 0 || len(reply["data"].(map[string]any)["tools"].([]any)) < 5 {
		t.Errorf("list: %d %v", code, reply)
	}
}

// TestToolClosedStdout: a reply that cannot be written is an error, not a panic.
func TestToolClosedStdout(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	var stderr bytes.Buffer
	if code := run([]string{"tool", "--list"}, w, &stderr); code != 1 {
		t.Errorf("exit %d, want 1; stderr %q", code, stderr.String())
	}
	w.Close()
}

// TestToolHelperProcess is not a test: TestTwoProcessesWrite re-runs the test binary with it
// to get a second process that calls `cadrun tool`.
func TestToolHelperProcess(t *testing.T) {
	if os.Getenv("CADRUN_TOOL_HELPER") != "1" {
		t.Skip("helper process only")
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv("CADRUN_TOOL_ARGS")), &args); err != nil {
		os.Exit(3)
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

// TestTwoProcessesWrite: two processes write main at once; the workspace lock serialises
// them, so the file ends as one of the two and scene.json is that file's scene.
func TestTwoProcessesWrite(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	codes := []string{"drawCircle('a', 0, 0, 1)", "drawRect('b', 0, 0, 2, 2)"}
	errs := make(chan error, len(codes))
	for _, code := range codes {
		go func() {
			params, _ := json.Marshal(map[string]string{"file": "main", "code": code})
			args, _ := json.Marshal([]string{"tool", "write", "--workspace", ws, "--params", string(params)})
			cmd := exec.Command(os.Args[0], "-test.run=^TestToolHelperProcess$")
			cmd.Env = append(os.Environ(), "CADRUN_TOOL_HELPER=1", "CADRUN_TOOL_ARGS="+string(args))
			out, err := cmd.CombinedOutput()
			if err != nil {
				err = fmt.Errorf("%v: %s", err, out)
			}
			errs <- err
		}()
	}
	for range codes {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	main, err := os.ReadFile(filepath.Join(ws, "scene.code.js"))
	if err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(filepath.Join(ws, "scene.json"))
	if err != nil {
		t.Fatal(err)
	}
	switch string(main) {
	case codes[0]:
		if !strings.Contains(string(saved), `"name":"a"`) || strings.Contains(string(saved), `"name":"b"`) {
			t.Errorf("scene.json does not match main:\n%s", saved)
		}
	case codes[1]:
		if !strings.Contains(string(saved), `"name":"b"`) || strings.Contains(string(saved), `"name":"a"`) {
			t.Errorf("scene.json does not match main:\n%s", saved)
		}
	default:
		t.Errorf("main is %q", main)
	}
}
