package geom

// Low-level 2D geometry: vectors, affine maps, boxes. Everything above this package speaks in
// these types, so that bounds, rendering and booleans agree on one representation.

import "math"

// Vec is a point or a displacement in scene units. Y points up.
type Vec struct{ X, Y float64 }

// Add returns v+w.
func (v Vec) Add(w Vec) Vec { return Vec{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w.
func (v Vec) Sub(w Vec) Vec { return Vec{v.X - w.X, v.Y - w.Y} }

// Mul returns v scaled by k.
func (v Vec) Mul(k float64) Vec { return Vec{v.X * k, v.Y * k} }

// Len returns the length of v.
func (v Vec) Len() float64 { return math.Hypot(v.X, v.Y) }

// Affine is a 2D affine map in SVG's matrix(a b c d e f) order:
// x' = A*x + C*y + E, y' = B*x + D*y + F.
type Affine struct{ A, B, C, D, E, F float64 }

// Identity is the affine map that changes nothing.
var Identity = Affine{A: 1, D: 1}

// Translation returns the map that moves by d.
func Translation(d Vec) Affine { return Affine{A: 1, D: 1, E: d.X, F: d.Y} }

// Rotation returns the counter-clockwise rotation by angle radians about the origin.
func Rotation(angle float64) Affine {
	s, c := math.Sincos(angle)
	return Affine{A: c, B: s, C: -s, D: c}
}

// Scaling returns the map that scales x by sx and y by sy about the origin.
func Scaling(sx, sy float64) Affine { return Affine{A: sx, D: sy} }

// Mul returns the composition m∘n: n is applied first, then m.
func (m Affine) Mul(n Affine) Affine {
	return Affine{
		A: m.A*n.A + m.C*n.B,
		B: m.B*n.A + m.D*n.B,
		C: m.A*n.C + m.C*n.D,
		D: m.B*n.C + m.D*n.D,
		E: m.A*n.E + m.C*n.F + m.E,
		F: m.B*n.E + m.D*n.F + m.F,
	}
}

// Apply maps the point p.
func (m Affine) Apply(p Vec) Vec {
	return Vec{m.A*p.X + m.C*p.Y + m.E, m.B*p.X + m.D*p.Y + m.F}
}

// ApplyVec maps the displacement v (the linear part only).
func (m Affine) ApplyVec(v Vec) Vec {
	return Vec{m.A*v.X + m.C*v.Y, m.B*v.X + m.D*v.Y}
}

// Det is the determinant of the linear part; negative means the map mirrors.
func (m Affine) Det() float64 { return m.A*m.D - m.B*m.C }

// Invert returns the inverse map; ok is false when m is singular.
func (m Affine) Invert() (inv Affine, ok bool) {
	det := m.Det()
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Affine{}, false
	}
	a, b, c, d := m.D/det, -m.B/det, -m.C/det, m.A/det
	return Affine{A: a, B: b, C: c, D: d, E: -(a*m.E + c*m.F), F: -(b*m.E + d*m.F)}, true
}

// MaxScale is the largest factor by which m stretches any direction (the larger singular
// value); flattening tolerances divide by it so that curves stay smooth once transformed.
func (m Affine) MaxScale() float64 {
	s1, _ := m.singular()
	return s1
}

// singular returns the singular values of the linear part, largest first.
func (m Affine) singular() (float64, float64) {
	e := (m.A + m.D) / 2
	f := (m.A - m.D) / 2
	g := (m.B + m.C) / 2
	h := (m.B - m.C) / 2
	q := math.Hypot(e, h)
	r := math.Hypot(f, g)
	return q + r, math.Abs(q - r)
}

// Box is an axis-aligned bounding box. The zero Box is empty.
type Box struct {
	Min, Max Vec
	NonEmpty bool
}

// Extend grows b to contain p.
func (b *Box) Extend(p Vec) {
	if !b.NonEmpty {
		*b = Box{Min: p, Max: p, NonEmpty: true}
		return
	}
	b.Min.X = boxMin(b.Min.X, p.X)
	b.Min.Y = boxMin(b.Min.Y, p.Y)
	b.Max.X = boxMax(b.Max.X, p.X)
	b.Max.Y = boxMax(b.Max.Y, p.Y)
}

// boxMin is math.Min(a, b), compiled inline: bounds extend every point of a scene through
// here. The built-in min answers as math.Min does but for one case, a NaN beside an infinity
// (math.Min's -Inf wins over NaN), which is left to math.Min.
func boxMin(a, b float64) float64 {
	if m := min(a, b); m == m {
		return m
	}
	return math.Min(a, b)
}

// boxMax is math.Max(a, b), as boxMin is math.Min.
func boxMax(a, b float64) float64 {
	if m := max(a, b); m == m {
		return m
	}
	return math.Max(a, b)
}

// Union grows b to contain c.
func (b *Box) Union(c Box) {
	if c.NonEmpty {
		b.Extend(c.Min)
		b.Extend(c.Max)
	}
}

// Center is the middle of the box (the origin for an empty box).
func (b Box) Center() Vec {
	if !b.NonEmpty {
		return Vec{}
	}
	return Vec{(b.Min.X + b.Max.X) / 2, (b.Min.Y + b.Max.Y) / 2}
}

// Size is the box's width and height.
func (b Box) Size() Vec { return b.Max.Sub(b.Min) }
