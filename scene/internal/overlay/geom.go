package overlay

// Points and the exact predicates: the orientation test decides every node, touch and
// collinear overlap, so that the stages agree with each other everywhere.

import (
	"math"
	"math/big"
	"slices"
)

// Add returns p+q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Sub returns p-q.
func (p Point) Sub(q Point) Point { return Point{p.X - q.X, p.Y - q.Y} }

// Mul returns p scaled by k.
func (p Point) Mul(k float64) Point { return Point{p.X * k, p.Y * k} }

// Len is p's distance from the origin.
func (p Point) Len() float64 { return math.Hypot(p.X, p.Y) }

// box is an axis-aligned bounding box; the zero box is empty.
type box struct {
	min, max Point
	nonEmpty bool
}

func (b *box) extend(p Point) {
	if !b.nonEmpty {
		*b = box{min: p, max: p, nonEmpty: true}
		return
	}
	// The built-in min and max, inline: on the finite coordinates the engine takes they give
	// math.Min's and math.Max's results (they differ only when an infinity meets a NaN).
	b.min.X = min(b.min.X, p.X)
	b.min.Y = min(b.min.Y, p.Y)
	b.max.X = max(b.max.X, p.X)
	b.max.Y = max(b.max.Y, p.Y)
}

func ringBox(r []Point) box {
	var b box
	for _, p := range r {
		b.extend(p)
	}
	return b
}

// strictlyInside reports whether p, known to be collinear with a and b, lies on the segment
// ab and is neither end.
func strictlyInside(p, a, b Point) bool {
	if a.X != b.X {
		return min(a.X, b.X) < p.X && p.X < max(a.X, b.X)
	}
	return min(a.Y, b.Y) < p.Y && p.Y < max(a.Y, b.Y)
}

// CrossPoint is where segments p and q, known to cross properly, cross; it is kept inside
// both segments' bounding boxes so that rounding cannot move it away from them.
func CrossPoint(p1, p2, q1, q2 Point) Point {
	d1, d2 := p2.Sub(p1), q2.Sub(q1)
	t := ((q1.X-p1.X)*d2.Y - (q1.Y-p1.Y)*d2.X) / (d1.X*d2.Y - d1.Y*d2.X)
	x := p1.Add(d1.Mul(t))
	if math.IsNaN(x.X) || math.IsNaN(x.Y) || math.IsInf(x.X, 0) || math.IsInf(x.Y, 0) {
		// Segments so nearly parallel that the float cross product of their directions
		// is 0, though the exact orientation tests found them crossing: the crossing in
		// exact arithmetic, rounded once.
		x = exactCrossPoint(p1, p2, q1, q2)
	}
	x.X = min(max(x.X, min(p1.X, p2.X), min(q1.X, q2.X)), max(p1.X, p2.X), max(q1.X, q2.X))
	x.Y = min(max(x.Y, min(p1.Y, p2.Y), min(q1.Y, q2.Y)), max(p1.Y, p2.Y), max(q1.Y, q2.Y))
	return x
}

// exactCrossPoint is CrossPoint's crossing computed in rational arithmetic: the segments'
// ends are floats, so their differences and products are exact there.
func exactCrossPoint(p1, p2, q1, q2 Point) Point {
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	sub := func(u, v float64) *big.Rat { return new(big.Rat).Sub(rat(u), rat(v)) }
	mul := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	d1x, d1y := sub(p2.X, p1.X), sub(p2.Y, p1.Y)
	d2x, d2y := sub(q2.X, q1.X), sub(q2.Y, q1.Y)
	den := new(big.Rat).Sub(mul(d1x, d2y), mul(d1y, d2x))
	if den.Sign() == 0 {
		return p1 // parallel after all: the callers' boxes clamp it
	}
	num := new(big.Rat).Sub(mul(sub(q1.X, p1.X), d2y), mul(sub(q1.Y, p1.Y), d2x))
	t := new(big.Rat).Quo(num, den)
	x, _ := new(big.Rat).Add(rat(p1.X), mul(d1x, t)).Float64()
	y, _ := new(big.Rat).Add(rat(p1.Y), mul(d1y, t)).Float64()
	return Point{x, y}
}

// orientErrBound is Shewchuk's bound on the rounding error of the float orientation test,
// relative to the sum of the magnitudes of its two products.
const orientErrBound = (3 + 16*0x1p-53) * 0x1p-53

// Orient returns a number whose sign tells where c lies relative to the line a→b: positive
// on the left, negative on the right, zero on the line. The sign is exact: the float estimate
// is used when it clears the error bound, exact rational arithmetic otherwise, so that nodes,
// touches and collinear overlaps are decided consistently everywhere.
func Orient(a, b, c Point) float64 {
	if c == a || c == b || a == b {
		return 0 // shared ends are the most common exact zero
	}
	abx, aby := b.X-a.X, b.Y-a.Y
	acx, acy := c.X-a.X, c.Y-a.Y
	if (abx == 0 || acy == 0) && (aby == 0 || acx == 0) {
		return 0 // both products are exactly zero: a difference of floats is 0 only when exact
	}
	l, r := abx*acy, aby*acx
	det := l - r
	bound := orientErrBound * (math.Abs(l) + math.Abs(r))
	if det > bound || -det > bound {
		return det
	}
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	sub := func(u, v float64) *big.Rat { return new(big.Rat).Sub(rat(u), rat(v)) }
	left := new(big.Rat).Mul(sub(b.X, a.X), sub(c.Y, a.Y))
	right := new(big.Rat).Mul(sub(b.Y, a.Y), sub(c.X, a.X))
	return float64(left.Cmp(right))
}

// XY is any point type of Point's shape: Point, and the scene's Vec, which this package cannot
// name (the scene imports it), so that a drawn ring and an engine ring share Area and OrientRing.
type XY interface{ ~struct{ X, Y float64 } }

// Area is the signed area of a ring: positive when counter-clockwise (Y up).
func Area[P XY](r []P) float64 {
	n := len(r)
	if n < 3 {
		return 0
	}
	// Relative to the first point, to keep precision far from the origin.
	o := Point(r[0])
	sum := 0.0
	for i := 1; i+1 < n; i++ {
		a, b := Point(r[i]).Sub(o), Point(r[i+1]).Sub(o)
		sum += a.X*b.Y - a.Y*b.X
	}
	return sum / 2
}

// OrientRing returns r counter-clockwise (ccw) or clockwise, reversing a copy if needed.
func OrientRing[P XY](r []P, ccw bool) []P {
	if (Area(r) > 0) != ccw {
		r = slices.Clone(r)
		slices.Reverse(r)
	}
	return r
}

// Area is the area p encloses: its outer ring's less its holes'.
func (p Polygon) Area() float64 {
	a := math.Abs(Area(p.Outer))
	for _, h := range p.Holes {
		a -= math.Abs(Area(h))
	}
	return a
}
