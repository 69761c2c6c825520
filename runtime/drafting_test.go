package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLinetypesAndLayers runs setLinetype, createLayer and setLayer from a script: what
// getEntity answers, what the scene resolves, and the refusals a script sees.
func TestLinetypesAndLayers(t *testing.T) {
	t.Parallel()
	src := `createLayer('hidden', {color: [0, 0, 1, 1], linetype: 'hidden', lineweight: 0.35})
createLayer('notes', {plot: false})
drawLine('a', [0, 0, 10, 0]); drawLine('b', [0, 5, 10, 5]); createGroup('g', ['a', 'b'])
setLinetype('g', 'center', {scale: 2}); setLinetype('b', 'dashed')
drawLine('edge', [0, 9, 10, 9]); setLayer('edge', 'hidden')
drawCircle('note', 0, 0, 1); setLayer('note', 'notes')
const s = getEntity('g').style
console.log(s.linetype, s.linetypeScale, getEntity('b').style.linetype, getEntity('edge').style.layer)`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"center 2 dashed hidden"}, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	type drawn struct {
		Linetype string
		Scale    float64
		Width    float64
		Plot     bool
	}
	want := map[string]drawn{"a": {"center", 2, 0, true}, "b": {"dashed", 0, 0, true}, "edge": {"hidden", 0, 0.35, true}, "note": {"", 0, 0, false}}
	for name, w := range want {
		e, err := res.Scene.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		d := res.Scene.Drawn(e)
		if diff := cmp.Diff(w, drawn{d.Style.Linetype, d.Style.LinetypeScale, d.Style.StrokeWidth, d.Plot}); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", name, diff)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"drawLine('l', [0, 0, 1, 0]); setLinetype('l', 'dashdot')",
			`scene.code.js:1:30: Error: setLinetype: unknown linetype "dashdot": use one of continuous, dashed, hidden, center, phantom, dot`},
		{"drawLine('l', [0, 0, 1, 0]); setLinetype('l', 'dashed', {scale: 0})",
			"scene.code.js:1:30: RangeError: setLinetype: option scale must be > 0, got 0"},
		{"drawLine('l', [0, 0, 1, 0]); setLayer('l', 'cut')",
			`scene.code.js:1:30: Error: setLayer: no such layer: "cut"; create it first with createLayer("cut", {...})`},
		{"createLayer('x', {linetype: 'dotted'})",
			`scene.code.js:1:1: Error: createLayer: layer "x": unknown linetype "dotted": use one of continuous, dashed, hidden, center, phantom, dot`},
		{"createLayer('x', {plot: 0})",
			"scene.code.js:1:1: TypeError: createLayer: option plot must be true or false, got 0"},
		{"createLayer('x', {colour: [1, 0, 0, 1]})",
			`scene.code.js:1:1: TypeError: createLayer: unknown option "colour"; use color, linetype, lineweight, plot`},
		{"for (let i = 0; i <= 1000; i++) createLayer('l' + i)",
			"scene.code.js:1:33: Error: createLayer: limit exceeded: the scene already has 1000 layers (MaxLayers)"},
	} {
		_, err := runMain(t, c.src, Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}
