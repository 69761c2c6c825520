package drafting

// A hatch is drawn as line segments clipped to an area, so that every writer (SVG, PDF, PNG,
// and a DXF's preview) draws the same lines from one computation. The area comes as rings
// (the non-overlapping polygons a shape's region unions to, and their holes), so that the
// even-odd rule is the area, and the clipping needs no shape: scene hands the rings and the
// placed pattern over and keeps what a scene decides (which shapes are hatched, the budget
// of the whole scene, the error that names the shape).

import (
	"cmp"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/geom"
)

// ClipHatch clips the families of lines of a placed pattern (HatchPattern.Placed) to the area
// the rings bound by the even-odd rule: the lines, dashes and dots (both ends equal) that
// fall inside, holes left out, family by family. It makes at most budget segments: ok is
// false, and the segments partial, when they would pass it.
func ClipHatch(rings [][]geom.Vec, lines []HatchLine, budget int) (segs [][2]geom.Vec, ok bool) {
	c := hatchClip{rings: rings, budget: budget}
	for _, l := range lines {
		if !c.family(l) {
			return c.out, false
		}
	}
	return c.out, true
}

// hatchClip clips families of pattern lines to an area given as rings, by the even-odd rule
// (the rings of non-overlapping polygons and their holes, so that even-odd is the area).
type hatchClip struct {
	rings  [][]geom.Vec
	budget int
	out    [][2]geom.Vec
	xs     []float64 // a line's crossings, reused
}

// family adds the segments of one family of lines; false when they pass the budget.
func (c *hatchClip) family(l HatchLine) bool {
	a := l.Angle * math.Pi / 180
	u := geom.Vec{X: math.Cos(a), Y: math.Sin(a)}  // along the lines
	n := geom.Vec{X: -math.Sin(a), Y: math.Cos(a)} // across them
	dot := func(p, q geom.Vec) float64 { return p.X*q.X + p.Y*q.Y }
	step := l.Offset.Y
	if step == 0 {
		return true
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range c.rings {
		for _, p := range r {
			t := dot(p, n)
			lo, hi = min(lo, t), max(hi, t)
		}
	}
	bs, bt := dot(l.Base, u), dot(l.Base, n)
	k0, k1 := (lo-bt)/step, (hi-bt)/step
	if step < 0 {
		k0, k1 = k1, k0
	}
	first, last := math.Ceil(k0), math.Floor(k1)
	if last-first+1 > float64(c.budget-len(c.out)) {
		return false // at least one segment a line would pass it
	}
	period := 0.0
	for _, v := range l.Dashes {
		period += math.Abs(v)
	}
	for k := first; k <= last; k++ {
		t := bt + k*step
		c.crossings(t, u, n)
		phase := bs + k*l.Offset.X
		for i := 0; i+1 < len(c.xs); i += 2 {
			if !c.span(c.xs[i], c.xs[i+1], t, phase, period, l.Dashes, u, n) {
				return false
			}
		}
	}
	return true
}

// crossings sets c.xs to where the line across = t meets the rings, along u, sorted. An edge
// counts when its ends lie on either side of the line, the end on it counting as below, so
// that a vertex on the line is counted once or not at all, never half.
func (c *hatchClip) crossings(t float64, u, n geom.Vec) {
	c.xs = c.xs[:0]
	for _, r := range c.rings {
		for i := range r {
			p, q := r[i], r[(i+1)%len(r)]
			tp, tq := p.X*n.X+p.Y*n.Y, q.X*n.X+q.Y*n.Y
			if (tp <= t) == (tq <= t) {
				continue
			}
			sp, sq := p.X*u.X+p.Y*u.Y, q.X*u.X+q.Y*u.Y
			c.xs = append(c.xs, sp+(t-tp)/(tq-tp)*(sq-sp))
		}
	}
	slices.SortFunc(c.xs, cmp.Compare[float64])
}

// span adds the part of the line across = t between along = s0 and s1 that the dash pattern
// draws, the pattern starting at along = phase; false when past the budget.
func (c *hatchClip) span(s0, s1, t, phase, period float64, dashes []float64, u, n geom.Vec) bool {
	at := func(s float64) geom.Vec { return u.Mul(s).Add(n.Mul(t)) }
	add := func(a, b float64) bool {
		if len(c.out) >= c.budget {
			return false
		}
		c.out = append(c.out, [2]geom.Vec{at(a), at(b)})
		return true
	}
	if len(dashes) == 0 || period <= 0 {
		return s1 <= s0 || add(s0, s1)
	}
	// Each period draws at least one dash or dot: more periods than the budget fail at once,
	// and the periods are counted, not summed, so that a step lost in rounding cannot stall.
	if (s1-s0)/period > float64(c.budget-len(c.out)) {
		return false
	}
	for m := math.Floor((s0 - phase) / period); ; m++ {
		pos := phase + m*period
		if pos > s1 {
			break
		}
		for _, d := range dashes {
			switch {
			case d == 0:
				if pos >= s0 && pos <= s1 && !add(pos, pos) {
					return false
				}
			case d > 0:
				if a, b := max(pos, s0), min(pos+d, s1); a < b && !add(a, b) {
					return false
				}
			}
			pos += math.Abs(d)
		}
	}
	return true
}
