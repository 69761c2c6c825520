package text

// System fonts, the last resort for a glyph: when neither a text's font nor the workspace's
// fonts have a character (Hangul, CJK, ...), the machine's own fonts may. They are found in
// the standard font folders and in fontconfig's list where fc-list is installed, once per
// process, and kept in one order (regular faces first, then by path), so that a machine
// always picks the same font for a character. The first font in that order that has a
// character draws it; the answer is remembered per character. A text a system font drew
// records it in the scene ("system:NAME"), and the run says which font it was, since
// another machine may have another font or none: a drawing that must look the same
// everywhere brings its font in fonts/.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/image/font/sfnt"
)

const (
	// SystemFontPrefix starts the name a scene gives a system font, so that it can never be
	// taken for a workspace font (whose names have no colon).
	SystemFontPrefix = "system:"
	// MaxSystemFonts caps the system font files considered, so that a machine with
	// thousands of fonts cannot make one missing character read all of them.
	MaxSystemFonts = 512
	// maxSystemFontWalk caps the folder entries looked at while finding system fonts.
	maxSystemFontWalk = 20000
	// maxRememberedRunes caps the per-character answers kept.
	maxRememberedRunes = 4096
	// fcListTime bounds fontconfig's listing.
	fcListTime = 2 * time.Second
)

// SystemFont is one font file found on the machine.
type SystemFont struct {
	Name string // SystemFontPrefix + the file's name without its extension
	Path string
}

// systemFonts is the process's cache of the machine's fonts: the list, found once; the
// answer for each character asked (the index of the font that has it, or -1); and the fonts
// that answered, parsed. It is a cache of facts about the machine, never of a run's state.
var systemFonts = struct {
	once  sync.Once
	list  []SystemFont
	mu    sync.Mutex
	byRun map[rune]int
	faces map[int]*Font
}{byRun: map[rune]int{}, faces: map[int]*Font{}}

// SystemFonts lists the machine's fonts in the order fallback tries them.
func SystemFonts() []SystemFont {
	systemFonts.once.Do(func() { systemFonts.list = findSystemFonts(systemFontDirs(), fcList()) })
	return systemFonts.list
}

// SystemFontNamed returns the system font a scene names (SystemFontPrefix + NAME).
func SystemFontNamed(name string) (*Font, error) {
	for i, sf := range SystemFonts() {
		if sf.Name == name {
			systemFonts.mu.Lock()
			defer systemFonts.mu.Unlock()
			f, err := systemFontAt(i)
			if err == nil {
				systemFonts.faces[i] = f
			}
			return f, err
		}
	}
	return nil, fmt.Errorf("%w %q: this machine has no such font; bring the font in the workspace's fonts/ so that the drawing is the same everywhere", ErrUnknownFont, name)
}

// SystemFallback returns the system fonts that draw runes, in the machine's one order: for
// each rune, the first font in that order that has it, so that the first of the answer that
// has a rune is the one that draws it. A rune no system font has is left out.
func SystemFallback(runes []rune) []*Font {
	list := SystemFonts()
	systemFonts.mu.Lock()
	defer systemFonts.mu.Unlock()
	var answered []int // indexes into list
	var open []rune    // runes not answered yet
	for _, r := range runes {
		if at, ok := systemFonts.byRun[r]; !ok {
			open = append(open, r)
		} else if at >= 0 {
			answered = append(answered, at)
		}
	}
	b := sfntBufferPool.Get().(*sfnt.Buffer)
	defer sfntBufferPool.Put(b)
	for at := 0; at < len(list) && len(open) > 0; at++ {
		if systemFonts.faces[at] == nil && !coversAny(list[at].Path, open) {
			continue
		}
		f, err := systemFontAt(at)
		if err != nil {
			continue
		}
		left := open[:0]
		for _, r := range open {
			if g, err := f.f.glyph(b, r); err == nil && g != nil {
				remember(r, at)
				answered = append(answered, at)
				systemFonts.faces[at] = f // it answers: keep it parsed
			} else {
				left = append(left, r)
			}
		}
		open = left
	}
	for _, r := range open {
		remember(r, -1)
	}
	slices.Sort(answered)
	var out []*Font
	for _, at := range slices.Compact(answered) {
		if f, err := systemFontAt(at); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// SystemFontPath is the file of the system font a scene names, or "".
func SystemFontPath(name string) string {
	for _, sf := range SystemFonts() {
		if sf.Name == name {
			return sf.Path
		}
	}
	return ""
}

// coversAny reports whether the font file at path maps any of runes to a glyph, by its
// character map alone: the file is mapped, not read (mapFile), so that a scan past fonts
// that lack a character reads a few pages of each rather than every font on the machine.
// The font that answers is read and parsed for drawing afterwards.
func coversAny(path string, runes []rune) (covers bool) {
	data, unmap, err := mapFile(path)
	if err != nil {
		return false
	}
	defer unmap()
	// A file cut short while mapped faults on access: a font that cannot be read answers no.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			covers = false
		}
	}()
	var sf *sfnt.Font
	if c, err := sfnt.ParseCollection(data); err == nil && c.NumFonts() > 0 {
		if sf, err = c.Font(0); err != nil {
			return false
		}
	} else if sf, err = sfnt.Parse(data); err != nil {
		return false
	}
	var b sfnt.Buffer
	for _, r := range runes {
		if idx, err := sf.GlyphIndex(&b, r); err == nil && idx != 0 {
			return true
		}
	}
	return false
}

// remember keeps the answer for r, while there is room.
func remember(r rune, at int) {
	if len(systemFonts.byRun) < maxRememberedRunes {
		systemFonts.byRun[r] = at
	}
}

// systemFontAt returns the system font at index at, parsed once if it answers a character
// (the caller keeps it in faces) and again each time it is tried if not, so that the fonts
// tried on the way hold no memory; the caller holds systemFonts.mu.
func systemFontAt(at int) (*Font, error) {
	if f := systemFonts.faces[at]; f != nil {
		return f, nil
	}
	sf := systemFonts.list[at]
	data, err := readSystemFont(sf.Path)
	if err != nil {
		return nil, err
	}
	return parseFont(sf.Name, data)
}

// readSystemFont reads a regular font file of at most MaxFontBytes.
func readSystemFont(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: %s is not a regular file", ErrBadFont, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFontBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFontBytes {
		return nil, fmt.Errorf("%w: %s is over %d bytes (MaxFontBytes)", ErrBadFont, path, MaxFontBytes)
	}
	return b, nil
}

// systemFontDirs are the standard font folders: the user's, then the system's.
func systemFontDirs() []string {
	var dirs []string
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		dirs = append(dirs, filepath.Join(d, "fonts"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share", "fonts"), filepath.Join(home, ".fonts"),
			filepath.Join(home, "Library", "Fonts"))
	}
	return append(dirs, "/usr/local/share/fonts", "/usr/share/fonts", "/Library/Fonts",
		"/System/Library/Fonts", `C:\Windows\Fonts`)
}

// fcList is fontconfig's list of font files, or nil when fc-list is not installed or fails.
func fcList() []string {
	exe, err := exec.LookPath("fc-list")
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), fcListTime)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, exe, "--format", "%{file}\n")
	cmd.Stdout = &limitedWriter{w: &out, n: 4 << 20}
	if err := cmd.Run(); err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

// limitedWriter keeps at most n bytes and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	keep := p[:min(len(p), l.n)]
	l.n -= len(keep)
	if _, err := l.w.Write(keep); err != nil {
		return 0, err
	}
	return len(p), nil
}

// findSystemFonts lists the font files in dirs (not following links to folders) and in
// listed, once each by name, regular faces first, then by path, at most MaxSystemFonts.
func findSystemFonts(dirs, listed []string) []SystemFont {
	paths := slices.Clone(listed)
	seen := 0
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			seen++
			if err != nil || seen > maxSystemFontWalk {
				if seen > maxSystemFontWalk {
					return fs.SkipAll
				}
				return nil
			}
			if !d.IsDir() {
				paths = append(paths, path)
			}
			return nil
		})
	}
	type found struct {
		SystemFont
		styled bool
	}
	var fonts []found
	for _, p := range paths {
		ext := strings.ToLower(filepath.Ext(p))
		if ext != ".ttf" && ext != ".otf" && ext != ".ttc" {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
		fonts = append(fonts, found{SystemFont{SystemFontPrefix + base, p}, styled(base)})
	}
	slices.SortFunc(fonts, func(a, b found) int {
		if a.styled != b.styled {
			if a.styled {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Path, b.Path)
	})
	var out []SystemFont
	names := map[string]bool{}
	for _, f := range fonts {
		if !names[f.Name] && len(out) < MaxSystemFonts {
			names[f.Name] = true
			out = append(out, f.SystemFont)
		}
	}
	return out
}

// styled tells a bold, italic, light or otherwise styled face by its file name, so that a
// character falls back to a regular face when the machine has one.
func styled(base string) bool {
	l := strings.ToLower(base)
	for _, w := range []string{"bold", "italic", "oblique", "light", "thin", "black", "heavy", "medium",
		"condensed", "extra", "semi", "demi"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	// Debian's Nanum names its bold faces by a trailing B (NanumSquareRoundB) and its
	// extra-bold ones EB.
	return len(base) > 1 && unicode.IsLower(rune(base[len(base)-2])) && (strings.HasSuffix(base, "B") || strings.HasSuffix(base, "L"))
}
