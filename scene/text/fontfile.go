package text

// Fonts a workspace brings (fonts/NAME.ttf, .otf or .ttc), for the scripts the embedded fonts
// do not cover: Hangul, CJK, and anything else. The bytes come from the caller (the runtime
// reads them through the workspace); this file only parses them, defensively, since a font
// file is untrusted input, and caches the parsed faces by name and content so that a server
// running the same workspace again keeps its glyph caches warm.

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"unicode"

	"golang.org/x/image/font/sfnt"
)

const (
	// MaxFontBytes caps a workspace font file; CJK fonts run to 20 MB.
	MaxFontBytes = 32 << 20
	// maxCachedFonts caps the parsed workspace fonts kept in memory.
	maxCachedFonts = 16
)

// ErrBadFont is returned for a font file that cannot be used.
var ErrBadFont = errors.New("bad font file")

// Font is a parsed workspace font. It is safe for concurrent use.
type Font struct{ f *face }

// Name is the name the font was loaded under (NAME of fonts/NAME.ttf).
func (f *Font) Name() string { return f.f.name }

// Measure returns the metrics of text in this font, and each character it lacks in the first
// of fallback that has it, as MeasureString does for the embedded fonts alone.
func (f *Font) Measure(text string, size float64, fallback ...*Font) (Layout, error) {
	return layoutWith(text, size, AlignLeft, func() (*face, error) { return f.f, nil }, faces(fallback), false)
}

// EmbeddedFont returns an embedded font by name ("" is DefaultFont), as a Font.
func EmbeddedFont(name string) (*Font, error) {
	f, err := lookupFont(name)
	if err != nil {
		return nil, err
	}
	return &Font{f: f}, nil
}

// Lacks lists, once each and in order, the characters of text that f cannot draw and that
// a fallback font could: not whitespace, which advances like a space, and not control
// characters, which are an error in any font.
func (f *Font) Lacks(text string) []rune {
	b := sfntBufferPool.Get().(*sfnt.Buffer)
	defer sfntBufferPool.Put(b)
	var out []rune
	for _, r := range text {
		if unicode.IsSpace(r) || unicode.IsControl(r) || slices.Contains(out, r) {
			continue
		}
		if g, err := f.f.glyph(b, r); err == nil && g == nil {
			out = append(out, r)
		}
	}
	return out
}

// Has tells whether f draws r.
func (f *Font) Has(r rune) bool {
	b := sfntBufferPool.Get().(*sfnt.Buffer)
	defer sfntBufferPool.Put(b)
	g, err := f.f.glyph(b, r)
	return err == nil && g != nil
}

// faces unwraps fonts.
func faces(fonts []*Font) []*face {
	out := make([]*face, len(fonts))
	for i, f := range fonts {
		out[i] = f.f
	}
	return out
}

type fontKey struct {
	name string
	sum  [sha256.Size]byte
}

var fontCache = struct {
	sync.Mutex
	byKey map[fontKey]*Font
	order []fontKey // oldest first
}{byKey: map[fontKey]*Font{}}

// LoadFont parses a font file (TrueType, OpenType with TrueType or CFF outlines, or the first
// font of a collection) to be used under name. The data must not be changed afterwards.
func LoadFont(name string, data []byte) (*Font, error) {
	if len(data) > MaxFontBytes {
		return nil, fmt.Errorf("%w: font %q is %d bytes; the limit is %d (MaxFontBytes)", ErrBadFont, name, len(data), MaxFontBytes)
	}
	key := fontKey{name, sha256.Sum256(data)}
	fontCache.Lock()
	if f, ok := fontCache.byKey[key]; ok {
		fontCache.Unlock()
		return f, nil
	}
	fontCache.Unlock()

	f, err := parseFont(name, data)
	if err != nil {
		return nil, err
	}
	fontCache.Lock()
	defer fontCache.Unlock()
	if old, ok := fontCache.byKey[key]; ok {
		return old, nil // parsed twice at once: keep the first, with its warm cache
	}
	if len(fontCache.order) >= maxCachedFonts {
		delete(fontCache.byKey, fontCache.order[0])
		fontCache.order = fontCache.order[1:]
	}
	fontCache.byKey[key] = f
	fontCache.order = append(fontCache.order, key)
	return f, nil
}

// parseFont parses and checks a font; a malformed file is an error, never a panic.
func parseFont(name string, data []byte) (font *Font, err error) {
	defer func() {
		if r := recover(); r != nil {
			font, err = nil, fmt.Errorf("%w: font %q could not be read (%v); use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)", ErrBadFont, name, r)
		}
	}()
	const hint = "use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)"
	if len(data) < 12 { // smaller than an sfnt header
		return nil, fmt.Errorf("%w: font %q is %d bytes, too short to be a font; %s", ErrBadFont, name, len(data), hint)
	}
	var sf *sfnt.Font
	if c, cerr := sfnt.ParseCollection(data); cerr == nil && c.NumFonts() > 0 {
		sf, err = c.Font(0)
	} else {
		sf, err = sfnt.Parse(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: font %q: %v; %s", ErrBadFont, name, err, hint)
	}
	fc := &face{name: name, font: sf}
	if err := fc.load(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFont, err)
	}
	// Lay out a line once, so that a font whose glyph data is broken fails here, at load,
	// rather than in the middle of a drawing.
	if _, err := fc.layout("Hg0", 1, 0, true); err != nil && !errors.Is(err, ErrMissingGlyph) {
		return nil, fmt.Errorf("%w: font %q: %v", ErrBadFont, name, err)
	}
	return &Font{f: fc}, nil
}
