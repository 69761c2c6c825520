package scene

// Dimensions. A dimension keeps the points it measures in its own frame and draws itself as
// one path (scene/drafting lays it out: the extension lines and the dimension line as open
// subpaths, the arrowheads as closed triangles and the text as glyph outlines). Its default
// style strokes and fills that path in black, so every writer draws it as it draws any shape.
//
// A dimension measures and lays itself out in world space: its defining points are mapped by
// the entity's world transform first, and then the value is measured and the layout
// (drafting.LinearDim, RadialDim, AngularDim) sets the text upright and sizes the arrows in
// world units (the text height is a pen-like size, as a stroke width is, and not scaled by
// groups). So a dimension in a scaled group states the scaled size, and one in a rotated or
// mirrored group still reads left to right. The writers get the world path through
// AppendOutline and the bounds through boundsUnder; Outline is the layout under the identity
// map.

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/cadrun/cadrun/scene/drafting"
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

// Dimension defaults, after the ISO-25 style of CAD programs; the proportions of its arrows,
// gaps and extension lines are the layout's (drafting.DimArrowLength and its kin).
const (
	DefaultDimSize      = 2.5
	DefaultDimPrecision = 2
	// MaxDimPrecision caps the digits after the point (float64 holds about 15 to 17).
	MaxDimPrecision = 8
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
	return d.textFor(drafting.FormatDimValue(d.Measured(m), d.Precision))
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

// Layouts lays each dimension out once for one write (a lint, a DXF file), which reads its
// bounds, its drawing and where its text stands: each of them laid the dimension out again,
// setting its text, the bulk of the work. A nil *Layouts lays out at every call. Keep one per
// write and to one goroutine: writers read a scene side by side.
type Layouts struct{ laid map[*Dimension]dimLaid }

type dimLaid struct {
	m geom.Affine
	p geom.Path
	t drafting.DimText
}

// Of is d laid out under m: as an earlier call with the same d and m laid it out, or now. The
// path is shared between calls: read it, do not change it.
func (l *Layouts) Of(d *Dimension, m geom.Affine) (geom.Path, drafting.DimText) {
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
func (d *Dimension) TextUnder(m geom.Affine) drafting.DimText {
	_, t := d.layout(m)
	return t
}

// dimLayouts counts the dimensions laid out in this process (DimLayoutCount).
var dimLayouts atomic.Int64

// DimLayoutCount is how many times a dimension has been laid out in this process, for tests
// that check that a write (a lint, a DXF file) lays each dimension out once.
func DimLayoutCount() int64 { return dimLayouts.Load() }

// layout draws the dimension in world space under m and says where its text stands: its
// points mapped by m, then laid out by drafting.
func (d *Dimension) layout(m geom.Affine) (geom.Path, drafting.DimText) {
	dimLayouts.Add(1)
	lb := drafting.DimLabel{Text: d.DisplayText(m), Size: d.Size}
	if d.TextAt != nil {
		at := m.Apply(*d.TextAt)
		lb.At = &at
	}
	switch d.Type {
	case DimRadius, DimDiameter:
		c, e := d.radial(m)
		return drafting.RadialDim(c, e, d.Type == DimDiameter, d.Outside, lb)
	case DimAngle:
		c, r, start, sweep := d.angular(m)
		pa, pb := m.Apply(d.Points[1]), m.Apply(d.Points[2])
		if m.Det() < 0 {
			pa, pb = pb, pa
		}
		return drafting.AngularDim(c, r, start, sweep, pa, pb, lb)
	}
	p1, p2, u, q := d.linear(m)
	return drafting.LinearDim(p1, p2, u, q, lb)
}

// LabelPlace is where the dimension sets its text under the world map m: the map, a turn
// and a move, from the text laid out centred on the origin's baseline
// (text.LayoutString(DisplayText(m), Size, text.AlignCenter, "")) to world space. Its outline is the
// end of the dimension's world outline; a writer that sets the text as text of its own (a
// DXF TEXT) places it with this map.
func (d *Dimension) LabelPlace(m geom.Affine) geom.Affine { return d.TextUnder(m).Place }

// unit is v scaled to length 1 (v itself when it has none).
func unit(v geom.Vec) geom.Vec {
	l := v.Len()
	if l == 0 {
		return v
	}
	return v.Mul(1 / l)
}
