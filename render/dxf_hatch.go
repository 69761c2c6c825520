package render

// Hatches in the DXF. R2000 writes a shape's hatch as a HATCH entity right after the shape:
// the pattern by name with its definition lines (drafting.HatchPattern.Placed, the lines a CAD
// program draws and edits) and the shape's world outline as polyline boundary paths, circular
// arcs as bulges, so that the hatched area is the shape's exactly. R12 has no HATCH: it gets
// the pattern's segments as the pictures draw them (scene.Scene.Hatches), lines as LINEs and
// dots as POINTs, and a solid hatch as the shape's outline alone (a SOLID is a triangle or a
// quadrilateral, which fills an area with arcs only approximately). Either way the hatch is
// on the shape's layer, in the hatch's own colour or else the shape's, and the scene's
// hatches count against scene.MaxHatchSegments as in the pictures: a reader expands the
// pattern into as many lines.

import (
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// dxfHatchShape is a hatch to write: R2000's HATCH or R12's segments.
type dxfHatchShape struct {
	solid   bool
	pattern string  // the DXF pattern name: SOLID, ANSI31, ANSI37, DOTS
	angle   float64 // the pattern's angle in degrees
	scale   float64 // never 0
	lines   []drafting.HatchLine
	loops   []dxfLoop
	// segments are R12's lines and dots (both ends equal).
	segments [][2]geom.Vec
}

// dxfLoop is a boundary path of a HATCH: a closed polyline with bulges.
type dxfLoop struct {
	pts []dxfVertex
	// external is set for a loop inside an even number of others (an outer boundary, not a
	// hole), which DXF marks in the path's flags.
	external bool
}

// DXF boundary path flags (group code 92).
const (
	dxfLoopExternal = 1
	dxfLoopPolyline = 2
)

// addHatch adds the hatch of the painted shape it, if the scene hatches it, after the shape's
// own entities. st is the shape's drawn style; layer and color are the shape's.
func (d *dxfDoc) addHatch(it scene.Item, st scene.Style, layer, color int) {
	h, ok := d.hatches[it.Entity]
	if !ok || d.version == DXF12 && (h.Solid || len(h.Segments) == 0) {
		return
	}
	if st.HatchColor != nil {
		color = nearestACI(*st.HatchColor)
	}
	hs := &dxfHatchShape{solid: h.Solid, pattern: strings.ToUpper(h.Pattern), angle: h.Angle * 180 / math.Pi, scale: h.Scale}
	if d.version == DXF12 {
		hs.segments = h.Segments
	} else {
		if hs.loops = d.hatchLoops(it.Path); len(hs.loops) == 0 {
			return
		}
		if !h.Solid {
			pat, err := drafting.LookupHatch(h.Pattern)
			if err != nil {
				return // Hatches has looked it up already
			}
			hs.lines = pat.Placed(h.Angle, h.Scale)
		}
	}
	sh := dxfShape{kind: dxfHatch, layer: layer, color: color, hatch: hs}
	if d.layers[layer].linetype != "" {
		// Pattern lines are drawn whole: the layer's dashes would cut them.
		sh.linetype = "CONTINUOUS"
		if d.version == DXF2000 {
			sh.linetype = "Continuous"
		}
	}
	d.shapes = append(d.shapes, sh)
}

// hatchLoops are the closed subpaths of a world outline as boundary paths, each marked
// external or not by how many of the others hold its first vertex.
func (d *dxfDoc) hatchLoops(p geom.Path) []dxfLoop {
	var loops []dxfLoop
	start := 0
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i].Kind != geom.SegMove {
			continue
		}
		pts, _ := d.vertices(p[start:i])
		start = i
		if n := len(pts); n > 2 && d.near(pts[n-1].p, pts[0].p) {
			pts = pts[:n-1] // a closed outline without a closing segment
		}
		if len(pts) > 2 || len(pts) == 2 && (pts[0].bulge != 0 || pts[1].bulge != 0) {
			loops = append(loops, dxfLoop{pts: pts})
		}
	}
	rings := make([][]geom.Vec, len(loops))
	for i, l := range loops {
		rings[i] = chordRing(l.pts)
	}
	for i := range loops {
		depth := 0
		for j, r := range rings {
			if j != i && insideRing(loops[i].pts[0].p, r) {
				depth++
			}
		}
		loops[i].external = depth%2 == 0
	}
	return loops
}

// chordRing is a loop's vertices with the midpoint of each arc added: close enough to the
// loop to tell which loops lie inside which, as loops of one area do not cross.
func chordRing(pts []dxfVertex) []geom.Vec {
	ring := make([]geom.Vec, 0, 2*len(pts))
	for i, v := range pts {
		ring = append(ring, v.p)
		if v.bulge != 0 {
			q := pts[(i+1)%len(pts)].p
			c := q.Sub(v.p)
			// The arc's middle is the sagitta, bulge times half the chord, to the chord's
			// right for a counter-clockwise arc.
			ring = append(ring, v.p.Add(q).Mul(0.5).Add(geom.Vec{X: c.Y, Y: -c.X}.Mul(v.bulge/2)))
		}
	}
	return ring
}

// insideRing reports whether p is inside the ring, by the even-odd rule.
func insideRing(p geom.Vec, ring []geom.Vec) bool {
	in := false
	for i, a := range ring {
		b := ring[(i+1)%len(ring)]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < a.X+(p.Y-a.Y)/(b.Y-a.Y)*(b.X-a.X) {
			in = !in
		}
	}
	return in
}

// hatch writes a hatch: R2000's HATCH entity, or R12's LINEs and POINTs.
func (w *dxfWriter) hatch(sh *dxfShape, layer string) {
	h := sh.hatch
	if !w.r2000 {
		for _, s := range h.segments {
			if s[0] == s[1] {
				w.entity("POINT", layer, sh.color, sh.linetype, "")
				w.point(s[0])
				continue
			}
			w.entity("LINE", layer, sh.color, sh.linetype, "")
			w.point(s[0])
			w.pointAt(11, s[1])
		}
		return
	}
	w.entity("HATCH", layer, sh.color, sh.linetype, "AcDbHatch")
	w.point(geom.Vec{}) // the elevation point
	w.tag(210, "0.0")
	w.tag(220, "0.0")
	w.tag(230, "1.0")
	w.tag(2, h.pattern)
	w.int(70, boolInt(h.solid))
	w.int(71, 0) // not associative: no source objects
	w.int(91, len(h.loops))
	for _, l := range h.loops {
		w.hatchLoop(l)
	}
	w.int(75, 0) // odd parity: holes inside holes are hatched again
	w.int(76, 1) // predefined: acad.pat's pattern of that name
	if !h.solid {
		w.angle(52, normDegrees(h.angle))
		w.real(41, h.scale, 1e-9, 9)
		w.int(77, 0)
		w.hatchLines(h.lines)
	}
	w.int(98, 0) // no seed points: the boundary paths say where the hatch is
}

// hatchLoop writes a boundary path: a closed polyline, with a bulge for every vertex when
// any has one.
func (w *dxfWriter) hatchLoop(l dxfLoop) {
	flags := dxfLoopPolyline
	if l.external {
		flags |= dxfLoopExternal
	}
	bulges := false
	for _, v := range l.pts {
		bulges = bulges || v.bulge != 0
	}
	w.int(92, flags)
	w.int(72, boolInt(bulges))
	w.int(73, 1)
	w.int(93, len(l.pts))
	for _, v := range l.pts {
		w.coord(10, v.p.X)
		w.coord(20, v.p.Y)
		if bulges {
			w.angle(42, v.bulge)
		}
	}
	w.int(97, 0)
}

// hatchLines writes the pattern definition lines. The offset from one line to the next is
// given in the pattern's own frame (along, across); DXF holds it in the drawing's, turned by
// the line's angle.
func (w *dxfWriter) hatchLines(lines []drafting.HatchLine) {
	w.int(78, len(lines))
	for _, l := range lines {
		off := geom.Rotation(l.Angle * math.Pi / 180).Apply(l.Offset)
		w.angle(53, normDegrees(l.Angle))
		w.real(43, l.Base.X, 1e-9, 9)
		w.real(44, l.Base.Y, 1e-9, 9)
		w.real(45, off.X, 1e-9, 9)
		w.real(46, off.Y, 1e-9, 9)
		w.int(79, len(l.Dashes))
		for _, v := range l.Dashes {
			w.real(49, v, 1e-9, 9)
		}
	}
}

// boolInt is 1 for true, 0 for false, as DXF flags are written.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
