package importer

// Text placement against ezdxf's: a TEXT's or MTEXT's box, where each alignment puts it. The
// fonts differ (ezdxf measures a monospaced font whose capitals are the text's height, cadrun
// draws DejaVu Sans at the height as its em, its capitals shorter), so the boxes are compared
// at the side the alignment holds, in DXF's terms: the left, middle or right for the
// horizontal alignment, and for the vertical one the top, middle or foot of the capitals, a
// height above the first baseline (ezdxf's box less its descender of a third of the height).

import (
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/text"
)

func TestTextPlacementFromEzdxf(t *testing.T) {
	t.Parallel()
	data, boxes := ezdxfSamples(t, samplesHead+`
from ezdxf import bbox
from ezdxf.enums import TextEntityAlignment as A
from ezdxf.tools.text import unified_alignment
def add(name, e, h):
    e.dxf.layer = name
    b = bbox.extents([e])
    ha, va = unified_alignment(e)
    out[name] = [[b.extmin.x, b.extmin.y], [b.extmax.x, b.extmax.y], [ha, va], [h, 0]]
y = 0
for a in ['LEFT', 'CENTER', 'RIGHT', 'MIDDLE', 'BOTTOM_LEFT', 'BOTTOM_CENTER', 'MIDDLE_LEFT', 'MIDDLE_RIGHT', 'TOP_LEFT', 'TOP_CENTER', 'TOP_RIGHT']:
    add('text-' + a, msp.add_text('HELLO', dxfattribs={'height': 3}).set_placement((10, y), align=A[a]), 3)
    y += 10
for n in range(1, 10):
    add('mtext-%d' % n, msp.add_mtext('HELLO', dxfattribs={'char_height': 3, 'insert': (100, 10 * n), 'attachment_point': n}), 3)
    add('mtext2-%d' % n, msp.add_mtext('HELLO\\PWORLD', dxfattribs={'char_height': 2, 'insert': (200, 10 * n), 'attachment_point': n}), 2)
for a in ['ALIGNED', 'FIT']:
    e = msp.add_text('HELLO', dxfattribs={'height': 3}).set_placement((0, -50 - 20 * (a == 'FIT')), (30, -50 - 20 * (a == 'FIT')), align=A[a])
    b = bbox.extents([e])
    add('text-' + a, e, (b.extmax.y - b.extmin.y) * 0.75)
add('wrapped', msp.add_mtext('HELLO WORLD AGAIN AND AGAIN', dxfattribs={'char_height': 3, 'insert': (0, -100), 'width': 25}), 3)
add('rotated', msp.add_mtext('HELLO', dxfattribs={'char_height': 3, 'insert': (300, 0), 'attachment_point': 5, 'rotation': 90}), 3)
`+samplesTail)
	s, rep, code := importRun(t, data)
	if len(rep.Skipped) != 0 {
		t.Fatalf("skipped %v", rep.Skipped)
	}
	if w := outline(t, s, "wrapped-mtext1").Bounds().Size().X; w > 25 {
		t.Errorf("an MTEXT 25 wide is drawn %g wide", w)
	}
	h1, err := text.LayoutString("H", 1, "", text.DefaultFont)
	if err != nil {
		t.Fatal(err)
	}
	capHeight := h1.Path.Bounds().Max.Y // DejaVu Sans's, in ems
	for name, b := range boxes {
		kind := "text1"
		if strings.HasPrefix(name, "mtext") || name == "rotated" || name == "wrapped" {
			kind = "mtext1"
		}
		got := outline(t, s, name+"-"+kind).Bounds()
		h, halign, valign := b[3][0], int(b[2][0]), int(b[2][1])
		// Where the capitals' top would be in a CAD program's font: a height above the
		// first baseline, not the em's capitals above it.
		got.Max.Y += h * (1 - capHeight)
		x0, y0, x1, y1 := b[0][0], b[0][1]+h/3, b[1][0], b[1][1] // the capitals' box
		if name == "rotated" {                                   // turned a quarter: its x is the other's y
			x0, y0, x1, y1 = b[0][0], b[0][1], b[1][0]-h/3, b[1][1]
			got.Max.Y -= h * (1 - capHeight)
			got.Min.X -= h * (1 - capHeight)
			mid := func(a, b float64) float64 { return (a + b) / 2 }
			if d := math.Hypot(mid(got.Min.X, got.Max.X)-mid(x0, x1), mid(got.Min.Y, got.Max.Y)-mid(y0, y1)); d > 0.25*h {
				t.Errorf("%s: centre of %v is %.3g from ezdxf's [%g %g %g %g]\n%s", name, got, d, x0, y0, x1, y1, code)
			}
			continue
		}
		if valign == 4 { // TEXT's MIDDLE: the middle of the whole box, descender included
			y0, valign = y0-h/3, 2
			got.Min.Y -= h / 3
		}
		// halign: 0 left, 1 centre, 2 right; valign: 0 baseline, 1 bottom, 2 middle, 3 top.
		side := []func(a, b float64) float64{
			func(a, _ float64) float64 { return a }, func(a, b float64) float64 { return (a + b) / 2 }, func(_, b float64) float64 { return b }}
		if d := side[halign](got.Min.X, got.Max.X) - side[halign](x0, x1); math.Abs(d) > 0.15*h {
			t.Errorf("%s: x off by %.3g: %v, ezdxf's capitals [%g %g %g %g]", name, d, got, x0, y0, x1, y1)
		}
		vs := side[[]int{0, 0, 1, 2}[valign]]
		if d := vs(got.Min.Y, got.Max.Y) - vs(y0, y1); math.Abs(d) > 0.15*h {
			t.Errorf("%s: y off by %.3g: %v, ezdxf's capitals [%g %g %g %g]", name, d, got, x0, y0, x1, y1)
		}
	}
}

// TestMTextStacks: a stack is a fraction on one line, and a stack with one side empty a
// superscript or subscript the font draws (`B\S^ 1;` was `B/ 1`).
func TestMTextStacks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`B\S^ 1;`, "B₁"},
		{`x\S2^;`, "x²"},
		{`\S1/2;"`, `1/2"`},
		{`\S3#4; in`, "3/4 in"},
		{`20\S+0.1^-0.2;`, "20+0.1/-0.2"},
		{`A\S^n;`, "An"},
		{`\S(+1)^;`, "⁽⁺¹⁾"},
	} {
		got := plainMText(c.in)
		if got != c.want {
			t.Errorf("plainMText(%q) = %q, want %q", c.in, got, c.want)
		}
		if _, err := text.LayoutString(got, 1, "", text.DefaultFont); err != nil {
			t.Errorf("%q: %v", got, err)
		}
	}
}
