package svg

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/scene/geom"
)

func markerDoc(body string) []byte {
	return []byte(`<svg xmlns="http://www.w3.org/2000/svg">` + body + `</svg>`)
}

// markerItems are the items markers drew, in order, inside groups too.
func markerItems(items []*Item) []*Item {
	var out []*Item
	for _, it := range items {
		if it.Element == "marker" {
			out = append(out, it)
		} else if it.Kind == Group {
			out = append(out, markerItems(it.Children)...)
		}
	}
	return out
}

// TestMarkerVertices: the vertices markers go on and the path's direction at each, as SVG 2
// counts and turns them (angles in degrees, Y down).
func TestMarkerVertices(t *testing.T) {
	t.Parallel()
	type v struct {
		X, Y, Angle float64
		Kind        int
	}
	for _, c := range []struct {
		name, d string
		want    []v
	}{
		{"a line", "M0 0 L10 10", []v{{0, 0, 45, 0}, {10, 10, 45, 2}}},
		{"a corner: the bisector", "M0 0 L10 0 L10 10", []v{{0, 0, 0, 0}, {10, 0, 45, 1}, {10, 10, 90, 2}}},
		{"a closed triangle: its start twice, bisected with the closing side", "M0 0 L10 0 L10 10 Z",
			[]v{{0, 0, -67.5, 0}, {10, 0, 45, 1}, {10, 10, 157.5, 1}, {0, 0, -67.5, 2}}},
		{"two subpaths: each start a mid vertex", "M0 0 L10 0 M20 0 L20 10",
			[]v{{0, 0, 0, 0}, {10, 0, 0, 1}, {20, 0, 90, 1}, {20, 10, 90, 2}}},
		{"a curve: its tangents", "M0 0 C0 10 10 10 10 0", []v{{0, 0, 90, 0}, {10, 0, -90, 2}}},
		{"a segment of no length takes its neighbour's direction", "M0 0 L0 0 L10 0", []v{{0, 0, 0, 0}, {0, 0, 0, 1}, {10, 0, 0, 2}}},
		{"turning back: the in direction turned a quarter", "M0 0 L10 0 L0 0", []v{{0, 0, 0, 0}, {10, 0, 90, 1}, {0, 0, 180, 2}}},
	} {
		p, err := geom.ParsePathData(c.d)
		if err != nil {
			t.Fatal(err)
		}
		var got []v
		for _, x := range vertices(p) {
			got = append(got, v{x.at.X, x.at.Y, x.angle * 180 / math.Pi, x.kind})
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestMarkerPlacement: where each marker's content is placed (its origin, Y up), turned (its
// angle, counter-clockwise) and at what scale, for each orient, markerUnits, viewBox and refX.
func TestMarkerPlacement(t *testing.T) {
	t.Parallel()
	type place struct{ X, Y, Angle, Scale float64 }
	const tri = `<path d="M0 0 L10 5 L0 10 z"/>`
	for _, c := range []struct {
		name, body string
		want       []place
	}{
		{"orient auto at a line's end", `<marker id="m" orient="auto">` + tri + `</marker><line x2="10" y2="10" stroke="black" marker-end="url(#m)"/>`,
			[]place{{10, -10, -45, 1}}},
		{"no orient: upright", `<marker id="m">` + tri + `</marker><line x2="10" y2="10" stroke="black" marker-end="url(#m)"/>`,
			[]place{{10, -10, 0, 1}}},
		{"auto-start-reverse", `<marker id="m" orient="auto-start-reverse">` + tri + `</marker><line x2="10" stroke="black" marker-start="url(#m)" marker-end="url(#m)"/>`,
			[]place{{0, 0, -180, 1}, {10, 0, 0, 1}}},
		{"an angle", `<marker id="m" orient="90">` + tri + `</marker><line x2="10" stroke="black" marker-end="url(#m)"/>`,
			[]place{{10, 0, -90, 1}}},
		{"an angle in turns", `<marker id="m" orient="0.25turn">` + tri + `</marker><line x2="10" stroke="black" marker-end="url(#m)"/>`,
			[]place{{10, 0, -90, 1}}},
		{"scaled by the stroke's width", `<marker id="m">` + tri + `</marker><line x2="10" stroke="black" stroke-width="3" marker-end="url(#m)"/>`,
			[]place{{10, 0, 0, 3}}},
		{"userSpaceOnUse", `<marker id="m" markerUnits="userSpaceOnUse">` + tri + `</marker><line x2="10" stroke="black" stroke-width="3" marker-end="url(#m)"/>`,
			[]place{{10, 0, 0, 1}}},
		{"refX and refY in the viewBox", `<marker id="m" viewBox="0 0 10 10" markerWidth="5" markerHeight="5" refX="10" refY="5" orient="auto">` + tri + `</marker>
			<line x1="0" y1="20" x2="10" y2="20" stroke="black" stroke-width="2" marker-end="url(#m)"/>`,
			[]place{{0, -15, 0, 1}}},
		{"refX as a keyword", `<marker id="m" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="4" refX="center" refY="bottom">` + tri + `</marker>
			<line x2="20" stroke="black" marker-end="url(#m)"/>`,
			[]place{{15, 4, 0, 1}}},
		{"a polyline's mid vertices, bisected", `<marker id="m" orient="auto">` + tri + `</marker><polyline points="0,0 10,0 10,10 20,10" stroke="black" fill="none" marker-mid="url(#m)"/>`,
			[]place{{10, 0, -45, 1}, {10, -10, -45, 1}}},
		{"a transformed path", `<marker id="m" orient="auto">` + tri + `</marker><g transform="translate(5 5) scale(2)"><line x2="10" stroke="black" marker-end="url(#m)"/></g>`,
			[]place{{25, -5, 0, 2}}},
		{"the shorthand in style", `<marker id="m">` + tri + `</marker><line x2="10" stroke="black" style="marker:url(#m)"/>`,
			[]place{{0, 0, 0, 1}, {10, 0, 0, 1}}},
		{"inherited from a group", `<marker id="m">` + tri + `</marker><g marker-end="url(#m)"><line x2="10" stroke="black"/></g>`,
			[]place{{10, 0, 0, 1}}},
		{"none over the inherited", `<marker id="m">` + tri + `</marker><g marker-end="url(#m)"><line x2="10" stroke="black" marker-end="none"/></g>`,
			nil},
	} {
		d, err := Read(markerDoc(c.body), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []place
		for _, it := range markerItems(d.Items) {
			if it.Kind != Use {
				t.Fatalf("%s: a marker drawn as %v, want placed", c.name, it.Kind)
			}
			p := it.Place
			got = append(got, place{p.X, p.Y, p.Angle * 180 / math.Pi, it.Symbol.Scale * p.SX})
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", c.name, diff)
		}
		if len(d.Skipped) > 0 {
			t.Errorf("%s: noted %v", c.name, d.Skipped)
		}
	}
}

// TestMarkerContent: a marker's content is cut to its viewport unless its overflow is
// visible, takes its style from the marker's ancestors, not the path's, is converted once
// however many vertices it marks, and is drawn in place under a skew.
func TestMarkerContent(t *testing.T) {
	t.Parallel()
	const big = `<circle cx="5" cy="5" r="8"/>`
	read := func(body string) *Drawing {
		t.Helper()
		d, err := Read(markerDoc(body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// Cut: its viewport is 10 by 10, the circle 16 across.
	d := read(`<marker id="m" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse">` + big + `</marker><line x2="10" stroke="black" marker-end="url(#m)"/>`)
	if ms := markerItems(d.Items); len(ms) != 1 || len(ms[0].Symbol.Items[0].Clips) != 1 {
		t.Errorf("a marker passing its viewport is not cut to it: %+v", ms)
	}
	for _, ov := range []string{"visible", "auto"} {
		d = read(`<marker id="m" overflow="` + ov + `" markerWidth="10" markerHeight="10" markerUnits="userSpaceOnUse">` + big + `</marker><line x2="10" stroke="black" marker-end="url(#m)"/>`)
		if ms := markerItems(d.Items); len(ms) != 1 || len(ms[0].Symbol.Items[0].Clips) != 0 {
			t.Errorf("overflow %s: a marker is cut: %+v", ov, ms)
		}
	}
	// Style: the path is red and wide; the marker's group green.
	d = read(`<g fill="green" stroke-width="7"><marker id="m" markerUnits="userSpaceOnUse"><rect width="2" height="2" stroke="blue"/></marker></g>
		<line x2="10" stroke="red" fill="red" stroke-width="4" marker-end="url(#m)"/>`)
	ms := markerItems(d.Items)
	if len(ms) != 1 {
		t.Fatalf("%d markers, want 1", len(ms))
	}
	if r := ms[0].Symbol.Items[0]; *r.Fill != (Color{0, 128.0 / 255, 0, 1}) || r.Width != 7 {
		t.Errorf("the marker's content is filled %v and stroked %g wide, want its own group's green and 7", *r.Fill, r.Width)
	}
	// Once converted, placed at each vertex.
	d = read(`<marker id="m" markerUnits="userSpaceOnUse"><circle r="1"/></marker><polyline points="0,0 1,1 2,0 3,1 4,0" stroke="black" marker="none" style="marker:url(#m)"/>`)
	if len(d.Symbols) != 1 || len(markerItems(d.Items)) != 5 || d.Segments != 5 {
		t.Errorf("%d symbols, %d markers, %d segments converted; want 1, 5 and the polyline's 5", len(d.Symbols), len(markerItems(d.Items)), d.Segments)
	}
	// Under a skew the content is drawn in place.
	d = read(`<marker id="m" markerUnits="userSpaceOnUse"><circle r="1"/></marker><g transform="skewX(30)"><line x2="10" stroke="black" marker-end="url(#m)"/></g>`)
	if ms := markerItems(d.Items); len(ms) != 1 || ms[0].Kind != Group || ms[0].Children[0].Prim.Call != "drawBezier" && ms[0].Children[0].Prim.Call != "drawEllipse" {
		t.Errorf("a skewed marker is not drawn in place: %+v", ms)
	}
}

// TestMarkerOpacity: a path's opacity, its own and its groups', is its markers' too, as SVG 2
// draws markers as part of the path; the marker's own opacity and its content's multiply in,
// its ancestors' do not; a marker drawn at two opacities is two functions.
func TestMarkerOpacity(t *testing.T) {
	t.Parallel()
	const sq = `<marker id="m" markerUnits="userSpaceOnUse"><rect width="2" height="2" fill="blue"/></marker>`
	for _, c := range []struct {
		name, body string
		want       []float64 // the alpha of each function's fill, in the order written
	}{
		{"none", sq + `<line x2="10" stroke="red" marker-end="url(#m)"/>`, []float64{1}},
		{"the path's", sq + `<line x2="10" stroke="red" opacity="0.5" marker-end="url(#m)"/>`, []float64{0.5}},
		{"in a style", sq + `<line x2="10" stroke="red" style="opacity:50%" marker-end="url(#m)"/>`, []float64{0.5}},
		{"its group's and its own", sq + `<g opacity="0.5"><line x2="10" stroke="red" opacity="0.5" marker-end="url(#m)"/></g>`, []float64{0.25}},
		{"the marker's own and its content's multiply in", `<marker id="m" markerUnits="userSpaceOnUse" opacity="0.5"><rect width="2" height="2" fill="blue" opacity="0.5"/></marker>` +
			`<line x2="10" stroke="red" opacity="0.5" marker-end="url(#m)"/>`, []float64{0.125}},
		{"the marker's ancestors' does not", `<g opacity="0.5">` + sq + `</g><line x2="10" stroke="red" marker-end="url(#m)"/>`, []float64{1}},
		{"two opacities, two functions", sq + `<line x2="10" stroke="red" opacity="0.5" marker-end="url(#m)"/><line x2="10" stroke="red" opacity="0.5" marker-start="url(#m)"/><line x2="10" stroke="red" marker-end="url(#m)"/>`,
			[]float64{0.5, 1}},
		{"with context paints", `<marker id="m" markerUnits="userSpaceOnUse"><rect width="2" height="2" fill="context-stroke"/></marker>` +
			`<line x2="10" stroke="red" stroke-opacity="0.5" opacity="0.5" marker-end="url(#m)"/>`, []float64{0.25}},
	} {
		d, err := Read(markerDoc(c.body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []float64
		for _, s := range d.Symbols {
			got = append(got, s.Items[0].Fill[3])
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: the functions' fill alphas (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestMarkerVisibility: a path hidden (its own visibility or its group's, hidden or collapse)
// or not displayed draws no markers, even where the marker's content says visible, as librsvg
// and Chromium draw it; a marker's content is hidden or shown by the marker's own ancestors
// and itself, and a marker not displayed, or kept in a group not displayed, is drawn.
func TestMarkerVisibility(t *testing.T) {
	t.Parallel()
	const sq = `<marker id="m" markerUnits="userSpaceOnUse" visibility="visible"><rect width="2" height="2" visibility="visible"/></marker>`
	for _, c := range []struct {
		name, body string
		shapes     int // drawn by the markers
	}{
		{"a path hidden", sq + `<line x2="10" stroke="red" visibility="hidden" marker-start="url(#m)" marker-end="url(#m)"/>`, 0},
		{"collapse, in a style", sq + `<line x2="10" stroke="red" style="visibility:collapse" marker-end="url(#m)"/>`, 0},
		{"a path in a hidden group", sq + `<g visibility="hidden"><line x2="10" stroke="red" marker-end="url(#m)"/></g>`, 0},
		{"a path not displayed", sq + `<line x2="10" stroke="red" display="none" marker-end="url(#m)"/>`, 0},
		{"a path in a group not displayed", sq + `<g display="none"><line x2="10" stroke="red" marker-end="url(#m)"/></g>`, 0},
		{"a visible path in a hidden group", sq + `<g visibility="hidden"><line x2="10" stroke="red" visibility="visible" marker-start="url(#m)" marker-end="url(#m)"/></g>`, 2},
		{"a marker in a hidden group: what says visible", `<g visibility="hidden"><marker id="m" markerUnits="userSpaceOnUse"><rect width="2" height="2"/><circle r="1" visibility="visible"/></marker></g>` +
			`<line x2="10" stroke="red" marker-end="url(#m)"/>`, 1},
		{"a marker not displayed", `<marker id="m" markerUnits="userSpaceOnUse" display="none"><rect width="2" height="2"/></marker><line x2="10" stroke="red" marker-end="url(#m)"/>`, 1},
		{"a marker in a group not displayed", `<g display="none"><marker id="m" markerUnits="userSpaceOnUse"><rect width="2" height="2"/></marker></g><line x2="10" stroke="red" marker-end="url(#m)"/>`, 1},
	} {
		d, err := Read(markerDoc(c.body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, it := range markerItems(d.Items) {
			n += len(it.Symbol.Items)
		}
		if n != c.shapes {
			t.Errorf("%s: the markers drew %d shapes, want %d", c.name, n, c.shapes)
		}
	}
}

// TestMarkerNotThere: a marker missing, not a marker, or drawing itself is left out and
// noted; the marker attribute, which SVG does not read, is noted as ignored.
func TestMarkerNotThere(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, body string
		markers    int
		note       string
	}{
		{"missing", `<line x2="10" stroke="black" marker-end="url(#nope)"/>`, 0,
			"line: marker-end url(#nope) names no marker of this file: not drawn"},
		{"not a marker", `<rect id="r" width="1" height="1"/><line x2="10" stroke="black" marker-end="url(#r)"/>`, 0,
			"line: marker-end url(#r) names no marker of this file: not drawn"},
		{"not a url", `<line x2="10" stroke="black" marker-end="red"/>`, 0,
			"line: marker-end red names no marker of this file: not drawn"},
		{"drawing itself", `<marker id="m" markerUnits="userSpaceOnUse" overflow="visible"><line x2="3" stroke="black" marker-end="url(#m)"/></marker><line x2="10" stroke="black" marker-end="url(#m)"/>`, 1,
			"line: marker #m draws itself (m -> m): not drawn again inside itself"},
		{"the attribute shorthand", `<marker id="m"><circle r="1"/></marker><line x2="10" stroke="black" marker="url(#m)"/>`, 0,
			"line: the marker attribute is ignored, as SVG ignores it: the marker shorthand is a style property, not an attribute"},
	} {
		d, err := Read(markerDoc(c.body), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n := len(markerItems(d.Items)); n != c.markers || d.Skipped[c.note] != 1 {
			t.Errorf("%s: %d markers (want %d), noted %v, want %q", c.name, n, c.markers, d.Skipped, c.note)
		}
	}
}

// TestMarkersBounded: a path of 60,000 vertices (a plot's, within what a module holds) with
// a mid marker draws markers up to MaxMarkerDrawn and notes the rest, not a hang or a
// refusal of the drawing; one of a million vertices is refused with the path's own limits
// before a marker is placed.
func TestMarkersBounded(t *testing.T) {
	t.Parallel()
	path := func(n int) string {
		var b strings.Builder
		b.WriteString(`<marker id="m" markerUnits="userSpaceOnUse"><circle r="1"/></marker><path fill="none" stroke="black" marker-mid="url(#m)" d="M0 0`)
		for i := range n {
			fmt.Fprintf(&b, " L%d %d", i%10, i/10%2)
		}
		b.WriteString(`"/>`)
		return b.String()
	}
	const n = 60_000
	for _, c := range []struct {
		lim     Limits
		markers int
	}{
		{Limits{}, DefaultLimits.MaxMarkerDrawn / 2}, // each a placement and its circle
		{Limits{MaxMarkerDrawn: 10}, 5},
	} {
		d, err := Read(markerDoc(path(n)), Options{Limits: c.lim})
		if err != nil {
			t.Fatal(err)
		}
		lim := c.lim.orDefault().MaxMarkerDrawn
		note := fmt.Sprintf("path: %d markers are not drawn: the drawing's markers come to over %d shapes and groups (MaxMarkerDrawn)", n-1-c.markers, lim)
		if got := len(markerItems(d.Items)); got != c.markers || d.Skipped[note] != 1 {
			t.Errorf("MaxMarkerDrawn %d: %d markers drawn, want %d; noted %v, want %q", lim, got, c.markers, d.Skipped, note)
		}
	}
	_, err := Read(markerDoc(path(1_000_000)), Options{})
	if want := "line 1: over a limit: the path data is 5000004 bytes, over the 1048576-byte limit on one path (MaxPathBytes)"; err == nil || err.Error() != want {
		t.Errorf("a million vertices: %v, want %q", err, want)
	}
}

// TestStrokeOnViewportEdge: a square outline along its viewport's edge, in a symbol or a
// marker whose frame is worked out through the viewBox's inverse (and comes out a rounding
// short of the outline), is drawn whole and noted, as in a nested <svg>; it was cut to the
// one side the rounding left inside.
func TestStrokeOnViewportEdge(t *testing.T) {
	t.Parallel()
	const note = "rect: a stroke within half its width of a clip's edge is drawn whole, where SVG cuts its band at the edge"
	for _, body := range []string{
		`<symbol id="s" viewBox="0 0 20 20"><rect width="20" height="20" fill="none" stroke="black" stroke-width="4"/></symbol><use href="#s" x="262" y="52" width="16" height="16"/>`,
		`<g fill="none" stroke="black" stroke-width="4"><marker id="m" viewBox="0 0 20 20" markerWidth="4" markerHeight="4" refX="10" refY="10"><rect width="20" height="20"/></marker>
			<path marker-start="url(#m)" d="M 270 60 L 320 60"/></g>`,
	} {
		d, err := Read(markerDoc(body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Symbols) != 1 || d.Symbols[0].Items[0].Prim.Call != "drawRect" || d.Skipped[note] != 1 {
			t.Errorf("%s: drawn as %+v, noted %v; want the whole square and %q", body, d.Symbols[0].Items[0].Prim, d.Skipped, note)
		}
	}
}

// TestMarkerContextPaints: context-fill and context-stroke in a marker's content take the
// paints of the path it is drawn for, with their opacities: one function for each pair of paints, shared by the
// paths with the same; none where the path's paint is none, with a gradient noted as the
// path's own is; a marker without them stays one function whatever the paths.
func TestMarkerContextPaints(t *testing.T) {
	t.Parallel()
	red, blue, green := Color{1, 0, 0, 1}, Color{0, 0, 1, 1}, Color{0, 128.0 / 255, 0, 1}
	const arrow = `<marker id="m" markerUnits="userSpaceOnUse" orient="auto" overflow="visible"><path d="M0 0 L4 2 L0 4 z" fill="context-stroke" stroke="context-fill"/></marker>`
	for _, c := range []struct {
		name, body string
		// want are the fill and stroke of each function's path, in the order written.
		want  [][2]*Color
		marks int
		note  string
	}{
		{"a red and a blue line: two functions, each of its colour", arrow +
			`<line x2="10" stroke="red" fill="green" marker-end="url(#m)"/><line y1="5" x2="10" y2="5" stroke="blue" fill="none" marker-end="url(#m)"/>`,
			[][2]*Color{{&red, &green}, {&blue, nil}}, 2, ""},
		{"the same paints share a function", arrow +
			`<line x2="10" stroke="red" marker-end="url(#m)"/><polyline points="0,5 10,5" stroke="red" marker-start="url(#m)"/>`,
			[][2]*Color{{&red, {0, 0, 0, 1}}}, 2, ""},
		{"context-fill of a path filled blue, inherited by the marker's group", `<marker id="m" markerUnits="userSpaceOnUse"><g fill="context-fill"><rect width="2" height="2"/></g></marker>` +
			`<path d="M0 0 L10 0 L10 10 z" fill="blue" stroke="red" marker-start="url(#m)"/>`,
			[][2]*Color{{&blue, nil}}, 1, ""},
		{"the path's stroke-opacity and fill-opacity go with its paints", arrow +
			`<line x2="10" stroke="red" stroke-opacity="0.5" fill="blue" fill-opacity="0.25" marker-end="url(#m)"/>`,
			[][2]*Color{{{1, 0, 0, 0.5}, {0, 0, 1, 0.25}}}, 1, ""},
		{"a path of no paints: the marker's none", arrow +
			`<path d="M0 0 L10 0" fill="none" stroke="none" marker-end="url(#m)"/>`,
			[][2]*Color{{nil, nil}}, 1, ""},
		{"a gradient stroke: none, noted", arrow + `<linearGradient id="g"/>` +
			`<line x2="10" stroke="url(#g)" fill="red" stroke-width="2" marker-end="url(#m)"/>`,
			[][2]*Color{{nil, &red}}, 1, "path: a gradient or pattern fill is drawn as none (or its fallback colour)"},
		{"no context paints: one function for every path", `<marker id="m" markerUnits="userSpaceOnUse"><circle r="1"/></marker>` +
			`<line x2="10" stroke="red" marker-end="url(#m)"/><line x2="10" stroke="blue" marker-end="url(#m)"/>`,
			[][2]*Color{{{0, 0, 0, 1}, nil}}, 2, ""},
	} {
		d, err := Read(markerDoc(c.body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]*Color
		for _, s := range d.Symbols {
			it := s.Items[0]
			for it.Kind == Group {
				it = it.Children[0]
			}
			got = append(got, [2]*Color{it.Fill, it.Stroke})
		}
		if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: the functions' paints (-want +got):\n%s", c.name, diff)
		}
		if n := len(markerItems(d.Items)); n != c.marks {
			t.Errorf("%s: %d markers drawn, want %d", c.name, n, c.marks)
		}
		for k := range d.Skipped {
			if strings.Contains(k, "context") {
				t.Errorf("%s: noted %q", c.name, k)
			}
		}
		if c.note != "" && d.Skipped[c.note] == 0 {
			t.Errorf("%s: noted %v, want %q", c.name, d.Skipped, c.note)
		}
	}
	// Outside a marker and a <use>'s content, they stay none and noted.
	d, err := Read(markerDoc(`<g fill="red"><rect width="2" height="2" fill="context-fill"/></g>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Skipped["rect: fill context-fill is drawn as none: context paints are not followed"] != 1 {
		t.Errorf("a context-fill outside a marker and a <use>: noted %v", d.Skipped)
	}
}

// TestUseContextPaints: context-fill and context-stroke in what a <use> shows take the
// <use>'s own fill and stroke, as SVG 2 makes it their context element: colours only, the
// content's fill-opacity and stroke-opacity (the use's, inherited, unless it gives its own)
// applying once; through a symbol, a group and a nested <use>, which is the context of its
// own content; none where the use's paint is none, nothing noted.
func TestUseContextPaints(t *testing.T) {
	t.Parallel()
	red, blue, green, black := Color{1, 0, 0, 1}, Color{0, 0, 1, 1}, Color{0, 128.0 / 255, 0, 1}, Color{0, 0, 0, 1}
	const dot = `<defs><circle id="c" r="2" fill="context-fill" stroke="context-stroke"/></defs>`
	for _, c := range []struct {
		name, body string
		want       [][2]*Color // each shape's fill and stroke, in the order drawn
	}{
		{"the use's paints", dot + `<use href="#c" fill="red" stroke="blue"/>`, [][2]*Color{{&red, &blue}}},
		{"inherited by the use", dot + `<g fill="blue" stroke="red"><use href="#c"/></g>`, [][2]*Color{{&blue, &red}}},
		{"a use of no stroke: the stroke none; of no fill, black", dot + `<use href="#c"/>`, [][2]*Color{{&black, nil}}},
		{"two uses of two colours", dot + `<use href="#c" fill="red"/><use href="#c" fill="green"/>`, [][2]*Color{{&red, nil}, {&green, nil}}},
		{"the use's opacities once", dot + `<use href="#c" fill="red" fill-opacity="0.5" stroke="blue" stroke-opacity="0.25"/>`,
			[][2]*Color{{{1, 0, 0, 0.5}, {0, 0, 1, 0.25}}}},
		{"the content's own opacity over the use's", `<defs><rect id="r" width="2" height="2" fill="context-fill" fill-opacity="1"/></defs><use href="#r" fill="red" fill-opacity="0.5"/>`,
			[][2]*Color{{&red, nil}}},
		{"through a symbol and its group", `<symbol id="s"><g fill="context-stroke" stroke="none"><rect width="2" height="2"/></g></symbol><use href="#s" stroke="blue"/>`,
			[][2]*Color{{&blue, nil}}},
		{"a nested use is its content's context", dot + `<defs><g id="n"><use href="#c" fill="context-stroke" stroke="green"/></g></defs><use href="#n" stroke="red" fill="blue"/>`,
			[][2]*Color{{&red, &green}}},
		{"currentColor on the use", dot + `<use href="#c" color="blue" fill="currentColor"/>`, [][2]*Color{{&blue, nil}}},
	} {
		d, err := Read(markerDoc(c.body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]*Color
		var walk func(items []*Item)
		walk = func(items []*Item) {
			for _, it := range items {
				switch it.Kind {
				case Shape:
					got = append(got, [2]*Color{it.Fill, it.Stroke})
				case Group:
					walk(it.Children)
				case Use:
					walk(it.Symbol.Items)
				}
			}
		}
		walk(d.Items)
		if diff := cmp.Diff(c.want, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
			t.Errorf("%s: the shapes' paints (-want +got):\n%s", c.name, diff)
		}
		for k := range d.Skipped {
			t.Errorf("%s: noted %q", c.name, k)
		}
	}
}
