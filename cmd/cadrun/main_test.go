package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemoWritesSVGAndPNG(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"demo", "-o", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	for _, name := range []string{"street", "plate", "floorplan", "pattern", "offset"} {
		svg, err := os.ReadFile(filepath.Join(dir, name+".svg"))
		if err != nil || !bytes.HasPrefix(svg, []byte("<svg ")) {
			t.Errorf("%s.svg: %v", name, err)
		}
		png, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("%s.png: %v", name, err)
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
	want := "scene.code.js:2:1: ReferenceError: drawCirle is not defined\n    2 | drawCirle('b', 0, 0, 1)\n        ^\nhint: did you mean drawCircle?"
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
