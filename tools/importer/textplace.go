package importer

// Where a DXF text goes. A TEXT or MTEXT names a point and how the text sits on it (TEXT's 72
// and 73, MTEXT's attachment 71); drawText takes the start of the first baseline. The shift
// between them is DXF's, in the text's height: the capitals are the height tall and the
// descent a third of it, as CAD programs and ezdxf place them, so that every baseline lies
// where theirs does. (drawText's size is the em, so its capitals are shorter than a CAD
// program's; the cadrun DXF writer writes the em as the height, and a written text reads back
// where it was.)

import (
	"fmt"
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene/text"
	"github.com/cadrun/cadrun/tools/importer/dxf"
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
// below) for a text of the lines at size h, spaced by the factor spacing (1: drawText's).
func (a textAlign) baselineShift(h float64, lines int, spacing float64) float64 {
	capHeight, descent := dxfCapHeight, dxfDescent
	// The block runs from the first line's capitals down to the last line's descent; its
	// lines are drawText's distance apart times the spacing.
	block := capHeight*h + float64(lines-1)*spacing*text.LineSpacing*h + descent*h
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
		l, err := text.MeasureString(w, h, text.DefaultFont)
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

// The MTEXT line spacing factor's range (44), as CAD programs take it: a factor outside is
// drawn at the nearer end.
const (
	minLineSpacing = 0.25
	maxLineSpacing = 4.0
)

// dxfLineSpacing is a CAD program's distance between MTEXT baselines at the factor 1, in
// heights.
const dxfLineSpacing = 5.0 / 3

// lineSpacing is the multiple of drawText's spacing that an MTEXT's spacing factor f draws
// its lines at. A CAD program puts them f times 5/3 of the height apart, where drawText's
// 1.2 is shorter: up to drawText's distance the lines are the CAD program's distance apart
// (cadrun's DXF writer writes its texts' factor so, 0.72, and they read back as drawn), from
// the factor 1 on drawText's times the factor (2 doubles it, as in a CAD program), and in
// between, where CAD's distance passes drawText's, at drawText's.
func lineSpacing(f float64) float64 {
	return max(f, min(f*dxfLineSpacing/text.LineSpacing, 1))
}

// mtextFlow is how an MTEXT's lines are laid out beyond wrapping: the line spacing factor
// (44) as a multiple of drawText's spacing (lineSpacing; the style, 73, at least or exactly,
// is the same for a text of one height) and its columns (width, gutter and the
// height each column holds before the text goes on in the next).
type mtextFlow struct {
	spacing float64
	columns bool
	width   float64   // a column's width, which wraps the text in place of 41
	gutter  float64   // the space between columns
	heights []float64 // each column's height; the last one's stands for the columns after it
}

// readMTextFlow reads an MTEXT's line spacing and columns. The columns are in one of two
// forms: the MTEXT's own groups from 75 on (75 type, 76 count, 48 width, 49 gutter, 50 each
// column's height, where 48 and 50 before 75 are the linetype scale and the rotation), or the
// embedded object (101 on: 71 type, 72 count, 44 width, 45 gutter, 46 each column's height,
// 41 the height of them all). A static column (type 1) is as tall as the text's defined
// height (46 of the MTEXT, 41 of the embedded object); a column of no height holds the whole
// text. Numbers that are not numbers are read as their absence: the flow is a refinement of
// a text that is drawn either way.
func readMTextFlow(e *dxf.Entity) mtextFlow {
	f := mtextFlow{spacing: 1}
	if v, err := e.Num(44, 1); err == nil && v > 0 {
		// CAD programs keep the factor within 0.25 and 4; a file's 1000 would spread the
		// lines far apart.
		f.spacing = lineSpacing(min(max(v, minLineSpacing), maxLineSpacing))
	}
	kind, height := 0, 0.0
	if v, err := e.Num(46, 0); err == nil {
		height = v
	}
	read := func(pairs []dxf.Pair, typ, width, gutter, heights int, all int) {
		for _, p := range pairs {
			v, err := dxf.Float(p)
			if err != nil {
				continue
			}
			switch p.Code {
			case typ:
				kind = int(v)
			case width:
				f.width = v
			case gutter:
				f.gutter = v
			case heights:
				f.heights = append(f.heights, v)
			case all:
				height = v
			}
		}
	}
	for i, p := range e.Pairs {
		if p.Code == 75 {
			read(e.Pairs[i:], 75, 48, 49, 50, -1)
			break
		}
	}
	if len(e.Embedded) > 0 {
		read(e.Embedded, 71, 44, 45, 46, 41)
	}
	f.columns = kind > 0 && f.width > 0
	if f.columns && (kind == 1 || len(f.heights) == 0) {
		f.heights = []float64{height}
	}
	return f
}

// columnsOf splits the lines of a text at size h into the columns' lines: a column holds lines
// while the last one's descent stays within its height (the first line always stands).
func (f mtextFlow) columnsOf(lines []string, h float64) [][]string {
	if !f.columns {
		return [][]string{lines}
	}
	var cols [][]string
	for k := 0; len(lines) > 0; k++ {
		hk := f.heights[min(k, len(f.heights)-1)]
		n := len(lines)
		if hk > 0 {
			room := (hk - (dxfCapHeight+dxfDescent)*h) / (f.spacing * text.LineSpacing * h)
			n = min(max(int(math.Floor(room+1e-9))+1, 1), len(lines))
		}
		cols = append(cols, lines[:n])
		lines = lines[n:]
	}
	return cols
}

// columnGroup reports whether an MTEXT's first group of the code (50, 48) is one of its
// columns' (a height, the width: it comes after the 75 that starts the columns' groups)
// rather than the entity's own (the angle, the linetype scale).
func columnGroup(e *dxf.Entity, code int) bool {
	if e.Kind != "MTEXT" {
		return false
	}
	for _, p := range e.Pairs {
		switch p.Code {
		case code:
			return false
		case 75:
			return true
		}
	}
	return false
}

// flowedText writes an MTEXT whose lines drawText cannot space as one text (a spacing factor
// other than 1, or columns): each line is a text of its own, name + '-1' and on, in a group
// of the name, so that the calls after it (the pivot, the rotation, the colour) take the
// whole. A column goes the column width and the gutter right of the one before, its first
// line level with the first column's, placed on the point as the attachment says.
func flowedText(name string, cols [][]string, f mtextFlow, al textAlign, x, y, h float64, size, opts string) (string, error) {
	var b strings.Builder
	var parts []string
	step := f.spacing * text.LineSpacing * h
	// The columns hang from one top, the first column's, which is the tallest.
	top := y + al.baselineShift(h, len(cols[0]), f.spacing)
	for k, lines := range cols {
		cx := x + float64(k)*(f.width+f.gutter)
		if err := checkNums("a column's place", cx, top-float64(len(lines)-1)*step); err != nil {
			return "", err
		}
		for i, l := range lines {
			part := fmt.Sprintf("%s + '-%d'", name, len(parts)+1)
			parts = append(parts, part)
			fmt.Fprintf(&b, "drawText(%s, %s, %s, %s, %s%s);\n", part, jsString(l), placed(cx, h, x, f.width, f.gutter), placed(top-float64(i)*step, h, y, h), size, opts)
		}
	}
	fmt.Fprintf(&b, "createGroup(%s, [%s]);", name, strings.Join(parts, ", "))
	return b.String(), nil
}
