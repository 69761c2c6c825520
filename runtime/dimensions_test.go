package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDimensions draws every dimension kind from a script, names and points mixed, in a
// group that is then rotated and scaled: getEntity answers the value under the group's
// transform and the text shown; the refusals say what to do.
func TestDimensions(t *testing.T) {
	t.Parallel()
	src := `drawRect('plate', 20, 10, 40, 20); drawCircle('hole', 10, 10, 4); drawArc('bend', 30, 10, 5, 0, Math.PI / 2)
dimLinear('w', [0, 20], [40, 20], {direction: 'horizontal', offset: 8})
dimLinear('h', 'plate', [40, 0], {direction: 'vertical', offset: -8, precision: 1, units: ' mm'})
dimLinear('diag', [0, 0], [40, 20], {text: 'about <>'})
dimRadius('r', 'bend'); dimDiameter('d', 'hole', {text: '<> H7', color: [1, 0, 0, 1]})
dimAngle('a', [0, 0], [40, 0], 'hole', {radius: 12})
createGroup('g', ['plate', 'hole', 'bend', 'w', 'h', 'diag', 'r', 'd', 'a'])
rotate('g', 0.5); scale('g', 2, 2)
for (const n of ['w', 'h', 'diag', 'r', 'd', 'a']) console.log(n, getEntity(n).measured.toFixed(6), getEntity(n).displayText)`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"w 80.000000 80", "h 20.000000 20 mm", "diag 89.442719 about 89.44", "r 10.000000 R10",
		"d 16.000000 Ø16 H7", "a 45.000000 45°",
	}
	if diff := cmp.Diff(want, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	e, err := res.Scene.Get("d")
	if err != nil {
		t.Fatal(err)
	}
	if e.Style.Fill == nil || e.Style.Stroke == nil || e.Style.Fill[0] != 1 || e.Style.Stroke[0] != 1 {
		t.Errorf("color option: style %+v, want red stroke and fill", e.Style)
	}
	for _, c := range []struct{ src, want string }{
		{"dimLinear('x', [0, 0], 'nothere')",
			`scene.code.js:1:1: Error: dimLinear: b: no entity named "nothere"; give a point [x, y] or the name of an entity drawn before this call`},
		{"drawRect('r', 0, 0, 4, 4); dimRadius('x', 'r')",
			`scene.code.js:1:28: Error: dimRadius: "r" is a rect; a radius dimension needs a circle or an arc (use dimLinear for other shapes)`},
		{"dimLinear('x', [1, 1], [1, 1])",
			"scene.code.js:1:1: Error: dimLinear: a and b are the same point [1, 1]; a dimension measures between two different points"},
		{"dimAngle('x', [0, 0], [0, 0], [1, 0])",
			"scene.code.js:1:1: RangeError: dimAngle: option radius must be > 0, got 0"},
		{"dimLinear('x', [0, 0], [1, 0], {direction: 'diagonal'})",
			`scene.code.js:1:1: TypeError: dimLinear: option direction must be 'aligned', 'horizontal' or 'vertical', got "diagonal"`},
		{"dimLinear('x', [0, 0], [1, 0], {precision: 1.5})",
			"scene.code.js:1:1: RangeError: dimLinear: option precision must be a whole number of digits from 0 to 8, got 1.5"},
		{"drawCircle('c', 0, 0, 2); scale('c', 2, 1); dimDiameter('x', 'c')",
			`scene.code.js:1:45: Error: dimDiameter: "c" is stretched into an ellipse by its transform (scale 2 by 1); a diameter dimension needs a circle`},
	} {
		_, err := runMain(t, c.src, Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}
