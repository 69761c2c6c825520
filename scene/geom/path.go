package geom

// Path is the one outline representation every shape reduces to. Lines, quadratic and cubic
// Béziers and elliptical arcs stay exact under affine maps (an arc keeps its centre and two
// conjugate semi-axis vectors), so world bounds are computed from the true curves, not from a
// flattened approximation, and the SVG writer can emit real arcs.

import (
	"math"
	"slices"
)

// SegKind tells what a path segment is.
type SegKind uint8

// Segment kinds. A path is a sequence of subpaths, each starting with SegMove.
const (
	SegMove  SegKind = iota // P[0]: the new current point
	SegLine                 // P[0]: end point
	SegQuad                 // P[0]: control, P[1]: end
	SegCubic                // P[0], P[1]: controls, P[2]: end
	// SegArc traces centre + U*cos(t) + V*sin(t) for t from T0 to T1 (P[0] centre, P[1] U,
	// P[2] V). It starts with an implicit line from the current point to its first point.
	SegArc
	SegClose // back to the subpath's first point
)

// Seg is one path segment; see SegKind for the meaning of P.
type Seg struct {
	Kind   SegKind
	P      [3]Vec
	T0, T1 float64
}

// Path is a sequence of segments.
type Path []Seg

// arcPoint is the point of an arc segment at parameter t.
func arcPoint(s Seg, t float64) Vec {
	sn, cs := math.Sincos(t)
	return s.P[0].Add(s.P[1].Mul(cs)).Add(s.P[2].Mul(sn))
}

// ArcPoint is the point of an arc segment at parameter t (see SegArc).
func (s Seg) ArcPoint(t float64) Vec { return arcPoint(s, t) }

// End returns the point a segment ends at (for SegClose, the zero Vec).
func (s Seg) End() Vec {
	switch s.Kind {
	case SegMove, SegLine:
		return s.P[0]
	case SegQuad:
		return s.P[1]
	case SegCubic:
		return s.P[2]
	case SegArc:
		return arcPoint(s, s.T1)
	}
	return Vec{}
}

// MoveTo starts a subpath.
func (p *Path) MoveTo(a Vec) { *p = append(*p, Seg{Kind: SegMove, P: [3]Vec{a}}) }

// LineTo adds a straight segment.
func (p *Path) LineTo(a Vec) { *p = append(*p, Seg{Kind: SegLine, P: [3]Vec{a}}) }

// QuadTo adds a quadratic Bézier.
func (p *Path) QuadTo(c, a Vec) { *p = append(*p, Seg{Kind: SegQuad, P: [3]Vec{c, a}}) }

// CubicTo adds a cubic Bézier.
func (p *Path) CubicTo(c1, c2, a Vec) { *p = append(*p, Seg{Kind: SegCubic, P: [3]Vec{c1, c2, a}}) }

// ArcTo adds an elliptical arc centre + u*cos(t) + v*sin(t), t from t0 to t1.
func (p *Path) ArcTo(centre, u, v Vec, t0, t1 float64) {
	*p = append(*p, Seg{Kind: SegArc, P: [3]Vec{centre, u, v}, T0: t0, T1: t1})
}

// Close closes the current subpath.
func (p *Path) Close() { *p = append(*p, Seg{Kind: SegClose}) }

// Polyline adds a subpath through pts, closed if asked.
func (p *Path) Polyline(pts []Vec, closed bool) {
	if len(pts) == 0 {
		return
	}
	*p = slices.Grow(*p, len(pts)+1) // a polygon's outline is thousands of segments
	p.MoveTo(pts[0])
	for _, q := range pts[1:] {
		p.LineTo(q)
	}
	if closed {
		p.Close()
	}
}

// Transform returns the path mapped by m; curves stay exact.
func (p Path) Transform(m Affine) Path {
	out := make(Path, len(p))
	copy(out, p)
	for i := range out {
		out[i].Transform(m)
	}
	return out
}

// Transform maps the segment by m in place: points move, an arc's axis vectors only turn and scale.
// The points a kind does not use (see SegKind) stay as they are.
func (s *Seg) Transform(m Affine) {
	switch s.Kind {
	case SegMove, SegLine:
		s.P[0] = m.Apply(s.P[0])
	case SegQuad:
		s.P[0], s.P[1] = m.Apply(s.P[0]), m.Apply(s.P[1])
	case SegCubic:
		s.P[0], s.P[1], s.P[2] = m.Apply(s.P[0]), m.Apply(s.P[1]), m.Apply(s.P[2])
	case SegArc:
		s.P[0] = m.Apply(s.P[0])
		s.P[1] = m.ApplyVec(s.P[1])
		s.P[2] = m.ApplyVec(s.P[2])
	}
}

// Bounds returns the exact bounding box of the path: curve extrema are found analytically.
func (p Path) Bounds() Box {
	var b Box
	var cur Vec
	for _, s := range p {
		switch s.Kind {
		case SegMove, SegLine:
			b.Extend(s.P[0])
		case SegQuad:
			b.Extend(s.P[1])
			quadExtrema(&b, cur, s.P[0], s.P[1])
		case SegCubic:
			b.Extend(s.P[2])
			cubicExtrema(&b, cur, s.P[0], s.P[1], s.P[2])
		case SegArc:
			b.ExtendArc(s)
		}
		if s.Kind != SegClose {
			cur = s.End()
		}
	}
	return b
}

func quadExtrema(b *Box, p0, p1, p2 Vec) {
	for axis := range 2 {
		a0, a1, a2 := coord(p0, axis), coord(p1, axis), coord(p2, axis)
		den := a0 - 2*a1 + a2
		if den == 0 {
			continue
		}
		if t := (a0 - a1) / den; t > 0 && t < 1 {
			b.Extend(QuadAt(p0, p1, p2, t))
		}
	}
}

func cubicExtrema(b *Box, p0, p1, p2, p3 Vec) {
	for axis := range 2 {
		a0, a1, a2, a3 := coord(p0, axis), coord(p1, axis), coord(p2, axis), coord(p3, axis)
		// Derivative / 3: qa t² + qb t + qc.
		qa := -a0 + 3*a1 - 3*a2 + a3
		qb := 2 * (a0 - 2*a1 + a2)
		qc := a1 - a0
		for _, t := range quadraticRoots(qa, qb, qc) {
			if t > 0 && t < 1 {
				b.Extend(CubicAt(p0, p1, p2, p3, t))
			}
		}
	}
}

// maxArcExtrema bounds the extrema ExtendArc visits on each axis: an arc of a scene sweeps
// at most a full turn, which holds at most three.
const maxArcExtrema = 4

// ExtendArc grows b to contain the arc segment s: its ends and the extremes between them,
// found exactly.
func (b *Box) ExtendArc(s Seg) {
	b.Extend(arcPoint(s, s.T0))
	b.Extend(arcPoint(s, s.T1))
	lo, hi := math.Min(s.T0, s.T1), math.Max(s.T0, s.T1)
	for axis := range 2 {
		// coordinate(t) = c + u cos t + v sin t has extrema at atan2(v, u) + kπ.
		t := math.Atan2(coord(s.P[2], axis), coord(s.P[1], axis))
		if coord(s.P[1], axis) == 0 && coord(s.P[2], axis) == 0 {
			continue
		}
		// Every t + kπ inside [lo, hi]; the points repeat after two, so at most maxArcExtrema
		// of them, which also ends the loop where the angles are so large that adding π
		// leaves them as they are.
		k := math.Ceil((lo - t) / math.Pi)
		for n, tt := 0, t+k*math.Pi; tt <= hi && n < maxArcExtrema; n, tt = n+1, tt+math.Pi {
			b.Extend(arcPoint(s, tt))
		}
	}
}

func quadraticRoots(a, b, c float64) []float64 {
	const eps = 1e-12
	if math.Abs(a) < eps {
		if math.Abs(b) < eps {
			return nil
		}
		return []float64{-c / b}
	}
	d := b*b - 4*a*c
	if d < 0 {
		return nil
	}
	sq := math.Sqrt(d)
	return []float64{(-b + sq) / (2 * a), (-b - sq) / (2 * a)}
}

func coord(p Vec, axis int) float64 {
	if axis == 0 {
		return p.X
	}
	return p.Y
}

// QuadAt is the point at t (0 to 1) of the quadratic Bézier from p0 by p1 to p2.
func QuadAt(p0, p1, p2 Vec, t float64) Vec {
	u := 1 - t
	return p0.Mul(u * u).Add(p1.Mul(2 * u * t)).Add(p2.Mul(t * t))
}

// CubicAt is the point at t (0 to 1) of the cubic Bézier from p0 by p1 and p2 to p3.
func CubicAt(p0, p1, p2, p3 Vec, t float64) Vec {
	u := 1 - t
	return p0.Mul(u * u * u).Add(p1.Mul(3 * u * u * t)).Add(p2.Mul(3 * u * t * t)).Add(p3.Mul(t * t * t))
}

// Tolerance and caps for turning curves into polylines. The tolerance is the largest distance
// between a curve and its chords, in output units; the caps keep a hostile radius or a huge
// scale from producing millions of vertices.
const (
	// DefaultTolerance is the chord tolerance used for booleans, offsets and areas, in scene units.
	DefaultTolerance = 0.01
	// MaxCurveSegments caps the chords one curve segment (or one full turn of an arc) becomes.
	MaxCurveSegments = 4096
	minCurveSegments = 1
	// MaxFlattenPoints caps the points one path becomes when it is flattened as a whole.
	// MaxCurveSegments bounds a segment, not a path: 50,000 cubics of 1 MB of path data
	// would be 200 million points at a fine tolerance. A path that would pass it is
	// flattened at a coarser tolerance instead (BudgetTolerance): pictures, measures and
	// lints of it stay answers, a little less exact, rather than refusals.
	MaxFlattenPoints = 1_000_000
)

// Polyline is a flattened subpath.
type Polyline struct {
	Points []Vec
	Closed bool
}

// Flatten turns the path into polylines whose chords stay within tol of the curves, or
// within the coarser tolerance that keeps them to MaxFlattenPoints (BudgetTolerance).
func (p Path) Flatten(tol float64) []Polyline {
	return p.FlattenAt(p.BudgetTolerance(tol, MaxFlattenPoints), 0)
}

// FlattenPoints is how many points Flatten(tol) would make of the path, at most: one a
// move, line or close, and a curve's chords. It costs a walk of the segments, none of the
// points.
func (p Path) FlattenPoints(tol float64) int {
	n := 0
	var here, first Vec
	for _, s := range p {
		switch s.Kind {
		case SegMove:
			n++
			first = s.P[0]
		case SegClose:
			n++
			here = first
			continue
		case SegQuad:
			n += CurveSegments(here.Sub(s.P[0].Mul(2)).Add(s.P[1]).Len()*2, tol)
		case SegCubic:
			dd := math.Max(here.Sub(s.P[0].Mul(2)).Add(s.P[1]).Len(), s.P[0].Sub(s.P[1].Mul(2)).Add(s.P[2]).Len())
			n += CurveSegments(6*dd, tol)
		case SegArc:
			n += 1 + ArcSegments(math.Max(s.P[1].Len(), s.P[2].Len()), math.Abs(s.T1-s.T0), tol)
		default:
			n++
		}
		here = s.End()
	}
	return n
}

// BudgetTolerance is tol, or the coarser tolerance at which the path flattens to at most
// max points (FlattenPoints) where tol would pass it. The chord count goes as 1/sqrt(tol),
// so each step coarsens by the square of the excess; a path whose segments alone pass max
// keeps the coarsest tolerance tried, one chord a curve being as few as it gets.
func (p Path) BudgetTolerance(tol float64, max int) float64 {
	for range 8 {
		n := p.FlattenPoints(tol)
		if n <= max || tol <= 0 || math.IsInf(tol, 0) || math.IsNaN(tol) {
			return tol
		}
		r := float64(n) / float64(max)
		tol *= math.Max(4, r*r)
	}
	return tol
}

// FlattenAt is Flatten at tol as it is, with no point budget (the caller has spent it). The
// polylines' points are made in one array, room for n of them made first (FlattenPoints,
// when the caller has counted them; 0: grown as they come), where appending each subpath's
// points to a slice of its own grew it a few times a curve; each polyline ends with its
// points, so that appending to one never writes another's.
func (p Path) FlattenAt(tol float64, n int) []Polyline {
	var out []Polyline
	var cur *Polyline
	var here Vec
	pts := make([]Vec, 0, n)
	from := 0 // where cur's points start in pts
	end := func() {
		if cur != nil {
			cur.Points = pts[from:len(pts):len(pts)]
		}
	}
	start := func(a Vec) {
		end()
		from = len(pts)
		pts = append(pts, a)
		out = append(out, Polyline{Points: pts[from:]})
		cur = &out[len(out)-1]
		here = a
	}
	add := func(a Vec) {
		if cur == nil {
			start(here)
		}
		if last := pts[len(pts)-1]; last != a {
			pts = append(pts, a)
			cur.Points = pts[from:]
		}
		here = a
	}
	for _, s := range p {
		switch s.Kind {
		case SegMove:
			start(s.P[0])
		case SegLine:
			add(s.P[0])
		case SegQuad:
			p0 := here
			n := CurveSegments(p0.Sub(s.P[0].Mul(2)).Add(s.P[1]).Len()*2, tol)
			for i := 1; i <= n; i++ {
				add(QuadAt(p0, s.P[0], s.P[1], float64(i)/float64(n)))
			}
		case SegCubic:
			p0 := here
			// Bound on the second derivative: 6·max(|p0-2p1+p2|, |p1-2p2+p3|).
			dd := math.Max(p0.Sub(s.P[0].Mul(2)).Add(s.P[1]).Len(), s.P[0].Sub(s.P[1].Mul(2)).Add(s.P[2]).Len())
			n := CurveSegments(6*dd, tol)
			for i := 1; i <= n; i++ {
				add(CubicAt(p0, s.P[0], s.P[1], s.P[2], float64(i)/float64(n)))
			}
		case SegArc:
			n := ArcSegments(math.Max(s.P[1].Len(), s.P[2].Len()), math.Abs(s.T1-s.T0), tol)
			add(arcPoint(s, s.T0))
			for i := 1; i <= n; i++ {
				add(arcPoint(s, s.T0+(s.T1-s.T0)*float64(i)/float64(n)))
			}
		case SegClose:
			if cur != nil {
				cur.Closed = true
				first := cur.Points[0]
				if n := len(cur.Points); n > 1 && cur.Points[n-1] == first {
					pts = pts[:len(pts)-1]
				}
				here = first
				end()
				cur = nil
			}
		}
	}
	end()
	return out
}

// CurveSegments returns the chord count for a curve whose second derivative is bounded by
// dd: the chord error of n uniform steps is at most dd/(8n²).
func CurveSegments(dd, tol float64) int {
	if tol <= 0 || dd <= 0 || math.IsNaN(dd) {
		return minCurveSegments
	}
	n := math.Ceil(math.Sqrt(dd / (8 * tol)))
	return int(math.Max(minCurveSegments, math.Min(n, MaxCurveSegments)))
}

// ArcSegments returns how many chords an arc of radius r sweeping sweep radians needs so that
// the sagitta stays within tol, capped by MaxCurveSegments per full turn.
func ArcSegments(r, sweep, tol float64) int {
	if r <= 0 || sweep == 0 || tol <= 0 {
		return 1
	}
	var step float64
	if tol >= r {
		step = math.Pi / 2
	} else {
		step = 2 * math.Acos(1-tol/r)
	}
	step = math.Max(step, 2*math.Pi/MaxCurveSegments)
	return int(math.Max(1, math.Ceil(sweep/step-1e-9)))
}
