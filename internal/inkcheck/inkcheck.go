// Package inkcheck compares two pictures of one drawing, one drawn by cadrun and one by a
// reader cadrun did not write (librsvg, Chromium, MuPDF, the viewer's page): the tests that
// hold every output to what it must show share this one rule. Anti-aliasing, sub-pixel
// placement and hairline shading differ from reader to reader; a shape moved, mirrored or
// bent the wrong way does not pass.
package inkcheck

import (
	"fmt"
	"image"
	"math"
)

// Agrees says whether two pictures of one drawing show the same thing to within radius
// pixels: every pixel of one must be explained by the other near it, either by a pixel of
// about its colour or, for an anti-aliased edge, by lying between the colours found there.
// Shapes moved, mirrored or bent the wrong way leave pixels nothing near explains.
//
// With anyCoverage, a pixel is also explained by a pixel near it of the same ink at another
// coverage (a colour on the line from white through it): a reader that draws hairlines
// fainter than a full pixel, as MuPDF does, still has to put them in the same places and in
// the same colours.
func Agrees(a, b *image.RGBA, radius int, anyCoverage bool) error {
	if a.Rect != b.Rect {
		return fmt.Errorf("the pictures are %v and %v", a.Rect, b.Rect)
	}
	far, first := Unmatched(a, b, radius, anyCoverage)
	// Two rasterisers may shade a hairline's pixel differently where it turns sharply (an
	// ellipse's tip, a glyph's serif), and a shape smaller than a pixel (the pattern's dots,
	// a hairline round a fill) gets another colour from each: one pixel in 4,000 may stay
	// unmatched (librsvg leaves at most 7 in 240,000, Chromium 51). An arc bent the wrong way
	// leaves hundreds in every scene that has one (181 to 5,981 here).
	if allowed := a.Rect.Dx() * a.Rect.Dy() / StrayShare; far > allowed {
		return fmt.Errorf("%d pixels are not matched within %d px (at most %d may be; the first at %v)", far, radius, allowed, first)
	}
	return nil
}

// Unmatched counts the pixels of a and of b that Agrees finds nothing near to explain, and
// gives the first; the pictures are of one size. Agrees allows a few; a survey of many files
// (the import corpus) states its own share.
func Unmatched(a, b *image.RGBA, radius int, anyCoverage bool) (int, image.Point) {
	far, first := 0, image.Point{-1, -1}
	for _, pair := range [2][2]*image.RGBA{{a, b}, {b, a}} {
		p, q := pair[0], pair[1]
		for y := p.Rect.Min.Y; y < p.Rect.Max.Y; y++ {
			for x := p.Rect.Min.X; x < p.Rect.Max.X; x++ {
				if explained(p, q, x, y, radius, anyCoverage) {
					continue
				}
				if far == 0 {
					first = image.Pt(x, y)
				}
				far++
			}
		}
	}
	return far, first
}

// StrayShare: at most one pixel in this many may be unmatched.
const StrayShare = 4000

// Tolerance is how far apart, per 0..255 channel, two colours may be and count as one;
// aaMargin widens the range an anti-aliased pixel may lie in.
const (
	Tolerance = 48
	aaMargin  = 24
)

// explained says whether p's pixel at x, y is matched in q within radius.
func explained(p, q *image.RGBA, x, y, radius int, anyCoverage bool) bool {
	i := p.PixOffset(x, y)
	c := p.Pix[i : i+3]
	j := q.PixOffset(x, y)
	if near(c, q.Pix[j:j+3]) {
		return true
	}
	lo := [3]int{255, 255, 255}
	hi := [3]int{0, 0, 0}
	for dy := -radius; dy <= radius; dy++ {
		for dx := -radius; dx <= radius; dx++ {
			pt := image.Pt(x+dx, y+dy)
			if !pt.In(q.Rect) {
				continue
			}
			k := q.PixOffset(pt.X, pt.Y)
			d := q.Pix[k : k+3]
			if near(c, d) || anyCoverage && sameInk(c, d) {
				return true
			}
			for ch := range 3 {
				lo[ch] = min(lo[ch], int(d[ch]))
				hi[ch] = max(hi[ch], int(d[ch]))
			}
		}
	}
	for ch := range 3 {
		if v := int(c[ch]); v < lo[ch]-aaMargin || v > hi[ch]+aaMargin {
			return false
		}
	}
	return true
}

// sameInk says whether c is d's colour over white at some coverage: white + t (d - white)
// for a t >= 0, within Tolerance.
func sameInk(c, d []byte) bool {
	var cv, dv [3]float64
	dd, cd := 0.0, 0.0
	for ch := range 3 {
		cv[ch], dv[ch] = float64(c[ch])-255, float64(d[ch])-255
		dd += dv[ch] * dv[ch]
		cd += cv[ch] * dv[ch]
	}
	if dd < Tolerance*Tolerance {
		return false // d is about white: it explains only white, which near tells
	}
	tt := max(0, cd/dd)
	for ch := range 3 {
		if math.Abs(cv[ch]-tt*dv[ch]) > Tolerance {
			return false
		}
	}
	return true
}

func near(a, b []byte) bool {
	for ch := range 3 {
		if absInt(int(a[ch])-int(b[ch])) > Tolerance {
			return false
		}
	}
	return true
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
