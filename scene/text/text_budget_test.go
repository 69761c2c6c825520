package text

import (
	"testing"

	"github.com/cadrun/cadrun/scene/internal/testfonts"
)

// TestGlyphCacheBounded lays out 26 distinct letters of 11,000 points each: the face keeps
// glyphs only up to maxCachedGlyphSegments, and the ones it drops are drawn all the same.
func TestGlyphCacheBounded(t *testing.T) {
	t.Parallel()
	f, err := LoadFont("spiky26_11000", testfonts.Spiky(t, 26, 11000))
	if err != nil {
		t.Fatal(err)
	}
	l, err := LayoutIn(f, "", "abcdefghijklmnopqrstuvwxyz", 1, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Path); n < 26*11000 {
		t.Errorf("the alphabet has %d segments, want at least 26 × 11,000", n)
	}
	f.f.mu.RLock()
	cached := f.f.cached
	f.f.mu.RUnlock()
	if cached > maxCachedGlyphSegments || cached == 0 {
		t.Errorf("the face keeps %d segments of glyphs; want some, at most %d (maxCachedGlyphSegments)", cached, maxCachedGlyphSegments)
	}
}
