package svg

// Text as SVG lays it out: the characters of a <text> and its tspans, in order, with white
// space handled as xml:space says; each character's x, y, dx and dy from the lists of the
// innermost element that gives one; runs of characters of one style and no position of their
// own, each a drawText; chunks (a new x or y starts one) shifted by their text-anchor as a
// whole; the baseline moved by dominant-baseline or alignment-baseline in the font's metrics.
// A run's advance is cadrun's font's (DejaVu Sans, the sans-serif of most systems), so a
// tspan that follows another sits where it would in SVG drawn with that font.

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// textChar is one character of a text after white space is handled, and the span that holds it.
type textChar struct {
	r    rune
	span int
}

// textSpan is the text or a tspan: its style and the characters it holds [start, end).
type textSpan struct {
	e          *element
	st         style
	start, end int
}

// charPos is a character's position as the x, y, dx and dy lists give it.
type charPos struct {
	x, y, dx, dy float64
	hasX, hasY   bool
}

// textRun is characters drawn by one drawText, at (x, y) before its chunk's anchor shift.
type textRun struct {
	text  string
	span  int
	x, y  float64
	chunk int
	adv   float64
}

// fontMetrics are cadrun's sans-serif's, per em: what the baselines SVG names sit at.
var fontMetrics = sync.OnceValue(func() (m struct{ ascent, descent, xHeight float64 }) {
	m.ascent, m.descent, m.xHeight = 0.928, 0.236, 0.547 // DejaVu Sans, should the font not load
	if l, err := text.LayoutString("x", 1, text.AlignLeft, ""); err == nil {
		m.ascent, m.descent = l.Ascent, l.Descent
		if b := l.Path.Bounds(); b.NonEmpty {
			m.xHeight = b.Max.Y
		}
	}
	return m
})

// baselineShift is how far below the alignment point (in SVG's y, down) the alphabetic
// baseline lies for a baseline keyword, in ems; false for one not known.
func baselineShift(v string) (float64, bool) {
	fm := fontMetrics()
	switch v {
	case "", "auto", "alphabetic", "baseline", "inherit", "use-script", "no-change", "reset-size":
		return 0, true
	case "middle":
		return fm.xHeight / 2, true
	case "central":
		return (fm.ascent - fm.descent) / 2, true
	case "hanging":
		return 0.8 * fm.ascent, true
	case "mathematical":
		return fm.ascent / 2, true
	case "text-before-edge", "text-top", "before-edge":
		return fm.ascent, true
	case "text-after-edge", "text-bottom", "after-edge", "ideographic":
		return -fm.descent, true
	}
	return 0, false
}

// fontOf is cadrun's font for a text's style: sans or mono, bold and italic as the style
// says (mono has no italic), "sans" for the plain sans.
func fontOf(st style) string {
	if st.mono {
		if st.fontFamilyBold {
			return "mono-bold"
		}
		return "mono"
	}
	switch {
	case st.fontFamilyBold && st.italic:
		return "sans-bold-italic"
	case st.fontFamilyBold:
		return "sans-bold"
	case st.italic:
		return "sans-italic"
	}
	return "sans"
}

// serifs are words in the names of common serif faces, which a family naming a serif face
// (not a sans) is told by.
var serifs = []string{"serif", "times", "georgia", "garamond", "palatino", "cambria", "baskerville", "bookman",
	"schoolbook", "caslon", "didot", "bodoni", "minion", "constantia", "charter", "tinos"}

// familyNote is the note a text drawn in cadrun's sans with style st takes where a renderer
// draws another face: "" for a sans or monospace family. Only the first family of the list
// is looked at: the one a renderer that has it draws.
func familyNote(st style) string {
	if st.mono {
		return ""
	}
	first, _, _ := strings.Cut(st.family, ",")
	first = strings.Trim(strings.TrimSpace(first), `"'`)
	lf := strings.ToLower(first)
	switch {
	case first == "":
		return "no font-family is given: drawn in cadrun's sans, where SVG renderers draw their default face, a serif (librsvg's and browsers')"
	case lf == "cursive" || lf == "fantasy":
		return "font-family " + clip(first) + " is drawn in cadrun's sans"
	case strings.Contains(lf, "sans"):
		return ""
	}
	for _, w := range serifs {
		if strings.Contains(lf, w) {
			return "font-family " + clip(first) + " is a serif: drawn in cadrun's sans, wider than the file's face"
		}
	}
	return ""
}

// advance is the width cadrun's font advances by over s at size; an estimate of 0.6 em a
// character where the font cannot lay it out.
func advance(s string, size float64, st style) float64 {
	if l, err := text.MeasureString(s, size, fontOf(st)); err == nil {
		return l.Width
	}
	return 0.6 * size * float64(utf8.RuneCountInString(s))
}

// text makes the drawText items of a <text>: one when it is one run, else a group of them.
func (c *converter) text(e *element, m geom.Affine, st style) ([]*Item, error) {
	chars := make([]textChar, 0, textBytes(e)) // a character a byte, at most
	var spans []textSpan
	c.textChars(e, st, false, &chars, &spans)
	for len(chars) > 0 && chars[len(chars)-1].r == ' ' && !preserved(spans[chars[len(chars)-1].span].e, e) {
		chars = chars[:len(chars)-1]
	}
	for i := range spans {
		spans[i].start, spans[i].end = min(spans[i].start, len(chars)), min(spans[i].end, len(chars))
	}
	if strings.TrimSpace(runesOf(chars)) == "" {
		c.skip(e.name, "no text")
		return nil, nil
	}
	// Each character's position: the lists of the innermost element that gives it one.
	n := len(chars)
	pos := make([]charPos, n)
	for _, sp := range spans {
		for _, a := range []struct {
			name string
			of   float64
		}{{"x", c.vp[0]}, {"y", c.vp[1]}, {"dx", c.vp[0]}, {"dy", c.vp[1]}} {
			v, ok := sp.e.attrs[a.name]
			if !ok {
				continue
			}
			list := c.lengths(sp.e, a.name, v, sp.st.fontSize, a.of)
			for i, f := range list {
				k := sp.start + i
				if k >= sp.end {
					break
				}
				switch a.name {
				case "x":
					pos[k].x, pos[k].hasX = f, true
				case "y":
					pos[k].y, pos[k].hasY = f, true
				case "dx":
					pos[k].dx = f
				case "dy":
					pos[k].dy = f
				}
			}
		}
		for _, a := range []string{"rotate", "textLength"} {
			if _, ok := sp.e.attrs[a]; ok {
				c.skip(sp.e.name, a+" is not applied: the characters are drawn upright at their font's advance")
			}
		}
		p := properties(sp.e)
		for _, a := range []string{"letter-spacing", "word-spacing"} {
			if v, ok := p[a]; ok && v != "normal" && v != "0" && v != "inherit" {
				c.skip(sp.e.name, a+" is not applied")
			}
		}
		if sp.st.decorationOther != "" {
			c.skip(sp.e.name, "text-decoration "+clip(sp.st.decorationOther)+": its style and colour are not applied: drawn as solid lines of the text's paint")
		}
		if v, ok := p["baseline-shift"]; ok && v != "baseline" && v != "0" && v != "inherit" {
			c.skip(sp.e.name, "baseline-shift is not applied")
		}
		if v, ok := p["writing-mode"]; ok && v != "lr" && v != "lr-tb" && v != "horizontal-tb" && v != "inherit" {
			c.skip(sp.e.name, "writing-mode "+clip(v)+" is drawn left to right")
		}
	}
	// Runs: a character with a position of its own, or of another style, starts one. A
	// position where the run's own advance puts the character anyway (within a tenth of an
	// em: a file laid out glyph by glyph in another font, as a PDF's text comes) continues
	// the run, so that such a text is a drawText a line, not one a character.
	var runs []textRun
	var b strings.Builder
	chunk := 0
	var cx, cy float64 // where the next character goes, by each character's advance
	// The characters' advances are needed only to tell whether a later x continues a run.
	predict := false
	for i := 1; i < n && !predict; i++ {
		predict = pos[i].hasX
	}
	keys := make([]runStyle, len(spans)) // each span's style, told apart from the others'
	for i, sp := range spans {
		keys[i] = styleOf(sp.st)
	}
	for i, ch := range chars {
		sst := spans[ch.span].st
		nx, ny := cx, cy
		if pos[i].hasX {
			nx = pos[i].x
		}
		if pos[i].hasY {
			ny = pos[i].y
		}
		nx, ny = nx+pos[i].dx, ny+pos[i].dy
		own := pos[i].hasX || pos[i].hasY || pos[i].dx != 0 || pos[i].dy != 0
		restyled := i > 0 && ch.span != chars[i-1].span && keys[ch.span] != keys[chars[i-1].span]
		if own && i > 0 && !restyled && (sst.anchor == "" || sst.anchor == "start") && ny == cy && math.Abs(nx-cx) <= 0.1*sst.fontSize {
			own, nx = false, cx
		}
		cx, cy = nx, ny
		if predict {
			cx += c.glyphAdvance(ch.r, sst, keys[ch.span].font)
		}
		if i == 0 || own || restyled {
			if len(runs) > 0 {
				runs[len(runs)-1].text = b.String()
			}
			b.Reset()
			if i > 0 && (pos[i].hasX || pos[i].hasY) {
				chunk++
			}
			runs = append(runs, textRun{span: ch.span, chunk: chunk})
		}
		b.WriteRune(ch.r)
	}
	runs[len(runs)-1].text = b.String()
	// Place the runs one after another, each at its first character's position. A run's
	// advance is measured where it places the next run or anchors its chunk.
	cx, cy = 0, 0
	k, first := 0, 0 // first: the first run of the chunk
	for i := range runs {
		r := &runs[i]
		if i > 0 && r.chunk != runs[i-1].chunk {
			first = i
		}
		if pos[k].hasX {
			cx = pos[k].x
		}
		if pos[k].hasY {
			cy = pos[k].y
		}
		cx, cy = cx+pos[k].dx, cy+pos[k].dy
		r.x, r.y = cx, cy
		k += utf8.RuneCountInString(r.text)
		last := i+1 == len(runs) || runs[i+1].chunk != r.chunk
		anchored := spans[runs[first].span].st.anchor == "middle" || spans[runs[first].span].st.anchor == "end"
		if i+1 < len(runs) && !pos[k].hasX || last && first < i && anchored {
			sst := spans[r.span].st
			r.adv = advance(r.text, sst.fontSize, sst)
		}
		cx += r.adv
	}
	sx, sy, angle, ok := similarity(m)
	if !ok || math.Abs(math.Abs(sx)-math.Abs(sy)) > 1e-9*math.Abs(sx) || sy > 0 {
		c.skip(e.name, "a skewed, stretched or mirrored text is drawn upright at its size")
		if sx == 0 {
			sx = math.Sqrt(math.Abs(m.Det()))
		}
	}
	if c.ext != nil {
		c.ext.unknown = true
	}
	// Each chunk is shifted by its anchor as a whole: a chunk of one run is drawn aligned
	// on its anchor point, as a person would write it.
	var items []*Item
	cutAway := false           // a run left out because its clip leaves nothing of it
	tiny := false              // a run left out because its transforms leave it too small to write
	noted := map[string]bool{} // the faces noted, once a text
	for k, ch := range chars {
		// Each character's face (runs part by the face cadrun draws, which a serif and a sans
		// share), once a span.
		if sp := spans[ch.span]; ch.r != ' ' && sp.st.visible && (k == 0 || chars[k-1].span != ch.span || chars[k-1].r == ' ') {
			if n := familyNote(sp.st); n != "" && !noted[n] {
				noted[n] = true
				c.skip(e.name, n)
			}
		}
	}
	for i := 0; i < len(runs); {
		j := i
		for j < len(runs) && runs[j].chunk == runs[i].chunk {
			j++
		}
		anchor := spans[runs[i].span].st.anchor
		width := runs[j-1].x + runs[j-1].adv - runs[i].x
		for _, r := range runs[i:j] {
			sst := spans[r.span].st
			if strings.TrimSpace(r.text) == "" || !sst.visible {
				continue
			}
			x, align := r.x, ""
			if j-i == 1 {
				align = map[string]string{"middle": "center", "end": "right"}[anchor]
			} else {
				x -= map[string]float64{"middle": width / 2, "end": width}[anchor]
			}
			text := r.text
			if align == "" {
				// Leading spaces move the text on; trailing ones draw nothing.
				trimmed := strings.TrimLeft(text, " ")
				if len(trimmed) < len(text) {
					x += advance(text[:len(text)-len(trimmed)], sst.fontSize, sst)
				}
				text = strings.TrimRight(trimmed, " ")
			}
			shift, known := baselineShift(sst.baseline)
			if !known {
				c.skip(spans[r.span].e.name, "baseline "+clip(sst.baseline)+" is drawn on the alphabetic baseline")
			}
			at := m.Apply(geom.Vec{X: x, Y: r.y + shift*sst.fontSize})
			it := &Item{Kind: Shape, Element: e.name, Line: spans[r.span].e.line, Fill: sst.fillColor(), Stroke: sst.strokeColor(),
				Prim: Prim{Call: "drawText", X: at.X, Y: at.Y, Text: text, Size: sst.fontSize * math.Abs(sx), Align: align, Angle: angle,
					Font: fontOf(sst)}}
			if it.Prim.Font == "sans" {
				it.Prim.Font = "" // drawText's default
			}
			if it.Stroke != nil && !sst.nonScaling {
				it.Width = sst.strokeWidth * math.Abs(sx)
			}
			if tooSmall(it.Prim) {
				c.skip(e.name, tooSmallNote)
				tiny = true
				continue
			}
			if len(c.clips) > 0 && !c.clipText(spans[r.span].e, it) {
				cutAway = true
				continue
			}
			if sst.decoration == 0 {
				items = append(items, it)
				continue
			}
			if len(c.clips) > 0 {
				c.skip(spans[r.span].e.name, "text-decoration under a clip is not drawn")
				items = append(items, it)
				continue
			}
			// CSS paints underlines and overlines under the text, line-through over it.
			under, over := decorations(it, advance(text, sst.fontSize, sst)*math.Abs(sx), sst.decoration)
			items = append(append(append(items, under...), it), over...)
		}
		i = j
	}
	switch len(items) {
	case 0:
		if !cutAway && !tiny {
			c.skip(e.name, "visibility:hidden")
		}
		return nil, nil
	case 1:
		items[0].ID = label(e)
		return c.made(items[0])
	}
	for _, it := range items {
		if err := c.written(it); err != nil {
			return nil, err
		}
		c.drawn++
	}
	return c.made(&Item{Kind: Group, Element: e.name, Line: e.line, ID: label(e), Children: items})
}

// clipText cuts a drawText item to the clip regions being converted, as clipped does a
// shape's fill: its outline is the font's glyphs; false when nothing of it is left.
func (c *converter) clipText(e *element, it *Item) bool {
	w, err := textOutline(it.Prim)
	if err != nil {
		c.skip(e.name, fmt.Sprintf("a clip is not applied to text the font cannot lay out: %v", err))
		return true
	}
	regs := near(c.clips, w.Bounds())
	res, err := c.clipFill(w, regs)
	switch res {
	case clipAll:
		return false
	case clipFailed:
		c.skip(e.name, fmt.Sprintf("clip-path not applied to the text: %v", err))
	case clipCut:
		for _, r := range regs {
			it.Clips = append(it.Clips, Clip{Shapes: r.prims})
		}
		if it.Stroke != nil {
			it.Stroke, it.Width = nil, 0
			c.skip(e.name, "the stroke of a text cut by a clip is not drawn (its fill is)")
		}
	}
	return true
}

// textOutline is the outline of a drawText's glyphs where it draws them.
func textOutline(p Prim) (geom.Path, error) {
	l, err := text.LayoutString(p.Text, p.Size, text.Align(cmp.Or(p.Align, "left")), cmp.Or(p.Font, "sans"))
	if err != nil {
		return nil, err
	}
	return l.Path.Transform(geom.Translation(geom.Vec{X: p.X, Y: p.Y}).Mul(geom.Rotation(p.Angle))), nil
}

// glyph is a character at a size in a font, whose advance converter.glyphAdvance keeps.
type glyph struct {
	r    rune
	size float64
	font string
}

// glyphAdvance is the advance of r in st's font at its size, measured once a file.
func (c *converter) glyphAdvance(r rune, st style, font string) float64 {
	key := glyph{r, st.fontSize, font}
	a, ok := c.advances[key]
	if !ok {
		a = advance(string(r), st.fontSize, st)
		if c.advances == nil {
			c.advances = map[glyph]float64{}
		}
		c.advances[key] = a
	}
	return a
}

// textChars gathers the characters of text element e (a <text>, a <tspan>) styled st into
// chars, white space handled as SVG does: unless xml:space is preserve, newlines are
// dropped, tabs are spaces, and a space after a space or at the start is dropped (the
// caller drops those at the end); with preserve, newlines and tabs are spaces.
func (c *converter) textChars(e *element, st style, preserve bool, chars *[]textChar, spans *[]textSpan) {
	switch e.attr("space") {
	case "preserve":
		preserve = true
	case "default":
		preserve = false
	}
	k := len(*spans)
	*spans = append(*spans, textSpan{e: e, st: st, start: len(*chars)})
	for _, ch := range e.children {
		switch ch.name {
		case textNode:
			for _, r := range ch.text.String() {
				switch {
				case r == '\n' || r == '\r':
					if !preserve {
						continue
					}
					r = ' '
				case r == '\t':
					r = ' '
				}
				if r == ' ' && !preserve {
					if n := len(*chars); n == 0 || (*chars)[n-1].r == ' ' {
						continue
					}
				}
				*chars = append(*chars, textChar{r: r, span: k})
			}
		case "tspan", "a":
			cst := st.child(ch)
			if !cst.display {
				continue
			}
			c.textChars(ch, cst, preserve, chars, spans)
		case "textPath":
			c.skip(ch.name, "text on a path is not imported")
		}
	}
	(*spans)[k].end = len(*chars)
}

// textBytes is the bytes of the characters in e.
func textBytes(e *element) int {
	n := 0
	for _, ch := range e.children {
		if ch.name == textNode {
			n += ch.text.Len()
		} else {
			n += textBytes(ch)
		}
	}
	return n
}

// preserved tells whether white space in e (inside text element top) is kept as written.
func preserved(e, top *element) bool {
	return e.attr("space") == "preserve" || top.attr("space") == "preserve"
}

// runesOf is the characters' text.
func runesOf(chars []textChar) string {
	var b strings.Builder
	for _, ch := range chars {
		b.WriteRune(ch.r)
	}
	return b.String()
}

// runStyle is what of a style tells two runs of text apart.
type runStyle struct {
	fill, stroke   Color // as drawn; the zero Color for none
	width, size    float64
	font, baseline string
	anchor         string
	visible        bool
	decoration     decoration
}

func styleOf(st style) runStyle {
	r := runStyle{width: st.strokeWidth, size: st.fontSize, font: fontOf(st), baseline: st.baseline, anchor: st.anchor, visible: st.visible, decoration: st.decoration}
	if f := st.fillColor(); f != nil {
		r.fill = *f
	}
	if s := st.strokeColor(); s != nil {
		r.stroke = *s
	}
	return r
}

// lengths reads a list of lengths (x, y, dx, dy) in user units: em of the element's font
// size, a percentage of of.
func (c *converter) lengths(e *element, name, v string, em, of float64) []float64 {
	var out []float64
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		l, ok := lengthOf(f, em, of)
		if !ok {
			c.skip(e.name, fmt.Sprintf("%s=%q not understood: the list is read up to it", name, clip(v)))
			break
		}
		out = append(out, l)
	}
	return out
}
