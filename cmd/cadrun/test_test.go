package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTestCommand drives the real binary (its Pool re-runs the binary as workers, which a
// test binary cannot serve) through each outcome of `cadrun test`, comparing whole outputs.
func TestTestCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildCadrun(t)
	files := map[string]string{
		"ws/scene.code.js":   "import {plate} from 'dims'\ndrawRect('plate', 0, 0, plate.w, plate.h)\ndrawCircle('hole', 10, 0, 3)\n",
		"ws/modules/dims.js": "export const plate = {w: 40, h: 20}\n",
		"ws/tests/dims.test.js": "import {plate} from 'dims'\n" +
			"test('wider than tall', () => {\n  assert(plate.w > plate.h, 'wider')\n})\n" +
			"test('area', () => {\n  assertClose(plate.w * plate.h, 900, 1, 'area in mm²')\n})\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The renderers' exact output is pinned by their own tests; here the pixel count and
	// the new SVG line are masked, so that a renderer change does not fail this test.
	mask := regexp.MustCompile("(?m)(scene.png: )\\d+ pixels differ \\([0-9.]+%\\)$|(, now )`.*$")
	cadrun := func(env string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"test"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CI=")
		if env != "" {
			cmd.Env = append(cmd.Env, env)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if stderr.Len() > 0 && code != 2 {
			t.Errorf("cadrun test %q wrote to stderr: %s", args, stderr.String())
		}
		if code == 2 {
			return stderr.String(), code
		}
		return mask.ReplaceAllString(string(out), "${1}${2}..."), code
	}
	check := func(step, gotOut string, gotCode int, wantOut string, wantCode int) {
		t.Helper()
		if diff := cmp.Diff(wantOut, gotOut); diff != "" || gotCode != wantCode {
			t.Errorf("%s: exit %d, want %d; output mismatch (-want +got):\n%s", step, gotCode, wantCode, diff)
		}
	}
	assertionFailure := "FAIL ws/tests/dims.test.js › area\n" +
		"    tests/dims.test.js:6:3: AssertionError: area in mm²: got 800, want 900 ± 1 (off by 100)\n" +
		"        6 |   assertClose(plate.w * plate.h, 900, 1, 'area in mm²')\n" +
		"              ^\n" +
		"    stack:\n" +
		"        at <anonymous> (tests/dims.test.js:6:3)\n" +
		"        at <top level> (tests/dims.test.js:5:1)\n"

	out, code := cadrun("CI=true", "ws")
	check("CI without snapshots", out, code, "FAIL ws\n"+
		"    no snapshot: ws/__snapshots__/scene.json is missing, and CI=true does not write one; run `cadrun test -update` where the drawing is right and commit ws/__snapshots__\n"+
		"ok   ws/tests/dims.test.js › wider than tall\n"+assertionFailure+"1 passed, 2 failed\n", 1)

	out, code = cadrun("", "ws")
	check("first run", out, code, "new  ws (wrote 3 snapshot files)\n"+
		"ok   ws/tests/dims.test.js › wider than tall\n"+assertionFailure+"2 passed, 1 failed\n", 1)

	out, code = cadrun("CI=true", "-run", "ws$", "-workspace", "ws")
	check("second run", out, code, "ok   ws\n1 passed, 0 failed\n", 0)

	if err := os.WriteFile(filepath.Join(dir, "ws/scene.code.js"), []byte(strings.Replace(files["ws/scene.code.js"], "drawCircle('hole', 10, 0, 3)", "drawCircle('hole', 10, 0, 3)\ndrawCircle('pin', -10, 0, 2)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = cadrun("", "-run", "ws$", "-o", "diff", "-junit", "report.xml", "ws")
	check("a change", out, code, "FAIL ws\n"+
		`    added circle "pin" at (-10, 0)`+"\n"+
		"    scene.svg: differs from line 4, byte 2: was `</svg>`, now ...\n"+
		"    scene.png: ...\n"+
		"    wrote diff/ws_scene.old.png\n    wrote diff/ws_scene.new.png\n    wrote diff/ws_scene.diff.png\n"+
		"0 passed, 1 failed\n", 1)
	for _, f := range []string{"old", "new", "diff"} {
		if b, err := os.ReadFile(filepath.Join(dir, "diff", "ws_scene."+f+".png")); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("diff/ws_scene.%s.png: %v", f, err)
		}
	}

	out, code = cadrun("", "-update", "ws")
	check("update", out, code, "ok   ws (updated 3 snapshot files)\n"+
		"ok   ws/tests/dims.test.js › wider than tall\n"+assertionFailure+"updated 3 snapshot files\n2 passed, 1 failed\n", 1)

	out, code = cadrun("CI=true", "-junit", "report.xml", "ws")
	check("after update", out, code, "ok   ws\nok   ws/tests/dims.test.js › wider than tall\n"+assertionFailure+"2 passed, 1 failed\n", 1)
	checkJUnit(t, filepath.Join(dir, "report.xml"))

	out, code = cadrun("", "-run", "(")
	check("bad -run", out, code, "cadrun test: -run \"(\" is not a regular expression: error parsing regexp: missing closing ): `(`\n", 2)
}

// checkJUnit reads the report with junitparser, a JUnit consumer (Debian's
// python3-junitparser, installed by .ci/deps), and compares what it understood.
func checkJUnit(t *testing.T, path string) {
	t.Helper()
	py := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import junitparser").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		msg := "no python3 with junitparser (Debian package python3-junitparser); run make deps"
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	const script = `
import json, sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
out = {"tests": xml.tests, "failures": xml.failures, "suites": []}
for suite in xml:
    cases = []
    for case in suite:
        fail = [r for r in case.result if isinstance(r, Failure)]
        cases.append({"name": case.name, "classname": case.classname,
                      "failure": fail[0].message if fail else None,
                      "text": fail[0].text.splitlines()[1] if fail else None})
    out["suites"].append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "cases": cases})
print(json.dumps(out))
`
	b, err := exec.Command(py, "-c", script, path).Output()
	if err != nil {
		t.Fatalf("junitparser could not read %s: %v", path, err)
	}
	var got any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"tests": 3.0, "failures": 1.0, "suites": []any{map[string]any{
		"name": "ws", "tests": 3.0, "failures": 1.0, "cases": []any{
			map[string]any{"name": "ws", "classname": "ws", "failure": nil, "text": nil},
			map[string]any{"name": "ws/tests/dims.test.js › wider than tall", "classname": "ws", "failure": nil, "text": nil},
			map[string]any{"name": "ws/tests/dims.test.js › area", "classname": "ws",
				"failure": "tests/dims.test.js:6:3: AssertionError: area in mm²: got 800, want 900 ± 1 (off by 100)",
				"text":    "    6 |   assertClose(plate.w * plate.h, 900, 1, 'area in mm²')"},
		}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("junitparser read mismatch (-want +got):\n%s", diff)
	}
}
