package scene

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

func closedXY(r []Vec) []float64 {
	xy := make([]float64, 0, 2*len(r)+2)
	for _, p := range r {
		xy = append(xy, p.X, p.Y)
	}
	return append(xy, r[0].X, r[0].Y)
}

func toGeomPolygon(p ovPoly) geom.Polygon {
	rings := [][]float64{closedXY(p.outer)}
	for _, h := range p.holes {
		rings = append(rings, closedXY(h))
	}
	return geom.NewPolygonXY(rings...)
}

func toGeom(polys []ovPoly) geom.Geometry {
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
func polysFromGeom(g geom.Geometry) []ovPoly {
	var out []ovPoly
	ring := func(ls geom.LineString, ccw bool) []Vec {
		seq := ls.Coordinates()
		r := make([]Vec, 0, seq.Length())
		for i := range seq.Length() {
			xy := seq.GetXY(i)
			r = append(r, Vec{xy.X, xy.Y})
		}
		r = cleanRing(r)
		if len(r) < 3 || ringArea(r) == 0 {
			return nil
		}
		return orientRing(r, ccw)
	}
	addPoly := func(p geom.Polygon) {
		if p.IsEmpty() {
			return
		}
		outer := ring(p.ExteriorRing(), true)
		if outer == nil {
			return
		}
		q := ovPoly{outer: outer}
		for i := range p.NumInteriorRings() {
			if h := ring(p.InteriorRingN(i), false); h != nil {
				q.holes = append(q.holes, h)
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
func geomUnion(polys []ovPoly) (geom.Geometry, error) {
	gs := make([]geom.Geometry, 0, len(polys))
	for _, p := range polys {
		g := toGeomPolygon(ovPoly{outer: p.outer}).AsGeometry()
		if len(p.holes) > 0 {
			hs := make([]geom.Geometry, len(p.holes))
			for i, h := range p.holes {
				hs[i] = toGeomPolygon(ovPoly{outer: h}).AsGeometry()
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

func booleanFallback(op BoolOp, pa, pb []ovPoly) ([]ovPoly, error) {
	a, err := geomUnion(pa)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	b, err := geomUnion(pb)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	var r geom.Geometry
	switch op {
	case Union:
		r, err = geom.Union(a, b)
	case Difference:
		r, err = geom.Difference(a, b)
	case Intersect:
		r, err = geom.Intersection(a, b)
	default:
		r, err = geom.SymmetricDifference(a, b)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	return polysFromGeom(r), nil
}

// nonzeroFallback approximates the nonzero fill with the library: rings wound like the
// largest one are unioned, the others unioned and subtracted. (It misses an island inside a
// hole, which the engine gets right; it only runs when the engine fails.)
func nonzeroFallback(rings [][]Vec) ([]ovPoly, error) {
	largest, sign := 0.0, 1.0
	for _, r := range rings {
		if a := ringArea(r); math.Abs(a) > largest {
			largest, sign = math.Abs(a), math.Copysign(1, a)
		}
	}
	var pos, neg []ovPoly
	for _, r := range rings {
		if ringArea(r)*sign > 0 {
			pos = append(pos, ovPoly{outer: orientRing(r, true)})
		} else {
			neg = append(neg, ovPoly{outer: orientRing(r, true)})
		}
	}
	return booleanFallback(Difference, pos, neg)
}

func offsetFallback(area []ovPoly, delta float64, join joinSpec) ([]ovPoly, error) {
	opts := []geom.BufferOption{geom.BufferQuadSegments(offsetQuadSegments(math.Abs(delta), areaExtent(area)))}
	if join.round {
		opts = append(opts, geom.BufferJoinStyleRound())
	} else {
		opts = append(opts, geom.BufferJoinStyleMitre(join.limit))
	}
	r, err := geom.Buffer(toGeom(area), delta, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGeometryFailed, err)
	}
	return polysFromGeom(r), nil
}
