package runtime

// Workspace fonts. A script names a font with {font: 'NAME'} in drawText or the third
// argument of getTextMetrics; a name that is not an embedded font is the workspace's
// fonts/NAME.ttf, .otf or .ttc, read through the Source (so a worker asks its parent, and the
// workspace type does the reading), parsed once per run by scene.LoadFont.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
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
func (r *run) font(name string) (*scene.Font, error) {
	if name == "" || slices.Contains(scene.FontNames(), name) {
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
			scene.ErrUnknownFont, name, strings.Join(scene.FontNames(), ", "), name, have)
	}
	if err != nil {
		return nil, fmt.Errorf("reading font %q: %w", name, err)
	}
	f, err := scene.LoadFont(name, data)
	if err != nil {
		return nil, err
	}
	if r.fonts == nil {
		r.fonts = map[string]*scene.Font{}
	}
	r.fonts[name] = f
	return f, nil
}

// MapSource holds fonts under "fonts/NAME.ttf" (or .otf, .ttc) keys.

// ReadFont implements FontSource.
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
func serveFont(src Source, name string, served map[string]*scene.Font) message {
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
		if f, err := scene.LoadFont(name, data); err == nil {
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
