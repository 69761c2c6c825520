package overlay

// simplefeatures: conversions to and from its geometries, and the fallbacks used when the
// overlay engine fails its own topology check.

import (
	"fmt"
	"log/slog"
	"math"
	"sync/atomic"

	"github.com/peterstace/simplefeatures/geom"
)

// fallbacks counts the operations the overlay engine handed to simplefeatures.
var fallbacks atomic.Int64

// Fallbacks is how many operations the overlay engine has handed to simplefeatures since the
// process started, because its topology check failed twice. Each one is also logged (slog,
// level warning). A fallback gives a right answer more slowly; a count that grows points at a
// gap in the engine worth a test case.
func Fallbacks() int64 { return fallbacks.Load() }

func noteFallback(op string, rings int) {
	fallbacks.Add(1)
	slog.Warn("geometry: the overlay engine failed its topology check; the operation is redone with simplefeatures",
		"operation", op, "rings", rings)
}

func closedXY(r []Point) []float64 {
	xy := make([]float64, 0, 2*len(r)+2)
	for _, p := range r {
		xy = append(xy, p.X, p.Y)
	}
	return append(xy, r[0].X, r[0].Y)
}

func toGeomPolygon(p Polygon) geom.Polygon {
	rings := [][]float64{closedXY(p.Outer)}
	for _, h := range p.Holes {
		rings = append(rings, closedXY(h))
	}
	return geom.NewPolygonXY(rings...)
}

func toGeom(polys []Polygon) geom.Geometry {
	if len(polys) == 1 {
		return toGeomPolygon(polys[0]).AsGeometry()
	}
	gp := make([]geom.Polygon, len(polys))
	for i, p := range polys {
		gp[i] = toGeomPolygon(p)
	}
	return geom.NewMultiPolygon(gp).AsGeometry()
}

// polysFromGeom reads the polygons of a library result, dropping lower-dimensional parts
// (an intersection of shapes that only touch) and normalising ring orientation, which the
// library does not guarantee.
func polysFromGeom(g geom.Geometry) []Polygon {
	var out []Polygon
	ring := func(ls geom.LineString, ccw bool) []Point {
		seq := ls.Coordinates()
		r := make([]Point, 0, seq.Length())
		for i := range seq.Length() {
			xy := seq.GetXY(i)
			r = append(r, Point{xy.X, xy.Y})
		}
		r = clean(r)
		if len(r) < 3 || Area(r) == 0 {
			return nil
		}
		return OrientRing(r, ccw)
	}
	addPoly := func(p geom.Polygon) {
		if p.IsEmpty() {
			return
		}
		outer := ring(p.ExteriorRing(), true)
		if outer == nil {
			return
		}
		q := Polygon{Outer: outer}
		for i := range p.NumInteriorRings() {
			if h := ring(p.InteriorRingN(i), false); h != nil {
				q.Holes = append(q.Holes, h)
			}
		}
		out = append(out, q)
	}
	var walk func(geom.Geometry)
	walk = func(g geom.Geometry) {
		if p, ok := g.AsPolygon(); ok {
			addPoly(p)
		} else if mp, ok := g.AsMultiPolygon(); ok {
			for i := range mp.NumPolygons() {
				addPoly(mp.PolygonN(i))
			}
		} else if gc, ok := g.AsGeometryCollection(); ok {
			for i := range gc.NumGeometries() {
				walk(gc.GeometryN(i))
			}
		}
	}
	walk(g)
	return out
}

// geomUnion unions polygons that may overlap; each is first made a valid library polygon
// (outer minus holes), since holes here need not lie inside their outer ring.
func geomUnion(polys []Polygon) (geom.Geometry, error) {
	gs := make([]geom.Geometry, 0, len(polys))
	for _, p := range polys {
		g := toGeomPolygon(Polygon{Outer: p.Outer}).AsGeometry()
		if len(p.Holes) > 0 {
			hs := make([]geom.Geometry, len(p.Holes))
			for i, h := range p.Holes {
				hs[i] = toGeomPolygon(Polygon{Outer: h}).AsGeometry()
			}
			holes, err := geom.UnionMany(hs)
			if err != nil {
				return geom.Geometry{}, err
			}
			if g, err = geom.Difference(g, holes); err != nil {
				return geom.Geometry{}, err
			}
		}
		gs = append(gs, g)
	}
	return geom.UnionMany(gs)
}

func booleanFallback(o Op, pa, pb []Polygon) ([]Polygon, error) {
	a, err := geomUnion(pa)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFailed, err)
	}
	b, err := geomUnion(pb)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFailed, err)
	}
	var r geom.Geometry
	switch o {
	case OpUnion:
		r, err = geom.Union(a, b)
	case OpDifference:
		r, err = geom.Difference(a, b)
	case OpIntersect:
		r, err = geom.Intersection(a, b)
	default:
		r, err = geom.SymmetricDifference(a, b)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFailed, err)
	}
	return polysFromGeom(r), nil
}

// nonzeroFallback approximates the nonzero fill with the library: rings wound like the
// largest one are unioned, the others unioned and subtracted. (It misses an island inside a
// hole, which the engine gets right; it only runs when the engine fails.)
func nonzeroFallback(rings [][]Point) ([]Polygon, error) {
	largest, sign := 0.0, 1.0
	for _, r := range rings {
		if a := Area(r); math.Abs(a) > largest {
			largest, sign = math.Abs(a), math.Copysign(1, a)
		}
	}
	var pos, neg []Polygon
	for _, r := range rings {
		if Area(r)*sign > 0 {
			pos = append(pos, Polygon{Outer: OrientRing(r, true)})
		} else {
			neg = append(neg, Polygon{Outer: OrientRing(r, true)})
		}
	}
	return booleanFallback(OpDifference, pos, neg)
}

func offsetFallback(area []Polygon, delta float64, join Join) ([]Polygon, error) {
	opts := []geom.BufferOption{geom.BufferQuadSegments(join.QuadSegments)}
	if join.Round {
		opts = append(opts, geom.BufferJoinStyleRound())
	} else {
		opts = append(opts, geom.BufferJoinStyleMitre(join.MiterLimit))
	}
	r, err := geom.Buffer(toGeom(area), delta, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFailed, err)
	}
	return polysFromGeom(r), nil
}

// LibraryBoolean computes op with simplefeatures alone, as the fallback of Union,
// Difference, Intersect and Xor does; tests and benchmarks compare the engine with it.
func LibraryBoolean(op Op, a, b []Polygon) ([]Polygon, error) { return booleanFallback(op, a, b) }

// LibraryOffset computes Offset with simplefeatures' buffer alone, as its fallback does.
func LibraryOffset(area []Polygon, delta float64, join Join) ([]Polygon, error) {
	return offsetFallback(area, delta, join)
}

// ConvexHull is the convex hull of an area, as at most one polygon (none when the area
// encloses nothing).
func ConvexHull(area []Polygon) []Polygon {
	return polysFromGeom(toGeom(area).ConvexHull())
}

// Validate checks polygons against simplefeatures' rules for a multipolygon (simple rings,
// holes inside their outer ring, parts apart except at points), as results must meet them;
// tests use it on every result they take.
func Validate(area []Polygon) error {
	return toGeom(area).Validate()
}

// clean drops repeated points (and points within a rounding error of their neighbour) and
// the closing point of a ring the library returns.
func clean(r []Point) []Point {
	near := func(a, b Point) bool {
		const eps = 1e-12
		scale := max(math.Abs(a.X), math.Abs(a.Y))
		return math.Abs(a.X-b.X) <= eps*scale && math.Abs(a.Y-b.Y) <= eps*scale
	}
	out := make([]Point, 0, len(r))
	for _, p := range r {
		if len(out) > 0 && near(out[len(out)-1], p) {
			continue
		}
		out = append(out, p)
	}
	for len(out) > 1 && near(out[len(out)-1], out[0]) {
		out = out[:len(out)-1]
	}
	return out
}
