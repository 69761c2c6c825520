package svg

// From elements to the drawing: each shape's outline is built as a geom.Path in the
// element's own coordinates and mapped by the whole transform down to it (the document's
// scale and Y flip included), so curves stay exact; then the simplest call that draws it
// exactly is chosen (a circle stays a circle under a similarity, a rect stays a rect while
// its axes stay axis-aligned, anything else becomes a path).

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// Drawing is a read SVG file.
type Drawing struct {
	Units   string         // the scene unit the drawing is in ("mm"), or "user units"
	Scale   float64        // scene units per SVG user unit
	Items   []*Item        // the top-level items, in document order
	Symbols []*Symbol      // the symbols <use> places, in the order first used
	Kinds   map[string]int // items made, by SVG element (a symbol's counted once)
	Skipped map[string]int // "ELEMENT: why" -> count
	Drawn   int            // shapes and groups with every <use> expanded
	// Segments are the path segments converted: a symbol's once however often it is
	// placed, a skewed <use>'s content again for each (MaxSegments).
	Segments int
	// ShapeBytes is the text the shapes are written with: path data, points and
	// characters (MaxShapeBytes).
	ShapeBytes int
}

// ItemKind tells what an Item is.
type ItemKind int

// Item kinds.
const (
	Group ItemKind = iota // a <g> (or <a>, nested <svg>): Children
	Shape                 // one drawn shape: Prim
	Use                   // a <use> that places a Symbol
)

// Item is a group, a shape or a placed symbol.
type Item struct {
	Kind    ItemKind
	Element string // the SVG element it came from: "rect", "path", "g", "use", ...
	Line    int
	ID      string // inkscape:label, else id; "" when neither
	Prim    Prim
	Fill    *Color  // nil: none
	Stroke  *Color  // nil: none
	Width   float64 // stroke width in scene units; 0 a hairline
	// Linetype is cadrun's linetype for the stroke's dashes, "" solid; LinetypeScale its
	// scale, in scene units like Width.
	Linetype      string
	LinetypeScale float64
	// Cap, Join and MiterLimit are the stroke's ends and corners as scene.Style has them
	// ("" round, 0 a limit of 4), set where the shape has ends or corners to show them.
	Cap, Join  string
	MiterLimit float64
	Children   []*Item
	Symbol     *Symbol
	Place      Placement
	// Clips are the regions a shape's fill is cut to, in turn (SVG's clip-path and masks of
	// opaque white shapes), which the module cuts with cadrun's booleans; its stroke, cut by the
	// reader, is a shape of its own.
	Clips []Clip
}

// Prim is a shape in scene coordinates: one of the calls cadrun draws with.
type Prim struct {
	Call   string     // drawCircle, drawEllipse, drawRect, drawRoundedRect, drawLine, drawPolygon, drawBezier, drawText
	X, Y   float64    // centre (circle, ellipse, rects) or the text's start
	W, H   float64    // width and height (rects), radii (ellipse)
	R      float64    // radius (circle, rounded rect)
	Points []geom.Vec // drawLine, drawPolygon
	Path   string     // drawBezier: path data, Y up
	Text   string     // drawText
	Size   float64    // font size
	Align  string     // "", "center", "right"
	Angle  float64    // the text's rotation in radians, counter-clockwise
	Font   string     // drawText's font: "" for sans, sans-bold, sans-italic, mono, ...
}

// Placement puts a symbol's group: scaled by (SX, SY), turned by Angle (radians,
// counter-clockwise) and moved by (X, Y), all about the symbol's origin. K multiplies the
// symbol's stroke widths, which a group's scale leaves alone: the placement's mean scale
// over the one the symbol is drawn at (1 at the symbol's first use).
type Placement struct{ X, Y, SX, SY, Angle, K float64 }

// Symbol is what a <use> places: drawn once in its own coordinates (Y up) by a function,
// at the mean scale of its first placement, and placed by every <use> that passes it the
// same style, whatever their scales.
type Symbol struct {
	ID    string // the referenced element's id
	Line  int
	Items []*Item
	Drawn int     // shapes and groups it draws, nested uses expanded
	Scale float64 // the mean scale it is drawn at, scene units per unit of its content
	// Widths tells that it has stroke widths or dashes (its own shapes' or its uses'
	// symbols'), which each placement multiplies by its K.
	Widths bool
	// Dashes are the dashes and dots its strokes make, each placement making as many.
	Dashes float64
	ext    *extent // what its content covers, in its own coordinates
}

// Options say how to read a file.
type Options struct {
	Units  string // the scene unit for a drawing with a size (width, height): mm, cm, in, pt, px; default mm
	Limits Limits
}

// ErrUnits is returned for Options.Units that name no unit an SVG is drawn in.
var ErrUnits = errors.New("unknown units")

// Read reads an SVG file within the limits.
func Read(data []byte, opt Options) (*Drawing, error) {
	lim := opt.Limits.orDefault()
	deadline := time.Now().Add(lim.MaxTime)
	root, err := parse(data, lim, deadline)
	if err != nil {
		return nil, err
	}
	units := opt.Units
	if units == "" {
		units = "mm"
	}
	if _, ok := unitsPerInch[units]; !ok || units == "" {
		return nil, fmt.Errorf("%w %q: use mm, cm, in, pt or px", ErrUnits, units)
	}
	c := &converter{lim: lim, deadline: deadline, ids: map[string]*element{}, parents: map[*element]*element{}, symbols: map[string]*Symbol{},
		d: &Drawing{Kinds: map[string]int{}, Skipped: map[string]int{}}}
	c.index(root)
	if err := c.applyStylesheets(root); err != nil {
		return nil, err
	}
	c.vp = [2]float64{100, 100}
	if vb, ok := viewBox(root.attr("viewBox")); ok {
		c.vp = [2]float64{vb[2], vb[3]}
	} else if w, ok := length(root.attr("width"), 16); ok {
		c.vp[0] = w
		if h, ok := length(root.attr("height"), 16); ok {
			c.vp[1] = h
		}
	}
	sx, sy := c.documentScale(root, units)
	m := geom.Scaling(sx, -sy) // Y up
	root0 := initialStyle()
	root0.diag = c.diag()
	st := root0.child(root)
	if !st.display {
		c.skip("svg", "display:none on the root: the file draws nothing")
		return c.d, nil
	}
	regs, draws := c.clipsOf(root, m, st)
	if !draws {
		return c.d, nil
	}
	c.clips = regs
	items, err := c.children(root, m, st)
	if err != nil {
		return nil, err
	}
	c.d.Items = items
	c.d.Drawn = c.drawn
	c.d.Symbols = placed(items, c.d.Symbols)
	return c.d, nil
}

// placed is those of syms that items place, in their order: a viewport's content converted
// again inside its frame, or a symbol cut to its viewport, leaves the symbols of the first
// conversion unplaced.
func placed(items []*Item, syms []*Symbol) []*Symbol {
	seen := map[*Symbol]bool{}
	var walk func([]*Item)
	walk = func(items []*Item) {
		for _, it := range items {
			switch it.Kind {
			case Group:
				walk(it.Children)
			case Use:
				if !seen[it.Symbol] {
					seen[it.Symbol] = true
					walk(it.Symbol.Items)
				}
			}
		}
	}
	walk(items)
	return slices.DeleteFunc(syms, func(s *Symbol) bool { return !seen[s] })
}

type converter struct {
	lim      Limits
	deadline time.Time
	ids      map[string]*element
	symbols  map[string]*Symbol // by element id and the style it is drawn with
	uses     []string           // the ids of the <use>s being expanded, outermost first
	useLines []int              // and their lines
	drawn    int
	dashes   float64    // the dashes and dots the strokes make, against scene.MaxDashSegments
	vp       [2]float64 // the width and height of the viewport being converted, in its user units
	ext      *extent    // what the innermost clipping viewport being converted holds, nil outside one
	// measuring tells that a viewport's content is being converted uncut, to be measured.
	measuring bool
	clips     []region // the clip regions of the elements being converted, outermost first
	// clipCache holds the clips read in the user space, by element kind, clip and map.
	clipCache map[string]clipRead
	advances  map[glyph]float64 // the characters' advances, measured once a file
	d         *Drawing
	// parents are every element's but the root's: a marker's style is its ancestors'.
	parents map[*element]*element
	// markerStack holds the ids of the markers being converted, to leave out one that draws
	// itself; markerDrawn counts the shapes and groups markers drew (MaxMarkerDrawn).
	markerStack []string
	// markerContext tells, by marker id, whether its content takes context paints.
	markerContext map[string]bool
	markerDrawn   int
}

// index finds every element with an id (the first of a repeated id wins, as in browsers).
func (c *converter) index(e *element) {
	if id := e.attr("id"); id != "" {
		if _, ok := c.ids[id]; !ok {
			c.ids[id] = e
		}
	}
	for _, ch := range e.children {
		c.parents[ch] = e
		c.index(ch)
	}
}

// documentScale is scene units per user unit: from width and height when the root gives
// them (px at 96 to the inch), else 1 (user units are scene units).
func (c *converter) documentScale(root *element, units string) (sx, sy float64) {
	w, okw := length(root.attr("width"), 16)
	h, okh := length(root.attr("height"), 16)
	if !okw && !okh {
		c.d.Units, c.d.Scale = "user units", 1
		return 1, 1
	}
	perPx := unitsPerInch[units] / 96
	c.d.Units = units
	vb, okvb := viewBox(root.attr("viewBox"))
	if !okvb {
		c.d.Scale = perPx
		return perPx, perPx
	}
	if !okw {
		w = h * vb[2] / vb[3]
	}
	if !okh {
		h = w * vb[3] / vb[2]
	}
	sx, sy = w/vb[2]*perPx, h/vb[3]*perPx
	if fm, slice := fit(vb, root.attr("preserveAspectRatio"), 0, 0, w, h); fm.A != fm.D || sx != sy {
		sx, sy = fm.A*perPx, fm.D*perPx
		if slice {
			c.skip("svg", "preserveAspectRatio slice: the drawing is scaled to cover its page, as SVG does, but not cut to it")
		}
	}
	c.d.Scale = sx
	return sx, sy
}

// viewBox reads "minx miny width height" with a positive size.
func viewBox(v string) ([4]float64, bool) {
	n, err := numbers(v)
	if err != nil || len(n) != 4 || !(n[2] > 0) || !(n[3] > 0) {
		return [4]float64{}, false
	}
	return [4]float64{n[0], n[1], n[2], n[3]}, true
}

func (c *converter) skip(elem, why string) { c.d.Skipped[elem+": "+why]++ }

// ignored are elements that draw nothing and are passed over without a note.
var ignored = map[string]bool{"title": true, "desc": true, "metadata": true, "namedview": true, "defs": true,
	"symbol": true, "linearGradient": true, "radialGradient": true, "stop": true, "clipPath": true,
	"mask": true, "filter": true, "marker": true, "pattern": true, "perspective": true,
	"style": true} // read before the drawing is (applyStylesheets)

// unsupported are elements skipped with a note saying why.
var unsupported = map[string]string{
	"image":         "raster images are not imported",
	"foreignObject": "foreign content is not imported",
	"script":        "scripts are not run",
	"textPath":      "text on a path is not imported",
}

// children converts e's children, mapped by m, inheriting st.
func (c *converter) children(e *element, m geom.Affine, st style) ([]*Item, error) {
	var out []*Item
	for _, ch := range e.children {
		it, err := c.element(ch, m, st)
		if err != nil {
			return nil, err
		}
		out = append(out, it...)
	}
	return out, nil
}

// element converts one element (and what it holds) to items.
func (c *converter) element(e *element, m geom.Affine, parent style) ([]*Item, error) {
	// Each element is checked, not every so many: one can stand for a whole symbol's content.
	if err := c.inTime(e.line); err != nil {
		return nil, err
	}
	if e.space != "" && e.space != "http://www.w3.org/2000/svg" || ignored[e.name] {
		return nil, nil
	}
	if why, ok := unsupported[e.name]; ok {
		c.skip(e.name, why)
		return nil, nil
	}
	parent.diag = c.diag()
	st := parent.child(e)
	if !st.display {
		c.skip(e.name, "display:none")
		return nil, nil
	}
	if st.filter != "" {
		c.skip(e.name, "filter is not applied")
	}
	if st.blend != "" {
		c.skip(e.name, "mix-blend-mode "+clip(st.blend)+" is not applied")
	}
	if t := e.attr("transform"); t != "" {
		tm, err := parseTransform(t)
		if err != nil {
			// An attribute SVG cannot read is ignored, as if not given.
			c.skip(e.name, fmt.Sprintf("malformed transform (line %d: %v): ignored, as SVG ignores it", e.line, err))
			tm = geom.Identity
		}
		if o, ok := c.origin(e); ok {
			tm = geom.Translation(o).Mul(tm).Mul(geom.Translation(o.Mul(-1)))
		}
		m = m.Mul(tm)
	}
	regs, draws := c.clipsOf(e, m, st)
	if !draws {
		return nil, nil
	}
	if len(regs) > 0 {
		outer := c.clips
		c.clips = append(outer[:len(outer):len(outer)], regs...)
		defer func() { c.clips = outer }()
	}
	switch e.name {
	case "g", "a":
		return c.group(e, m, st)
	case "switch":
		return c.switchGroup(e, m, st)
	case "svg":
		return c.nested(e, m, st)
	case "use":
		return c.use(e, m, st)
	case "text":
		return c.text(e, m, st)
	}
	p, err := c.outline(e, st)
	if err != nil || p == nil {
		return nil, err
	}
	if !st.visible {
		c.skip(e.name, "visibility:hidden")
		return nil, nil
	}
	it := c.shape(e, p, m, st)
	if it == nil {
		return nil, nil
	}
	// A path of one point is a dot its caps draw, which the note on caps speaks of; one its
	// transforms shrink to a point is nothing.
	if tooSmall(it.Prim) || tooSmallBox(p.Transform(m).Bounds()) && !tooSmallBox(p.Bounds()) {
		c.skip(e.name, tooSmallNote)
		return nil, nil
	}
	var items []*Item
	if len(c.clips) > 0 {
		items, err = c.clipped(e, it, p.Transform(m))
	} else {
		items, err = c.made(it)
	}
	if v, ok := e.attrs["marker"]; ok && strings.TrimSpace(v) != "none" && marked[e.name] {
		c.skip(e.name, "the marker attribute is ignored, as SVG ignores it: the marker shorthand is a style property, not an attribute")
	}
	if err != nil || st.markers == [3]string{} || !marked[e.name] {
		return items, err
	}
	more, err := c.markers(e, p, m, st)
	return append(items, more...), err
}

// diag is what a percentage of a stroke's lengths is of in the viewport being converted.
func (c *converter) diag() float64 {
	return math.Sqrt((c.vp[0]*c.vp[0] + c.vp[1]*c.vp[1]) / 2)
}

// inTime refuses the file once converting it has taken MaxTime; it is asked at each element
// and after each path's segments (converted and written), so that no refusal waits on more
// than one path's work.
func (c *converter) inTime(line int) error {
	if time.Now().After(c.deadline) {
		return &LineError{line, fmt.Errorf("%w: converting took over %v (MaxTime)", ErrLimit, c.lim.MaxTime)}
	}
	return nil
}

// converted counts the n segments of element e's path against MaxSegments, which bounds
// the conversion by the module it can make: a symbol is converted once for each style it is
// placed with and a skewed <use>'s content once for each, so a few uses of a long path
// would otherwise be converted and written over and over.
func (c *converter) converted(e *element, n int) error {
	c.d.Segments += n
	if c.d.Segments > c.lim.MaxSegments {
		return c.over(e.name, e.line, fmt.Errorf("%w: the drawing's paths come to over %d segments converted, more than a module can hold (MaxSegments)", ErrLimit, c.lim.MaxSegments))
	}
	return c.inTime(e.line)
}

// written counts the text a shape is written with (path data, points, characters) against
// MaxShapeBytes as it is made, so that the drawing held for the module never holds more than
// the module may (200,000 segments under a turn held 15 MB of path data, 30 times the
// module's limit, for a module then refused).
func (c *converter) written(it *Item) error {
	n := primBytes(it.Prim)
	for _, r := range it.Clips {
		for _, p := range r.Shapes {
			n += primBytes(p)
		}
	}
	c.d.ShapeBytes += n
	if c.d.ShapeBytes > c.lim.MaxShapeBytes {
		return c.over(it.Element, it.Line, fmt.Errorf("%w: the shapes' path data, points and text come to over %d bytes, more than a module may hold (MaxShapeBytes)", ErrLimit, c.lim.MaxShapeBytes))
	}
	return c.inTime(it.Line)
}

// primBytes is the text a call is written with: its path data, points and characters.
func primBytes(p Prim) int {
	n := len(p.Path) + len(p.Text)
	for _, q := range p.Points {
		n += len(Num(q.X)) + len(Num(q.Y)) + 4 // ", " after each
	}
	return n
}

// over is a budget's refusal at the <use> being expanded, where there is one, naming the
// element that passed it.
func (c *converter) over(elem string, line int, err error) error {
	k := len(c.uses)
	if k == 0 {
		return &LineError{line, fmt.Errorf("%w; split the drawing into a few files", err)}
	}
	return &LineError{c.useLines[k-1], fmt.Errorf("%w (<%s> at line %d, drawn for the <use> of #%s); "+
		"a symbol is converted once for each style its <use>s pass down, a skewed <use> draws its content again: "+
		"give the <use>s one style and no skew, or split the drawing into a few files", err, elem, line, c.uses[k-1])}
}

// made counts a new item against MaxDrawn, and a shape's text against MaxShapeBytes.
func (c *converter) made(it *Item) ([]*Item, error) {
	if it.Kind == Shape {
		if err := c.written(it); err != nil {
			return nil, err
		}
	}
	c.drawn++
	if it.Kind == Use {
		c.drawn += it.Symbol.Drawn
		if c.dashes += it.Symbol.Dashes; c.dashes > scene.MaxDashSegments {
			return nil, &LineError{it.Line, fmt.Errorf("%w: the drawing's dashed strokes make over %d dashes and dots once its <use> elements are expanded (MaxDashSegments); draw the symbol's strokes solid or place it fewer times", ErrRefused, scene.MaxDashSegments)}
		}
	}
	if c.drawn > c.lim.MaxDrawn {
		return nil, &LineError{it.Line, fmt.Errorf("%w: the drawing has over %d shapes and groups once its <use> elements are expanded (MaxDrawn)", ErrRefused, c.lim.MaxDrawn)}
	}
	c.d.Kinds[it.Element]++
	return []*Item{it}, nil
}

// nested converts a nested <svg>: its viewBox fitted into its box (x, y, width, height, the
// size 100% of the viewport it is in by default), which is the viewport of what it holds and
// cuts off what passes it, as SVG does, unless overflow is visible.
func (c *converter) nested(e *element, m geom.Affine, st style) ([]*Item, error) {
	x, y := c.num(e, "x"), c.num(e, "y")
	w, h := c.size(e, "width", c.vp[0], st.fontSize), c.size(e, "height", c.vp[1], st.fontSize)
	if !(w > 0 && h > 0) {
		return nil, nil // a viewport of no size draws nothing
	}
	inner, vp := geom.Translation(geom.Vec{X: x, Y: y}), [2]float64{w, h}
	if vb, ok := viewBox(e.attr("viewBox")); ok {
		inner, _ = fit(vb, e.attr("preserveAspectRatio"), x, y, w, h)
		vp = [2]float64{vb[2], vb[3]}
	}
	return c.viewport(e, frame(m, x, y, w, h), vp, func() ([]*Item, error) { return c.group(e, m.Mul(inner), st) })
}

// viewport converts what a viewport element holds with vp as the viewport's size, cut to
// the viewport's frame (in scene coordinates) when e clips. Outside any clip, what it holds
// is first converted uncut and measured: only when it passes the frame (or holds what the
// reader does not measure: text, or a symbol holding text) is it converted again inside the
// frame, so that a viewport whose content fits keeps its <use>s placed as symbols, which a
// clip would draw in place. Under a clip they are drawn in place already, and the frame is
// added at once; so it is inside a viewport being measured, so that nested viewports convert
// their content at most twice, not once more for each level.
func (c *converter) viewport(e *element, fr region, vp [2]float64, convert func() ([]*Item, error)) ([]*Item, error) {
	outerVP, outerExt, outerClips := c.vp, c.ext, c.clips
	defer func() { c.vp, c.ext, c.clips = outerVP, outerExt, outerClips }()
	c.vp = vp
	if !clips(e) {
		return convert()
	}
	cut := func() ([]*Item, error) {
		ext := &extent{}
		c.ext = ext
		c.clips = append(outerClips[:len(outerClips):len(outerClips)], fr)
		items, err := convert()
		if outerExt != nil && err == nil {
			// What is drawn lies inside the frame now.
			b := fr.box
			if !ext.unknown {
				b = meet(b, ext.box)
			}
			if b.NonEmpty {
				outerExt.box.Extend(b.Min)
				outerExt.box.Extend(b.Max)
			}
		}
		return items, err
	}
	if len(outerClips) > 0 || c.measuring {
		return cut()
	}
	ext := &extent{}
	c.ext = ext
	before := c.counts()
	c.measuring = true
	items, err := convert()
	c.measuring = false
	if err != nil {
		return nil, err
	}
	if ext.overflows(fr.box) {
		c.restore(before)
		return cut()
	}
	if outerExt != nil && ext.box.NonEmpty {
		outerExt.box.Extend(ext.box.Min)
		outerExt.box.Extend(ext.box.Max)
	}
	return items, nil
}

// counts is what converting an element adds to: kept before a viewport's content is
// converted, to be put back when it is converted again inside its frame.
type counts struct {
	skipped, kinds                           map[string]int
	drawn, segments, shapeBytes, markerDrawn int
	dashes                                   float64
}

func (c *converter) counts() counts {
	return counts{maps.Clone(c.d.Skipped), maps.Clone(c.d.Kinds), c.drawn, c.d.Segments, c.d.ShapeBytes, c.markerDrawn, c.dashes}
}

func (c *converter) restore(k counts) {
	c.d.Skipped, c.d.Kinds, c.drawn, c.d.Segments, c.d.ShapeBytes, c.markerDrawn, c.dashes = k.skipped, k.kinds, k.drawn, k.segments, k.shapeBytes, k.markerDrawn, k.dashes
}

func (c *converter) group(e *element, m geom.Affine, st style) ([]*Item, error) {
	kids, err := c.children(e, m, st)
	if err != nil || len(kids) == 0 {
		return nil, err
	}
	return c.made(&Item{Kind: Group, Element: e.name, Line: e.line, ID: label(e), Children: kids})
}

// label is an element's name for the scene: its Inkscape label, else its id.
func label(e *element) string {
	if l := e.attr("label"); l != "" {
		return l
	}
	return e.attr("id")
}

// num reads a length attribute in user units; 0 when absent or unreadable.
func (c *converter) num(e *element, name string) float64 {
	v, ok := e.attrs[name]
	if !ok {
		return 0
	}
	f, ok := length(v, 16)
	if !ok {
		// A percentage is of the viewport's width, height or their mean (for r).
		of := c.diag()
		switch name {
		case "x", "cx", "x1", "x2", "width", "rx", "dx":
			of = c.vp[0]
		case "y", "cy", "y1", "y2", "height", "ry", "dy":
			of = c.vp[1]
		}
		if f, ok := c.percent(v, of); ok {
			return f
		}
		// A list (text's x="1 2 3") takes its first number.
		if n, err := numbers(v); err == nil && len(n) > 0 {
			return n[0]
		}
		c.skip(e.name, fmt.Sprintf("%s=%q not understood, taken as 0", name, clip(v)))
		return 0
	}
	return f
}

// outline is a basic shape's or a path's outline in its own coordinates; nil (with a note)
// when it draws nothing.
func (c *converter) outline(e *element, st style) (geom.Path, error) {
	var p geom.Path
	switch e.name {
	case "path":
		return c.pathData(e, e.attr("d"))
	case "rect":
		x, y, w, h := c.num(e, "x"), c.num(e, "y"), c.num(e, "width"), c.num(e, "height")
		if !(w > 0 && h > 0) {
			c.skip(e.name, "width or height not positive")
			return nil, nil
		}
		rx, okx := length(e.attr("rx"), st.fontSize)
		ry, oky := length(e.attr("ry"), st.fontSize)
		switch {
		case !okx && oky:
			rx = ry
		case okx && !oky:
			ry = rx
		}
		rx, ry = math.Max(0, math.Min(rx, w/2)), math.Max(0, math.Min(ry, h/2))
		if rx == 0 || ry == 0 {
			p.Polyline([]geom.Vec{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}}, true)
			return p, nil
		}
		// Clockwise as seen (Y down), corners as quarter ellipses.
		corner := func(cx, cy, t0 float64) {
			p.ArcTo(geom.Vec{X: cx, Y: cy}, geom.Vec{X: rx}, geom.Vec{Y: ry}, t0, t0+math.Pi/2)
		}
		p.MoveTo(geom.Vec{X: x + rx, Y: y})
		p.LineTo(geom.Vec{X: x + w - rx, Y: y})
		corner(x+w-rx, y+ry, -math.Pi/2)
		p.LineTo(geom.Vec{X: x + w, Y: y + h - ry})
		corner(x+w-rx, y+h-ry, 0)
		p.LineTo(geom.Vec{X: x + rx, Y: y + h})
		corner(x+rx, y+h-ry, math.Pi/2)
		p.LineTo(geom.Vec{X: x, Y: y + ry})
		corner(x+rx, y+ry, math.Pi)
		p.Close()
		return p, nil
	case "circle", "ellipse":
		cx, cy := c.num(e, "cx"), c.num(e, "cy")
		rx, ry := c.num(e, "r"), c.num(e, "r")
		if e.name == "ellipse" {
			rx, ry = c.num(e, "rx"), c.num(e, "ry")
		}
		if !(rx > 0 && ry > 0) {
			c.skip(e.name, "radius not positive")
			return nil, nil
		}
		p.MoveTo(geom.Vec{X: cx + rx, Y: cy})
		p.ArcTo(geom.Vec{X: cx, Y: cy}, geom.Vec{X: rx}, geom.Vec{Y: ry}, 0, 2*math.Pi)
		p.Close()
		return p, nil
	case "line":
		a := geom.Vec{X: c.num(e, "x1"), Y: c.num(e, "y1")}
		b := geom.Vec{X: c.num(e, "x2"), Y: c.num(e, "y2")}
		if a == b {
			c.skip(e.name, "zero length")
			return nil, nil
		}
		p.Polyline([]geom.Vec{a, b}, false)
		return p, nil
	case "polyline", "polygon":
		v := e.attr("points")
		if len(v) > c.lim.MaxPathBytes {
			return nil, &LineError{e.line, fmt.Errorf("%w: the points are %d bytes, over the %d-byte limit on one path (MaxPathBytes)", ErrLimit, len(v), c.lim.MaxPathBytes)}
		}
		n, err := numbersPrefix(v)
		if err != nil {
			// SVG draws the points up to the first error in the list.
			c.skip(e.name, fmt.Sprintf("malformed points (line %d: %v): drawn up to the error, as SVG draws them", e.line, err))
		}
		if len(n)/2 > c.lim.MaxPathSegments {
			return nil, &LineError{e.line, fmt.Errorf("%w: %d points, over the %d-segment limit on one path (MaxPathSegments)", ErrLimit, len(n)/2, c.lim.MaxPathSegments)}
		}
		pts := make([]geom.Vec, 0, len(n)/2)
		for i := 0; i+1 < len(n); i += 2 {
			pts = append(pts, geom.Vec{X: n[i], Y: n[i+1]})
		}
		if len(pts) < 2 {
			c.skip(e.name, "fewer than 2 points")
			return nil, nil
		}
		p.Polyline(pts, e.name == "polygon")
		return p, c.converted(e, len(p))
	}
	c.skip(e.name, "not an SVG element cadrun imports")
	return nil, nil
}

// pathData parses a d attribute within the limits; malformed data is refused with its line.
func (c *converter) pathData(e *element, d string) (geom.Path, error) {
	if len(d) > c.lim.MaxPathBytes {
		return nil, &LineError{e.line, fmt.Errorf("%w: the path data is %d bytes, over the %d-byte limit on one path (MaxPathBytes)", ErrLimit, len(d), c.lim.MaxPathBytes)}
	}
	cmds := 0
	for i := 0; i < len(d); i++ {
		if b := d[i] | 0x20; b >= 'a' && b <= 'z' && b != 'e' {
			cmds++
		}
	}
	if cmds > c.lim.MaxPathSegments {
		return nil, &LineError{e.line, fmt.Errorf("%w: the path has %d commands, over the %d-segment limit on one path (MaxPathSegments)", ErrLimit, cmds, c.lim.MaxPathSegments)}
	}
	if strings.TrimSpace(d) == "" {
		c.skip(e.name, "empty path data")
		return nil, nil
	}
	p, err := geom.ParsePathDataPrefix(d)
	if err != nil {
		// SVG draws a path up to the first error in its data.
		c.skip(e.name, fmt.Sprintf("malformed d (line %d: %v): drawn up to the error, as SVG draws it", e.line, err))
	}
	if len(p) > c.lim.MaxPathSegments {
		return nil, &LineError{e.line, fmt.Errorf("%w: the path has %d segments, over the %d-segment limit on one path (MaxPathSegments)", ErrLimit, len(p), c.lim.MaxPathSegments)}
	}
	p = dropLoneMoves(p)
	if len(p) == 0 {
		c.skip(e.name, "empty path data")
		return nil, nil
	}
	return p, c.converted(e, len(p))
}

// dropLoneMoves drops each move that no segment follows (M 30 40 M 50 60, or a move at the
// end), which SVG draws as nothing and cadrun would draw as a dot.
func dropLoneMoves(p geom.Path) geom.Path {
	out := p[:0]
	for i, s := range p {
		if s.Kind == geom.SegMove && (i+1 == len(p) || p[i+1].Kind == geom.SegMove) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// shape makes the item for an outline p of element e mapped by m.
func (c *converter) shape(e *element, p geom.Path, m geom.Affine, st style) *Item {
	it := &Item{Kind: Shape, Element: e.name, Line: e.line, ID: label(e), Fill: st.fillColor(), Stroke: st.strokeColor()}
	if st.contextPaint != "" {
		c.skip(e.name, st.contextPaint+" is drawn as none: context paints are not followed")
	}
	if st.badPaint != "" {
		c.skip(e.name, st.badPaint+" is not a paint: ignored, as SVG ignores it")
	}
	if st.fillURL {
		c.skip(e.name, "a gradient or pattern fill is drawn as none (or its fallback colour)")
	}
	if st.strokeURL {
		c.skip(e.name, "a gradient or pattern stroke is drawn as none (or its fallback colour)")
	}
	if e.name == "line" {
		it.Fill = nil // a segment has no inside
	}
	if st.evenOdd && it.Fill != nil {
		c.skip(e.name, "fill-rule:evenodd is drawn with cadrun's nonzero rule")
	}
	if it.Stroke != nil && !st.nonScaling {
		it.Width = st.strokeWidth * math.Sqrt(math.Abs(m.Det()))
	}
	it.Prim = c.prim(e, p, m, st)
	if e.name == "polyline" && it.Fill != nil && it.Prim.Call == "drawLine" {
		// SVG fills a polyline as if closed, and strokes it open: so does a path left open,
		// which is how an open path with a fill is written.
		it.Prim = Prim{Call: "drawBezier", Path: pathString(p.Transform(m))}
	}
	if c.ext != nil && (it.Fill != nil || it.Stroke != nil) {
		b := p.Transform(m).Bounds()
		pad := geom.Vec{X: it.Width / 2, Y: it.Width / 2}
		c.ext.box.Extend(b.Min.Sub(pad))
		c.ext.box.Extend(b.Max.Add(pad))
	}
	c.dash(e, it, m, st)
	c.capsAndJoins(e, it, p, st)
	if st.strokeFirst && it.Fill != nil && it.Stroke != nil && it.Width > 0 {
		c.skip(e.name, "paint-order stroke before fill is drawn fill, then stroke")
	}
	if it.Linetype != "" {
		n := p.Transform(m).DashCount(drafting.Dashes(it.Linetype, it.LinetypeScale))
		if c.dashes+n > scene.MaxDashSegments {
			it.Linetype, it.LinetypeScale = "", 0
			c.skip(e.name, fmt.Sprintf("a dashed stroke is drawn solid: the drawing's dashes would pass the scene's %d (MaxDashSegments)", scene.MaxDashSegments))
		} else {
			c.dashes += n
		}
	}
	return it
}

// prim chooses the call that draws p mapped by m exactly.
func (c *converter) prim(e *element, p geom.Path, m geom.Affine, st style) Prim {
	w := p.Transform(m)
	kx, ky, aligned := axisScale(m)
	switch e.name {
	case "circle":
		if sx, sy, _, ok := similarity(m); ok && math.Abs(math.Abs(sx)-math.Abs(sy)) <= 1e-12*math.Abs(sx) {
			ctr := w[1].P[0]
			return Prim{Call: "drawCircle", X: ctr.X, Y: ctr.Y, R: c.num(e, "r") * math.Abs(sx)}
		}
		fallthrough
	case "ellipse":
		if aligned {
			ctr := w[1].P[0]
			return Prim{Call: "drawEllipse", X: ctr.X, Y: ctr.Y, W: math.Abs(w[1].P[1].X + w[1].P[2].X), H: math.Abs(w[1].P[1].Y + w[1].P[2].Y)}
		}
	case "rect":
		if aligned {
			b := w.Bounds()
			ctr, size := b.Center(), b.Size()
			rx, ry := c.cornerRadii(e, st)
			switch rx, ry = rx*kx, ry*ky; {
			case rx == 0 || ry == 0:
				return Prim{Call: "drawRect", X: ctr.X, Y: ctr.Y, W: size.X, H: size.Y}
			case math.Abs(rx-ry) <= 1e-12*rx:
				return Prim{Call: "drawRoundedRect", X: ctr.X, Y: ctr.Y, W: size.X, H: size.Y, R: rx}
			}
		}
		if rx, ry := c.cornerRadii(e, st); rx == 0 || ry == 0 { // turned or skewed: its corners
			var pts []geom.Vec
			for _, s := range w[:4] {
				pts = append(pts, s.P[0])
			}
			return Prim{Call: "drawPolygon", Points: pts}
		}
	case "line", "polyline", "polygon":
		var pts []geom.Vec
		for _, s := range w {
			if s.Kind == geom.SegMove || s.Kind == geom.SegLine {
				pts = append(pts, s.P[0])
			}
		}
		switch {
		case e.name != "polygon":
			return Prim{Call: "drawLine", Points: pts}
		case len(pts) >= 3:
			return Prim{Call: "drawPolygon", Points: pts}
		}
		// A polygon of two points, which drawPolygon refuses, is drawn as the closed path
		// SVG draws: no inside, its stroke there and back.
	}
	return Prim{Call: "drawBezier", Path: pathString(w)}
}

// tooSmallNote is the note on a shape tooSmall skips.
var tooSmallNote = fmt.Sprintf("drawn under %g scene units wide or high after its transforms: nothing to draw", minWritten)

// tooSmall tells that a call's size is written as 0 (Num), which its draw call refuses: a
// shape its transforms shrink to nothing, as a viewBox of 6e20 units in 30 px does, draws
// nothing in SVG either.
func tooSmall(p Prim) bool {
	switch p.Call {
	case "drawCircle":
		return Num(p.R) == "0"
	case "drawRect", "drawRoundedRect", "drawEllipse":
		return Num(p.W) == "0" || Num(p.H) == "0"
	case "drawText":
		return Num(p.Size) == "0"
	}
	return false
}

// tooSmallBox tells that a line's or a path's points are all written as one point.
func tooSmallBox(b geom.Box) bool {
	d := b.Size()
	return Num(d.X) == "0" && Num(d.Y) == "0"
}

// cornerRadii are a rect's rx and ry after SVG's defaults and clamping.
func (c *converter) cornerRadii(e *element, st style) (float64, float64) {
	w, h := c.num(e, "width"), c.num(e, "height")
	rx, okx := length(e.attr("rx"), st.fontSize)
	ry, oky := length(e.attr("ry"), st.fontSize)
	switch {
	case !okx && oky:
		rx = ry
	case okx && !oky:
		ry = rx
	}
	return math.Max(0, math.Min(rx, w/2)), math.Max(0, math.Min(ry, h/2))
}

// axisScale tells whether m keeps axes axis-aligned (no rotation but by quarter turns, no
// skew), and by how much it scales the x and y of the element's own coordinates.
func axisScale(m geom.Affine) (kx, ky float64, ok bool) {
	// A turn by a quarter leaves 6e-17 where its cosine is 0.
	tiny := 1e-12 * m.MaxScale()
	for _, v := range []*float64{&m.A, &m.B, &m.C, &m.D} {
		if math.Abs(*v) < tiny {
			*v = 0
		}
	}
	switch {
	case m.B == 0 && m.C == 0:
		return math.Abs(m.A), math.Abs(m.D), m.A != 0 && m.D != 0
	case m.A == 0 && m.D == 0:
		return math.Abs(m.B), math.Abs(m.C), m.B != 0 && m.C != 0
	}
	return 0, 0, false
}

// use places what a <use> references: a Symbol placed by its group when the placement has
// no skew, else the referenced content drawn in place with the whole transform.
func (c *converter) use(e *element, m geom.Affine, st style) ([]*Item, error) {
	ref := strings.TrimSpace(e.attr("href"))
	id, ok := strings.CutPrefix(ref, "#")
	target := c.ids[id]
	if !ok || target == nil {
		c.skip(e.name, "its reference is not an element of this file")
		return nil, nil
	}
	for i, u := range c.uses {
		if u == id {
			chain := append(append([]string{}, c.uses[i:]...), id)
			return nil, &LineError{e.line, fmt.Errorf("%w: <use> of #%s uses itself (%s)", ErrRefused, id, strings.Join(chain, " -> "))}
		}
	}
	if len(c.uses) >= c.lim.MaxUseDepth {
		return nil, &LineError{e.line, fmt.Errorf("%w: <use> elements nest over %d deep (MaxUseDepth): %s", ErrRefused, c.lim.MaxUseDepth, strings.Join(append(c.uses, id), " -> "))}
	}
	c.uses, c.useLines = append(c.uses, id), append(c.useLines, e.line)
	defer func() { c.uses, c.useLines = c.uses[:len(c.uses)-1], c.useLines[:len(c.useLines)-1] }()
	if target.name == "marker" {
		return nil, nil // a marker is drawn only where a path names it (marker.go)
	}
	m = m.Mul(geom.Translation(geom.Vec{X: c.num(e, "x"), Y: c.num(e, "y")}))
	// SVG 2 makes the <use> the context element of the content it shows: context-fill and
	// context-stroke there are its fill and stroke paints. Their colours only: the content
	// inherits the use's fill-opacity and stroke-opacity already, and one it gives itself
	// replaces them, as the paint is all the spec carries and Chromium draws it (librsvg
	// takes the use's opacities over the content's own).
	st.ctx = &contextPaints{fill: st.fill, stroke: st.stroke, fillURL: st.fillURL, strokeURL: st.strokeURL}
	// What the symbol's own content is drawn in: its viewBox fitted to the use's size.
	// A symbol's size is the <use>'s, else its own, else 100% of the viewport.
	var inner geom.Affine = geom.Identity
	var vpW, vpH float64
	if target.name == "symbol" {
		vpW = c.size(e, "width", c.size(target, "width", c.vp[0], st.fontSize), st.fontSize)
		vpH = c.size(e, "height", c.size(target, "height", c.vp[1], st.fontSize), st.fontSize)
		if !(vpW > 0 && vpH > 0) {
			return nil, nil // a viewport of no size draws nothing
		}
		if vb, ok := viewBox(target.attr("viewBox")); ok {
			inner, _ = fit(vb, target.attr("preserveAspectRatio"), 0, 0, vpW, vpH)
		}
	}
	return c.place(&Item{Element: e.name, Line: e.line, ID: label(e)}, target, id, m, inner, vpW, vpH, st)
}

// place draws target (with id) for it, an item naming the element that asks for it: m maps
// the viewport's user space, inner the target's content into it (its viewBox fitted), and
// vpW by vpH is its viewport's size where target makes one (a symbol, a marker), which cuts
// what passes it. Placed as a Symbol where the placement has no skew and no clip is around,
// else its content is drawn in place.
func (c *converter) place(it *Item, target *element, id string, m, inner geom.Affine, vpW, vpH float64, st style) ([]*Item, error) {
	makesViewport := target.name == "symbol" || target.name == "marker"
	full := m.Mul(inner)
	flip := geom.Scaling(1, -1)
	_, _, _, ok := similarity(full)
	if !ok || len(c.clips) > 0 {
		// A skewed placement cannot be a group's transform, and a clip cuts shapes where
		// they are drawn: draw the content in place.
		var items []*Item
		var err error
		if makesViewport {
			convert := func() ([]*Item, error) { return c.content(target, full, st) }
			items, err = c.viewport(target, frame(m, 0, 0, vpW, vpH), c.vp, convert)
		} else {
			items, err = c.content(target, full, st)
		}
		if err != nil || len(items) == 0 {
			return nil, err
		}
		return c.made(&Item{Kind: Group, Element: it.Element, Line: it.Line, ID: it.ID, Children: items})
	}
	// The symbol is drawn Y up at its first placement's mean scale (so that its stroke widths
	// are right in scene units there); the group's transform undoes that and places it, and
	// a placement at another scale multiplies the widths by K: the symbol's content is
	// converted and written once, whatever the scales it is placed at.
	scale := math.Sqrt(math.Abs(full.Det()))
	sym, err := c.symbol(target, id, st, scale, nil)
	if err != nil || sym == nil {
		return nil, err
	}
	cut := false
	if inv, ok := inner.Invert(); ok && makesViewport && clips(target) {
		// The viewport this <use> gives the symbol, in the symbol's own coordinates: what the
		// symbol draws past it is cut off by a symbol of its own, drawn inside it.
		if vr := rectBox(inv, 0, 0, vpW, vpH); sym.ext.overflows(rectBox(geom.Scaling(sym.Scale, -sym.Scale), vr.Min.X, vr.Min.Y, vr.Max.X-vr.Min.X, vr.Max.Y-vr.Min.Y)) {
			if sym, err = c.symbol(target, id, st, scale, &vr); err != nil || sym == nil {
				return nil, err
			}
			cut = true
		}
	}
	place := full.Mul(flip).Mul(geom.Scaling(1/sym.Scale, 1/sym.Scale))
	if c.ext != nil {
		// What the placed symbol covers, for the viewport the <use> is in.
		view := rectBox(m, 0, 0, vpW, vpH)
		var b geom.Box
		switch x := sym.ext; {
		case x.unknown && cut:
			b = view
		case x.unknown:
			c.ext.unknown = true
		case x.box.NonEmpty:
			b = rectBox(place, x.box.Min.X, x.box.Min.Y, x.box.Max.X-x.box.Min.X, x.box.Max.Y-x.box.Min.Y)
			if cut {
				b = meet(b, view)
			}
		}
		if b.NonEmpty {
			c.ext.box.Extend(b.Min)
			c.ext.box.Extend(b.Max)
		}
	}
	sx, sy, angle, _ := similarity(place)
	it.Kind, it.Symbol = Use, sym
	it.Place = Placement{X: place.E, Y: place.F, SX: sx, SY: sy, Angle: angle, K: scale / sym.Scale}
	return c.made(it)
}

// content converts what a <use> shows of target, or a marker draws: a symbol's or a
// marker's children, else the element itself.
func (c *converter) content(target *element, m geom.Affine, st style) ([]*Item, error) {
	if target.name == "symbol" || target.name == "marker" {
		st.diag = c.diag()
		return c.children(target, m, st.child(target))
	}
	return c.element(target, m, st)
}

// symbol is the Symbol drawing target with the style a <use> passes down, cut to viewport
// vp (in the symbol's own coordinates) when not nil: built once for each, at the scale of the
// first <use> that places it.
func (c *converter) symbol(target *element, id string, st style, scale float64, vp *geom.Box) (*Symbol, error) {
	key := fmt.Sprintf("%s|%v|%v|%g|%g|%g|%g|%v|%g|%s|%s|%s|%d", id, colorKey(st.fill), colorKey(st.stroke), st.strokeWidth,
		st.opacity, st.fillOpacity, st.strokeOpacity, st.nonScaling, st.fontSize, st.anchor, st.baseline, fontOf(st), st.decoration)
	if st.ctx != nil {
		// A marker whose content takes the paints of the path it is drawn for is a function
		// for each pair of paints, shared by the paths that have them.
		key += fmt.Sprintf("|context %s %v %s %v", colorKey(st.ctx.fill), st.ctx.fillURL, colorKey(st.ctx.stroke), st.ctx.strokeURL)
	}
	if vp != nil {
		key += fmt.Sprintf("|cut %g %g %g %g", vp.Min.X, vp.Min.Y, vp.Max.X, vp.Max.Y)
	}
	if s, ok := c.symbols[key]; ok {
		return s, nil
	}
	before, dashesBefore := c.drawn, c.dashes
	kinds := c.d.Kinds
	c.d.Kinds = map[string]int{}
	var items []*Item
	var err error
	// A symbol's content is converted once: what it covers is kept, for each <use> to
	// compare with the viewport it gives the symbol and to tell a viewport it is in.
	ext := &extent{}
	outerVP, outerExt, outerClips := c.vp, c.ext, c.clips
	c.ext = ext
	c.clips = nil // a symbol is placed only outside clips; its own content's clips are its own
	if vp != nil {
		c.clips = []region{frame(geom.Scaling(scale, -scale), vp.Min.X, vp.Min.Y, vp.Max.X-vp.Min.X, vp.Max.Y-vp.Min.Y)}
	}
	if target.name == "symbol" || target.name == "marker" {
		if vb, ok := viewBox(target.attr("viewBox")); ok {
			c.vp = [2]float64{vb[2], vb[3]}
		}
	}
	items, err = c.content(target, geom.Scaling(scale, -scale), st)
	c.vp, c.ext, c.clips = outerVP, outerExt, outerClips
	symKinds := c.d.Kinds
	c.d.Kinds = kinds
	if err != nil {
		return nil, err
	}
	for k, n := range symKinds {
		c.d.Kinds[k] += n
	}
	drawn, dashes := c.drawn-before, c.dashes-dashesBefore
	c.drawn, c.dashes = before, dashesBefore
	if len(items) == 0 {
		return nil, nil
	}
	s := &Symbol{ID: id, Line: target.line, Items: items, Drawn: drawn, Scale: scale, Widths: widths(items), Dashes: dashes, ext: ext}
	c.symbols[key] = s
	c.d.Symbols = append(c.d.Symbols, s)
	return s, nil
}

// widths tells whether any of items is stroked with a width of its own, or places a symbol
// that is.
func widths(items []*Item) bool {
	for _, it := range items {
		switch {
		case it.Kind == Shape && it.Stroke != nil && (it.Width != 0 || it.Linetype != ""),
			it.Kind == Group && widths(it.Children),
			it.Kind == Use && it.Symbol.Widths:
			return true
		}
	}
	return false
}

func colorKey(c *Color) string {
	if c == nil {
		return "none"
	}
	return fmt.Sprint(*c)
}
