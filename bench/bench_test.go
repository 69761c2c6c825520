package bench

// Each benchmark iteration execs the cadrun binary, so that the figures include what a user
// waits for and an in-process benchmark hides: process start, the Go runtime, building the
// JS engine, reading the script and writing the SVG. The binary is built once per test
// process with `go build` (static, as `make build` builds it), into a temporary directory.

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// workloads are BENCH.md's W1-W4. check is JavaScript run after the workload (by
// TestWorkloads only) that logs "label value..." lines; want says what each value must be.
var workloads = []struct {
	name, script string
	check        string
	want         []want
}{
	{
		name: "W1", script: "w1.js",
		// Rectangles have exact areas; a circle's area is that of its outline flattened at
		// scene.DefaultTolerance (45 chords for radius 4), so the circles' total lies between
		// BENCH.md's 32-segment figure and the true circles'.
		check: `let circles = 0, rects = 0
for (let k = 0; k < 10000; k++) { if (k % 2 === 0) circles += getArea('e' + k); else rects += getArea('e' + k) }
console.log('entities', getDrawOrder().order.length)
console.log('rects', rects)
console.log('circles', circles)`,
		want: []want{
			{"entities", 10000, 0, 0},
			{"rects", 120000, 1e-6, 0},
			{"circles", (369715.6122+371327.4123)/2 - 120000, (371327.4123 - 369715.6122) / 2, 0},
		},
	},
	{
		name: "W2", script: "w2.js",
		check: `for (const n of ['w2a', 'w2b']) {
  const parts = getEntity(n).geometry.parts
  console.log(n, getArea(n), parts.length, parts.reduce((s, p) => s + (p.holes ? p.holes.length : 0), 0))
}
console.log('entities', getDrawOrder().order.length)`,
		want: []want{
			{"w2a", 5992.9246, 5e-5, 0}, {"w2a", 1, 0, 1}, {"w2a", 1, 0, 2},
			{"w2b", 7500, 1e-6, 0}, {"w2b", 1, 0, 1}, {"w2b", 2500, 0, 2},
			{"entities", 2, 0, 0},
		},
	},
	{
		name: "W3", script: "w3.js",
		// BENCH.md gives about 2,998,954 and 2,659,437 for joins of 32 chords to a circle;
		// cadrun's round joins are exact arcs, which give the closed form (the star, a strip
		// of 2 along each edge, the joins' sectors and the strips' overlaps at the corners;
		// roundOffsetArea in scene's tests): 19 units more and less.
		check: `console.log('out', getArea('w3_out'))
console.log('in', getArea('w3_in'))`,
		want: []want{{"out", 2998973.4956, 1e-3, 0}, {"in", 2659418.0060, 1e-3, 0}},
	},
	{
		name: "W4", script: "w4.js",
		check: `console.log('area', getArea('r'))`,
		want:  []want{{"area", 200, 0, 0}},
	},
}

// want is one logged value: on the line starting with label, value number field (0 is the
// first after the label), within tol of value.
type want struct {
	label      string
	value, tol float64
	field      int
}

var (
	tmpDir   string
	buildBin sync.Once
	binPath  string
	buildErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cadrun-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	tmpDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cadrun returns the path of the cadrun binary, building it on first use; a failed build
// fails the caller (nothing is skipped).
func cadrun(tb testing.TB) string {
	tb.Helper()
	buildBin.Do(func() {
		binPath = filepath.Join(tmpDir, "cadrun")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/cadrun/cadrun/cmd/cadrun")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build does
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building cadrun: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binPath
}

// run execs `cadrun run script -o out` and returns what the script logged (cadrun prints
// console output on stderr).
func run(tb testing.TB, bin, script, out string) string {
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", script, "-o", out)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		tb.Fatalf("cadrun run %s: %v\n%s", script, err, stderr.Bytes())
	}
	return stderr.String()
}

// BenchmarkProcess is each workload as a fresh process, spawn to exit; ms/op is ns/op in
// BENCH.md's unit.
func BenchmarkProcess(b *testing.B) {
	bin := cadrun(b)
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "out.svg")
			for b.Loop() {
				run(b, bin, w.script, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/op")
		})
	}
}

// TestWorkloads runs each script with its check appended and compares the logged figures
// with BENCH.md's, so that the benchmarks time the right work.
func TestWorkloads(t *testing.T) {
	bin := cadrun(t)
	for _, w := range workloads {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(w.script)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			script := filepath.Join(dir, w.script)
			if err := os.WriteFile(script, append(src, "\n"+w.check+"\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out.svg")
			logs := run(t, bin, script, out)
			svg, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(svg, []byte("<svg")) {
				t.Errorf("%s is not an SVG: %.80q", out, svg)
			}
			lines := map[string][]string{}
			for _, l := range strings.Split(logs, "\n") {
				if f := strings.Fields(l); len(f) > 1 {
					lines[f[0]] = f[1:]
				}
			}
			for _, c := range w.want {
				fields, ok := lines[c.label]
				if !ok || c.field >= len(fields) {
					t.Errorf("no value %d for %q in the log:\n%s", c.field+1, c.label, logs)
					continue
				}
				got, err := strconv.ParseFloat(fields[c.field], 64)
				if err != nil || math.Abs(got-c.value) > c.tol {
					t.Errorf("%s value %d = %s, want %v ± %v", c.label, c.field+1, fields[c.field], c.value, c.tol)
				}
			}
		})
	}
}
