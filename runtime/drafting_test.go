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
		{"drawLine('l', [0, 0, 1e9, 0]); setLinetype('l', 'dot')",
			`scene.code.js:1:32: Error: setLinetype: limit exceeded: dashing "l" with dot at scale 1 makes more than 200000 dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines`},
		{"drawLine('l', [0, 0, 1, 0]); setLinetype('l', 'dot', {scale: 1e-12})",
			`scene.code.js:1:30: Error: setLinetype: limit exceeded: dashing "l" with dot at scale 1e-12 makes more than 200000 dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines`},
		{"createLayer('d', {linetype: 'dot'}); drawLine('l', [0, 0, 1e9, 0]); setLayer('l', 'd')",
			`scene.code.js:1:69: Error: setLayer: limit exceeded: dashing "l" with dot at scale 1 makes more than 200000 dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines`},
		{"drawLine('l', [0, 0, 1e5, 0]); setLinetype('l', 'dot'); scale('l', 1e4)",
			`LimitError: limit exceeded: dashing "l" with dot at scale 1 makes more than 200000 dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines`},
		{"for (let i = 0; i < 5; i++) { drawLine('l' + i, [0, i, 2e5, i]); setLinetype('l' + i, 'dot') }",
			`LimitError: limit exceeded: dashing "l2" with dot at scale 1 makes more than 200000 dashes and dots in the scene (MaxDashSegments); use a larger scale in setLinetype, or shorter lines`},
	} {
		_, err := runMain(t, c.src, Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}

// TestSetHatch runs setHatch from a script: what getEntity answers, the hatch a group's
// member gets, and the refusals a script sees.
func TestSetHatch(t *testing.T) {
	t.Parallel()
	src := `drawRect('a', 0, 0, 20, 10); drawCircle('b', 30, 0, 5); drawLine('l', [0, 20, 10, 20])
createGroup('g', ['a', 'b', 'l'])
setHatch('g', 'ansi31', {angle: Math.PI / 2, scale: 2, color: [1, 0, 0, 1]}); setHatch('b', 'solid')
const s = getEntity('g').style
console.log(s.hatch, s.hatchScale, getEntity('b').style.hatch)`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ansi31 2 solid"}, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	hs, err := res.Scene.Hatches()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for e, h := range hs {
		got[e.Name] = h.Pattern
	}
	if diff := cmp.Diff(map[string]string{"a": "ansi31", "b": "solid"}, got); diff != "" {
		t.Errorf("hatched shapes mismatch (-want +got):\n%s", diff)
	}
	for _, c := range []struct{ src, want string }{
		{"drawLine('l', [0, 0, 1, 0]); setHatch('l', 'ansi31')",
			`scene.code.js:1:30: Error: setHatch: shape is not closed: a hatch fills an area, and line "l" encloses none; hatch a closed shape (a polygon, a rect, a circle, a path ending in Z)`},
		{"drawRect('r', 0, 0, 1, 1); setHatch('r', 'brick')",
			`scene.code.js:1:28: Error: setHatch: unknown hatch pattern "brick": use one of solid, ansi31, ansi37, dots, or 'none' to remove it`},
		{"drawRect('r', 0, 0, 1, 1); setHatch('r', 'dots', {scale: -1})",
			"scene.code.js:1:28: RangeError: setHatch: option scale must be > 0, got -1"},
		{"drawRect('r', 0, 0, 1000, 1000); setHatch('r', 'ansi31', {scale: 0.001})",
			`scene.code.js:1:34: Error: setHatch: limit exceeded: hatching "r" with ansi31 at scale 0.001 makes more than 200000 segments in the scene (MaxHatchSegments); use a larger scale in setHatch`},
	} {
		_, err := runMain(t, c.src, Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}
