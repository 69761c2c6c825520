package runtime

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The argument readers tell numbers and strings by their goja type, and the check after a
// call looks names up without building errors. These pin that every kind of value is taken
// or refused with the same whole message as when each went through ExportType: a number
// argument, an array of numbers (flat and as pairs), an array of names, a number option, a
// colour, and the names the check after the call reads (a symbol passes as its description).
func TestArgumentKinds(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"drawCircle('c', NaN, 0, 1)", "scene.code.js:1:1: RangeError: drawCircle: cx must be a finite number, got NaN"},
		{"drawCircle('c', 0, -Infinity, 1)", "scene.code.js:1:1: RangeError: drawCircle: cy must be a finite number, got -Inf"},
		{"drawCircle('c', 0, 0, 1n)", "scene.code.js:1:1: TypeError: drawCircle: radius must be a number, got 1"},
		{"drawCircle('c', true, 0, 1)", "scene.code.js:1:1: TypeError: drawCircle: cx must be a number, got true"},
		{"drawCircle('c', null, 0, 1)", "scene.code.js:1:1: TypeError: drawCircle: cx must be a number, got null"},
		{"drawCircle('c', new Number(1), 0, 1)", "scene.code.js:1:1: TypeError: drawCircle: cx must be a number, got an object"},
		{"drawCircle('c', '1', 0, 1)", `scene.code.js:1:1: TypeError: drawCircle: cx must be a number, got "1"`},
		{"drawCircle('c', Symbol('s'), 0, 1)", `scene.code.js:1:1: TypeError: drawCircle: cx must be a number, got "s"`},
		{"drawCircle(new String('c'), 0, 0, 1)", "scene.code.js:1:1: TypeError: drawCircle: name must be a string, got an object"},
		{"drawCircle(1, 0, 0, 1)", "scene.code.js:1:1: TypeError: drawCircle: name must be a string, got 1"},
		{"drawCircle(Symbol('s'), 0, 0, 1); console.log(getDrawOrder().order.join())", "ok: s"},
		{"drawLine('l', [0, NaN, 1, 1])", "scene.code.js:1:1: TypeError: drawLine: points[1] must be a finite number, got NaN"},
		{"drawLine('l', [0, 0, 1, Infinity])", "scene.code.js:1:1: TypeError: drawLine: points[3] must be a finite number, got Infinity"},
		{"drawLine('l', [0, 0, '1', 1])", `scene.code.js:1:1: TypeError: drawLine: points[2] must be a finite number, got "1"`},
		{"drawLine('l', [0, 0, 1n, 1])", "scene.code.js:1:1: TypeError: drawLine: points[2] must be a finite number, got 1"},
		{"drawLine('l', [[0, 0], [1, NaN]])", "scene.code.js:1:1: TypeError: drawLine: points[1][1] must be a finite number, got NaN"},
		{"drawLine('l', [[0, 0], [1]])", "scene.code.js:1:1: TypeError: drawLine: points[1] must be a pair [x, y], got 1 numbers"},
		{"drawLine('l', [[0, 0], 1])", "scene.code.js:1:1: TypeError: drawLine: points[1] must be an array of numbers, got 1"},
		{"drawPolygon('p', [0, 0, 1, 0, 0, 1], [[0, 0, 1, 0, NaN, 1]])", "scene.code.js:1:1: TypeError: drawPolygon: holes[0][4] must be a finite number, got NaN"},
		{"drawCircle('a', 0, 0, 1); createGroup('g', ['a', 1])", "scene.code.js:1:27: TypeError: createGroup: children[1] must be a string, got 1"},
		{"drawCircle('a', 0, 0, 1); createGroup('g', ['a', Symbol('a')])", `scene.code.js:1:27: Error: createGroup: bad entity name: "a" is listed twice`},
		{"drawRect('r', 0, 0, 10, 10); offsetPolygon('r', 1, 'o', {joinType: 'miter', miterLimit: NaN})", "scene.code.js:1:30: TypeError: offsetPolygon: option miterLimit must be a finite number, got NaN"},
		{"drawRect('r', 0, 0, 10, 10); offsetPolygon('r', 1, 'o', {joinType: 'miter', miterLimit: '3'})", `scene.code.js:1:30: TypeError: offsetPolygon: option miterLimit must be a finite number, got "3"`},
		{"drawRect('r', 0, 0, 10, 10); setFill('r', [0, 0, NaN])", "scene.code.js:1:30: TypeError: setFill: color[2] must be a finite number, got NaN"},
		{"drawText('t', 'not an entity', 0, 0, 5); deleteEntity('t'); console.log(exists('t'))", "ok: false"},
		{"drawCircle('c', 0, 0, 1); translate('c', 1e308, 0); translate('c', 1e308, 0)", `scene.code.js:1:53: RangeError: translate: a number overflowed: the transform of "c" is translate [+Inf, 0], rotate 0, scale [1, 1], pivot [0, 0]`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, outcome(runMain(t, tt.src, Limits{}))); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}

// A call made while another is reading its arguments (here from an option's getter) has a
// call record of its own: the outer call's error still names the outer function and its
// arguments, and the inner call's entity is checked and kept.
func TestNestedCallKeepsItsRecord(t *testing.T) {
	t.Parallel()
	src := `drawCircle('c', 0, 0, 1)
try {
  translate('c', 1, 1, {get space() { drawRect('r', 0, 0, 1, 1); translate('r', 2, 0); return 'sideways' }})
} catch (e) { console.log(e.message) }
console.log(getDrawOrder().order.join(), JSON.stringify(getWorldBounds('r')))
scale('c', 2, 2, {get around() { rotate('r', 1); return 'middle' }})`
	res, err := runMain(t, src, Limits{})
	want := `scene.code.js:6:1: TypeError: scale: option around must be [x, y], 'center' or 'pivot', got "middle"`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	wantLogs := []string{
		`translate: bad transform: unknown space "sideways"; use 'world' or 'local'`,
		`c,r {"min":[1.5,-0.5],"max":[2.5,0.5],"min_x":1.5,"min_y":-0.5,"max_x":2.5,"max_y":0.5}`,
	}
	if diff := cmp.Diff(wantLogs, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
}

// outcome is a run's error, or "ok: " and its console lines joined by "|".
func outcome(res *Result, err error) string {
	if err != nil {
		return err.Error()
	}
	return "ok: " + strings.Join(res.Logs, "|")
}

// TestAPITableIsWellFormed: the table is checked as it is indexed (indexTable: no name twice,
// known domains, a doc line and an example, an implementation, domain aliases that name API
// functions), at its first use rather than as the package initialises; this test is that
// use in every test run, so a misuse still fails here. The index and the bound table hold
// the same functions.
func TestAPITableIsWellFormed(t *testing.T) {
	t.Parallel()
	byName, sorted := indexTable()
	var bound []string
	for _, f := range table() {
		bound = append(bound, f.Name)
		if f.transformOnly != transformCall(f.Name) {
			t.Errorf("%s: transformOnly %v, want %v", f.Name, f.transformOnly, !f.transformOnly)
		}
	}
	var indexed []string
	for _, f := range sorted {
		indexed = append(indexed, f.Name)
		if _, ok := byName[f.Name]; !ok {
			t.Errorf("%s is in the sorted table but not in the index", f.Name)
		}
	}
	slices.Sort(bound)
	slices.Sort(indexed)
	if diff := cmp.Diff(bound, indexed); diff != "" {
		t.Errorf("indexed functions mismatch (-bound +indexed):\n%s", diff)
	}
}
