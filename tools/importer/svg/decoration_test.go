package svg

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// TestTextDecorationLines: the lines of underline, overline and line-through lie where the
// font puts them (DejaVu Sans: its post table's underline, top 40 units of 2048 under the
// baseline and 90 thick; its OS/2 strikeout, top 530 above and 102 thick; an overline at its
// ascent, 1901, as thick as the underline), span the run's advance wherever its anchor puts
// it, turn with it, and are painted under the text (underline, overline) or over it
// (line-through), in its paint.
func TestTextDecorationLines(t *testing.T) {
	t.Parallel()
	const em = 2048.0
	hi, err := text.MeasureString("Hi", 10, "sans")
	if err != nil {
		t.Fatal(err)
	}
	w := hi.Width
	rect := func(x0, top, thick float64) Prim { // a line's rectangle at size 10, baseline y = -20
		top, thick = top/em*10, thick/em*10
		return Prim{Call: "drawRect", X: x0 + w/2, Y: -20 + top - thick/2, W: w, H: thick}
	}
	for _, c := range []struct {
		name, body string
		want       []Prim // the group's members, in order; the text as Prim{Call: "drawText"}
	}{
		{"underline", `<text x="10" y="20" font-size="10" text-decoration="underline">Hi</text>`,
			[]Prim{rect(10, -40, 90), {Call: "drawText"}}},
		{"overline", `<text x="10" y="20" font-size="10" text-decoration="overline">Hi</text>`,
			[]Prim{rect(10, 1901, 90), {Call: "drawText"}}},
		{"line-through, over the text", `<text x="10" y="20" font-size="10" style="text-decoration: line-through">Hi</text>`,
			[]Prim{{Call: "drawText"}, rect(10, 530, 102)}},
		{"all three", `<text x="10" y="20" font-size="10" text-decoration="line-through overline underline">Hi</text>`,
			[]Prim{rect(10, -40, 90), rect(10, 1901, 90), {Call: "drawText"}, rect(10, 530, 102)}},
		{"anchored at the middle", `<text x="10" y="20" font-size="10" text-anchor="middle" text-decoration="underline">Hi</text>`,
			[]Prim{rect(10-w/2, -40, 90), {Call: "drawText"}}},
		{"anchored at the end", `<text x="10" y="20" font-size="10" text-anchor="end" text-decoration="underline">Hi</text>`,
			[]Prim{rect(10-w, -40, 90), {Call: "drawText"}}},
		{"scaled", `<text x="5" y="10" font-size="5" transform="scale(2)" text-decoration="underline">Hi</text>`,
			[]Prim{rect(10, -40, 90), {Call: "drawText"}}},
	} {
		d, err := Read(textDoc(c.body), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(d.Items) != 1 || d.Items[0].Kind != Group {
			t.Fatalf("%s: %d items, want a group", c.name, len(d.Items))
		}
		var got []Prim
		for _, it := range d.Items[0].Children {
			if it.Fill == nil || *it.Fill != (Color{0, 0, 0, 1}) {
				t.Errorf("%s: %s filled %v, want the text's black", c.name, it.Prim.Call, it.Fill)
			}
			p := it.Prim
			if p.Call == "drawText" {
				p = Prim{Call: "drawText"}
			}
			got = append(got, p)
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", c.name, diff)
		}
		if len(d.Skipped) > 0 {
			t.Errorf("%s: noted %v", c.name, d.Skipped)
		}
	}
}

// TestTextDecorationTurned: a turned text's underline is its rectangle turned with it about
// the text's start.
func TestTextDecorationTurned(t *testing.T) {
	t.Parallel()
	d, err := Read(textDoc(`<text font-size="10" transform="rotate(-90)" text-decoration="underline">Hi</text>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	hi, _ := text.MeasureString("Hi", 10, "sans")
	top, thick := -40.0/2048*10, 90.0/2048*10
	// Turned a quarter counter-clockwise (Y up): x along the text is y, y across it is -x.
	want := []geom.Vec{{X: -(top - thick), Y: 0}, {X: -(top - thick), Y: hi.Width}, {X: -top, Y: hi.Width}, {X: -top, Y: 0}}
	got := d.Items[0].Children[0].Prim
	if diff := cmp.Diff(want, got.Points, cmpopts.EquateApprox(0, 1e-9)); got.Call != "drawPolygon" || diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", got.Call, diff)
	}
}

// TestTextDecorationSpans: a tspan's decoration is its run's alone, a text's reaches its
// tspans, a group's is not the text's (SVG applies text-decoration to text content
// elements), and what is not drawn is noted: a style or colour in the value, and lines under
// a clip.
func TestTextDecorationSpans(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, body string
		lines      int
		note       string
	}{
		{"a tspan", `<text font-size="10">A <tspan text-decoration="underline">b</tspan> c</text>`, 1, ""},
		{"a text over its tspans", `<text font-size="10" text-decoration="underline">A <tspan fill="red">b</tspan> c</text>`, 3, ""},
		{"none under a decorated text", `<text font-size="10" text-decoration="underline">A <tspan text-decoration="none">b</tspan></text>`, 1, ""},
		{"a group's", `<g text-decoration="underline"><text font-size="10">A</text></g>`, 0, ""},
		{"a style and colour", `<text font-size="10" text-decoration="underline wavy red">A</text>`, 1,
			"text: text-decoration underline wavy red: its style and colour are not applied: drawn as solid lines of the text's paint"},
		{"under a clip", `<clipPath id="c"><rect width="100" height="100"/></clipPath><text y="50" font-size="10" clip-path="url(#c)" text-decoration="underline">A</text>`, 0,
			"text: text-decoration under a clip is not drawn"},
	} {
		d, err := Read(textDoc(c.body), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		lines := 0
		var walk func([]*Item)
		walk = func(items []*Item) {
			for _, it := range items {
				if it.Element == "text-decoration" {
					lines++
				}
				walk(it.Children)
			}
		}
		walk(d.Items)
		if lines != c.lines {
			t.Errorf("%s: %d lines, want %d", c.name, lines, c.lines)
		}
		if c.note != "" && d.Skipped[c.note] != 1 || c.note == "" && len(d.Skipped) > 0 {
			t.Errorf("%s: noted %v, want %q", c.name, d.Skipped, c.note)
		}
	}
}

// textDoc is a file of body, its texts in DejaVu Sans, cadrun's sans.
func textDoc(body string) []byte {
	return []byte(`<svg xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans">` + body + `</svg>`)
}
