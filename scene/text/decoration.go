package text

// Where a font draws the lines over and under its text: the underline's position and
// thickness from the font's post table and the strikeout's from its OS/2 table, as renderers
// draw text-decoration. golang.org/x/image/font/sfnt reads the post table but not the OS/2
// table's strikeout fields, which are read here from the table directory.

import (
	"encoding/binary"
)

// Decoration is where a font's decoration lines lie, in ems, Y up from the baseline: each
// line's top edge and its thickness.
type Decoration struct {
	UnderlineTop, UnderlineThickness float64
	StrikeoutTop, StrikeoutThickness float64
	// Ascent is the font's ascent, the top edge of an overline (which fonts do not give),
	// drawn as thick as the underline.
	Ascent float64
}

// The conventional lines, in ems, for a font that gives none: an underline a tenth of an em
// under the baseline, a strikeout at a quarter em (about half the x-height of a Latin face),
// both a twentieth of an em thick.
const (
	defaultUnderlineTop        = -0.1
	defaultStrikeoutTop        = 0.3
	defaultDecorationThickness = 0.05
)

// Decorations returns the decoration lines of an embedded font ("" is DefaultFont).
func Decorations(fontName string) (Decoration, error) {
	f, err := lookupFont(fontName)
	if err != nil {
		return Decoration{}, err
	}
	d := Decoration{UnderlineTop: defaultUnderlineTop, UnderlineThickness: defaultDecorationThickness,
		StrikeoutTop: defaultStrikeoutTop, StrikeoutThickness: defaultDecorationThickness, Ascent: f.ascent}
	if p := f.font.PostTable(); p != nil && p.UnderlineThickness > 0 {
		d.UnderlineTop = float64(p.UnderlinePosition) / f.upem
		d.UnderlineThickness = float64(p.UnderlineThickness) / f.upem
	}
	if size, pos, ok := strikeout(f.data); ok && size > 0 {
		d.StrikeoutTop = float64(pos) / f.upem
		d.StrikeoutThickness = float64(size) / f.upem
	}
	return d, nil
}

// strikeout reads yStrikeoutSize and yStrikeoutPosition from the OS/2 table of a TrueType
// or OpenType file (not a collection); false when the file has no such table.
func strikeout(data []byte) (size, pos int16, ok bool) {
	if len(data) < 12 {
		return 0, 0, false
	}
	n := int(binary.BigEndian.Uint16(data[4:]))
	for i := range n {
		rec := 12 + 16*i
		if rec+16 > len(data) {
			return 0, 0, false
		}
		if string(data[rec:rec+4]) != "OS/2" {
			continue
		}
		off, length := int(binary.BigEndian.Uint32(data[rec+8:])), int(binary.BigEndian.Uint32(data[rec+12:]))
		if length < 30 || off < 0 || off+30 > len(data) {
			return 0, 0, false
		}
		return int16(binary.BigEndian.Uint16(data[off+26:])), int16(binary.BigEndian.Uint16(data[off+28:])), true
	}
	return 0, 0, false
}
