package importer

// ELLIPSE and SPLINE, and the path data both share with HATCH boundaries. cadrun's paths hold
// elliptical arcs and Béziers exactly, so an ellipse becomes SVG A commands (or drawEllipse
// when whole) and a non-rational spline of degree 3 or less its Bézier pieces: inserting every
// knot until it is as many times as the degree (Boehm's knot insertion to full multiplicity,
// done per span as de Boor's algorithm on the blossom) turns each span into one Bézier of the
// same degree, the same curve to the last bit of rounding. A rational spline (weights other
// than 1) or one of higher degree has no Bézier form in cadrun and is flattened to lines
// within SplineTolerance.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/importer/dxf"
)

// Caps on what one SPLINE (or a HATCH's spline edge) may ask for; a file over them is refused
// naming the cap (docs/limits.md).
const (
	// MaxSplineControlPoints is the most control points one spline may have.
	MaxSplineControlPoints = 5000
	// MaxSplineKnots is the most knots one spline may have.
	MaxSplineKnots = MaxSplineControlPoints + 11
	// MaxSplineDegree is the highest degree a spline may have.
	MaxSplineDegree = 10
)

// SplineTolerance is how far a flattened spline (rational, or of degree over 3) may stray
// from the true curve, as a fraction of the size of its control polygon's bounding box.
const SplineTolerance = 1e-5

// vec is a point in the entity's coordinates.
type vec struct{ x, y float64 }

func (a vec) add(b vec) vec     { return vec{a.x + b.x, a.y + b.y} }
func (a vec) mul(k float64) vec { return vec{a.x * k, a.y * k} }
func (a vec) near(b vec, e float64) bool {
	return math.Abs(a.x-b.x) <= e && math.Abs(a.y-b.y) <= e
}

// pathWriter writes SVG path data from points in the entity's coordinates, mirrored in x when
// the entity is seen from below. Points the file gives are written as given (num), points
// worked out as derived. It holds the segments until String, so that a HATCH can turn its
// rings to the direction its holes need (orient).
type pathWriter struct {
	flip    bool
	subs    [][]pseg // subpaths, each opening with its M
	closed  []bool
	started bool
	cur     vec
	eps     float64 // how close two points must be to count as one
	// segs counts the segments (moves and closes included, as the scene counts them);
	// clock is the import's MaxTime. Past geom.MaxPathSegments, past the clock or at a point
	// outside MaxCoord, err holds why and the caller refuses the entity.
	segs  int
	clock *budget
	err   error
	tests int // point-in-ring tests orient made: its work, for the tests
}

// pseg is one command: op (M, L, A, Q or C), its points (the end last), whether the file gave
// them, and for A its radii and rotation ("rx ry rot"), large-arc flag and sweep flag.
type pseg struct {
	op      byte
	pts     []vec
	given   bool
	arc     string
	large   int
	sweep   int
	samples []vec // points along the segment, for orient
}

func (w *pathWriter) pt(p vec, given bool) string {
	f := derived
	if given {
		f = num
	}
	return f(mirrorX(p.x, w.flip)) + " " + f(p.y)
}

func (w *pathWriter) add(s pseg) {
	w.subs[len(w.subs)-1] = append(w.subs[len(w.subs)-1], s)
	w.cur = s.pts[len(s.pts)-1]
	if w.err != nil {
		return
	}
	w.segs++
	for _, p := range s.pts {
		if !inCoordRange(p.x) || !inCoordRange(p.y) {
			w.err = entityError(fmt.Sprintf("a point (%s, %s) %s", fmtNum(p.x), fmtNum(p.y), outsideMaxCoord))
			return
		}
	}
	if w.segs > geom.MaxPathSegments {
		w.err = entityError(fmt.Sprintf("its path would be over %d segments (MaxPathSegments); simplify it, or split it in the program that drew it", geom.MaxPathSegments))
		return
	}
	w.err = w.clock.step()
}

// radius refuses an arc's radius outside MaxCoord, as add refuses a point.
func (w *pathWriter) radius(r float64) {
	if w.err == nil && !inCoordRange(r) {
		w.err = checkNums("a radius", r)
	}
}

// moveTo starts a subpath.
func (w *pathWriter) moveTo(p vec, given bool) {
	w.subs = append(w.subs, nil)
	w.closed = append(w.closed, false)
	w.started = true
	w.add(pseg{op: 'M', pts: []vec{p}, given: given})
}

// reach starts a subpath at p, or draws a line to p when the current point is elsewhere (an
// edge that does not start where the last ended).
func (w *pathWriter) reach(p vec, given bool) {
	switch {
	case !w.started:
		w.moveTo(p, given)
	case !w.cur.near(p, w.eps):
		w.lineTo(p, given)
	case w.cur != p:
		w.snap(p, given)
	}
}

// snap moves the end of the last segment onto p, a point within eps of it: an edge computed
// from angles ends a rounding error away from where the next starts, and a ring that touches
// itself in a sliver cannot be filled.
func (w *pathWriter) snap(p vec, given bool) {
	sub := w.subs[len(w.subs)-1]
	last := &sub[len(sub)-1]
	last.pts[len(last.pts)-1] = p
	last.given = last.given && given
	w.cur = p
}

func (w *pathWriter) lineTo(p vec, given bool) { w.add(pseg{op: 'L', pts: []vec{p}, given: given}) }

// close ends the subpath with Z.
func (w *pathWriter) close() {
	if w.started {
		w.segs++ // Z
		w.closed[len(w.closed)-1] = true
		sub := w.subs[len(w.subs)-1]
		if start := sub[0].pts[0]; len(sub) > 1 && w.cur.near(start, w.eps) {
			w.snap(start, sub[0].given)
		}
	}
	w.started = false
}

// empty reports whether nothing was drawn.
func (w *pathWriter) empty() bool { return len(w.subs) == 0 }

// data is the path data, or why it cannot be drawn: a refusal add noted, or data over
// geom.MaxPathDataBytes, which the scene would refuse.
func (w *pathWriter) data() (string, error) {
	if w.err != nil {
		return "", w.err
	}
	d := w.String()
	if len(d) > geom.MaxPathDataBytes {
		return "", entityError(fmt.Sprintf("its path data would be %d bytes, over %d (MaxPathDataBytes); simplify it, or split it in the program that drew it", len(d), geom.MaxPathDataBytes))
	}
	return d, nil
}

// String is the path data.
func (w *pathWriter) String() string {
	var b strings.Builder
	for i, sub := range w.subs {
		for _, s := range sub {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(s.op)
			if s.op == 'A' {
				fmt.Fprintf(&b, " %s %d %d", s.arc, s.large, s.sweep)
			}
			for _, p := range s.pts {
				b.WriteString(" " + w.pt(p, s.given))
			}
		}
		if w.closed[i] {
			b.WriteString(" Z")
		}
	}
	return b.String()
}

// orient turns the closed subpaths so that they fill as DXF fills a HATCH, by the even-odd
// rule, under cadrun's nonzero rule: a ring inside an even number of others runs
// counter-clockwise (as drawn, after the mirror), one inside an odd number clockwise.
//
// A ring's depth is how many others hold its first point. Only a ring whose bounding box
// holds the point can, so the rings are filed by box in a grid about as many cells as rings,
// and each point is tested against the rings of its own cell whose box holds it: near-linear
// for rings side by side, as a HATCH of many holes has them. Rings nested in each other are
// tested against all that hold them, as they must be; the clock bounds that.
func (w *pathWriter) orient() error {
	rings := make([][]vec, len(w.subs))
	boxes := make([]bbox, len(w.subs))
	all := emptyBBox()
	for i, sub := range w.subs {
		for _, s := range sub {
			rings[i] = append(rings[i], s.samples...)
			rings[i] = append(rings[i], s.pts[len(s.pts)-1])
		}
		boxes[i] = boxOf(rings[i])
		if w.closed[i] {
			all = all.union(boxes[i])
		}
	}
	grid := newRingGrid(all, len(rings))
	for i := range rings {
		if w.closed[i] {
			if err := grid.file(i, boxes[i], w.clock); err != nil {
				return err
			}
		}
	}
	for i, r := range rings {
		if !w.closed[i] || len(r) < 3 {
			continue
		}
		depth := 0
		for _, j := range grid.at(r[0]) {
			if j == i || !boxes[j].holds(r[0]) {
				continue
			}
			w.tests++
			if err := w.clock.step(); err != nil {
				return err
			}
			if inside(rings[j], r[0]) {
				depth++
			}
		}
		ccw := signedArea(r) > 0 != w.flip
		if ccw != (depth%2 == 0) {
			w.subs[i] = reversed(w.subs[i])
		}
	}
	return nil
}

// bbox is an axis-aligned bounding box.
type bbox struct{ lo, hi vec }

func emptyBBox() bbox { return bbox{vec{math.Inf(1), math.Inf(1)}, vec{math.Inf(-1), math.Inf(-1)}} }

func boxOf(ps []vec) bbox {
	b := emptyBBox()
	for _, p := range ps {
		b = b.union(bbox{p, p})
	}
	return b
}

func (b bbox) union(o bbox) bbox {
	return bbox{vec{math.Min(b.lo.x, o.lo.x), math.Min(b.lo.y, o.lo.y)}, vec{math.Max(b.hi.x, o.hi.x), math.Max(b.hi.y, o.hi.y)}}
}

func (b bbox) holds(p vec) bool {
	return p.x >= b.lo.x && p.x <= b.hi.x && p.y >= b.lo.y && p.y <= b.hi.y
}

// maxGridSide caps the ring grid at maxGridSide² cells.
const maxGridSide = 1024

// ringGrid files rings by the cells their boxes cover.
type ringGrid struct {
	all   bbox
	side  int
	cells [][]int
}

// newRingGrid is a grid over all of about n cells.
func newRingGrid(all bbox, n int) *ringGrid {
	side := min(max(1, int(math.Ceil(math.Sqrt(float64(n))))), maxGridSide)
	return &ringGrid{all: all, side: side, cells: make([][]int, side*side)}
}

// cell is the column or row of v along [lo, hi], clamped to the grid.
func (g *ringGrid) cell(v, lo, hi float64) int {
	if !(hi > lo) {
		return 0
	}
	k := int((v - lo) / (hi - lo) * float64(g.side))
	return min(max(k, 0), g.side-1)
}

// file puts ring i into every cell its bbox b covers.
func (g *ringGrid) file(i int, b bbox, clock *budget) error {
	x0, x1 := g.cell(b.lo.x, g.all.lo.x, g.all.hi.x), g.cell(b.hi.x, g.all.lo.x, g.all.hi.x)
	y0, y1 := g.cell(b.lo.y, g.all.lo.y, g.all.hi.y), g.cell(b.hi.y, g.all.lo.y, g.all.hi.y)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			g.cells[y*g.side+x] = append(g.cells[y*g.side+x], i)
			if err := clock.step(); err != nil {
				return err
			}
		}
	}
	return nil
}

// at is the rings filed in p's cell.
func (g *ringGrid) at(p vec) []int {
	if !g.all.holds(p) {
		return nil
	}
	x, y := g.cell(p.x, g.all.lo.x, g.all.hi.x), g.cell(p.y, g.all.lo.y, g.all.hi.y)
	return g.cells[y*g.side+x]
}

// reversed is a subpath run backwards.
func reversed(sub []pseg) []pseg {
	out := []pseg{{op: 'M', pts: []vec{sub[len(sub)-1].pts[len(sub[len(sub)-1].pts)-1]}, given: sub[len(sub)-1].given}}
	for i := len(sub) - 1; i > 0; i-- {
		s, from := sub[i], sub[i-1].pts[len(sub[i-1].pts)-1]
		r := pseg{op: s.op, given: s.given && sub[i-1].given, arc: s.arc, large: s.large, sweep: 1 - s.sweep}
		r.pts = append(slices.Clone(s.pts[:len(s.pts)-1]), from)
		slices.Reverse(r.pts[:len(r.pts)-1])
		r.samples = slices.Clone(s.samples)
		slices.Reverse(r.samples)
		out = append(out, r)
	}
	return out
}

func signedArea(p []vec) float64 {
	a := 0.0
	for i := range p {
		q := p[(i+1)%len(p)]
		a += p[i].x*q.y - q.x*p[i].y
	}
	return a / 2
}

// inside reports whether p is inside the ring (even-odd).
func inside(ring []vec, p vec) bool {
	in := false
	for i := range ring {
		a, b := ring[i], ring[(i+1)%len(ring)]
		if (a.y > p.y) != (b.y > p.y) && p.x < a.x+(p.y-a.y)*(b.x-a.x)/(b.y-a.y) {
			in = !in
		}
	}
	return in
}

// ellipseArc draws the arc of the ellipse with centre c, major semi-axis m and minor/major
// ratio from parameter t0 through the signed sweep (radians; positive counter-clockwise), as
// one A command, or two for a whole turn (an A command cannot go all the way round).
func (w *pathWriter) ellipseArc(c, m vec, ratio, t0, sweep float64) {
	mn := vec{-m.y * ratio, m.x * ratio}
	at := func(t float64) vec {
		s, co := math.Sincos(t)
		return c.add(m.mul(co)).add(mn.mul(s))
	}
	w.reach(at(t0), false)
	a := math.Hypot(m.x, m.y)
	w.radius(a)
	w.radius(a * ratio) // a HATCH's ellipse edge may give a ratio over 1
	rot := math.Atan2(m.y, mirrorX(m.x, w.flip)) * 180 / math.Pi
	n := 1
	if math.Abs(sweep) > 2*math.Pi-1e-9 {
		n = 2
	}
	step := sweep / float64(n)
	for i := 1; i <= n; i++ {
		large := 0
		if math.Abs(step) > math.Pi {
			large = 1
		}
		ccw := step > 0
		if w.flip {
			ccw = !ccw // mirrored, the arc turns the other way
		}
		s := 0
		if ccw {
			s = 1
		}
		var samples []vec
		for k := 1; k < 8; k++ {
			samples = append(samples, at(t0+step*(float64(i-1)+float64(k)/8)))
		}
		w.add(pseg{op: 'A', pts: []vec{at(t0 + step*float64(i))}, arc: derived(a) + " " + derived(a*ratio) + " " + derived(rot), large: large, sweep: s, samples: samples})
	}
}

// bezier draws one Bézier piece of degree len(p)-1 (1 to 3) from the current point.
func (w *pathWriter) bezier(p []vec) {
	w.reach(p[0], false)
	s := pseg{op: " LQC"[len(p)-1], pts: slices.Clone(p[1:])}
	if len(p) > 2 {
		hp := make([]hpt, len(p))
		for i, q := range p {
			hp[i] = hpt{q.x, q.y, 1}
		}
		for k := 1; k < 4; k++ {
			s.samples = append(s.samples, casteljau(hp, float64(k)/4))
		}
	}
	w.add(s)
}

// ellipse draws an ELLIPSE: drawEllipse (turned about its centre) when whole, else a path of
// A commands.
func (g *gen) ellipse(e *dxf.Entity, name string, flip bool) (string, error) {
	v, err := nums(e, []int{10, 20, 11, 21, 40, 41, 42}, []float64{0, 0, 1, 0, 1, 0, 2 * math.Pi})
	if err != nil {
		return "", err
	}
	c, m, ratio := vec{v[0], v[1]}, vec{v[2], v[3]}, v[4]
	if flip {
		// An ELLIPSE's points are in world coordinates; seen from below, its parameter runs
		// clockwise, which is the mirror image of one that runs counter-clockwise about the
		// mirrored centre and axis: mirror them here, and the writer mirrors them back.
		c.x, m.x = -c.x, -m.x
	}
	if ratio > 1 && ratio <= scene.MaxCoord {
		// The "major" axis is the minor one: turn the ellipse a quarter, so that the
		// other axis is its major, and its parameter runs a quarter behind.
		m, ratio = vec{-m.y * ratio, m.x * ratio}, 1/ratio
		v[5], v[6] = v[5]-math.Pi/2, v[6]-math.Pi/2
	}
	a := math.Hypot(m.x, m.y)
	if !(a > 0) || !(ratio > 0) || ratio > 1+1e-9 {
		g.skip(e.Kind, "major axis not positive or axis ratio not in (0, 1]")
		return "", nil
	}
	if err := checkNums("a coordinate", c.x, c.y, m.x, m.y); err != nil {
		return "", err
	}
	if err := checkNums("a radius", a); err != nil {
		return "", err
	}
	sweep := math.Mod(v[6]-v[5], 2*math.Pi)
	if sweep < 0 {
		sweep += 2 * math.Pi
	}
	if sweep < 1e-12 || sweep > 2*math.Pi-1e-12 {
		rot := math.Atan2(m.y, mirrorX(m.x, flip)) * 180 / math.Pi
		call := fmt.Sprintf("drawEllipse(%s, %s, %s, %s, %s);", name, num(mirrorX(c.x, flip)), num(c.y), derived(a), derived(a*ratio))
		if r := derived(rot); r != "0" {
			call += fmt.Sprintf("\nsetPivot(%s, %s, %s);\nrotate(%s, %s);", name, num(mirrorX(c.x, flip)), num(c.y), name, degrees(r))
		}
		return call, nil
	}
	w := &pathWriter{flip: flip, eps: 1e-9 * a, clock: g.clock}
	w.ellipseArc(c, m, ratio, v[5], sweep)
	d, err := w.data()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("drawBezier(%s, %s);", name, jsString(d)), nil
}

// spline is a B-spline: its degree, knots, and control points with their weights.
type spline struct {
	degree  int
	knots   []float64
	ctrl    []vec
	weights []float64 // empty or one per control point
	closed  bool
}

// rational reports whether a weight differs from 1.
func (s *spline) rational() bool {
	for _, w := range s.weights {
		if w != 1 {
			return true
		}
	}
	return false
}

// check refuses a spline over the caps and says why one cannot be drawn ("" when it can).
func (s *spline) check(kind string, line int) (string, error) {
	if err := splineCaps(kind, line, len(s.ctrl), len(s.knots), s.degree); err != nil {
		return "", err
	}
	switch {
	case len(s.ctrl) == 0:
		return "only fit points, no control points: cadrun does not interpolate fit points", nil
	case s.degree < 1:
		return "degree below 1", nil
	case len(s.ctrl) <= s.degree:
		return "fewer control points than degree + 1", nil
	case len(s.knots) != len(s.ctrl)+s.degree+1:
		return "knot count is not control points + degree + 1", nil
	case len(s.weights) != 0 && len(s.weights) != len(s.ctrl):
		return "weight count is not the control point count", nil
	}
	for i := 1; i < len(s.knots); i++ {
		if !(s.knots[i] >= s.knots[i-1]) {
			return "knots decrease", nil
		}
	}
	for _, w := range s.weights {
		if !(w > 0) {
			return "a weight not positive", nil
		}
	}
	if !(s.knots[len(s.ctrl)] > s.knots[s.degree]) {
		return "its knots leave no span to draw", nil
	}
	return "", nil
}

// splineCaps refuses a spline over MaxSplineControlPoints, MaxSplineKnots or MaxSplineDegree.
func splineCaps(kind string, line, ctrl, knots, degree int) error {
	switch {
	case ctrl > MaxSplineControlPoints:
		return fmt.Errorf("%w: line %d: a %s with %d control points, over the %d allowed (MaxSplineControlPoints)", ErrRefused, line, kind, ctrl, MaxSplineControlPoints)
	case knots > MaxSplineKnots:
		return fmt.Errorf("%w: line %d: a %s with %d knots, over the %d allowed (MaxSplineKnots)", ErrRefused, line, kind, knots, MaxSplineKnots)
	case degree > MaxSplineDegree:
		return fmt.Errorf("%w: line %d: a %s of degree %d, over the %d allowed (MaxSplineDegree)", ErrRefused, line, kind, degree, MaxSplineDegree)
	}
	return nil
}

// hpt is a control point in homogeneous coordinates (x·w, y·w, w).
type hpt struct{ x, y, w float64 }

// beziers returns the spline's pieces, each degree+1 homogeneous control points, for the
// spans of its domain [knots[degree], knots[len(ctrl)]] in order.
func (s *spline) beziers() [][]hpt {
	p, U := s.degree, s.knots
	P := make([]hpt, len(s.ctrl))
	for i, c := range s.ctrl {
		w := 1.0
		if len(s.weights) > 0 {
			w = s.weights[i]
		}
		P[i] = hpt{c.x * w, c.y * w, w}
	}
	var out [][]hpt
	d := make([]hpt, p+1)
	args := make([]float64, p)
	for k := p; k < len(P); k++ {
		a, b := U[k], U[k+1]
		if !(b > a) {
			continue
		}
		piece := make([]hpt, p+1)
		for j := 0; j <= p; j++ {
			// Bézier point j of the span is the blossom at (a × p-j, b × j).
			for r := range args {
				args[r] = a
				if r < j {
					args[r] = b
				}
			}
			copy(d, P[k-p:k+1])
			for r := 1; r <= p; r++ {
				for i := k; i >= k-p+r; i-- {
					al := (args[r-1] - U[i]) / (U[i+p-r+1] - U[i])
					q, o := d[i-(k-p)], d[i-1-(k-p)]
					d[i-(k-p)] = hpt{(1-al)*o.x + al*q.x, (1-al)*o.y + al*q.y, (1-al)*o.w + al*q.w}
				}
			}
			piece[j] = d[p]
		}
		out = append(out, piece)
	}
	return out
}

// project is the point a homogeneous point stands for.
func (h hpt) project() vec { return vec{h.x / h.w, h.y / h.w} }

// casteljau is the point of a rational Bézier at t.
func casteljau(p []hpt, t float64) vec {
	d := append([]hpt(nil), p...)
	for r := 1; r < len(d); r++ {
		for i := 0; i < len(d)-r; i++ {
			d[i] = hpt{(1-t)*d[i].x + t*d[i+1].x, (1-t)*d[i].y + t*d[i+1].y, (1-t)*d[i].w + t*d[i+1].w}
		}
	}
	return d[0].project()
}

// maxFlatSteps caps the lines one flattened Bézier piece becomes.
const maxFlatSteps = 256

// MaxSplineLines is the most lines one flattened spline becomes. The tolerance sets how many
// each piece needs; where they add up to more, every piece gets its share of this many
// (at least one line), so that a spline's code grows with its control points, not with
// how finely they ask to be drawn: a 110 KB entity cannot become megabytes of code.
const MaxSplineLines = 4096

// draw writes the spline into w: exact Béziers when it can, else lines within
// SplineTolerance, or within MaxSplineLines when that is coarser (coarse); it reports
// whether it flattened.
func (s *spline) draw(w *pathWriter) (flattened, coarse bool) {
	pieces := s.beziers()
	exact := s.degree <= 3 && !s.rational()
	var steps []int
	if !exact {
		tol := SplineTolerance * s.size()
		steps = make([]int, len(pieces))
		total := 0
		for i, piece := range pieces {
			steps[i] = flatSteps(piece, tol)
			total += steps[i]
		}
		if coarse = total > MaxSplineLines; coarse {
			for i := range steps {
				steps[i] = max(1, steps[i]*MaxSplineLines/total)
			}
		}
	}
	for i, piece := range pieces {
		if w.err != nil {
			break
		}
		if exact {
			pts := make([]vec, len(piece))
			for i, h := range piece {
				pts[i] = h.project()
			}
			w.bezier(pts)
			continue
		}
		w.reach(piece[0].project(), false)
		n := steps[i]
		for k := 1; k <= n; k++ {
			w.lineTo(casteljau(piece, float64(k)/float64(n)), false)
		}
	}
	if s.closed {
		w.close()
	}
	return !exact, coarse
}

// flatNote says how a spline was flattened, for the report.
func flatNote(what string, coarse bool) string {
	if coarse {
		return fmt.Sprintf("%s: flattened to at most %d lines (MaxSplineLines), coarser than SplineTolerance", what, MaxSplineLines)
	}
	return fmt.Sprintf("%s: flattened to lines within %g of its size (SplineTolerance)", what, SplineTolerance)
}

// size is the diagonal of the control points' bounding box.
func (s *spline) size() float64 {
	lo, hi := s.ctrl[0], s.ctrl[0]
	for _, c := range s.ctrl {
		lo = vec{math.Min(lo.x, c.x), math.Min(lo.y, c.y)}
		hi = vec{math.Max(hi.x, c.x), math.Max(hi.y, c.y)}
	}
	return math.Hypot(hi.x-lo.x, hi.y-lo.y)
}

// flatSteps is how many lines keep a piece within tol: a polynomial Bézier of degree n
// strays at most n(n-1)·max|ΔΔP|/(8 k²) from k chords; a rational one is held to the same
// bound on its projected points times its weights' spread, which bounds its derivatives.
func flatSteps(p []hpt, tol float64) int {
	n := float64(len(p) - 1)
	dd, wmin, wmax := 0.0, math.Inf(1), 0.0
	for i := range p {
		wmin, wmax = math.Min(wmin, p[i].w), math.Max(wmax, p[i].w)
		if i+2 < len(p) {
			a, b, c := p[i].project(), p[i+1].project(), p[i+2].project()
			dd = math.Max(dd, math.Hypot(a.x-2*b.x+c.x, a.y-2*b.y+c.y))
		}
	}
	spread := wmax / wmin
	k := math.Ceil(math.Sqrt(n * math.Max(n-1, 1) * dd * spread * spread * spread / (8 * math.Max(tol, 1e-300))))
	if !(k >= 1) {
		return 1
	}
	return int(math.Min(k, maxFlatSteps))
}

// splineEntity reads a SPLINE's groups.
func splineEntity(e *dxf.Entity) (*spline, error) {
	s := &spline{}
	flags, err := e.IntOr(70, 0)
	if err != nil {
		return nil, err
	}
	s.closed = flags&1 != 0
	if s.degree, err = e.IntOr(71, 3); err != nil {
		return nil, err
	}
	for _, p := range e.Pairs {
		var v float64
		switch p.Code {
		case 40, 41, 10, 20:
			if v, err = dxf.Float(p); err != nil {
				return nil, err
			}
		}
		switch {
		case p.Code == 40:
			s.knots = append(s.knots, v)
		case p.Code == 41:
			s.weights = append(s.weights, v)
		case p.Code == 10:
			s.ctrl = append(s.ctrl, vec{x: v})
		case p.Code == 20 && len(s.ctrl) > 0:
			s.ctrl[len(s.ctrl)-1].y = v
		}
		if len(s.ctrl) > MaxSplineControlPoints || len(s.knots) > MaxSplineKnots {
			break // check names the cap
		}
	}
	return s, nil
}

// splineCall draws a SPLINE as a path.
func (g *gen) splineCall(e *dxf.Entity, name string, flip bool) (string, error) {
	s, err := splineEntity(e)
	if err != nil {
		return "", err
	}
	why, err := s.check(e.Kind, e.Line)
	if err != nil {
		return "", err
	}
	if why != "" {
		g.skip(e.Kind, why)
		return "", nil
	}
	// A SPLINE's points are in world coordinates (no OCS): flip plays no part.
	w := &pathWriter{eps: 1e-12 * s.size(), clock: g.clock}
	flat, coarse := s.draw(w)
	d, err := w.data()
	if err != nil {
		return "", err
	}
	if flat {
		g.note(e.Kind, flatNote("rational or of degree over 3", coarse))
	}
	return fmt.Sprintf("drawBezier(%s, %s);", name, jsString(d)), nil
}
