package text

// Text becomes outlines here, not a font reference, so that every renderer, boolean and bounds
// computation treats a label like any other shape and the output never depends on the fonts
// installed where it is viewed. The fonts are embedded, so a layout is byte-identical on every
// machine: DejaVu Sans (Debian's fonts-dejavu-core 2.37, Bitstream Vera licence, beside it in
// fonts/) is the default because its zero is plain, so "Ø10" and "80" read right on a
// mechanical drawing; the Go fonts (golang.org/x/image), whose zero is slashed, stay selectable
// by name. A workspace may bring its own fonts (LoadFont).
//
// Glyphs are loaded once per font at ppem = units-per-em, where sfnt's 26.6 values are exact
// font units, then kept in em units (size 1) as float64 and scaled to the requested size at
// layout time. Loading at the target size instead would round every coordinate to 1/64 of a
// unit and make small labels lumpy and metrics non-linear in size.

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/cadrun/cadrun/scene/geom"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Text limits and conventions.
const (
	// DefaultFont is the font used when a text names none.
	DefaultFont = "sans"
	// MaxTextRunes caps the runes of one text, so that a runaway script cannot build a
	// path of millions of segments; the limit is far above any drawing label.
	MaxTextRunes = 10000
	// MaxTextSegments caps the outline segments (lines and curves, about one for each point of
	// the font's outlines) of one scene's texts together, so that what a scene's texts hold
	// follows the budget, not the font: a workspace font of 11,000-point letters would
	// otherwise make two 100-letter labels 2.2 million segments, 160 MB held by every process
	// that reads the scene. DejaVu Sans draws a letter in 18 segments on average, so the limit
	// is about 55,000 letters.
	MaxTextSegments = 1_000_000
	// LineSpacing is the baseline-to-baseline distance in multiples of the text size. It is
	// fixed rather than taken from the font so that line positions are easy to predict
	// from a script.
	LineSpacing = 1.2
	// tabSpaces is the width of a tab stop in spaces; a tab advances to the next stop.
	tabSpaces = 4
)

var (
	// ErrUnknownFont is returned when a font name is not one of FontNames.
	ErrUnknownFont = errors.New("unknown font")
	// ErrUnknownAlign is returned when a text alignment is not left, center, right or empty.
	ErrUnknownAlign = errors.New("unknown text align")
	// ErrInvalidTextSize is returned when a text size is not a finite number above zero.
	ErrInvalidTextSize = errors.New("invalid text size")
	// ErrTextTooLong is returned when a text has more than MaxTextRunes runes.
	ErrTextTooLong = errors.New("text too long")
	// ErrMissingGlyph is returned (inside a *GlyphError) when the font cannot draw a rune.
	// Drawing nothing instead would silently drop characters from a dimension or a label.
	ErrMissingGlyph = errors.New("missing glyph")
	// ErrLimit is returned, wrapped, when a text's outlines pass MaxTextSegments. It is also
	// the scene's ErrLimit, for every cap a scene passes.
	ErrLimit = errors.New("limit exceeded")
)

// Align places each line of a text horizontally relative to the anchor.
type Align string

// Text alignments. The empty Align means AlignLeft.
const (
	AlignLeft   Align = "left"   // the line starts at the anchor
	AlignCenter Align = "center" // the line's advance width is centred on the anchor
	AlignRight  Align = "right"  // the line ends at the anchor
)

// alignFactor is the fraction of a line's width it is shifted left by.
func alignFactor(a Align) (float64, error) {
	switch a {
	case "", AlignLeft:
		return 0, nil
	case AlignCenter:
		return 0.5, nil
	case AlignRight:
		return 1, nil
	}
	return 0, fmt.Errorf("%w %q; use one of: %s, %s, %s", ErrUnknownAlign, string(a), AlignLeft, AlignCenter, AlignRight)
}

// Layout is a text turned into outlines, with its metrics in scene units.
type Layout struct {
	// Path holds the glyph outlines. The anchor (0,0) is on the first line's baseline; later
	// lines go down (negative Y). Outer contours run counter-clockwise and holes clockwise,
	// like the other shapes in scene, so a nonzero fill draws the holes of 'o' and 'A'.
	Path geom.Path `json:"-"`
	// Width is the largest line advance width (not the ink width: side bearings and
	// trailing spaces count, so that alignment does not depend on the letters' shapes).
	Width float64 `json:"width"`
	// Height is Ascent + Descent + (Lines-1)*LineSpacing*size.
	Height float64 `json:"height"`
	// Ascent is the font's ascent above the first baseline; Descent its descent below the
	// last baseline, positive.
	Ascent  float64 `json:"ascent"`
	Descent float64 `json:"descent"`
	// Lines is the number of lines: one more than the number of "\n" in the text.
	Lines int `json:"lines"`
}

// GlyphError reports a rune that a font cannot draw. errors.Is(err, ErrMissingGlyph) holds.
type GlyphError struct {
	Font string
	Rune rune
	// Suggestion is a look-alike the font does have, or "" when none is known.
	Suggestion string
}

// Error names the font, the rune and its code point, and the suggestion if any.
func (e *GlyphError) Error() string {
	msg := fmt.Sprintf("font %q has no glyph for %q (U+%04X)", e.Font, string(e.Rune), e.Rune)
	switch {
	case e.Suggestion != "":
		msg += fmt.Sprintf("; try %q", e.Suggestion)
	case !unicode.IsControl(e.Rune):
		// Another script (Hangul, CJK, ...): the workspace can bring a font that has it.
		msg += fmt.Sprintf("; add a font that has U+%04X to fonts/ (fonts/NAME.ttf, .otf or .ttc) and pass {font: 'NAME'}", e.Rune)
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrMissingGlyph) hold.
func (e *GlyphError) Unwrap() error { return ErrMissingGlyph }

// glyphSubstitutes maps symbols common in drawings that the Go fonts lack to a look-alike;
// a suggestion is only made when the font has the look-alike.
var glyphSubstitutes = map[rune]string{
	'⌀': "Ø", // U+2300 DIAMETER SIGN
	'∅': "Ø", // U+2205 EMPTY SET, often typed for a diameter
	'✓': "√", // U+2713 CHECK MARK
	'✔': "√", // U+2714 HEAVY CHECK MARK
	'✗': "×", // U+2717 BALLOT X
	'✘': "×", // U+2718 HEAVY BALLOT X
	'⇒': "→", // U+21D2 RIGHTWARDS DOUBLE ARROW
}

// fonts is the one table of embedded fonts. A name maps to its data; the parsed font and
// glyph cache live in the face and are filled on first use, so a program that draws no
// text parses nothing.
var fonts = map[string]*face{
	"sans":                {name: "sans", file: "DejaVuSans.ttf", data: dejaVuSans},
	"sans-bold":           {name: "sans-bold", file: "DejaVuSans-Bold.ttf", data: dejaVuSansBold},
	"sans-italic":         {name: "sans-italic", file: "DejaVuSans-Oblique.ttf", data: dejaVuSansOblique},
	"sans-bold-italic":    {name: "sans-bold-italic", file: "DejaVuSans-BoldOblique.ttf", data: dejaVuSansBoldOblique},
	"mono":                {name: "mono", file: "Go-Mono.ttf", data: gomono.TTF},
	"mono-bold":           {name: "mono-bold", file: "Go-Mono-Bold.ttf", data: gomonobold.TTF},
	"go-sans":             {name: "go-sans", file: "Go-Regular.ttf", data: goregular.TTF},
	"go-sans-bold":        {name: "go-sans-bold", file: "Go-Bold.ttf", data: gobold.TTF},
	"go-sans-italic":      {name: "go-sans-italic", file: "Go-Italic.ttf", data: goitalic.TTF},
	"go-sans-bold-italic": {name: "go-sans-bold-italic", file: "Go-Bold-Italic.ttf", data: gobolditalic.TTF},
}

// The DejaVu Sans faces (fonts/LICENSE-DejaVu.txt).
var (
	//go:embed fonts/DejaVuSans.ttf
	dejaVuSans []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	dejaVuSansBold []byte
	//go:embed fonts/DejaVuSans-Oblique.ttf
	dejaVuSansOblique []byte
	//go:embed fonts/DejaVuSans-BoldOblique.ttf
	dejaVuSansBoldOblique []byte
)

// fontNames is the sorted list of names in fonts, for error messages and FontNames.
var fontNames = func() []string {
	names := make([]string, 0, len(fonts))
	for n := range fonts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}()

// FontNames returns the names LayoutString accepts, sorted.
func FontNames() []string { return slices.Clone(fontNames) }

func lookupFont(name string) (*face, error) {
	if name == "" {
		name = DefaultFont
	}
	f, ok := fonts[name]
	if !ok {
		return nil, fmt.Errorf("%w %q; use one of: %s, or a workspace font in fonts/", ErrUnknownFont, name, strings.Join(fontNames, ", "))
	}
	if err := f.load(); err != nil {
		return nil, err
	}
	return f, nil
}

// sfntBufferPool holds sfnt buffers: a Buffer is scratch space that must not be shared by
// concurrent calls, while a parsed sfnt.Font may be.
var sfntBufferPool = sync.Pool{New: func() any { return new(sfnt.Buffer) }}

// latin1Runes is the number of runes whose glyphs are cached in a lock-free array: ASCII and
// Latin-1 cover almost every label (digits, Ø, °, ±, ×, µ), so the common path takes no lock.
const latin1Runes = 256

// face is one embedded font with its glyph cache. It is safe for concurrent use.
type face struct {
	name string
	// file is the font's file name as the font's makers publish it (DejaVuSans.ttf), for
	// writers that name a font rather than draw it (DXF STYLE); "" for a workspace font,
	// whose file name FontFile works out from its data.
	file string
	data []byte

	once  sync.Once
	err   error
	font  *sfnt.Font
	ppem  fixed.Int26_6 // = units per em, so that sfnt returns exact font units
	upem  float64
	space *glyph // the space glyph, also used for whitespace the font lacks
	// ascent and descent are in em units; descent is positive.
	ascent, descent float64

	low     [latin1Runes]atomic.Pointer[glyph]
	mu      sync.RWMutex
	high    map[rune]*glyph            // runes >= latin1Runes
	byIndex map[sfnt.GlyphIndex]*glyph // shares outlines between runes mapping to one glyph
	cached  int                        // the outline segments in byIndex, under mu
}

// maxCachedGlyphSegments caps the outline segments of the glyphs one face keeps (7 MB,
// where the ASCII letters of DejaVu Sans take about 1,700 segments), as MaxTextSegments
// caps a scene's texts: a process that lays out text in many workspace fonts over its life
// (a server) would otherwise keep every glyph it ever drew, a CJK font's 65,000 glyphs
// hundreds of megabytes. Past it a glyph is loaded for each layout and dropped.
const maxCachedGlyphSegments = 100_000

// glyph is a loaded glyph in em units (size 1), Y up, origin on the baseline at the pen.
type glyph struct {
	index   sfnt.GlyphIndex
	advance float64
	outline geom.Path // nil for blank glyphs such as space
}

// load parses the font once; every later call returns the first result.
func (f *face) load() error {
	f.once.Do(func() {
		f.err = f.parse()
		if f.err != nil {
			f.err = fmt.Errorf("parsing font %q: %w", f.name, f.err)
		}
	})
	return f.err
}

func (f *face) parse() error {
	sf := f.font
	if sf == nil {
		var err error
		if sf, err = sfnt.Parse(f.data); err != nil {
			return err
		}
	}
	f.font = sf
	f.ppem = fixed.Int26_6(sf.UnitsPerEm())
	f.upem = float64(sf.UnitsPerEm())
	f.high = make(map[rune]*glyph)
	f.byIndex = make(map[sfnt.GlyphIndex]*glyph)
	b := sfntBufferPool.Get().(*sfnt.Buffer)
	defer sfntBufferPool.Put(b)
	m, err := sf.Metrics(b, f.ppem, font.HintingNone)
	if err != nil {
		return fmt.Errorf("reading metrics: %w", err)
	}
	f.ascent = float64(m.Ascent) / f.upem
	f.descent = float64(m.Descent) / f.upem
	space, err := f.glyph(b, ' ')
	if err != nil {
		return err
	}
	if space == nil {
		return errors.New("font has no space glyph")
	}
	f.space = space
	return nil
}

// glyph returns the cached glyph for r, loading it on first use; it returns nil, nil when the
// font has no glyph for r.
func (f *face) glyph(b *sfnt.Buffer, r rune) (*glyph, error) {
	if r >= 0 && r < latin1Runes {
		if g := f.low[r].Load(); g != nil {
			return g, nil
		}
	} else {
		f.mu.RLock()
		g := f.high[r]
		f.mu.RUnlock()
		if g != nil {
			return g, nil
		}
	}
	idx, err := f.font.GlyphIndex(b, r)
	if err != nil {
		return nil, fmt.Errorf("looking up %q in font %q: %w", string(r), f.name, err)
	}
	if idx == 0 {
		// Misses are not cached: each one ends a layout with an error, and caching them
		// would let a stream of odd runes grow the cache without bound.
		return nil, nil
	}
	f.mu.RLock()
	g := f.byIndex[idx]
	f.mu.RUnlock()
	if g == nil {
		if g, err = f.loadGlyph(b, idx); err != nil {
			return nil, fmt.Errorf("loading glyph for %q from font %q: %w", string(r), f.name, err)
		}
	}
	// The first goroutine to store wins, so that every caller shares one outline.
	f.mu.Lock()
	if old := f.byIndex[idx]; old != nil {
		g = old
	} else if f.cached+len(g.outline) > maxCachedGlyphSegments {
		f.mu.Unlock()
		return g, nil // not kept (maxCachedGlyphSegments)
	} else {
		f.byIndex[idx] = g
		f.cached += len(g.outline)
	}
	if r >= 0 && r < latin1Runes {
		f.low[r].Store(g)
	} else {
		f.high[r] = g
	}
	f.mu.Unlock()
	return g, nil
}

func (f *face) loadGlyph(b *sfnt.Buffer, idx sfnt.GlyphIndex) (*glyph, error) {
	adv, err := f.font.GlyphAdvance(b, idx, f.ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	segs, err := f.font.LoadGlyph(b, idx, f.ppem, nil)
	if err != nil {
		return nil, err
	}
	return &glyph{index: idx, advance: float64(adv) / f.upem, outline: f.outline(segs)}, nil
}

// outline converts sfnt segments (font units, Y down) to a Path in em units with Y up, each
// contour closed and reversed. TrueType winds outer contours clockwise in its Y-up space;
// reversing makes them counter-clockwise like Rect and the other scene shapes, and keeps holes
// opposite, which is what a nonzero fill needs.
func (f *face) outline(segs sfnt.Segments) geom.Path {
	pt := func(p fixed.Point26_6) geom.Vec {
		return geom.Vec{X: float64(p.X) / f.upem, Y: -float64(p.Y) / f.upem}
	}
	var p geom.Path
	var contour geom.Path
	flush := func() {
		if len(contour) > 1 {
			p = appendReversed(p, contour)
		}
		contour = contour[:0]
	}
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			flush()
			contour.MoveTo(pt(s.Args[0]))
		case sfnt.SegmentOpLineTo:
			contour.LineTo(pt(s.Args[0]))
		case sfnt.SegmentOpQuadTo:
			contour.QuadTo(pt(s.Args[0]), pt(s.Args[1]))
		case sfnt.SegmentOpCubeTo:
			contour.CubicTo(pt(s.Args[0]), pt(s.Args[1]), pt(s.Args[2]))
		}
	}
	flush()
	return p
}

// appendReversed appends the closed contour c (a MoveTo then lines and curves, no Close) to p,
// traversed backwards, and closes it. The closing edge back to the start is implied by Close,
// so a final segment that only returns to the start is dropped.
func appendReversed(p geom.Path, c geom.Path) geom.Path {
	start := c[0].P[0]
	if end := c[len(c)-1].End(); end != start {
		c = append(c, geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{start}})
	}
	p = append(p, geom.Seg{Kind: geom.SegMove, P: [3]geom.Vec{start}})
	for i := len(c) - 1; i >= 1; i-- {
		s := c[i]
		from := c[i-1].End() // where s starts, and where its reverse ends
		if i == 1 && s.Kind == geom.SegLine {
			break // the line back to start is the Close
		}
		switch s.Kind {
		case geom.SegLine:
			p.LineTo(from)
		case geom.SegQuad:
			p.QuadTo(s.P[0], from)
		case geom.SegCubic:
			p.CubicTo(s.P[1], s.P[0], from)
		}
	}
	p.Close()
	return p
}

// kern returns the kerning between two glyphs in em units. The Go fonts carry no kerning
// today, but honouring it keeps layouts right if they gain some.
func (f *face) kern(b *sfnt.Buffer, a, c *glyph) (float64, error) {
	k, err := f.font.Kern(b, a.index, c.index, f.ppem, font.HintingNone)
	if errors.Is(err, sfnt.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("kerning in font %q: %w", f.name, err)
	}
	return float64(k) / f.upem, nil
}

// placement is a glyph at a pen position on its line, in em units.
type placement struct {
	g *glyph
	x float64
}

// LayoutString turns text into outlines at the given size (the em size, in scene units) with
// the named font ("" is DefaultFont; see FontNames).
//
// The anchor (0,0) is on the first line's baseline; align shifts each line by its own advance
// width. Lines are split on "\n" and are LineSpacing*size apart, going down. Kerning from the
// font is applied. A tab advances to the next stop every four spaces; "\r" is ignored so that
// CRLF text lays out like LF text; other whitespace the font lacks advances like a space.
// Any other rune the font lacks, and any other control character, is a *GlyphError rather
// than a blank, so that a label never silently loses a character; invalid UTF-8 decodes to
// U+FFFD, which the Go fonts draw.
func LayoutString(text string, size float64, align Align, fontName string) (Layout, error) {
	return layoutText(text, size, align, fontName, true)
}

// MeasureString returns the metrics LayoutString would, without building the outlines.
func MeasureString(text string, size float64, fontName string) (Layout, error) {
	return layoutText(text, size, AlignLeft, fontName, false)
}

// LayoutIn is LayoutString in font, or when font is nil in the embedded font named fontName,
// with each character the font lacks in the first of fallback that has it: a text shape's
// layout. A bad size or align is reported before the font is looked up.
func LayoutIn(font *Font, fontName, text string, size float64, align Align, fallback []*Font) (Layout, error) {
	f := func() (*face, error) { return lookupFont(fontName) }
	if font != nil {
		f = func() (*face, error) { return font.f, nil }
	}
	return layoutWith(text, size, align, f, faces(fallback), true)
}

// FontFile is the file name of font, or when font is nil of the embedded font named
// fontName, for a writer that names the font instead of drawing its outlines (a DXF STYLE):
// DejaVuSans.ttf for the default font, NAME.ttf, .otf or .ttc (by the data's signature) for
// a workspace font, and "" for a name that is no embedded font.
func FontFile(font *Font, fontName string) string {
	var f *face
	if font != nil {
		f = font.f
	} else {
		if fontName == "" {
			fontName = DefaultFont
		}
		if f = fonts[fontName]; f == nil {
			return ""
		}
	}
	if f.file != "" {
		return f.file
	}
	switch sig := string(f.data[:min(4, len(f.data))]); sig {
	case "OTTO":
		return f.name + ".otf"
	case "ttcf":
		return f.name + ".ttc"
	}
	return f.name + ".ttf"
}

func layoutText(text string, size float64, align Align, fontName string, withPath bool) (Layout, error) {
	return layoutWith(text, size, align, func() (*face, error) { return lookupFont(fontName) }, nil, withPath)
}

// layoutWith lays text out in the face font gives, and each character it lacks in the first
// of fallback that has it (font is called after the cheap checks, so that a bad size is
// reported before a font is looked up).
func layoutWith(text string, size float64, align Align, font func() (*face, error), fallback []*face, withPath bool) (Layout, error) {
	if !(size > 0) || math.IsInf(size, 0) {
		return Layout{}, fmt.Errorf("%w %v: must be a finite number > 0", ErrInvalidTextSize, size)
	}
	shift, err := alignFactor(align)
	if err != nil {
		return Layout{}, err
	}
	f, err := font()
	if err != nil {
		return Layout{}, err
	}
	if n := utf8.RuneCountInString(text); n > MaxTextRunes {
		return Layout{}, fmt.Errorf("%w: %d runes; the limit is %d", ErrTextTooLong, n, MaxTextRunes)
	}
	l, err := f.layout(text, size, shift, withPath, fallback...)
	if err != nil {
		return Layout{}, err
	}
	// A finite but huge size can still overflow once multiplied by a line count or a width;
	// infinite coordinates would poison every bounds and boolean downstream.
	if math.IsInf(l.Width, 0) || math.IsInf(l.Height, 0) {
		return Layout{}, fmt.Errorf("%w %v: the text would be too large to represent", ErrInvalidTextSize, size)
	}
	return l, nil
}

// layout lays text out in f, and each character f lacks in the first of fallback that has
// it. Kerning applies between two glyphs of one face; the ascent and descent are the largest
// of the faces that drew.
func (f *face) layout(text string, size, shift float64, withPath bool, fallback ...*face) (Layout, error) {
	b := sfntBufferPool.Get().(*sfnt.Buffer)
	defer sfntBufferPool.Put(b)

	var (
		placed   []placement
		lineEnds []int     // index into placed where each line ends
		widths   []float64 // advance width of each line, em units
		nsegs    int
		pen      float64
		prev     *glyph // for kerning; nil at line start and after a tab
		prevFace *face  // the face prev is from
		maxWidth float64
		err      error
		ascent   = f.ascent
		descent  = f.descent
	)
	if withPath {
		placed = make([]placement, 0, len(text))
	}
	endLine := func() {
		maxWidth = math.Max(maxWidth, pen)
		lineEnds = append(lineEnds, len(placed))
		widths = append(widths, pen)
		pen, prev = 0, nil
	}
	tab := tabSpaces * f.space.advance
	for _, r := range text {
		switch r {
		case '\n':
			endLine()
			continue
		case '\r':
			continue
		case '\t':
			pen = (math.Floor(pen/tab) + 1) * tab
			prev = nil
			continue
		}
		var g *glyph
		gf := f
		switch {
		case unicode.IsSpace(r):
			if g, err = f.glyph(b, r); g == nil && err == nil {
				g = f.space
			}
		case unicode.IsControl(r):
			// The Go fonts map some controls (NUL) to an empty glyph; drawing nothing
			// would hide garbage in a label, so they count as missing.
		default:
			g, err = f.glyph(b, r)
			for _, fb := range fallback {
				if g != nil || err != nil {
					break
				}
				if g, err = fb.glyph(b, r); g != nil {
					gf = fb
					ascent, descent = math.Max(ascent, fb.ascent), math.Max(descent, fb.descent)
				}
			}
		}
		if err != nil {
			return Layout{}, err
		}
		if g == nil {
			return Layout{}, f.missing(b, r)
		}
		if prev != nil && prevFace == gf {
			k, err := gf.kern(b, prev, g)
			if err != nil {
				return Layout{}, err
			}
			pen += k
		}
		if withPath && g.outline != nil {
			placed = append(placed, placement{g: g, x: pen})
			nsegs += len(g.outline)
			if nsegs > MaxTextSegments {
				// Counted as the glyphs are placed, so that a text over the budget is
				// refused before its outlines are built.
				return Layout{}, fmt.Errorf("%w: the text's outlines have more than %d segments (MaxTextSegments); draw less text, or in a font of simpler letters", ErrLimit, MaxTextSegments)
			}
		}
		pen += g.advance
		prev, prevFace = g, gf
	}
	endLine()

	lines := len(widths)
	advance := LineSpacing * size
	l := Layout{
		Width:   maxWidth * size,
		Ascent:  ascent * size,
		Descent: descent * size,
		Lines:   lines,
	}
	l.Height = l.Ascent + l.Descent + float64(lines-1)*advance
	if !withPath || nsegs == 0 {
		return l, nil
	}
	// Positions stay in em units until the one multiplication by size: with a power-of-two
	// units-per-em the em sums are exact, so the layout scales exactly with size.
	l.Path = make(geom.Path, 0, nsegs)
	start := 0
	for line, end := range lineEnds {
		dx := -shift * widths[line]
		baseline := -float64(line) * advance
		for _, pl := range placed[start:end] {
			x := pl.x + dx
			for _, s := range pl.g.outline {
				for j := range segPointCount(s.Kind) {
					s.P[j] = geom.Vec{X: (s.P[j].X + x) * size, Y: s.P[j].Y*size + baseline}
				}
				l.Path = append(l.Path, s)
			}
		}
		start = end
	}
	return l, nil
}

// segPointCount is how many of Seg.P a glyph segment uses.
func segPointCount(k geom.SegKind) int {
	switch k {
	case geom.SegMove, geom.SegLine:
		return 1
	case geom.SegQuad:
		return 2
	case geom.SegCubic:
		return 3
	}
	return 0
}

// missing builds the error for a rune the font lacks, suggesting a look-alike it has.
func (f *face) missing(b *sfnt.Buffer, r rune) error {
	e := &GlyphError{Font: f.name, Rune: r}
	if sub, ok := glyphSubstitutes[r]; ok {
		has := true
		for _, sr := range sub {
			if g, err := f.glyph(b, sr); err != nil || g == nil {
				has = false
			}
		}
		if has {
			e.Suggestion = sub
		}
	}
	return e
}
