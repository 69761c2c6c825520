package render

// Hatches in the pictures: each writer draws a shape's hatch (scene.Scene.Hatches) right
// after the shape, so that a fill under it shows between its lines. A solid hatch fills the
// shape's outline; a pattern's lines are hairlines in the hatch colour, and its dots are
// zero-length segments with round caps, which PNG and PDF widen to stay visible.

import (
	"image"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// pngHatchDot is the diameter, in pixels, of a hatch dot in a PNG: a one-pixel dot fades into
// its neighbours when it falls between pixels.
const pngHatchDot = 2

// pdfHatchDot is the diameter, in points (0.35 mm), of a hatch dot in a PDF: a hairline's
// dot is one device pixel, which viewers drop or fade.
const pdfHatchDot = 1

// hatchPaths splits a hatch's segments into lines and dots (both ends equal), as paths.
func hatchPaths(h scene.Hatching) (lines, dots geom.Path) {
	for _, s := range h.Segments {
		if s[0] == s[1] {
			dots.MoveTo(s[0])
			dots.LineTo(s[1])
			continue
		}
		lines.MoveTo(s[0])
		lines.LineTo(s[1])
	}
	return lines, dots
}

// hatch paints a shape's hatch after the shape, it.
func (c *pdfContent) hatch(it scene.Item, h scene.Hatching) {
	if h.Solid {
		c.item(it, scene.Style{Fill: &h.Color})
		return
	}
	lines, dots := hatchPaths(h)
	if len(lines) > 0 {
		c.item(scene.Item{Entity: it.Entity, Path: lines}, scene.Style{Stroke: &h.Color})
	}
	if len(dots) > 0 {
		c.item(scene.Item{Entity: it.Entity, Path: dots}, scene.Style{Stroke: &h.Color, StrokeWidth: pdfHatchDot / c.l.k})
	}
}

// appendPNGHatch adds the items of a shape's hatch: the outline filled for a solid hatch,
// else the segments stroked as one-pixel lines and the dots as dashes of pngDot pixels
// pngHatchDot wide.
func appendPNGHatch(batch []pngItem, it scene.Item, h scene.Hatching, tr geom.Affine, scale float64, size image.Point) []pngItem {
	drawn := scene.Drawn{Style: scene.Style{Fill: &h.Color}}
	if h.Solid {
		if item, ok := preparePNGShape(it, drawn, tr, scale, size); ok {
			batch = append(batch, item)
		}
		return batch
	}
	lines := pngItem{stroke: &h.Color, half: 0.5} // one pixel wide
	dots := pngItem{stroke: &h.Color, half: pngHatchDot / 2}
	for _, s := range h.Segments {
		a, b := tr.Apply(s[0]), tr.Apply(s[1])
		item := &lines
		if a == b {
			b.X += pngDot
			item = &dots
		}
		item.box.Extend(a)
		item.box.Extend(b)
		item.dashes = append(item.dashes, geom.Polyline{Points: []geom.Vec{a, b}})
	}
	for _, item := range [2]pngItem{lines, dots} {
		if _, ok := pixelBox(item.box, item.pad(), size); ok && h.Color[3] > 0 {
			batch = append(batch, item)
		}
	}
	return batch
}
