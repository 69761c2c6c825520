package text

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecorations: the decoration lines are the font's own, read from its post and OS/2
// tables (the numbers as the files hold them, in font units over units per em).
func TestDecorations(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		font string
		want Decoration
	}{
		{"sans", Decoration{UnderlineTop: -40.0 / 2048, UnderlineThickness: 90.0 / 2048, StrikeoutTop: 530.0 / 2048, StrikeoutThickness: 102.0 / 2048, Ascent: 1901.0 / 2048}},
		{"", Decoration{UnderlineTop: -40.0 / 2048, UnderlineThickness: 90.0 / 2048, StrikeoutTop: 530.0 / 2048, StrikeoutThickness: 102.0 / 2048, Ascent: 1901.0 / 2048}},
		{"mono", Decoration{UnderlineTop: -275.0 / 2048, UnderlineThickness: 50.0 / 2048, StrikeoutTop: 512.0 / 2048, StrikeoutThickness: 102.0 / 2048, Ascent: 1935.0 / 2048}},
	} {
		got, err := Decorations(c.font)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", c.font, diff)
		}
	}
	if _, err := Decorations("nope"); !errors.Is(err, ErrUnknownFont) {
		t.Errorf("an unknown font: %v, want ErrUnknownFont", err)
	}
	if _, _, ok := strikeout([]byte("not a font at all")); ok {
		t.Error("strikeout read from bytes that are no font")
	}
}
