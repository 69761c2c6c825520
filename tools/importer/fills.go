package importer

// Filled areas: SOLID and TRACE (three or four corners), 3DFACE when it lies flat, and HATCH
// (boundary paths of polylines or of line, arc, ellipse and spline edges). A fill becomes
// setHatch(name, 'solid'), which paints in the entity's stroke colour as a CAD program paints
// a SOLID in the entity's colour, and exports back to DXF as a solid HATCH. A HATCH's pattern
// is kept when cadrun has one of that name (drafting.HatchPatterns), with its angle and scale.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/tools/importer/dxf"
)

// Caps on one HATCH's boundary; a file over them is refused naming the cap (docs/limits.md).
const (
	// MaxHatchPaths is the most boundary paths one HATCH may have.
	MaxHatchPaths = 10_000
	// MaxHatchEdges is the most edges (or polyline vertices) one boundary path may have.
	MaxHatchEdges = 100_000
)

// corners reads the points in groups 10/20 to 13/23; four is false when the fourth is
// missing or repeats the third.
func corners(e *dxf.Entity) (pts [4]vec, four bool, err error) {
	for i := range 4 {
		if pts[i].x, err = e.Num(10+i, 0); err != nil {
			return pts, false, err
		}
		if pts[i].y, err = e.Num(20+i, 0); err != nil {
			return pts, false, err
		}
	}
	_, has4 := e.First(13)
	if !has4 {
		pts[3] = pts[2]
	}
	for _, p := range pts {
		if err := checkNums("a corner's coordinate", p.x, p.y); err != nil {
			return pts, false, err
		}
	}
	return pts, pts[3] != pts[2], nil
}

// polygonCall writes drawPolygon over the points, mirrored in x when flip.
func polygonCall(name string, pts []vec, flip bool) string {
	s := make([]string, 0, 2*len(pts))
	for _, p := range pts {
		s = append(s, num(mirrorX(p.x, flip)), num(p.y))
	}
	return fmt.Sprintf("drawPolygon(%s, [%s]);", name, strings.Join(s, ", "))
}

// solid draws SOLID and TRACE as a filled polygon. Their corners come in DXF's order 1-2-4-3
// (the fourth corner is the third written), so a quadrilateral is 10, 11, 13, 12.
func (g *gen) solid(e *dxf.Entity, name string, flip bool) (string, error) {
	c, four, err := corners(e)
	if err != nil {
		return "", err
	}
	pts := []vec{c[0], c[1], c[2]}
	if four {
		pts = []vec{c[0], c[1], c[3], c[2]}
	}
	if area(pts) == 0 {
		g.skip(e.Kind, "no area (its corners are in line)")
		return "", nil
	}
	call := polygonCall(name, pts, flip)
	d := fmt.Sprintf("M %g %g L %g %g L %g %g", pts[0].x, pts[0].y, pts[1].x, pts[1].y, pts[2].x, pts[2].y)
	if len(pts) == 4 {
		d += fmt.Sprintf(" L %g %g", pts[3].x, pts[3].y)
	}
	if !fillable(d + " Z") {
		g.skip(e.Kind, "its corners cross (a bow tie), which cadrun cannot fill: the outline is kept, unfilled")
		return call, nil
	}
	return call + fmt.Sprintf("\nsetHatch(%s, 'solid');", name), nil
}

// fillable reports whether setHatch takes a path: its subpaths closed and none crossing
// itself. The module must run, so a fill the scene would refuse is left out here.
func fillable(d string) bool {
	s := scene.New()
	if _, err := s.Put("fill", &scene.PathShape{Data: d}); err != nil {
		return false
	}
	// A pattern, not solid: only a pattern clips its lines to the rings, which checks them;
	// at this scale it has few lines.
	return s.SetHatch("fill", "ansi31", 0, 1e9, nil) == nil
}

// face draws a 3DFACE that lies in a plane parallel to XY (every z the same) as the outline
// of its corners; a face in 3D has no place in a 2D drawing.
func (g *gen) face(e *dxf.Entity, name string) (string, error) {
	c, four, err := corners(e)
	if err != nil {
		return "", err
	}
	z, err := nums(e, []int{30, 31, 32, 33}, []float64{0, 0, 0, 0})
	if err != nil {
		return "", err
	}
	if _, ok := e.First(33); !ok {
		z[3] = z[2]
	}
	if z[1] != z[0] || z[2] != z[0] || z[3] != z[0] {
		g.skip(e.Kind, "not flat in a plane parallel to XY (its corners differ in z)")
		return "", nil
	}
	pts := []vec{c[0], c[1], c[2]}
	if four {
		pts = append(pts, c[3])
	}
	if area(pts) == 0 {
		g.skip(e.Kind, "no area (its corners are in line)")
		return "", nil
	}
	return polygonCall(name, pts, false), nil
}

// area is the unsigned area of a polygon.
func area(p []vec) float64 {
	a := 0.0
	for i := range p {
		q := p[(i+1)%len(p)]
		a += p[i].x*q.y - q.x*p[i].y
	}
	return math.Abs(a / 2)
}

// cursor walks a HATCH's groups in order, as its boundary data must be read.
type cursor struct {
	pairs []dxf.Pair
	i     int
	bad   bool // a group was missing where the layout needs it
}

// want reads the next group when it has the code; else it marks the data bad.
func (c *cursor) want(code int) dxf.Pair {
	if c.bad || c.i >= len(c.pairs) || c.pairs[c.i].Code != code {
		c.bad = true
		return dxf.Pair{Code: code, Value: "0"}
	}
	c.i++
	return c.pairs[c.i-1]
}

// has reports whether the next group has the code.
func (c *cursor) has(code int) bool { return !c.bad && c.i < len(c.pairs) && c.pairs[c.i].Code == code }

func (c *cursor) num(code int) (float64, error) { return dxf.Float(c.want(code)) }
func (c *cursor) int(code int) (int, error)     { return dxf.Int(c.want(code)) }

// count reads a count (code) of what a HATCH holds. A count sizes the loops that read what
// follows, so it is never trusted: one below 0 or over max is refused naming the line and
// the cap (limit). A count the data does not bear out (fewer groups follow) marks it bad.
func (c *cursor) count(code int, what string, max int, limit string) (int, error) {
	p := c.want(code)
	n, err := dxf.Int(p)
	switch {
	case err != nil || c.bad:
		return 0, err
	case n < 0 || n > max:
		return 0, fmt.Errorf("%w: line %d: a HATCH with %d %s (group %d); a count must be 0 to %d (%s)", ErrRefused, p.Line+1, n, what, code, max, limit)
	}
	return n, nil
}

// point reads groups code and code+10.
func (c *cursor) point(code int) (vec, error) {
	x, err := c.num(code)
	if err != nil {
		return vec{}, err
	}
	y, err := c.num(code + 10)
	return vec{x, y}, err
}

// skip passes groups with any of the codes.
func (c *cursor) skip(codes ...int) {
	for !c.bad && c.i < len(c.pairs) && slices.Contains(codes, c.pairs[c.i].Code) {
		c.i++
	}
}

// hatch draws a HATCH's boundary as one path (its holes are further closed subpaths, which
// the nonzero and even-odd rules alike leave out when they run against the outer one, as
// DXF's nested boundaries do) and gives it the fill or pattern.
func (g *gen) hatch(e *dxf.Entity, name string, flip bool) (string, error) {
	start := slices.IndexFunc(e.Pairs, func(p dxf.Pair) bool { return p.Code == 91 })
	if start < 0 {
		g.skip(e.Kind, "no boundary paths (group 91)")
		return "", nil
	}
	c := &cursor{pairs: e.Pairs, i: start}
	n, err := c.count(91, "boundary paths", MaxHatchPaths, "MaxHatchPaths")
	if err != nil {
		return "", err
	}
	w := &pathWriter{flip: flip, eps: 1e-9, clock: g.clock}
	for range n {
		if err := g.boundary(c, w, e.Line); err != nil {
			return "", err
		}
		w.close()
		if c.bad || w.err != nil {
			break
		}
	}
	if w.err != nil {
		return "", w.err
	}
	if c.bad {
		g.skip(e.Kind, "its boundary data is not laid out as DXF lays it out")
		return "", nil
	}
	if w.empty() {
		g.skip(e.Kind, "no boundary paths")
		return "", nil
	}
	if err := w.orient(); err != nil {
		return "", err
	}
	d, err := w.data()
	if err != nil {
		return "", err
	}
	call := fmt.Sprintf("drawBezier(%s, %s);", name, jsString(d))
	if !fillable(d) {
		g.skip(e.Kind, "its boundary crosses itself, which cadrun cannot fill or hatch: the boundary is kept, unfilled")
		return call, nil
	}
	solid, err := e.IntOr(70, 0)
	if err != nil {
		return "", err
	}
	pattern := strings.ToLower(e.Str(2, ""))
	if solid == 1 || pattern == "solid" {
		return call + fmt.Sprintf("\nsetHatch(%s, 'solid');", name), nil
	}
	if _, err := drafting.LookupHatch(pattern); err != nil {
		g.skip(e.Kind, "a pattern cadrun has not (it has "+strings.Join(drafting.HatchNames(), ", ")+"): the boundary is kept, unhatched")
		return call, nil
	}
	v, err := nums(e, []int{52, 41}, []float64{0, 1})
	if err != nil {
		return "", err
	}
	angle, scale := v[0], v[1]
	if flip {
		angle = -angle
	}
	var opts []string
	if angle != 0 {
		opts = append(opts, "angle: "+degrees(num(angle)))
	}
	if scale != 1 && scale > 0 {
		if err := checkNums("a pattern scale", scale); err != nil {
			return "", err
		}
		opts = append(opts, "scale: "+num(scale))
	}
	if len(opts) == 0 {
		return call + fmt.Sprintf("\nsetHatch(%s, '%s');", name, pattern), nil
	}
	return call + fmt.Sprintf("\nsetHatch(%s, '%s', {%s});", name, pattern, strings.Join(opts, ", ")), nil
}

// boundary reads one boundary path (group 92 on) into w.
func (g *gen) boundary(c *cursor, w *pathWriter, line int) error {
	flags, err := c.int(92)
	if err != nil {
		return err
	}
	if flags&2 != 0 { // a polyline
		bulged, err := c.int(72)
		if err != nil {
			return err
		}
		closed := 1
		if c.has(73) {
			if closed, err = c.int(73); err != nil {
				return err
			}
		}
		_ = closed // a boundary is always closed
		count, err := c.count(93, "vertices in a boundary path", MaxHatchEdges, "MaxHatchEdges")
		if err != nil {
			return err
		}
		vs := make([]vertex, 0, min(count, 64))
		for range count {
			if c.bad {
				break
			}
			p, err := c.point(10)
			if err != nil {
				return err
			}
			v := vertex{x: p.x, y: p.y}
			if bulged != 0 && c.has(42) {
				if v.bulge, err = c.num(42); err != nil {
					return err
				}
			}
			vs = append(vs, v)
		}
		g.bulgedRing(w, vs)
	} else {
		count, err := c.count(93, "edges in a boundary path", MaxHatchEdges, "MaxHatchEdges")
		if err != nil {
			return err
		}
		for range count {
			if err := g.edge(c, w, line); err != nil {
				return err
			}
			if c.bad || w.err != nil {
				break
			}
		}
	}
	c.skip(97, 330) // the source objects the boundary came from
	return nil
}

// bulgedRing draws a closed polyline with bulges (arcs as A commands, as poly does).
func (g *gen) bulgedRing(w *pathWriter, vs []vertex) {
	if len(vs) > 1 && vs[0].x == vs[len(vs)-1].x && vs[0].y == vs[len(vs)-1].y {
		vs = vs[:len(vs)-1]
	}
	if len(vs) < 2 {
		return
	}
	w.moveTo(vec{vs[0].x, vs[0].y}, true)
	for i, p := range vs {
		q := vs[(i+1)%len(vs)]
		to := vec{q.x, q.y}
		if p.bulge == 0 || p.x == q.x && p.y == q.y {
			if i < len(vs)-1 {
				w.lineTo(to, true)
			}
			continue
		}
		// bulge = tan(sweep/4); as in poly.
		b := math.Abs(p.bulge)
		r := math.Hypot(q.x-p.x, q.y-p.y) * (1 + b*b) / (4 * b)
		w.radius(r)
		large, sweep := 0, 0
		if b > 1 {
			large = 1
		}
		if p.bulge > 0 != w.flip {
			sweep = 1
		}
		// Samples for orient: the arc's midpoint, off the chord by the sagitta r·(1-cos(θ/2)),
		// θ/2 = 2·atan(b), on the side the bulge's sign gives.
		mid := vec{(p.x + q.x) / 2, (p.y + q.y) / 2}
		chord := math.Hypot(q.x-p.x, q.y-p.y)
		sag := math.Copysign(r*(1-math.Cos(2*math.Atan(b))), p.bulge) / chord
		out := vec{mid.x + (q.y-p.y)*sag, mid.y - (q.x-p.x)*sag}
		w.add(pseg{op: 'A', pts: []vec{to}, given: true, arc: bulgeRadius(r, p, q) + " " + bulgeRadius(r, p, q) + " 0", large: large, sweep: sweep, samples: []vec{out}})
	}
}

// edge reads one edge of an edge path (group 72 on) into w.
func (g *gen) edge(c *cursor, w *pathWriter, line int) error {
	kind, err := c.int(72)
	if err != nil {
		return err
	}
	switch kind {
	case 1: // line
		a, err := c.point(10)
		if err != nil {
			return err
		}
		b, err := c.point(11)
		if err != nil {
			return err
		}
		w.reach(a, true)
		w.lineTo(b, true)
	case 2, 3: // circular arc; elliptic arc
		ctr, err := c.point(10)
		if err != nil {
			return err
		}
		m, ratio := vec{}, 1.0
		if kind == 3 {
			if m, err = c.point(11); err != nil {
				return err
			}
		}
		r, err := c.num(40)
		if err != nil {
			return err
		}
		if kind == 2 {
			m = vec{r, 0}
		} else {
			ratio = r
		}
		a0, err := c.num(50)
		if err != nil {
			return err
		}
		a1, err := c.num(51)
		if err != nil {
			return err
		}
		ccw, err := c.int(73)
		if err != nil {
			return err
		}
		if !(math.Hypot(m.x, m.y) > 0) || !(ratio > 0) {
			c.bad = true
			return nil
		}
		// A clockwise edge stores its angles mirrored (360 - angle), as ezdxf reads them.
		sign := 1.0
		if ccw == 0 {
			a0, a1, sign = -a0, -a1, -1
		}
		t0, t1 := a0*math.Pi/180, a1*math.Pi/180
		if kind == 3 { // an ellipse edge's angles are angles; the arc needs parameters
			t0, t1 = math.Atan2(math.Sin(t0)/ratio, math.Cos(t0)), math.Atan2(math.Sin(t1)/ratio, math.Cos(t1))
		}
		sweep := math.Mod(sign*(t1-t0), 2*math.Pi)
		if sweep < 0 {
			sweep += 2 * math.Pi
		}
		if sweep < 1e-12 {
			sweep = 2 * math.Pi
		}
		w.ellipseArc(ctr, m, ratio, t0, sign*sweep)
	case 4: // spline
		s := &spline{}
		if s.degree, err = c.int(94); err != nil {
			return err
		}
		c.skip(73, 74) // rational and periodic: the weights and knots say as much
		nk, err := c.count(95, "knots in a spline edge", MaxSplineKnots, "MaxSplineKnots")
		if err != nil {
			return err
		}
		nc, err := c.count(96, "control points in a spline edge", MaxSplineControlPoints, "MaxSplineControlPoints")
		if err != nil {
			return err
		}
		if err := splineCaps("HATCH spline edge", line, nc, nk, s.degree); err != nil {
			return err
		}
		for range nk {
			if c.bad {
				return nil
			}
			k, err := c.num(40)
			if err != nil {
				return err
			}
			s.knots = append(s.knots, k)
		}
		for range nc {
			if c.bad {
				return nil
			}
			p, err := c.point(10)
			if err != nil {
				return err
			}
			s.ctrl = append(s.ctrl, p)
			if c.has(42) {
				wt, err := c.num(42)
				if err != nil {
					return err
				}
				s.weights = append(s.weights, wt)
			}
		}
		c.skip(97, 11, 21, 12, 22, 13, 23) // fit data, which the control points already draw
		why, err := s.check("HATCH spline edge", line)
		if err != nil {
			return err
		}
		if why != "" {
			c.bad = true
			return nil
		}
		if flat, coarse := s.draw(w); flat {
			g.note("HATCH", flatNote("a rational spline edge", coarse))
		}
	default:
		c.bad = true
	}
	return nil
}
