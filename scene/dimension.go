package scene

// Dimensions. A dimension keeps the points it measures and draws itself as one path: the
// extension lines and the dimension line as open subpaths (no area), the arrowheads as closed
// triangles and the text as glyph outlines. Its default style strokes and fills that path in
// black, so every writer draws it as it draws any shape.
//
// A dimension measures and lays itself out in world space: its defining points are mapped by
// the entity's world transform first, and then the value is measured, the text set upright
// and the arrows sized in world units (the text height is a pen-like size, as a stroke width
// is, and not scaled by groups). So a dimension in a scaled group states the scaled size, and
// one in a rotated or mirrored group still reads left to right. The writers get the world
// path through AppendOutline and the bounds through boundsUnder; Outline is the layout under
// the identity map.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// KindDimension is the kind of a dimension entity.
const KindDimension Kind = "dimension"

// DimType is what a dimension measures.
type DimType string

// Dimension types.
const (
	DimAligned    DimType = "aligned"    // the distance between two points
	DimHorizontal DimType = "horizontal" // their distance along the entity's x axis
	DimVertical   DimType = "vertical"   // their distance along the entity's y axis
	DimRadius     DimType = "radius"     // a circle's or arc's radius
	DimDiameter   DimType = "diameter"   // a circle's or arc's diameter
	DimAngle      DimType = "angle"      // the angle at a centre from one point to another
)

// Dimension defaults and proportions, after ISO 129 and the ISO-25 style of CAD programs: the
// arrow is as long as the text is high, a third as wide; extension lines start a quarter of
// the text height off the measured point and run half of it past the dimension line; the text
// stands a quarter of its height clear of the line.
const (
	DefaultDimSize      = 2.5
	DefaultDimPrecision = 2
	// MaxDimPrecision caps the digits after the point (float64 holds about 15 to 17).
	MaxDimPrecision = 8
	dimArrowLen     = 1.0 // × size
	dimArrowWidth   = 1.0 / 3
	dimExtGap       = 0.25 // × size, from the measured point
	dimExtOver      = 0.5  // × size, past the dimension line
	dimTextGap      = 0.25 // × size, between the text and the line
)

// The proportions above as exported figures, for writers that describe the style a
// dimension is drawn in (a DXF DIMSTYLE), each a multiple of the text height.
const (
	DimArrowLength   = dimArrowLen // the arrowhead's length
	DimExtensionGap  = dimExtGap   // from the measured point to its extension line
	DimExtensionOver = dimExtOver  // the extension line past the dimension line
	DimTextGap       = dimTextGap  // between the text and the dimension line
)

// Dimension is a measurement drawn as a CAD dimension. Points holds its defining points in
// local coordinates: for a linear dimension (aligned, horizontal, vertical) the two measured
// points; for a radius or diameter the centre; for an angle the centre and the two points
// whose rays bound it (counter-clockwise from the first).
type Dimension struct {
	Type   DimType    `json:"type"`
	Points []geom.Vec `json:"points"`
	// Offset is how far a linear dimension's line stands from the measured points, measured
	// from the one further that way: positive to the left of the direction of measurement
	// (above a horizontal dimension from left to right), negative to the right.
	Offset float64 `json:"offset,omitempty"`
	// Radius is the circle's radius for a radius or diameter dimension and the radius of the
	// dimension arc for an angle.
	Radius float64 `json:"radius,omitempty"`
	// Angle is the direction of a radius or diameter dimension's line (radians).
	Angle float64 `json:"angle,omitempty"`
	// Outside puts a radius or diameter dimension's text outside the circle, on the line run
	// on past it, even where it would fit inside.
	Outside bool `json:"outside,omitempty"`
	// Text, when set, replaces the displayed text; "<>" in it stands for the measured text.
	Text string `json:"text,omitempty"`
	// Precision is the number of digits after the decimal point, 0 to MaxDimPrecision.
	Precision int `json:"precision"`
	// Units is appended to the number (" mm"), before a text override sees it.
	Units string `json:"units,omitempty"`
	// Size is the text height in world units; the arrows and gaps follow it.
	Size float64 `json:"size"`
	// TextAt, when set, is where the text's middle stands, in the frame of Points, in place
	// of the middle of the dimension line (or of the arc, or the radial line's run); the text
	// keeps its turn along the line, and the lines stay where they are.
	TextAt *geom.Vec `json:"textAt,omitempty"`

	// textSegs is the outline segments of the text as laid out with the number 0 (validate),
	// what the dimension counts against MaxTextSegments: its text is laid out again each time
	// it is drawn or measured, so a scene of long dimension texts costs every picture as much
	// as a scene of texts.
	textSegs int
}

// Kind implements Shape.
func (*Dimension) Kind() Kind { return KindDimension }

// Outline implements Shape: the dimension laid out where the identity map puts it.
func (d *Dimension) Outline() geom.Path { return d.worldOutline(geom.Identity) }

// Region implements Shape: a dimension is an annotation, not an area.
func (d *Dimension) Region() (geom.Path, error) {
	return nil, fmt.Errorf("%w: a dimension is an annotation and encloses nothing; use the shape it measures", ErrNotClosed)
}

func (d *Dimension) boundsUnder(m geom.Affine) geom.Box { return d.worldOutline(m).Bounds() }

// isNote reports whether e is a dimension: an annotation of its group's shapes, not one of
// them, which a group's measures (area, perimeter, centroid, distances) leave out.
func isNote(e *Entity) bool {
	_, ok := e.Shape.(*Dimension)
	return ok
}

// IsLinear reports whether d measures a distance between two points.
func (d *Dimension) IsLinear() bool {
	return d.Type == DimAligned || d.Type == DimHorizontal || d.Type == DimVertical
}

func (d *Dimension) validate() error {
	want := map[DimType]int{DimAligned: 2, DimHorizontal: 2, DimVertical: 2, DimRadius: 1, DimDiameter: 1, DimAngle: 3}[d.Type]
	if want == 0 {
		return fmt.Errorf("%w: dimension type %q is not aligned, horizontal, vertical, radius, diameter or angle", ErrBadGeometry, d.Type)
	}
	if len(d.Points) != want {
		return fmt.Errorf("%w: a %s dimension needs %d points, got %d", ErrBadGeometry, d.Type, want, len(d.Points))
	}
	if err := finitePoints("points", d.Points); err != nil {
		return err
	}
	if err := inRange("offset", d.Offset); err != nil {
		return err
	}
	if err := finite("angle", d.Angle); err != nil {
		return err
	}
	if err := positive("size", d.Size); err != nil {
		return err
	}
	if d.TextAt != nil {
		if err := finitePoints("textAt", []geom.Vec{*d.TextAt}); err != nil {
			return err
		}
	}
	if d.Precision < 0 || d.Precision > MaxDimPrecision {
		return fmt.Errorf("%w: precision must be 0 to %d digits, got %d", ErrBadGeometry, MaxDimPrecision, d.Precision)
	}
	switch {
	case d.IsLinear() && d.Points[0] == d.Points[1]:
		return fmt.Errorf("%w: the two points of a %s dimension coincide at %v; measure between two different points", ErrBadGeometry, d.Type, d.Points[0])
	case d.Type == DimAngle && (d.Points[1] == d.Points[0] || d.Points[2] == d.Points[0]):
		return fmt.Errorf("%w: a point of an angle dimension coincides with its centre; give points away from the centre", ErrBadGeometry)
	case !d.IsLinear():
		if err := positive("radius", d.Radius); err != nil {
			return err
		}
	}
	// A glyph the font lacks fails here, not when the dimension is drawn.
	l, err := text.LayoutString(d.textFor("0"), d.Size, text.AlignCenter, "")
	if err != nil {
		return fmt.Errorf("dimension text: %w", err)
	}
	d.textSegs = len(l.Path)
	return nil
}

// Measured is the value the dimension states under the world map m: a length in world units,
// or an angle in degrees.
func (d *Dimension) Measured(m geom.Affine) float64 {
	switch d.Type {
	case DimRadius, DimDiameter:
		c, p := d.radial(m)
		r := p.Sub(c).Len()
		if d.Type == DimDiameter {
			return 2 * r
		}
		return r
	case DimAngle:
		_, _, _, sweep := d.angular(m)
		return sweep * 180 / math.Pi
	}
	p1, p2, u, _ := d.linear(m)
	return math.Abs(dot(p2.Sub(p1), u))
}

// DimPoints are a dimension's defining points in world space, as a CAD program's DIMENSION
// entity keeps them and measures from them again.
type DimPoints struct {
	// A and B: a linear dimension's measured points; an angle's points on its first and
	// second ray (counter-clockwise in world space); a radius's centre and a diameter's far
	// side of the circle, then the point on the circle the line ends at.
	A, B geom.Vec
	// Centre is an angle's vertex and a radius's or diameter's centre.
	Centre geom.Vec
	// Line is a point on the dimension line: a linear dimension's foot of B, an angle's
	// point in the middle of its arc.
	Line geom.Vec
	// Dir is the unit direction a linear dimension measures along.
	Dir geom.Vec
}

// Defining is the dimension's defining points under the world map m (see DimPoints).
func (d *Dimension) Defining(m geom.Affine) DimPoints {
	switch d.Type {
	case DimRadius, DimDiameter:
		c, e := d.radial(m)
		a := c
		if d.Type == DimDiameter {
			a = c.Sub(e.Sub(c))
		}
		return DimPoints{A: a, B: e, Centre: c}
	case DimAngle:
		c, r, start, sweep := d.angular(m)
		a, b := m.Apply(d.Points[1]), m.Apply(d.Points[2])
		if m.Det() < 0 {
			a, b = b, a
		}
		mid := start + sweep/2
		return DimPoints{A: a, B: b, Centre: c, Line: c.Add(geom.Vec{X: math.Cos(mid), Y: math.Sin(mid)}.Mul(r))}
	}
	p1, p2, u, q := d.linear(m)
	return DimPoints{A: p1, B: p2, Line: q.Add(u.Mul(dot(p2.Sub(q), u))), Dir: u}
}

// DisplayText is the text the dimension shows under the world map m.
func (d *Dimension) DisplayText(m geom.Affine) string {
	return d.textFor(FormatDimValue(d.Measured(m), d.Precision))
}

// textFor is the displayed text when the measured number reads num.
func (d *Dimension) textFor(num string) string {
	v := num + d.Units
	switch d.Type {
	case DimRadius:
		v = "R" + v
	case DimDiameter:
		v = "Ø" + v
	case DimAngle:
		v = num + "°" + d.Units
	}
	if d.Text == "" {
		return v
	}
	return strings.ReplaceAll(d.Text, "<>", v)
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

// linear maps a linear dimension's points by m and returns them, the unit direction u it
// measures along, and a point q on the dimension line.
func (d *Dimension) linear(m geom.Affine) (p1, p2, u, q geom.Vec) {
	a, b := d.Points[0], d.Points[1]
	lu := b.Sub(a)
	switch d.Type {
	case DimHorizontal:
		lu = geom.Vec{X: 1, Y: 0}
	case DimVertical:
		lu = geom.Vec{X: 0, Y: 1}
	}
	lu = lu.Mul(1 / lu.Len())
	ln := geom.Vec{X: -lu.Y, Y: lu.X}
	// The line stands Offset beyond the point further in the offset's direction.
	base := a
	if (dot(b.Sub(a), ln) > 0) == (d.Offset >= 0) {
		base = b
	}
	lq := base.Add(ln.Mul(d.Offset))
	u = unit(m.ApplyVec(lu))
	return m.Apply(a), m.Apply(b), u, m.Apply(lq)
}

// radial maps a radius or diameter dimension by m: the centre and the point on the circle
// in the dimension's direction.
func (d *Dimension) radial(m geom.Affine) (c, p geom.Vec) {
	c0 := d.Points[0]
	dir := geom.Vec{X: math.Cos(d.Angle), Y: math.Sin(d.Angle)}
	return m.Apply(c0), m.Apply(c0.Add(dir.Mul(d.Radius)))
}

// angular maps an angle dimension by m: the centre, the arc's radius, the direction of the
// first ray and the sweep counter-clockwise (in world space) to the second, in (0, 2π). A
// mirroring map turns the local counter-clockwise sweep clockwise, so the rays swap.
func (d *Dimension) angular(m geom.Affine) (c geom.Vec, r, start, sweep float64) {
	c = m.Apply(d.Points[0])
	a, b := m.Apply(d.Points[1]).Sub(c), m.Apply(d.Points[2]).Sub(c)
	if m.Det() < 0 {
		a, b = b, a
	}
	start = math.Atan2(a.Y, a.X)
	sweep = math.Mod(math.Atan2(b.Y, b.X)-start, 2*math.Pi)
	if sweep <= 0 {
		sweep += 2 * math.Pi
	}
	return c, d.Radius * math.Sqrt(math.Abs(m.Det())), start, sweep
}

// worldOutline is the whole dimension drawn in world space under m.
func (d *Dimension) worldOutline(m geom.Affine) geom.Path {
	p, _ := d.layout(m)
	return p
}

// DimText is where a dimension's text stands: its glyphs' box in the text's own frame, and
// the map from that frame to the world (a turn and a move), for the lint's overlap rule.
type DimText struct {
	Box   geom.Box
	Place geom.Affine
	// Segs is how many segments the glyphs are: the last of the dimension's path (0 when the
	// text could not be set).
	Segs int
}

// Layouts lays each dimension out once for one write (a lint, a DXF file), which reads its
// bounds, its drawing and where its text stands: each of them laid the dimension out again,
// setting its text, the bulk of the work. A nil *Layouts lays out at every call. Keep one per
// write and to one goroutine: writers read a scene side by side.
type Layouts struct{ laid map[*Dimension]dimLaid }

type dimLaid struct {
	m geom.Affine
	p geom.Path
	t DimText
}

// Of is d laid out under m: as an earlier call with the same d and m laid it out, or now. The
// path is shared between calls: read it, do not change it.
func (l *Layouts) Of(d *Dimension, m geom.Affine) (geom.Path, DimText) {
	if l == nil {
		return d.layout(m)
	}
	if got, ok := l.laid[d]; ok && got.m == m {
		return got.p, got.t
	}
	p, t := d.layout(m)
	if l.laid == nil {
		l.laid = make(map[*Dimension]dimLaid)
	}
	l.laid[d] = dimLaid{m: m, p: p, t: t}
	return p, t
}

// TextUnder is where the dimension's text stands under the world map m.
func (d *Dimension) TextUnder(m geom.Affine) DimText {
	_, t := d.layout(m)
	return t
}

// dimLayouts counts the dimensions laid out in this process (DimLayoutCount).
var dimLayouts atomic.Int64

// DimLayoutCount is how many times a dimension has been laid out in this process, for tests
// that check that a write (a lint, a DXF file) lays each dimension out once.
func DimLayoutCount() int64 { return dimLayouts.Load() }

// layout draws the dimension in world space under m and says where its text stands.
func (d *Dimension) layout(m geom.Affine) (geom.Path, DimText) {
	dimLayouts.Add(1)
	var p geom.Path
	var t DimText
	switch d.Type {
	case DimRadius, DimDiameter:
		p = d.drawRadial(p, m, &t)
	case DimAngle:
		p = d.drawAngle(p, m, &t)
	default:
		p = d.drawLinear(p, m, &t)
	}
	return p, t
}

func (d *Dimension) drawLinear(p geom.Path, m geom.Affine, t *DimText) geom.Path {
	h := d.Size
	p1, p2, u, q := d.linear(m)
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
	return d.label(p, t, f1.Add(f2).Mul(0.5), dir, n, h, m)
}

// extension draws the extension line from the measured point p to its foot f on the
// dimension line: a gap off p, and a little past f. A point on the line needs none.
func extension(p geom.Path, from, foot geom.Vec, h float64) geom.Path {
	v := foot.Sub(from)
	l := v.Len()
	if l <= dimExtGap*h {
		return p
	}
	v = v.Mul(1 / l)
	p.MoveTo(from.Add(v.Mul(dimExtGap * h)))
	p.LineTo(foot.Add(v.Mul(dimExtOver * h)))
	return p
}

// dimLine draws the dimension line from a to b (direction dir, length l) with arrows at both
// ends pointing at the extension lines: inside when they fit, else outside pointing in, with
// the line run out past them.
func dimLine(p geom.Path, a, b, dir geom.Vec, h, l float64) geom.Path {
	al := dimArrowLen * h
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
	base := tip.Sub(dir.Mul(dimArrowLen * h))
	side := geom.Vec{X: -dir.Y, Y: dir.X}.Mul(dimArrowWidth * h / 2)
	p.MoveTo(tip)
	p.LineTo(base.Add(side))
	p.LineTo(base.Sub(side))
	p.Close()
	return p
}

// label sets the displayed text centred on at, along the line direction dir, on the side of
// the line the unit normal side points to, turned so that it reads left to right or bottom
// to top, and tells t where it stands.
func (d *Dimension) label(p geom.Path, t *DimText, at, dir, side geom.Vec, h float64, m geom.Affine) geom.Path {
	l, err := text.LayoutString(d.DisplayText(m), h, text.AlignCenter, "")
	if err != nil {
		return p // validate laid the same glyphs out
	}
	place := labelPlace(l, at, dir, side, h)
	if d.TextAt != nil {
		place = labelAt(l, m.Apply(*d.TextAt), dir)
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
	base := at.Add(side.Mul(dimTextGap * h))
	if dot(up, side) < 0 { // the letters' tops face the line: move the baseline out past them
		base = at.Add(side.Mul(dimTextGap*h + l.Ascent))
	}
	return geom.Translation(base).Mul(geom.Affine{A: dir.X, B: dir.Y, C: -dir.Y, D: dir.X})
}

// labelAt is the map from the text's layout to a text whose middle stands at at, turned
// along dir as labelPlace turns it (TextAt).
func labelAt(l text.Layout, at, dir geom.Vec) geom.Affine {
	if dir.X < -1e-9 || (math.Abs(dir.X) <= 1e-9 && dir.Y < 0) {
		dir = dir.Mul(-1)
	}
	mid := l.Path.Bounds().Center()
	return geom.Translation(at).Mul(geom.Affine{A: dir.X, B: dir.Y, C: -dir.Y, D: dir.X}).Mul(geom.Translation(mid.Mul(-1)))
}

// LabelPlace is where the dimension sets its text under the world map m: the map, a turn
// and a move, from the text laid out centred on the origin's baseline
// (text.LayoutString(DisplayText(m), Size, text.AlignCenter, "")) to world space. Its outline is the
// end of the dimension's world outline; a writer that sets the text as text of its own (a
// DXF TEXT) places it with this map.
func (d *Dimension) LabelPlace(m geom.Affine) geom.Affine { return d.TextUnder(m).Place }

func (d *Dimension) drawRadial(p geom.Path, m geom.Affine, t *DimText) geom.Path {
	h := d.Size
	c, e := d.radial(m)
	v := e.Sub(c)
	u := unit(v)
	n := geom.Vec{X: -u.Y, Y: u.X}
	start := c
	if d.Type == DimDiameter {
		start = c.Sub(v)
	}
	l, _ := text.MeasureString(d.DisplayText(m), h, "")
	need := l.Width + 2.5*dimArrowLen*h
	// The text stands between the centre and the curve when it fits there, off the centre
	// where the centre lines cross and another diameter of the same centre would put its own.
	if v.Len() >= need && !d.Outside {
		p.MoveTo(start)
		p.LineTo(e)
		p = arrow(p, e, u, h)
		if d.Type == DimDiameter {
			p = arrow(p, start, u.Mul(-1), h)
		}
		return d.label(p, t, c.Add(e).Mul(0.5), u, n, h, m)
	}
	// A diameter whose arrows fit inside but whose text does not on a half: the line crosses
	// the circle with the arrows inside and runs on out past it to the text.
	if d.Type == DimDiameter && e.Sub(start).Len() >= 2.5*dimArrowLen*h {
		run := dimArrowLen*h + l.Width
		p.MoveTo(start)
		p.LineTo(e.Add(u.Mul(run)))
		p = arrow(p, e, u, h)
		p = arrow(p, start, u.Mul(-1), h)
		return d.label(p, t, e.Add(u.Mul(dimArrowLen*h*0.5+l.Width/2)), u, n, h, m)
	}
	// Too small for the arrows: the line runs out past the circle, the arrows point in from
	// outside, and the text stands over the line's outer run.
	out := dimArrowLen*h*2 + l.Width
	p.MoveTo(start)
	p.LineTo(e.Add(u.Mul(out)))
	p = arrow(p, e, u.Mul(-1), h)
	if d.Type == DimDiameter {
		p.MoveTo(start)
		p.LineTo(start.Sub(u.Mul(2 * dimArrowLen * h)))
		p = arrow(p, start, u, h)
	}
	return d.label(p, t, e.Add(u.Mul(dimArrowLen*h*1.5+l.Width/2)), u, n, h, m)
}

func (d *Dimension) drawAngle(p geom.Path, m geom.Affine, t *DimText) geom.Path {
	h := d.Size
	c, r, start, sweep := d.angular(m)
	ray := func(t float64) geom.Vec { return geom.Vec{X: math.Cos(t), Y: math.Sin(t)} }
	pa, pb := m.Apply(d.Points[1]), m.Apply(d.Points[2])
	if m.Det() < 0 {
		pa, pb = pb, pa
	}
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
	if r*sweep >= 2.5*dimArrowLen*h {
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
	l, _ := text.MeasureString(d.DisplayText(m), h, "")
	half := min(l.Width/2, r)
	rise := r - math.Sqrt(r*r-half*half)
	return d.label(p, t, c.Add(out.Mul(r+rise)), geom.Vec{X: -out.Y, Y: out.X}, out, h, m)
}

// radialExtension draws the extension line of an angle dimension along the unit ray dir from
// the centre c: from a gap off the point pt to a little past the arc of radius r.
func radialExtension(p geom.Path, c, pt, dir geom.Vec, r, h float64) geom.Path {
	dist := pt.Sub(c).Len()
	switch {
	case math.Abs(dist-r) <= dimExtGap*h:
		return p
	case dist < r:
		p.MoveTo(c.Add(dir.Mul(dist + dimExtGap*h)))
		p.LineTo(c.Add(dir.Mul(r + dimExtOver*h)))
	default:
		p.MoveTo(c.Add(dir.Mul(dist - dimExtGap*h)))
		p.LineTo(c.Add(dir.Mul(r - dimExtOver*h)))
	}
	return p
}

// unit is v scaled to length 1 (v itself when it has none).
func unit(v geom.Vec) geom.Vec {
	l := v.Len()
	if l == 0 {
		return v
	}
	return v.Mul(1 / l)
}
