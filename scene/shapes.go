package scene

// The entity geometries. Each keeps exactly the parameters it was drawn with (so JSON is
// lossless and getEntity answers in the caller's own terms) and derives its outline on demand.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/text"
)

// Kind names an entity type; it is also the "kind" field of the JSON form.
type Kind string

// Entity kinds.
const (
	KindLine        Kind = "line"
	KindCircle      Kind = "circle"
	KindRect        Kind = "rect"
	KindEllipse     Kind = "ellipse"
	KindRoundedRect Kind = "rounded_rect"
	KindArc         Kind = "arc"
	KindPolygon     Kind = "polygon"
	KindPath        Kind = "path"
	KindText        Kind = "text"
	KindGroup       Kind = "group"
)

// Shape is the geometry of a non-group entity, in the entity's local coordinates.
// Shapes are immutable once validated: operations replace them rather than edit them.
type Shape interface {
	Kind() Kind
	// Outline is the path drawn for the shape (stroked, and filled when a fill is set).
	Outline() geom.Path
	// Region is the closed area the shape encloses, used by booleans, offsets and areas; it
	// fails for shapes that enclose nothing (an open polyline).
	Region() (geom.Path, error)
	validate() error
}

// Line is an open polyline.
type Line struct {
	Points []geom.Vec `json:"points"`
}

// Circle is a full circle.
type Circle struct {
	Center geom.Vec `json:"center"`
	Radius float64  `json:"radius"`
}

// Rect is an axis-aligned rectangle given by its centre, width and height.
type Rect struct {
	Center geom.Vec `json:"center"`
	Width  float64  `json:"width"`
	Height float64  `json:"height"`
}

// Ellipse is an axis-aligned ellipse given by its centre and radii.
type Ellipse struct {
	Center geom.Vec `json:"center"`
	RX     float64  `json:"rx"`
	RY     float64  `json:"ry"`
}

// RoundedRect is a centre-based rectangle with circular corners of radius Radius.
type RoundedRect struct {
	Center geom.Vec `json:"center"`
	Width  float64  `json:"width"`
	Height float64  `json:"height"`
	Radius float64  `json:"radius"`
}

// Arc is an open circular arc from Start to End (radians, counter-clockwise); as a region
// it is the pie slice.
type Arc struct {
	Center geom.Vec `json:"center"`
	Radius float64  `json:"radius"`
	Start  float64  `json:"start"`
	End    float64  `json:"end"`
}

// Polygon is one or more parts, each an outer ring with optional holes. Rings are implicitly
// closed: the last point is not repeated.
type Polygon struct {
	Parts []PolygonPart `json:"parts"`
}

// PolygonPart is an outer ring and the holes inside it.
type PolygonPart struct {
	Outer []geom.Vec   `json:"outer"`
	Holes [][]geom.Vec `json:"holes,omitempty"`
	// OuterBulges, when set, makes edges of Outer circular arcs: one bulge per edge, edge i
	// running from Outer[i] to the next point (the last edge closes the ring), tan(sweep/4),
	// positive counter-clockwise, 0 straight (geom/bulge.go). Booleans, offsets and fillets keep
	// circles, arcs and rounded corners this way.
	OuterBulges []float64 `json:"outerBulges,omitempty"`
	// HoleBulges holds the bulges of each hole as OuterBulges does for Outer; a hole past its
	// end or given none is straight.
	HoleBulges [][]float64 `json:"holeBulges,omitempty"`
}

// PathShape is a shape given by SVG path data (M L H V C S Q T A Z), Y up.
type PathShape struct {
	Data string `json:"d"`
	path geom.Path
}

// Text is a label turned into outlines from an embedded font; Pos is the anchor on the first
// line's baseline, Align places the text relative to it.
type Text struct {
	Text  string     `json:"text"`
	Pos   geom.Vec   `json:"pos"`
	Size  float64    `json:"size"`
	Align text.Align `json:"align,omitempty"`
	Font  string     `json:"font,omitempty"`
	// Fallback names the fonts that draw the characters Font lacks (UseFallback), each
	// character in the first that has it: workspace fonts by NAME, system fonts as
	// SystemFontPrefix+NAME.
	Fallback []string `json:"fallback,omitempty"`
	// NoLint keeps the size-label lint from reading the text (drawText's lint: false): a
	// note whose numbers are not sizes of the shapes near it.
	NoLint bool `json:"noLint,omitempty"`
	// layout is computed by validate.
	layout text.Layout
	// font, when set (UseFont), is the workspace font Font names.
	font *text.Font
	// fallback holds the fonts Fallback names.
	fallback []*text.Font
}

// UseFallback lays out the characters the text's font lacks in the first of fonts that has
// each, which Fallback then names; call it before drawing the text.
func (t *Text) UseFallback(fonts []*text.Font) {
	t.fallback = append(make([]*text.Font, 0, len(fonts)), fonts...)
	t.Fallback = make([]string, len(fonts))
	for i, f := range fonts {
		t.Fallback[i] = f.Name()
	}
}

// UseFont lays the text out in a workspace font (which Font then names) instead of an
// embedded one; call it before drawing the text.
func (t *Text) UseFont(f *text.Font) {
	t.font = f
	t.Font = f.Name()
}

// Kind implements Shape.
func (Line) Kind() Kind { return KindLine }

// Kind implements Shape.
func (Circle) Kind() Kind { return KindCircle }

// Kind implements Shape.
func (Rect) Kind() Kind { return KindRect }

// Kind implements Shape.
func (Ellipse) Kind() Kind { return KindEllipse }

// Kind implements Shape.
func (RoundedRect) Kind() Kind { return KindRoundedRect }

// Kind implements Shape.
func (Arc) Kind() Kind { return KindArc }

// Kind implements Shape.
func (Polygon) Kind() Kind { return KindPolygon }

// Kind implements Shape.
func (*PathShape) Kind() Kind { return KindPath }

// Kind implements Shape.
func (*Text) Kind() Kind { return KindText }

// Outline implements Shape.
func (l Line) Outline() geom.Path { return l.appendOutline(nil) }

func (l Line) appendOutline(p geom.Path) geom.Path {
	p.Polyline(l.Points, false)
	return p
}

// Region implements Shape: an open polyline encloses nothing.
func (l Line) Region() (geom.Path, error) {
	return nil, fmt.Errorf("%w: a line is an open polyline; draw a polygon instead", ErrNotClosed)
}

// Outline implements Shape.
func (c Circle) Outline() geom.Path { return c.appendOutline(nil) }

func (c Circle) appendOutline(p geom.Path) geom.Path {
	return appendEllipse(p, c.Center, c.Radius, c.Radius)
}

// Region implements Shape.
func (c Circle) Region() (geom.Path, error) { return c.Outline(), nil }

// Outline implements Shape.
func (e Ellipse) Outline() geom.Path { return e.appendOutline(nil) }

func (e Ellipse) appendOutline(p geom.Path) geom.Path { return appendEllipse(p, e.Center, e.RX, e.RY) }

// Region implements Shape.
func (e Ellipse) Region() (geom.Path, error) { return e.Outline(), nil }

func appendEllipse(p geom.Path, c geom.Vec, rx, ry float64) geom.Path {
	p.MoveTo(geom.Vec{X: c.X + rx, Y: c.Y})
	p.ArcTo(c, geom.Vec{X: rx, Y: 0}, geom.Vec{X: 0, Y: ry}, 0, 2*math.Pi)
	p.Close()
	return p
}

// Outline implements Shape.
func (r Rect) Outline() geom.Path { return r.appendOutline(nil) }

func (r Rect) appendOutline(p geom.Path) geom.Path {
	hw, hh := r.Width/2, r.Height/2
	corners := [4]geom.Vec{
		{X: r.Center.X - hw, Y: r.Center.Y - hh}, {X: r.Center.X + hw, Y: r.Center.Y - hh},
		{X: r.Center.X + hw, Y: r.Center.Y + hh}, {X: r.Center.X - hw, Y: r.Center.Y + hh},
	}
	p.Polyline(corners[:], true)
	return p
}

// Region implements Shape.
func (r Rect) Region() (geom.Path, error) { return r.Outline(), nil }

// Outline implements Shape.
func (r RoundedRect) Outline() geom.Path { return r.appendOutline(nil) }

func (r RoundedRect) appendOutline(p geom.Path) geom.Path {
	hw, hh := r.Width/2, r.Height/2
	rad := math.Min(r.Radius, math.Min(hw, hh))
	if rad <= 0 {
		return Rect{Center: r.Center, Width: r.Width, Height: r.Height}.appendOutline(p)
	}
	c := r.Center
	corners := [4]struct {
		at    geom.Vec
		start float64
	}{
		{geom.Vec{X: c.X + hw - rad, Y: c.Y - hh + rad}, -math.Pi / 2},
		{geom.Vec{X: c.X + hw - rad, Y: c.Y + hh - rad}, 0},
		{geom.Vec{X: c.X - hw + rad, Y: c.Y + hh - rad}, math.Pi / 2},
		{geom.Vec{X: c.X - hw + rad, Y: c.Y - hh + rad}, math.Pi},
	}
	p.MoveTo(geom.Vec{X: c.X - hw + rad, Y: c.Y - hh})
	for _, k := range corners {
		p.ArcTo(k.at, geom.Vec{X: rad, Y: 0}, geom.Vec{X: 0, Y: rad}, k.start, k.start+math.Pi/2)
	}
	p.Close()
	return p
}

// Region implements Shape.
func (r RoundedRect) Region() (geom.Path, error) { return r.Outline(), nil }

// Outline implements Shape.
func (a Arc) Outline() geom.Path { return a.appendOutline(nil) }

func (a Arc) appendOutline(p geom.Path) geom.Path {
	p.MoveTo(a.Center.Add(geom.Vec{X: a.Radius * math.Cos(a.Start), Y: a.Radius * math.Sin(a.Start)}))
	p.ArcTo(a.Center, geom.Vec{X: a.Radius, Y: 0}, geom.Vec{X: 0, Y: a.Radius}, a.Start, a.sweepEnd())
	return p
}

// sweepEnd returns the end angle such that the arc runs counter-clockwise from Start.
func (a Arc) sweepEnd() float64 {
	sweep := math.Mod(a.End-a.Start, 2*math.Pi)
	if sweep <= 0 {
		sweep += 2 * math.Pi
	}
	return a.Start + sweep
}

// Region implements Shape: the pie slice.
func (a Arc) Region() (geom.Path, error) {
	var p geom.Path
	p.MoveTo(a.Center)
	p.ArcTo(a.Center, geom.Vec{X: a.Radius, Y: 0}, geom.Vec{X: 0, Y: a.Radius}, a.Start, a.sweepEnd())
	p.Close()
	return p, nil
}

// Outline implements Shape. Outer rings run counter-clockwise and holes clockwise whatever
// order they were drawn in, so that the nonzero fill the renderers use paints what the area
// operations take (a scene's holes lie inside their outer ring and apart; see Put).
func (g Polygon) Outline() geom.Path { return g.appendOutline(nil) }

func (g Polygon) appendOutline(p geom.Path) geom.Path {
	for _, part := range g.Parts {
		if !part.hasArcs() {
			p.Polyline(overlay.OrientRing(part.Outer, true), true)
			for _, h := range part.Holes {
				p.Polyline(overlay.OrientRing(h, false), true)
			}
			continue
		}
		p = geom.AppendBulgedRing(p, part.Outer, part.OuterBulges, true)
		for k, h := range part.Holes {
			p = geom.AppendBulgedRing(p, h, part.holeBulges(k), false)
		}
	}
	return p
}

// Region implements Shape.
func (g Polygon) Region() (geom.Path, error) { return g.Outline(), nil }

// Outline implements Shape.
func (s *PathShape) Outline() geom.Path { return s.path }

// Region implements Shape: every subpath must be closed.
func (s *PathShape) Region() (geom.Path, error) {
	open := false
	for i, seg := range s.path {
		if seg.Kind == geom.SegMove && i > 0 && s.path[i-1].Kind != geom.SegClose {
			open = true
		}
	}
	if n := len(s.path); n == 0 || s.path[n-1].Kind != geom.SegClose {
		open = true
	}
	if open {
		return nil, fmt.Errorf("%w: path %q has an open subpath; end every subpath with Z", ErrNotClosed, s.Data)
	}
	return s.path, nil
}

// Outline implements Shape.
func (t *Text) Outline() geom.Path { return t.appendOutline(nil) }

// appendOutline builds the outline in p, so that a writer drawing a text of a million
// segments copies its layout once, not twice (the moved copy, then the copy appended).
func (t *Text) appendOutline(p geom.Path) geom.Path {
	m := geom.Translation(t.Pos)
	p = slices.Grow(p, len(t.layout.Path))
	for _, s := range t.layout.Path {
		s.Transform(m)
		p = append(p, s)
	}
	return p
}

// Region implements Shape.
func (t *Text) Region() (geom.Path, error) { return t.Outline(), nil }

// boundsUnder implements boxer: the outline is built once and mapped in place, where
// Outline().Transform(m) copied a text of a million segments twice to measure it.
func (t *Text) boundsUnder(m geom.Affine) geom.Box {
	p := t.appendOutline(nil)
	for i := range p {
		p[i].Transform(m)
	}
	return p.Bounds()
}

// Metrics is the text's layout (width, height, ascent, descent, lines).
func (t *Text) Metrics() text.Layout { l := t.layout; l.Path = nil; return l }

// FontFile is the file name of the text's font, for a writer that names the font instead of
// drawing its outlines (a DXF STYLE): DejaVuSans.ttf for the default font, NAME.ttf, .otf or
// .ttc (by the data's signature) for a workspace font, and "" when the font is not at hand.
func (t *Text) FontFile() string { return text.FontFile(t.font, t.Font) }

func (l Line) validate() error {
	if len(l.Points) < 2 {
		return fmt.Errorf("%w: a line needs at least 2 points, got %d", ErrBadGeometry, len(l.Points))
	}
	return finitePoints("points", l.Points)
}

func (c Circle) validate() error {
	if inCoordRange(c.Center.X) && inCoordRange(c.Center.Y) && inSizeRange(c.Radius) {
		return nil // the common case, without the calls that build the messages
	}
	if err := inRange("center", c.Center.X, c.Center.Y); err != nil {
		return err
	}
	return positive("radius", c.Radius)
}

func (r Rect) validate() error {
	if inCoordRange(r.Center.X) && inCoordRange(r.Center.Y) && inSizeRange(r.Width) && inSizeRange(r.Height) {
		return nil // as Circle's
	}
	if err := inRange("center", r.Center.X, r.Center.Y); err != nil {
		return err
	}
	if err := positive("width", r.Width); err != nil {
		return err
	}
	return positive("height", r.Height)
}

func (e Ellipse) validate() error {
	if err := inRange("center", e.Center.X, e.Center.Y); err != nil {
		return err
	}
	if err := positive("rx", e.RX); err != nil {
		return err
	}
	return positive("ry", e.RY)
}

func (r RoundedRect) validate() error {
	if err := (Rect{Center: r.Center, Width: r.Width, Height: r.Height}).validate(); err != nil {
		return err
	}
	if math.IsNaN(r.Radius) || math.IsInf(r.Radius, 0) || r.Radius < 0 {
		return fmt.Errorf("%w: radius must be a finite number >= 0, got %v", ErrBadGeometry, r.Radius)
	}
	return nil
}

func (a Arc) validate() error {
	if err := inRange("center", a.Center.X, a.Center.Y); err != nil {
		return err
	}
	if err := positive("radius", a.Radius); err != nil {
		return err
	}
	if err := finite("start/end angle", a.Start, a.End); err != nil {
		return err
	}
	if a.Start == a.End {
		return fmt.Errorf("%w: start and end angle are equal (%v); an arc must sweep", ErrBadGeometry, a.Start)
	}
	return nil
}

func (g Polygon) validate() error {
	if len(g.Parts) == 0 {
		return fmt.Errorf("%w: a polygon needs at least one outer ring", ErrBadGeometry)
	}
	vertices := 0
	for _, part := range g.Parts {
		if len(part.Outer) < minRingPoints(part.OuterBulges) {
			return fmt.Errorf("%w: a polygon ring needs at least 3 points (2 when an edge is an arc), got %d", ErrBadGeometry, len(part.Outer))
		}
		if err := finitePoints("points", part.Outer); err != nil {
			return err
		}
		if err := checkBulges("the outer ring", part.Outer, part.OuterBulges); err != nil {
			return err
		}
		if len(part.HoleBulges) > len(part.Holes) {
			return fmt.Errorf("%w: %d holes and bulges for %d; give bulges for at most each hole", ErrBadGeometry, len(part.Holes), len(part.HoleBulges))
		}
		vertices += len(part.Outer)
		for i, h := range part.Holes {
			if len(h) < minRingPoints(part.holeBulges(i)) {
				return fmt.Errorf("%w: hole %d needs at least 3 points (2 when an edge is an arc), got %d", ErrBadGeometry, i, len(h))
			}
			if err := finitePoints("hole", h); err != nil {
				return err
			}
			if err := checkBulges("hole "+strconv.Itoa(i), h, part.holeBulges(i)); err != nil {
				return err
			}
			vertices += len(h)
		}
	}
	if vertices > MaxVertices {
		return fmt.Errorf("%w: polygon has %d vertices; the limit is %d (MaxVertices)", ErrLimit, vertices, MaxVertices)
	}
	return nil
}

// minRingPoints is the fewest points a ring with these bulges needs: 2 when an edge is an arc
// (a lens, a circle), 3 otherwise.
func minRingPoints(bulges []float64) int {
	if geom.HasBulge(bulges) {
		return 2
	}
	return 3
}

func (s *PathShape) validate() error {
	p, err := geom.ParsePathData(s.Data)
	if err != nil {
		return err
	}
	if b := p.Bounds(); b.NonEmpty {
		if err := inRange("path coordinate", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y); err != nil {
			return err
		}
	}
	s.path = p
	return nil
}

func (t *Text) validate() error {
	if t.Text == "" {
		return fmt.Errorf("%w: text must not be empty", ErrBadGeometry)
	}
	if err := inRange("position", t.Pos.X, t.Pos.Y); err != nil {
		return err
	}
	if len(t.Fallback) != len(t.fallback) {
		return fmt.Errorf("%w: the fallback fonts %s are not loaded", text.ErrUnknownFont, strings.Join(t.Fallback, ", "))
	}
	l, err := text.LayoutIn(t.font, t.Font, t.Text, t.Size, t.Align, t.fallback)
	if err != nil {
		return err
	}
	t.layout = l
	return nil
}

func finite(what string, vs ...float64) error {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s must be finite, got %v", ErrBadGeometry, what, v)
		}
	}
	return nil
}

// inCoordRange reports whether inRange accepts v: finite and within ±MaxCoord (NaN is not).
func inCoordRange(v float64) bool { return v >= -MaxCoord && v <= MaxCoord }

// inSizeRange reports whether positive accepts v: in (0, MaxCoord] (NaN is not).
func inSizeRange(v float64) bool { return v > 0 && v <= MaxCoord }

// inRange checks coordinates: finite and within ±MaxCoord.
func inRange(what string, vs ...float64) error {
	if err := finite(what, vs...); err != nil {
		return err
	}
	for _, v := range vs {
		if math.Abs(v) > MaxCoord {
			return errRange(what, v)
		}
	}
	return nil
}

func errRange(what string, v float64) error {
	return fmt.Errorf("%w: %s is %v, outside the supported coordinate range -%g..%g (MaxCoord); draw in larger units or nearer the origin",
		ErrBadGeometry, what, v, MaxCoord, MaxCoord)
}

func finitePoints(what string, pts []geom.Vec) error {
	if len(pts) > MaxVertices {
		return fmt.Errorf("%w: %s has %d vertices; the limit is %d (MaxVertices)", ErrLimit, what, len(pts), MaxVertices)
	}
	for i, p := range pts {
		if !finiteVec(p) || math.Abs(p.X) > MaxCoord || math.Abs(p.Y) > MaxCoord {
			if err := inRange(fmt.Sprintf("%s[%d].x", what, i), p.X); err != nil {
				return err
			}
			return inRange(fmt.Sprintf("%s[%d].y", what, i), p.Y)
		}
	}
	return nil
}

func positive(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("%w: %s must be a finite number > 0, got %v", ErrBadGeometry, what, v)
	}
	if v > MaxCoord {
		return errRange(what, v)
	}
	return nil
}

// boxer is implemented by shapes whose transformed bounds have a closed form, sparing the
// path construction on the hot paths (scene bounds, view fitting, pivots).
type boxer interface {
	boundsUnder(m geom.Affine) geom.Box
}

// shapeBounds is the exact bounds of sh mapped by m. The commonest kinds are switched on by
// their type, which calls their boundsUnder directly, the others through boxer.
func shapeBounds(sh Shape, m geom.Affine) geom.Box {
	switch sh := sh.(type) {
	case Circle:
		return sh.boundsUnder(m)
	case Rect:
		return sh.boundsUnder(m)
	}
	if b, ok := sh.(boxer); ok {
		return b.boundsUnder(m)
	}
	return sh.Outline().Transform(m).Bounds()
}

// localBounds is shapeBounds(sh, Identity), the bounds of sh in its own coordinates, which
// every new shape needs for its pivot. For a circle or rectangle of finite numbers it skips the
// matrix: mapping x by Identity gives x + 0 (the same x, but a -0 becomes 0), and a circle's
// half sizes under it are hypot(r, 0) = |r|. The results are the same numbers, bit for bit.
func localBounds(sh Shape) geom.Box {
	switch sh := sh.(type) {
	case Circle:
		c, r := sh.Center, math.Abs(sh.Radius)
		if finiteVec(c) && !math.IsInf(r, 0) && !math.IsNaN(r) {
			x, y := c.X+0, c.Y+0
			return geom.Box{Min: geom.Vec{X: x - r, Y: y - r}, Max: geom.Vec{X: x + r, Y: y + r}, NonEmpty: true}
		}
	case Rect:
		hw, hh := sh.Width/2, sh.Height/2
		x0, x1 := sh.Center.X-hw+0, sh.Center.X+hw+0
		y0, y1 := sh.Center.Y-hh+0, sh.Center.Y+hh+0
		if finiteVec(geom.Vec{X: x0, Y: y0}) && finiteVec(geom.Vec{X: x1, Y: y1}) {
			return geom.Box{Min: geom.Vec{X: min(x0, x1), Y: min(y0, y1)}, Max: geom.Vec{X: max(x0, x1), Y: max(y0, y1)}, NonEmpty: true}
		}
	}
	return shapeBounds(sh, geom.Identity)
}

// ellipseBox is the exact box of the ellipse c + (rx cos t, ry sin t) mapped by m.
func ellipseBox(c geom.Vec, rx, ry float64, m geom.Affine) geom.Box {
	p := m.Apply(c)
	hx := math.Hypot(m.A*rx, m.C*ry)
	hy := math.Hypot(m.B*rx, m.D*ry)
	return geom.Box{Min: geom.Vec{X: p.X - hx, Y: p.Y - hy}, Max: geom.Vec{X: p.X + hx, Y: p.Y + hy}, NonEmpty: true}
}

func (c Circle) boundsUnder(m geom.Affine) geom.Box {
	return ellipseBox(c.Center, c.Radius, c.Radius, m)
}

func (e Ellipse) boundsUnder(m geom.Affine) geom.Box { return ellipseBox(e.Center, e.RX, e.RY, m) }

func (r Rect) boundsUnder(m geom.Affine) geom.Box {
	hw, hh := r.Width/2, r.Height/2
	var b geom.Box
	for _, d := range [4]geom.Vec{{X: -hw, Y: -hh}, {X: hw, Y: -hh}, {X: hw, Y: hh}, {X: -hw, Y: hh}} {
		b.Extend(m.Apply(r.Center.Add(d)))
	}
	return b
}

func (l Line) boundsUnder(m geom.Affine) geom.Box {
	var b geom.Box
	for _, p := range l.Points {
		b.Extend(m.Apply(p))
	}
	return b
}

func (g Polygon) boundsUnder(m geom.Affine) geom.Box {
	if g.HasArcs() {
		return g.arcBounds(m)
	}
	var b geom.Box
	for _, part := range g.Parts {
		for _, p := range part.Outer {
			b.Extend(m.Apply(p))
		}
	}
	return b
}
