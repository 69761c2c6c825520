package scene

// A differential test of the area operations on seeded random and degenerate inputs: pairs of
// shapes that are ordinary, copies a few ulps apart, copies jittered by 1e-9 of their size,
// sharing edges, touching at vertices, on a small integer grid, carrying holes that overlap or
// leave their outer ring, and all of those scaled by 1e-6 and 1e6 or moved far from the
// origin. Each result is checked against
//   - exact point membership: at sample points away from every input boundary, a point is in
//     the result exactly when the operation keeps it (orientation signs computed exactly);
//   - simplefeatures' area for the same operation;
//   - the result's own rules: simple rings, outer rings counter-clockwise and holes clockwise,
//     no ring no wider than the precision, getArea equal to the sum of the parts;
//   - the same operation on the inputs scaled by 1e6 and 1e-6: the same parts, the area scaled.
// `go test` runs -geometry.cases of them (300); `make geometry-long` runs many more, and
// FuzzBoolean explores seeds.

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

var geometryCases = flag.Int("geometry.cases", 300, "cases of the differential geometry test")

// diffCase is one generated input: two operands, each a list of polygons as drawn.
type diffCase struct {
	kind string
	a, b []Polygon
}

// starRing is a star-shaped (so simple) ring around c: n vertices at sorted random angles.
func starRing(rng *rand.Rand, c geom.Vec, r float64, n int) []geom.Vec {
	angles := make([]float64, n)
	for i := range angles {
		angles[i] = (float64(i) + 0.8*rng.Float64()) * 2 * math.Pi / float64(n)
	}
	pts := make([]geom.Vec, n)
	for i, a := range angles {
		rr := r * (0.35 + 0.65*rng.Float64())
		s, co := math.Sincos(a)
		pts[i] = geom.Vec{X: c.X + rr*co, Y: c.Y + rr*s}
	}
	return pts
}

func mapPolys(ps []Polygon, f func(geom.Vec) geom.Vec) []Polygon {
	out := make([]Polygon, len(ps))
	for i, p := range ps {
		for _, part := range p.Parts {
			q := PolygonPart{Outer: mapPts(part.Outer, f)}
			for _, h := range part.Holes {
				q.Holes = append(q.Holes, mapPts(h, f))
			}
			out[i].Parts = append(out[i].Parts, q)
		}
	}
	return out
}

func mapPts(r []geom.Vec, f func(geom.Vec) geom.Vec) []geom.Vec {
	out := make([]geom.Vec, len(r))
	for i, p := range r {
		out[i] = f(p)
	}
	return out
}

func onePoly(r []geom.Vec) Polygon { return Polygon{Parts: []PolygonPart{{Outer: r}}} }

// ulps moves v by k units in the last place.
func ulps(v float64, k int) float64 {
	dir := math.Inf(1)
	if k < 0 {
		dir, k = math.Inf(-1), -k
	}
	for range k {
		v = math.Nextafter(v, dir)
	}
	return v
}

func genCase(rng *rand.Rand) diffCase {
	c := func() geom.Vec { return geom.Vec{X: rng.Float64()*8 - 4, Y: rng.Float64()*8 - 4} }
	star := func() []geom.Vec { return starRing(rng, c(), 2+rng.Float64()*4, 3+rng.IntN(10)) }
	var dc diffCase
	switch k := rng.IntN(8); k {
	case 0:
		dc.kind = "ordinary"
		dc.a, dc.b = []Polygon{onePoly(star())}, []Polygon{onePoly(star())}
	case 1:
		dc.kind = "ulp copies"
		a := star()
		dc.a = []Polygon{onePoly(a)}
		dc.b = mapPolys(dc.a, func(p geom.Vec) geom.Vec { return geom.Vec{X: ulps(p.X, rng.IntN(9)-4), Y: ulps(p.Y, rng.IntN(9)-4)} })
		if rng.IntN(2) == 0 {
			dc.b = append(dc.b, onePoly(star()))
		}
	case 2:
		dc.kind = "jittered copies"
		a := star()
		dc.a = []Polygon{onePoly(a)}
		for range 1 + rng.IntN(5) {
			dc.b = append(dc.b, mapPolys(dc.a, func(p geom.Vec) geom.Vec {
				return geom.Vec{X: p.X + 1e-9*(rng.Float64()*2-1), Y: p.Y + 1e-9*(rng.Float64()*2-1)}
			})...)
		}
	case 3:
		dc.kind = "shared edges"
		x, y := float64(rng.IntN(5)), float64(rng.IntN(5))
		w, h := float64(1+rng.IntN(4)), float64(1+rng.IntN(4))
		dc.a = []Polygon{boolRect(x, y, x+w, y+h)}
		// B shares a whole side, part of a side, or is A turned by exactly 90° about a corner.
		switch rng.IntN(3) {
		case 0:
			dc.b = []Polygon{boolRect(x+w, y, x+w+1+float64(rng.IntN(3)), y+h)}
		case 1:
			dc.b = []Polygon{boolRect(x+w, y+1, x+w+2, y+h+1)}
		default:
			dc.b = mapPolys(dc.a, func(p geom.Vec) geom.Vec { return geom.Vec{X: x - (p.Y - y), Y: y + (p.X - x)} })
		}
	case 4:
		dc.kind = "touching vertex"
		a := star()
		v := a[rng.IntN(len(a))]
		dc.a = []Polygon{onePoly(a)}
		dc.b = mapPolys(dc.a, func(p geom.Vec) geom.Vec { return geom.Vec{X: 2*v.X - p.X, Y: 2*v.Y - p.Y} })
	case 5:
		dc.kind = "integer grid"
		grid := func() []geom.Vec {
			for {
				r := make([]geom.Vec, 3+rng.IntN(3))
				for i := range r {
					r[i] = geom.Vec{X: float64(rng.IntN(6)), Y: float64(rng.IntN(6))}
				}
				if q := kernel.CleanRing(r); len(q) >= 3 && !kernel.CollinearRing(q) {
					if _, bad := kernel.SelfCrossing(q); !bad {
						return vecs(q)
					}
				}
			}
		}
		for range 1 + rng.IntN(3) {
			dc.a = append(dc.a, onePoly(grid()))
		}
		for range 1 + rng.IntN(3) {
			dc.b = append(dc.b, onePoly(grid()))
		}
	case 6:
		dc.kind = "holes anywhere"
		a := onePoly(star())
		for range 1 + rng.IntN(3) {
			a.Parts[0].Holes = append(a.Parts[0].Holes, starRing(rng, c(), 1+rng.Float64()*2, 3+rng.IntN(6)))
		}
		if _, err := applyHoleRule(a); err != nil {
			a.Parts[0].Holes = nil // they cover it all, which drawPolygon refuses
		}
		dc.a, dc.b = []Polygon{a}, []Polygon{onePoly(star())}
	default:
		dc.kind = "many ordinary"
		for range 2 + rng.IntN(4) {
			dc.a = append(dc.a, onePoly(star()))
			dc.b = append(dc.b, onePoly(star()))
		}
	}
	// Some cases are moved far from the origin or scaled to extremes.
	switch rng.IntN(5) {
	case 0:
		f := []float64{1e-6, 1e6, 1e-12, 1e9}[rng.IntN(4)]
		dc.kind += fmt.Sprintf(" scaled by %g", f)
		dc.a, dc.b = mapPolys(dc.a, func(p geom.Vec) geom.Vec { return p.Mul(f) }), mapPolys(dc.b, func(p geom.Vec) geom.Vec { return p.Mul(f) })
	case 1:
		o := geom.Vec{X: 1e6, Y: -3e5}
		dc.kind += " far from the origin"
		dc.a, dc.b = mapPolys(dc.a, func(p geom.Vec) geom.Vec { return p.Add(o) }), mapPolys(dc.b, func(p geom.Vec) geom.Vec { return p.Add(o) })
	}
	return dc
}

// insideDrawn is exact membership in a polygon as drawn, under the hole rule: inside an outer
// ring and inside none of its holes.
func insideDrawn(ps []Polygon, p geom.Vec) bool {
	for _, pg := range ps {
		for _, part := range pg.Parts {
			if windingAt(part.Outer, p) == 0 {
				continue
			}
			inHole := false
			for _, h := range part.Holes {
				inHole = inHole || windingAt(h, p) != 0
			}
			if !inHole {
				return true
			}
		}
	}
	return false
}

func segDist(p, a, b geom.Vec) float64 {
	d := b.Sub(a)
	t := 0.0
	if l2 := d.X*d.X + d.Y*d.Y; l2 > 0 {
		t = min(1, max(0, ((p.X-a.X)*d.X+(p.Y-a.Y)*d.Y)/l2))
	}
	return p.Sub(a.Add(d.Mul(t))).Len()
}

// boundaryDist is the distance from p to the nearest ring edge of ps.
func boundaryDist(ps []Polygon, p geom.Vec) float64 {
	d := math.Inf(1)
	for _, pg := range ps {
		for _, part := range pg.Parts {
			for _, r := range append([][]geom.Vec{part.Outer}, part.Holes...) {
				for i := range r {
					d = min(d, segDist(p, r[i], r[(i+1)%len(r)]))
				}
			}
		}
	}
	return d
}

func extentOf(ps ...[]Polygon) (geom.Box, float64) {
	var b geom.Box
	for _, l := range ps {
		for _, pg := range l {
			for _, part := range pg.Parts {
				for _, p := range part.Outer {
					b.Extend(p)
				}
			}
		}
	}
	maxAbs := max(math.Abs(b.Min.X), math.Abs(b.Min.Y), math.Abs(b.Max.X), math.Abs(b.Max.Y))
	return b, max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y, maxAbs*1e-6)
}

// diffScene draws the operands as a0.., b0.. and returns their names.
func diffScene(t *testing.T, dc diffCase) (*Scene, []string, []string) {
	s := New()
	put := func(prefix string, ps []Polygon) []string {
		var names []string
		for i, p := range ps {
			n := fmt.Sprintf("%s%d", prefix, i)
			if _, err := s.Put(n, p); err != nil {
				t.Fatalf("%s: drawing %s: %v", dc.kind, n, err)
			}
			names = append(names, n)
		}
		return names
	}
	return s, put("a", dc.a), put("b", dc.b)
}

// resultOf runs op and returns the result's parts (nil when empty) and getArea.
func resultOf(s *Scene, op BoolOp, a, b []string) ([]PolygonPart, float64, error) {
	if op == Union && len(b) > 0 && len(a)+len(b) > 2 {
		a, b = append(append([]string(nil), a...), b...), nil // the list form
	}
	e, err := s.Boolean(op, a, b, "r")
	if errors.Is(err, ErrEmptyResult) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	area, err := s.Area("r")
	return e.Shape.(Polygon).Parts, area, err
}

func checkParts(parts []PolygonPart, eps float64) error {
	for i, part := range parts {
		rings := append([][]geom.Vec{part.Outer}, part.Holes...)
		net, per := 0.0, 0.0
		for _, r := range rings {
			net, per = net+overlay.Area(r), per+ringPerimeter(r)
		}
		if net <= eps*per {
			return fmt.Errorf("part %d is a sliver: area %v, rings %v long", i, net, per)
		}
		for j, r := range rings {
			a := overlay.Area(r)
			if (j == 0) != (a > 0) {
				return fmt.Errorf("part %d ring %d has signed area %v: outer rings run counter-clockwise, holes clockwise", i, j, a)
			}
			if at, bad := kernel.SelfCrossing(enginePoints(r)); bad {
				return fmt.Errorf("part %d ring %d touches itself at %v", i, j, at)
			}
			if math.Abs(a) <= eps*ringPerimeter(r) {
				return fmt.Errorf("part %d ring %d is a sliver: area %v, perimeter %v", i, j, a, ringPerimeter(r))
			}
		}
	}
	return nil
}

func vecs(r []overlay.Point) []geom.Vec {
	out := make([]geom.Vec, len(r))
	for i, p := range r {
		out[i] = geom.Vec(p)
	}
	return out
}

// keeps says whether op keeps a point inside a (or not) and inside b (or not).
func keeps(op BoolOp, a, b bool) bool {
	switch op {
	case Union:
		return a || b
	case Difference:
		return a && !b
	case Intersect:
		return a && b
	default:
		return a != b
	}
}

// windingAt is the winding number of ring r around p (p not on r).
func windingAt(r []geom.Vec, p geom.Vec) int {
	w := 0
	n := len(r)
	for i := range n {
		a, b := overlay.Point(r[i]), overlay.Point(r[(i+1)%n])
		if a.Y <= p.Y {
			if b.Y > p.Y && overlay.Orient(a, b, overlay.Point(p)) > 0 {
				w++
			}
		} else if b.Y <= p.Y && overlay.Orient(a, b, overlay.Point(p)) < 0 {
			w--
		}
	}
	return w
}

func ringPerimeter(r []geom.Vec) float64 {
	l := 0.0
	for i, p := range r {
		l += r[(i+1)%len(r)].Sub(p).Len()
	}
	return l
}

func areaOf(area []overlay.Polygon) float64 {
	sum := 0.0
	for _, p := range area {
		sum += p.Area()
	}
	return sum
}

func partsArea(parts []PolygonPart) float64 {
	sum := 0.0
	for _, p := range parts {
		sum += geom.BulgedArea(p.Outer, p.OuterBulges)
		for k, h := range p.Holes {
			sum += geom.BulgedArea(h, p.holeBulges(k))
		}
	}
	return sum
}

// areaParts is the named entity's area as the area operations read it (arcs flattened), as
// polygon parts, for the checks that read points.
func areaParts(t *testing.T, s *Scene, name string) []PolygonPart {
	t.Helper()
	polys, err := s.areaOf(name)
	if err != nil {
		t.Fatalf("reading %q back: %v", name, err)
	}
	out := make([]PolygonPart, len(polys))
	for i, p := range polys {
		out[i] = PolygonPart{Outer: kernel.MapRing(p.Outer, geom.Identity, false), Holes: kernel.MapRings(p.Holes)}
	}
	return out
}

func TestDifferentialBooleans(t *testing.T) {
	t.Parallel()
	runDifferential(t, 7, *geometryCases)
}

func FuzzBoolean(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { runDifferential(t, seed, 1) })
}

func runDifferential(t *testing.T, seed uint64, cases int) {
	rng := rand.New(rand.NewPCG(seed, 11))
	for i := range cases {
		dc := genCase(rng)
		name := fmt.Sprintf("case %d (seed %d, %s)", i, seed, dc.kind)
		op := BoolOp(rng.IntN(4))
		checkBoolean(t, name, dc, op, rng)
		if t.Failed() {
			return // one case at a time is enough to read
		}
	}
}

func TestDifferentialOffsets(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 13))
	for i := range max(1, *geometryCases/3) {
		dc := genCase(rng)
		checkOffset(t, fmt.Sprintf("case %d (%s)", i, dc.kind), dc, rng)
		if t.Failed() {
			return
		}
	}
}

// checkOffset offsets the union of A by a random distance and join and checks the result
// against distances from A (points closer than the distance are in a grown shape, points
// further out are not; for an inset, the other way round), simplefeatures' buffer, the
// result rules and the same offset scaled.
func checkOffset(t *testing.T, name string, dc diffCase, rng *rand.Rand) {
	t.Helper()
	s, an, _ := diffScene(t, diffCase{kind: dc.kind, a: dc.a})
	ea, err := s.Boolean(Union, an, nil, "A")
	if err != nil {
		if errors.Is(err, ErrEmptyResult) {
			return
		}
		t.Fatalf("%s: %v", name, err)
	}
	union := []Polygon{ea.Shape.(Polygon)} // distances are to the union's boundary
	box, extent := extentOf(dc.a)
	size := min(box.Max.X-box.Min.X, box.Max.Y-box.Min.Y)
	delta := size * (0.02 + 0.2*rng.Float64())
	if rng.IntN(2) == 0 {
		delta = -delta
	}
	opt := OffsetOptions{Join: []JoinType{JoinRound, JoinSquare, JoinMiter}[rng.IntN(3)]}
	name = fmt.Sprintf("%s offset by %v (%s)", name, delta, opt.Join)
	e, err := s.Offset("A", delta, "r", opt)
	var parts []PolygonPart
	switch {
	case errors.Is(err, ErrEmptyResult):
	case err != nil:
		t.Errorf("%s: %v", name, err)
		return
	default:
		parts = e.Shape.(Polygon).Parts
	}
	area := partsArea(parts)
	read := parts
	if parts != nil {
		read = areaParts(t, s, "r") // as the area operations read it, round joins flattened
	}
	if err := checkParts(read, extent*SnapRelative); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	ad := math.Abs(delta)
	grown := geom.Box{Min: box.Min.Sub(geom.Vec{X: 2 * ad, Y: 2 * ad}), Max: box.Max.Add(geom.Vec{X: 2 * ad, Y: 2 * ad}), NonEmpty: true}
	for range 60 {
		p := geom.Vec{X: grown.Min.X + rng.Float64()*(grown.Max.X-grown.Min.X), Y: grown.Min.Y + rng.Float64()*(grown.Max.Y-grown.Min.Y)}
		d := boundaryDist(union, p)
		in := insideDrawn(union, p)
		got := insideDrawn([]Polygon{{Parts: read}}, p)
		// Every join covers the round offset's chords, which stay within 0.5% of the
		// distance; a round join reaches no further than the distance, a square or miter
		// join (limit 2) reaches no further than 3 times it.
		far := 1.01 * ad
		if opt.Join != JoinRound {
			far = 3 * ad
		}
		var want, sure bool
		switch {
		case delta > 0 && in, delta > 0 && d < 0.99*ad:
			want, sure = true, true
		case delta > 0 && d > far:
			want, sure = false, true
		case delta < 0 && (!in || d < 0.99*ad):
			want, sure = false, true
		case delta < 0 && in && d > far:
			want, sure = true, true
		}
		if sure && got != want {
			t.Errorf("%s: point %v (in A %v, %v from its boundary) is in the result: %v, want %v", name, p, in, d, got, want)
			return
		}
	}
	pa, err := s.collectAreas([]string{"A"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	join, _ := opt.resolve()
	// simplefeatures bevels a miter that passes its limit, where cadrun cuts it square at
	// the limit (JTS's limited mitre), so only round and square joins are compared.
	if lib, err := libraryOffset(pa, delta, join); err == nil && opt.Join != JoinMiter {
		want := 0.0
		for _, p := range lib {
			want += p.Area()
		}
		// The library simplifies its input by 1% of the distance first.
		// Insets that leave little are compared relative to the shape they came from.
		if math.Abs(area-want) > 2e-3*max(area, want, areaOf(pa))+1e-9*extent*extent {
			t.Errorf("%s: area %v, simplefeatures %v", name, area, want)
		}
	}
	for _, f := range []float64{1e6, 1e-6} {
		if extent*f > MaxCoord/100 || extent*f < 1e-30 {
			continue
		}
		ss, san, _ := diffScene(t, diffCase{kind: dc.kind, a: mapPolys(dc.a, func(p geom.Vec) geom.Vec { return p.Mul(f) })})
		if _, err := ss.Boolean(Union, san, nil, "A"); err != nil {
			t.Errorf("%s scaled by %g: %v", name, f, err)
			continue
		}
		se, err := ss.Offset("A", delta*f, "r", opt)
		var sparts []PolygonPart
		if err == nil {
			sparts = se.Shape.(Polygon).Parts
		} else if !errors.Is(err, ErrEmptyResult) {
			t.Errorf("%s scaled by %g: %v", name, f, err)
			continue
		}
		if sarea := partsArea(sparts) / (f * f); len(sparts) != len(parts) || math.Abs(sarea-area) > 1e-8*extent*extent {
			t.Errorf("%s scaled by %g: %d parts of area %v, unscaled %d parts of area %v", name, f, len(sparts), sarea, len(parts), area)
		}
	}
}

func checkBoolean(t *testing.T, name string, dc diffCase, op BoolOp, rng *rand.Rand) {
	t.Helper()
	s, an, bn := diffScene(t, dc)
	parts, area, err := resultOf(s, op, an, bn)
	if err != nil {
		t.Errorf("%s %s: %v", name, op, err)
		return
	}
	box, extent := extentOf(dc.a, dc.b)
	eps := extent * SnapRelative
	if err := checkParts(parts, eps); err != nil {
		t.Errorf("%s %s: %v", name, op, err)
	}
	if got := partsArea(parts); !near(area, got, 1e-9) && math.Abs(area-got) > 1e-12*extent*extent {
		t.Errorf("%s %s: getArea %v but the parts add up to %v", name, op, area, got)
	}
	// Exact membership at points away from every input boundary.
	margin := 1e-6 * extent
	for range 60 {
		p := geom.Vec{X: box.Min.X + rng.Float64()*(box.Max.X-box.Min.X), Y: box.Min.Y + rng.Float64()*(box.Max.Y-box.Min.Y)}
		if boundaryDist(dc.a, p) < margin || boundaryDist(dc.b, p) < margin {
			continue
		}
		inA, inB := insideDrawn(dc.a, p), insideDrawn(dc.b, p)
		want := keeps(op, inA, inB)
		if op == Union && len(dc.a)+len(dc.b) > 2 {
			want = inA || inB
		}
		got := insideDrawn([]Polygon{{Parts: parts}}, p)
		if got != want {
			t.Errorf("%s %s: point %v (in A %v, in B %v) is in the result: %v, want %v", name, op, p, inA, inB, got, want)
			return
		}
	}
	// simplefeatures on the same areas.
	pa, err := s.collectAreas(an, nil)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := s.collectAreas(bn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lib, err := libraryBoolean(op, pa, pb); err == nil {
		want := 0.0
		for _, p := range lib {
			want += p.Area()
		}
		if math.Abs(area-want) > 1e-7*extent*extent {
			t.Errorf("%s %s: area %v, simplefeatures %v", name, op, area, want)
		}
	}
	// The same operation scaled: the same parts, the area scaled.
	for _, f := range []float64{1e6, 1e-6} {
		if extent*f > MaxCoord/100 || extent*f < 1e-30 {
			continue
		}
		sc := diffCase{kind: dc.kind, a: mapPolys(dc.a, func(p geom.Vec) geom.Vec { return p.Mul(f) }), b: mapPolys(dc.b, func(p geom.Vec) geom.Vec { return p.Mul(f) })}
		ss, san, sbn := diffScene(t, sc)
		sparts, sarea, err := resultOf(ss, op, san, sbn)
		if err != nil {
			t.Errorf("%s %s scaled by %g: %v", name, op, f, err)
			continue
		}
		if len(sparts) != len(parts) || math.Abs(sarea/(f*f)-area) > 1e-8*extent*extent {
			t.Errorf("%s %s scaled by %g: %d parts of area %v, unscaled %d parts of area %v", name, op, f, len(sparts), sarea/(f*f), len(parts), area)
		}
	}
}
