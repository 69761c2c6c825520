package svg

// Markers: marker-start, marker-mid and marker-end (and the marker shorthand) on a path, line,
// polyline or polygon place a <marker>'s content at the path's vertices, as a <use> places a
// symbol: the content is converted once, as a function, and placed at each vertex, turned to
// the path's direction there (orient auto), scaled by the stroke's width (markerUnits
// strokeWidth) and cut to the marker's viewport (markerWidth by markerHeight) unless its
// overflow is visible. The content takes its style from the marker's own ancestors, never from
// the path (SVG: markers do not inherit from the element that references them), except SVG 2's
// context-fill and context-stroke, which take the path's fill and stroke paints (a marker
// whose content uses them is a function for each pair of paints it is drawn with), and the
// path's opacity, which is of the whole element, its markers included (a function for each
// opacity). What markers
// draw is bounded by MaxMarkerDrawn, past which the rest are left out and noted, so that a
// plot's hundred thousand points with a dot at each make a drawing that imports, not a refusal.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
)

// marked are the elements markers are drawn on.
var marked = map[string]bool{"path": true, "line": true, "polyline": true, "polygon": true}

// vertex is a point of a path where a marker goes: its direction there (radians, in the
// path's user space, Y down) and which of start, mid and end it is (0, 1, 2).
type vertex struct {
	at    geom.Vec
	angle float64
	kind  int
}

// markerKinds name marker-start, -mid and -end in notes and names.
var markerKinds = [3]string{"start", "mid", "end"}

// markers places the markers element e's style names at the vertices of its outline p (in
// its own coordinates), mapped by m.
func (c *converter) markers(e *element, p geom.Path, m geom.Affine, st style) ([]*Item, error) {
	var defs [3]*markerDef
	for i, v := range st.markers {
		if v == "" {
			continue
		}
		id, ok := urlID(v)
		t := c.ids[id]
		switch {
		case !ok || t == nil || t.name != "marker":
			c.skip(e.name, fmt.Sprintf("marker-%s %s names no marker of this file: not drawn", markerKinds[i], clip(v)))
			continue
		case slices.Contains(c.markerStack, id):
			c.skip(e.name, fmt.Sprintf("marker #%s draws itself (%s -> %s): not drawn again inside itself", id, strings.Join(c.markerStack, " -> "), id))
			continue
		}
		defs[i] = c.markerDef(t, id, st)
	}
	if defs == [3]*markerDef{} {
		return nil, nil
	}
	var out []*Item
	left := 0
	for _, v := range vertices(p) {
		d := defs[v.kind]
		if d == nil || d.none {
			continue
		}
		if c.markerDrawn >= c.lim.MaxMarkerDrawn {
			left++
			continue
		}
		before := c.drawn
		items, err := c.marker(e, d, v, m)
		if err != nil {
			return nil, err
		}
		c.markerDrawn += c.drawn - before
		out = append(out, items...)
	}
	if left > 0 {
		c.skip(e.name, fmt.Sprintf("%d markers are not drawn: the drawing's markers come to over %d shapes and groups (MaxMarkerDrawn)", left, c.lim.MaxMarkerDrawn))
	}
	return out, nil
}

// markerDef is a marker as a path places it, read once for all its vertices.
type markerDef struct {
	t      *element
	id     string
	st     style       // what its content inherits
	w, h   float64     // its viewport's size (markerWidth, markerHeight)
	inner  geom.Affine // its content's coordinates (the viewBox's) into the viewport's
	ref    geom.Vec    // the point put on the vertex, in the viewport's coordinates
	scale  float64     // the stroke's width, or 1 in user units
	none   bool        // it draws nothing: a viewport or a scale of no size
	orient string
}

// markerDef reads marker t (with id) for a path styled st.
func (c *converter) markerDef(t *element, id string, st style) *markerDef {
	d := &markerDef{t: t, id: id, st: c.markerStyle(t), inner: geom.Identity, scale: 1, orient: t.attr("orient")}
	// A path's markers are part of its rendering, as SVG 2 paints them: its opacity (its
	// ancestors' with its own) is the whole element's, markers included, where the marker's
	// ancestors' is not, as they do not draw it.
	d.st.opacity = st.opacity
	if c.takesContext(t, id) {
		// The paints carry the path's fill-opacity and stroke-opacity, as librsvg and
		// Firefox draw them; its opacity comes with the marker's above.
		d.st.ctx = &contextPaints{fill: withAlpha(st.fill, st.fillOpacity), stroke: withAlpha(st.stroke, st.strokeOpacity),
			fillURL: st.fillURL, strokeURL: st.strokeURL}
	}
	// Lengths are in the marker's user space, percentages of the viewport the path is in, as
	// SVG takes them.
	d.w, d.h = 3, 3
	if _, ok := t.attrs["markerWidth"]; ok {
		d.w = c.size(t, "markerWidth", c.vp[0], d.st.fontSize)
	}
	if _, ok := t.attrs["markerHeight"]; ok {
		d.h = c.size(t, "markerHeight", c.vp[1], d.st.fontSize)
	}
	if strings.TrimSpace(t.attr("markerUnits")) != "userSpaceOnUse" {
		d.scale = st.strokeWidth
	}
	// A viewport of no size draws nothing, and so do markers scaled by a stroke of width 0.
	if d.none = !(d.w > 0 && d.h > 0) || d.scale == 0; d.none {
		return d
	}
	refBox := [4]float64{0, 0, d.w, d.h}
	if vb, ok := viewBox(t.attr("viewBox")); ok {
		d.inner, _ = fit(vb, t.attr("preserveAspectRatio"), 0, 0, d.w, d.h)
		refBox = vb
	}
	// refX and refY are in the content's coordinates (the viewBox's).
	d.ref = d.inner.Apply(geom.Vec{X: refOf(t.attr("refX"), refBox[0], refBox[2], "left", "right"),
		Y: refOf(t.attr("refY"), refBox[1], refBox[3], "top", "bottom")})
	return d
}

// marker places marker d at vertex v of element e's path, mapped by m.
func (c *converter) marker(e *element, d *markerDef, v vertex, m geom.Affine) ([]*Item, error) {
	if err := c.inTime(e.line); err != nil {
		return nil, err
	}
	at := m.Mul(geom.Translation(v.at)).Mul(geom.Rotation(orient(d.orient, v))).Mul(geom.Scaling(d.scale, d.scale)).Mul(geom.Translation(d.ref.Mul(-1)))
	it := &Item{Element: "marker", Line: e.line}
	if l := label(e); l != "" {
		it.ID = l + "-" + markerKinds[v.kind]
	}
	c.markerStack = append(c.markerStack, d.id)
	defer func() { c.markerStack = c.markerStack[:len(c.markerStack)-1] }()
	return c.place(it, d.t, d.id, at, d.inner, d.w, d.h, d.st)
}

// takesContext tells whether marker t's content (t included) gives a fill or stroke of
// context-fill or context-stroke anywhere; read once a marker. Only such a marker is a function
// for each path's paints: the others stay one function whatever the paths.
func (c *converter) takesContext(t *element, id string) bool {
	if v, ok := c.markerContext[id]; ok {
		return v
	}
	var walk func(e *element) bool
	walk = func(e *element) bool {
		p := properties(e)
		if strings.HasPrefix(p["fill"], "context-") || strings.HasPrefix(p["stroke"], "context-") {
			return true
		}
		return slices.ContainsFunc(e.children, walk)
	}
	v := walk(t)
	if c.markerContext == nil {
		c.markerContext = map[string]bool{}
	}
	c.markerContext[id] = v
	return v
}

// markerStyle is the style a marker's content inherits: its ancestors', not the path's, but
// for their opacity (not inherited: a group's is of what it draws, which the marker is not).
func (c *converter) markerStyle(t *element) style {
	var chain []*element
	for p := c.parents[t]; p != nil; p = c.parents[p] {
		chain = append(chain, p)
	}
	st := initialStyle()
	for i := len(chain) - 1; i >= 0; i-- {
		st.diag = c.diag()
		st = st.child(chain[i])
	}
	st.diag = c.diag()
	st.opacity = 1
	return st
}

// refOf reads refX or refY: a number in the content's coordinates, a percentage of the
// viewBox (or the viewport) from its min, or SVG 2's keywords; 0 when absent or unreadable.
func refOf(v string, min, size float64, lo, hi string) float64 {
	v = strings.TrimSpace(v)
	switch v {
	case "":
		return 0
	case lo:
		return min
	case "center":
		return min + size/2
	case hi:
		return min + size
	}
	if n, ok := strings.CutSuffix(v, "%"); ok {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return 0
		}
		return min + f/100*size
	}
	f, ok := length(v, 16)
	if !ok {
		return 0
	}
	return f
}

// orient is the angle a marker is turned by at v: the path's direction there for auto (and
// auto-start-reverse, turned round at the start), else the angle given (deg, rad, grad or
// turn; degrees without a unit), else 0.
func orient(v string, at vertex) float64 {
	switch v = strings.TrimSpace(v); v {
	case "auto":
		return at.angle
	case "auto-start-reverse":
		if at.kind == 0 {
			return at.angle + math.Pi
		}
		return at.angle
	}
	num, unit := splitUnit(v)
	f, err := strconv.ParseFloat(num, 64)
	perTurn := map[string]float64{"": 360, "deg": 360, "grad": 400, "rad": 2 * math.Pi, "turn": 1}[unit]
	if err != nil || perTurn == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f / perTurn * 2 * math.Pi
}

// vertices are the points of path p markers go on, as SVG counts them: each subpath's start
// and every segment's end, a closed subpath's closing included (so a polygon's first point is
// its last vertex too; drawing on after a close starts a subpath, with a vertex, at the closed
// one's start, as the path reader writes it); the path's first is the start, its last the end, the rest mid. Each is
// turned as SVG 2's path direction at a vertex says: at an open subpath's start the direction
// it leaves in, at its end the one it arrives in, elsewhere the bisector of the two (a closed
// subpath's start and end taking its closing segment's), a segment of no length taking its
// neighbours' direction.
func vertices(p geom.Path) []vertex {
	var out []vertex
	for i := 0; i < len(p); {
		if p[i].Kind != geom.SegMove {
			i++
			continue
		}
		start := p[i].P[0]
		j := i + 1
		var ins, outs []geom.Vec // each segment's direction at its start and its end
		pts := []geom.Vec{start}
		cur := start
		closed := false
		for ; j < len(p) && p[j].Kind != geom.SegMove; j++ {
			s := p[j]
			if s.Kind == geom.SegClose {
				s = geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{start}}
				closed = true
			}
			a, b := tangents(s, cur)
			outs, ins = append(outs, a), append(ins, b)
			cur = s.End()
			pts = append(pts, cur)
			if closed {
				j++
				break
			}
		}
		n := len(ins)                   // segments; vertices are pts[0..n]
		dirIn := func(k int) geom.Vec { // the direction arriving at vertex k (k >= 1)
			for q := k - 1; q >= 0; q-- {
				if ins[q].Len() > 0 {
					return ins[q]
				}
			}
			return geom.Vec{}
		}
		dirOut := func(k int) geom.Vec { // the direction leaving vertex k (k < n)
			for q := k; q < n; q++ {
				if outs[q].Len() > 0 {
					return outs[q]
				}
			}
			return geom.Vec{}
		}
		for k := 0; k <= n; k++ {
			var in, o geom.Vec
			switch {
			case closed && (k == 0 || k == n):
				in, o = dirIn(n), dirOut(0)
			case k == 0:
				o = dirOut(0)
				in = o
			case k == n:
				in = dirIn(n)
				o = in
			default:
				in, o = dirIn(k), dirOut(k)
			}
			if in.Len() == 0 {
				in = o
			}
			if o.Len() == 0 {
				o = in
			}
			out = append(out, vertex{at: pts[k], angle: bisect(in, o), kind: 1})
		}
		i = j
	}
	if len(out) > 0 {
		out[0].kind = 0
		out[len(out)-1].kind = 2
	}
	return out
}

// tangents are segment s's directions at its start and its end, from cur; zero where it has
// no length.
func tangents(s geom.Seg, cur geom.Vec) (geom.Vec, geom.Vec) {
	switch s.Kind {
	case geom.SegLine:
		d := s.P[0].Sub(cur)
		return d, d
	case geom.SegQuad:
		return firstNonZero(s.P[0].Sub(cur), s.P[1].Sub(cur)), firstNonZero(s.P[1].Sub(s.P[0]), s.P[1].Sub(cur))
	case geom.SegCubic:
		return firstNonZero(s.P[0].Sub(cur), s.P[1].Sub(cur), s.P[2].Sub(cur)),
			firstNonZero(s.P[2].Sub(s.P[1]), s.P[2].Sub(s.P[0]), s.P[2].Sub(cur))
	case geom.SegArc:
		sign := 1.0
		if s.T1 < s.T0 {
			sign = -1
		}
		tangent := func(t float64) geom.Vec {
			return s.P[1].Mul(-math.Sin(t) * sign).Add(s.P[2].Mul(math.Cos(t) * sign))
		}
		a := tangent(s.T0)
		if d := s.ArcPoint(s.T0).Sub(cur); d.Len() > 1e-9*(1+cur.Len()) {
			a = d // the arc's implicit line from the current point
		}
		return a, tangent(s.T1)
	}
	return geom.Vec{}, geom.Vec{}
}

// bisect is the angle halfway between the directions in and out, the smaller way round (a
// path turning back on itself takes the in direction turned by a quarter, as librsvg does).
func bisect(in, out geom.Vec) float64 {
	a, b := math.Atan2(in.Y, in.X), math.Atan2(out.Y, out.X)
	half := (b - a) / 2
	if math.Abs(half) > math.Pi/2 {
		half -= math.Copysign(math.Pi, half)
	}
	return a + half
}
