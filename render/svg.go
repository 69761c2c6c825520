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
	"strconv"

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
	q := quantum(v)
	w := &svgWriter{quantum: q, decimals: max(0, int(-math.Floor(math.Log10(q)))), kinds: opt.DataKinds}
	w.buf.Grow(256 + 160*s.Len())
	sz := v.Size()
	w.buf.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="`)
	w.nums(v.Min.X, -v.Max.Y, sz.X, sz.Y)
	w.buf.WriteByte('"')
	if opt.Width > 0 {
		w.buf.WriteString(` width="`)
		w.num(opt.Width)
		w.buf.WriteByte('"')
	}
	if opt.Height > 0 {
		w.buf.WriteString(` height="`)
		w.num(opt.Height)
		w.buf.WriteByte('"')
	}
	w.buf.WriteString(">\n")
	if opt.Background != nil {
		w.buf.WriteString(`<rect x="`)
		w.num(v.Min.X)
		w.buf.WriteString(`" y="`)
		w.num(-v.Max.Y)
		w.buf.WriteString(`" width="`)
		w.num(sz.X)
		w.buf.WriteString(`" height="`)
		w.num(sz.Y)
		w.buf.WriteString(`"`)
		w.paint("fill", opt.Background)
		w.buf.WriteString("/>\n")
	}
	w.entities(s, s.Roots(), scene.Identity, 0)
	w.buf.WriteString("</svg>\n")
	return w.buf.Bytes(), nil
}

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
	buf      bytes.Buffer
	quantum  float64
	decimals int // digits after the point that the quantum needs
	kinds    bool
}

// kind writes the data-kind attribute when asked for.
func (w *svgWriter) kind(e *scene.Entity) {
	if w.kinds {
		w.buf.WriteString(`" data-kind="`)
		w.buf.WriteString(string(e.Kind()))
	}
}

func (w *svgWriter) entities(s *scene.Scene, names []string, parent scene.Affine, depth int) {
	for _, name := range names {
		e, _ := s.Get(name)
		m := parent.Mul(e.Transform.Matrix())
		indent(&w.buf, depth)
		if e.IsGroup() {
			w.buf.WriteString(`<g data-name="`)
			xml.EscapeText(&w.buf, []byte(e.Name))
			w.kind(e)
			w.buf.WriteString("\">\n")
			w.entities(s, e.Children(), m, depth+1)
			indent(&w.buf, depth)
			w.buf.WriteString("</g>\n")
			continue
		}
		w.buf.WriteString(`<path data-name="`)
		xml.EscapeText(&w.buf, []byte(e.Name))
		w.kind(e)
		w.buf.WriteString(`" d="`)
		w.path(e.Shape.Outline().Transform(m))
		w.buf.WriteByte('"')
		w.style(e.Style)
		w.buf.WriteString("/>\n")
	}
}

func indent(b *bytes.Buffer, depth int) {
	for range depth {
		b.WriteByte(' ')
	}
}

func (w *svgWriter) style(st scene.Style) {
	w.paint("fill", st.Fill)
	if st.Stroke == nil || st.StrokeWidth < 0 {
		w.buf.WriteString(` stroke="none"`)
		return
	}
	w.paint("stroke", st.Stroke)
	if st.Hairline() {
		// one pixel whatever the zoom: vector-effect keeps the width in screen units
		w.buf.WriteString(` stroke-width="1" vector-effect="non-scaling-stroke"`)
	} else {
		w.buf.WriteString(` stroke-width="`)
		w.num(st.StrokeWidth)
		w.buf.WriteByte('"')
	}
	w.buf.WriteString(` stroke-linejoin="round" stroke-linecap="round"`)
}

// paint writes a colour attribute (and its opacity when not opaque).
func (w *svgWriter) paint(attr string, c *scene.Color) {
	w.buf.WriteByte(' ')
	w.buf.WriteString(attr)
	if c == nil || c[3] == 0 {
		w.buf.WriteString(`="none"`)
		return
	}
	const hexDigits = "0123456789abcdef"
	w.buf.WriteString(`="#`)
	for _, ch := range c[:3] {
		v := channel(ch)
		w.buf.WriteByte(hexDigits[v>>4])
		w.buf.WriteByte(hexDigits[v&15])
	}
	w.buf.WriteByte('"')
	if c[3] < 1 {
		fmt.Fprintf(&w.buf, ` %s-opacity="%s"`, attr, strconv.FormatFloat(math.Round(c[3]*1000)/1000, 'f', -1, 64))
	}
}

func channel(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }

// path writes the path data with Y negated.
func (w *svgWriter) path(p scene.Path) {
	var cur scene.Vec
	first := true
	cmd := func(c byte, pts ...scene.Vec) {
		if !first {
			w.buf.WriteByte(' ')
		}
		first = false
		w.buf.WriteByte(c)
		for _, q := range pts {
			w.buf.WriteByte(' ')
			w.nums(q.X, -q.Y)
		}
	}
	for _, s := range p {
		switch s.Kind {
		case scene.SegMove:
			cmd('M', s.P[0])
		case scene.SegLine:
			cmd('L', s.P[0])
		case scene.SegQuad:
			cmd('Q', s.P[0], s.P[1])
		case scene.SegCubic:
			cmd('C', s.P[0], s.P[1], s.P[2])
		case scene.SegArc:
			start := s.ArcPoint(s.T0)
			if start.Sub(cur).Len() > w.quantum {
				cmd('L', start)
			}
			w.arc(s, cmd)
		case scene.SegClose:
			cmd('Z')
		}
		if s.Kind != scene.SegClose {
			cur = s.End()
		}
	}
}

// arc writes an elliptical arc segment as SVG A commands, split into pieces of at most half a
// turn so that the large-arc flag is never ambiguous.
func (w *svgWriter) arc(s scene.Seg, cmd func(byte, ...scene.Vec)) {
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
	sweep := "0"
	if ccw {
		sweep = "1"
	}
	total := s.T1 - s.T0
	pieces := int(math.Max(1, math.Ceil(math.Abs(total)/math.Pi-1e-9)))
	for i := 1; i <= pieces; i++ {
		end := s.ArcPoint(s.T0 + total*float64(i)/float64(pieces))
		w.buf.WriteString(" A ")
		w.nums(rx, ry, -phi*180/math.Pi)
		w.buf.WriteString(" 0 " + sweep + " ")
		w.nums(end.X, -end.Y)
	}
}

func (w *svgWriter) nums(vs ...float64) {
	for i, v := range vs {
		if i > 0 {
			w.buf.WriteByte(' ')
		}
		w.num(v)
	}
}

// num writes v rounded to the quantum, without trailing zeros or a negative zero.
func (w *svgWriter) num(v float64) {
	r := math.Round(v/w.quantum) * w.quantum
	if r == 0 {
		w.buf.WriteByte('0')
		return
	}
	b := strconv.AppendFloat(w.buf.AvailableBuffer(), r, 'f', w.decimals, 64)
	if w.decimals > 0 {
		b = bytes.TrimRight(b, "0")
		b = bytes.TrimSuffix(b, []byte("."))
	}
	w.buf.Write(b)
}
