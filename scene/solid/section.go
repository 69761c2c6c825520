package solid

// Sections: a solid cut by a plane, as a 2D region in the plane's own coordinates. Where the
// solid still has its exact form and the plane cuts it in a way the form answers exactly (an
// extrusion across or along its axis, a revolution through its axis), the section is made
// from the profile, arcs kept; else from the mesh, whose triangles the plane cuts into
// segments that chain into rings. Neither needs the kernel: a section costs one pass over the
// triangles at most, which MaxSolidTriangles bounds.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// ErrPlaneMisses is returned when a section's plane does not cut the solid.
var ErrPlaneMisses = errors.New("the plane misses the solid")

// Plane is a cutting plane and the frame its section is drawn in: a point p of the plane is
// drawn at ((p−Origin)·U, (p−Origin)·V). U and V are unit and square, and N = U × V is the
// normal: the section is seen from the side N points to, U to the right and V up.
type Plane struct {
	Origin, U, V, N scene.Vec3
}

// AxisPlane is the plane where coordinate axis (0 x, 1 y, 2 z) equals c, seen as a drawing
// shows it: {z: c} from above (x right, y up), {x: c} from +x (y right, z up), {y: c} from
// −y, as the front view sees it (x right, z up).
func AxisPlane(axis int, c float64) Plane {
	switch axis {
	case 0:
		return Plane{Origin: scene.Vec3{c, 0, 0}, U: scene.Vec3{0, 1, 0}, V: scene.Vec3{0, 0, 1}, N: scene.Vec3{1, 0, 0}}
	case 1:
		return Plane{Origin: scene.Vec3{0, c, 0}, U: scene.Vec3{1, 0, 0}, V: scene.Vec3{0, 0, 1}, N: scene.Vec3{0, -1, 0}}
	}
	return Plane{Origin: scene.Vec3{0, 0, c}, U: scene.Vec3{1, 0, 0}, V: scene.Vec3{0, 1, 0}, N: scene.Vec3{0, 0, 1}}
}

// PointNormalPlane is the plane through p with normal n, seen from the side n points to: V is
// the world's Z laid into the plane (up, as in the front and side views), or the world's Y
// when n is along Z; U = V × N. {x: c}, {y: c} and {z: c} are PointNormalPlane((c, 0, 0),
// (1, 0, 0)), ((0, c, 0), (0, −1, 0)) and ((0, 0, c), (0, 0, 1)).
func PointNormalPlane(p, n scene.Vec3) (Plane, error) {
	l := math.Sqrt(dot(n, n))
	if !(l > 0) || math.IsInf(l, 0) {
		return Plane{}, fmt.Errorf("%w: a plane's normal must be a direction of some length, got %v", scene.ErrBadGeometry, n)
	}
	for _, x := range p {
		if !(math.Abs(x) <= scene.MaxCoord) {
			return Plane{}, fmt.Errorf("%w: a plane's point must be finite, got %v", scene.ErrBadGeometry, p)
		}
	}
	n = scale(n, 1/l)
	up := scene.Vec3{0, 0, 1}
	if math.Abs(n[2]) > 1-1e-12 {
		up = scene.Vec3{0, 1, 0}
	}
	v := sub(up, scale(n, dot(up, n)))
	v = scale(v, 1/math.Sqrt(dot(v, v)))
	return Plane{Origin: p, U: cross(v, n), V: v, N: n}, nil
}

// at is the point p drawn in the plane's coordinates.
func (pl Plane) at(p scene.Vec3) geom.Vec {
	d := sub(p, pl.Origin)
	return geom.Vec{X: dot(d, pl.U), Y: dot(d, pl.V)}
}

// Section is the solids cut by the plane, as a region in its coordinates; exact reports
// whether every solid's section came from its form (arcs kept) rather than its mesh. Several
// solids' sections are united. A plane that cuts none of them is ErrPlaneMisses, with their
// bounds.
func Section(ps []Placed, pl Plane) (g scene.Polygon, exact bool, err error) {
	exact = true
	var all []scene.Polygon
	var box scene.Box3
	for _, p := range ps {
		box.Union(worldBounds(p))
		sg, ok := formSection(p, pl)
		if !ok {
			sg = meshSection(p, pl)
			exact = false
		}
		if len(sg.Parts) > 0 {
			all = append(all, sg)
		}
	}
	if len(all) == 0 {
		return scene.Polygon{}, false, fmt.Errorf("%w: its world bounds are x %s, y %s, z %s; put the plane between them", ErrPlaneMisses, span(box, 0), span(box, 1), span(box, 2))
	}
	if len(all) == 1 {
		return all[0], exact, nil
	}
	g, err = uniteRegions(all...)
	return g, exact, err
}

// worldBounds is the box of a placed solid's vertices in the world (its World holds its
// Place already).
func worldBounds(p Placed) scene.Box3 {
	var b scene.Box3
	for i := range uint32(p.Solid.Mesh.NumVertices()) {
		b.Extend(p.World.Apply(p.Solid.Mesh.Vertex(i)))
	}
	return b
}

func span(b scene.Box3, i int) string { return fmt.Sprintf("%.6g to %.6g", b.Min[i], b.Max[i]) }

// uniteRegions is the union of regions, arcs kept (the 2D booleans').
func uniteRegions(gs ...scene.Polygon) (scene.Polygon, error) {
	sc := scene.New()
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = fmt.Sprintf("s%d", i)
		if _, err := sc.Put(names[i], g); err != nil {
			return scene.Polygon{}, err
		}
	}
	e, err := sc.Boolean(scene.Union, names, nil, "u")
	if err != nil {
		return scene.Polygon{}, err
	}
	g, ok := e.Shape.(scene.Polygon)
	if !ok {
		return scene.Polygon{}, fmt.Errorf("%w: the union of the sections is a %s", scene.ErrBadGeometry, e.Kind())
	}
	return g, nil
}

// formSection is the section from the solid's form, ok false where the form does not answer
// it exactly (no form, an oblique cut, a map that would make its arcs ellipses). An empty
// polygon with ok true is a plane that misses the solid.
func formSection(p Placed, pl Plane) (scene.Polygon, bool) {
	f := p.Solid.Form
	if f == nil {
		return scene.Polygon{}, false
	}
	w := p.World.Mul(scene.Translation3(f.Offset))
	// The plane in the form's frame: m·x = c.
	m := scene.Vec3{
		w[0]*pl.N[0] + w[4]*pl.N[1] + w[8]*pl.N[2],
		w[1]*pl.N[0] + w[5]*pl.N[1] + w[9]*pl.N[2],
		w[2]*pl.N[0] + w[6]*pl.N[1] + w[10]*pl.N[2],
	}
	c := dot(pl.N, sub(pl.Origin, scene.Vec3{w[3], w[7], w[11]}))
	ml := math.Sqrt(dot(m, m))
	m, c = scale(m, 1/ml), c/ml
	flat := math.Hypot(m[0], m[1])
	reach := formReach(f)
	const para = 1e-12
	switch {
	case f.Op == scene.FormExtrude && flat <= para:
		z := c / m[2]
		eps := 1e-9 * math.Max(1, math.Abs(f.Base)+f.Height)
		if z < f.Base-eps || z > f.Base+f.Height+eps {
			return scene.Polygon{}, true
		}
		a, ok := planeMap(func(q geom.Vec) scene.Vec3 { return w.Apply(scene.Vec3{q.X, q.Y, z}) }, pl)
		if !ok {
			return scene.Polygon{}, false
		}
		return mapProfile(f.Profile, a), true
	case f.Op == scene.FormExtrude && math.Abs(m[2]) <= para:
		return alongExtrusion(f, w, pl, geom.Vec{X: m[0] / flat, Y: m[1] / flat}, c/flat), true
	case f.Op == scene.FormRevolve && math.Abs(m[2]) <= para && math.Abs(c) <= 1e-9*math.Max(1, reach):
		return throughAxis(f, w, pl, math.Atan2(m[0], -m[1]))
	}
	return scene.Polygon{}, false
}

// formReach is how far the form's profile reaches from its origin.
func formReach(f *scene.Form) float64 {
	r := 0.0
	for _, part := range f.Profile.Parts {
		for _, q := range part.Outer {
			r = math.Max(r, q.Len())
		}
	}
	return r
}

// planeMap is the 2D map q → pl.at(lift(q)) when lift is affine and the map keeps circles
// circles (a similarity, mirrored or not); ok is false otherwise.
func planeMap(lift func(geom.Vec) scene.Vec3, pl Plane) (geom.Affine, bool) {
	o := pl.at(lift(geom.Vec{}))
	x := pl.at(lift(geom.Vec{X: 1})).Sub(o)
	y := pl.at(lift(geom.Vec{Y: 1})).Sub(o)
	a := geom.Affine{A: x.X, B: x.Y, C: y.X, D: y.Y, E: o.X, F: o.Y}
	lx, ly := x.Len(), y.Len()
	if !(lx > 0) || math.Abs(lx-ly) > 1e-9*lx || math.Abs(x.X*y.X+x.Y*y.Y) > 1e-9*lx*ly {
		return a, false
	}
	return a, true
}

// mapProfile is the profile under the similarity a, outer rings counter-clockwise.
func mapProfile(g scene.Polygon, a geom.Affine) scene.Polygon {
	mirror := a.Det() < 0
	ring := func(pts []geom.Vec, bul []float64) ([]geom.Vec, []float64) {
		out := make([]geom.Vec, len(pts))
		for i, q := range pts {
			out[i] = a.Apply(q)
		}
		var ob []float64
		if bul != nil {
			ob = slices.Clone(bul)
		}
		if mirror {
			// A mirror turns each arc and the ring about: walk it the other way.
			slices.Reverse(out)
			if ob != nil {
				// Edge i ran from point i to i+1; reversed, it runs from n-2-i to n-1-i,
				// the same arc walked backwards and mirrored: its bulge is unchanged.
				rb := make([]float64, len(ob))
				n := len(ob)
				for i := range ob {
					rb[(2*n-2-i)%n] = ob[i]
				}
				ob = rb
			}
		}
		return out, ob
	}
	var out scene.Polygon
	for _, part := range g.Parts {
		var p scene.PolygonPart
		p.Outer, p.OuterBulges = ring(part.Outer, part.OuterBulges)
		for k, h := range part.Holes {
			var hb []float64
			if k < len(part.HoleBulges) {
				hb = part.HoleBulges[k]
			}
			mh, mb := ring(h, hb)
			p.Holes = append(p.Holes, mh)
			if mb != nil || p.HoleBulges != nil {
				for len(p.HoleBulges) < len(p.Holes)-1 {
					p.HoleBulges = append(p.HoleBulges, nil)
				}
				p.HoleBulges = append(p.HoleBulges, mb)
			}
		}
		out.Parts = append(out.Parts, p)
	}
	return out
}

// alongExtrusion is an extrusion cut by a plane along its axis, which meets the profile's
// plane in the line n·q = c: where the line runs inside the profile, a rectangle of the
// extrusion's height.
func alongExtrusion(f *scene.Form, w scene.Affine3, pl Plane, n geom.Vec, c float64) scene.Polygon {
	dir := geom.Vec{X: -n.Y, Y: n.X}
	o := n.Mul(c)
	var ss []float64
	for _, part := range f.Profile.Parts {
		ss = lineCrossings(ss, part.Outer, part.OuterBulges, n, c, o, dir)
		for k, h := range part.Holes {
			var hb []float64
			if k < len(part.HoleBulges) {
				hb = part.HoleBulges[k]
			}
			ss = lineCrossings(ss, h, hb, n, c, o, dir)
		}
	}
	slices.Sort(ss)
	var out scene.Polygon
	for i := 0; i+1 < len(ss); i += 2 {
		if ss[i+1]-ss[i] <= 1e-12*math.Max(1, math.Abs(ss[i])) {
			continue
		}
		var ring []geom.Vec
		for _, k := range [4][2]float64{{ss[i], f.Base}, {ss[i+1], f.Base}, {ss[i+1], f.Base + f.Height}, {ss[i], f.Base + f.Height}} {
			q := o.Add(dir.Mul(k[0]))
			ring = append(ring, pl.at(w.Apply(scene.Vec3{q.X, q.Y, k[1]})))
		}
		if ringArea(ring) < 0 {
			slices.Reverse(ring)
		}
		out.Parts = append(out.Parts, scene.PolygonPart{Outer: ring})
	}
	return out
}

// lineCrossings appends where a ring crosses the line n·q = c, as distances along dir from
// o. Each edge counts its ends half-open (an end on the line is on the side n points to), and
// each arc is split where it turns back from the line, so that a vertex on the line counts
// once and a tangent arc not at all.
func lineCrossings(ss []float64, pts []geom.Vec, bul []float64, n geom.Vec, c float64, o, dir geom.Vec) []float64 {
	side := func(q geom.Vec) float64 { return q.X*n.X + q.Y*n.Y - c }
	cross := func(a, b geom.Vec) {
		da, db := side(a), side(b)
		if (da >= 0) != (db >= 0) {
			q := a.Add(b.Sub(a).Mul(da / (da - db)))
			ss = append(ss, q.Sub(o).X*dir.X+q.Sub(o).Y*dir.Y)
		}
	}
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		k := 0.0
		if i < len(bul) {
			k = bul[i]
		}
		if k == 0 || a == b {
			cross(a, b)
			continue
		}
		ctr, r, a0, sweep := bulgeArc(a, b, k)
		// The arc's points farthest from the line in each direction split it into pieces
		// along which the distance to the line only grows or only shrinks.
		ext := math.Atan2(n.Y, n.X)
		cuts := []float64{0, 1}
		for _, t := range []float64{ext, ext + math.Pi} {
			u := math.Mod(t-a0, 2*math.Pi)
			if sweep < 0 {
				u = math.Mod(a0-t, 2*math.Pi)
			}
			if u < 0 {
				u += 2 * math.Pi
			}
			if f := u / math.Abs(sweep); f > 0 && f < 1 {
				cuts = append(cuts, f)
			}
		}
		slices.Sort(cuts)
		at := func(f float64) geom.Vec {
			switch f {
			case 0:
				return a
			case 1:
				return b
			}
			t := a0 + sweep*f
			return geom.Vec{X: ctr.X + r*math.Cos(t), Y: ctr.Y + r*math.Sin(t)}
		}
		for j := 0; j+1 < len(cuts); j++ {
			p, q := at(cuts[j]), at(cuts[j+1])
			dp, dq := side(p), side(q)
			if (dp >= 0) == (dq >= 0) {
				continue
			}
			// The piece meets the line once: where the circle does, between p and q.
			d := side(ctr)
			h := math.Sqrt(math.Max(0, r*r-d*d))
			foot := ctr.Sub(n.Mul(d))
			sp, sq := p.Sub(o).X*dir.X+p.Sub(o).Y*dir.Y, q.Sub(o).X*dir.X+q.Sub(o).Y*dir.Y
			sf := foot.Sub(o).X*dir.X + foot.Sub(o).Y*dir.Y
			lo, hi := math.Min(sp, sq), math.Max(sp, sq)
			s := sf - h
			if math.Abs(sf+h-(lo+hi)/2) < math.Abs(s-(lo+hi)/2) {
				s = sf + h
			}
			ss = append(ss, math.Min(hi, math.Max(lo, s)))
		}
	}
	return ss
}

// bulgeArc is the circle, start angle and sweep of the edge from a to b with bulge k.
func bulgeArc(a, b geom.Vec, k float64) (ctr geom.Vec, r, a0, sweep float64) {
	sweep = 4 * math.Atan(k)
	d := b.Sub(a)
	chord := d.Len()
	h := chord / (2 * math.Tan(sweep/2))
	nrm := geom.Vec{X: -d.Y / chord, Y: d.X / chord}
	ctr = a.Add(b).Mul(0.5).Add(nrm.Mul(h))
	r = chord / (2 * math.Abs(math.Sin(sweep/2)))
	return ctr, r, math.Atan2(a.Y-ctr.Y, a.X-ctr.X), sweep
}

// throughAxis is a revolution cut by a plane through its axis, the plane's in-plane
// direction across the axis at angle t: the profile where the turn passes t, and its mirror
// where it passes t + π. ok is false when the two halves meet on the axis and could not be
// united.
func throughAxis(f *scene.Form, w scene.Affine3, pl Plane, t float64) (scene.Polygon, bool) {
	var halves []scene.Polygon
	for _, th := range []float64{t, t + math.Pi} {
		u := math.Mod(th, 2*math.Pi)
		if u < 0 {
			u += 2 * math.Pi
		}
		if u > f.Angle+1e-9 && u < 2*math.Pi-1e-9 {
			continue // the turn does not reach this half of the plane
		}
		s, k := math.Sincos(th)
		a, ok := planeMap(func(q geom.Vec) scene.Vec3 { return w.Apply(scene.Vec3{q.X * k, q.X * s, q.Y}) }, pl)
		if !ok {
			return scene.Polygon{}, false
		}
		halves = append(halves, mapProfile(f.Profile, a))
	}
	switch len(halves) {
	case 0:
		return scene.Polygon{}, true
	case 1:
		return halves[0], true
	}
	touches := false
	for _, part := range f.Profile.Parts {
		for _, q := range part.Outer {
			touches = touches || math.Abs(q.X) <= 1e-9*math.Max(1, math.Abs(q.Y))
		}
	}
	if !touches {
		return scene.Polygon{Parts: append(halves[0].Parts, halves[1].Parts...)}, true
	}
	g, err := uniteRegions(halves...)
	return g, err == nil
}

// meshSection is the mesh cut by the plane: each triangle the plane crosses gives a segment
// between the crossings of two of its sides, directed so that the solid lies to its left seen
// from the side N points to; the segments chain into rings through the sides they share.
// Vertices are one by position (a mesh may repeat them), and a vertex on the plane counts as
// on the side N points to, so that every triangle gives one segment or none.
func meshSection(p Placed, pl Plane) scene.Polygon {
	m := p.Solid.Mesh
	w := p.World
	nv := m.NumVertices()
	id := make([]uint32, nv)
	seen := make(map[[3]float32]uint32, nv)
	dist := make([]float64, nv)
	pts := make([]scene.Vec3, nv)
	for i := range uint32(nv) {
		key := [3]float32(m.Vertices[3*i : 3*i+3])
		j, ok := seen[key]
		if !ok {
			j = i
			seen[key] = i
		}
		id[i] = j
		pts[i] = w.Apply(m.Vertex(i))
		dist[i] = dot(pl.N, sub(pts[i], pl.Origin))
	}
	flip := w.Det() < 0 // a mirror turns the triangles inside out
	type edge [2]uint32
	key := func(a, b uint32) edge {
		a, b = id[a], id[b]
		if a > b {
			a, b = b, a
		}
		return edge{a, b}
	}
	crossing := func(a, b uint32) scene.Vec3 {
		da, db := dist[a], dist[b]
		f := da / (da - db)
		return scene.Vec3{pts[a][0] + f*(pts[b][0]-pts[a][0]), pts[a][1] + f*(pts[b][1]-pts[a][1]), pts[a][2] + f*(pts[b][2]-pts[a][2])}
	}
	next := map[edge]edge{}
	at := map[edge]scene.Vec3{}
	for t := 0; t < len(m.Triangles); t += 3 {
		v := [3]uint32{m.Triangles[t], m.Triangles[t+1], m.Triangles[t+2]}
		if flip {
			v[1], v[2] = v[2], v[1]
		}
		var from, to edge
		var nfrom, nto int
		for k := range 3 {
			a, b := v[k], v[(k+1)%3]
			pa, pb := dist[a] >= 0, dist[b] >= 0
			switch {
			case pa && !pb:
				from, nfrom = key(a, b), nfrom+1
				if _, ok := at[from]; !ok {
					at[from] = crossing(a, b)
				}
			case !pa && pb:
				to, nto = key(a, b), nto+1
				if _, ok := at[to]; !ok {
					at[to] = crossing(a, b)
				}
			}
		}
		if nfrom == 1 && nto == 1 {
			next[from] = to
		}
	}
	// Chain the segments into rings, in a fixed order so that the section is the same on
	// every run.
	starts := make([]edge, 0, len(next))
	for e := range next {
		starts = append(starts, e)
	}
	slices.SortFunc(starts, func(a, b edge) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(a[1]) - int(b[1])
	})
	var rings [][]geom.Vec
	for _, s := range starts {
		if _, ok := next[s]; !ok {
			continue
		}
		var ring []geom.Vec
		e := s
		for {
			n, ok := next[e]
			if !ok {
				ring = nil // an open chain: a mesh that is not closed there
				break
			}
			delete(next, e)
			ring = append(ring, pl.at(at[e]))
			e = n
			if e == s {
				break
			}
		}
		if len(ring) >= 3 {
			rings = append(rings, ring)
		}
	}
	box := worldBounds(p)
	size := math.Max(box.Max[0]-box.Min[0], math.Max(box.Max[1]-box.Min[1], box.Max[2]-box.Min[2]))
	return polygonOfRings(rings, 1e-6*size)
}

// polygonOfRings is rings oriented by what they bound (counter-clockwise around area,
// clockwise around holes) as a polygon: points that lie on the line through their
// neighbours within eps dropped, rings of no area left out, each hole in the smallest outer
// ring around it.
func polygonOfRings(rings [][]geom.Vec, eps float64) scene.Polygon {
	type ring struct {
		pts  []geom.Vec
		area float64
	}
	var outers, holes []ring
	for _, r := range rings {
		r = simplify(r, eps)
		if len(r) < 3 {
			continue
		}
		a := ringArea(r)
		if math.Abs(a) <= eps*eps {
			continue
		}
		if a > 0 {
			outers = append(outers, ring{r, a})
		} else {
			holes = append(holes, ring{r, a})
		}
	}
	slices.SortStableFunc(outers, func(a, b ring) int { return -cmp.Compare(a.area, b.area) })
	var g scene.Polygon
	for _, o := range outers {
		g.Parts = append(g.Parts, scene.PolygonPart{Outer: o.pts})
	}
	for _, h := range holes {
		best := -1
		for i, o := range outers {
			if inRing(h.pts[0], o.pts) && (best < 0 || o.area < outers[best].area) {
				best = i
			}
		}
		if best >= 0 {
			g.Parts[best].Holes = append(g.Parts[best].Holes, h.pts)
		}
	}
	return g
}

// simplify drops the repeated points of a closed ring and those that lie within eps of the
// line through their neighbours.
func simplify(r []geom.Vec, eps float64) []geom.Vec {
	out := make([]geom.Vec, 0, len(r))
	for _, p := range r {
		if len(out) == 0 || p.Sub(out[len(out)-1]).Len() > eps {
			out = append(out, p)
		}
	}
	for len(out) > 1 && out[0].Sub(out[len(out)-1]).Len() <= eps {
		out = out[:len(out)-1]
	}
	for changed := true; changed && len(out) >= 3; {
		changed = false
		keep := make([]geom.Vec, 0, len(out))
		n := len(out)
		for i, p := range out {
			prev := out[(i+n-1)%n]
			if len(keep) > 0 {
				prev = keep[len(keep)-1]
			}
			if offLine(prev, p, out[(i+1)%n]) <= eps {
				changed = true
				continue
			}
			keep = append(keep, p)
		}
		out = keep
	}
	return out
}

// offLine is how far p lies from the segment a–b (from a when they coincide).
func offLine(a, p, b geom.Vec) float64 {
	d := b.Sub(a)
	l := d.Len()
	if l == 0 {
		return p.Sub(a).Len()
	}
	t := (p.Sub(a).X*d.X + p.Sub(a).Y*d.Y) / (l * l)
	if t < 0 || t > 1 {
		return math.Inf(1) // p turns back: a spike, not a straight run
	}
	return math.Abs(d.X*(p.Y-a.Y)-d.Y*(p.X-a.X)) / l
}

// ringArea is a ring's signed area, counter-clockwise positive.
func ringArea(r []geom.Vec) float64 {
	a := 0.0
	o := r[0]
	for i := range r {
		p, q := r[i].Sub(o), r[(i+1)%len(r)].Sub(o)
		a += p.X*q.Y - q.X*p.Y
	}
	return a / 2
}

// inRing reports whether p lies inside the ring (even-odd).
func inRing(p geom.Vec, r []geom.Vec) bool {
	in := false
	for i, a := range r {
		b := r[(i+1)%len(r)]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < a.X+(p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y) {
			in = !in
		}
	}
	return in
}
