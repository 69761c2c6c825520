package svg

// Text decoration: underline, overline and line-through drawn as thin rectangles of the
// text's paint along each run, where the run's font puts them (its post table's underline,
// its OS/2 table's strikeout, an overline at its ascent as thick as the underline), spanning
// the run's advance, as renderers that lay text out with the font's metrics draw them.

import (
	"cmp"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// decorations are the lines of set d for drawText item it, whose characters advance by width
// (in scene units): under are painted before the text (underline, overline), over after it
// (line-through), as CSS paints them.
func decorations(it *Item, width float64, d decoration) (under, over []*Item) {
	if !(width > 0) {
		return nil, nil
	}
	p := it.Prim
	m, err := text.Decorations(cmp.Or(p.Font, text.DefaultFont))
	if err != nil {
		return nil, nil // an embedded font always loads; no lines rather than wrong ones
	}
	x0 := 0.0
	switch p.Align {
	case "center":
		x0 = -width / 2
	case "right":
		x0 = -width
	}
	place := geom.Translation(geom.Vec{X: p.X, Y: p.Y}).Mul(geom.Rotation(p.Angle))
	line := func(top, thick float64) *Item {
		top, thick = top*p.Size, thick*p.Size
		l := &Item{Kind: Shape, Element: "text-decoration", Line: it.Line, Fill: it.Fill, Stroke: it.Stroke, Width: it.Width}
		if p.Angle == 0 {
			l.Prim = Prim{Call: "drawRect", X: p.X + x0 + width/2, Y: p.Y + top - thick/2, W: width, H: thick}
			return l
		}
		l.Prim = Prim{Call: "drawPolygon"}
		for _, q := range []geom.Vec{{X: x0, Y: top - thick}, {X: x0 + width, Y: top - thick}, {X: x0 + width, Y: top}, {X: x0, Y: top}} {
			l.Prim.Points = append(l.Prim.Points, place.Apply(q))
		}
		return l
	}
	if d&underline != 0 {
		under = append(under, line(m.UnderlineTop, m.UnderlineThickness))
	}
	if d&overline != 0 {
		under = append(under, line(m.Ascent, m.UnderlineThickness))
	}
	if d&lineThrough != 0 {
		over = append(over, line(m.StrikeoutTop, m.StrikeoutThickness))
	}
	return under, over
}
