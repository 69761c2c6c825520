package svg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// usesAtScales is the shape of a file that once took the importer tens of seconds and
// gigabytes: one path of n segments and uses of it, each at a scale of its own.
func usesAtScales(n, uses int) []byte {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg"><defs><path id="p" d="M0 0`)
	for i := range n {
		fmt.Fprintf(&b, " L%d.%02d %d", i%1000, i%97, (i*7)%1000)
	}
	b.WriteString(`"/></defs>`)
	for i := range uses {
		fmt.Fprintf(&b, "\n"+`<use href="#p" transform="scale(%g)"/>`, 1+float64(i)/100000)
	}
	b.WriteString("</svg>")
	return []byte(b.String())
}

// TestUseScalesOneSymbol: a symbol placed at many scales is converted once and placed by
// each <use> with its scale, instead of converted (and written) again for each scale.
func TestUseScalesOneSymbol(t *testing.T) {
	t.Parallel()
	d, err := Read(usesAtScales(1000, 200), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Symbols) != 1 {
		t.Fatalf("%d symbols for one path used at 200 scales, want 1", len(d.Symbols))
	}
	if d.Segments != 1001 {
		t.Errorf("%d segments converted, want the path's 1,001 once", d.Segments)
	}
	if n := len(d.Symbols[0].Items[0].Prim.Path); d.ShapeBytes != n {
		t.Errorf("%d bytes of shapes written, want the path's %d once", d.ShapeBytes, n)
	}
}

// TestConversionBudgets: what cannot be placed by a group's transform (a skewed <use>, a
// symbol under another style) is converted again for each <use>; the segments converted count
// against MaxSegments and the text written against MaxShapeBytes, refused at the <use> that
// passes them.
func TestConversionBudgets(t *testing.T) {
	t.Parallel()
	path := `<path id="p" d="M0 0` + strings.Repeat(" L1 2", 99) + `"/>` // 100 segments, 698 bytes written unskewed
	uses := func(attr string) string {
		var b strings.Builder
		for i := range 30 {
			fmt.Fprintf(&b, "\n<use href=\"#p\" %s/>", fmt.Sprintf(attr, i+1))
		}
		return b.String()
	}
	const (
		segs      = "line 12: over a limit: the drawing's paths come to over 1000 segments converted, more than a module can hold (MaxSegments)"
		bytes     = ": over a limit: the shapes' path data, points and text come to over 2000 bytes, more than a module may hold (MaxShapeBytes)"
		inUse     = " (<path> at line 1, drawn for the <use> of #p); a symbol is converted once for each style"
		splitting = "; split the drawing into a few files"
	)
	segments, text := Limits{MaxSegments: 1000}, Limits{MaxShapeBytes: 2000}
	for _, c := range []struct {
		name, body string
		lim        Limits
		want       string
	}{
		{"scales", "<defs>" + path + "</defs>" + uses(`transform="scale(%d)"`), segments, ""},
		{"scales' text", "<defs>" + path + "</defs>" + uses(`transform="scale(%d)"`), text, ""},
		{"skews", "<defs>" + path + "</defs>" + uses(`transform="skewX(%d)"`), segments, segs + inUse},
		{"styles", "<defs>" + path + "</defs>" + uses(`fill="#%02x0000"`), segments, segs + inUse},
		{"paths", strings.Repeat("\n"+path, 11), segments, segs + splitting},
		{"polylines", strings.Repeat("\n<polyline points=\""+strings.Repeat("0 0 ", 100)+"\"/>", 11), segments, segs + splitting},
		{"skews' text", "<defs>" + path + "</defs>" + uses(`transform="skewX(%d)"`), text, "line 3" + bytes + inUse},
		{"styles' text", "<defs>" + path + "</defs>" + uses(`fill="#%02x0000"`), text, "line 4" + bytes + inUse},
		{"text", strings.Repeat("\n<text>"+strings.Repeat("x", 600)+"</text>", 4), text, "line 5" + bytes + splitting},
	} {
		file := `<svg xmlns="http://www.w3.org/2000/svg">` + c.body + "</svg>"
		_, err := Read([]byte(file), Options{Limits: c.lim})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, ErrLimit) || !strings.Contains(fmt.Sprint(err), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// firstShape is the first shape of a drawing, depth first, a symbol's content included.
func firstShape(items []*Item) *Item {
	for _, it := range items {
		switch it.Kind {
		case Shape:
			return it
		case Group:
			if s := firstShape(it.Children); s != nil {
				return s
			}
		case Use:
			if s := firstShape(it.Symbol.Items); s != nil {
				return s
			}
		}
	}
	return nil
}

// TestViewports: a viewBox is fitted into its viewport by preserveAspectRatio (slice covers
// it, meet fits in it, the alignment places it), a symbol's and a nested <svg>'s size is
// 100% of the viewport they are in unless given, and what passes a viewport that SVG cuts
// off is cut (TestSVGViewportClips measures what is left).
func TestViewports(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, file string
		x, y, r    float64 // the circle as drawn, with its placement applied
		cut        bool
	}{
		{"symbol at 100%", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><symbol id="s" viewBox="0 0 20 20"><circle cx="10" cy="10" r="10"/></symbol><use href="#s"/></svg>`,
			100, -100, 100, false},
		{"symbol shifted", `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="s" viewBox="10 10 20 20"><circle cx="20" cy="20" r="10"/></symbol><use href="#s" width="40" height="40"/></svg>`,
			20, -20, 20, false},
		{"symbol xMinYMin", `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="s" viewBox="0 0 10 10" preserveAspectRatio="xMinYMin"><circle cx="5" cy="5" r="5"/></symbol><use href="#s" width="40" height="20"/></svg>`,
			10, -10, 10, false},
		{"nested slice", `<svg xmlns="http://www.w3.org/2000/svg"><svg width="100" height="50" viewBox="0 0 10 10" preserveAspectRatio="xMidYMid slice"><circle cx="5" cy="5" r="5"/></svg></svg>`,
			50, -25, 50, true},
		{"nested xMaxYMax meet", `<svg xmlns="http://www.w3.org/2000/svg"><svg x="10" width="100" height="50" viewBox="0 0 10 10" preserveAspectRatio="xMaxYMax"><circle cx="5" cy="5" r="5"/></svg></svg>`,
			85, -25, 25, false},
		{"nested at 100%", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><svg viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"/></svg></svg>`,
			20, -20, 20, false},
		{"nested overflow visible", `<svg xmlns="http://www.w3.org/2000/svg"><svg width="10" height="10" overflow="visible"><circle cx="20" cy="5" r="5"/></svg></svg>`,
			20, -5, 5, false},
		{"percentages", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><circle cx="50%" cy="50%" r="10"/></svg>`,
			100, -50, 10, false},
	} {
		d, err := Read([]byte(c.file), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		it := firstShape(d.Items)
		if it == nil {
			t.Errorf("%s: nothing drawn", c.name)
			continue
		}
		p := it.Prim
		k, x, y := 1.0, p.X, p.Y
		if len(d.Items) > 0 && d.Items[0].Kind == Use {
			pl := d.Items[0].Place
			k, x, y = pl.SX, pl.X+pl.SX*p.X, pl.Y+pl.SY*p.Y
		}
		if p.Call != "drawCircle" || math.Abs(x-c.x) > 1e-9 || math.Abs(y-c.y) > 1e-9 || math.Abs(k*p.R-c.r) > 1e-9 {
			t.Errorf("%s: %s at (%g, %g) radius %g, want a circle at (%g, %g) radius %g", c.name, p.Call, x, y, k*p.R, c.x, c.y, c.r)
		}
		if got := len(it.Clips) > 0; got != c.cut {
			t.Errorf("%s: cut %v, want %v", c.name, got, c.cut)
		}
		if len(d.Skipped) > 0 {
			t.Errorf("%s: noted %v", c.name, d.Skipped)
		}
	}
}

// TestRootSlice: the root's slice scales the drawing to cover its page, noted as not cut.
func TestRootSlice(t *testing.T) {
	t.Parallel()
	d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 10 10" preserveAspectRatio="xMidYMid slice"><circle r="1"/></svg>`), Options{Units: "px"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Scale != 10 || d.Items[0].Prim.R != 10 {
		t.Errorf("scale %g, radius %g: want 10 and 10", d.Scale, d.Items[0].Prim.R)
	}
	if d.Skipped["svg: preserveAspectRatio slice: the drawing is scaled to cover its page, as SVG does, but not cut to it"] != 1 {
		t.Errorf("noted %v", d.Skipped)
	}
}

// TestTransformOrigin: transform-origin is the point the transform is about, as an
// attribute or in style, in lengths, percentages of the viewport or keywords.
func TestTransformOrigin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		origin string
		x, y   float64 // the centre of a 10 by 10 square at (10, 10) turned a half turn
	}{
		{`transform-origin="15 15"`, 15, -15},
		{`style="transform-origin: 10px 10px"`, 5, -5},
		{`transform-origin="center"`, 35, -35},       // the viewport's centre, (25, 25)
		{`transform-origin="50% 0%"`, 35, 15},        // (25, 0)
		{`transform-origin="right bottom"`, 85, -85}, // (50, 50)
		{`transform-origin="top"`, 35, 15},           // (25, 0)
		{``, -15, 15},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 50"><rect x="10" y="10" width="10" height="10" transform="rotate(180)" `+c.origin+`/></svg>`), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p := d.Items[0].Prim; math.Abs(p.X-c.x) > 1e-9 || math.Abs(p.Y-c.y) > 1e-9 {
			t.Errorf("%s: centre (%g, %g), want (%g, %g)", c.origin, p.X, p.Y, c.x, c.y)
		}
	}
}

// TestLoneMoves: a move no segment follows draws nothing, as in SVG, not a dot.
func TestLoneMoves(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ d, want string }{
		{"M 30 40 M 50 60", ""},
		{"M 30 40 M 50 60 L 60 60", "M 50 -60 L 60 -60"},
		{"M 0 0 L 1 0 M 5 5", "M 0 0 L 1 0"},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><path stroke="black" d="`+c.d+`"/></svg>`), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(d.Items) > 0 {
			got = d.Items[0].Prim.Path
		}
		if got != c.want {
			t.Errorf("%s: drawn %q, want %q", c.d, got, c.want)
		}
	}
}

// TestColors: every colour form SVG and CSS give (hsl() among them); a value that is none
// of them is ignored, as SVG ignores it, so the inherited paint is drawn, and noted.
func TestColors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fill string
		want Color
	}{
		{"#0F0", Color{0, 1, 0, 1}},
		{"#abc", Color{0xaa / 255.0, 0xbb / 255.0, 0xcc / 255.0, 1}},
		{"#0f08", Color{0, 1, 0, 0x88 / 255.0}},
		{"rgb(0 255 0 / 50%)", Color{0, 1, 0, 0.5}},
		{"hsl(120, 100%, 50%)", Color{0, 1, 0, 1}},
		{"hsl(0deg 100% 25%)", Color{0.5, 0, 0, 1}},
		{"hsla(240, 100%, 50%, 0.5)", Color{0, 0, 1, 0.5}},
		{"hsl(0.5turn, 100%, 75%)", Color{0.5, 1, 1, 1}},
		{"hsl(60, 0%, 40%)", Color{0.4, 0.4, 0.4, 1}},
		{"#CD853F icc-color(acmecmyk, 0.11, 0.48, 0.83, 0.00)", Color{0xcd / 255.0, 0x85 / 255.0, 0x3f / 255.0, 1}},
		{"CurrentColor", Color{1, 0, 0, 1}},
		{"#ff", Color{0, 0, 1, 1}}, // not a colour: the group's blue
		{"context-fill", Color{}},  // none (and noted, as a paint not drawn)
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" color="red"><g fill="blue"><rect width="1" height="1" fill="`+c.fill+`"/></g></svg>`), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := d.Items[0].Children[0].Fill
		if got == nil && c.want == (Color{}) {
			continue
		}
		if got == nil {
			t.Errorf("%s: no fill, want %v", c.fill, c.want)
			continue
		}
		off := 0.0
		for i := range got {
			off = math.Max(off, math.Abs(got[i]-c.want[i]))
		}
		if off > 1e-9 {
			t.Errorf("%s: %v, want %v", c.fill, got, c.want)
		}
	}
	d, _ := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" fill="#ff"/><rect width="1" height="1" stroke="context-stroke"/></svg>`), Options{})
	for _, k := range []string{`rect: fill "#ff" is not a paint: ignored, as SVG ignores it`, "rect: stroke context-stroke is drawn as none: context paints are not followed"} {
		if d.Skipped[k] != 1 {
			t.Errorf("noted %v, want %q", d.Skipped, k)
		}
	}
}

// TestStrokePercentages: a percentage in stroke-width and stroke-dasharray is of the
// viewport's diagonal over the square root of 2, as SVG takes it.
func TestStrokePercentages(t *testing.T) {
	t.Parallel()
	d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><circle r="70" fill="none" stroke="green" stroke-width="10%" stroke-dasharray="3% 1.5%"/></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if it := d.Items[0]; math.Abs(it.Width-20) > 1e-9 || it.Linetype != "dashed" || math.Abs(it.LinetypeScale-1) > 1e-9 {
		t.Errorf("width %g, %q at %g: want 20, dashed at 1", it.Width, it.Linetype, it.LinetypeScale)
	}
}

// TestDrawsNothing: what SVG draws nothing of is not drawn: a stroke of width 0 (not a
// hairline), a viewport of no size, and a root with display none.
func TestDrawsNothing(t *testing.T) {
	t.Parallel()
	d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" stroke="red" stroke-width="0"/><g stroke="red" stroke-width="0"><line x2="5" stroke-width="1"/><line x2="5"/></g></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Items[0].Stroke; s != nil {
		t.Errorf("a stroke of width 0 drawn %v, want none", s)
	}
	if g := d.Items[1]; len(g.Children) != 2 || g.Children[0].Stroke == nil || g.Children[1].Stroke != nil {
		t.Errorf("lines of width 1 and 0 (inherited): want the first stroked, the second not")
	}
	d, err = Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><svg width="0" height="10"><rect width="1" height="1"/></svg><svg width="10" height="10" viewBox="0 0 1 1"><use href="#s" height="0"/></svg><symbol id="s" viewBox="0 0 1 1"><rect width="1" height="1"/></symbol></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Items) != 0 {
		t.Errorf("viewports of no size: %d items drawn, want none", len(d.Items))
	}
	d, err = Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" display="none"><rect width="1" height="1"/></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Items) != 0 || d.Skipped["svg: display:none on the root: the file draws nothing"] != 1 {
		t.Errorf("a root with display none: %d items, noted %v", len(d.Items), d.Skipped)
	}
}

// TestCapsAndJoins: a stroke keeps the file's caps and joins (SVG's butt and miter unless
// given) where the shape has ends or corners to show them, with nothing noted; only SVG 2's
// miter-clip and arcs, drawn as miters, are.
func TestCapsAndJoins(t *testing.T) {
	t.Parallel()
	type corners struct {
		Cap, Join string
		Limit     float64
	}
	for _, c := range []struct {
		shape string
		want  corners
		notes []string
	}{
		{`<line x2="10"/>`, corners{Cap: "butt"}, nil},
		{`<line x2="10" stroke-linecap="round"/>`, corners{}, nil},
		{`<polyline points="0 0 10 0 10 10" style="stroke-linecap:square"/>`, corners{"square", "miter", 0}, nil},
		{`<polyline points="0 0 10 0 10 10" stroke-miterlimit="2" stroke-linecap="round"/>`, corners{"", "miter", 2}, nil},
		{`<polyline points="0 0 10 0 10 10" stroke-miterlimit="4" stroke-linejoin="bevel"/>`, corners{"butt", "bevel", 0}, nil},
		{`<polyline points="0 0 10 0 10 10" stroke-miterlimit="0.5"/>`, corners{"butt", "miter", 0}, nil}, // SVG ignores a limit below 1
		{`<polyline points="0 0 10 0 10 10" stroke-miterlimit="1e6"/>`, corners{"butt", "miter", 100}, []string{"polyline: stroke-miterlimit over 100 is drawn 100 (MaxMiterLimit)"}},
		{`<rect width="10" height="10" stroke-linejoin="bevel"/>`, corners{Join: "bevel"}, nil},
		{`<rect width="10" height="10" stroke-linejoin="round"/>`, corners{}, nil},
		{`<rect width="10" height="10" stroke-linejoin="arcs"/>`, corners{Join: "miter"}, []string{"rect: stroke-linejoin arcs is drawn miter"}},
		{`<rect width="10" height="10" stroke-linecap="square"/>`, corners{Join: "miter"}, nil},
		{`<circle r="5"/>`, corners{}, nil},
		{`<rect width="10" height="10" rx="5"/>`, corners{}, nil},
		{`<path d="M0 0 C 5 5 10 5 15 0 S 25 -5 30 0"/>`, corners{Cap: "butt"}, nil},
		{`<path d="M0 0 A 5 5 0 0 1 10 0 A 5 5 0 0 1 0 0 Z"/>`, corners{}, nil},
		{`<path d="M0 0 L 10 0" stroke-width="0.0"/>`, corners{}, nil},
		{`<path d="M0 0 L 10 0" vector-effect="non-scaling-stroke"/>`, corners{}, nil},
		{`<circle r="5" stroke-dasharray="0 3"/>`, corners{Cap: "butt"}, nil}, // SVG draws no dots, nor does cadrun
		{`<circle r="5" stroke-dasharray="0 3" stroke-linecap="round"/>`, corners{}, nil},
		{`<path d="M 10 10 L 10 10"/>`, corners{Cap: "butt"}, nil}, // SVG draws nothing, nor does cadrun
		{`<path d="M 10 10 Z" stroke-linecap="square"/>`, corners{Cap: "square"}, nil},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><g stroke="black" stroke-width="2" fill="none">`+c.shape+`</g></svg>`), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range d.Skipped {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.notes) {
			t.Errorf("%s: noted %q, want %q", c.shape, got, c.notes)
		}
		var it *Item
		for _, g := range d.Items {
			for it = g; len(it.Children) > 0; it = it.Children[0] {
			}
		}
		if it == nil {
			if c.want != (corners{}) {
				t.Errorf("%s: nothing drawn", c.shape)
			}
			continue
		}
		if got := (corners{it.Cap, it.Join, it.MiterLimit}); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.shape, got, c.want)
		}
	}
}

// TestPaintOrderNoted: a stroke painted under its fill (SVG 2's paint-order), which cadrun
// paints over it, is named, where it was drawn wrong with nothing said once caps and joins
// were drawn and no longer noted (librsvg's reftests/svg2/paint-order.svg).
func TestPaintOrderNoted(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shape string
		n     int
	}{
		{`<rect width="10" height="10" fill="white" paint-order="stroke fill"/>`, 1},
		{`<g paint-order="stroke"><circle r="5" fill="white"/></g>`, 1},
		{`<rect width="10" height="10" fill="white" paint-order="markers fill"/>`, 0},
		{`<rect width="10" height="10" fill="white" paint-order="normal"/>`, 0},
		{`<rect width="10" height="10" fill="none" paint-order="stroke"/>`, 0},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><g stroke="black" stroke-width="2">`+c.shape+`</g></svg>`), Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for k, v := range d.Skipped {
			if strings.Contains(k, "paint-order stroke before fill is drawn fill, then stroke") {
				n += v
			}
		}
		if n != c.n {
			t.Errorf("%s: noted %d times, want %d (%v)", c.shape, n, c.n, d.Skipped)
		}
	}
}

// TestMalformedAttributes: one malformed attribute no longer refuses the file: a path and a
// point list are drawn up to their first error, as SVG draws them, a transform SVG cannot
// read is ignored as SVG ignores it, and each is noted.
func TestMalformedAttributes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shape, drawn, note string
	}{
		{`<path d="M0 0 L10 0 L10 10 X 5"/>`, "M 0 0 L 10 0 L 10 -10", `path: malformed d (line 1: path data at offset 18: unknown command 'X'`},
		{`<path d="M0 0 L10 0 L10"/>`, "M 0 0 L 10 0", `path: malformed d (line 1: path data at offset `},
		{`<path d="L 10 0"/>`, "", `path: malformed d (line 1: path data at offset 0: expected "M" or "m"`},
		{`<path d=""/>`, "", "path: empty path data"},
		{`<polyline points="0 0 10 0 10 10 x 5" fill="none" stroke="black"/>`, "[{0 0} {10 0} {10 -10}]", `polyline: malformed points (line 1: "x" is not a number): drawn up to the error, as SVG draws them`},
		{`<rect width="2" height="2" transform="translate(10 10) spin(3)"/>`, "(1, -1)", `rect: malformed transform (line 1: transform "translate(10 10) spin(3)": unknown transform "spin"`},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg">`+c.shape+`</svg>`), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.shape, err)
			continue
		}
		got := ""
		if len(d.Items) > 0 {
			switch p := d.Items[0].Prim; p.Call {
			case "drawBezier":
				got = p.Path
			case "drawLine", "drawPolygon":
				got = fmt.Sprint(p.Points)
			default:
				got = fmt.Sprintf("(%g, %g)", p.X, p.Y)
			}
		}
		if got != c.drawn {
			t.Errorf("%s: drawn %q, want %q", c.shape, got, c.drawn)
		}
		noted := false
		for k := range d.Skipped {
			noted = noted || strings.HasPrefix(k, c.note)
		}
		if !noted {
			t.Errorf("%s: noted %v, want %q...", c.shape, d.Skipped, c.note)
		}
	}
}

// TestDashBudget: dashes that would pass the scene's MaxDashSegments are drawn solid and
// noted, so that the module does not fail when it runs; a <use> that would pass it by placing
// a dashed symbol again is refused, naming the limit.
func TestDashBudget(t *testing.T) {
	t.Parallel()
	d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><line x2="6000" stroke="black" stroke-dasharray="0.01"/></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if it := d.Items[0]; it.Linetype != "" || d.Skipped["line: a dashed stroke is drawn solid: the drawing's dashes would pass the scene's 200000 (MaxDashSegments)"] != 1 {
		t.Errorf("linetype %q, noted %v", it.Linetype, d.Skipped)
	}
	_, err = Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><defs><line id="l" x2="1000" stroke="black" stroke-dasharray="0.01"/></defs>
<use href="#l"/><use href="#l"/><use href="#l"/><use href="#l"/><use href="#l"/></svg>`), Options{})
	if want := "line 2: cannot import: the drawing's dashed strokes make over 200000 dashes and dots once its <use> elements are expanded (MaxDashSegments)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestSymbolViewportCut: a symbol's viewport (its <use>'s size, else 100%) cuts off what
// its content draws past it, with or without a viewBox, placed or skewed; a placement whose
// viewport holds the symbol's content places it uncut.
func TestSymbolViewportCut(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		use string
		cut []bool // by <use>
	}{
		{`<use href="#s" width="100" height="100"/>`, []bool{true}},
		{`<use href="#s" width="200" height="200"/>`, []bool{false}},
		{`<use href="#s"/>`, []bool{false}}, // 100% of the 200 by 200 viewport
		{`<use href="#s" width="100" height="100" transform="skewX(20)"/>`, []bool{true}},
		{`<use href="#s" transform="translate(50 50)"/><use href="#s" width="100" height="100"/>`, []bool{false, true}},
		{`<use href="#s" style="overflow:visible" width="100" height="100"/>`, []bool{true}}, // the symbol's overflow counts, not the use's
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><symbol id="s"><rect x="20" y="20" width="160" height="160"/></symbol>`+c.use+`</svg>`), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []bool
		for _, it := range d.Items {
			got = append(got, hasClips([]*Item{it}))
		}
		if !slices.Equal(got, c.cut) || len(d.Skipped) > 0 {
			t.Errorf("%s: cut %v, want %v (noted %v)", c.use, got, c.cut, d.Skipped)
		}
	}
	d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><symbol id="s" overflow="visible"><rect x="20" y="20" width="160" height="160"/></symbol><use href="#s" width="100" height="100"/></svg>`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if hasClips(d.Items) || len(d.Symbols) != 1 {
		t.Errorf("overflow visible: cut, or %d symbols", len(d.Symbols))
	}
}

// hasClips tells whether any shape of items, or of the symbols they place, is cut.
func hasClips(items []*Item) bool {
	for _, it := range items {
		if len(it.Clips) > 0 || hasClips(it.Children) || it.Symbol != nil && hasClips(it.Symbol.Items) {
			return true
		}
	}
	return false
}
