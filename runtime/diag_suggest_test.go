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

// TestHintsForMisuse: a group call on an entity that is not a group gives the call's
// signature (the group comes first), and a name from other CAD tools that cadrun spells
// another way says how cadrun does it.
func TestHintsForMisuse(t *testing.T) {
	t.Parallel()
	tests := []struct{ main, want string }{
		{"drawCircle('c', 0, 0, 1)\ncreateGroup('g', [])\naddToGroup('c', 'g')\n", "scene.code.js:3:1: Error: addToGroup: not a group: \"c\" is a circle\n" +
			"    3 | addToGroup('c', 'g')\n" +
			"        ^\n" +
			"hint: the group comes first: addToGroup(group: string, entity: string): boolean; createGroup makes a group\n"},
		{"drawRect('plate', 0, 0, 40, 20)\ndrawHole('h', 0, 0, 3)\n", "scene.code.js:2:1: ReferenceError: drawHole is not defined\n" +
			"    2 | drawHole('h', 0, 0, 3)\n" +
			"        ^\n" +
			"hint: cadrun has no drawHole: draw the hole with drawCircle, then cut it from the part with booleanDifference (booleanDifference(a: string | string[], b: string | string[], result: string): boolean)\n"},
		// A name the program declares is its own, not the other tools'.
		{"function drawHole(n) { drawCircle(n, 0, 0, 1) }\ndrawHol('h')\n", "scene.code.js:2:1: ReferenceError: drawHol is not defined\n" +
			"    2 | drawHol('h')\n" +
			"        ^\n" +
			"hint: did you mean drawHole? (declared at line 1)\n"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), MapSource{MainModule: tt.main}, MainModule, Options{})
		d, ok := err.(*Diagnostic)
		if !ok {
			t.Fatalf("%q: want a *Diagnostic, got %T %v", tt.main, err, err)
		}
		if diff := cmp.Diff(tt.want, d.Render()); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.main, diff)
		}
	}
}

// TestOtherNamesAreNotAPINames: the names other tools use that hints answer are none of the
// API's, and what each points at is.
func TestOtherNamesAreNotAPINames(t *testing.T) {
	t.Parallel()
	for name, use := range otherNames {
		if _, ok := byName()[name]; ok {
			t.Errorf("%s is an API name; drop it from otherNames", name)
		}
		if _, ok := byName()[use.fn]; !ok {
			t.Errorf("%s points at %s, which is not an API name", name, use.fn)
		}
	}
}
