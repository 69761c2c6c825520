package runtime

// Workspace fonts. A script names a font with {font: 'NAME'} in drawText or the third
// argument of getTextMetrics; a name that is not an embedded font is the workspace's
// fonts/NAME.ttf, .otf or .ttc, read through the Source (so a worker asks its parent, and the
// workspace type does the reading), parsed once per run by text.LoadFont.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene/text"
)

// ErrFontNotFound is returned by a FontSource for a font it does not hold.
var ErrFontNotFound = errors.New("font not found")

// FontExts are the extensions a workspace font may have, in the order they are looked for.
var FontExts = []string{".ttf", ".otf", ".ttc"}

// FontSource is a Source that can also hold fonts (fonts/NAME.ttf, .otf or .ttc). A Source
// that is not a FontSource has no workspace fonts.
type FontSource interface {
	// ReadFont returns the font file's bytes and its workspace path; a missing font wraps
	// ErrFontNotFound.
	ReadFont(name string) (data []byte, path string, err error)
	// FontNames lists the workspace fonts by NAME, sorted.
	FontNames() []string
}

// font returns the named font for a text: "" or an embedded name is nil (the scene lays
// those out itself); any other name is a workspace font, loaded once per run.
func (r *run) font(name string) (*text.Font, error) {
	if name == "" || slices.Contains(text.FontNames(), name) {
		return nil, nil
	}
	if f, ok := r.fonts[name]; ok {
		return f, nil
	}
	fsrc, ok := r.src.(FontSource)
	var data []byte
	var err error
	if ok {
		data, _, err = fsrc.ReadFont(name)
	} else {
		err = ErrFontNotFound
	}
	if errors.Is(err, ErrFontNotFound) {
		have := "the workspace has none"
		if ok && len(fsrc.FontNames()) > 0 {
			have = "the workspace has " + strings.Join(fsrc.FontNames(), ", ")
		}
		return nil, fmt.Errorf("%w %q: not an embedded font (%s) and no fonts/%s.ttf, .otf or .ttc (%s)",
			text.ErrUnknownFont, name, strings.Join(text.FontNames(), ", "), name, have)
	}
	if err != nil {
		return nil, fmt.Errorf("reading font %q: %w", name, err)
	}
	f, err := text.LoadFont(name, data)
	if err != nil {
		return nil, err
	}
	if r.fonts == nil {
		r.fonts = map[string]*text.Font{}
	}
	r.fonts[name] = f
	return f, nil
}

// ReadFont implements FontSource: a MapSource holds fonts under "fonts/NAME.ttf" (or .otf,
// .ttc) keys.
func (m MapSource) ReadFont(name string) ([]byte, string, error) {
	for _, ext := range FontExts {
		if b, ok := m["fonts/"+name+ext]; ok {
			return []byte(b), "fonts/" + name + ext, nil
		}
	}
	return nil, "fonts/" + name + ".ttf", fmt.Errorf("%w: %q", ErrFontNotFound, name)
}

// FontNames implements FontSource.
func (m MapSource) FontNames() []string { return fontNamesOf(slices.Collect(maps.Keys(m)), "fonts/") }

// fontNamesOf picks NAME out of paths prefix+NAME.ext, sorted and without duplicates.
func fontNamesOf(paths []string, prefix string) []string {
	var out []string
	for _, p := range paths {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		for _, ext := range FontExts {
			if n, ok := strings.CutSuffix(rest, ext); ok && n != "" && !strings.Contains(n, "/") {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ReadFont implements FontSource: fonts come from the base.
func (o Overlay) ReadFont(name string) ([]byte, string, error) {
	if f, ok := o.Base.(FontSource); ok {
		return f.ReadFont(name)
	}
	return nil, "fonts/" + name + ".ttf", fmt.Errorf("%w: %q", ErrFontNotFound, name)
}

// FontNames implements FontSource.
func (o Overlay) FontNames() []string {
	if f, ok := o.Base.(FontSource); ok {
		return f.FontNames()
	}
	return nil
}

// ReadFont implements FontSource.
func (s FSSource) ReadFont(name string) ([]byte, string, error) {
	for _, ext := range FontExts {
		p := "fonts/" + name + ext
		b, err := fs.ReadFile(s.FS, p)
		if err == nil {
			return b, p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, p, err
		}
	}
	return nil, "fonts/" + name + ".ttf", fmt.Errorf("%w: %q", ErrFontNotFound, name)
}

// FontNames implements FontSource.
func (s FSSource) FontNames() []string {
	entries, _ := fs.ReadDir(s.FS, "fonts")
	var paths []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			paths = append(paths, e.Name())
		}
	}
	return fontNamesOf(paths, "")
}

// ReadFont implements FontSource by asking the parent.
func (s *remoteSource) ReadFont(name string) ([]byte, string, error) {
	r := s.ask(message{Type: "font", Name: name})
	switch {
	case r.Missing:
		return nil, r.Path, fmt.Errorf("%w: %q", ErrFontNotFound, name)
	case r.Err != "":
		return nil, r.Path, errors.New(r.Err)
	}
	return r.Content, r.Path, nil
}

// FontNames implements FontSource by asking the parent.
func (s *remoteSource) FontNames() []string { return s.ask(message{Type: "fonts"}).Names }

// serveFont answers a worker's "font" request from src and remembers the parsed font, so
// that the scene the worker sends back can be read with it.
func serveFont(src Source, name string, served map[string]*text.Font) message {
	reply := message{Type: "file", Name: name}
	fsrc, ok := src.(FontSource)
	if !ok {
		reply.Missing = true
		return reply
	}
	data, path, err := fsrc.ReadFont(name)
	reply.Path, reply.Content = path, data
	switch {
	case errors.Is(err, ErrFontNotFound):
		reply.Missing = true
	case err != nil:
		reply.Err = err.Error()
	default:
		if f, err := text.LoadFont(name, data); err == nil {
			served[name] = f
		}
	}
	return reply
}

// fontNames lists src's workspace fonts.
func fontNames(src Source) []string {
	if f, ok := src.(FontSource); ok {
		return f.FontNames()
	}
	return nil
}

// maxFallbackNotes caps the warnings that say which fonts drew what a text's font lacks.
const maxFallbackNotes = 5

// fallback returns the fonts that draw the characters of str that main (nil: the embedded
// font named mainName) lacks: the workspace's fonts first, by name, then the machine's
// (text.SystemFallback). A character none has is left to the layout's missing-glyph error.
// Each new set of fonts used is said in a warning, so that a drawing that depends on the
// machine's fonts says so.
func (c *call) fallback(main *text.Font, mainName, str string) []*text.Font {
	r := c.r
	if main == nil {
		var err error
		if main, err = text.EmbeddedFont(mainName); err != nil {
			return nil // the layout reports the unknown font
		}
	}
	lacks := main.Lacks(str)
	if len(lacks) == 0 {
		return nil
	}
	var chain []*text.Font
	var drawn [][]rune // what each font of chain draws
	take := func(f *text.Font) {
		var has, left []rune
		for _, ch := range lacks {
			if f.Has(ch) {
				has = append(has, ch)
			} else {
				left = append(left, ch)
			}
		}
		if len(has) > 0 {
			chain, drawn, lacks = append(chain, f), append(drawn, has), left
		}
	}
	for _, name := range fontNames(r.src) {
		if len(lacks) == 0 {
			break
		}
		if name == main.Name() {
			continue
		}
		if f, err := r.font(name); err == nil && f != nil {
			take(f)
		}
	}
	if len(lacks) > 0 {
		for _, f := range text.SystemFallback(lacks) {
			take(f)
		}
	}
	c.noteFallback(main.Name(), chain, drawn)
	return chain
}

// noteFallback warns, once per font and set of fallback fonts, which fonts drew what main
// lacks, and where.
func (c *call) noteFallback(main string, chain []*text.Font, drawn [][]rune) {
	r := c.r
	if len(chain) == 0 {
		return
	}
	var parts []string
	system := false
	for i, f := range chain {
		what := fmt.Sprintf("%q", string(drawn[i][:min(len(drawn[i]), 8)]))
		if len(drawn[i]) > 8 {
			what += fmt.Sprintf(" and %d more characters", len(drawn[i])-8)
		}
		if path := text.SystemFontPath(f.Name()); strings.HasPrefix(f.Name(), text.SystemFontPrefix) {
			system = true
			parts = append(parts, fmt.Sprintf("%s in the system font %s (%s)", what, f.Name(), path))
		} else {
			parts = append(parts, fmt.Sprintf("%s in the workspace font %s", what, f.Name()))
		}
	}
	key := main + "\x00" + strings.Join(parts, "\x00")
	if slices.Contains(r.fallbackNotes, key) {
		return
	}
	r.fallbackNotes = append(r.fallbackNotes, key)
	if len(r.fallbackNotes) > maxFallbackNotes {
		return
	}
	var d Diagnostic
	r.placeAtStack(&d, r.vm.CaptureCallStack(0, nil))
	at := ""
	if d.File != "" {
		at = fmt.Sprintf(" (%s:%d:%d)", d.File, d.Line, d.Column)
	}
	msg := fmt.Sprintf("%s%s: font %q lacks characters, drawn %s", c.fn.Name, at, main, strings.Join(parts, ", "))
	if system {
		msg += "; another machine may have another font or none: put the font in fonts/ and pass {font: 'NAME'} to draw the same everywhere"
	}
	r.res.Warnings = append(r.res.Warnings, msg)
}
