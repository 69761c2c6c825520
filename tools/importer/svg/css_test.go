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
