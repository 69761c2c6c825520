package modules

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/runtime"
)

// runMain writes main into a fresh workspace (plus files) and runs it, returning the console
// lines.
func runMain(t *testing.T, files map[string]string, main string) []string {
	t.Helper()
	files["scene.code.js"] = main
	w, _ := workspace(t, files)
	res, err := runtime.Run(t.Context(), w, runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return res.Logs
}

func floats(t *testing.T, logs []string) []float64 {
	t.Helper()
	var out []float64
	for _, l := range logs {
		for _, f := range strings.Fields(l) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("log %q: %v", l, err)
			}
			out = append(out, v)
		}
	}
	return out
}

var approx = cmpopts.EquateApprox(0, 1e-6)

func TestBuiltinShapes(t *testing.T) {
	t.Parallel()
	// Side-effect import and named import both work.
	logs := runMain(t, map[string]string{}, `import 'shapes'
import {star as s} from 'shapes'
regularPolygon('hex', 0, 0, 2, 6)
s('st', 10, 0, 3, 1, 5)
slot('sl', 0, 10, 10, 2, Math.PI / 2)
const b = getWorldBounds('sl')
console.log(getArea('hex'), getArea('st'), getArea('sl'))
console.log(b.min[0], b.min[1], b.max[0], b.max[1])
console.log(getWorldBounds('hex').max[1])
`)
	got := floats(t, logs)
	hex := 6.0 / 2 * 4 * math.Sin(2*math.Pi/6)
	// A star of n points is 2n triangles (centre, outer, inner) of area rO*rI*sin(PI/n)/2.
	star := 2 * 5 * 3 * 1 * math.Sin(math.Pi/5) / 2
	// The slot's round ends are flattened for getArea: 0.5% is close enough.
	slot := 8*2 + math.Pi
	want := []float64{hex, star, slot, -1, 5, 1, 15, 2}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0.005, 1e-9)); diff != "" {
		t.Errorf("shapes mismatch (-want +got):\n%s", diff)
	}
}

func TestBuiltinShapesErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ call, want string }{
		{"regularPolygon('p', 0, 0, 1, 2)", "regularPolygon: argument 'n' must be an integer >= 3, got 2"},
		{"star('s', 0, 0, 1, 2, 5)", "star: argument 'rOuter' must be greater than rInner (2), got 1"},
		{"slot('s', 0, 0, 1, 2)", "slot: argument 'length' must be at least the width (2), got 1"},
		{"regularPolygon('p', 'x', 0, 1, 5)", `regularPolygon: argument 'cx' must be a finite number, got "x"`},
	} {
		w, _ := workspace(t, map[string]string{"scene.code.js": "import 'shapes'\n" + c.call})
		_, err := runtime.Run(t.Context(), w, runtime.MainModule, runtime.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error containing %q", c.call, err, c.want)
		}
	}
}

func TestBuiltinPatterns(t *testing.T) {
	t.Parallel()
	logs := runMain(t, map[string]string{}, `import {linearArray, gridArray, polarArray} from 'patterns'
drawCircle('c', 0, 0, 1)
console.log(linearArray('c', 'row', 4, 3, 0).join(' '))
console.log(getWorldBounds('row_3').min.join(' '))
drawRect('r', 0, 0, 2, 1)
console.log(gridArray('r', 'g', 3, 2, 5, 4).length)
console.log(getWorldBounds('g_2_1').min.join(' '))
drawRect('spoke', 10, 0, 4, 2)
console.log(polarArray('spoke', 'p', 4, 0, 0).join(' '))
const b = getWorldBounds('p_1')
console.log(b.min.join(' '), b.max.join(' '))
const q = getWorldBounds('p_2')
console.log(q.min.join(' '), q.max.join(' '))
`)
	want := []string{
		"c row_1 row_2 row_3",
		"8 -1",
		"6",
		"9 3.5",
		"spoke p_1 p_2 p_3",
	}
	if diff := cmp.Diff(want, logs[:5]); diff != "" {
		t.Errorf("patterns mismatch (-want +got):\n%s", diff)
	}
	// A quarter turn about the origin puts the 4x2 rectangle at x 10 onto y 10, standing up;
	// a half turn onto x -10.
	if diff := cmp.Diff([]float64{-1, 8, 1, 12, -12, -1, -8, 1}, floats(t, logs[5:]), approx); diff != "" {
		t.Errorf("polar array mismatch (-want +got):\n%s", diff)
	}
}

func TestBuiltinAnnotate(t *testing.T) {
	t.Parallel()
	logs := runMain(t, map[string]string{}, `import 'annotate'
dimension('d', 0, 0, 40, 0, 10)
const e = getEntity('d')
console.log(e.children.join(' '))
const line = getWorldBounds('d_line')
console.log(line.min.join(' '), line.max.join(' '))
const t = getWorldBounds('d_text')
console.log(t.min[1] > 10, Math.abs((t.min[0] + t.max[0]) / 2 - 20) < 1)
dimension('v', 0, 0, 0, -30, 5, {text: 'HEIGHT', size: 2})
const vt = getWorldBounds('v_text')
console.log(vt.max[1] - vt.min[1] > vt.max[0] - vt.min[0])
console.log(getArea('d_arrow1') > 0, getWorldBounds('d_arrow1').min[0])
label('l', 'Hi', 5, 5, 3)
const lb = getWorldBounds('l')
console.log(Math.abs((lb.min[0] + lb.max[0]) / 2 - 5) < 0.5, Math.abs((lb.min[1] + lb.max[1]) / 2 - 5) < 0.75)
`)
	want := []string{
		"d_ext1 d_ext2 d_line d_arrow1 d_arrow2 d_text",
		"0 10 40 10",
		"true true",
		"true",
		"true 0",
		"true true",
	}
	if diff := cmp.Diff(want, logs); diff != "" {
		t.Errorf("annotate mismatch (-want +got):\n%s", diff)
	}
}

// TestBuiltinOverride: a user module of a built-in's name wins, in Read, in runs and in List;
// deleting it brings the built-in back.
func TestBuiltinOverride(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, map[string]string{"scene.code.js": "import {star} from 'shapes'\nconsole.log(star())"})
	src, path, err := w.Read("shapes")
	if err != nil || path != "builtin/shapes.js" || !strings.Contains(string(src), "export function star") {
		t.Fatalf("Read(shapes) = %d bytes, %q, %v", len(src), path, err)
	}
	created, err := w.write("shapes", []byte("export function star() { return 'mine' }"), nil)
	if err != nil || !created {
		t.Fatalf("write(shapes) = %v, %v; want a new user module", created, err)
	}
	res, err := runtime.Run(t.Context(), w, runtime.MainModule, runtime.Options{})
	if err != nil || fmt.Sprint(res.Logs) != "[mine]" {
		t.Errorf("run with the override: %v, %v", res.Logs, err)
	}
	if _, path, _ := w.Read("shapes"); path != "modules/shapes.js" {
		t.Errorf("Read(shapes) after the override: path %q", path)
	}
	if err := w.Delete("shapes"); err != nil {
		t.Fatal(err)
	}
	if _, path, _ := w.Read("shapes"); path != "builtin/shapes.js" {
		t.Errorf("Read(shapes) after deleting the override: path %q", path)
	}
}

// TestBuiltinsParse imports each built-in alone, so that an error in one is caught even if no
// other test uses it.
func TestBuiltinsParse(t *testing.T) {
	t.Parallel()
	for _, n := range BuiltinNames() {
		w, _ := workspace(t, map[string]string{"scene.code.js": "import '" + n + "'"})
		if _, err := runtime.Run(t.Context(), w, runtime.MainModule, runtime.Options{}); err != nil {
			t.Errorf("built-in %s: %v", n, err)
		}
	}
}
