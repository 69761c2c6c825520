package importer

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestSVGTextPlacement places texts as SVG does (x, y, dx, dy, their lists, text-anchor,
// font-size in units, em and percentages, transforms, tspans with positions and sizes of
// their own, white space) and compares where their glyphs stand with where librsvg draws
// them: the sides of the ink's box, within a tenth of an em and 3% of the width, room for
// the two renderers' hinting (both draw DejaVu Sans, cadrun's sans and the system's
// sans-serif; with another, the anchors and baselines still hold, the far sides less).
func TestSVGTextPlacement(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	cases := []struct {
		name, body string
		em         float64 // the largest font size, in user units
	}{
		{"start", `<text x="20" y="50" font-size="20">HEH</text>`, 20},
		{"middle", `<text x="100" y="50" font-size="20" text-anchor="middle">HEH</text>`, 20},
		{"end", `<text x="180" y="50" font-size="20" text-anchor="end">HEH</text>`, 20},
		{"dx dy", `<text x="20" y="50" dx="10" dy="-5" font-size="20">HEH</text>`, 20},
		{"tspan x y", `<text x="20" y="30" font-size="16">HE<tspan x="50" y="70">EH</tspan></text>`, 16},
		{"tspan dx dy", `<text x="20" y="50" font-size="16">HE<tspan dx="10" dy="10">EH</tspan>HE</text>`, 16},
		{"tspan font-size", `<text x="20" y="50" font-size="16">HE<tspan font-size="30">EH</tspan>HH</text>`, 30},
		{"tspan anchored", `<text x="100" y="30" font-size="16">H<tspan x="100" y="70" text-anchor="end">EHE</tspan></text>`, 16},
		{"middle of runs", `<text x="100" y="50" text-anchor="middle" font-size="16">HE<tspan font-size="24">HE</tspan>H</text>`, 24},
		{"font-size pt", `<text x="20" y="50" font-size="15pt">HEH</text>`, 20},
		{"font-size em", `<g font-size="10"><text x="20" y="50" font-size="2em">HEH</text></g>`, 20},
		{"font-size percent", `<g font-size="10"><text x="20" y="50" font-size="250%">HEH</text></g>`, 25},
		{"x in em", `<text x="2em" y="4em" font-size="10">HEH</text>`, 10},
		{"x in percent", `<text x="10%" y="50" font-size="20">HEH</text>`, 20},
		{"rotated", `<text x="50" y="50" font-size="20" transform="rotate(30 50 50)">HEH</text>`, 20},
		{"scaled", `<text x="10" y="20" font-size="10" transform="translate(10 10) scale(2)">HEH</text>`, 20},
		{"white space", `<text x="180" y="50" font-size="16" text-anchor="end">
			H   E
			H  </text>`, 16},
		{"white space across tspans", `<text x="20" y="50" font-size="16"> H <tspan> E</tspan>   <tspan>H </tspan> </text>`, 16},
		{"newline dropped", "<text x=\"20\" y=\"50\" font-size=\"16\">HE\nH</text>", 16},
		{"preserved", `<text x="180" y="50" font-size="16" text-anchor="end" xml:space="preserve">  H  E  </text>`, 16},
	}
	// One file of the cases, each in a band 100 units high, read by librsvg once.
	var body strings.Builder
	for i, c := range cases {
		fmt.Fprintf(&body, "<g id=\"case%d\" transform=\"translate(0 %d)\">%s</g>\n", i, 100*i, c.body)
	}
	file := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 %d" width="200" height="%d"><g font-family="sans-serif">%s</g></svg>`,
		100*len(cases), 100*len(cases), body.String())
	path := filepath.Join(t.TempDir(), "texts.svg")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	const k = 4 // pixels a user unit
	out, err := exec.Command(bin, "-w", "800", "-h", fmt.Sprint(400*len(cases)), "-b", "white", path).Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	s, rep, code := svgRun(t, file, Options{Units: "px"})
	for i, c := range cases {
		band := image.Rect(0, 400*i, 800, 400*(i+1))
		theirs, ok := inkBox(img, band, k)
		if !ok {
			t.Fatalf("%s: librsvg drew nothing", c.name)
		}
		g, err := s.Get(fmt.Sprintf("case%d", i))
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, code)
		}
		ours := s.WorldBounds(g) // of its texts: the glyphs' outlines
		if !ours.NonEmpty {
			t.Errorf("%s: no text drawn\n%s", c.name, code)
			continue
		}
		// The import's Y is up: the file's y is negated.
		ours.Min.Y, ours.Max.Y = -ours.Max.Y, -ours.Min.Y
		tol := 0.1*c.em + 0.03*(theirs.Max.X-theirs.Min.X) + 1.0/k
		if d := boxOff(ours, theirs); d > tol {
			t.Errorf("%s: the glyphs' box is %s, librsvg's %s (off by %.2f, more than %.2f; notes %v)", c.name, boxText(ours), boxText(theirs), d, tol, rep.Skipped)
		}
	}
	if len(rep.Skipped) > 0 {
		t.Errorf("noted %v", rep.Skipped)
	}
}

// inkBox is the box of an image's dark pixels in user units at k pixels a unit.
func inkBox(img image.Image, r image.Rectangle, k float64) (geom.Box, bool) {
	var b geom.Box
	rgba := image.NewRGBA(r)
	draw.Draw(rgba, r, img, r.Min, draw.Src)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgba.Pix[rgba.PixOffset(x, y)] < 0x80 {
				b.Extend(geom.Vec{X: float64(x) / k, Y: float64(y) / k})
				b.Extend(geom.Vec{X: float64(x+1) / k, Y: float64(y+1) / k})
			}
		}
	}
	return b, b.NonEmpty
}

func boxText(b geom.Box) string {
	return fmt.Sprintf("(%.2f, %.2f)-(%.2f, %.2f)", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)
}

// TestSVGTextPositions pins what librsvg 2.54 does not draw (it takes the first of a list of
// positions, and puts every text on its alphabetic baseline): a position for each character
// from the x, y and dx lists, as SVG, browsers and resvg place them, and dominant-baseline
// and alignment-baseline in the font's metrics (DejaVu Sans: ascent 0.928 em, descent 0.236,
// x-height 0.547).
func TestSVGTextPositions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, body, want string }{
		{"x list", `<text x="20 60 100" y="50" font-size="20">HEHH</text>`,
			"drawText('text2', 'H', 20, -50, 20);\ndrawText('text3', 'E', 60, -50, 20);\ndrawText('text4', 'HH', 100, -50, 20);"},
		{"y list", `<text x="20" y="30 40 50" font-size="20">HEH</text>`,
			"drawText('text2', 'H', 20, -30, 20);\ndrawText('text3', 'E', 35.0390625, -40, 20);\ndrawText('text4', 'H', 47.67578125, -50, 20);"},
		{"dx list", `<text x="20" y="50" dx="0 10 20" font-size="20">HEH</text>`,
			"drawText('text2', 'H', 20, -50, 20);\ndrawText('text3', 'E', 45.0390625, -50, 20);\ndrawText('text4', 'H', 77.67578125, -50, 20);"},
		{"inner list wins", `<text x="20 30 40" y="50" font-size="20">H<tspan x="100">EH</tspan></text>`,
			"drawText('text2', 'H', 20, -50, 20);\ndrawText('text3', 'E', 100, -50, 20);\ndrawText('text4', 'H', 40, -50, 20);"},
		{"glyph by glyph in another font", `<text><tspan x="10 25.5 38" y="50 50 50" font-size="20">HEH</tspan> <tspan x="100 150" y="50">HE</tspan></text>`,
			"drawText('text2', 'HEH', 10, -50, 20);\ndrawText('text3', 'H', 100, -50, 16);\ndrawText('text4', 'E', 150, -50, 16);"},
		{"middle", `<text x="20" y="50" font-size="20" dominant-baseline="middle">H</text>`, "drawText('text1', 'H', 20, -55.46875, 20);"},
		{"central", `<text x="20" y="50" font-size="20" dominant-baseline="central">H</text>`, "drawText('text1', 'H', 20, -56.923828125, 20);"},
		{"hanging", `<text x="20" y="50" font-size="20" dominant-baseline="hanging">H</text>`, "drawText('text1', 'H', 20, -64.8515625, 20);"},
		{"text-before-edge", `<text x="20" y="50" font-size="20" dominant-baseline="text-before-edge">H</text>`, "drawText('text1', 'H', 20, -68.564453125, 20);"},
		{"text-after-edge", `<text x="20" y="50" font-size="20" dominant-baseline="text-after-edge">H</text>`, "drawText('text1', 'H', 20, -45.283203125, 20);"},
		{"alignment-baseline on a tspan", `<text x="20" y="50" font-size="20">H<tspan alignment-baseline="middle">E</tspan></text>`,
			"drawText('text2', 'H', 20, -50, 20);\ndrawText('text3', 'E', 35.0390625, -55.46875, 20);"},
	} {
		// In a sans, so that the face is not noted.
		_, rep, code := svgRun(t, doc(`<g font-family="sans-serif">`+c.body+`</g>`), Options{})
		if !strings.Contains(strings.ReplaceAll(code, "\n  ", "\n"), c.want) {
			t.Errorf("%s: the module lacks\n%s\nin\n%s", c.name, c.want, code)
		}
		if len(rep.Skipped) > 0 {
			t.Errorf("%s: noted %v", c.name, rep.Skipped)
		}
	}
}

// TestSVGTextNotes: what of a text's layout is not applied is named; a monospace family is
// drawn in cadrun's mono, an italic in its italic.
func TestSVGTextNotes(t *testing.T) {
	t.Parallel()
	_, rep, code := svgRun(t, doc(`<text x="0" y="10" rotate="30" textLength="50" letter-spacing="2">A<tspan baseline-shift="super">2</tspan></text>
		<text y="30" dominant-baseline="sideways" writing-mode="tb">B</text><text y="50" font-family="Courier New, monospace">C</text>
		<text y="70" font-style="italic" font-weight="bold">D</text>`), Options{})
	for _, k := range []string{
		"text: rotate is not applied: the characters are drawn upright at their font's advance",
		"text: textLength is not applied: the characters are drawn upright at their font's advance",
		"text: letter-spacing is not applied",
		"tspan: baseline-shift is not applied",
		"text: baseline sideways is drawn on the alphabetic baseline",
		"text: writing-mode tb is drawn left to right",
	} {
		if rep.Skipped[k] != 1 {
			t.Errorf("skipped %q: %d, want 1 (%v)", k, rep.Skipped[k], rep.Skipped)
		}
	}
	for _, want := range []string{"drawText('text3', 'C', 0, -50, 16, {font: 'mono'});", "drawText('text4', 'D', 0, -70, 16, {font: 'sans-bold-italic'});"} {
		if !strings.Contains(code, want) {
			t.Errorf("the module lacks %q:\n%s", want, code)
		}
	}
}

// TestSVGTextFaceNoted: a text drawn in cadrun's sans where SVG renderers draw another face
// (a serif family, cursive or fantasy, or no family at all, for which librsvg and browsers
// draw a serif) is named in the report, once a text; a sans or monospace family is not.
func TestSVGTextFaceNoted(t *testing.T) {
	t.Parallel()
	const none = "text: no font-family is given: drawn in cadrun's sans, where SVG renderers draw their default face, a serif (librsvg's and browsers')"
	for _, c := range []struct{ body, want string }{
		{`<text y="20">H</text>`, none},
		{`<text y="20">H<tspan x="40">E</tspan></text>`, none},
		{`<text y="20" font-family="serif">H</text>`, "text: font-family serif is a serif: drawn in cadrun's sans, wider than the file's face"},
		{`<text y="20" font-family="'Times New Roman', serif">H</text>`, "text: font-family Times New Roman is a serif: drawn in cadrun's sans, wider than the file's face"},
		{`<text y="20" style="font-family:Georgia">H</text>`, "text: font-family Georgia is a serif: drawn in cadrun's sans, wider than the file's face"},
		{`<g font-family="Liberation Serif"><text y="20">H</text></g>`, "text: font-family Liberation Serif is a serif: drawn in cadrun's sans, wider than the file's face"},
		{`<text y="20" font-family="sans-serif">H<tspan font-family="serif">E</tspan></text>`, "text: font-family serif is a serif: drawn in cadrun's sans, wider than the file's face"},
		{`<text y="20" font-family="cursive">H</text>`, "text: font-family cursive is drawn in cadrun's sans"},
		{`<text y="20" font-family="sans-serif">H</text>`, ""},
		{`<text y="20" font-family="DejaVu Sans, serif">H</text>`, ""},
		{`<text y="20" font-family="Arial">H</text>`, ""},
		{`<text y="20" font-family="monospace">H</text>`, ""},
		{`<text y="20" font-family="serif"> <tspan font-family="sans-serif">E</tspan></text>`, ""}, // no character of the text's own
	} {
		_, rep, _ := svgRun(t, doc(c.body), Options{})
		want := map[string]int{}
		if c.want != "" {
			want[c.want] = 1
		}
		if diff := cmp.Diff(want, rep.Skipped, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: notes mismatch (-want +got):\n%s", c.body, diff)
		}
	}
}

// TestSVGTextDecorationAsSVG compares librsvg's picture of underlined, overlined and struck
// texts (a text, a tspan, anchored, turned, bold; a group's decoration, which SVG does not
// apply) with cadrun's picture of the imported module.
func TestSVGTextDecorationAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "decorations.svg"))
}
