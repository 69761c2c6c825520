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
