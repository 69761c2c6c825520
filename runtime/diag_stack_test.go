package runtime

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStackRepeatsCollapsed: a runaway recursion's identical frames are shown once, counted.
func TestStackRepeatsCollapsed(t *testing.T) {
	t.Parallel()
	src := "function down(n) {\n\treturn down(n + 1)\n}\ndown(0)\n"
	_, err := Run(context.Background(), MapSource{MainModule: src}, MainModule, Options{})
	d, ok := err.(*Diagnostic)
	if !ok {
		t.Fatalf("want a *Diagnostic, got %T %v", err, err)
	}
	want := "scene.code.js:2:9: StackOverflowError: call stack deeper than 2000 calls (Limits.MaxCallStack)\n" +
		"    2 | \treturn down(n + 1)\n" +
		"        \t       ^\n" +
		"hint: a function calls itself without end; check the recursion's base case\n" +
		"stack:\n" +
		"    at down (scene.code.js:2:9)\n" +
		"    ... the frame above 1999 more times\n" +
		"    at <top level> (scene.code.js:4:1)\n"
	if diff := cmp.Diff(want, d.Render()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestMissingArgumentSaysWhatWasPassed: a missing argument that follows a misplaced one
// names the misplaced one.
func TestMissingArgumentSaysWhatWasPassed(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"drawCircle('m', [0, 40], 3)", "scene.code.js:1:1: TypeError: drawCircle: missing argument radius (cx is an array, where a number goes; give a point's coordinates as separate numbers); the call is drawCircle(name: string, cx: number, cy: number, radius: number): boolean"},
		{"drawCircle(0, 40, 3)", "scene.code.js:1:1: TypeError: drawCircle: missing argument radius (name is 0, where a string goes); the call is drawCircle(name: string, cx: number, cy: number, radius: number): boolean"},
		{"drawCircle('c', 0, 0)", "scene.code.js:1:1: TypeError: drawCircle: missing argument radius; the call is drawCircle(name: string, cx: number, cy: number, radius: number): boolean"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), MapSource{MainModule: tt.src}, MainModule, Options{})
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestUndefinedReadHint: reading a property of undefined names the expression that was
// undefined.
func TestUndefinedReadHint(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"const p = {}\nconst w = p.size.width\n", "scene.code.js:2:18: TypeError: Cannot read property 'width' of undefined\n" +
			"    2 | const w = p.size.width\n" +
			"                         ^\n" +
			"hint: p.size is undefined here, so it has no .width; check that p.size is set, and spelt, as you expect\n"},
		{"const parts = []\ndrawCircle('c', parts[0].x, 0, 1)\n", "scene.code.js:2:26: TypeError: Cannot read property 'x' of undefined\n" +
			"    2 | drawCircle('c', parts[0].x, 0, 1)\n" +
			"                                 ^\n" +
			"hint: parts[0] is undefined here, so it has no .x; check that parts[0] is set, and spelt, as you expect\n"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), MapSource{MainModule: tt.src}, MainModule, Options{})
		d, ok := err.(*Diagnostic)
		if !ok {
			t.Fatalf("%q: want a *Diagnostic, got %T %v", tt.src, err, err)
		}
		if diff := cmp.Diff(tt.want, d.Render()); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}
