package geom

// Cutting a path into its dashes, for the writers that cannot leave it to the reader: a
// hairline's stroke in SVG keeps one pixel through vector-effect="non-scaling-stroke", under
// which Chromium lays a stroke-dasharray out in screen pixels while librsvg keeps it in user
// units, so the SVG writer draws a dashed hairline's dashes as geometry; the rasteriser cuts its
// strokes the same way. Lines and circular arcs are cut exactly (a circular arc's length is
// its radius times its sweep); Béziers and elliptical arcs are flattened first.

import (
	"math"
)

// Dash is the path's dashes under pattern (dash, gap, dash, ... lengths without signs, as
// a linetype's Dashes gives them), each an open subpath, the pattern starting afresh at each subpath as SVG
// and PDF start it. A dash of length 0 (a dot) is a zero-length line, which a round cap draws
// as a dot. tol bounds the chords of the curves that are flattened. A pattern whose lengths
// sum to nothing gives p back.
func (p Path) Dash(pattern []float64, tol float64) Path {
	total := 0.0
	for _, v := range pattern {
		total += v
	}
	if len(pattern) == 0 || !(total > 0) || math.IsInf(total, 0) {
		return p
	}
	// The curves are flattened a segment at a time, so the path's point budget is
	// taken here, for the whole path (MaxFlattenPoints).
	tol = p.BudgetTolerance(tol, MaxFlattenPoints)
	d := dasher{pattern: pattern, tol: tol}
	var start, here Vec
	for _, s := range p {
		switch s.Kind {
		case SegMove:
			d.restart()
			start, here = s.P[0], s.P[0]
		case SegLine:
			d.line(here, s.P[0])
			here = s.P[0]
		case SegArc:
			if first := arcPoint(s, s.T0); first != here {
				d.line(here, first)
			}
			d.arc(s)
			here = s.End()
		case SegQuad, SegCubic:
			for _, l := range (Path{{Kind: SegMove, P: [3]Vec{here}}, s}).Flatten(tol) {
				for i := 1; i < len(l.Points); i++ {
					d.line(l.Points[i-1], l.Points[i])
				}
			}
			here = s.End()
		case SegClose:
			d.line(here, start)
			here = start
		}
	}
	return d.out
}

// dasher walks a subpath's length through the pattern, writing the dashes it covers.
type dasher struct {
	pattern []float64
	tol     float64 // the chords' bound for the curves flattened
	k       int     // the pattern's element being walked: even ones are dashes
	left    float64 // what is left of it
	drawing bool    // a dash is open in out
	out     Path
}

// restart begins the pattern again, for a new subpath.
func (d *dasher) restart() {
	d.k, d.left, d.drawing = 0, d.pattern[0], false
}

// walk covers a piece of length n: at each point where the pattern changes between dash and
// gap, at a distance s along the piece, it calls at(s) to get the point and starts or ends a
// dash there; piece(s0, s1) writes the part of a dash from s0 to s1 whose start is already in
// out.
func (d *dasher) walk(n float64, at func(s float64) Vec, piece func(s0, s1 float64)) {
	pos := 0.0
	for {
		on := d.k%2 == 0
		if on && !d.drawing {
			d.out.MoveTo(at(pos))
			d.drawing = true
		}
		if d.left > n-pos {
			d.left -= n - pos
			if on {
				piece(pos, n)
			}
			return
		}
		end := pos + d.left
		if on {
			if end == pos {
				d.out.LineTo(at(pos)) // a dot
			} else {
				piece(pos, end)
			}
			d.drawing = false
		}
		pos = end
		d.k = (d.k + 1) % len(d.pattern)
		d.left = d.pattern[d.k]
	}
}

// line dashes the straight piece from a to b.
func (d *dasher) line(a, b Vec) {
	n := b.Sub(a).Len()
	if n == 0 {
		return
	}
	at := func(s float64) Vec {
		if s == n {
			return b
		}
		return a.Add(b.Sub(a).Mul(s / n))
	}
	d.walk(n, at, func(_, s1 float64) { d.out.LineTo(at(s1)) })
}

// arc dashes an arc segment: exactly when it is circular (CircleOf), else along its chords.
func (d *dasher) arc(s Seg) {
	a, circular := CircleOf(s)
	if !circular {
		pts := (Path{{Kind: SegMove, P: [3]Vec{arcPoint(s, s.T0)}}, s}).Flatten(d.tol)
		for _, l := range pts {
			for i := 1; i < len(l.Points); i++ {
				d.line(l.Points[i-1], l.Points[i])
			}
		}
		return
	}
	dir := 1.0
	if s.T1 < s.T0 {
		dir = -1
	}
	param := func(at float64) float64 { return s.T0 + dir*at/a.R }
	d.walk(math.Abs(a.Sweep)*a.R, func(at float64) Vec { return arcPoint(s, param(at)) }, func(s0, s1 float64) {
		d.out = append(d.out, Seg{Kind: SegArc, P: s.P, T0: param(s0), T1: param(s1)})
	})
}

// DashCount is how many dashes and dots Dash cuts p into under pattern, at most, counted
// from the lengths alone so that nothing is cut to learn it: per subpath, each whole period
// draws each of the pattern's dashes once, and the rest of the length those that start in
// it. A Bézier counts the length of its control polygon and an elliptical arc that of a
// circle of its larger radius, which are never shorter than the curve. Lengths are in p's
// units, so the count is the same whatever a picture's scale: the writers cut a world path
// by a pattern in scene units (SVG) or both scaled to pixels (PNG).
func (p Path) DashCount(pattern []float64) float64 {
	total, on := 0.0, 0
	for i, v := range pattern {
		total += v
		if i%2 == 0 {
			on++
		}
	}
	if len(pattern) == 0 || !(total > 0) || math.IsInf(total, 0) {
		return 0 // Dash gives p back: no dashes
	}
	count, n := 0.0, 0.0 // n is the length of the subpath so far
	flush := func() {
		if n > 0 {
			periods := math.Floor(n / total)
			count += periods * float64(on)
			rest, pos := n-periods*total, 0.0
			for i, v := range pattern {
				if pos > rest {
					break
				}
				if i%2 == 0 {
					count++
				}
				pos += v
			}
		}
		n = 0
	}
	var start, here Vec
	leg := func(to Vec) {
		n += to.Sub(here).Len()
		here = to
	}
	for _, s := range p {
		switch s.Kind {
		case SegMove:
			flush()
			start, here = s.P[0], s.P[0]
		case SegLine:
			leg(s.P[0])
		case SegQuad:
			leg(s.P[0])
			leg(s.P[1])
		case SegCubic:
			leg(s.P[0])
			leg(s.P[1])
			leg(s.P[2])
		case SegArc:
			leg(arcPoint(s, s.T0))
			if a, ok := CircleOf(s); ok {
				n += math.Abs(a.Sweep) * a.R
			} else {
				n += math.Hypot(s.P[1].Len(), s.P[2].Len()) * math.Abs(s.T1-s.T0)
			}
			here = s.End()
		case SegClose:
			leg(start)
		}
	}
	flush()
	return count
}
