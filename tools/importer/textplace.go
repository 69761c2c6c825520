package importer

// Where a DXF text goes. A TEXT or MTEXT names a point and how the text sits on it (TEXT's 72
// and 73, MTEXT's attachment 71); drawText takes the start of the first baseline. The shift
// between them is DXF's, in the text's height: the capitals are the height tall and the
// descent a third of it, as CAD programs and ezdxf place them, so that every baseline lies
// where theirs does. (drawText's size is the em, so its capitals are shorter than a CAD
// program's; the cadrun DXF writer writes the em as the height, and a written text reads back
// where it was.)

import (
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// DXF's text metrics in multiples of the height: the capitals' height and the descent below
// the baseline (ezdxf's, and the bottom alignment's).
const (
	dxfCapHeight = 1.0
	dxfDescent   = 1.0 / 3
)

// textAlign is a text's alignment: horizontal (0 left, 1 centre, 2 right) and vertical (0
// baseline, 1 bottom, 2 middle of the capitals, 3 top, 4 middle of the whole height), as
// ezdxf unifies TEXT's and MTEXT's.
type textAlign struct{ h, v int }

// option is drawText's align option for the horizontal alignment, "" for left.
func (a textAlign) option() string {
	return [3]string{"", "center", "right"}[a.h]
}

// baselineShift is how far the first baseline lies above the alignment point (negative:
// below) for a text of the lines at size h.
func (a textAlign) baselineShift(h float64, lines int) float64 {
	capHeight, descent := dxfCapHeight, dxfDescent
	// The block runs from the first line's capitals down to the last line's descent; its
	// lines are drawText's distance apart.
	block := capHeight*h + float64(lines-1)*scene.LineSpacing*h + descent*h
	switch a.v {
	case 1: // bottom
		return block - capHeight*h
	case 2: // the capitals' middle
		return -capHeight * h / 2
	case 3: // top
		return -capHeight * h
	case 4: // the middle of the whole text, descents included
		return block/2 - capHeight*h
	}
	return 0
}

// textAlignment reads a TEXT's 72 and 73 (72 = 4, MIDDLE, is centred both ways; 3 and 5,
// ALIGNED and FIT, are placed by textSpan) or an MTEXT's attachment point (71, 1-9: top left
// to bottom right).
func textAlignment(kind string, h72, v73, att int) textAlign {
	if kind == "MTEXT" {
		if att < 1 || att > 9 {
			att = 1
		}
		return textAlign{h: (att - 1) % 3, v: [3]int{3, 4, 1}[(att-1)/3]}
	}
	a := textAlign{v: v73}
	if a.v < 0 || a.v > 3 {
		a.v = 0
	}
	switch h72 {
	case 1, 2:
		a.h = h72
	case 4:
		a.h, a.v = 1, 4
	}
	return a
}

// wrapLines breaks each line of s at spaces so that none is wider than width at size h (a
// word wider than the width stands alone), as MTEXT's box width (41) wraps it. A text the
// font cannot measure is left as it is.
func wrapLines(s string, width, h float64) string {
	measure := func(w string) (float64, bool) {
		l, err := scene.MeasureText(w, h, scene.DefaultFont)
		return l.Width, err == nil
	}
	space, ok := measure(" ")
	if !ok || !(width > 0) {
		return s
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line, lineW := "", 0.0
		for i, w := range strings.Split(para, " ") {
			ww, ok := measure(w)
			if !ok {
				return s
			}
			switch {
			case i == 0:
				line, lineW = w, ww
			case lineW+space+ww <= width:
				line, lineW = line+" "+w, lineW+space+ww
			default:
				out = append(out, line)
				line, lineW = w, ww
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// stacked writes an MTEXT stack (\S top^bottom; with ^, / or # between) on one line: a
// fraction as top/bottom; with one side empty, the other as a superscript (nothing below) or a
// subscript (nothing above), in Unicode's raised and lowered characters where it has them
// all, else as it is (`B\S^ 1;` is B₁, not B/ 1).
func stacked(s string) string {
	i := strings.IndexAny(s, "^/#")
	if i < 0 {
		return s
	}
	top, bottom := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	switch {
	case top == "":
		return shifted(bottom, "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
	case bottom == "":
		return shifted(top, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾")
	}
	return top + "/" + bottom
}

// shifted maps s's digits and signs to the runes of to (0-9 + - = ( ) in that order), or
// returns s when it holds anything else.
func shifted(s, to string) string {
	const from = "0123456789+-=()"
	runes := []rune(to)
	var b strings.Builder
	for _, r := range s {
		i := strings.IndexRune(from, r)
		if i < 0 {
			return s
		}
		b.WriteRune(runes[i])
	}
	return b.String()
}

// placed writes a text's worked-out coordinate v to the decimals the file gives the numbers
// it comes from, and at least to a thousandth of the text's height h: a third of a height or
// a measured width has more digits than a text's place on a drawing (10.833, not
// 10.833333333333334).
func placed(v, h float64, of ...float64) string {
	return num(atPrecision(v, max(int(math.Ceil(3-math.Log10(h))), 0), of...))
}
