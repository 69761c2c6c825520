package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A loop goja maps to no source position (an empty body, a constant test) is still where the
// timeout error points, not the line before it; so is a loop whose body goja maps, wherever in
// it the interrupt lands.
func TestTimeoutPointsAtTheLoop(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src, want string }{
		{"while", "drawCircle('c', 0, 0, 1);\nwhile (true) {}\n",
			"scene.code.js:2:1: TimeoutError: the run took longer than 1s (Limits.Timeout) and was stopped\n    2 | while (true) {}\n        ^\nhint: look for a loop that never ends, or draw less per run\n"},
		{"for", "drawCircle('c', 0, 0, 1)\n\n  for (;;) {}\n",
			"scene.code.js:3:3: TimeoutError: the run took longer than 1s (Limits.Timeout) and was stopped\n    3 |   for (;;) {}\n          ^\nhint: look for a loop that never ends, or draw less per run\n"},
		{"in a function", "function f() {\n  const x = 1\n  do {} while (true)\n}\nwhile (false) {}\nf()\n",
			"scene.code.js:3:3: TimeoutError: the run took longer than 1s (Limits.Timeout) and was stopped\n    3 |   do {} while (true)\n          ^\nhint: look for a loop that never ends, or draw less per run\nstack:\n    at f (scene.code.js:3:3)\n    at <top level> (scene.code.js:6:1)\n"},
		{"mapped body", "drawCircle('c', 0, 0, 1);\nlet i = 0\nwhile (true) { i++ }\n",
			"scene.code.js:3:1: TimeoutError: the run took longer than 1s (Limits.Timeout) and was stopped\n    3 | while (true) { i++ }\n        ^\nhint: look for a loop that never ends, or draw less per run\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The timeout covers parsing too: with 100 ms a busy machine under the race
			// detector now and then stopped the run before it reached f's loop.
			_, err := runMain(t, tc.src, Limits{Timeout: time.Second})
			d, ok := err.(*Diagnostic)
			if !ok {
				t.Fatalf("want a diagnostic, got %v", err)
			}
			if diff := cmp.Diff(tc.want, d.Render()); diff != "" {
				t.Errorf("diagnostic mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Where the interrupt lands in a loop (goja maps the body's expression, and the jump back to the
// loop's start) does not change where the diagnostic points; a position in a function that a
// loop calls stays in that function.
func TestStuckLoopPositionIsStable(t *testing.T) {
	t.Parallel()
	src := "let i = 0\n" +
		"while (true) { i++ }\n" +
		"for (let j = 0; ; j++) {\n" +
		"  if (j > 2) {\n" +
		"    do { i-- } while (i)\n" +
		"  }\n" +
		"  [1].forEach(x => { i += x })\n" +
		"}\n"
	tests := []struct {
		name      string
		line, col int // where goja put the interrupt
		want      string
	}{
		{"loop body", 2, 16, "2:1"},
		{"loop start", 2, 1, "2:1"},
		{"outer loop's body", 4, 3, "3:1"},
		{"inner loop's body", 5, 10, "5:5"},
		{"inner loop's test", 5, 22, "5:5"},
		{"a function called in a loop", 7, 22, "7:22"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{src: MapSource{MainModule: src}, limits: Limits{}.withDefaults(),
				modules: map[string]*loaded{MainModule: {name: MainModule, path: PathOf(MainModule)}}}
			d := &Diagnostic{File: PathOf(MainModule), Line: tt.line, Column: tt.col,
				Stack: []Frame{{Function: "<top level>", File: PathOf(MainModule), Line: tt.line, Column: tt.col}}}
			r.pointAtStuckLoop(d)
			got := fmt.Sprintf("%d:%d", d.Line, d.Column)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("position mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]Frame{{Function: "<top level>", File: PathOf(MainModule), Line: d.Line, Column: d.Column}}, d.Stack); diff != "" {
				t.Errorf("stack mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
