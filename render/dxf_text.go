package render

// Text as DXF text entities, for a drawing a person edits in a CAD program rather than cuts:
// with DXFOptions.Text set to DXFTextEntities a text becomes a TEXT (one line, and every line
// of an R12 file) or an MTEXT (several lines in R2000) on a STYLE naming its font, instead of
// its glyph outlines. Outlines stay the default: a laser cuts them the same everywhere, while
// a TEXT is drawn in whatever font the reader has.
//
// A TEXT stands on its baseline and turns about its insertion point, so it can hold a text
// that is moved, turned and scaled evenly, but not one that is mirrored, scaled unevenly or
// sheared: such a text, one with a character outside the Basic Multilingual Plane (\U+XXXX
// holds four hex digits), and in R12 one with a line too long for a TEXT, is written as its
// outlines, as without the option.

import (
	"fmt"
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// DXFText says how the DXF writer writes text.
type DXFText string

// The ways of writing text.
const (
	DXFTextOutlines DXFText = "outlines" // glyph outlines as polylines: cuts everywhere (the default)
	DXFTextEntities DXFText = "entities" // TEXT and MTEXT entities with a STYLE: editable text
)

// ParseDXFText reads "outlines" or "entities".
func ParseDXFText(s string) (DXFText, error) {
	switch t := DXFText(strings.ToLower(s)); t {
	case DXFTextOutlines, DXFTextEntities:
		return t, nil
	}
	return "", fmt.Errorf("%w: DXF text %q: use outlines or entities", ErrExportOption, s)
}

const (
	// dxfMaxText is the longest string, escaped, written into one TEXT or one MTEXT chunk:
	// R12 readers stop at 255 characters, and 250 is the chunk size AutoCAD writes.
	dxfMaxText = 250
	// dxfMTextSpacing is the MTEXT line spacing factor that puts baselines text.LineSpacing
	// text heights apart: a factor of 1 is 5/3 of the height.
	dxfMTextSpacing = text.LineSpacing * 3 / 5
)

// dxfStyle is a STYLE table entry: a font by cadrun's name, and its file.
type dxfStyle struct {
	font, name, file string
}

// dxfTextShape is what a TEXT or MTEXT entity holds, in world coordinates.
type dxfTextShape struct {
	text     string   // escaped for the entity
	at       geom.Vec // TEXT: the baseline point; MTEXT: the top of the first line
	height   float64
	rotation float64 // degrees counter-clockwise
	align    int     // 0 left, 1 centre, 2 right
	style    int     // index into the styles
}

// addText adds a text as TEXT or MTEXT entities and answers true, or answers false when the
// text must be written as its outlines (see the file's comment).
func (d *dxfDoc) addText(t *scene.Text, m geom.Affine, layer, color int) bool {
	scale, ok := dxfSimilarity(m)
	if !ok || strings.ContainsFunc(t.Text, func(r rune) bool { return r > 0xFFFF }) {
		return false
	}
	lines := strings.Split(strings.ReplaceAll(t.Text, "\r", ""), "\n")
	escaped := make([]string, len(lines))
	long := false
	for i, l := range lines {
		escaped[i] = dxfEscape(l, false)
		long = long || len(escaped[i]) > dxfMaxText
	}
	shape := dxfTextShape{
		height:   t.Size * scale,
		rotation: normDegrees(math.Atan2(m.B, m.A) * 180 / math.Pi),
		align:    dxfAlign(t.Align),
		style:    d.style(t),
	}
	if d.version == DXF2000 && (len(lines) > 1 || long) {
		// MTEXT hangs from the top of its first line: one text height above the baseline.
		shape.at = m.Apply(t.Pos.Add(geom.Vec{Y: t.Size}))
		shape.text = dxfEscape(strings.ReplaceAll(t.Text, "\r", ""), true)
		d.shapes = append(d.shapes, dxfShape{kind: dxfMText, layer: layer, color: color, text: &shape})
		return true
	}
	if long {
		return false
	}
	for i, l := range escaped {
		if l == "" {
			continue
		}
		line := shape
		line.text = l
		line.at = m.Apply(t.Pos.Add(geom.Vec{Y: -float64(i) * text.LineSpacing * t.Size}))
		d.shapes = append(d.shapes, dxfShape{kind: dxfTextLine, layer: layer, color: color, text: &line})
	}
	return true
}

// dxfSimilarity is the scale of a map that only moves, turns and scales evenly; ok is false
// for a map that mirrors, scales unevenly or shears, which a TEXT cannot follow.
func dxfSimilarity(m geom.Affine) (scale float64, ok bool) {
	scale = math.Hypot(m.A, m.B)
	tol := 1e-9 * scale
	if !(scale > 0) || math.IsInf(scale, 0) || math.Abs(m.A-m.D) > tol || math.Abs(m.B+m.C) > tol {
		return 0, false
	}
	return scale, true
}

// dxfAlign is a TEXT's horizontal justification (group 72) for a text's alignment; the
// MTEXT attachment point (group 71) is one more.
func dxfAlign(a text.Align) int {
	switch a {
	case text.AlignCenter:
		return 1
	case text.AlignRight:
		return 2
	}
	return 0
}

// style is the index of the STYLE for a text's font, added on first use: named as the font
// (made a valid table name, never Standard) and naming its file, "txt" (the CAD programs'
// own default font) when the font's file is not known.
func (d *dxfDoc) style(t *scene.Text) int {
	font := t.Font
	if font == "" {
		font = text.DefaultFont
	}
	for i, s := range d.styles {
		if s.font == font {
			return i
		}
	}
	if d.styleNames == nil {
		d.styleNames = map[string]bool{"STANDARD": true}
	}
	maxLen := 31
	if d.version == DXF2000 {
		maxLen = 255
	}
	file := t.FontFile()
	if file == "" {
		file = "txt"
	}
	d.styles = append(d.styles, dxfStyle{font: font, name: dxfLayerName(font, maxLen, d.styleNames), file: file})
	return len(d.styles) - 1
}

// dxfPercent are the characters DXF has %% codes for. Every CAD program reads these codes,
// in TEXT, MTEXT and a dimension's text; LibreCAD drops them written as \U+XXXX, and a
// plate's "Ø8" printed as "8".
var dxfPercent = map[rune]string{'Ø': "%%c", '°': "%%d", '±': "%%p"}

// dxfEscape writes a string as DXF text holds it, in ASCII: a control character in caret
// notation (a tab is ^I) and a caret as "^ "; Ø, ° and ± as %%c, %%d and %%p, another
// character past ASCII as \U+XXXX; a percent sign that a reader would take for the start of
// a code (before another, or before Ø, ° or ±) as %%%. A backslash that would start a \U+
// is one itself. In MTEXT a line break is \P and a backslash and braces are escaped.
func dxfEscape(s string, mtext bool) string {
	var b strings.Builder
	for i, r := range s {
		rest := s[i+len(string(r)):]
		switch {
		case mtext && r == '\n':
			b.WriteString(`\P`)
		case mtext && (r == '\\' || r == '{' || r == '}'):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\\' && (strings.HasPrefix(rest, "U+") || strings.HasPrefix(rest, "M+")):
			b.WriteString(`\U+005C`)
		case r == '^':
			b.WriteString("^ ")
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 64)
		case r == '%' && (strings.HasPrefix(rest, "%") || strings.HasPrefix(dxfPercent[firstRune(rest)], "%")):
			b.WriteString("%%%")
		case dxfPercent[r] != "":
			b.WriteString(dxfPercent[r])
		case r >= 0x7f:
			fmt.Fprintf(&b, `\U+%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// firstRune is s's first character, or 0 for "".
func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// styleRecord writes a STYLE table entry for a font file, at no fixed height.
func (w *dxfWriter) styleRecord(owner, name, file string) {
	w.record("STYLE", owner, "AcDbTextStyleTableRecord", name)
	w.tag(40, "0.0")
	w.tag(41, "1.0")
	w.tag(50, "0.0")
	w.int(71, 0)
	w.tag(42, "2.5")
	w.tag(3, file)
	w.tag(4, "")
}

// text writes a TEXT or an MTEXT entity.
func (w *dxfWriter) text(sh *dxfShape, layer string, styles []dxfStyle) {
	t := sh.text
	if sh.kind == dxfTextLine {
		w.entity("TEXT", layer, sh.color, "", "AcDbText")
		w.point(t.at)
		w.coord(40, t.height)
		w.tag(1, t.text)
		if t.rotation != 0 {
			w.angle(50, t.rotation)
		}
		w.tag(7, styles[t.style].name)
		if t.align != 0 {
			w.int(72, t.align)
			w.pointAt(11, t.at)
		}
		if w.r2000 {
			w.tag(100, "AcDbText")
		}
		return
	}
	w.entity("MTEXT", layer, sh.color, "", "AcDbMText")
	w.point(t.at)
	w.coord(40, t.height)
	w.int(71, t.align+1)
	w.int(72, 1) // left to right
	s := t.text
	for len(s) > dxfMaxText {
		n := dxfMaxText
		if s[n-1] == '^' {
			n-- // a caret and the character it escapes stay in one chunk
		}
		w.tag(3, s[:n])
		s = s[n:]
	}
	w.tag(1, s)
	w.tag(7, styles[t.style].name)
	// The direction as a vector: MTEXT's angle (group 50) is read in degrees by some
	// programs and in radians by others.
	sin, cos := math.Sincos(t.rotation * math.Pi / 180)
	w.real(11, cos, 1e-15, 15)
	w.real(21, sin, 1e-15, 15)
	w.tag(31, "0.0")
	w.int(73, 2) // the spacing is exactly the factor's
	w.angle(44, dxfMTextSpacing)
}
