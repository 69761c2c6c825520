package svg

// Viewports: the root, a nested <svg> and a <symbol> each fit a viewBox into a box by
// preserveAspectRatio (meet fits it inside, slice covers the box with it, none stretches it),
// and their width and height default to 100% of the viewport they are in, as a <use>'s do
// for a symbol. Percentages of lengths are of the viewport they are in. A nested <svg> or a
// placed <symbol> cuts what it holds to its viewport (overflow hidden, SVG's default for
// them) with the clip paths' machinery, the viewport's rectangle a clip region; the root is
// not cut to its page.

import (
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
)

// fit maps a viewBox into a box of width w and height h at (x, y) by preserveAspectRatio
// par ("" is xMidYMid meet); slice tells that the viewBox overflows the box (slice, or none).
func fit(vb [4]float64, par string, x, y, w, h float64) (m geom.Affine, slice bool) {
	f := strings.Fields(par)
	if len(f) > 0 && f[0] == "defer" {
		f = f[1:]
	}
	align, mode := "xMidYMid", "meet"
	if len(f) > 0 {
		align = f[0]
	}
	if len(f) > 1 {
		mode = f[1]
	}
	sx, sy := w/vb[2], h/vb[3]
	if align == "none" {
		return geom.Affine{A: sx, D: sy, E: x - vb[0]*sx, F: y - vb[1]*sy}, false
	}
	s := min(sx, sy)
	if mode == "slice" {
		s = max(sx, sy)
	}
	pos := func(a string, room float64) float64 {
		switch a {
		case "Min":
			return 0
		case "Max":
			return room
		}
		return room / 2
	}
	ax, ay := "Mid", "Mid"
	if len(align) == 8 && align[0] == 'x' && align[4] == 'Y' {
		ax, ay = align[1:4], align[5:8]
	}
	tx := x + pos(ax, w-vb[2]*s) - vb[0]*s
	ty := y + pos(ay, h-vb[3]*s) - vb[1]*s
	return geom.Affine{A: s, D: s, E: tx, F: ty}, mode == "slice" && sx != sy
}

// size reads a viewport's width or height attribute: a length, or a percentage of the
// viewport it is in (100% when absent).
func (c *converter) size(e *element, name string, of float64, em float64) float64 {
	v, ok := e.attrs[name]
	if !ok || strings.TrimSpace(v) == "auto" {
		return of
	}
	if f, ok := c.percent(v, of); ok {
		return f
	}
	if f, ok := length(v, em); ok && f >= 0 {
		return f
	}
	return of
}

// percent reads "50%" as that much of of.
func (c *converter) percent(v string, of float64) (float64, bool) {
	v = strings.TrimSpace(v)
	if !strings.HasSuffix(v, "%") {
		return 0, false
	}
	n, err := numbers(strings.TrimSuffix(v, "%"))
	if err != nil || len(n) != 1 {
		return 0, false
	}
	return n[0] / 100 * of, true
}

// extent is the box what is drawn inside a viewport covers, in scene coordinates (a
// symbol's: in its own), while the viewport is converted, so that a viewport whose content
// fits it is not cut; unknown when it holds text, or a symbol holding text, whose extent the
// reader does not work out.
type extent struct {
	box     geom.Box
	unknown bool
}

// overflows tells whether what was drawn in a viewport passes the box r (the viewport's
// corners in scene coordinates), by more than a millionth of its size or of the drawing's.
func (x *extent) overflows(r geom.Box) bool {
	if x.unknown {
		return true
	}
	if !x.box.NonEmpty {
		return false
	}
	size, drawn := r.Size(), x.box.Size()
	tol := 1e-6 * min(max(size.X, size.Y), max(drawn.X, drawn.Y))
	return x.box.Min.X < r.Min.X-tol || x.box.Min.Y < r.Min.Y-tol || x.box.Max.X > r.Max.X+tol || x.box.Max.Y > r.Max.Y+tol
}

// rectBox is the box of the rectangle (x, y, w, h) mapped by m.
func rectBox(m geom.Affine, x, y, w, h float64) geom.Box {
	var p geom.Path
	p.Polyline([]geom.Vec{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}}, true)
	return p.Transform(m).Bounds()
}

// clips tells whether a viewport element clips what it holds: overflow hidden, SVG's default
// for it.
func clips(e *element) bool {
	v := strings.TrimSpace(properties(e)["overflow"])
	return v != "visible" && v != "auto"
}

// frame is the clip region of a viewport: the rectangle (x, y, w, h) mapped by m.
func frame(m geom.Affine, x, y, w, h float64) region {
	var p geom.Path
	p.Polyline([]geom.Vec{{X: x, Y: y}, {X: x + w, Y: y}, {X: x + w, Y: y + h}, {X: x, Y: y + h}}, true)
	p = p.Transform(m)
	prim := Prim{Call: "drawPolygon"}
	for _, s := range p[:4] {
		prim.Points = append(prim.Points, s.P[0])
	}
	return region{paths: []geom.Path{p}, prims: []Prim{prim}, box: p.Bounds()}
}

// meet is the box where a and b overlap; empty when they do not.
func meet(a, b geom.Box) geom.Box {
	if !overlaps(a, b) {
		return geom.Box{}
	}
	return geom.Box{NonEmpty: true,
		Min: geom.Vec{X: max(a.Min.X, b.Min.X), Y: max(a.Min.Y, b.Min.Y)},
		Max: geom.Vec{X: min(a.Max.X, b.Max.X), Y: min(a.Max.Y, b.Max.Y)}}
}
