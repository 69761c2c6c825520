package runtime

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMain lets this test binary serve as the Pool's worker process.
func TestMain(m *testing.M) {
	ServeWorkerIfAsked()
	os.Exit(m.Run())
}

func newTestPool(t *testing.T, mem int64) *Pool {
	t.Helper()
	p := NewPool(PoolOptions{MaxMemory: mem})
	t.Cleanup(func() { p.Close() })
	return p
}

func TestPoolMatchesInProcess(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{
		MainModule: "import {gear} from 'gears'\ngear('g', 0, 0)\nconsole.log('ok')\n" + typicalScript,
		"gears":    "export function gear(n, x, y) { drawCircle(n, x, y, 5) }",
	}
	want, err := Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // the worker is reused
		got, err := p.Run(context.Background(), src, MainModule, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := want.Scene.MarshalJSON()
		b, _ := got.Scene.MarshalJSON()
		if diff := cmp.Diff(string(a), string(b)); diff != "" {
			t.Errorf("scene mismatch (-in process +worker):\n%s", diff)
		}
		if diff := cmp.Diff(want.Logs, got.Logs); diff != "" {
			t.Errorf("logs mismatch (-in process +worker):\n%s", diff)
		}
	}
	_, err = p.Run(context.Background(), MapSource{MainModule: "import 'nope'"}, MainModule, Options{})
	if err == nil || err.Error() != "scene.code.js:1:8: ModuleError: module 'nope' not found" {
		t.Errorf("missing module through the worker: %v", err)
	}
}

// TestPoolSurvivesHostileScripts: each failure ends within its deadline plus a second with a
// clear error, and the pool (and this process) serve the next run.
func TestPoolSurvivesHostileScripts(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 256<<20)
	short := Limits{Timeout: 3 * time.Second}
	tests := []struct {
		name, src string
		want      string
		needsCap  bool // relies on the address space cap, which race builds cannot set
	}{
		{"huge repeat", `"x".repeat(1e11)`, "LimitError: the run needed more than 256 MB of memory (Limits.MaxMemory) and its worker was stopped", true},
		// goja fills about a million slots a second, so this one usually meets the deadline
		// before the memory cap; either way the worker is stopped and the error says why.
		{"huge array", `new Array(2e8).fill(0)`, "and its worker was stopped", false},
		{"growing in JS", `const a = []; for (;;) a.push(new ArrayBuffer(1 << 24))`, "MB of memory (Limits.MaxMemory)", true},
		{"nested JSON.parse", `JSON.parse("[".repeat(5e6) + "]".repeat(5e6))`, "StackOverflowError: the run nested too deeply", false},
		{"catastrophic regex", `/(a+)+(?=b)/.test("a".repeat(40) + "c")`, "TimeoutError: the run took longer than 3s (Limits.Timeout)", false},
		{"endless loop in a module", "import 'spin'", "modules/spin.js:1:1: TimeoutError: the run took longer than 3s", false},
	}
	// Seconds of work under the race detector: past the 3 s deadline on a busy machine.
	raceSlow := map[string]bool{"nested JSON.parse": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needsCap && raceBuild {
				t.Skip("needs the worker's address space cap; `make test` runs these without -race")
			}
			if raceSlow[tt.name] && raceBuild {
				t.Skip("too slow under the race detector to meet its deadline reliably; `make test` runs these without -race")
			}
			lim := short
			start := time.Now()
			_, err := p.Run(context.Background(), MapSource{MainModule: tt.src, "spin": "for (;;) {}"}, MainModule, Options{Limits: lim})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if el := time.Since(start); el > lim.Timeout+2*time.Second {
				t.Errorf("took %v", el)
			}
			res, err := p.Run(context.Background(), MapSource{MainModule: "drawCircle('c', 0, 0, 1)"}, MainModule, Options{})
			if err != nil || res.Scene.Len() != 1 {
				t.Fatalf("the pool did not recover: %v", err)
			}
		})
	}
}

func TestPoolCancel(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := p.Run(ctx, MapSource{MainModule: "for (;;) {}"}, MainModule, Options{})
	if err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("cancel took %v", el)
	}
}

// TestRunAnswersDespiteNativeCode: in process, a stuck built-in is abandoned, not waited on.
func TestRunAnswersDespiteNativeCode(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, err := runMain(t, `/(a+)+(?=b)/.test("a".repeat(34) + "c")`, Limits{Timeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "TimeoutError") {
		t.Fatalf("got %v", err)
	}
	if el := time.Since(start); el > 300*time.Millisecond+2*time.Second {
		t.Errorf("took %v", el)
	}
}

// TestPoolSceneJSONIsTheScenesJSON: the scene JSON a worker sends, which callers store as it
// is (scene.json, the history), is byte for byte what the scene it decodes to encodes to.
func TestPoolSceneJSONIsTheScenesJSON(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: typicalScript + `
drawPolygon('tri', [0, 0, 10, 0, 5, 8], [[4, 2, 6, 2, 5, 4]])
drawBezier('b', 'M 0 0 C 10 10 20 -10 30 0 Q 40 10 50 0 Z')
drawText('t', 'Ø 12.5', 0, -30, 4, {align: 'center', color: [1, 0, 0, 1]})
drawEllipse('e', 0, 50, 10, 4)
drawRoundedRect('rr', 30, 50, 20, 10, 2)
rotate('tri', 0.3)
scale('b', 2, 1)
translate('e', 1.5, -2.25)
setStroke('rr', [0, 0, 1, 1], 0.5)
createGroup('g', ['tri', 'b'])
drawOrder('e', 'back')
`}
	res, err := p.Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.SceneJSON == nil {
		t.Fatal("no SceneJSON from the worker")
	}
	want, err := res.Scene.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(res.SceneJSON)); diff != "" {
		t.Errorf("scene JSON mismatch (-encoded +sent):\n%s", diff)
	}
}
