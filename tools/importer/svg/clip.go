package svg

// Clip paths and masks of opaque white shapes: SVG paints only what lies inside every clip
// region on the way up to a shape (its own clip-path, its groups', a clipPath's own
// clip-path), a region being the union of the clipPath's shapes. A fill so cut is an
// intersection of areas, which the module computes with cadrun's exact booleans (arcs stay
// arcs); the reader first does the same intersection on a scratch scene, so that a clip that
// cuts nothing is not written at all, one that leaves nothing drops the shape, and one the
// booleans cannot do (a region that crosses itself) is drawn unclipped and noted, never a
// module that fails to run.
//
// A stroke is not an area in cadrun: it is its path drawn with a pen. A clipped stroke is the
// path cut where it leaves the clip, then stroked (docs/decisions.md, issue 37): the same
// picture as SVG's but within half the pen's width of a cut, where SVG cuts the pen's band
// straight and cadrun's pen runs on by half its width.

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// Clip is a region a shape is cut to: the union of its Shapes, in the coordinates of the
// shape's Prim. An Item's Clips are applied in turn (the region is their intersection).
type Clip struct {
	Shapes []Prim
}

// MaxClipPairs bounds the work of cutting one stroke by its clip regions: the stroke's
// flattened segments times the regions' edges. A stroke over it is drawn uncut and noted.
const MaxClipPairs = 4_000_000

// region is a clip region while a shape inside it is converted: its shapes' closed outlines
// in the coordinates the shapes are drawn in, and the calls that draw them.
type region struct {
	paths []geom.Path
	prims []Prim
	box   geom.Box // of the paths
}

// urlID reads url(#id) (quoted or not); false for none and for anything else.
func urlID(v string) (string, bool) {
	v = strings.TrimSpace(v)
	in, ok := strings.CutPrefix(v, "url(")
	if !ok {
		return "", false
	}
	in, _, ok = strings.Cut(in, ")")
	if !ok {
		return "", false
	}
	in = strings.Trim(strings.TrimSpace(in), `"'`)
	id, ok := strings.CutPrefix(in, "#")
	return id, ok && id != ""
}

// clipsOf reads e's clip-path and mask, with m the map of e's user space (its own transform
// included): the regions to cut what e draws to, and false when e draws nothing at all (a
// clip that leaves nothing). What is not applied is noted.
func (c *converter) clipsOf(e *element, m geom.Affine, st style) ([]region, bool) {
	_, clipAttr := e.attrs["clip-path"]
	_, maskAttr := e.attrs["mask"]
	if css := e.attrs["style"]; !clipAttr && !maskAttr && !strings.Contains(css, "clip-path") && !strings.Contains(css, "mask") {
		return nil, true // most elements: no style map made for them again
	}
	p := properties(e)
	// A plot's every line names the axes' frame: a clip in the user space is read once for
	// each map, its notes counted again each time.
	if c.objectUnits(p) {
		return c.readClips(e, p, m, st)
	}
	key := fmt.Sprintf("%s|%s|%s|%v", e.name, p["clip-path"], p["mask"], m)
	if r, ok := c.clipCache[key]; ok {
		for _, n := range r.notes {
			c.d.Skipped[n]++
		}
		return r.regs, r.draws
	}
	before := maps.Clone(c.d.Skipped)
	regs, draws := c.readClips(e, p, m, st)
	var notes []string
	for n, k := range c.d.Skipped {
		for range k - before[n] {
			notes = append(notes, n)
		}
	}
	if c.clipCache == nil {
		c.clipCache = map[string]clipRead{}
	}
	c.clipCache[key] = clipRead{regs, draws, notes}
	return regs, draws
}

// clipRead is what clipsOf read of a clip in the user space: kept for the next element that
// names it under the same map.
type clipRead struct {
	regs  []region
	draws bool
	notes []string
}

// objectUnits tells whether the clip-path or mask of properties p is in the units of the
// element's box (which differs from element to element), or names what is not known.
func (c *converter) objectUnits(p map[string]string) bool {
	for _, v := range []string{p["clip-path"], p["mask"]} {
		if id, ok := urlID(v); ok {
			t := c.ids[id]
			if t == nil {
				continue
			}
			if strings.TrimSpace(t.attr("clipPathUnits")) == "objectBoundingBox" || t.name == "mask" ||
				t.attr("clip-path") != "" || strings.Contains(t.attr("style"), "clip-path") {
				return true
			}
		}
	}
	return false
}

// readClips is clipsOf's reading of a clip-path and a mask.
func (c *converter) readClips(e *element, p map[string]string, m geom.Affine, st style) ([]region, bool) {
	var regs []region
	if v := p["clip-path"]; v != "" && v != "none" {
		r, draws := c.clipPathRegions(e, v, m, st, nil)
		if !draws {
			return nil, false
		}
		regs = append(regs, r...)
	}
	if v := p["mask"]; v != "" && v != "none" {
		r, draws := c.maskRegions(e, v, m, st)
		if !draws {
			return nil, false
		}
		regs = append(regs, r...)
	}
	return regs, true
}

// clipPathRegions is what clip-path value v of element e cuts to: the clipPath's shapes, and
// its own clip-path's. seen holds the clipPaths being read, to refuse one that clips itself.
func (c *converter) clipPathRegions(e *element, v string, m geom.Affine, st style, seen []string) ([]region, bool) {
	id, ok := urlID(v)
	cp := c.ids[id]
	if !ok || cp == nil || cp.name != "clipPath" {
		// CSS Masking: a reference to nothing, or to what is not a clipPath, is as if not given.
		c.skip(e.name, fmt.Sprintf("clip-path %s names no clipPath of this file: not applied, as SVG does", clip(v)))
		return nil, true
	}
	if slices.Contains(seen, id) {
		c.skip(e.name, fmt.Sprintf("clip-path #%s clips itself (%s -> %s): not applied", id, strings.Join(seen, " -> "), id))
		return nil, true
	}
	seen = append(seen, id)
	base := m
	if t := cp.attr("transform"); t != "" {
		if tm, err := parseTransform(t); err == nil {
			base = base.Mul(tm)
		}
	}
	if strings.TrimSpace(cp.attr("clipPathUnits")) == "objectBoundingBox" {
		b, ok := c.localBox(e, st)
		if !ok {
			// SVG draws nothing of an element whose box has no width or height under such units.
			c.skip(e.name, "clip-path in objectBoundingBox units on an element with no area: not drawn, as SVG does")
			return nil, false
		}
		base = base.Mul(geom.Affine{A: b.Max.X - b.Min.X, D: b.Max.Y - b.Min.Y, E: b.Min.X, F: b.Min.Y})
	}
	var r region
	cst := initialStyle().child(cp)
	for _, ch := range cp.children {
		if ch.space != "" && ch.space != "http://www.w3.org/2000/svg" {
			continue
		}
		ok, why := c.regionShape(&r, ch, base, cst, seen)
		if !ok {
			c.skip(e.name, "clip-path #"+id+" "+why+": not applied")
			return nil, true
		}
	}
	regs := []region{r}
	if v := properties(cp)["clip-path"]; v != "" && v != "none" {
		// A clipPath's own clip-path cuts its region, in the same user space as its shapes'.
		more, draws := c.clipPathRegions(e, v, m, st, seen)
		if !draws {
			return nil, false
		}
		regs = append(regs, more...)
	}
	return regs, true
}

// regionShape adds child ch of a clipPath (or mask) to r, mapped by base; false and why for a
// child that cannot be a region (text).
func (c *converter) regionShape(r *region, ch *element, base geom.Affine, parent style, seen []string) (bool, string) {
	st := parent.child(ch)
	if !st.display || !st.visible {
		return true, ""
	}
	m := base
	if t := ch.attr("transform"); t != "" {
		tm, err := parseTransform(t)
		if err != nil {
			tm = geom.Identity
		}
		m = m.Mul(tm)
	}
	target := ch
	if ch.name == "use" {
		id, _ := strings.CutPrefix(strings.TrimSpace(ch.attr("href")), "#")
		if target = c.ids[id]; target == nil {
			return true, ""
		}
		m = m.Mul(geom.Translation(geom.Vec{X: c.num(ch, "x"), Y: c.num(ch, "y")}))
		if t := target.attr("transform"); t != "" {
			if tm, err := parseTransform(t); err == nil {
				m = m.Mul(tm)
			}
		}
		st = st.child(target)
	}
	own := properties(ch)["clip-path"]
	if own == "none" {
		own = ""
	}
	switch target.name {
	case "text":
		if own != "" {
			return false, "has a text with a clip-path of its own"
		}
		return c.regionText(r, target, m, st)
	case "rect", "circle", "ellipse", "polygon", "polyline", "path", "line":
	default:
		return true, "" // SVG draws only shapes, text and uses of them into a clip
	}
	var p geom.Path
	c.quietly(func() { p, _ = c.outline(target, st) })
	if p == nil {
		return true, ""
	}
	w := closeAll(p.Transform(m))
	prim := Prim{Call: "drawBezier", Path: pathString(w)}
	switch {
	case st.clipEvenOdd && subpaths(p) > 1:
		// cadrun's booleans fill by nonzero: the even-odd area is worked out here, the
		// subpaths' exclusive or, and written as its outline, whose nonzero fill it is.
		eo, err := evenOdd(w)
		if err != nil {
			return false, fmt.Sprintf("has clip-rule evenodd on a shape whose area cannot be worked out (%v)", err)
		}
		if eo == nil {
			return true, "" // its subpaths cancel out: it adds nothing to the region
		}
		w, prim = eo, Prim{Call: "drawBezier", Path: pathString(eo)}
	case target.name == "rect" || target.name == "circle" || target.name == "ellipse" || target.name == "polygon":
		prim = c.prim(target, p, m, st)
	}
	if own != "" {
		// A clip shape's own clip-path cuts it, in its user space: the part left is worked
		// out here and written as its outline.
		regs, draws := c.clipPathRegions(ch, own, m, st, seen)
		if !draws {
			return true, ""
		}
		if len(regs) > 0 {
			cut, err := intersectOutline(w, regs)
			if err != nil {
				return false, fmt.Sprintf("has a shape whose own clip-path cannot be worked out (%v)", err)
			}
			if cut == nil {
				return true, ""
			}
			w, prim = cut, Prim{Call: "drawBezier", Path: pathString(cut)}
		}
	}
	r.paths = append(r.paths, w)
	r.prims = append(r.prims, prim)
	b := w.Bounds()
	if b.NonEmpty {
		r.box.Extend(b.Min)
		r.box.Extend(b.Max)
	}
	return true, ""
}

// regionText adds the glyphs of text element e, mapped by m, to r: each run's drawText,
// whose outline the font gives.
func (c *converter) regionText(r *region, e *element, m geom.Affine, st style) (bool, string) {
	var items []*Item
	outer := c.clips
	c.clips = nil
	c.quietly(func() { items, _ = c.text(e, m, st) })
	c.clips = outer
	var add func(items []*Item) string
	add = func(items []*Item) string {
		for _, it := range items {
			if it.Kind == Group {
				if why := add(it.Children); why != "" {
					return why
				}
				continue
			}
			w, err := textOutline(it.Prim)
			if err != nil {
				return fmt.Sprintf("holds text the font cannot lay out (%v)", err)
			}
			r.paths = append(r.paths, w)
			r.prims = append(r.prims, it.Prim)
			if b := w.Bounds(); b.NonEmpty {
				r.box.Extend(b.Min)
				r.box.Extend(b.Max)
			}
		}
		return ""
	}
	if why := add(items); why != "" {
		return false, why
	}
	return true, ""
}

// intersectOutline is the outline of what the regions leave of the fill of closed path w,
// worked out by the scene's booleans; nil when nothing is left.
func intersectOutline(w geom.Path, regs []region) (_ geom.Path, err error) {
	defer geometryPanic(&err)
	s, _, err := intersect(w, regs)
	if s == nil || err != nil {
		return nil, err
	}
	e, err := s.Get("f")
	if err != nil {
		return nil, err
	}
	return e.Shape.Outline(), nil
}

// intersect is a scratch scene whose shape "f" is what the regions leave of the fill of
// closed path w, cut by the scene's booleans as the module cuts it, and the area of w before;
// a nil scene when nothing is left. The caller recovers a panic of the booleans.
func intersect(w geom.Path, regs []region) (*scene.Scene, float64, error) {
	s := scene.New()
	if _, err := s.Put("f", &scene.PathShape{Data: pathString(w)}); err != nil {
		return nil, 0, err
	}
	before, err := s.Area("f")
	if err != nil {
		return nil, 0, err
	}
	for i, r := range regs {
		if len(r.paths) == 0 {
			return nil, before, nil
		}
		var names []string
		for j, p := range r.paths {
			n := fmt.Sprintf("r%d-%d", i, j)
			if _, err := s.Put(n, &scene.PathShape{Data: pathString(p)}); err != nil {
				return nil, 0, err
			}
			names = append(names, n)
		}
		if _, err := s.Boolean(scene.Intersect, []string{"f"}, names, "f"); errors.Is(err, scene.ErrEmptyResult) {
			return nil, before, nil
		} else if err != nil {
			return nil, 0, err
		}
	}
	return s, before, nil
}

// geometryPanic turns a panic of the scene's booleans on a scratch scene into *err, so that a
// file whose shapes they cannot take is drawn uncut and noted, never a reader that fails.
func geometryPanic(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("the booleans failed on these shapes (%v)", r)
	}
}

// evenOdd is the outline of the even-odd fill of closed path w (the exclusive or of its
// subpaths), outer rings counter-clockwise and holes clockwise; nil when it encloses nothing.
func evenOdd(w geom.Path) (_ geom.Path, err error) {
	defer geometryPanic(&err)
	s := scene.New()
	acc := ""
	for i := 0; i < len(w); {
		j := i + 1
		for j < len(w) && w[j].Kind != geom.SegMove {
			j++
		}
		name := fmt.Sprintf("s%d", i)
		if _, err := s.Put(name, &scene.PathShape{Data: pathString(w[i:j])}); err != nil {
			return nil, err
		}
		i = j
		if acc == "" {
			acc = name
			continue
		}
		if _, err := s.Boolean(scene.Xor, []string{acc}, []string{name}, "x"+name); errors.Is(err, scene.ErrEmptyResult) {
			acc = ""
			continue
		} else if err != nil {
			return nil, err
		}
		acc = "x" + name
	}
	if acc == "" {
		return nil, nil
	}
	e, err := s.Get(acc)
	if err != nil {
		return nil, err
	}
	return e.Shape.Outline(), nil
}

// maskRegions is what a mask of opaque white shapes cuts to: their union, and the mask's own
// rectangle. Any other mask is noted and not applied.
func (c *converter) maskRegions(e *element, v string, m geom.Affine, st style) ([]region, bool) {
	id, ok := urlID(v)
	mk := c.ids[id]
	if !ok || mk == nil || mk.name != "mask" {
		c.skip(e.name, fmt.Sprintf("mask %s names no mask of this file: not applied, as SVG does", clip(v)))
		return nil, true
	}
	var kids []*element
	for _, ch := range mk.children {
		if ch.space == "" || ch.space == "http://www.w3.org/2000/svg" {
			if !ignored[ch.name] {
				kids = append(kids, ch)
			}
		}
	}
	mst := initialStyle().child(mk)
	white := Color{1, 1, 1, 1}
	// Opaque white, a mask lets all through: shapes of it are a clip, their union.
	const notApplied = "mask is not applied: only a mask of opaque white shapes is (it acts as a clip)"
	if len(kids) == 0 || properties(mk)["mask"] != "" {
		c.skip(e.name, notApplied)
		return nil, true
	}
	for _, k := range kids {
		kst := mst.child(k)
		if !kst.display {
			continue
		}
		switch k.name {
		case "rect", "circle", "ellipse", "polygon", "polyline", "path":
		default:
			c.skip(e.name, notApplied)
			return nil, true
		}
		if f := kst.fillColor(); f == nil || *f != white || kst.strokeColor() != nil || properties(k)["clip-path"] != "" || properties(k)["mask"] != "" {
			c.skip(e.name, notApplied)
			return nil, true
		}
	}
	b, okBox := c.localBox(e, st)
	base := m
	if strings.TrimSpace(mk.attr("maskContentUnits")) == "objectBoundingBox" {
		if !okBox {
			return nil, false
		}
		base = base.Mul(geom.Affine{A: b.Max.X - b.Min.X, D: b.Max.Y - b.Min.Y, E: b.Min.X, F: b.Min.Y})
	}
	var shape region
	for _, k := range kids {
		if ok, why := c.regionShape(&shape, k, base, mst, nil); !ok {
			c.skip(e.name, "mask #"+id+" "+why+": not applied")
			return nil, true
		}
	}
	if len(shape.paths) == 0 {
		return nil, false // a mask of nothing lets nothing through
	}
	// The mask's rectangle: -10% -10% 120% 120% of the box by default (maskUnits
	// objectBoundingBox), or lengths in the user space.
	var rect [4]float64
	if strings.TrimSpace(mk.attr("maskUnits")) == "userSpaceOnUse" {
		rect = [4]float64{c.numOr(mk, "x", -0.1*c.vp[0]), c.numOr(mk, "y", -0.1*c.vp[1]), c.numOr(mk, "width", 1.2*c.vp[0]), c.numOr(mk, "height", 1.2*c.vp[1])}
	} else {
		if !okBox {
			return nil, false
		}
		fr := func(name string, def float64) float64 {
			v, ok := mk.attrs[name]
			if !ok {
				return def
			}
			if n, ok := strings.CutSuffix(strings.TrimSpace(v), "%"); ok {
				f, err := numbers(n)
				if err == nil && len(f) == 1 {
					return f[0] / 100
				}
				return def
			}
			f, err := numbers(v)
			if err != nil || len(f) != 1 {
				return def
			}
			return f[0]
		}
		w, h := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y
		rect = [4]float64{b.Min.X + fr("x", -0.1)*w, b.Min.Y + fr("y", -0.1)*h, fr("width", 1.2) * w, fr("height", 1.2) * h}
	}
	if !(rect[2] > 0 && rect[3] > 0) {
		return nil, false
	}
	var frame geom.Path
	frame.Polyline([]geom.Vec{{X: rect[0], Y: rect[1]}, {X: rect[0] + rect[2], Y: rect[1]}, {X: rect[0] + rect[2], Y: rect[1] + rect[3]}, {X: rect[0], Y: rect[1] + rect[3]}}, true)
	fw := frame.Transform(m)
	regs := []region{shape}
	if fb := fw.Bounds(); !(axisAligned(m) && contains(fb, shape.box)) {
		prim := Prim{Call: "drawPolygon"}
		for _, s := range fw[:4] {
			prim.Points = append(prim.Points, s.P[0])
		}
		regs = append(regs, region{paths: []geom.Path{fw}, prims: []Prim{prim}, box: fb})
	}
	return regs, true
}

// numOr is a length attribute in user units, def when absent.
func (c *converter) numOr(e *element, name string, def float64) float64 {
	if _, ok := e.attrs[name]; !ok {
		return def
	}
	return c.num(e, name)
}

// axisAligned tells whether m keeps axes axis-aligned.
func axisAligned(m geom.Affine) bool {
	_, _, ok := axisScale(m)
	return ok
}

// quietly runs f with the notes and the segment count it makes thrown away: for reading a
// shape again (a clip's box, a clip's outline) that is converted, and counted, elsewhere.
func (c *converter) quietly(f func()) {
	skipped, segs, kinds, drawn, bytes := c.d.Skipped, c.d.Segments, c.d.Kinds, c.drawn, c.d.ShapeBytes
	c.d.Skipped, c.d.Kinds = map[string]int{}, map[string]int{}
	f()
	c.d.Skipped, c.d.Segments, c.d.Kinds, c.drawn, c.d.ShapeBytes = skipped, segs, kinds, drawn, bytes
}

// localBox is e's bounding box in its own user space (its fill's geometry, as
// objectBoundingBox takes it); false when it has no width or no height.
func (c *converter) localBox(e *element, st style) (geom.Box, bool) {
	var b geom.Box
	var walk func(e *element, m geom.Affine, st style, top bool)
	walk = func(e *element, m geom.Affine, st style, top bool) {
		if !top {
			if t := e.attr("transform"); t != "" {
				if tm, err := parseTransform(t); err == nil {
					m = m.Mul(tm)
				}
			}
			if e.space != "" && e.space != "http://www.w3.org/2000/svg" || ignored[e.name] {
				return
			}
			st = st.child(e)
			if !st.display {
				return
			}
		}
		switch e.name {
		case "g", "a", "switch":
			for _, ch := range e.children {
				walk(ch, m, st, false)
			}
			return
		}
		var p geom.Path
		c.quietly(func() { p, _ = c.outline(e, st) })
		if pb := p.Transform(m).Bounds(); pb.NonEmpty {
			b.Extend(pb.Min)
			b.Extend(pb.Max)
		}
	}
	walk(e, geom.Identity, st, true)
	return b, b.NonEmpty && b.Max.X > b.Min.X && b.Max.Y > b.Min.Y
}

// subpaths counts p's moves.
func subpaths(p geom.Path) int {
	n := 0
	for _, s := range p {
		if s.Kind == geom.SegMove {
			n++
		}
	}
	return n
}

// closeAll closes each open subpath of p, as SVG's fill does.
func closeAll(p geom.Path) geom.Path {
	out := make(geom.Path, 0, len(p)+1)
	open := false
	for _, s := range p {
		if s.Kind == geom.SegMove && open {
			out = append(out, geom.Seg{Kind: geom.SegClose})
		}
		out = append(out, s)
		open = s.Kind != geom.SegClose
	}
	if open {
		out = append(out, geom.Seg{Kind: geom.SegClose})
	}
	return out
}

// How a clip leaves a fill or a stroke.
const (
	clipNone   = iota // cuts nothing: drawn as it is
	clipAll           // leaves nothing
	clipCut           // cuts some of it
	clipFailed        // could not be worked out: drawn uncut
)

// clipFill is what the regions leave of the fill of w (closed as SVG fills it), worked out
// as the module will: cadrun's booleans on a scratch scene.
func (c *converter) clipFill(w geom.Path, regs []region) (res int, err error) {
	defer func() {
		if err != nil {
			res = clipFailed
		}
	}()
	defer geometryPanic(&err) // runs first
	for _, r := range regs {
		if len(r.paths) == 0 {
			return clipAll, nil
		}
	}
	wb := w.Bounds()
	for _, r := range regs {
		if !overlaps(r.box, wb) {
			return clipAll, nil
		}
	}
	if insideBoxes(regs, wb) {
		return clipNone, nil
	}
	s, before, err := intersect(closeAll(w), regs)
	switch {
	case err != nil:
		return clipFailed, err
	case s == nil:
		return clipAll, nil
	}
	after, err := s.Area("f")
	if err != nil {
		return clipFailed, err
	}
	if math.Abs(after-before) <= 1e-6*before {
		return clipNone, nil
	}
	return clipCut, nil
}

// insideBoxes tells whether every region is one axis-aligned box that holds the box b: the
// common case, a plot's frame around lines wholly inside it, decided without a boolean. A box
// holds what passes it by a billionth of their sizes: a symbol's frame, worked out through
// its viewBox's inverse, comes out 15.999999999999998 wide around a stroke of 16 along its
// edge, which was cut to the one side that rounding left inside (a marker's square outline
// drawn as one line).
func insideBoxes(regs []region, b geom.Box) bool {
	for _, r := range regs {
		if len(r.paths) != 1 || !isBox(r.paths[0]) || !r.box.NonEmpty || !b.NonEmpty {
			return false
		}
		rs, bs := r.box.Size(), b.Size()
		tol := 1e-9 * max(rs.X, rs.Y, bs.X, bs.Y)
		if r.box.Min.X > b.Min.X+tol || r.box.Min.Y > b.Min.Y+tol || r.box.Max.X < b.Max.X-tol || r.box.Max.Y < b.Max.Y-tol {
			return false
		}
	}
	return true
}

// isBox tells whether p is one axis-aligned rectangle.
func isBox(p geom.Path) bool {
	if len(p) != 5 || p[0].Kind != geom.SegMove || p[4].Kind != geom.SegClose {
		return false
	}
	for i := 1; i < 4; i++ {
		if p[i].Kind != geom.SegLine {
			return false
		}
	}
	for i := range 4 {
		a, b := p[i].P[0], p[(i+1)%4].P[0]
		if a.X != b.X && a.Y != b.Y {
			return false
		}
	}
	return true
}

// clipStroke cuts the path w where it leaves the regions: clipNone, clipAll, or clipCut with
// the pieces left (open subpaths of w's own segments, each cut at the parameter where its
// chords, within a ten-thousandth of w's size, cross a region's edge), or clipFailed when the
// cut would pass MaxClipPairs.
func clipStroke(w geom.Path, regs []region) (int, geom.Path) {
	for _, r := range regs {
		if len(r.paths) == 0 {
			return clipAll, nil
		}
	}
	wb := w.Bounds()
	if insideBoxes(regs, wb) {
		return clipNone, nil
	}
	size := math.Max(wb.Max.X-wb.Min.X, wb.Max.Y-wb.Min.Y)
	tol := w.BudgetTolerance(math.Max(size*1e-4, 1e-9), geom.MaxFlattenPoints)
	var edges [][2]geom.Vec
	rings := make([][][][]geom.Vec, len(regs)) // by region, by shape: the shape's rings flattened
	for i, r := range regs {
		rsize := math.Max(r.box.Max.X-r.box.Min.X, r.box.Max.Y-r.box.Min.Y)
		rings[i] = make([][][]geom.Vec, len(r.paths))
		for k, p := range r.paths {
			for _, pl := range p.Flatten(math.Max(rsize*1e-4, 1e-9)) {
				rings[i][k] = append(rings[i][k], pl.Points)
				for n := range pl.Points {
					edges = append(edges, [2]geom.Vec{pl.Points[n], pl.Points[(n+1)%len(pl.Points)]})
				}
			}
		}
	}
	if w.FlattenPoints(tol)*len(edges) > MaxClipPairs {
		return clipFailed, nil
	}
	in := func(q geom.Vec) bool {
		for i := range regs {
			hit := false
			// A region is the union of its shapes, each filled by nonzero.
			for k := 0; k < len(rings[i]) && !hit; k++ {
				hit = winding(q, rings[i][k]) != 0
			}
			if !hit {
				return false
			}
		}
		return true
	}
	var out geom.Path
	cut, joined := false, false // joined: the last piece ends where the next segment starts
	var start, cur geom.Vec
	// first is where the subpath's first piece starts in out, -1 before one; whole tells
	// that it starts at the subpath's start, so that a closed subpath's last piece, ending
	// there, runs on into it.
	first, whole, closed := -1, false, false
	endSubpath := func() {
		if closed && joined && whole && first >= 0 {
			if k := slices.IndexFunc(out[first+1:], func(s geom.Seg) bool { return s.Kind == geom.SegMove }); k >= 0 {
				head := slices.Clone(out[first+1 : first+1+k])
				out = append(slices.Delete(out, first, first+1+k), head...)
			}
		}
		first, whole, closed, joined = -1, false, false, false
	}
	each := func(s geom.Seg, from geom.Vec) {
		n := max(1, geom.Path{{Kind: geom.SegMove, P: [3]geom.Vec{from}}, s}.FlattenPoints(tol)-1)
		if s.Kind == geom.SegLine {
			n = 1
		}
		ts := []float64{0, 1}
		prev := from
		for k := 1; k <= n; k++ {
			t1 := float64(k) / float64(n)
			next := segPoint(s, from, t1)
			for _, e := range edges {
				if f, ok := crossing(prev, next, e[0], e[1]); ok {
					ts = append(ts, refine(s, from, e, float64(k-1)/float64(n), t1, (float64(k-1)+f)/float64(n)))
				}
			}
			prev = next
		}
		slices.Sort(ts)
		for j := 0; j+1 < len(ts); j++ {
			t0, t1 := ts[j], ts[j+1]
			if t1-t0 <= 1e-12 {
				continue
			}
			if !in(segPoint(s, from, (t0+t1)/2)) {
				cut, joined = true, false
				continue
			}
			if !joined || t0 > 1e-12 {
				if first < 0 {
					first, whole = len(out), from == start && t0 <= 1e-12
				}
				out.MoveTo(segPoint(s, from, t0))
			}
			out = append(out, subSeg(s, from, t0, t1))
			joined = t1 >= 1-1e-12
		}
	}
	for _, s := range w {
		switch s.Kind {
		case geom.SegMove:
			endSubpath()
			start, cur = s.P[0], s.P[0]
			continue
		case geom.SegClose:
			if start.Sub(cur).Len() > 1e-9*(1+start.Len()) {
				each(geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{start}}, cur)
			}
			cur, closed = start, true
			continue
		case geom.SegArc:
			if a := s.ArcPoint(s.T0); a.Sub(cur).Len() > 1e-9*(1+a.Len()) {
				each(geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{a}}, cur)
			}
		}
		each(s, cur)
		cur = s.End()
	}
	endSubpath()
	switch {
	case !cut:
		return clipNone, nil
	case len(out) == 0:
		return clipAll, nil
	}
	return clipCut, out
}

// refine is where segment s (starting at from) crosses the line of edge e between
// parameters t0 and t1, found by halving from the chord's estimate guess: exact where the
// chord is not.
func refine(s geom.Seg, from geom.Vec, e [2]geom.Vec, t0, t1, guess float64) float64 {
	side := func(t float64) float64 { return cross(e[0], e[1], segPoint(s, from, t)) }
	a, b := side(t0), side(t1)
	if s.Kind == geom.SegLine || a == 0 || b == 0 || (a > 0) == (b > 0) {
		return guess
	}
	for range 50 {
		m := (t0 + t1) / 2
		if v := side(m); (v > 0) == (a > 0) {
			t0 = m
		} else {
			t1 = m
		}
	}
	return (t0 + t1) / 2
}

// segPoint is the point of segment s, starting at from, at parameter t in 0..1.
func segPoint(s geom.Seg, from geom.Vec, t float64) geom.Vec {
	switch s.Kind {
	case geom.SegQuad:
		return lerp(lerp(from, s.P[0], t), lerp(s.P[0], s.P[1], t), t)
	case geom.SegCubic:
		a, b, c := lerp(from, s.P[0], t), lerp(s.P[0], s.P[1], t), lerp(s.P[1], s.P[2], t)
		return lerp(lerp(a, b, t), lerp(b, c, t), t)
	case geom.SegArc:
		return s.ArcPoint(s.T0 + (s.T1-s.T0)*t)
	}
	return lerp(from, s.P[0], t)
}

// subSeg is the part of segment s (starting at from) between parameters t0 and t1, exact:
// a line's, a Bézier's by de Casteljau, an arc's by its angles.
func subSeg(s geom.Seg, from geom.Vec, t0, t1 float64) geom.Seg {
	switch s.Kind {
	case geom.SegQuad:
		// The first part up to t1 (t1 > t0 >= 0), then its part from t0/t1.
		q1, q2 := lerp(from, s.P[0], t1), segPoint(s, from, t1)
		return geom.Seg{Kind: geom.SegQuad, P: [3]geom.Vec{lerp(q1, q2, t0/t1), q2}}
	case geom.SegCubic:
		a, b, c := lerp(from, s.P[0], t1), lerp(s.P[0], s.P[1], t1), lerp(s.P[1], s.P[2], t1)
		d := lerp(a, b, t1)
		p1, p2, p3 := a, d, lerp(d, lerp(b, c, t1), t1)
		u := t0 / t1
		b, c = lerp(p1, p2, u), lerp(p2, p3, u)
		return geom.Seg{Kind: geom.SegCubic, P: [3]geom.Vec{lerp(b, c, u), c, p3}}
	case geom.SegArc:
		d := s.T1 - s.T0
		s.T0, s.T1 = s.T0+d*t0, s.T0+d*t1
		return s
	}
	return geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{segPoint(s, from, t1)}}
}

// winding is the winding number about q of closed rings.
func winding(q geom.Vec, rings [][]geom.Vec) int {
	w := 0
	for _, r := range rings {
		for i := range r {
			a, b := r[i], r[(i+1)%len(r)]
			switch {
			case a.Y <= q.Y && b.Y > q.Y && cross(a, b, q) > 0:
				w++
			case a.Y > q.Y && b.Y <= q.Y && cross(a, b, q) < 0:
				w--
			}
		}
	}
	return w
}

func cross(a, b, q geom.Vec) float64 { return (b.X-a.X)*(q.Y-a.Y) - (q.X-a.X)*(b.Y-a.Y) }

func lerp(a, b geom.Vec, t float64) geom.Vec {
	return geom.Vec{X: a.X + (b.X-a.X)*t, Y: a.Y + (b.Y-a.Y)*t}
}

// crossing is where segment a-b crosses segment c-d, as a fraction of a-b; false when they
// do not cross or are parallel.
func crossing(a, b, c, d geom.Vec) (float64, bool) {
	if math.Max(a.X, b.X) < math.Min(c.X, d.X) || math.Min(a.X, b.X) > math.Max(c.X, d.X) ||
		math.Max(a.Y, b.Y) < math.Min(c.Y, d.Y) || math.Min(a.Y, b.Y) > math.Max(c.Y, d.Y) {
		return 0, false
	}
	r, s := b.Sub(a), d.Sub(c)
	den := r.X*s.Y - r.Y*s.X
	if den == 0 {
		return 0, false
	}
	ca := c.Sub(a)
	t := (ca.X*s.Y - ca.Y*s.X) / den
	u := (ca.X*r.Y - ca.Y*r.X) / den
	if t <= 0 || t >= 1 || u < 0 || u > 1 {
		return 0, false
	}
	return t, true
}

// clipped is shape item it (its outline w in the coordinates it is drawn in) cut to the
// clip regions being converted: as it is, nothing, or its fill cut by the module's booleans
// and its stroke cut here, a group of the two when it has both.
func (c *converter) clipped(e *element, it *Item, w geom.Path) ([]*Item, error) {
	regs := near(c.clips, w.Bounds())
	if it.Fill == nil && it.Stroke == nil {
		return c.made(it)
	}
	fill, stroke := clipNone, clipNone
	var err error
	if it.Fill != nil {
		if fill, err = c.clipFill(w, regs); fill == clipFailed {
			c.skip(e.name, fmt.Sprintf("clip-path not applied to the fill: %v", err))
		}
	}
	var pieces, along geom.Path
	// A stroke's caps at the cuts are SVG's where it is solid: dashes, each capped, keep the
	// path's caps, as before.
	caps := it.Width > 0 && (it.Linetype == "" || it.Cap == scene.CapButt)
	squared := caps && it.Cap == scene.CapSquare
	if it.Stroke != nil {
		along = w
		if squared {
			along = extendEnds(w, it.Width/2)
		}
		if stroke, pieces = clipStroke(along, regs); stroke == clipFailed {
			c.skip(e.name, fmt.Sprintf("clip-path not applied to the stroke: cutting it would pass %d segment pairs (MaxClipPairs)", MaxClipPairs))
		}
		if stroke == clipNone && it.Width > 0 && bandPasses(w, it.Width, regs) {
			c.skip(e.name, "a stroke within half its width of a clip's edge is drawn whole, where SVG cuts its band at the edge")
		}
	}
	if err := c.inTime(e.line); err != nil {
		return nil, err
	}
	if (fill == clipNone || fill == clipFailed) && (stroke == clipNone || stroke == clipFailed) {
		return c.made(it)
	}
	var parts []*Item
	if it.Fill != nil && fill != clipAll {
		f := *it
		f.Stroke, f.Width, f.Linetype, f.LinetypeScale = nil, 0, "", 0
		if fill == clipCut {
			if f.Prim.Call == "drawBezier" || f.Prim.Call == "drawLine" {
				f.Prim = Prim{Call: "drawBezier", Path: pathString(closeAll(w))}
			}
			for _, r := range regs {
				f.Clips = append(f.Clips, Clip{Shapes: r.prims})
			}
		}
		parts = append(parts, &f)
	}
	if it.Stroke != nil && stroke != clipAll {
		s := *it
		s.Fill = nil
		switch {
		case stroke == clipCut && caps:
			var ends []geom.Vec
			for _, sub := range splitSubpaths(along) {
				if open, a, b := openSub(sub); open {
					ends = append(ends, a, b)
				}
			}
			strokes, oblique := cutCaps(s, pieces, ends, regs, squared)
			if oblique {
				c.skip(e.name, "a stroke cut aslant by a clip-path's edge ends square across itself, where SVG ends it along the edge")
			}
			parts = append(parts, strokes...)
		case stroke == clipCut:
			s.Prim = Prim{Call: "drawBezier", Path: pathString(pieces)}
			if it.Width > 0 {
				c.skip(e.name, "a dashed stroke cut by a clip-path keeps its caps at the cut, where SVG cuts it along the clip's edge")
			}
			parts = append(parts, &s)
		default:
			parts = append(parts, &s)
		}
	}
	switch len(parts) {
	case 0:
		return nil, nil
	case 1:
		return c.made(parts[0])
	}
	for _, p := range parts {
		p.ID = ""
		if err := c.written(p); err != nil {
			return nil, err
		}
		c.drawn++
	}
	return c.made(&Item{Kind: Group, Element: e.name, Line: e.line, ID: label(e), Children: parts})
}

// contains tells whether box a holds box b.
func contains(a, b geom.Box) bool {
	return a.NonEmpty && b.NonEmpty && a.Min.X <= b.Min.X && a.Min.Y <= b.Min.Y && a.Max.X >= b.Max.X && a.Max.Y >= b.Max.Y
}

// overlaps tells whether boxes a and b meet.
func overlaps(a, b geom.Box) bool {
	return a.NonEmpty && b.NonEmpty && a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}

// near is regs with each region that is one axis-aligned box cut down to the part of it near
// the box b (b grown by its size on each side): the same cut of what lies in b, where a box
// far larger than the shape (a viewport of 1e12, a plot's clip) would leave the booleans,
// whose precision is of the largest coordinate, nothing of a small shape.
func near(regs []region, b geom.Box) []region {
	if !b.NonEmpty {
		return regs
	}
	size := b.Size()
	pad := max(size.X, size.Y, 1e-9*max(math.Abs(b.Min.X), math.Abs(b.Min.Y), math.Abs(b.Max.X), math.Abs(b.Max.Y), 1))
	grown := geom.Box{NonEmpty: true, Min: b.Min.Sub(geom.Vec{X: pad, Y: pad}), Max: b.Max.Add(geom.Vec{X: pad, Y: pad})}
	var out []region
	for i, r := range regs {
		if len(r.paths) != 1 || !isBox(r.paths[0]) || contains(grown, r.box) {
			continue
		}
		if out == nil {
			out = slices.Clone(regs)
		}
		k := meet(r.box, grown)
		if !k.NonEmpty {
			out[i] = region{box: r.box} // misses b: an empty region, which leaves nothing
			continue
		}
		out[i] = frame(geom.Identity, k.Min.X, k.Min.Y, k.Max.X-k.Min.X, k.Max.Y-k.Min.Y)
	}
	if out == nil {
		return regs
	}
	return out
}

// bandPasses tells whether the band a stroke of width paints along path w, which lies inside
// the regions, passes the edge of one that is a box (a viewport, a plot's frame): the path is
// not cut, but SVG cuts the band. Other regions are not looked at.
func bandPasses(w geom.Path, width float64, regs []region) bool {
	b := w.Bounds()
	if !b.NonEmpty {
		return false
	}
	h := geom.Vec{X: width / 2, Y: width / 2}
	band := geom.Box{NonEmpty: true, Min: b.Min.Sub(h), Max: b.Max.Add(h)}
	for _, r := range regs {
		if len(r.paths) == 1 && isBox(r.paths[0]) && !contains(r.box, band) {
			return true
		}
	}
	return false
}
