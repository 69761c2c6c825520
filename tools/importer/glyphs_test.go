package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/text"
)

// TestMissingGlyphs: a character no font draws (Devanagari in a DXF TEXT and MTEXT, an emoji
// in an SVG text) refused the whole import, since the module's drawText failed on it. It is
// now drawn as a box, the file's text kept in a comment above the call and the characters
// named in the notes with where; a character some system font has is left to drawText's
// fallback. The module runs.
func TestMissingGlyphs(t *testing.T) {
	t.Parallel()
	for _, name := range []string{text.DefaultFont, "sans-bold"} { // the fonts the import draws in
		if f, err := text.EmbeddedFont(name); err != nil || !f.Has(missingGlyph) {
			t.Fatalf("font %s has no %c (%v)", name, missingGlyph, err)
		}
	}
	entities := func(body string) []byte {
		return []byte("0\nSECTION\n2\nENTITIES\n" + body + "0\nLINE\n10\n0\n20\n0\n11\n10\n21\n10\n0\nENDSEC\n0\nEOF\n")
	}
	svgText := func(attrs, text string) []byte {
		return []byte(doc(`<rect x="1" y="1" width="98" height="48" fill="none" stroke="black"/><text x="10" y="30" font-size="12"` + attrs + `>` + text + `</text>`))
	}
	for _, c := range []struct {
		name, file string
		data       []byte
		text       string // the text as the file has it
		kind       string // the note's kind
	}{
		{"dxf TEXT in Devanagari", "a.dxf", entities("0\nTEXT\n8\n0\n10\n0\n20\n0\n40\n5\n1\nनमस्ते\n"), "नमस्ते", "TEXT"},
		{"dxf MTEXT wrapped", "a.dxf", entities("0\nMTEXT\n8\n0\n10\n0\n20\n0\n40\n2\n41\n20\n1\nनमस्ते दुनिया and more words\n"), "नमस्ते दुनिया and more words", "MTEXT"},
		{"svg emoji", "a.svg", svgText("", "ok 👍 done"), "ok 👍 done", "text"},
		{"svg emoji bold", "a.svg", svgText(` font-weight="bold"`, "🚀 go"), "🚀 go", "text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, rep, err := read(c.file, c.data, Options{Source: c.file})
			if err != nil {
				t.Fatalf("the import was refused: %v", err)
			}
			res, err := runtime.Run(context.Background(), importedSource(code), runtime.MainModule, runtime.Options{})
			if err != nil {
				t.Fatalf("running the imported module: %v\n%s", err, code)
			}
			if b := res.Scene.Bounds(); !b.NonEmpty {
				t.Fatalf("nothing drawn\n%s", code)
			}
			// What this machine's fonts lack is boxed; what one of them has is drawn by it.
			var lacks []rune
			want := strings.Map(func(r rune) rune {
				if r > 0x7f && len(text.SystemFallback([]rune{r})) == 0 {
					lacks = append(lacks, r)
					return missingGlyph
				}
				return r
			}, c.text)
			if len(lacks) == 0 {
				t.Skipf("a system font has every character of %q", c.text)
			}
			if c.kind != "MTEXT" && !strings.Contains(code, ", '"+want+"', ") {
				t.Errorf("the text is not drawn as %q\n%s", want, code)
			}
			if !strings.Contains(code, "// the file's text (line ") || !strings.Contains(code, "'"+c.text+"'") {
				t.Errorf("the file's text is not kept in a comment\n%s", code)
			}
			var note string
			for n := range rep.Notes {
				if strings.HasPrefix(n, c.kind+": characters no font here draws, drawn as □: ") {
					note = n
				}
			}
			if note == "" {
				t.Fatalf("no note of the characters: %v", rep.Notes)
			}
			for _, r := range lacks {
				if !strings.Contains(note, string(r)) {
					t.Errorf("the note does not name %q: %s", r, note)
				}
			}
			if !strings.Contains(note, "first at line ") {
				t.Errorf("the note does not say where: %s", note)
			}
		})
	}
}
