package runtime

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

func runMain(t *testing.T, src string, lim Limits) (*Result, error) {
	t.Helper()
	return Run(context.Background(), MapSource{MainModule: src}, MainModule, Options{Limits: lim})
}

func TestEveryExampleRuns(t *testing.T) {
	t.Parallel()
	for _, f := range API() {
		if f.Replacement != "" {
			continue
		}
		src := MapSource{MainModule: f.Example, "door.json": `{"width": 9, "height": 21}`}
		res, err := Run(context.Background(), src, MainModule, Options{Tests: f.Domain == "testing"})
		if err != nil {
			t.Errorf("%s example %q: %v", f.Name, f.Example, err)
			continue
		}
		if f.Domain == "testing" && (len(res.Tests) > 0 && res.Tests[0].Failure != nil) {
			t.Errorf("%s example failed: %v", f.Name, res.Tests[0].Failure)
		}
		if res.Scene.Len() == 0 && f.Domain != "query" && f.Domain != "text" && f.Name != "deleteEntity" && f.Name != "fitToViewport" {
			t.Errorf("%s example drew nothing", f.Name)
		}
	}
}

func TestDrawsScene(t *testing.T) {
	t.Parallel()
	res, err := runMain(t, `
drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 10, 0, 3)
setFill('plate', [0.5, 0.5, 0.5, 1])
createGroup('part', ['plate', 'hole'])
translate('part', 100, 0)
console.log('bounds', getWorldBounds('part'))
`, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`bounds {"min":[80,-10],"max":[120,10],"min_x":80,"min_y":-10,"max_x":120,"max_y":10}`}, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	if res.Scene.Len() != 3 {
		t.Errorf("scene has %d entities, want 3", res.Scene.Len())
	}
}

// TestErrors pins the one-line form of each failure: file, line, character column, kind,
// message.
func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"drawCircle('c', 0, 0, -1)", "scene.code.js:1:1: Error: drawCircle: bad geometry: radius must be a finite number > 0, got -1"},
		{"drawCircle('c', 0, 'x', 1)", "scene.code.js:1:1: TypeError: drawCircle: cy must be a number, got \"x\""},
		{"drawCircle('c', 0, 0)", "scene.code.js:1:1: TypeError: drawCircle: missing argument radius; the call is drawCircle(name: string, cx: number, cy: number, radius: number): boolean"},
		{"drawCircle('c', 0, 0, Infinity)", "scene.code.js:1:1: RangeError: drawCircle: radius must be a finite number, got +Inf"},
		{"\n  drawCircel('c', 0, 0, 1)", "scene.code.js:2:3: ReferenceError: drawCircel is not defined"},
		{"translate('nope', 1, 1)", `scene.code.js:1:1: Error: translate: no such entity: "nope"`},
		{"drawLine('l', [0, 0, 1])", "scene.code.js:1:1: TypeError: drawLine: points must hold x,y pairs: got 3 numbers (an odd count)"},
		{"drawCircle('c',0,0,1); setFill('c', [255, 0, 0, 1])", "scene.code.js:1:24: RangeError: setFill: color channel 0 is 255; channels are in 0..1 (divide 0..255 values by 255)"},
		{"drawCircle('c',0,0,1); translate('c', 1, 1, {spce: 'world'})", `scene.code.js:1:24: TypeError: translate: unknown option "spce"; use space`},
		{"get_entity('c')", "scene.code.js:1:1: TypeError: get_entity is not available; use getEntity instead"},
		{"let x = ;", "scene.code.js:1:9: SyntaxError: Unexpected token ;"},
		{"throw 'plain'", "scene.code.js:1:1: Error: uncaught exception: plain"},
		{"const é = 1; throw new Error('boom')", "scene.code.js:1:20: Error: boom"},
	}
	for _, tt := range tests {
		_, err := runMain(t, tt.src, Limits{})
		if err == nil {
			t.Errorf("%q: no error", tt.src)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestRenderedDiagnostic(t *testing.T) {
	t.Parallel()
	_, err := runMain(t, "function wheel(r) {\n\tdrawCirle('w', 0, 0, r)\n}\nwheel(3)\n", Limits{})
	d, ok := err.(*Diagnostic)
	if !ok {
		t.Fatalf("want a *Diagnostic, got %T %v", err, err)
	}
	want := "scene.code.js:2:2: ReferenceError: drawCirle is not defined\n" +
		"    2 | \tdrawCirle('w', 0, 0, r)\n" +
		"        \t^\n" +
		"hint: did you mean drawCircle? (drawCircle(name: string, cx: number, cy: number, radius: number): boolean)\n" +
		"stack:\n" +
		"    at wheel (scene.code.js:2:2)\n" +
		"    at <top level> (scene.code.js:4:1)\n"
	if diff := cmp.Diff(want, d.Render()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestLimits: each runaway ends with its limit named, within its deadline plus a margin.
func TestLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		lim       Limits
		want      string
	}{
		{"endless loop", "for (;;) {}", Limits{Timeout: 200 * time.Millisecond}, "TimeoutError: the run took longer than 200ms (Limits.Timeout) and was stopped"},
		{"recursion", "function f(n) { return f(n + 1) + 1 }\nf(0)", Limits{}, "StackOverflowError: call stack deeper than 2000 calls (Limits.MaxCallStack)"},
		{"hostile toString", "throw {toString() { while (true) {} }}", Limits{Timeout: 200 * time.Millisecond}, "Error: uncaught exception: an object that is not an Error"},
		{"hostile getter", "const e = new Error('x'); Object.defineProperty(e, 'message', {get() { for (;;) {} }}); throw e", Limits{}, "Error: uncaught exception: an object that is not an Error"},
		{"hostile proxy", "throw new Proxy({}, {getOwnPropertyDescriptor() { for (;;) {} }, getPrototypeOf() { for (;;) {} }})", Limits{}, "Error: uncaught exception: a Proxy (not inspected)"},
		{"getter that loops", "throw {get name() { for (;;) {} }, get message() { for (;;) {} }, get x() { for (;;) {} }}", Limits{}, "Error: uncaught exception: an object that is not an Error"},
		{"proxy on the chain", "const p = new Proxy({}, {getOwnPropertyDescriptor() { for (;;) {} }}); const e = Object.create(p); throw e", Limits{}, "Error: uncaught exception: a Proxy (not inspected)"},
		{"entities", "for (let i = 0; ; i++) drawCircle('c' + i, 0, 0, 1)", Limits{MaxEntities: 50}, "RangeError: drawCircle: the scene has more than 50 entities (Limits.MaxEntities)"},
		{"nesting", strings.Repeat("[", 600) + strings.Repeat("]", 600), Limits{}, "LimitError: brackets nested deeper than 500 (MaxNesting)"},
		{"source size", "// " + strings.Repeat("x", 600<<10), Limits{}, "LimitError: scene.code.js is 614403 bytes; the limit is 512000 (MaxSourceBytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := runMain(t, tt.src, tt.lim)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			limit := tt.lim.withDefaults().Timeout + time.Second
			if el := time.Since(start); el > limit {
				t.Errorf("took %v, more than the deadline plus a second", el)
			}
		})
	}
}

func TestConsoleCap(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		src      string
		limits   Limits
		wantLogs []string
		warning  string
	}{{
		// Each line counts its line break: "line 0".."line 9" are 7 bytes each, so 14 fit in
		// 100 bytes, and a shorter line after the cut is dropped too.
		name:     "bytes",
		src:      "for (let i = 0; i < 1000; i++) console.log('line ' + i); console.log('x')",
		limits:   Limits{MaxConsoleBytes: 100},
		wantLogs: []string{"line 0", "line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9", "line 10", "line 11", "line 12"},
		warning:  "console output passed 100 bytes (MaxConsoleBytes); the remaining 988 lines were dropped",
	}, {
		// Empty lines cost their line break, so a flood of them is cut by lines and bytes.
		name:     "empty lines",
		src:      "for (let i = 0; i < 5000; i++) console.log('')",
		limits:   Limits{MaxConsoleLines: 3},
		wantLogs: []string{"", "", ""},
		warning:  "console output passed 3 lines (MaxConsoleLines); the remaining 4997 lines were dropped",
	}, {
		name:     "one dropped",
		src:      "console.log('a'); console.log('b')",
		limits:   Limits{MaxConsoleLines: 1},
		wantLogs: []string{"a"},
		warning:  "console output passed 1 lines (MaxConsoleLines); the remaining 1 line was dropped",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := runMain(t, tc.src, tc.limits)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantLogs, res.Logs); diff != "" {
				t.Errorf("logs mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{tc.warning}, res.Warnings); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The default limits keep a console flood (3,000,000 empty lines answered 27 MB before lines
// were capped) to 1,000 lines.
func TestConsoleFloodDefaultLimits(t *testing.T) {
	t.Parallel()
	res, err := runMain(t, "for (let i = 0; i < 5000; i++) console.log('')", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Logs) != 1000 {
		t.Errorf("kept %d lines, want 1000", len(res.Logs))
	}
	if diff := cmp.Diff([]string{"console output passed 1000 lines (MaxConsoleLines); the remaining 4000 lines were dropped"}, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	src := "console.log(Math.random(), Date.now())"
	a, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := runMain(t, src, Limits{})
	if diff := cmp.Diff(a.Logs, b.Logs); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
}

func TestNoHostAccess(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"require", "process", "setTimeout", "setInterval", "fetch", "XMLHttpRequest"} {
		res, err := runMain(t, "console.log(typeof "+g+")", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Logs[0] != "undefined" {
			t.Errorf("%s is %s in the sandbox", g, res.Logs[0])
		}
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := Run(ctx, MapSource{MainModule: "for(;;){}"}, MainModule, Options{})
	if err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestScripts runs the txtar scenarios in testdata/scripts: each holds the files of a
// workspace (main.js is scene.code.js, modules/NAME.js a module) and either want.err (the
// rendered diagnostic) or want.logs (console output of a successful run).
func TestScripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/scripts/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src := MapSource{}
			var wantErr, wantLogs *string
			for _, f := range ar.Files {
				data := string(f.Data)
				switch {
				case f.Name == "main.js":
					src[MainModule] = data
				case strings.HasPrefix(f.Name, "modules/"):
					src[strings.TrimSuffix(strings.TrimPrefix(f.Name, "modules/"), ".js")] = data
				case f.Name == "want.err":
					wantErr = &data
				case f.Name == "want.logs":
					wantLogs = &data
				}
			}
			res, err := Run(context.Background(), src, MainModule, Options{})
			switch {
			case wantErr != nil:
				d, ok := err.(*Diagnostic)
				if !ok {
					t.Fatalf("want a diagnostic, got %v", err)
				}
				if diff := cmp.Diff(*wantErr, d.Render()); diff != "" {
					t.Errorf("diagnostic mismatch (-want +got):\n%s", diff)
				}
			case wantLogs != nil:
				if err != nil {
					t.Fatalf("run failed: %v", err)
				}
				got := strings.Join(res.Logs, "\n") + "\n"
				if diff := cmp.Diff(*wantLogs, got); diff != "" {
					t.Errorf("logs mismatch (-want +got):\n%s", diff)
				}
			default:
				t.Fatal("scenario has neither want.err nor want.logs")
			}
		})
	}
}

// TestEveryFunctionRefusesMissingArguments: called with nothing, every function with a
// required parameter throws an error naming itself and that parameter; none fails silently.
func TestEveryFunctionRefusesMissingArguments(t *testing.T) {
	t.Parallel()
	for _, f := range API() {
		if f.Replacement != "" || len(f.Params) == 0 || f.Params[0].Optional {
			continue
		}
		_, err := runMain(t, f.Name+"()", Limits{})
		if err == nil {
			t.Errorf("%s() succeeded", f.Name)
			continue
		}
		msg := err.(*Diagnostic).Message
		if !strings.HasPrefix(msg, f.Name+": ") || !strings.Contains(msg, f.Params[0].Name) {
			t.Errorf("%s(): %q does not name the function and its parameter %q", f.Name, msg, f.Params[0].Name)
		}
	}
}

// TestEveryFunctionRefusesWrongTypes: an object where a string or number belongs is named in
// the error, for every parameter of every function.
func TestEveryFunctionRefusesWrongTypes(t *testing.T) {
	t.Parallel()
	for _, f := range API() {
		if f.Replacement != "" {
			continue
		}
		for i, p := range f.Params {
			if p.Type != "string" && p.Type != "number" {
				continue
			}
			args := make([]string, len(f.Params))
			for k := range args {
				args[k] = "'c'"
			}
			args[i] = "{}"
			src := "drawCircle('c', 0, 0, 1); drawRect('r', 0, 0, 1, 1); createGroup('g', ['r']); " + f.Name + "(" + strings.Join(args, ", ") + ")"
			_, err := runMain(t, src, Limits{})
			if err == nil {
				t.Errorf("%s with {} as %s succeeded", f.Name, p.Name)
				continue
			}
			if msg := err.(*Diagnostic).Message; !strings.HasPrefix(msg, f.Name+": ") {
				t.Errorf("%s with {} as %s: %q does not name the function", f.Name, p.Name, msg)
			}
		}
	}
}

// TestRunsShareNothing: each run gets a realm of its own, made before it (the spare) or for
// it, never one a script ran in: a global, a changed built-in or a replaced API function of
// one run is gone in the next, and the seed is the next run's own.
func TestRunsShareNothing(t *testing.T) {
	first := MapSource{MainModule: "globalThis.leak = 1; Math.max = () => 7; drawCircle = () => {}; console.log(Math.random())"}
	next := MapSource{MainModule: "console.log(typeof leak, Math.max(1, 2), typeof drawCircle, Math.random()); drawCircle('c', 0, 0, 1)"}
	res, err := Run(context.Background(), first, MainModule, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	firstRandom := res.Logs[0]
	for i := range 3 {
		res, err := Run(context.Background(), next, MainModule, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"undefined 2 function " + firstRandom}
		if diff := cmp.Diff(want, res.Logs); diff != "" || res.Scene.Len() != 1 {
			t.Errorf("run %d: logs mismatch (-want +got):\n%s(entities: %d)", i, diff, res.Scene.Len())
		}
	}
}

// TestRunTakesTheRealmBeingMade pins that a run starting while the spare realm is still being
// made waits for it instead of making a second (a fresh worker whose request is already
// waiting starts both at once): one realm made for the run, and none left in the making. Not
// parallel: it counts the package's realms.
func TestRunTakesTheRealmBeingMade(t *testing.T) {
	takeRealm() // whatever an earlier test left made or in the making
	before := realmsMade.Load()
	spareRealm()
	r := takeRealm()
	if got := realmsMade.Load() - before; got != 1 {
		t.Errorf("realms made for one run = %d, want 1", got)
	}
	spare.Lock()
	left, making := spare.r, spare.making
	spare.Unlock()
	if left != nil || making != nil || r == nil {
		t.Errorf("after taking it: spare %v, in the making %v, taken %v; want the one made taken and none left", left != nil, making != nil, r != nil)
	}
}
