package kernel

// Closed forms the measures of a single shape take: an ellipse's perimeter computed rather
// than sampled, the semi-axes an affine map gives a circle or an ellipse, the scale of a
// similarity (under which arcs stay arcs), and a path of lines and circular arcs read as a
// ring of vertices and bulges (geom/bulge.go), so that it is measured from its lines and arcs.

import (
	"math"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
)

// SimilarityScale is the scale of w when w is a similarity (a uniform scale, a turn, maybe a
// mirror), within rounding: a turn's matrix comes out of sine and cosine.
func SimilarityScale(w geom.Affine) (float64, bool) {
	sx, sy := w.ApplyVec(geom.Vec{X: 1}), w.ApplyVec(geom.Vec{Y: 1})
	lx, ly := sx.Len(), sy.Len()
	const eps = 1e-12
	if math.Abs(lx-ly) <= eps*lx && math.Abs(sx.X*sy.X+sx.Y*sy.Y) <= eps*lx*ly {
		return (lx + ly) / 2, true
	}
	return 0, false
}

// EllipseAxes are the semi-axes of the image under w of the ellipse with radii rx, ry along
// x and y: the singular values of w's linear part times diag(rx, ry).
func EllipseAxes(w geom.Affine, rx, ry float64) (a, b float64) {
	// The columns of M = L·diag(rx, ry).
	m11, m21 := w.A*rx, w.B*rx
	m12, m22 := w.C*ry, w.D*ry
	// The singular values of a 2×2 matrix are Q+R and |Q−R|, with Q and R the lengths of
	// its similarity and anti-similarity parts: no cancellation, unlike the route through the
	// determinant.
	e, f := (m11+m22)/2, (m11-m22)/2
	g, h := (m21+m12)/2, (m21-m12)/2
	q, r := math.Hypot(e, h), math.Hypot(f, g)
	return q + r, math.Abs(q - r)
}

// EllipsePerimeter is the perimeter of an ellipse with semi-axes a and b, to the precision of
// a float64: 4a·E(k) with k² = 1 − (b/a)², the complete elliptic integral of the second kind
// computed by the arithmetic-geometric mean, which converges quadratically.
func EllipsePerimeter(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if b == a {
		return 2 * math.Pi * a
	}
	if b == 0 {
		return 4 * a
	}
	// E(k) = K(k)·(1 − Σ 2^(n−1)·c_n²), K(k) = π / (2·AGM(1, k')), c_0 = k.
	x, y := 1.0, b/a
	c := math.Sqrt(math.Max(0, 1-y*y))
	sum, pow := c*c/2, 0.5
	for range 64 {
		if math.Abs(x-y) <= 1e-17*x {
			break
		}
		c = (x - y) / 2
		x, y = (x+y)/2, math.Sqrt(x*y)
		pow *= 2
		sum += pow * c * c
	}
	return 4 * a * (math.Pi / (2 * x)) * (1 - sum)
}

// BulgedSubpath is one closed subpath (a move, lines and circular arcs, a close) as a ring
// of vertices and bulges, or false when it holds anything else.
func BulgedSubpath(path geom.Path) ([]geom.Vec, []float64, bool) {
	if len(path) < 3 || path[0].Kind != geom.SegMove || path[len(path)-1].Kind != geom.SegClose {
		return nil, nil, false
	}
	pts := []geom.Vec{path[0].P[0]}
	var bul []float64
	here := path[0].P[0]
	lineTo := func(q geom.Vec) {
		if q != here {
			bul = append(bul, 0)
			pts = append(pts, q)
			here = q
		}
	}
	for _, seg := range path[1 : len(path)-1] {
		switch seg.Kind {
		case geom.SegLine:
			lineTo(seg.P[0])
		case geom.SegArc:
			a, ok := geom.CircleOf(seg)
			sweep := a.Sweep
			if !ok || math.Abs(sweep) > 2*math.Pi+1e-9 {
				return nil, nil, false
			}
			lineTo(seg.ArcPoint(seg.T0))
			for q, k := range seg.HalfTurnPoints(sweep) {
				bul = append(bul, k)
				pts = append(pts, q)
				here = q
			}
		default:
			return nil, nil, false
		}
	}
	// The last point closes onto the first: its edge is the closing one.
	if n := len(pts); n > 1 && NearlyEqual(overlay.Point(pts[n-1]), overlay.Point(pts[0])) {
		pts = pts[:n-1]
	} else {
		bul = append(bul, 0)
	}
	if len(pts) < 2 || len(bul) != len(pts) {
		return nil, nil, false
	}
	return pts, bul, true
}
