package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSetStrokeCorners runs setStroke's options from a script: a group's members take them, a
// call without options keeps them, round is stored as nothing, and bad values fail naming the
// values allowed.
func TestSetStrokeCorners(t *testing.T) {
	t.Parallel()
	src := `drawLine('v', [0, 0, 5, 10, 10, 0]); drawLine('a', [0, 0, 1, 0]); drawLine('b', [0, 1, 1, 1]); createGroup('g', ['a', 'b'])
setStroke('v', [0, 0, 0, 1], 1, {cap: 'butt', join: 'miter', miterLimit: 2})
setStroke('v', [1, 0, 0, 1], 2)
setStroke('g', [0, 0, 0, 1], 1, {cap: 'square', join: 'bevel'})
setStroke('b', [0, 0, 0, 1], 1, {join: 'round'})`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	type corners struct {
		Cap, Join string
		Limit     float64
	}
	want := map[string]corners{"v": {"butt", "miter", 2}, "a": {"square", "bevel", 0}, "b": {"", "", 0}}
	for name, w := range want {
		e, err := res.Scene.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, corners{e.Style.Cap, e.Style.Join, e.Style.MiterLimit}); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", name, diff)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"drawLine('l', [0, 0, 1, 0]); setStroke('l', [0, 0, 0, 1], 1, {cap: 'flat'})",
			`scene.code.js:1:30: RangeError: setStroke: option cap must be 'round', 'butt' or 'square', got "flat"`},
		{"drawLine('l', [0, 0, 1, 0]); setStroke('l', [0, 0, 0, 1], 1, {join: 'mitre'})",
			`scene.code.js:1:30: RangeError: setStroke: option join must be 'round', 'miter' or 'bevel', got "mitre"`},
		{"drawLine('l', [0, 0, 1, 0]); setStroke('l', [0, 0, 0, 1], 1, {miterLimit: 0.5})",
			"scene.code.js:1:30: RangeError: setStroke: option miterLimit must be >= 1 (a miter is at least as long as the stroke is wide), got 0.5"},
		{"drawLine('l', [0, 0, 1, 0]); setStroke('l', [0, 0, 0, 1], 1, {miterLimit: 1e9})",
			"scene.code.js:1:30: RangeError: setStroke: option miterLimit 1e+09 is over 100 (MaxMiterLimit); a miter that long is a spike: use join 'bevel'"},
		{"drawLine('l', [0, 0, 1, 0]); setStroke('l', [0, 0, 0, 1], 1, {linecap: 'butt'})",
			`scene.code.js:1:30: TypeError: setStroke: unknown option "linecap"; use cap, join, miterLimit`},
	} {
		_, err := runMain(t, c.src, Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}
