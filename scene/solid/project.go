package solid

// Projections: a solid's edges as a drawing sees them from a standard view. The edges are the
// mesh's feature edges (faces meeting at over FeatureAngle degrees), its silhouette (a face
// turned to the viewer beside one turned away) and any side with one face; each is split
// where the triangles turned to the viewer hide it, tested against those whose projection
// meets it (a grid finds them), at most MaxProjectWork tests. Pieces that fall on one line are
// merged, so that a box's front and back edges make one rectangle, and hidden pieces under a
// visible line are left out, as a drawing shows them. Runs of pieces join into polylines, and
// a closed run of chords on one circle becomes that circle; a solid seen along its
// extrusion's axis draws its exact profile, arcs and all.

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// MaxProjectWork caps the edge-against-triangle tests of one projection (docs/limits.md).
const MaxProjectWork = 50_000_000

// minPiece is the shortest piece of line drawn, in eps (a millionth of the scene): a ten
// thousandth of the scene, below anything a drawing shows.
const minPiece = 100

// minCircleChords is the fewest chords of a closed run that is drawn as the circle they lie
// on: fewer is a polygon a designer drew (a hexagon, an octagon), more is a faceted curve.
const minCircleChords = 12

// View is a standard view: Right and Up are the drawing's x and y, Dir the direction the
// viewer looks in (Right × Up = −Dir).
type View struct {
	Name           string
	Right, Up, Dir scene.Vec3
}

// Views are the standard views, as the pictures of solids define them: front looks along +y
// (from −y) with z up, top down −z with y up, right along −x with z up; back, left and bottom
// are their opposites (bottom with −y up, the top view turned over about x).
var Views = []View{
	{"front", scene.Vec3{1, 0, 0}, scene.Vec3{0, 0, 1}, scene.Vec3{0, 1, 0}},
	{"top", scene.Vec3{1, 0, 0}, scene.Vec3{0, 1, 0}, scene.Vec3{0, 0, -1}},
	{"right", scene.Vec3{0, 1, 0}, scene.Vec3{0, 0, 1}, scene.Vec3{-1, 0, 0}},
	{"back", scene.Vec3{-1, 0, 0}, scene.Vec3{0, 0, 1}, scene.Vec3{0, -1, 0}},
	{"left", scene.Vec3{0, -1, 0}, scene.Vec3{0, 0, 1}, scene.Vec3{1, 0, 0}},
	{"bottom", scene.Vec3{1, 0, 0}, scene.Vec3{0, -1, 0}, scene.Vec3{0, 0, 1}},
}

// ViewNamed is the standard view of that name.
func ViewNamed(name string) (View, error) {
	var names []string
	for _, v := range Views {
		if v.Name == name {
			return v, nil
		}
		names = append(names, v.Name)
	}
	return View{}, fmt.Errorf("%w: no view %q; use one of %s", scene.ErrBadGeometry, name, strings.Join(names, ", "))
}

// Lines is a drawing's lines: open polylines (a closed one repeats its first point), circles
// and arcs.
type Lines struct {
	Polylines [][]geom.Vec
	Circles   []scene.Circle
	Arcs      []scene.Arc
}

// add appends m's lines.
func (l *Lines) add(m Lines) {
	l.Polylines = append(l.Polylines, m.Polylines...)
	l.Circles = append(l.Circles, m.Circles...)
	l.Arcs = append(l.Arcs, m.Arcs...)
}

// Projection is what a view sees of solids: the visible lines, and the hidden ones apart.
type Projection struct {
	Visible, Hidden Lines
}

// piece is a projected segment.
type piece struct{ a, b geom.Vec }

// projector holds the solids' triangles turned to the viewer, projected, with a grid to find
// those near a segment.
type projector struct {
	v      View
	pts    []scene.Vec3 // x, y on the drawing, depth along Dir
	tris   [][3]int32
	occ    []occluder // tris' sides and depth, made by index
	grid   [][]int32
	g      int
	min    geom.Vec
	cell   float64
	stamp  []int32
	work   int
	eps    float64 // on the drawing
	epsZ   float64 // in depth
	tested int32
}

// Project is the solids seen from the view.
func Project(ps []Placed, v View) (Projection, error) {
	var box scene.Box3
	boxes := make(viewBoxes, len(ps))
	for i, p := range ps {
		wb := worldBounds(p)
		box.Union(wb)
		boxes[i] = boxInView(wb, v)
	}
	size := math.Max(1e-9, math.Sqrt(dot(sub(box.Max, box.Min), sub(box.Max, box.Min))))
	pr := &projector{v: v, eps: 1e-6 * size, epsZ: 1e-5 * size}
	type edge struct{ a, b scene.Vec3 }
	var edges []edge
	var exact []Lines
	for i, p := range ps {
		m := p.Solid.Mesh
		base := int32(len(pr.pts))
		nv := m.NumVertices()
		// The vertices welded by position (a mesh may repeat one at a seam), numbered in the
		// order they first come.
		weld := m.Weld()
		id := make([]int32, nv)
		world := make([]scene.Vec3, 0, nv)
		for i := range uint32(nv) {
			if w := weld[i]; w != i {
				id[i] = id[w]
				continue
			}
			id[i] = int32(len(world))
			q := p.World.Apply(m.Vertex(i))
			world = append(world, q)
			pr.pts = append(pr.pts, scene.Vec3{dot(q, v.Right), dot(q, v.Up), dot(q, v.Dir)})
		}
		flip := p.World.Det() < 0
		nt := m.NumTriangles()
		normals := make([]scene.Vec3, nt)
		front := make([]bool, nt)
		for t := range nt {
			a, b, c := id[m.Triangles[3*t]], id[m.Triangles[3*t+1]], id[m.Triangles[3*t+2]]
			if flip {
				b, c = c, b
			}
			n := cross(sub(world[b], world[a]), sub(world[c], world[a]))
			if l := math.Sqrt(dot(n, n)); l > 0 {
				n = scale(n, 1/l)
			}
			normals[t] = n
			front[t] = dot(n, v.Dir) < -1e-9
			if front[t] {
				pr.tris = append(pr.tris, [3]int32{base + a, base + b, base + c})
			}
		}
		// Exact lines are drawn as they are, hidden by nothing: only for a solid that no other
		// can stand in front of. Else its edges go through the hidden-line pass as any mesh's.
		lines, ok := alongAxis(p, v)
		if ok {
			// Every other solid's box is tried: the projection's work, as its edge tests are.
			if err := pr.spend(len(boxes)); err != nil {
				return Projection{}, err
			}
		}
		if ok && !boxes.inFront(i, pr.eps, pr.epsZ) {
			exact = append(exact, lines)
			continue
		}
		// The edges come ordered by their ends, as id numbers them, so that the same solids
		// make the same drawing.
		cosFeature := math.Cos(scene.FeatureAngle * math.Pi / 180)
		for e := range m.WeldedEdges(weld).All() {
			draw := e.T2 == scene.NoFace || front[e.T1] != front[e.T2] || dot(normals[e.T1], normals[e.T2]) < cosFeature
			if draw {
				edges = append(edges, edge{pr.pts[base+id[e.A]], pr.pts[base+id[e.B]]})
			}
		}
	}
	pr.index()
	var seen, hidden []piece
	for _, e := range edges {
		a, b := geom.Vec{X: e.a[0], Y: e.a[1]}, geom.Vec{X: e.b[0], Y: e.b[1]}
		if b.Sub(a).Len() <= pr.eps {
			continue // seen end on: a point
		}
		cover, err := pr.covered(e.a, e.b)
		if err != nil {
			return Projection{}, err
		}
		at := func(t float64) geom.Vec { return a.Add(b.Sub(a).Mul(t)) }
		last := 0.0
		for _, iv := range cover {
			if iv[0] > last {
				seen = append(seen, piece{at(last), at(iv[0])})
			}
			hidden = append(hidden, piece{at(iv[0]), at(iv[1])})
			last = iv[1]
		}
		if last < 1 {
			seen = append(seen, piece{at(last), b})
		}
	}
	seenLines := mergeCollinear(seen, nil, pr.eps)
	hiddenLines := mergeCollinear(hidden, seenLines, pr.eps)
	out := Projection{Visible: chain(seenLines, pr.eps), Hidden: chain(hiddenLines, pr.eps)}
	for _, l := range exact {
		out.Visible.add(l)
	}
	return out, nil
}

// alongAxis is a solid seen along its extrusion's axis: its profile, every edge of it seen
// (the near end covers the far one). ok is false without such a form, or under a map that
// would make its arcs ellipses.
// spend counts n tests against MaxProjectWork.
func (pr *projector) spend(n int) error {
	pr.work += n
	if pr.work > MaxProjectWork {
		return fmt.Errorf("%w: the projection would test more than %d edges against triangles (MaxProjectWork); use coarser facets (tolerance, segments) or fewer solids", scene.ErrLimit, MaxProjectWork)
	}
	return nil
}

// viewBox is a solid's box as a view sees it: its extent on the drawing and its depth.
type viewBox struct {
	draw geom.Box
	near float64 // the least depth along the view's direction
}

// boxInView is the view's box of a world box: its eight corners seen from v.
func boxInView(b scene.Box3, v View) viewBox {
	out := viewBox{near: math.Inf(1)}
	for k := range 8 {
		q := b.Min
		for a := range 3 {
			if k&(1<<a) != 0 {
				q[a] = b.Max[a]
			}
		}
		out.draw.Extend(geom.Vec{X: dot(q, v.Right), Y: dot(q, v.Up)})
		out.near = math.Min(out.near, dot(q, v.Dir))
	}
	return out
}

// viewBoxes are the placed solids' viewBox, in order.
type viewBoxes []viewBox

// inFront reports whether a solid other than the i-th may hide part of it: one whose box
// overlaps its box on the drawing (by more than eps) and comes nearer than its nearest point
// (by more than epsZ). Boxes make it a cautious answer: a solid beside it in depth but not
// over it on the drawing never counts.
func (bs viewBoxes) inFront(i int, eps, epsZ float64) bool {
	a := bs[i]
	for j, b := range bs {
		if j == i {
			continue
		}
		over := b.draw.Min.X < a.draw.Max.X-eps && a.draw.Min.X < b.draw.Max.X-eps &&
			b.draw.Min.Y < a.draw.Max.Y-eps && a.draw.Min.Y < b.draw.Max.Y-eps
		if over && b.near < a.near-epsZ {
			return true
		}
	}
	return false
}

func alongAxis(p Placed, v View) (Lines, bool) {
	f := p.Solid.Form
	if f == nil || f.Op != scene.FormExtrude {
		return Lines{}, false
	}
	w := p.World.Mul(scene.Translation3(f.Offset))
	axis := scene.Vec3{w[2], w[6], w[10]}
	l := math.Sqrt(dot(axis, axis))
	if !(l > 0) || math.Abs(math.Abs(dot(axis, v.Dir))-l) > 1e-12*l {
		return Lines{}, false
	}
	pl := Plane{U: v.Right, V: v.Up, N: scale(v.Dir, -1)}
	a, ok := planeMap(func(q geom.Vec) scene.Vec3 { return w.Apply(scene.Vec3{q.X, q.Y, f.Base}) }, pl)
	if !ok {
		return Lines{}, false
	}
	var out Lines
	g := mapProfile(f.Profile, a)
	// The profile holds no edge of no length (scene.EmptyEdge), and a similarity keeps it so.
	ring := func(pts []geom.Vec, bul []float64) {
		if len(bul) < len(pts) {
			bul = make([]float64, len(pts)) // straight
		}
		if len(pts) < 2 {
			return
		}
		if len(pts) == 2 && math.Abs(bul[0]-bul[1]) <= 1e-9 && math.Abs(math.Abs(bul[0])-1) <= 1e-9 {
			c := pts[0].Add(pts[1]).Mul(0.5)
			out.Circles = append(out.Circles, scene.Circle{Center: c, Radius: pts[0].Sub(c).Len()})
			return
		}
		// Straight runs are polylines, each arc an arc: start where an arc ends, so that no
		// run is split at the ring's first point.
		n := len(pts)
		first := 0
		for i := range n {
			if i < len(bul) && bul[i] != 0 {
				first = (i + 1) % n
				break
			}
		}
		var run []geom.Vec
		flush := func() {
			if len(run) >= 2 {
				out.Polylines = append(out.Polylines, run)
			}
			run = nil
		}
		for k := range n {
			i := (first + k) % n
			q, nx := pts[i], pts[(i+1)%n]
			if i < len(bul) && bul[i] != 0 {
				flush()
				ctr, r, a0, sweep := bulgeArc(q, nx, bul[i])
				a := scene.Arc{Center: ctr, Radius: r, Start: a0, End: a0 + sweep}
				if sweep < 0 {
					a.Start, a.End = a0+sweep, a0
				}
				out.Arcs = append(out.Arcs, a)
				continue
			}
			if len(run) == 0 {
				run = append(run, q)
			}
			run = append(run, nx)
		}
		flush()
	}
	for _, part := range g.Parts {
		ring(part.Outer, part.OuterBulges)
		for k, h := range part.Holes {
			var hb []float64
			if k < len(part.HoleBulges) {
				hb = part.HoleBulges[k]
			}
			ring(h, hb)
		}
	}
	return out, true
}

// index sorts the triangles turned to the viewer into a grid over the drawing.
func (pr *projector) index() {
	if len(pr.tris) == 0 {
		return
	}
	lo, hi := geom.Vec{X: math.Inf(1), Y: math.Inf(1)}, geom.Vec{X: math.Inf(-1), Y: math.Inf(-1)}
	for _, q := range pr.pts {
		lo = geom.Vec{X: math.Min(lo.X, q[0]), Y: math.Min(lo.Y, q[1])}
		hi = geom.Vec{X: math.Max(hi.X, q[0]), Y: math.Max(hi.Y, q[1])}
	}
	pr.g = max(1, min(512, int(math.Sqrt(float64(len(pr.tris)))/2)))
	pr.min = lo
	pr.cell = math.Max(hi.X-lo.X, hi.Y-lo.Y)/float64(pr.g) + 1e-12
	pr.grid = make([][]int32, pr.g*pr.g)
	for t, tri := range pr.tris {
		x0, y0, x1, y1 := pr.cells(pr.pts[tri[0]], pr.pts[tri[1]], pr.pts[tri[2]])
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				pr.grid[y*pr.g+x] = append(pr.grid[y*pr.g+x], int32(t))
			}
		}
	}
	pr.stamp = make([]int32, len(pr.tris))
	pr.occ = make([]occluder, len(pr.tris))
	for t, tri := range pr.tris {
		pr.occ[t] = pr.occluderOf(tri)
	}
}

// occluder is a triangle turned to the viewer as the visibility test reads it: each side as
// a line a·x + b·y + c, positive inside (grown by eps), its box on the drawing, and its depth
// over the drawing, z0 + gx·x + gy·y; ok is false for one seen edge-on, which hides nothing.
type occluder struct {
	side       [3][3]float64
	lo, hi     geom.Vec
	z0, gx, gy float64
	ok         bool
}

func (pr *projector) occluderOf(tri [3]int32) occluder {
	p := [3]scene.Vec3{pr.pts[tri[0]], pr.pts[tri[1]], pr.pts[tri[2]]}
	ux, uy, uz := p[1][0]-p[0][0], p[1][1]-p[0][1], p[1][2]-p[0][2]
	vx, vy, vz := p[2][0]-p[0][0], p[2][1]-p[0][1], p[2][2]-p[0][2]
	area := ux*vy - vx*uy
	if area <= pr.eps*pr.eps {
		return occluder{}
	}
	var o occluder
	o.ok = true
	for k := range 3 {
		q, r := p[k], p[(k+1)%3]
		ex, ey := r[0]-q[0], r[1]-q[1]
		l := math.Hypot(ex, ey)
		// Inside is to the left of each side, or within eps of it: the triangles around a
		// point leave no crack there for a hidden line to show through.
		o.side[k] = [3]float64{-ey, ex, ey*q[0] - ex*q[1] + pr.eps*l}
	}
	o.lo = geom.Vec{X: math.Min(p[0][0], math.Min(p[1][0], p[2][0])) - pr.eps, Y: math.Min(p[0][1], math.Min(p[1][1], p[2][1])) - pr.eps}
	o.hi = geom.Vec{X: math.Max(p[0][0], math.Max(p[1][0], p[2][0])) + pr.eps, Y: math.Max(p[0][1], math.Max(p[1][1], p[2][1])) + pr.eps}
	o.gx = (uz*vy - vz*uy) / area
	o.gy = (ux*vz - vx*uz) / area
	o.z0 = p[0][2] - o.gx*p[0][0] - o.gy*p[0][1]
	return o
}

// cells is the grid cells the points' box meets.
func (pr *projector) cells(qs ...scene.Vec3) (x0, y0, x1, y1 int) {
	x0, y0, x1, y1 = pr.g, pr.g, -1, -1
	for _, q := range qs {
		cx := min(pr.g-1, max(0, int((q[0]-pr.min.X)/pr.cell)))
		cy := min(pr.g-1, max(0, int((q[1]-pr.min.Y)/pr.cell)))
		x0, y0, x1, y1 = min(x0, cx), min(y0, cy), max(x1, cx), max(y1, cy)
	}
	return
}

// covered is the parts of the segment from a to b (on the drawing, with depths) that lie
// behind a triangle turned to the viewer, as sorted, disjoint intervals of [0, 1].
func (pr *projector) covered(a, b scene.Vec3) ([][2]float64, error) {
	if len(pr.tris) == 0 {
		return nil, nil
	}
	pr.tested++
	var cover [][2]float64
	x0, y0, x1, y1 := pr.cells(a, b)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, t := range pr.grid[y*pr.g+x] {
				if pr.stamp[t] == pr.tested {
					continue
				}
				pr.stamp[t] = pr.tested
				if err := pr.spend(1); err != nil {
					return nil, err
				}
				if iv, ok := pr.occ[t].behind(a, b, pr.epsZ); ok {
					if iv[0] <= 0 && iv[1] >= 1 {
						return [][2]float64{iv}, nil // hidden whole: no need to look further
					}
					cover = append(cover, iv)
				}
			}
		}
	}
	slices.SortFunc(cover, func(p, q [2]float64) int { return cmp.Compare(p[0], q[0]) })
	var out [][2]float64
	for _, iv := range cover {
		if n := len(out); n > 0 && iv[0] <= out[n-1][1] {
			out[n-1][1] = math.Max(out[n-1][1], iv[1])
			continue
		}
		out = append(out, iv)
	}
	return out, nil
}

// behind is the interval of the segment a–b that lies inside the triangle's projection
// (within eps) and farther than it by more than epsZ: a triangle does not hide its own
// sides.
func (o *occluder) behind(a, b scene.Vec3, epsZ float64) ([2]float64, bool) {
	if !o.ok || math.Max(a[0], b[0]) < o.lo.X || math.Min(a[0], b[0]) > o.hi.X || math.Max(a[1], b[1]) < o.lo.Y || math.Min(a[1], b[1]) > o.hi.Y {
		return [2]float64{}, false
	}
	lo, hi := 0.0, 1.0
	// clip keeps the t where f0 + t·f1 > 0.
	clip := func(f0, f1 float64) bool {
		switch {
		case f1 == 0:
			return f0 > 0
		case f1 > 0:
			lo = math.Max(lo, -f0/f1)
		default:
			hi = math.Min(hi, -f0/f1)
		}
		return lo < hi
	}
	dx, dy, dz := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	for _, sd := range o.side {
		if !clip(sd[0]*a[0]+sd[1]*a[1]+sd[2], sd[0]*dx+sd[1]*dy) {
			return [2]float64{}, false
		}
	}
	if !clip(a[2]-(o.z0+o.gx*a[0]+o.gy*a[1])-epsZ, dz-o.gx*dx-o.gy*dy) {
		return [2]float64{}, false
	}
	return [2]float64{lo, hi}, true
}

// line is the pieces of a drawing on one straight line: its direction (angle in [0, π)),
// its distance from the origin, and the intervals along it.
type line struct {
	angle, offset float64
	dir           geom.Vec
	spans         [][2]float64
}

// angTol is how far apart in angle (radians) two pieces may be and lie on one line.
const angTol = 1e-7

// lineIndex finds lines by angle and offset, in cells as large as the tolerances: a line's
// match lies in its cell or a neighbour.
type lineIndex struct {
	cells         map[[2]int64][]int
	angle, offset float64
}

func (ix lineIndex) key(angle, offset float64) [2]int64 {
	return [2]int64{int64(math.Floor(angle / ix.angle)), int64(math.Floor(offset / ix.offset))}
}

// lookup is the lines in the cells around (angle, offset).
func (ix lineIndex) lookup(angle, offset float64) []int {
	var out []int
	k := ix.key(angle, offset)
	for da := int64(-1); da <= 1; da++ {
		for do := int64(-1); do <= 1; do++ {
			out = append(out, ix.cells[[2]int64{k[0] + da, k[1] + do}]...)
		}
	}
	return out
}

// mergeCollinear joins the pieces that lie on one line and overlap or touch (or leave a gap
// shorter than the shortest piece drawn), less what lies on the lines of minus (visible lines
// over hidden ones).
func mergeCollinear(ps []piece, minus []line, eps float64) []line {
	type rec struct {
		angle, offset, s0, s1 float64
	}
	recs := make([]rec, 0, len(ps))
	for _, p := range ps {
		d := p.b.Sub(p.a)
		ang := math.Atan2(d.Y, d.X)
		if ang < 0 {
			ang += math.Pi
		}
		if ang >= math.Pi-1e-9 {
			ang -= math.Pi
		}
		u := geom.Vec{X: math.Cos(ang), Y: math.Sin(ang)}
		off := u.X*p.a.Y - u.Y*p.a.X
		s0, s1 := u.X*p.a.X+u.Y*p.a.Y, u.X*p.b.X+u.Y*p.b.Y
		recs = append(recs, rec{ang, off, math.Min(s0, s1), math.Max(s0, s1)})
	}
	slices.SortFunc(recs, func(x, y rec) int {
		if c := cmp.Compare(x.angle, y.angle); c != 0 {
			return c
		}
		return cmp.Compare(x.offset, y.offset)
	})
	near := lineIndex{cells: map[[2]int64][]int{}, angle: angTol, offset: 4 * eps}
	for i, m := range minus {
		k := near.key(m.angle, m.offset)
		near.cells[k] = append(near.cells[k], i)
	}
	var lines []line
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].angle-recs[j-1].angle <= angTol && math.Abs(recs[j].offset-recs[i].offset) <= eps*4 {
			j++
		}
		group := slices.Clone(recs[i:j])
		slices.SortFunc(group, func(x, y rec) int { return cmp.Compare(x.s0, y.s0) })
		ln := line{angle: group[0].angle, offset: group[0].offset}
		ln.dir = geom.Vec{X: math.Cos(ln.angle), Y: math.Sin(ln.angle)}
		for _, r := range group {
			if n := len(ln.spans); n > 0 && r.s0 <= ln.spans[n-1][1]+minPiece*eps {
				ln.spans[n-1][1] = math.Max(ln.spans[n-1][1], r.s1)
				continue
			}
			ln.spans = append(ln.spans, [2]float64{r.s0, r.s1})
		}
		for _, k := range near.lookup(ln.angle, ln.offset) {
			if m := minus[k]; math.Abs(m.angle-ln.angle) <= angTol && math.Abs(m.offset-ln.offset) <= eps*4 {
				ln.spans = subtractSpans(ln.spans, m.spans, eps)
			}
		}
		if len(ln.spans) > 0 {
			lines = append(lines, ln)
		}
		i = j
	}
	return lines
}

// subtractSpans is a less b, pieces shorter than eps left out.
func subtractSpans(a, b [][2]float64, eps float64) [][2]float64 {
	var out [][2]float64
	for _, s := range a {
		cur := []([2]float64){s}
		for _, c := range b {
			var next [][2]float64
			for _, x := range cur {
				if c[1] <= x[0] || c[0] >= x[1] {
					next = append(next, x)
					continue
				}
				if c[0]-x[0] > eps {
					next = append(next, [2]float64{x[0], c[0]})
				}
				if x[1]-c[1] > eps {
					next = append(next, [2]float64{c[1], x[1]})
				}
			}
			cur = next
		}
		out = append(out, cur...)
	}
	return out
}

// chain joins the lines' spans that meet end to end into polylines, and draws a closed one
// whose corners lie on one circle as that circle.
func chain(lines []line, eps float64) Lines {
	var segs []piece
	for _, ln := range lines {
		n := geom.Vec{X: -ln.dir.Y, Y: ln.dir.X}
		for _, s := range ln.spans {
			if s[1]-s[0] <= minPiece*eps {
				continue // a scrap left where a hidden line meets a visible one
			}
			o := n.Mul(ln.offset)
			segs = append(segs, piece{o.Add(ln.dir.Mul(s[0])), o.Add(ln.dir.Mul(s[1]))})
		}
	}
	// Ends are one when they round to the same point at 4·eps.
	q := 4 * eps
	key := func(p geom.Vec) [2]int64 { return [2]int64{int64(math.Round(p.X / q)), int64(math.Round(p.Y / q))} }
	at := map[[2]int64][]int{} // the pieces' ends there, as 2·piece + end
	for i, s := range segs {
		at[key(s.a)] = append(at[key(s.a)], 2*i)
		at[key(s.b)] = append(at[key(s.b)], 2*i+1)
	}
	used := make([]bool, len(segs))
	end := func(e int) geom.Vec {
		if e%2 == 0 {
			return segs[e/2].a
		}
		return segs[e/2].b
	}
	// follow walks from the far end of piece e onwards while the path does not branch.
	follow := func(e int, pts []geom.Vec) []geom.Vec {
		for {
			far := e ^ 1
			p := end(far)
			pts = append(pts, p)
			next := -1
			if ends := at[key(p)]; len(ends) == 2 {
				for _, x := range ends {
					if x/2 != e/2 && !used[x/2] {
						next = x
					}
				}
			}
			if next < 0 {
				return pts
			}
			used[next/2] = true
			e = next
		}
	}
	var out Lines
	// Open paths first, from an end where the path stops or branches; then the loops.
	for pass := range 2 {
		for i := range segs {
			if used[i] {
				continue
			}
			for _, e := range []int{2 * i, 2*i + 1} {
				if used[i] || (pass == 0 && len(at[key(end(e))]) == 2) {
					continue
				}
				used[i] = true
				pts := follow(e, []geom.Vec{end(e)})
				out.addRun(pts, eps)
			}
		}
	}
	return out
}

// addRun adds a chained run, its collinear corners dropped: as a circle when it closes on
// minCircleChords or more corners of one circle, else as polylines and the arcs found in it
// (arcsOf).
func (l *Lines) addRun(pts []geom.Vec, eps float64) {
	closed := len(pts) > 3 && pts[0].Sub(pts[len(pts)-1]).Len() <= 4*eps
	if closed {
		ring := simplify(pts[:len(pts)-1], eps)
		if c, ok := circleOf(ring, eps); ok {
			l.Circles = append(l.Circles, c)
			return
		}
		if len(ring) >= 3 {
			// Start at a corner no arc passes through, so that no arc is split in two.
			start := 0
			for i := range ring {
				if !smooth(ring[(i+len(ring)-1)%len(ring)], ring[i], ring[(i+1)%len(ring)]) {
					start = i
					break
				}
			}
			run := append(append([]geom.Vec{}, ring[start:]...), ring[:start]...)
			l.arcsOf(append(run, run[0]), eps)
			return
		}
	}
	out := []geom.Vec{pts[0]}
	for i := 1; i < len(pts)-1; i++ {
		if offLine(out[len(out)-1], pts[i], pts[i+1]) > eps {
			out = append(out, pts[i])
		}
	}
	l.arcsOf(append(out, pts[len(pts)-1]), eps)
}

// Arcs found in chords: minArcChords or more chords in a row, each turning from the last by
// at most maxArcTurn radians, with every corner on one circle within eps (and a millionth of
// its radius). A faceted fillet is that (a fillet of radius 3 at the default tolerance has 19
// chords a quarter turn, each turning by under 5°); a straight line's corners are dropped
// before, and a drawing's polygon turns by more at each corner.
const (
	minArcChords = 4
	maxArcTurn   = math.Pi / 12
	maxArcRun    = 4096 // corners of a run searched for arcs (MaxCurveSegments); longer runs stay chords
)

// smooth reports whether the chords a–p and p–b meet at a turn small enough for an arc.
func smooth(a, p, b geom.Vec) bool {
	u, v := p.Sub(a), b.Sub(p)
	return math.Abs(math.Atan2(u.X*v.Y-u.Y*v.X, u.X*v.X+u.Y*v.Y)) <= maxArcTurn
}

// arcsOf adds a run of corners as the arcs found in it and polylines between them.
func (l *Lines) arcsOf(pts []geom.Vec, eps float64) {
	if len(pts) > maxArcRun {
		l.Polylines = append(l.Polylines, pts)
		return
	}
	line := []geom.Vec{pts[0]}
	i := 0
	for i < len(pts)-1 {
		j := i
		var c geom.Vec
		var r float64
		// Grow the arc one corner at a time while every corner stays on one circle.
		for k := i + 2; k < len(pts); k++ {
			if !smooth(pts[k-2], pts[k-1], pts[k]) {
				break
			}
			if k-i < minArcChords {
				continue
			}
			cc, rr, ok := fitCircle(pts[i : k+1])
			if !ok || !onCircle(pts[i:k+1], cc, rr, eps) {
				break
			}
			j, c, r = k, cc, rr
		}
		if j == i {
			line = append(line, pts[i+1])
			i++
			continue
		}
		if len(line) >= 2 {
			l.Polylines = append(l.Polylines, line)
		}
		a0 := math.Atan2(pts[i].Y-c.Y, pts[i].X-c.X)
		a1 := math.Atan2(pts[j].Y-c.Y, pts[j].X-c.X)
		u, v := pts[i+1].Sub(pts[i]), pts[i+2].Sub(pts[i+1])
		if u.X*v.Y-u.Y*v.X < 0 { // clockwise: the arc runs from its far end
			a0, a1 = a1, a0
		}
		l.Arcs = append(l.Arcs, scene.Arc{Center: c, Radius: r, Start: a0, End: a1})
		line = []geom.Vec{pts[j]}
		i = j
	}
	if len(line) >= 2 {
		l.Polylines = append(l.Polylines, line)
	}
}

// onCircle reports whether every point lies within eps (and a millionth of r) of the circle.
func onCircle(pts []geom.Vec, c geom.Vec, r, eps float64) bool {
	tol := math.Max(eps, 1e-6*r)
	for _, p := range pts {
		if math.Abs(p.Sub(c).Len()-r) > tol {
			return false
		}
	}
	return true
}

// circleOf is the circle through a ring's corners when there are minCircleChords or more, all
// within eps (and a millionth of the radius) of it, and no chord spans more than a sixth of a
// turn.
func circleOf(ring []geom.Vec, eps float64) (scene.Circle, bool) {
	if len(ring) < minCircleChords {
		return scene.Circle{}, false
	}
	c, r, ok := fitCircle(ring)
	if !ok {
		return scene.Circle{}, false
	}
	if !onCircle(ring, c, r, eps) {
		return scene.Circle{}, false
	}
	for i, p := range ring {
		if p.Sub(ring[(i+1)%len(ring)]).Len() > r {
			return scene.Circle{}, false
		}
	}
	return scene.Circle{Center: c, Radius: r}, true
}

// fitCircle is the circle nearest the points in the algebraic sense (x² + y² + Dx + Ey + F
// least in squares), which is the circle itself when they lie on one, however they are
// spread along it; ok is false when they lie on a line.
func fitCircle(pts []geom.Vec) (geom.Vec, float64, bool) {
	var o geom.Vec
	for _, p := range pts {
		o = o.Add(p)
	}
	o = o.Mul(1 / float64(len(pts)))
	// The normal equations in coordinates about the points' mean, for conditioning.
	var a [3][3]float64
	var b [3]float64
	for _, p := range pts {
		x, y := p.X-o.X, p.Y-o.Y
		row := [3]float64{x, y, 1}
		z := -(x*x + y*y)
		for i := range 3 {
			for j := range 3 {
				a[i][j] += row[i] * row[j]
			}
			b[i] += row[i] * z
		}
	}
	det := func(m [3][3]float64) float64 {
		return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	}
	d := det(a)
	if d == 0 || math.IsNaN(d) {
		return geom.Vec{}, 0, false
	}
	var sol [3]float64
	for k := range 3 { // Cramer's rule
		m := a
		for i := range 3 {
			m[i][k] = b[i]
		}
		sol[k] = det(m) / d
	}
	cx, cy := -sol[0]/2, -sol[1]/2
	r2 := cx*cx + cy*cy - sol[2]
	if !(r2 > 0) {
		return geom.Vec{}, 0, false
	}
	return geom.Vec{X: cx + o.X, Y: cy + o.Y}, math.Sqrt(r2), true
}
