package runtime

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDidYouMean: a misspelt name is matched against the API and the program's own names,
// a name it begins coming first.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	lib := "export function gear(n, r) { drawCircle(n, 0, 0, r) }\n"
	tests := []struct{ main, want string }{
		{"drawCirc('c', 0, 0, 1)\n", "scene.code.js:1:1: ReferenceError: drawCirc is not defined\n" +
			"    1 | drawCirc('c', 0, 0, 1)\n" +
			"        ^\n" +
			"hint: did you mean drawCircle? (drawCircle(name: string, cx: number, cy: number, radius: number): boolean)\n"},
		{"import { gear } from 'gear_lib'\ngaer('g', 4)\n", "scene.code.js:2:1: ReferenceError: gaer is not defined\n" +
			"    2 | gaer('g', 4)\n" +
			"        ^\n" +
			"hint: did you mean gear? (imported from 'gear_lib')\n"},
		{"const toothCount = 12\nfor (let i = 0; i < toothCnt; i++) {}\n", "scene.code.js:2:21: ReferenceError: toothCnt is not defined\n" +
			"    2 | for (let i = 0; i < toothCnt; i++) {}\n" +
			"                            ^\n" +
			"hint: did you mean toothCount? (declared at line 1)\n"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), MapSource{MainModule: tt.main, "gear_lib": lib}, MainModule, Options{})
		d, ok := err.(*Diagnostic)
		if !ok {
			t.Fatalf("%q: want a *Diagnostic, got %T %v", tt.main, err, err)
		}
		if diff := cmp.Diff(tt.want, d.Render()); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.main, diff)
		}
	}
}
