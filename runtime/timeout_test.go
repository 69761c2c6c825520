package runtime

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A loop goja maps to no source position (an empty body, a constant test) is still where the
// timeout error points, not the line before it; a loop whose body goja maps keeps goja's
// position.
func TestTimeoutPointsAtTheLoop(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src, want string }{
		{"while", "drawCircle('c', 0, 0, 1);\nwhile (true) {}\n",
			"scene.code.js:2:1: TimeoutError: the run took longer than 100ms (Limits.Timeout) and was stopped\n    2 | while (true) {}\n        ^\nhint: look for a loop that never ends, or draw less per run\n"},
		{"for", "drawCircle('c', 0, 0, 1)\n\n  for (;;) {}\n",
			"scene.code.js:3:3: TimeoutError: the run took longer than 100ms (Limits.Timeout) and was stopped\n    3 |   for (;;) {}\n          ^\nhint: look for a loop that never ends, or draw less per run\n"},
		{"in a function", "function f() {\n  const x = 1\n  do {} while (true)\n}\nwhile (false) {}\nf()\n",
			"scene.code.js:3:3: TimeoutError: the run took longer than 100ms (Limits.Timeout) and was stopped\n    3 |   do {} while (true)\n          ^\nhint: look for a loop that never ends, or draw less per run\nstack:\n    at f (scene.code.js:3:3)\n    at <top level> (scene.code.js:6:1)\n"},
		{"mapped body", "drawCircle('c', 0, 0, 1);\nlet i = 0\nwhile (true) { i++ }\n",
			"scene.code.js:3:16: TimeoutError: the run took longer than 100ms (Limits.Timeout) and was stopped\n    3 | while (true) { i++ }\n                       ^\nhint: look for a loop that never ends, or draw less per run\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := runMain(t, tc.src, Limits{Timeout: 100 * time.Millisecond})
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
