package render

// The SVG writer emits every shape as one <path> in world coordinates with Y negated, inside
// <g> elements that mirror the group tree. Paths keep their curves (arcs stay arcs, Béziers
// stay Béziers), numbers are rounded to a fixed quantum derived from the view size, and
// nothing depends on map order or the clock, so the same scene gives the same bytes.
//
// A big scene is written on GOMAXPROCS goroutines: it is framed and its entities are listed
// in Walk order first, with what each needs to be written apart from those before it (its
// depth and the world map of its group), then cut into pieces of svgPieceEntities written
// side by side and joined in order. Every number is computed as one walk computes it, so the bytes do
// not depend on the cutting (TestSVGPiecesMatchOneWriter); WriteSVG hands each piece on as
// soon as it is done, which lets `cadrun run -o` stream the file from its worker.

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	goruntime "runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// SVGOptions frame an SVG. The zero value fits the scene with DefaultMargin.
type SVGOptions struct {
	View       *View        // world window; nil fits the scene
	Margin     float64      // used when View is nil; 0 means DefaultMargin
	Width      float64      // width attribute in px; 0 leaves it out
	Height     float64      // height attribute in px; 0 leaves it out
	Background *scene.Color // a full-size rectangle behind the scene; nil draws none
	// DataKinds adds data-kind="circle" (the entity's kind) beside every data-name, for
	// viewers that name what is under the pointer. Off by default, so plain output stays small.
	DataKinds bool
}

// SVG writes the scene as an SVG document; the pieces of one with more than one piece's
// entities are made on GOMAXPROCS goroutines.
func SVG(s *scene.Scene, opt SVGOptions) ([]byte, error) {
	procs := svgProcs(s)
	d, err := newSVGDoc(s, opt)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 256+svgBytesPerEntity*len(d.items))
	if procs <= 1 {
		return d.piece(d.writer(), b, 0, len(d.items), nil), nil // one piece, straight into b
	}
	err = d.write(svgPieceEntities, procs, func(p []byte) error {
		b = append(b, p...)
		return nil
	})
	return b, err
}

// WriteSVG writes the scene to w as SVG writes it, in pieces of a few hundred kilobytes,
// each in one Write and in order, as soon as it and those before it are done; the pieces are
// made on up to GOMAXPROCS goroutines (one for a scene of one piece). A write that fails stops
// it, with that error.
func WriteSVG(w io.Writer, s *scene.Scene, opt SVGOptions) error {
	procs := svgProcs(s)
	d, err := newSVGDoc(s, opt)
	if err != nil {
		return err
	}
	return d.write(svgPieceEntities, procs, func(p []byte) error {
		_, err := w.Write(p)
		return err
	})
}

// svgPieceEntities is how many entities one piece of a document holds: W1's 10,000 shapes
// are ten pieces.
const svgPieceEntities = 1024

// svgProcs is how many goroutines write s: one for a scene of one piece.
func svgProcs(s *scene.Scene) int {
	if s.Len() <= svgPieceEntities {
		return 1
	}
	return goruntime.GOMAXPROCS(0)
}

// svgDoc is a document ready to write in pieces: its entities in Walk order with what each
// needs to be written apart from those before it.
type svgDoc struct {
	s      *scene.Scene
	opt    SVGOptions
	v      View
	coords coordFormat
	items  []svgItem
	locals []geom.Affine // every entity's local map in Walk order (scene.Frame), or nil
	groups []geom.Affine // the world map of each group, by svgItem.parent
	// hatches are the hatched shapes' hatches (scene.Scene.Hatches), read by every piece.
	hatches map[*scene.Entity]scene.Hatching
}

// svgItem is an entity in Walk order: its depth, and the index in svgDoc.groups of the group
// it is in (-1 at the top level).
type svgItem struct {
	e      *scene.Entity
	depth  int32
	parent int32
}

// newSVGDoc lists the scene's entities and frames it. Fitting the view needs every entity's
// matrix, and so does drawing: the local maps found for the frame are kept for the drawing.
func newSVGDoc(s *scene.Scene, opt SVGOptions) (*svgDoc, error) {
	d := &svgDoc{s: s, opt: opt, items: make([]svgItem, 0, s.Len())}
	var err error
	if d.hatches, err = budgeted(s); err != nil {
		return nil, err
	}
	// A group's world map is the map of the group it is in, or the identity, times its own:
	// the same products, in the same order, as a walk that writes as it goes.
	world := []geom.Affine{geom.Identity} // world[d]: the map of the group open at depth d-1
	parents := []int32{-1}                // parents[d]: its index in d.groups
	for depth, e := range s.Walk() {
		d.items = append(d.items, svgItem{e: e, depth: int32(depth), parent: parents[depth]})
		if e.IsGroup() {
			m := world[depth].Mul(e.Transform.Matrix())
			d.groups = append(d.groups, m)
			world = append(world[:depth+1], m)
			parents = append(parents[:depth+1], int32(len(d.groups)-1))
		}
	}
	switch {
	case opt.View != nil:
		d.v, err = resolveView(s, opt.View, opt.Margin)
	default:
		f := s.Frame(true)
		d.locals = f.Locals
		d.v, err = fitMargin(f, opt.Margin)
	}
	if err != nil {
		return nil, err
	}
	d.coords = newCoordFormat(quantum(d.v))
	return d, nil
}

// local is the local map of the entity at index i.
func (d *svgDoc) local(i int) geom.Affine {
	if d.locals != nil {
		return d.locals[i]
	}
	return d.items[i].e.Transform.Matrix()
}

// write makes the pieces of at most per entities and passes each to emit in order, on the
// caller's goroutine and procs-1 helpers. The caller never waits for a helper: for each piece
// in turn it takes a helper's copy if one is done, and otherwise makes the piece itself, even
// one a helper has started (whose copy is then dropped). With the cores free the pieces are
// made side by side; when other work holds a core, a helper held back costs only the work it
// did, where a caller waiting for it stalled the whole document. Helpers stay at most
// 2*procs pieces ahead, and each stops within an entity once the caller is done.
func (d *svgDoc) write(per, procs int, emit func([]byte) error) error {
	n := max(1, (len(d.items)+per-1)/per)
	procs = min(procs, n)
	bounds := func(i int) (int, int) { return i * per, min(len(d.items), (i+1)*per) }
	w := d.writer()
	var mine []byte // the caller's buffer
	if procs <= 1 {
		for i := range n {
			lo, hi := bounds(i)
			mine = d.piece(w, mine[:0], lo, hi, nil)
			if err := emit(mine); err != nil {
				return err
			}
		}
		return nil
	}
	const (
		free    = iota // nobody has it
		helping        // a helper is making it
		helped         // a helper made it: its bytes are in made[i]
		taken          // the caller makes it, or has passed it
	)
	state := make([]atomic.Int32, n)
	made := make([][]byte, n)
	buffers := make(chan []byte, 2*procs) // helpers' buffers, back from the caller
	progress := make(chan struct{}, 1)    // the caller has passed a piece
	var stop atomic.Bool                  // the caller is done: helpers drop what they make
	var emitted, next atomic.Int64        // pieces the caller has passed; the next for a helper
	next.Store(1)
	var wg sync.WaitGroup
	defer func() {
		stop.Store(true)
		close(progress) // wakes the helpers that wait
		wg.Wait()
	}()
	for range procs - 1 {
		wg.Go(func() {
			hw := d.writer()
			var b []byte
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				for int64(i) >= emitted.Load()+int64(2*procs) && !stop.Load() {
					<-progress // too far ahead: wait for the caller
				}
				if !state[i].CompareAndSwap(free, helping) {
					continue
				}
				if b == nil {
					select {
					case b = <-buffers:
					default:
					}
				}
				lo, hi := bounds(i)
				b = d.piece(hw, b[:0], lo, hi, &stop)
				made[i] = b
				if state[i].CompareAndSwap(helping, helped) {
					b = nil // the caller's now
				}
			}
		})
	}
	for i := range n {
		var out []byte
		if state[i].CompareAndSwap(free, taken) || state[i].CompareAndSwap(helping, taken) {
			lo, hi := bounds(i)
			mine = d.piece(w, mine[:0], lo, hi, nil)
			out = mine
		} else { // helped: state[i] is not set again, and made[i] was set before it
			out = made[i]
		}
		if err := emit(out); err != nil {
			return err
		}
		if state[i].Load() == helped {
			select {
			case buffers <- made[i]:
			default:
			}
		}
		emitted.Add(1)
		select {
		case progress <- struct{}{}:
		default:
		}
	}
	return nil
}

// writer is a fresh writer of the document's numbers, for one goroutine.
func (d *svgDoc) writer() *svgWriter { return &svgWriter{coords: d.coords, kinds: d.opt.DataKinds} }

// piece writes the entities from index start to end with w, after the document's head when
// start is 0 and before its tail when end is the last; it gives up, part written, once stop
// (when not nil) is set.
func (d *svgDoc) piece(w *svgWriter, b []byte, start, end int, stop *atomic.Bool) []byte {
	if b == nil {
		b = make([]byte, 0, 256+svgBytesPerEntity*(end-start))
	}
	w.styled = false // the style it remembers is in another piece's buffer
	if start == 0 {
		b = w.head(b, d.v, d.opt)
	}
	open := 0 // groups open after the entity before start
	if start > 0 {
		prev := d.items[start-1]
		open = int(prev.depth)
		if prev.e.IsGroup() {
			open++
		}
	}
	for i := start; i < end; i++ {
		if stop != nil && stop.Load() {
			return b // nobody wants it any more
		}
		it := d.items[i]
		depth := int(it.depth)
		for ; open > depth; open-- {
			b = indent(b, open-1)
			b = append(b, "</g>\n"...)
		}
		if it.e.Kind() == scene.KindSolid {
			continue // a solid has no 2D drawing; the writer's warning names it (Format.LeftOut)
		}
		b = indent(b, depth)
		if it.e.IsGroup() {
			b = append(b, `<g data-name="`...)
			b = w.nameAndKind(b, it.e)
			b = append(b, "\">\n"...)
			open++
			continue
		}
		drawn := d.s.Drawn(it.e)
		if !drawn.Plot {
			continue // on a layer that is not plotted
		}
		parent := geom.Identity
		if it.parent >= 0 {
			parent = d.groups[it.parent]
		}
		b = w.shape(b, it.e, parent.Mul(d.local(i)), drawn.Style)
		if h, ok := d.hatches[it.e]; ok {
			b = w.hatch(b[:len(b)-1], it.e, h) // on the shape's line, which the viewer keys on
		}
	}
	if end == len(d.items) {
		for ; open > 0; open-- {
			b = indent(b, open-1)
			b = append(b, "</g>\n"...)
		}
		b = append(b, "</svg>\n"...)
	}
	return b
}

// head writes the <svg> element's start and the background.
func (w *svgWriter) head(b []byte, v View, opt SVGOptions) []byte {
	sz := v.Size()
	b = append(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`...)
	b = w.nums(b, v.Min.X, -v.Max.Y)
	b = append(b, ' ')
	b = w.nums(b, sz.X, sz.Y)
	b = append(b, '"')
	if opt.Width > 0 {
		b = append(b, ` width="`...)
		b = w.coords.append(b, opt.Width)
		b = append(b, '"')
	}
	if opt.Height > 0 {
		b = append(b, ` height="`...)
		b = w.coords.append(b, opt.Height)
		b = append(b, '"')
	}
	b = append(b, ">\n"...)
	if opt.Background != nil {
		b = append(b, `<rect x="`...)
		b = w.coords.append(b, v.Min.X)
		b = append(b, `" y="`...)
		b = w.coords.append(b, -v.Max.Y)
		b = append(b, `" width="`...)
		b = w.coords.append(b, sz.X)
		b = append(b, `" height="`...)
		b = w.coords.append(b, sz.Y)
		b = append(b, `"`...)
		b = paint(b, "fill", opt.Background)
		b = append(b, "/>\n"...)
	}
	return b
}

// svgBytesPerEntity sizes the output buffer up front: a shape with the default style takes
// 180 to 250 bytes, so most scenes are written without growing it.
const svgBytesPerEntity = 240

// resolveView is v, or when v is nil the view that fits the scene with margin.
func resolveView(s *scene.Scene, v *View, margin float64) (View, error) {
	if v == nil {
		return fitMargin(s.Frame(false), margin)
	}
	return *v, v.Check()
}

// fitMargin is FitView for a scene's frame, already known, and margin (0 means
// DefaultMargin), refusing a margin that is not a finite fraction >= 0.
func fitMargin(f scene.Frame, margin float64) (View, error) {
	if margin == 0 {
		margin = DefaultMargin
	}
	if margin < 0 || math.IsNaN(margin) || math.IsInf(margin, 0) {
		return View{}, fmt.Errorf("margin must be a finite fraction >= 0, got %v", margin)
	}
	v := fitFrame(f, margin)
	return v, v.Check()
}

// quantum is the rounding step for coordinates: a millionth of the view's larger side, as a
// power of ten, so output is stable and compact at any drawing scale.
func quantum(v View) float64 {
	sz := v.Size()
	return math.Pow(10, math.Floor(math.Log10(math.Max(sz.X, sz.Y)))-6)
}

// svgWriter holds what the writing of one document reuses. Its methods take the output and
// return it extended, as append does, so that the hot loop keeps the slice in registers.
type svgWriter struct {
	coords coordFormat
	kinds  bool
	path   geom.Path // the current shape's world outline, reused from shape to shape

	styled      bool        // a style has been written: lastStyle holds it
	lastStyle   scene.Style // the style written last
	lastStyleAt [2]int      // where its attributes are in the output
}

// shape writes a shape's <path> element, mapped to the world by m.
func (w *svgWriter) shape(b []byte, e *scene.Entity, m geom.Affine, st scene.Style) []byte {
	w.path = scene.AppendOutline(w.path[:0], e.Shape, m)
	if dashes := strokeDashes(st); dashes != nil && st.Hairline() && st.Stroke != nil {
		return w.dashedHairline(b, e, st, dashes)
	}
	return w.namedPath(b, e, w.path, st)
}

// strokeDashes is st's dash pattern, nil for a continuous line, for the SVG, PDF and PNG
// writers. It is asked once per shape: drafting.Dashes answers a style without a linetype
// without allocating (it once built an unknown-name refusal to answer nil, an eighth of W1's
// whole `cadrun run -o` process).
func strokeDashes(st scene.Style) []float64 {
	return drafting.Dashes(st.Linetype, st.LinetypeScale)
}

// namedPath writes the <path> element of entity e: the path p in style st.
func (w *svgWriter) namedPath(b []byte, e *scene.Entity, p geom.Path, st scene.Style) []byte {
	b = append(b, `<path data-name="`...)
	b = w.nameAndKind(b, e)
	b = append(b, `" d="`...)
	b = w.pathData(b, p)
	b = append(b, '"')
	b = w.style(b, st)
	return append(b, "/>\n"...)
}

// dashedHairline writes a shape whose hairline stroke has a linetype: its dashes as geometry,
// since under vector-effect="non-scaling-stroke" Chromium lays a dash array out in screen
// pixels where librsvg keeps it in user units (scene/geom/dash.go). A fill is a second path of the
// whole outline under it, the two in one <g> of the shape's name, on one line as the viewer
// reads every entity.
func (w *svgWriter) dashedHairline(b []byte, e *scene.Entity, st scene.Style, dashes []float64) []byte {
	stroke := st
	stroke.Fill, stroke.Linetype, stroke.LinetypeScale = nil, "", 0
	dashed := w.path.Dash(dashes, 100*w.coords.quantum) // Béziers within a ten-thousandth of the view
	if st.Fill == nil {
		return w.namedPath(b, e, dashed, stroke)
	}
	fill := st
	fill.Stroke, fill.Linetype, fill.LinetypeScale = nil, "", 0
	b = append(b, `<g data-name="`...)
	b = w.nameAndKind(b, e)
	b = append(b, `"><path d="`...)
	b = w.pathData(b, w.path)
	b = append(b, '"')
	b = w.style(b, fill)
	b = append(b, `/><path d="`...)
	b = w.pathData(b, dashed)
	b = append(b, '"')
	b = w.style(b, stroke)
	return append(b, "/></g>\n"...)
}

// hatch writes a shape's hatch as a <path> after the shape's, marked data-hatch (not
// data-name, which names one element per entity) and transparent to the pointer, so that
// the viewer's hover and selection find the shape. A solid hatch fills the shape's outline,
// still in w.path; the others stroke their segments as hairlines with round caps, which make
// a zero-length segment a dot.
func (w *svgWriter) hatch(b []byte, e *scene.Entity, h scene.Hatching) []byte {
	if h.Solid {
		b = w.hatchStart(b, e)
		b = w.pathData(b, w.path)
		b = append(b, '"')
		b = paint(b, "fill", &h.Color)
		b = append(b, ` stroke="none" pointer-events="none"/>`...)
		return append(b, '\n')
	}
	lines, dots := hatchPaths(h)
	for _, part := range []struct {
		p     geom.Path
		width string
	}{{lines, "1"}, {dots, svgHatchDot}} {
		if len(part.p) == 0 {
			continue
		}
		b = w.hatchStart(b, e)
		b = w.pathData(b, part.p)
		b = append(b, `" fill="none"`...)
		b = paint(b, "stroke", &h.Color)
		b = append(b, ` stroke-width="`...)
		b = append(b, part.width...)
		b = append(b, `" vector-effect="non-scaling-stroke" stroke-linecap="round" pointer-events="none"/>`...)
	}
	return append(b, '\n')
}

// svgHatchDot is the diameter, in screen pixels, of a hatch dot in an SVG: as in a PNG
// (pngHatchDot), since a one-pixel dot fades into its neighbours.
const svgHatchDot = "2"

// hatchStart opens a hatch's <path>, marked with its shape's name.
func (w *svgWriter) hatchStart(b []byte, e *scene.Entity) []byte {
	b = append(b, `<path data-hatch="`...)
	b = appendEscaped(b, e.Name)
	return append(b, `" d="`...)
}

func indent(b []byte, depth int) []byte {
	for range depth {
		b = append(b, ' ')
	}
	return b
}

// nameAndKind writes the entity's name, escaped as xml.EscapeText escapes it (names of plain
// printable ASCII, the usual kind, are copied as they are), then its data-kind attribute when
// asked for.
func (w *svgWriter) nameAndKind(b []byte, e *scene.Entity) []byte {
	b = appendEscaped(b, e.Name)
	if w.kinds {
		b = append(b, `" data-kind="`...)
		b = append(b, e.Kind()...)
	}
	return b
}

func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\'' || c == '&' || c == '<' || c == '>' {
			var esc bytes.Buffer
			xml.EscapeText(&esc, []byte(s))
			return append(b, esc.Bytes()...)
		}
	}
	return append(b, s...)
}

// style writes the style attributes. Most shapes share their style with the shape before
// them, so the attributes written last are kept (as a span of the output) and copied when the
// next style is the same.
func (w *svgWriter) style(b []byte, st scene.Style) []byte {
	if w.styled && sameStyle(st, w.lastStyle) {
		return append(b, b[w.lastStyleAt[0]:w.lastStyleAt[1]]...)
	}
	start := len(b)
	b = w.writeStyle(b, st)
	w.styled, w.lastStyle, w.lastStyleAt = true, st, [2]int{start, len(b)}
	return b
}

// sameStyle reports whether a and b are written alike: equal colours and widths give equal
// bytes. It must compare every field of scene.Style (TestSameStyleSeesEveryField).
func sameStyle(a, b scene.Style) bool {
	return sameColor(a.Fill, b.Fill) && sameColor(a.Stroke, b.Stroke) && a.StrokeWidth == b.StrokeWidth &&
		a.Linetype == b.Linetype && a.LinetypeScale == b.LinetypeScale && a.Layer == b.Layer && a.ColorSet == b.ColorSet &&
		a.Hatch == b.Hatch && a.HatchAngle == b.HatchAngle && a.HatchScale == b.HatchScale && sameColor(a.HatchColor, b.HatchColor) &&
		a.Cap == b.Cap && a.Join == b.Join && a.MiterLimit == b.MiterLimit
}

func sameColor(a, b *scene.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func (w *svgWriter) writeStyle(b []byte, st scene.Style) []byte {
	b = paint(b, "fill", st.Fill)
	if st.Stroke == nil || st.StrokeWidth < 0 {
		return append(b, ` stroke="none"`...)
	}
	b = paint(b, "stroke", st.Stroke)
	if st.Hairline() {
		// one pixel whatever the zoom: vector-effect keeps the width in screen units
		b = append(b, ` stroke-width="1" vector-effect="non-scaling-stroke"`...)
	} else {
		b = append(b, ` stroke-width="`...)
		b = w.coords.append(b, st.StrokeWidth)
		b = append(b, '"')
	}
	if dashes := strokeDashes(st); dashes != nil && !st.Hairline() {
		// In scene units, as the width. A hairline's dashes are geometry (dashedHairline).
		b = append(b, ` stroke-dasharray="`...)
		for i, v := range dashes {
			if i > 0 {
				b = append(b, ' ')
			}
			b = w.coords.append(b, v)
		}
		b = append(b, '"')
	}
	if st.Cap == "" && st.Join == "" {
		// The viewer's page strips this exact string from round strokes, cadrun's default.
		return append(b, ` stroke-linejoin="round" stroke-linecap="round"`...)
	}
	b = append(b, ` stroke-linejoin="`...)
	b = append(b, cmp.Or(st.Join, "round")...)
	b = append(b, `" stroke-linecap="`...)
	b = append(b, cmp.Or(st.Cap, "round")...)
	b = append(b, '"')
	if st.Join == scene.StrokeMiter && st.MiterLimit != 0 {
		b = append(b, ` stroke-miterlimit="`...)
		b = strconv.AppendFloat(b, st.MiterLimit, 'g', -1, 64)
		b = append(b, '"')
	}
	return b
}

// paint writes a colour attribute (and its opacity when not opaque).
func paint(b []byte, attr string, c *scene.Color) []byte {
	b = append(b, ' ')
	b = append(b, attr...)
	if c == nil || c[3] == 0 {
		return append(b, `="none"`...)
	}
	const hexDigits = "0123456789abcdef"
	b = append(b, `="#`...)
	for _, ch := range c[:3] {
		v := channel(ch)
		b = append(b, hexDigits[v>>4], hexDigits[v&15])
	}
	b = append(b, '"')
	if c[3] < 1 {
		b = append(b, ' ')
		b = append(b, attr...)
		b = append(b, `-opacity="`...)
		b = appendOpacity(b, c[3])
		b = append(b, '"')
	}
	return b
}

func channel(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }

// pathData writes the path data with Y negated. Commands are separated by spaces; arcs bring
// their own (see arc).
func (w *svgWriter) pathData(b []byte, p geom.Path) []byte {
	last := -1       // the last segment other than a close; an arc starts from its end
	started := false // a command has been written
	command := func(b []byte, c byte) []byte {
		if started {
			b = append(b, ' ')
		}
		started = true
		return append(b, c)
	}
	for i := range p {
		s := &p[i] // a segment is 72 bytes: not copied
		switch s.Kind {
		case geom.SegMove:
			b = command(b, 'M')
			b = w.point(b, s.P[0])
		case geom.SegLine:
			b = command(b, 'L')
			b = w.point(b, s.P[0])
		case geom.SegQuad:
			b = command(b, 'Q')
			b = w.point(b, s.P[0])
			b = w.point(b, s.P[1])
		case geom.SegCubic:
			b = command(b, 'C')
			b = w.point(b, s.P[0])
			b = w.point(b, s.P[1])
			b = w.point(b, s.P[2])
		case geom.SegArc:
			var cur geom.Vec
			if last >= 0 {
				cur = p[last].End()
			}
			if start := s.ArcPoint(s.T0); start.Sub(cur).Len() > w.coords.quantum {
				b = command(b, 'L')
				b = w.point(b, start)
			}
			b = w.arc(b, s)
		case geom.SegClose:
			b = command(b, 'Z')
		}
		if s.Kind != geom.SegClose {
			last = i
		}
	}
	return b
}

// point writes " x y" with y negated.
func (w *svgWriter) point(b []byte, q geom.Vec) []byte {
	b = append(b, ' ')
	return w.nums(b, q.X, -q.Y)
}

// arc writes an elliptical arc segment as SVG A commands, each after a space, split into
// pieces of at most half a turn so that the large-arc flag is never ambiguous.
func (w *svgWriter) arc(b []byte, s *geom.Seg) []byte {
	u, v := s.P[1], s.P[2]
	// Semi-axes and orientation of the ellipse c + u cos t + v sin t: the singular values and
	// left singular vector of the matrix [u v].
	e, f := (u.X+v.Y)/2, (u.X-v.Y)/2
	g, h := (u.Y+v.X)/2, (u.Y-v.X)/2
	q, r := math.Hypot(e, h), math.Hypot(f, g)
	rx, ry := q+r, math.Abs(q-r)
	phi := 0.0 // a circle has no axis; keep the output free of an arbitrary angle
	if !(rx-ry <= 1e-12*rx) {
		phi = (math.Atan2(h, e) + math.Atan2(g, f)) / 2
	}
	// SVG's sweep flag 1 is the direction of increasing angle in its own coordinates, where Y
	// points down: clockwise as seen. Flipping Y keeps the picture as seen, so an arc that
	// runs counter-clockwise in the world (Y up) still runs counter-clockwise on the screen,
	// which is sweep 0.
	ccw := (s.T1 > s.T0) == (u.X*v.Y-u.Y*v.X > 0)
	flags := " 0 1 "
	if ccw {
		flags = " 0 0 "
	}
	total := s.T1 - s.T0
	pieces := int(math.Max(1, math.Ceil(math.Abs(total)/math.Pi-1e-9)))
	var head [2]int // where the first piece's " A rx ry phi flags " is in the output
	for i := 1; i <= pieces; i++ {
		end := s.ArcPoint(s.T0 + total*float64(i)/float64(pieces))
		if i == 1 {
			head[0] = len(b)
			b = append(b, " A "...)
			b = w.nums(b, rx, ry)
			b = append(b, ' ')
			b = w.coords.append(b, -phi*180/math.Pi)
			b = append(b, flags...)
			head[1] = len(b)
		} else {
			b = append(b, b[head[0]:head[1]]...) // the pieces differ only in their end points
		}
		b = w.nums(b, end.X, -end.Y)
	}
	return b
}

// nums writes "x y".
func (w *svgWriter) nums(b []byte, x, y float64) []byte {
	b = w.coords.append(b, x)
	b = append(b, ' ')
	return w.coords.append(b, y)
}
