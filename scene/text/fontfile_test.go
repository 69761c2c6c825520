package text

import (
	"errors"
	"testing"

	"github.com/cadrun/cadrun/scene/internal/testfonts"
)

func TestLoadFontRefusesBadFiles(t *testing.T) {
	t.Parallel()
	font := testfonts.Korean(t)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, `bad font file: font "x" is 0 bytes, too short to be a font; use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)`},
		{"text", []byte("not a font at all, just some text"), `bad font file: font "x": sfnt: invalid font; use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)`},
		{"too large", make([]byte, MaxFontBytes+1), `bad font file: font "x" is 33554433 bytes; the limit is 33554432 (MaxFontBytes)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadFont("x", tc.data)
			if err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadFont) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	// A truncated real font is refused or works; it never panics.
	for _, n := range []int{12, 100, 1000, 10000, len(font) / 2} {
		if f, err := LoadFont("cut", font[:n]); err == nil {
			_, _ = f.Measure("안녕 Hg0", 3)
		}
	}
}

// FuzzLoadFont: any bytes give a font or an error, never a panic or a hang.
func FuzzLoadFont(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 4, 0, 0})
	f.Add([]byte("OTTO\x00\x01"))
	f.Add([]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x10"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if font, err := LoadFont("fuzz", data); err == nil {
			_, _ = font.Measure("안녕 Hg0", 3)
		}
	})
}
