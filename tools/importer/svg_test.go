package importer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/internal/inkcheck"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// read imports a drawing as every entry point does: its format found by Format, read by
// Import.
func read(name string, data []byte, opt Options) (string, *Report, error) {
	f, err := Format("", name, data)
	if err != nil {
		return "", nil, err
	}
	return Import(f, data, opt)
}

// svgRun imports an SVG file and runs the module as main.
func svgRun(t *testing.T, data string, opt Options) (*scene.Scene, *Report, string) {
	t.Helper()
	code, rep, err := read("test.svg", []byte(data), opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Format != "svg" {
		t.Fatalf("read as %s", rep.Format)
	}
	res, err := runtime.Run(context.Background(), importedSource(code), runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatalf("running the imported module: %v\n%s", err, code)
	}
	return res.Scene, rep, code
}

func doc(body string) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape">` + body + `</svg>`
}

func box(x0, y0, x1, y1 float64) geom.Box {
	return geom.Box{Min: geom.Vec{X: x0, Y: y0}, Max: geom.Vec{X: x1, Y: y1}, NonEmpty: true}
}

func boxOff(a, b geom.Box) float64 {
	return math.Max(math.Max(math.Abs(a.Min.X-b.Min.X), math.Abs(a.Min.Y-b.Min.Y)), math.Max(math.Abs(a.Max.X-b.Max.X), math.Abs(a.Max.Y-b.Max.Y)))
}

// TestSVGElements imports one element at a time and checks the call it became and its
// world bounds (Y up: the file's y negated).
func TestSVGElements(t *testing.T) {
	t.Parallel()
	s8 := math.Sqrt(8)
	for _, c := range []struct {
		name, body, call string
		want             geom.Box
	}{
		{"rect", `<rect x="10" y="20" width="30" height="10"/>`, "drawRect('rect1', 25, -25, 30, 10);", box(10, -30, 40, -20)},
		{"rounded rect", `<rect x="0" y="0" width="30" height="10" rx="2"/>`, "drawRoundedRect('rect1', 15, -5, 30, 10, 2);", box(0, -10, 30, 0)},
		{"rect rx ry", `<rect width="30" height="10" rx="4" ry="2"/>`, "drawBezier('rect1', 'M 4 0 L 26 0 A 4 2 0 0 0 30 -2", box(0, -10, 30, 0)},
		{"circle", `<circle cx="5" cy="5" r="2"/>`, "drawCircle('circle1', 5, -5, 2);", box(3, -7, 7, -3)},
		{"ellipse", `<ellipse cx="5" cy="5" rx="4" ry="2"/>`, "drawEllipse('ellipse1', 5, -5, 4, 2);", box(1, -7, 9, -3)},
		{"line", `<line x1="0" y1="0" x2="10" y2="5" stroke="black"/>`, "drawLine('line1', [0, 0, 10, -5]);", box(0, -5, 10, 0)},
		{"polyline", `<polyline points="0,0 10,5 20,0" fill="none" stroke="black"/>`, "drawLine('polyline1', [0, 0, 10, -5, 20, 0]);", box(0, -5, 20, 0)},
		// SVG's initial fill, black, fills a polyline as if closed.
		{"polyline filled", `<polyline points="0,0 10,5 20,0"/>`, "drawBezier('polyline1', 'M 0 0 L 10 -5 L 20 0');\nsetFill('polyline1', [0, 0, 0, 1]);", box(0, -5, 20, 0)},
		{"polygon", `<polygon points="0 0 10 0 5 8"/>`, "drawPolygon('polygon1', [0, 0, 10, 0, 5, -8]);", box(0, -8, 10, 0)},
		{"path relative", `<path d="m0 0 h10 v10 h-10 z"/>`, "drawPolygon('path1', [0, 0, 10, 0, 10, -10, 0, -10]);", box(0, -10, 10, 0)},
		{"path straight open", `<path d="M0 0 L10 0 L10 10" fill="none" stroke="black"/>`, "drawLine('path1', [0, 0, 10, 0, 10, -10]);", box(0, -10, 10, 0)},
		{"path curves", `<path d="M0 0 C0 10 10 10 10 0 S20 -10 20 0 Q25 10 30 0 T40 0"/>`, "drawBezier('path1', 'M 0 0 C 0 -10 10 -10 10 0 C 10 10 20 10 20 0 Q 25 -10 30 0 Q 35 10 40 0');", box(0, -7.5, 40, 7.5)},
		{"path arc", `<path d="M0 0 A5 5 0 0 1 10 0"/>`, "drawBezier('path1', 'M 0 0 A 5 5 0 0 0 10 0');", box(0, 0, 10, 5)},
		{"translate", `<rect width="2" height="2" transform="translate(10 20)"/>`, "drawRect('rect1', 11, -21, 2, 2);", box(10, -22, 12, -20)},
		{"scale", `<circle r="2" transform="scale(3)"/>`, "drawCircle('circle1', 0, 0, 6);", box(-6, -6, 6, 6)},
		{"scale xy", `<circle r="2" transform="scale(3 1)"/>`, "drawEllipse('circle1', 0, 0, 6, 2);", box(-6, -2, 6, 2)},
		{"rotate about", `<rect x="0" y="0" width="2" height="2" transform="rotate(90 1 1)"/>`, "drawRect('rect1', 1, -1, 2, 2);", box(0, -2, 2, 0)},
		{"rotate 45", `<rect x="-1" y="-1" width="2" height="2" transform="rotate(45)"/>`, "drawPolygon('rect1', [0, 1.41421356237, 1.41421356237", box(-math.Sqrt2, -math.Sqrt2, math.Sqrt2, math.Sqrt2)},
		{"skewX", `<rect width="2" height="2" transform="skewX(45)"/>`, "drawPolygon('rect1', [0, 0, 2, 0, 4, -2, 2, -2]);", box(0, -2, 4, 0)},
		{"skewY", `<line x2="2" stroke="red" transform="skewY(45)"/>`, "drawLine('line1', [0, 0, 2, -2]);", box(0, -2, 2, 0)},
		{"matrix", `<circle r="1" transform="matrix(2 0 0 2 5 5)"/>`, "drawCircle('circle1', 5, -5, 2);", box(3, -7, 7, -3)},
		{"group transform", `<g transform="translate(10)"><g transform="rotate(45)"><circle r="2" cx="2" cy="2"/></g></g>`, "drawCircle('circle1', 10, -2.82842712475, 2);", box(8, -s8-2, 12, -s8+2)},
		{"text", `<text x="5" y="10" font-size="4" text-anchor="middle" fill="red">Hi <tspan>there</tspan></text>`, "drawText('text1', 'Hi there', 5, -10, 4, {align: 'center'});\nsetFill('text1', [1, 0, 0, 1]);", geom.Box{}},
		{"text rotated", `<text x="0" y="0" font-size="2" transform="rotate(-90)">A</text>`, "setPivot('text1', 0, 0);\nrotate('text1', 90 * deg);", geom.Box{}},
		{"fill named", `<rect width="1" height="1" fill="navy" stroke="#f80" stroke-width="2"/>`, "setFill('rect1', [0, 0, 0.502, 1]);\nsetStroke('rect1', [1, 0.533, 0, 1], 2, {join: 'miter'});", box(0, -1, 1, 0)},
		{"style attribute", `<rect width="1" height="1" fill="red" style="fill:rgb(0,255,0);stroke:none;opacity:0.5"/>`, "setFill('rect1', [0, 1, 0, 0.5]);\nsetStroke('rect1', null);", box(0, -1, 1, 0)},
		{"inherited style", `<g style="stroke:blue;stroke-width:3" fill="none"><circle r="1"/></g>`, "setStroke('circle1', [0, 0, 1, 1], 3);\ncreateGroup('g1', ['circle1']);", box(-1, -1, 1, 1)},
		{"group label", `<g id="layer1" inkscape:label="Walls &amp; doors"><circle r="1"/></g>`, "createGroup('Walls___doors', ['circle1']);", box(-1, -1, 1, 1)},
		{"display none", `<circle r="1"/><circle r="5" style="display:none"/><g display="none"><rect width="9" height="9"/></g>`, "drawCircle('circle1', 0, 0, 1);", box(-1, -1, 1, 1)},
		{"use symbol", `<defs><symbol id="s" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1"/></symbol></defs><use href="#s" x="10" y="0" width="4" height="4"/><use xlink:href="#s" x="20" width="4" height="4"/>`,
			"function symbolS(name) {\n  drawCircle(name + '-1', 2, -2, 2);", box(10, -4, 24, 0)},
		{"use skewed", `<defs><circle id="c" r="1"/></defs><use href="#c" transform="skewX(45)"/>`, "drawBezier('c',", box(-math.Sqrt2, -1, math.Sqrt2, 1)},
	} {
		s, _, code := svgRun(t, doc(c.body), Options{})
		// The calls are inside the exported function, a level in.
		if !strings.Contains(strings.ReplaceAll(code, "\n  ", "\n"), c.call) {
			t.Errorf("%s: the module lacks %q:\n%s", c.name, c.call, code)
			continue
		}
		if c.want.NonEmpty {
			if got := s.Bounds(); boxOff(got, c.want) > 1e-9 {
				t.Errorf("%s: bounds %v, want %v\n%s", c.name, got, c.want, code)
			}
		}
	}
}

// TestSVGUseScales: a symbol is written once and placed at every scale its <use>s give it,
// nested uses too; its stroke widths, which a group's scale leaves alone, are multiplied by
// the factor each placement passes, so that each comes out as the file scales it.
func TestSVGUseScales(t *testing.T) {
	t.Parallel()
	s, rep, code := svgRun(t, doc(`<defs><g id="s"><circle r="1" stroke="red" stroke-width="0.5" fill="none"/></g>
		<g id="t"><use href="#s" transform="scale(3)"/><rect width="1" height="1" stroke="blue" stroke-width="0.25"/></g></defs>
		<use href="#s"/><use href="#s" transform="translate(10 0) scale(2)"/>
		<use href="#t" transform="translate(20 0) scale(0.5)"/><use href="#t" transform="translate(30 0) rotate(90) scale(4)"/>`), Options{})
	if rep.Blocks != 2 || strings.Count(code, "function symbol") != 2 {
		t.Errorf("%d symbols written, want 2 (one for #s, one for #t)\n%s", rep.Blocks, code)
	}
	for _, c := range []struct {
		name  string
		want  geom.Box
		width float64
	}{
		{"use1-1-1", box(-1, -1, 1, 1), 0.5},
		{"use2-1-1", box(8, -2, 12, 2), 1},
		{"use3-1-1-1-1", box(18.5, -1.5, 21.5, 1.5), 0.75},
		{"use3-1-2", box(20, -0.5, 20.5, 0), 0.125},
		{"use4-1-1-1-1", box(18, -12, 42, 12), 6},
		{"use4-1-2", box(26, -4, 30, 0), 1},
	} {
		e, err := s.Get(c.name)
		if err != nil {
			t.Errorf("%v\n%s", err, code)
			continue
		}
		if got := s.WorldBounds(e); boxOff(got, c.want) > 1e-9 {
			t.Errorf("%s: bounds %v, want %v", c.name, got, c.want)
		}
		if got := s.Drawn(e).Style.StrokeWidth; math.Abs(got-c.width) > 1e-9 {
			t.Errorf("%s: stroke width %g, want %g", c.name, got, c.width)
		}
	}
}

// TestSVGUnits: a drawing with a size is in -units (px at 96 to the inch); one without is in
// its own user units.
func TestSVGUnits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		attrs, units string
		want         float64 // the circle's radius
	}{
		{`width="100mm" height="100mm" viewBox="0 0 10 10"`, "", 100},
		{`width="10cm" height="10cm" viewBox="0 0 10 10"`, "cm", 10},
		{`width="1in" height="1in" viewBox="0 0 10 10"`, "pt", 72},
		{`width="96" height="96"`, "in", 10.0 / 96}, // no viewBox: a user unit is a px
		{`width="960px" height="96px" viewBox="0 0 10 10" preserveAspectRatio="none"`, "px", 96},
		{`viewBox="0 0 10 10"`, "mm", 10}, // no size: user units
	} {
		_, rep, code := svgRun(t, `<svg xmlns="http://www.w3.org/2000/svg" `+c.attrs+`><circle r="1" transform="scale(10)"/></svg>`, Options{Units: c.units})
		want := "drawCircle('circle1', 0, 0, " + svg.Num(c.want) + ");"
		if c.attrs == `width="960px" height="96px" viewBox="0 0 10 10" preserveAspectRatio="none"` {
			want = "drawEllipse('circle1', 0, 0, 960, 96);"
		}
		if !strings.Contains(code, want) {
			t.Errorf("%s -units %q (%s): want %q in\n%s", c.attrs, c.units, rep.Units, want, code)
		}
	}
}

// TestSVGSkipped: what cadrun cannot draw is counted with the reason.
func TestSVGSkipped(t *testing.T) {
	t.Parallel()
	_, rep, _ := svgRun(t, doc(`<style>rect:hover{fill:red}</style><image href="a.png" width="5" height="5"/>
		<rect width="1" height="1" fill="url(#g)" filter="url(#f)"/><circle r="2" style="display:none"/>
		<path d="M0 0 L1 1 L0 1 Z" fill-rule="evenodd"/>`), Options{})
	for _, k := range []string{
		`style: a rule of selector "rect:hover" is not applied: only element names, classes, ids, * and the descendant and child combinators are`,
		"image: raster images are not imported",
		"rect: a gradient or pattern fill is drawn as none (or its fallback colour)",
		"rect: filter is not applied",
		"circle: display:none",
		"path: fill-rule:evenodd is drawn with cadrun's nonzero rule",
	} {
		if rep.Skipped[k] != 1 {
			t.Errorf("skipped %q: %d, want 1 (%v)", k, rep.Skipped[k], rep.Skipped)
		}
	}
}

// TestSVGRefusals: malformed and hostile files are refused with the line or the limit.
func TestSVGRefusals(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("<g>", 70) + strings.Repeat("</g>", 70)
	laughs := `<?xml version="1.0"?>
<!DOCTYPE svg [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>`
	lim := svg.Limits{MaxElements: 50, MaxPathBytes: 1000, MaxPathSegments: 100}
	for _, c := range []struct{ name, file, want string }{
		{"truncated", "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<g>\n<rect width=\"1\"", "line 3: malformed SVG: unexpected EOF"},
		{"mismatched", "<svg>\n<g>\n</svg>", "line 3: malformed SVG: element <g> closed by </svg>"},
		{"not svg", "<html/>", "line 1: malformed SVG: the root element is not <svg>"},
		{"entities", laughs, "line 2: the file's DOCTYPE declares entities"},
		{"undeclared entity", doc("<text>&foo;</text>"), "malformed SVG: invalid character entity &foo;"},
		{"deep", doc(deep), "elements nest over 64 deep (MaxDepth)"},
		{"many", doc(strings.Repeat("<g/>", 60)), "the file has over 50 elements (MaxElements)"},
		{"path bytes", doc(`<path d="M0 0` + strings.Repeat(" L1 1", 300) + `"/>`), "over the 1000-byte limit on one path (MaxPathBytes)"},
		{"path commands", doc(`<path d="M0 0` + strings.Repeat("L1 1", 150) + `"/>`), "the path has 151 commands, over the 100-segment limit on one path (MaxPathSegments)"},
		{"self use", doc("\n<g id=\"a\"><use href=\"#a\"/></g>"), "line 2: cannot import: <use> of #a uses itself (a -> a)"},
		{"use cycle", doc(`<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>`), "<use> of #a uses itself (a -> b -> a)"},
		{"use bomb", doc(`<defs><g id="a"><circle r="1"/><circle r="1"/></g>` + useBomb(14) + `</defs><use href="#a14"/>`), "once its <use> elements are expanded (MaxDrawn)"},
		{"units", doc(`<rect width="1" height="1"/>`), `unknown units "furlong"`},
	} {
		opt := Options{SVGLimits: lim}
		if c.name == "deep" || c.name == "use bomb" {
			opt.SVGLimits = svg.Limits{MaxDrawn: 1000}
		}
		if c.name == "units" {
			opt.Units = "furlong"
		}
		_, _, err := read("x.svg", []byte(c.file), opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	if _, _, err := SVG(make([]byte, 100), Options{SVGLimits: svg.Limits{MaxBytes: 10}}); !errors.Is(err, svg.ErrLimit) || !strings.Contains(err.Error(), "MaxBytes") {
		t.Errorf("size: %v", err)
	}
}

// useBomb defines a1..an, each using the one before twice.
func useBomb(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		prev := "a"
		if i > 1 {
			prev = fmt.Sprintf("a%d", i-1)
		}
		fmt.Fprintf(&b, `<g id="a%d"><use href="#%s"/><use href="#%s" transform="skewX(%d)"/></g>`, i, prev, prev, i)
	}
	return b.String()
}

// TestSVGExamplesRoundTrip renders every example workspace to SVG with cadrun's own writer,
// imports it and compares: a shape for each path the SVG holds (text comes back as the path
// of its outlines, a hatch as the path of its lines, as the SVG has them) and the same world bounds within 1e-6 of the size, the
// quantum the SVG writer rounds its numbers to being far finer than that.
func TestSVGExamplesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range examples.Workspaces() {
		src, err := examples.Workspace(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Scene.HasSolids() {
			continue // a part made of solids has no drawing to go round; render checks its STL and 3MF
		}
		b, err := render.SVG(res.Scene, render.SVGOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s, _, code := svgRun(t, string(b), Options{})
		if got, want := shapes(s), svgPaths(res.Scene); got != want {
			t.Errorf("%s: %d shapes, want %d", name, got, want)
		}
		want, got := res.Scene.Bounds(), s.Bounds()
		size := math.Max(want.Max.X-want.Min.X, want.Max.Y-want.Min.Y)
		if d := boxOff(got, want); d > 1e-6*size {
			t.Errorf("%s: bounds %v, want %v (off by %g)\n%.2000s", name, got, want, d, code)
		}
	}
}

// shapes counts a scene's entities other than groups.
func shapes(s *scene.Scene) int {
	n := 0
	for _, e := range s.Walk() {
		if e.Kind() != scene.KindGroup {
			n++
		}
	}
	return n
}

// svgPaths is the number of paths cadrun's SVG writer draws a scene with: one a shape, and
// one more for a hatch (a second path over the shape, data-hatch).
func svgPaths(s *scene.Scene) int {
	n := 0
	for _, e := range s.Walk() {
		if e.Kind() != scene.KindGroup {
			n++
			if s.Drawn(e).Style.Hatch != "" {
				n++
			}
		}
	}
	return n
}

// TestSVGMatchesLibrsvg imports a hand-written SVG with every element kind but text and
// compares cadrun's picture of the imported scene with librsvg's picture of the file: every
// ink pixel of one is matched in the other within two pixels.
func TestSVGMatchesLibrsvg(t *testing.T) {
	t.Parallel()
	if rep := matchesLibrsvg(t, "every-element.svg"); rep.Blocks != 1 || rep.Kinds["use"] != 3 {
		t.Errorf("report %+v", rep)
	}
}

// TestSVGDrawnAsSVG compares librsvg's picture of a file of what SVG draws otherwise than a
// first reading does (issue 37: dashes, a symbol sized by its viewport, slice, hsl(), lone
// moves, a stroke of width 0, a malformed path and transform) with cadrun's.
func TestSVGDrawnAsSVG(t *testing.T) {
	t.Parallel()
	matchesLibrsvg(t, "drawn-as-svg.svg")
}

// notesNothing fails the test for each thing the import noted it could not draw as the file
// says.
func notesNothing(t *testing.T, rep *Report) {
	t.Helper()
	for k := range rep.Skipped {
		t.Errorf("noted %q", k)
	}
}

// matchesLibrsvg imports testdata/name, 200 by 160 user units, and compares cadrun's picture
// of it with librsvg's at 4 pixels a unit.
func matchesLibrsvg(t *testing.T, name string) *Report {
	t.Helper()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	file := filepath.Join("testdata", name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, rep, code := svgRun(t, string(data), Options{})
	const w, h = 800, 640 // the viewBox, 200 by 160, at 4 pixels a unit
	out, err := exec.Command(bin, "-w", "800", "-h", "640", "-b", "white", file).Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	theirs := image.NewRGBA(img.Bounds())
	for y := range h {
		for x := range w {
			theirs.Set(x, y, img.At(x, y))
		}
	}
	ours, err := render.Raster(s, render.PNGOptions{Width: w, Height: h, View: &render.View{Min: geom.Vec{X: 0, Y: -160}, Max: geom.Vec{X: 200, Y: 0}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := inkcheck.Agrees(ours, theirs, 2, false); err != nil {
		t.Errorf("librsvg's picture and cadrun's disagree: %v\n%s", err, code)
		if dir := os.Getenv("CADRUN_REVIEW_DIR"); dir != "" {
			var a, b bytes.Buffer
			_ = png.Encode(&a, ours)
			_ = png.Encode(&b, theirs)
			base := strings.TrimSuffix(name, ".svg")
			_ = os.WriteFile(filepath.Join(dir, base+"-ours.png"), a.Bytes(), 0o644)
			_ = os.WriteFile(filepath.Join(dir, base+"-librsvg.png"), b.Bytes(), 0o644)
		}
	}
	return rep
}

// TestSVGDashes: a dash array is drawn as cadrun's linetype of the same rhythm and period,
// exactly when it is one of cadrun's patterns at some scale, else noted as the nearest; an
// offset is noted; a symbol's dashes scale with each placement, as its widths do.
func TestSVGDashes(t *testing.T) {
	t.Parallel()
	s, rep, code := svgRun(t, doc(`<line x2="100" stroke="black" stroke-dasharray="6 3"/>
		<line x2="100" stroke="black" stroke-dasharray="3,1.5" transform="scale(2)"/>
		<line x2="100" stroke="black" stroke-dasharray="5 2 1 2" stroke-dashoffset="1"/>
		<line x2="100" stroke="black" stroke-dasharray="none"/>
		<defs><line id="l" x2="10" stroke="red" stroke-dasharray="2 1"/></defs>
		<use href="#l"/><use href="#l" transform="scale(3)"/>`), Options{})
	for _, c := range []struct {
		name, linetype string
		scale          float64
	}{
		{"line1", "dashed", 1},
		{"line2", "dashed", 1},
		{"line3", "center", 10.0 / 24},
		{"line4", "", 0},
		{"use1-1", "dashed", 1.0 / 3},
		{"use2-1", "dashed", 1},
	} {
		e, err := s.Get(c.name)
		if err != nil {
			t.Fatalf("%v\n%s", err, code)
		}
		st := s.Drawn(e).Style
		if st.Linetype != c.linetype || math.Abs(st.LinetypeScale-c.scale) > 1e-9 && c.linetype != "" && !(c.scale == 1 && st.LinetypeScale == 0) {
			t.Errorf("%s: linetype %q at %g, want %q at %g\n%s", c.name, st.Linetype, st.LinetypeScale, c.linetype, c.scale, code)
		}
	}
	for _, k := range []string{
		"line: stroke-dasharray 5,2,1,2 is not one of cadrun's linetypes: drawn as its nearest, center, with the same period",
		"line: stroke-dashoffset is not applied: cadrun's dashes start at each subpath's start",
	} {
		if rep.Skipped[k] != 1 {
			t.Errorf("skipped %q: %d, want 1 (%v)", k, rep.Skipped[k], rep.Skipped)
		}
	}
}

// TestSVGCapsAndJoins: a file of butt and square caps and miter and bevel joins (SVG's
// initial ones among them) imports with nothing noted, its strokes set to them, and draws as
// librsvg draws it.
func TestSVGCapsAndJoins(t *testing.T) {
	t.Parallel()
	rep := matchesLibrsvg(t, "caps-and-joins.svg")
	if len(rep.Skipped) != 0 || len(rep.Notes) != 0 {
		t.Errorf("noted %v %v, want nothing", rep.Skipped, rep.Notes)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "caps-and-joins.svg"))
	if err != nil {
		t.Fatal(err)
	}
	s, _, code := svgRun(t, string(data), Options{})
	type corners struct {
		Cap, Join string
		Limit     float64
	}
	var got []corners
	for _, e := range s.Walk() {
		if !e.IsGroup() {
			got = append(got, corners{e.Style.Cap, e.Style.Join, e.Style.MiterLimit})
		}
	}
	want := []corners{{"butt", "miter", 0}, {"butt", "bevel", 0}, {"butt", "miter", 2}, {"butt", "", 0}, {"square", "", 0}, {"", "miter", 0}, {"", "", 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("strokes mismatch (-want +got):\n%s\n%s", diff, code)
	}
}

// TestSVGPolylineFillAsSVG: a polyline's fill is drawn as SVG draws it, the polyline closed
// for its inside and open for its stroke; a line's fill and fill rule draw nothing, and are
// not noted.
func TestSVGPolylineFillAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "polyline_fill.svg"))
}
