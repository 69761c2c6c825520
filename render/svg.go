package render

// The SVG writer emits every shape as one <path> in world coordinates with Y negated, inside
// <g> elements that mirror the group tree. Paths keep their curves (arcs stay arcs, Béziers
// stay Béziers), numbers are rounded to a fixed quantum derived from the view size, and
// nothing depends on map order or the clock, so the same scene gives the same bytes.

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
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

// SVG writes the scene as an SVG document.
func SVG(s *scene.Scene, opt SVGOptions) ([]byte, error) {
	v, err := resolveView(s, opt.View, opt.Margin)
	if err != nil {
		return nil, err
	}
	w := &svgWriter{coords: newCoordFormat(quantum(v)), kinds: opt.DataKinds}
	w.b = make([]byte, 0, 256+svgBytesPerEntity*s.Len())
	sz := v.Size()
	w.b = append(w.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`...)
	w.nums(v.Min.X, -v.Max.Y)
	w.b = append(w.b, ' ')
	w.nums(sz.X, sz.Y)
	w.b = append(w.b, '"')
	if opt.Width > 0 {
		w.b = append(w.b, ` width="`...)
		w.num(opt.Width)
		w.b = append(w.b, '"')
	}
	if opt.Height > 0 {
		w.b = append(w.b, ` height="`...)
		w.num(opt.Height)
		w.b = append(w.b, '"')
	}
	w.b = append(w.b, ">\n"...)
	if opt.Background != nil {
		w.b = append(w.b, `<rect x="`...)
		w.num(v.Min.X)
		w.b = append(w.b, `" y="`...)
		w.num(-v.Max.Y)
		w.b = append(w.b, `" width="`...)
		w.num(sz.X)
		w.b = append(w.b, `" height="`...)
		w.num(sz.Y)
		w.b = append(w.b, `"`...)
		w.paint("fill", opt.Background)
		w.b = append(w.b, "/>\n"...)
	}
	w.entities(s)
	w.b = append(w.b, "</svg>\n"...)
	return w.b, nil
}

// svgBytesPerEntity sizes the output buffer up front: a shape with the default style takes
// 180 to 250 bytes, so most scenes are written without growing it.
const svgBytesPerEntity = 240

func resolveView(s *scene.Scene, v *View, margin float64) (View, error) {
	if v == nil {
		if margin == 0 {
			margin = DefaultMargin
		}
		if margin < 0 || math.IsNaN(margin) || math.IsInf(margin, 0) {
			return View{}, fmt.Errorf("margin must be a finite fraction >= 0, got %v", margin)
		}
		fit := FitView(s, margin)
		v = &fit
	}
	return *v, v.Check()
}

// quantum is the rounding step for coordinates: a millionth of the view's larger side, as a
// power of ten, so output is stable and compact at any drawing scale.
func quantum(v View) float64 {
	sz := v.Size()
	return math.Pow(10, math.Floor(math.Log10(math.Max(sz.X, sz.Y)))-6)
}

type svgWriter struct {
	b       []byte
	coords  coordFormat
	kinds   bool
	path    scene.Path // the current shape's world outline, reused from shape to shape
	started bool       // a command has been written in the current path data

	styled      bool        // a style has been written: lastStyle holds it
	lastStyle   scene.Style // the style written last
	lastStyleAt [2]int      // where its attributes are in b
}

// kind writes the data-kind attribute when asked for.
func (w *svgWriter) kind(e *scene.Entity) {
	if w.kinds {
		w.b = append(w.b, `" data-kind="`...)
		w.b = append(w.b, e.Kind()...)
	}
}

// entities writes the entity tree depth first, a <g> per group; matrices[d] is the world
// map of the group open at depth d-1 (the identity at the top level).
func (w *svgWriter) entities(s *scene.Scene) {
	matrices := []scene.Affine{scene.Identity}
	open := 0 // groups open
	for depth, e := range s.Walk() {
		for ; open > depth; open-- {
			w.indent(open - 1)
			w.b = append(w.b, "</g>\n"...)
		}
		m := matrices[depth].Mul(e.Transform.Matrix())
		w.indent(depth)
		if e.IsGroup() {
			w.b = append(w.b, `<g data-name="`...)
			w.name(e.Name)
			w.kind(e)
			w.b = append(w.b, "\">\n"...)
			matrices = append(matrices[:depth+1], m)
			open++
			continue
		}
		w.b = append(w.b, `<path data-name="`...)
		w.name(e.Name)
		w.kind(e)
		w.b = append(w.b, `" d="`...)
		w.path = scene.AppendOutline(w.path[:0], e.Shape, m)
		w.pathData(w.path)
		w.b = append(w.b, '"')
		w.style(e.Style)
		w.b = append(w.b, "/>\n"...)
	}
	for ; open > 0; open-- {
		w.indent(open - 1)
		w.b = append(w.b, "</g>\n"...)
	}
}

func (w *svgWriter) indent(depth int) {
	for range depth {
		w.b = append(w.b, ' ')
	}
}

// name writes an entity name escaped as xml.EscapeText escapes it; names of plain printable
// ASCII, the usual kind, are copied as they are.
func (w *svgWriter) name(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\'' || c == '&' || c == '<' || c == '>' {
			var esc bytes.Buffer
			xml.EscapeText(&esc, []byte(s))
			w.b = append(w.b, esc.Bytes()...)
			return
		}
	}
	w.b = append(w.b, s...)
}

// style writes the style attributes. Most shapes share their style with the shape before
// them, so the attributes written last are kept (as a span of the output) and copied when the
// next style is the same.
func (w *svgWriter) style(st scene.Style) {
	if w.styled && sameStyle(st, w.lastStyle) {
		w.b = append(w.b, w.b[w.lastStyleAt[0]:w.lastStyleAt[1]]...)
		return
	}
	start := len(w.b)
	w.writeStyle(st)
	w.styled, w.lastStyle, w.lastStyleAt = true, st, [2]int{start, len(w.b)}
}

// sameStyle reports whether a and b are written alike: equal colours and widths give equal
// bytes. It must compare every field of scene.Style (TestSameStyleSeesEveryField).
func sameStyle(a, b scene.Style) bool {
	return sameColor(a.Fill, b.Fill) && sameColor(a.Stroke, b.Stroke) && a.StrokeWidth == b.StrokeWidth
}

func sameColor(a, b *scene.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func (w *svgWriter) writeStyle(st scene.Style) {
	w.paint("fill", st.Fill)
	if st.Stroke == nil || st.StrokeWidth < 0 {
		w.b = append(w.b, ` stroke="none"`...)
		return
	}
	w.paint("stroke", st.Stroke)
	if st.Hairline() {
		// one pixel whatever the zoom: vector-effect keeps the width in screen units
		w.b = append(w.b, ` stroke-width="1" vector-effect="non-scaling-stroke"`...)
	} else {
		w.b = append(w.b, ` stroke-width="`...)
		w.num(st.StrokeWidth)
		w.b = append(w.b, '"')
	}
	w.b = append(w.b, ` stroke-linejoin="round" stroke-linecap="round"`...)
}

// paint writes a colour attribute (and its opacity when not opaque).
func (w *svgWriter) paint(attr string, c *scene.Color) {
	w.b = append(w.b, ' ')
	w.b = append(w.b, attr...)
	if c == nil || c[3] == 0 {
		w.b = append(w.b, `="none"`...)
		return
	}
	const hexDigits = "0123456789abcdef"
	w.b = append(w.b, `="#`...)
	for _, ch := range c[:3] {
		v := channel(ch)
		w.b = append(w.b, hexDigits[v>>4], hexDigits[v&15])
	}
	w.b = append(w.b, '"')
	if c[3] < 1 {
		w.b = append(w.b, ' ')
		w.b = append(w.b, attr...)
		w.b = append(w.b, `-opacity="`...)
		w.b = appendOpacity(w.b, c[3])
		w.b = append(w.b, '"')
	}
}

func channel(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }

// pathData writes the path data with Y negated.
func (w *svgWriter) pathData(p scene.Path) {
	var cur scene.Vec
	w.started = false
	for _, s := range p {
		switch s.Kind {
		case scene.SegMove:
			w.command('M')
			w.point(s.P[0])
		case scene.SegLine:
			w.command('L')
			w.point(s.P[0])
		case scene.SegQuad:
			w.command('Q')
			w.point(s.P[0])
			w.point(s.P[1])
		case scene.SegCubic:
			w.command('C')
			w.point(s.P[0])
			w.point(s.P[1])
			w.point(s.P[2])
		case scene.SegArc:
			start := s.ArcPoint(s.T0)
			if start.Sub(cur).Len() > w.coords.quantum {
				w.command('L')
				w.point(start)
			}
			w.arc(s)
		case scene.SegClose:
			w.command('Z')
		}
		if s.Kind != scene.SegClose {
			cur = s.End()
		}
	}
}

// command starts a path command, after a space unless it is the first.
func (w *svgWriter) command(c byte) {
	if w.started {
		w.b = append(w.b, ' ')
	}
	w.started = true
	w.b = append(w.b, c)
}

// point writes " x y" with y negated.
func (w *svgWriter) point(q scene.Vec) {
	w.b = append(w.b, ' ')
	w.nums(q.X, -q.Y)
}

// arc writes an elliptical arc segment as SVG A commands, split into pieces of at most half a
// turn so that the large-arc flag is never ambiguous.
func (w *svgWriter) arc(s scene.Seg) {
	u, v := s.P[1], s.P[2]
	// Semi-axes and orientation of the ellipse c + u cos t + v sin t: the singular values and
	// left singular vector of the matrix [u v].
	e, f := (u.X+v.Y)/2, (u.X-v.Y)/2
	g, h := (u.Y+v.X)/2, (u.Y-v.X)/2
	q, r := math.Hypot(e, h), math.Hypot(f, g)
	rx, ry := q+r, math.Abs(q-r)
	phi := (math.Atan2(h, e) + math.Atan2(g, f)) / 2
	if rx-ry <= 1e-12*rx {
		phi = 0 // a circle has no axis; keep the output free of an arbitrary angle
	}
	// World counter-clockwise (Y up) is clockwise once Y is flipped, which SVG calls sweep 1.
	ccw := (s.T1 > s.T0) == (u.X*v.Y-u.Y*v.X > 0)
	flags := " 0 0 "
	if ccw {
		flags = " 0 1 "
	}
	total := s.T1 - s.T0
	pieces := int(math.Max(1, math.Ceil(math.Abs(total)/math.Pi-1e-9)))
	for i := 1; i <= pieces; i++ {
		end := s.ArcPoint(s.T0 + total*float64(i)/float64(pieces))
		w.b = append(w.b, " A "...)
		w.nums(rx, ry)
		w.b = append(w.b, ' ')
		w.num(-phi * 180 / math.Pi)
		w.b = append(w.b, flags...)
		w.nums(end.X, -end.Y)
	}
}

// nums writes "x y".
func (w *svgWriter) nums(x, y float64) {
	w.num(x)
	w.b = append(w.b, ' ')
	w.num(y)
}

// num writes v rounded to the quantum, without trailing zeros or a negative zero.
func (w *svgWriter) num(v float64) {
	w.b = w.coords.append(w.b, v)
}
