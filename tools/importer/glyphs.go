package importer

// Characters no font draws. drawText draws a character its font lacks in a workspace font or
// a system font that has it, and fails when none has it; a drawing from elsewhere (a
// Devanagari label, an emoji in an SVG) would then refuse the whole import over one glyph. So
// the importer asks the fonts the module's run will ask (cadrun's own and the machine's) and
// writes each character none of them has as a box, the mark a renderer shows for a character
// its fonts lack, keeping the file's text in a comment above the call and naming the
// characters and where in the report's notes. A character a system font has is left to
// drawText's fallback, which draws it and says which font did.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene/text"
)

// missingGlyph stands for a character no font draws: a white square, which the fonts the
// import draws in (DejaVu Sans and its bold) have.
const missingGlyph = '□'

// maxMissingListed caps the characters a note lists; the rest are counted.
const maxMissingListed = 12

// missingChars gathers, per kind of entity, the characters drawn as missingGlyph, for the
// notes the import ends with (noteMissing).
type missingChars struct {
	runes []rune // in the order first met
	first int    // the line of the first entity that had one
	texts int    // entities that had one
}

// drawable returns s with every character that neither font (an embedded font's name) nor
// the machine's fonts draw replaced by missingGlyph, and a comment line (ending in a line
// break, indented by nothing) that keeps the file's text, or "" when nothing was replaced.
// The entity is of kind, at line of the file.
func (g *gen) drawable(kind string, line int, s, font string) (string, string) {
	f, err := text.EmbeddedFont(font)
	if err != nil {
		return s, ""
	}
	lacks := f.Lacks(s)
	if len(lacks) == 0 {
		return s, ""
	}
	for _, sf := range text.SystemFallback(lacks) {
		lacks = slices.DeleteFunc(lacks, sf.Has)
	}
	if len(lacks) == 0 {
		return s, ""
	}
	if g.missing == nil {
		g.missing = map[string]*missingChars{}
	}
	m := g.missing[kind]
	if m == nil {
		m = &missingChars{first: line}
		g.missing[kind] = m
	}
	m.texts++
	for _, r := range lacks {
		if !slices.Contains(m.runes, r) {
			m.runes = append(m.runes, r)
		}
	}
	out := strings.Map(func(r rune) rune {
		if slices.Contains(lacks, r) {
			return missingGlyph
		}
		return r
	}, s)
	return out, fmt.Sprintf("// the file's text (line %d): %s; no font here draws %s\n", line, jsComment(jsString(s)), runeList(lacks, len(lacks)))
}

// noteMissing writes the report's notes of the characters drawn as missingGlyph, one per
// kind of entity.
func (g *gen) noteMissing() {
	for kind, m := range g.missing {
		if g.rep.Notes == nil {
			g.rep.Notes = map[string]int{}
		}
		g.rep.Notes[fmt.Sprintf("%s: characters no font here draws, drawn as %c: %s (first at line %d; the module keeps each text as the file has it in a comment above its call: to draw them, put a font that has them in fonts/ and write the text back with {font: 'NAME'})",
			kind, missingGlyph, runeList(m.runes, maxMissingListed), m.first)] += m.texts
	}
}

// runeList names runes as U+XXXX and the character, at most n of them, the rest counted.
func runeList(runes []rune, n int) string {
	var parts []string
	for i, r := range runes {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(runes)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("U+%04X %s", r, string(r)))
	}
	return strings.Join(parts, ", ")
}
