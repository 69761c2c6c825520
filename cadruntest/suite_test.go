package cadruntest

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// TestMain lets this test binary serve as the Pool's worker process.
func TestMain(m *testing.M) {
	runtime.ServeWorkerIfAsked()
	os.Exit(m.Run())
}

// writeWorkspace lays out files (path -> content) in a new folder and returns it.
func writeWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ws")
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// brief is a result as the tests compare it: the name relative to the workspace, the
// status, the message.
type brief struct{ Name, Status, Message string }

func briefs(dir string, rs []Result) []brief {
	var out []brief
	for _, r := range rs {
		out = append(out, brief{strings.TrimPrefix(r.Name, filepath.ToSlash(dir)), string(r.Status), r.Message})
	}
	return out
}

var suiteFiles = map[string]string{
	"scene.code.js":    "import {plate} from 'dims'\ndrawRect('plate', 0, 0, plate.w, plate.h)\ndrawCircle('hole', 10, 0, 3)\n",
	"modules/dims.js":  "export const plate = {w: 40, h: 20}\n",
	"tests/a.test.js":  "import {plate} from 'dims'\ntest('wide', () => {\n  assert(plate.w > plate.h, 'wider than tall')\n})\ntest('area', () => {\n  assertEqual(plate.w * plate.h, 900, 'area')\n})\n",
	"tests/b.test.js":  "drawCircle('pin', 0, 0, 1)\n",
	"tests/c.test.js":  "const x = 1\n",
	"tests/notes.txt":  "not a test",
	"tests/d.test.js":  "test('broken', () => {})\nthrow new Error('half drawn')\n",
	"modules/extra.js": "export const unused = 1\n",
}

func TestRunDirsOutcomes(t *testing.T) {
	pool := runtime.NewPool(runtime.PoolOptions{})
	defer pool.Close()
	dir := writeWorkspace(t, suiteFiles)
	opt := Options{Runner: pool}
	rs, err := RunDirs(context.Background(), []string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{"", "new", ""},
		{"/tests/a.test.js › wide", "ok", ""},
		{"/tests/a.test.js › area", "FAIL", "tests/a.test.js:6:3: AssertionError: area: got 800, want 900\n    6 |   assertEqual(plate.w * plate.h, 900, 'area')\n          ^\nstack:\n    at <anonymous> (tests/a.test.js:6:3)\n    at <top level> (tests/a.test.js:5:1)"},
		{"/tests/b.test.js", "new", ""},
		{"/tests/c.test.js", "ok", ""},
		{"/tests/d.test.js › broken", "ok", ""},
		{"/tests/d.test.js", "FAIL", "tests/d.test.js:2:7: Error: half drawn\n    2 | throw new Error('half drawn')\n              ^"},
	}
	if diff := cmp.Diff(want, briefs(dir, rs)); diff != "" {
		t.Errorf("first run mismatch (-want +got):\n%s", diff)
	}
	for _, f := range []string{"__snapshots__/scene.json", "__snapshots__/scene.svg", "__snapshots__/scene.png", "tests/__snapshots__/b.json", "tests/__snapshots__/b.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("snapshot not written: %v", err)
		}
	}

	// Second run: the snapshots are there and match.
	opt.Run = regexp.MustCompile(`ws(/tests/b.test.js)?$`)
	rs, err = RunDirs(context.Background(), []string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]brief{{"", "ok", ""}, {"/tests/b.test.js", "ok", ""}}, briefs(dir, rs)); diff != "" {
		t.Errorf("second run mismatch (-want +got):\n%s", diff)
	}

	// A change: words, and the pictures under DiffDir.
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("import {plate} from 'dims'\ndrawRect('plate', 0, 0, plate.w, plate.h)\ndrawCircle('hole', 10, 2, 3)\nsetStroke('plate', [1, 0, 0, 1])\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opt.Run = regexp.MustCompile(`ws$`)
	opt.DiffDir = filepath.Join(t.TempDir(), "diff")
	rs, err = RunDirs(context.Background(), []string{dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Status != StatusFail {
		t.Fatalf("changed run: %+v", rs)
	}
	lines := strings.Split(rs[0].Message, "\n")
	wantStart := []string{
		`restyled rect "plate": stroke [0,0,0,1] -> [1,0,0,1]`,
		`moved circle "hole" by 2 from (10, 0) to (10, 2)`,
	}
	if diff := cmp.Diff(wantStart, lines[:2]); diff != "" {
		t.Errorf("changes mismatch (-want +got):\n%s", diff)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "scene.png: ") || !strings.Contains(last, " pixels differ (") {
		t.Errorf("last line %q does not count the pixels", lines[len(lines)-1])
	}
	var names []string
	for _, img := range rs[0].Images {
		names = append(names, filepath.Base(img))
		f, err := os.Open(img)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(f); err != nil {
			t.Errorf("%s: %v", img, err)
		}
		f.Close()
	}
	wantNames := []string{"scene.old.png", "scene.new.png", "scene.diff.png"}
	for i := range names {
		names[i] = names[i][strings.LastIndex(names[i], "_")+1:]
	}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("difference pictures mismatch (-want +got):\n%s", diff)
	}

	// CI: the change still fails, and so does a snapshot that is missing.
	if err := os.RemoveAll(filepath.Join(dir, "tests", "__snapshots__")); err != nil {
		t.Fatal(err)
	}
	rs, err = RunDirs(context.Background(), []string{dir}, Options{Runner: pool, CI: true, Run: regexp.MustCompile(`b.test.js$`)})
	if err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "tests", "__snapshots__")
	wantCI := []brief{{"/tests/b.test.js", "FAIL", "no snapshot: " + filepath.Join(snap, "b.json") + " is missing, and CI=true does not write one; run `cadrun test -update` where the drawing is right and commit " + snap}}
	if diff := cmp.Diff(wantCI, briefs(dir, rs)); diff != "" {
		t.Errorf("CI run mismatch (-want +got):\n%s", diff)
	}

	// Update rewrites the changed snapshot (json, svg, png) and writes the missing one.
	rs, err = RunDirs(context.Background(), []string{dir}, Options{Runner: pool, Update: true, Run: regexp.MustCompile(`(ws|b.test.js)$`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{rs[0].Written, rs[1].Written}; !cmp.Equal(got, []int{3, 3}) {
		t.Errorf("update wrote %v files, want [3 3]", got)
	}
	rs, err = RunDirs(context.Background(), []string{dir}, Options{Runner: pool, CI: true, Run: regexp.MustCompile(`(ws|b.test.js)$`)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]brief{{"", "ok", ""}, {"/tests/b.test.js", "ok", ""}}, briefs(dir, rs)); diff != "" {
		t.Errorf("after update mismatch (-want +got):\n%s", diff)
	}
}

func TestWorkspacesErrors(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	file := filepath.Join(empty, "f.js")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{filepath.Join(empty, "nope"), `no workspace at "` + filepath.Join(empty, "nope") + `": stat ` + filepath.Join(empty, "nope") + `: no such file or directory; give a workspace folder or a folder of workspaces`},
		{file, `"` + file + `" is not a folder; give a workspace folder (scene.code.js, modules/, tests/)`},
		{empty, `"` + empty + `" holds no workspace: neither it nor its subfolders have scene.code.js or tests/`},
	} {
		_, err := Workspaces([]string{tt.dir})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Workspaces(%q) = %v\nwant %s", tt.dir, err, tt.want)
		}
	}
}
