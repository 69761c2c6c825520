package scene

import (
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/scene/text"
)

// The fonts a scene's texts are laid out in, by name, for writing the scene's JSON and
// reading it back; the fonts themselves (embedded, workspace, system) are package text's.

// Fonts returns the workspace and system fonts the scene's texts are laid out in, by name:
// what ReadJSONWithFonts needs to read the scene's JSON back.
func (s *Scene) Fonts() map[string]*text.Font {
	out := map[string]*text.Font{}
	for _, e := range s.Walk() {
		t, ok := e.Shape.(*Text)
		if !ok {
			continue
		}
		if t.font != nil {
			out[t.Font] = t.font
		}
		for i, fb := range t.fallback {
			out[t.Fallback[i]] = fb
		}
	}
	return out
}

// useFontsNamed gives a text read from JSON the fonts it names: its font when fonts holds it
// (an embedded one is looked up at layout), and each fallback font from fonts, or for a
// system font from the machine.
func (t *Text) useFontsNamed(fonts map[string]*text.Font) error {
	if f := fonts[t.Font]; f != nil {
		t.UseFont(f)
	}
	if len(t.Fallback) == 0 {
		return nil
	}
	fb := make([]*text.Font, len(t.Fallback))
	for i, name := range t.Fallback {
		fb[i] = fonts[name]
		if fb[i] != nil {
			continue
		}
		if !strings.HasPrefix(name, text.SystemFontPrefix) {
			return fmt.Errorf("%w %q (a fallback font): the workspace has no fonts/%s.ttf, .otf or .ttc", text.ErrUnknownFont, name, name)
		}
		f, err := text.SystemFontNamed(name)
		if err != nil {
			return err
		}
		fb[i] = f
	}
	t.UseFallback(fb)
	return nil
}
