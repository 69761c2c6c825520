package drafting

// A dimension's layout: its lines, arrows and text set in world space, from plain values. A
// dimension draws itself as one path: the extension lines and the dimension line as open
// subpaths (no area), the arrowheads as closed triangles and the text as glyph outlines, so
// every writer draws it as it draws any shape.
//
// The layout starts from world points: the dimension (scene's Dimension, which keeps its
// defining points in its own frame) maps them by the entity's world transform first and calls
// LinearDim, RadialDim or AngularDim, so the text is set upright and the arrows are sized in
// world units (the text height is a pen-like size, as a stroke width is, and not scaled by
// groups), and one in a rotated or mirrored group still reads left to right. Nothing here
// knows a shape or a scene: a dimension, a writer or a test gets the same drawing from the
// same numbers.

import (
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// A dimension's proportions, after ISO 129 and the ISO-25 style of CAD programs, each a
// multiple of the text height: the arrow is as long as the text is high, a third as wide;
// extension lines start a quarter of the text height off the measured point and run half of
// it past the dimension line; the text stands a quarter of its height clear of the line. A
// writer that describes the style a dimension is drawn in (a DXF DIMSTYLE) names them too.
const (
	DimArrowLength   = 1.0  // the arrowhead's length
	DimExtensionGap  = 0.25 // from the measured point to its extension line
	DimExtensionOver = 0.5  // the extension line past the dimension line
	DimTextGap       = 0.25 // between the text and the dimension line
	dimArrowWidth    = 1.0 / 3
)

// DimText is where a dimension's text stands: its glyphs' box in the text's own frame, and
// the map from that frame to the world (a turn and a move), for the lint's overlap rule.
type DimText struct {
	Box   geom.Box
	Place geom.Affine
	// Segs is how many segments the glyphs are: the last of the dimension's path (0 when the
	// text could not be set).
	Segs int
}

// DimLabel is a dimension's text as its layout sets it.
type DimLabel struct {
	// Text is what it reads (the measured value formatted, or the text that replaces it).
	Text string
	// Size is the text height in world units; the arrows and gaps follow it.
	Size float64
	// At, when set, is where the text's middle stands in world space, in place of the middle
	// of the dimension line (or of the arc, or the radial line's run); the text keeps its
	// turn along the line, and the lines stay where they are.
	At *geom.Vec
}

// FormatDimValue writes v with prec digits after the point, then drops trailing zeros and a
// trailing point, as CAD programs do by default (12.50 reads 12.5, 40.00 reads 40).
func FormatDimValue(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// LinearDim lays out a linear dimension measuring from p1 to p2 along the unit direction u,
// its dimension line through q: the extension lines, the line with its arrows, and the
// label, and says where the label's text stands.
func LinearDim(p1, p2, u, q geom.Vec, lb DimLabel) (geom.Path, DimText) {
	var p geom.Path
	var t DimText
	h := lb.Size
	n := geom.Vec{X: -u.Y, Y: u.X}
	f1 := q.Add(u.Mul(dot(p1.Sub(q), u)))
	f2 := q.Add(u.Mul(dot(p2.Sub(q), u)))
	p = extension(p, p1, f1, h)
	p = extension(p, p2, f2, h)
	dir := unit(f2.Sub(f1))
	if f1 == f2 {
		dir = u
	}
	p = dimLine(p, f1, f2, dir, h, f2.Sub(f1).Len())
	p = label(p, &t, lb, f1.Add(f2).Mul(0.5), dir, n, h)
	return p, t
}

// extension draws the extension line from the measured point p to its foot f on the
// dimension line: a gap off p, and a little past f. A point on the line needs none.
func extension(p geom.Path, from, foot geom.Vec, h float64) geom.Path {
	v := foot.Sub(from)
	l := v.Len()
	if l <= DimExtensionGap*h {
		return p
	}
	v = v.Mul(1 / l)
	p.MoveTo(from.Add(v.Mul(DimExtensionGap * h)))
	p.LineTo(foot.Add(v.Mul(DimExtensionOver * h)))
	return p
}

// dimLine draws the dimension line from a to b (direction dir, length l) with arrows at both
// ends pointing at the extension lines: inside when they fit, else outside pointing in, with
// the line run out past them.
func dimLine(p geom.Path, a, b, dir geom.Vec, h, l float64) geom.Path {
	al := DimArrowLength * h
	if l >= 2.5*al {
		p.MoveTo(a)
		p.LineTo(b)
		p = arrow(p, a, dir.Mul(-1), h)
		return arrow(p, b, dir, h)
	}
	p.MoveTo(a.Sub(dir.Mul(2 * al)))
	p.LineTo(b.Add(dir.Mul(2 * al)))
	p = arrow(p, a, dir, h)
	return arrow(p, b, dir.Mul(-1), h)
}

// arrow draws a closed arrowhead with its tip at tip, pointing along the unit vector dir.
func arrow(p geom.Path, tip, dir geom.Vec, h float64) geom.Path {
	base := tip.Sub(dir.Mul(DimArrowLength * h))
	side := geom.Vec{X: -dir.Y, Y: dir.X}.Mul(dimArrowWidth * h / 2)
	p.MoveTo(tip)
	p.LineTo(base.Add(side))
	p.LineTo(base.Sub(side))
	p.Close()
	return p
}

// label sets lb's text centred on at, along the line direction dir, on the side of the line
// the unit normal side points to, turned so that it reads left to right or bottom to top (or
// with its middle at lb.At, so turned), and tells t where it stands.
func label(p geom.Path, t *DimText, lb DimLabel, at, dir, side geom.Vec, h float64) geom.Path {
	l, err := text.LayoutString(lb.Text, h, text.AlignCenter, "")
	if err != nil {
		return p // the dimension checked that its glyphs lay out when it was made
	}
	place := labelPlace(l, at, dir, side, h)
	if lb.At != nil {
		place = labelAt(l, *lb.At, dir)
	}
	*t = DimText{Box: l.Path.Bounds(), Place: place, Segs: len(l.Path)}
	return append(p, l.Path.Transform(place)...)
}

// labelPlace is the map from the text's layout to where label sets it.
func labelPlace(l text.Layout, at, dir, side geom.Vec, h float64) geom.Affine {
	if dir.X < -1e-9 || (math.Abs(dir.X) <= 1e-9 && dir.Y < 0) {
		dir = dir.Mul(-1)
	}
	up := geom.Vec{X: -dir.Y, Y: dir.X}
	base := at.Add(side.Mul(DimTextGap * h))
	if dot(up, side) < 0 { // the letters' tops face the line: move the baseline out past them
		base = at.Add(side.Mul(DimTextGap*h + l.Ascent))
	}
	return geom.Translation(base).Mul(geom.Affine{A: dir.X, B: dir.Y, C: -dir.Y, D: dir.X})
}

// labelAt is the map from the text's layout to a text whose middle stands at at, turned
// along dir as labelPlace turns it (DimLabel.At).
func labelAt(l text.Layout, at, dir geom.Vec) geom.Affine {
	if dir.X < -1e-9 || (math.Abs(dir.X) <= 1e-9 && dir.Y < 0) {
		dir = dir.Mul(-1)
	}
	mid := l.Path.Bounds().Center()
	return geom.Translation(at).Mul(geom.Affine{A: dir.X, B: dir.Y, C: -dir.Y, D: dir.X}).Mul(geom.Translation(mid.Mul(-1)))
}

// RadialDim lays out a radius dimension from the centre c to the point e on the circle, or a
// diameter one (diameter) across the circle through c to e: the line with its arrows and the
// label, inside the circle where they fit and outside (always, with outside) where they do
// not, and says where the label's text stands.
func RadialDim(c, e geom.Vec, diameter, outside bool, lb DimLabel) (geom.Path, DimText) {
	var p geom.Path
	var t DimText
	h := lb.Size
	v := e.Sub(c)
	u := unit(v)
	n := geom.Vec{X: -u.Y, Y: u.X}
	start := c
	if diameter {
		start = c.Sub(v)
	}
	l, _ := text.MeasureString(lb.Text, h, "")
	need := l.Width + 2.5*DimArrowLength*h
	// The text stands between the centre and the curve when it fits there, off the centre
	// where the centre lines cross and another diameter of the same centre would put its own.
	if v.Len() >= need && !outside {
		p.MoveTo(start)
		p.LineTo(e)
		p = arrow(p, e, u, h)
		if diameter {
			p = arrow(p, start, u.Mul(-1), h)
		}
		p = label(p, &t, lb, c.Add(e).Mul(0.5), u, n, h)
		return p, t
	}
	// A diameter whose arrows fit inside but whose text does not on a half: the line crosses
	// the circle with the arrows inside and runs on out past it to the text.
	if diameter && e.Sub(start).Len() >= 2.5*DimArrowLength*h {
		run := DimArrowLength*h + l.Width
		p.MoveTo(start)
		p.LineTo(e.Add(u.Mul(run)))
		p = arrow(p, e, u, h)
		p = arrow(p, start, u.Mul(-1), h)
		p = label(p, &t, lb, e.Add(u.Mul(DimArrowLength*h*0.5+l.Width/2)), u, n, h)
		return p, t
	}
	// Too small for the arrows: the line runs out past the circle, the arrows point in from
	// outside, and the text stands over the line's outer run.
	out := DimArrowLength*h*2 + l.Width
	p.MoveTo(start)
	p.LineTo(e.Add(u.Mul(out)))
	p = arrow(p, e, u.Mul(-1), h)
	if diameter {
		p.MoveTo(start)
		p.LineTo(start.Sub(u.Mul(2 * DimArrowLength * h)))
		p = arrow(p, start, u, h)
	}
	p = label(p, &t, lb, e.Add(u.Mul(DimArrowLength*h*1.5+l.Width/2)), u, n, h)
	return p, t
}

// AngularDim lays out an angle dimension at the centre c: an arc of radius r from the
// direction start (radians) counter-clockwise through sweep, the extension lines out to it
// from pa and pb, the points on its first and second ray, the arrows and the label, and says
// where the label's text stands.
func AngularDim(c geom.Vec, r, start, sweep float64, pa, pb geom.Vec, lb DimLabel) (geom.Path, DimText) {
	var p geom.Path
	var t DimText
	h := lb.Size
	ray := func(t float64) geom.Vec { return geom.Vec{X: math.Cos(t), Y: math.Sin(t)} }
	p = radialExtension(p, c, pa, ray(start), r, h)
	p = radialExtension(p, c, pb, ray(start+sweep), r, h)
	// The arc out and back again: a stroke with no area, so the fill paints nothing there.
	u, v := geom.Vec{X: r, Y: 0}, geom.Vec{X: 0, Y: r}
	p.MoveTo(c.Add(ray(start).Mul(r)))
	p.ArcTo(c, u, v, start, start+sweep)
	p.ArcTo(c, u, v, start+sweep, start)
	t0 := geom.Vec{X: math.Sin(start), Y: -math.Cos(start)} // the tangent leaving the arc backwards
	e := start + sweep
	t1 := geom.Vec{X: -math.Sin(e), Y: math.Cos(e)}
	if r*sweep >= 2.5*DimArrowLength*h {
		p = arrow(p, c.Add(ray(start).Mul(r)), t0, h)
		p = arrow(p, c.Add(ray(e).Mul(r)), t1, h)
	} else {
		p = arrow(p, c.Add(ray(start).Mul(r)), t0.Mul(-1), h)
		p = arrow(p, c.Add(ray(e).Mul(r)), t1.Mul(-1), h)
	}
	mid := start + sweep/2
	out := ray(mid)
	// The text is straight and the arc curves away under its ends: stand it off by the
	// arc's rise over the text's half width, so that its corners clear the arc too.
	l, _ := text.MeasureString(lb.Text, h, "")
	half := min(l.Width/2, r)
	rise := r - math.Sqrt(r*r-half*half)
	p = label(p, &t, lb, c.Add(out.Mul(r+rise)), geom.Vec{X: -out.Y, Y: out.X}, out, h)
	return p, t
}

// radialExtension draws the extension line of an angle dimension along the unit ray dir from
// the centre c: from a gap off the point pt to a little past the arc of radius r.
func radialExtension(p geom.Path, c, pt, dir geom.Vec, r, h float64) geom.Path {
	dist := pt.Sub(c).Len()
	switch {
	case math.Abs(dist-r) <= DimExtensionGap*h:
		return p
	case dist < r:
		p.MoveTo(c.Add(dir.Mul(dist + DimExtensionGap*h)))
		p.LineTo(c.Add(dir.Mul(r + DimExtensionOver*h)))
	default:
		p.MoveTo(c.Add(dir.Mul(dist - DimExtensionGap*h)))
		p.LineTo(c.Add(dir.Mul(r - DimExtensionOver*h)))
	}
	return p
}

func dot(a, b geom.Vec) float64 { return a.X*b.X + a.Y*b.Y }

// unit is v scaled to length 1 (v itself when it has none).
func unit(v geom.Vec) geom.Vec {
	l := v.Len()
	if l == 0 {
		return v
	}
	return v.Mul(1 / l)
}
