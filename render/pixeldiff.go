package render

// Pixel comparison for snapshot tests. Two renders of the same drawing can differ in the
// faint pixels along an edge (a new rasterizer, another platform's float rounding) while
// nothing a person would see has changed; a byte comparison would fail them. This follows
// pixelmatch: colours are compared in YIQ space against a threshold, and a pixel that differs
// only because it is an anti-aliased edge pixel of one of the two pictures is counted apart
// and does not make the pictures different.

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
)

// DefaultDiffThreshold is the colour distance (0..1, in YIQ space) below which two pixels
// count as the same, as in pixelmatch.
const DefaultDiffThreshold = 0.1

// ErrDiffSize is returned when two pictures do not have the same size.
var ErrDiffSize = errors.New("pictures differ in size")

// DiffOptions tune PixelDiff. The zero value uses DefaultDiffThreshold and does not count
// anti-aliased pixels as different.
type DiffOptions struct {
	// Threshold is the colour distance, 0..1, under which pixels count as equal; 0 means
	// DefaultDiffThreshold.
	Threshold float64
	// CountAntiAliased counts anti-aliased edge pixels as different too.
	CountAntiAliased bool
	// Image asks for a picture of the difference: the old picture faded to grey, changed
	// pixels red, anti-aliased ones yellow.
	Image bool
}

// Diff is what PixelDiff found.
type Diff struct {
	Different   int         // pixels that differ beyond the threshold
	AntiAliased int         // pixels that differ only as anti-aliased edges
	Image       *image.RGBA // the difference picture, when asked for
}

// PixelDiff compares two pictures of the same size pixel by pixel. It only reads them.
func PixelDiff(a, b image.Image, opt DiffOptions) (Diff, error) {
	if a.Bounds().Size() != b.Bounds().Size() {
		return Diff{}, fmt.Errorf("%w: %dx%d and %dx%d", ErrDiffSize, a.Bounds().Dx(), a.Bounds().Dy(), b.Bounds().Dx(), b.Bounds().Dy())
	}
	p, q := diffRGBA(a), diffRGBA(b)
	w, h := p.Rect.Dx(), p.Rect.Dy()
	var d Diff
	if opt.Image {
		d.Image = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	t := opt.Threshold
	if t <= 0 {
		t = DefaultDiffThreshold
	}
	maxDelta := 35215 * t * t
	for y := range h {
		rowP := p.Pix[y*p.Stride : y*p.Stride+4*w]
		rowQ := q.Pix[y*q.Stride : y*q.Stride+4*w]
		if !opt.Image && string(rowP) == string(rowQ) {
			continue // the common case: an unchanged row, compared as memory
		}
		for x := range w {
			i := 4 * x
			same := rowP[i] == rowQ[i] && rowP[i+1] == rowQ[i+1] && rowP[i+2] == rowQ[i+2] && rowP[i+3] == rowQ[i+3]
			var out color.RGBA
			switch {
			case same || diffAbs(diffColorDelta(rowP[i:i+4], rowQ[i:i+4], false)) <= maxDelta:
				if opt.Image {
					g := uint8(255 + (float64(diffGrey(rowP[i:i+4]))-255)*0.1)
					out = color.RGBA{g, g, g, 255}
				}
			case !opt.CountAntiAliased && (diffAntiAliased(p, q, x, y) || diffAntiAliased(q, p, x, y)):
				d.AntiAliased++
				out = color.RGBA{255, 255, 0, 255}
			default:
				d.Different++
				out = color.RGBA{255, 0, 0, 255}
			}
			if opt.Image {
				d.Image.SetRGBA(x, y, out)
			}
		}
	}
	return d, nil
}

// diffRGBA returns img as premultiplied RGBA with its origin at (0, 0), copying only when needed.
func diffRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	r := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(r, r.Rect, img, img.Bounds().Min, draw.Src)
	return r
}

// diffBlend puts a premultiplied pixel on white and returns its red, green and blue.
func diffBlend(px []uint8) (r, g, b float64) {
	bg := float64(255 - px[3])
	return float64(px[0]) + bg, float64(px[1]) + bg, float64(px[2]) + bg
}

func diffGrey(px []uint8) float64 {
	r, g, b := diffBlend(px)
	return rgb2y(r, g, b)
}

func rgb2y(r, g, b float64) float64 { return r*0.29889531 + g*0.58662247 + b*0.11448223 }
func rgb2i(r, g, b float64) float64 { return r*0.59597799 - g*0.27417610 - b*0.32180189 }
func rgb2q(r, g, b float64) float64 { return r*0.21147017 - g*0.52261711 + b*0.31114694 }

// diffColorDelta is the perceived distance between two pixels (YIQ, squared and weighted);
// negative when the first is the brighter. yOnly compares brightness alone.
func diffColorDelta(p1, p2 []uint8, yOnly bool) float64 {
	r1, g1, b1 := diffBlend(p1)
	r2, g2, b2 := diffBlend(p2)
	y1, y2 := rgb2y(r1, g1, b1), rgb2y(r2, g2, b2)
	y := y1 - y2
	if yOnly {
		return y
	}
	i := rgb2i(r1, g1, b1) - rgb2i(r2, g2, b2)
	q := rgb2q(r1, g1, b1) - rgb2q(r2, g2, b2)
	delta := 0.5053*y*y + 0.299*i*i + 0.1957*q*q
	if y1 > y2 {
		return -delta
	}
	return delta
}

func diffAbs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func diffPixel(img *image.RGBA, x, y int) []uint8 {
	i := y*img.Stride + 4*x
	return img.Pix[i : i+4]
}

// diffAntiAliased reports whether the pixel at (x, y) of img looks like an anti-aliased edge:
// among its eight neighbours it has both a darker and a brighter one, and at least one of
// those lies in a flat area of both pictures (the two sides of the edge).
func diffAntiAliased(img, other *image.RGBA, x, y int) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, y0, x2, y2 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x2 || y == y0 || y == y2 {
		zeroes = 1
	}
	var lo, hi float64
	var loX, loY, hiX, hiY int
	c := diffPixel(img, x, y)
	for ny := y0; ny <= y2; ny++ {
		for nx := x0; nx <= x2; nx++ {
			if nx == x && ny == y {
				continue
			}
			delta := diffColorDelta(c, diffPixel(img, nx, ny), true)
			switch {
			case delta == 0:
				zeroes++
				if zeroes > 2 {
					return false // a flat area, not an edge
				}
			case delta < lo:
				lo, loX, loY = delta, nx, ny
			case delta > hi:
				hi, hiX, hiY = delta, nx, ny
			}
		}
	}
	if lo == 0 || hi == 0 {
		return false
	}
	return (diffManySiblings(img, loX, loY) && diffManySiblings(other, loX, loY)) ||
		(diffManySiblings(img, hiX, hiY) && diffManySiblings(other, hiX, hiY))
}

// diffManySiblings reports whether at least three neighbours of (x, y) have exactly its colour.
func diffManySiblings(img *image.RGBA, x, y int) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0, y0, x2, y2 := max(x-1, 0), max(y-1, 0), min(x+1, w-1), min(y+1, h-1)
	zeroes := 0
	if x == x0 || x == x2 || y == y0 || y == y2 {
		zeroes = 1
	}
	c := diffPixel(img, x, y)
	for ny := y0; ny <= y2; ny++ {
		for nx := x0; nx <= x2; nx++ {
			if nx == x && ny == y {
				continue
			}
			n := diffPixel(img, nx, ny)
			if c[0] == n[0] && c[1] == n[1] && c[2] == n[2] && c[3] == n[3] {
				zeroes++
				if zeroes > 2 {
					return true
				}
			}
		}
	}
	return false
}
