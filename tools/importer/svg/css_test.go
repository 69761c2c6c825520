package svg

import (
	"slices"
	"testing"
)

// TestStylesheets: a <style> element's rules are applied as SVG applies them: CSS whether or
// not the element says type="text/css", XML comments inside it dropped, over the presentation
// attributes and under the style attribute, the more specific selector winning and then the
// later rule; a selector or a rule it cannot apply is noted, never dropped in silence.
func TestStylesheets(t *testing.T) {
	t.Parallel()
	red, green, blue, near := Color{1, 0, 0, 1}, Color{0, 128.0 / 255, 0, 1}, Color{0, 0, 1, 1}, Color{1.0 / 255, 1.0 / 255, 1.0 / 255, 1}
	for _, c := range []struct {
		name, style, shapes string
		fills               []*Color
		notes               []string
	}{
		{"no type", `<defs><style>.a{fill:#010101;}.b{fill:none;}</style></defs>`,
			`<rect class="a" width="1" height="1"/><rect class="b" width="1" height="1"/>`, []*Color{&near, nil}, nil},
		{"XML comment inside", "<style type=\"text/css\">\n rect {\n  fill: <!-- yellow --> red;\n }\n</style>",
			`<rect width="1" height="1"/>`, []*Color{&red}, nil},
		{"CDATA and CSS comments", `<style><![CDATA[ /* rect { fill: blue } */ rect { fill: green } ]]></style>`,
			`<rect width="1" height="1"/>`, []*Color{&green}, nil},
		{"over attributes, under style", `<style>rect { fill: green }</style>`,
			`<rect fill="red" width="1" height="1"/><rect style="fill: blue" width="1" height="1"/>`, []*Color{&green, &blue}, nil},
		{"specificity, then order", `<style>#i { fill: blue } rect.c { fill: red } .c { fill: green } rect { fill: green } .d { fill: red } .d { fill: blue }</style>`,
			`<rect id="i" class="c" width="1" height="1"/><rect class="c" width="1" height="1"/><rect class="d" width="1" height="1"/>`, []*Color{&blue, &red, &blue}, nil},
		{"lists, descendants and children", `<style>g.k > rect, circle { fill: red } svg g rect.x { fill: blue } * { stroke: none }</style>`,
			`<g class="k"><rect width="1" height="1"/><g><rect class="x" width="1" height="1"/><rect width="1" height="1"/></g></g>`, []*Color{&red, &blue, {0, 0, 0, 1}}, nil},
		{"not applied, and said", `<style>rect:hover { fill: red } rect[width] { fill: red } g + rect { fill: red } @media print { rect { fill: red } }</style><style type="text/xsl">rect { fill: red }</style>`,
			`<rect width="1" height="1"/>`, []*Color{{0, 0, 0, 1}}, []string{
				`style: @media is not applied`,
				`style: a rule of selector "g + rect" is not applied: only element names, classes, ids, * and the descendant and child combinators are`,
				`style: a rule of selector "rect:hover" is not applied: only element names, classes, ids, * and the descendant and child combinators are`,
				`style: a rule of selector "rect[width]" is not applied: only element names, classes, ids, * and the descendant and child combinators are`,
				`style: type "text/xsl" is not CSS: not applied`,
			}},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg">`+c.style+c.shapes+`</svg>`), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var fills []*Color
		var walk func([]*Item)
		walk = func(items []*Item) {
			for _, it := range items {
				if it.Kind == Shape {
					fills = append(fills, it.Fill)
				}
				walk(it.Children)
			}
		}
		walk(d.Items)
		if len(fills) != len(c.fills) {
			t.Errorf("%s: %d shapes, want %d", c.name, len(fills), len(c.fills))
			continue
		}
		for i := range fills {
			if (fills[i] == nil) != (c.fills[i] == nil) || fills[i] != nil && *fills[i] != *c.fills[i] {
				t.Errorf("%s: shape %d filled %v, want %v", c.name, i+1, fills[i], c.fills[i])
			}
		}
		var notes []string
		for k := range d.Skipped {
			notes = append(notes, k)
		}
		slices.Sort(notes)
		if !slices.Equal(notes, c.notes) {
			t.Errorf("%s: noted %q, want %q", c.name, notes, c.notes)
		}
	}
}

// TestNotAppliedNamed: what the import does not draw is named whether the file gives it as
// an attribute, in the style attribute or by a stylesheet: a filter (a blur under a mirror,
// as in librsvg's 634324-blur-negative-transform.svg, gave it in style), a blend mode and
// markers (now drawn: a marker that is not there is named), which were drawn without a word.
func TestNotAppliedNamed(t *testing.T) {
	t.Parallel()
	d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><style>.m { marker-end: url(#a) }</style>
		<path d="M0 0 L 1 1" style="filter:url(#f)" transform="matrix(-1 0 0 1 0 0)"/>
		<g style="mix-blend-mode:multiply"><rect width="1" height="1"/></g>
		<rect width="1" height="1" mix-blend-mode="normal"/>
		<g marker-start="url(#a)"><line x2="1" marker-start="none"/><polyline points="0 0 1 1"/><rect width="1" height="1"/></g>
		<path class="m" d="M0 0 L 1 1"/><path d="M0 0 L 1 1" style="marker: url(#a)"/></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range map[string]int{
		"path: filter is not applied":                                            1,
		"g: mix-blend-mode multiply is not applied":                              1,
		"polyline: marker-start url(#a) names no marker of this file: not drawn": 1,
		"path: marker-end url(#a) names no marker of this file: not drawn":       2,
		"path: stroke-linecap butt is drawn round":                               0,
		"rect: mix-blend-mode normal is not applied":                             0,
		"line: marker-start url(#a) names no marker of this file: not drawn":     0,
		"rect: marker-start url(#a) names no marker of this file: not drawn":     0,
	} {
		if d.Skipped[k] != n {
			t.Errorf("noted %q %d times, want %d (%v)", k, d.Skipped[k], n, d.Skipped)
		}
	}
}
