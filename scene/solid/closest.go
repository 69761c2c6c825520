package solid

// The closest points of two solids. The kernel answers the gap between two meshes but not
// where it is; an agent that reads "2.5 apart" wants to know between which faces. Knowing
// the gap g, the points are found here: only pairs of triangles whose boxes lie within g of
// each other can hold them, a bounding-volume tree over one mesh finds those pairs for each
// triangle of the other, and each pair's closest points are found in closed form (a point
// against a triangle, a segment against a segment).

import (
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene"
)

// MaxClosestPairs caps the pairs of triangles whose closest points are computed for one
// distance (docs/limits.md); past it the answer gives the distance without its points.
const MaxClosestPairs = 4_000_000

// tri is a triangle placed in the world.
type tri [3]scene.Vec3

func (t tri) box() box3 {
	b := box3{t[0], t[0]}
	for _, p := range t[1:] {
		for i := range 3 {
			b[0][i], b[1][i] = math.Min(b[0][i], p[i]), math.Max(b[1][i], p[i])
		}
	}
	return b
}

// box3 is an axis-aligned box: its least and greatest corners.
type box3 [2]scene.Vec3

func (b box3) union(c box3) box3 {
	for i := range 3 {
		b[0][i], b[1][i] = math.Min(b[0][i], c[0][i]), math.Max(b[1][i], c[1][i])
	}
	return b
}

// dist2 is the squared distance between two boxes (0 when they meet).
func (b box3) dist2(c box3) float64 {
	d := 0.0
	for i := range 3 {
		if g := c[0][i] - b[1][i]; g > 0 {
			d += g * g
		} else if g := b[0][i] - c[1][i]; g > 0 {
			d += g * g
		}
	}
	return d
}

func triangles(p Placed) []tri {
	m := p.Solid.Mesh
	out := make([]tri, m.NumTriangles())
	for t := range out {
		for k := range 3 {
			out[t][k] = p.World.Apply(m.Vertex(m.Triangles[3*t+k]))
		}
	}
	return out
}

// bvh is a tree of boxes over triangles: node i's children are 2i+1 and 2i+2 in an implicit
// layout over the sorted triangles, each leaf holding up to bvhLeaf of them.
type bvh struct {
	tris  []tri
	boxes []box3
	nodes []bvhNode
}

type bvhNode struct {
	box         box3
	left, right int32 // children, -1 for a leaf
	lo, hi      int32 // the leaf's triangles
}

const bvhLeaf = 8

func newBVH(tris []tri) *bvh {
	b := &bvh{tris: tris, boxes: make([]box3, len(tris))}
	for i, t := range tris {
		b.boxes[i] = t.box()
	}
	idx := make([]int32, len(tris))
	for i := range idx {
		idx[i] = int32(i)
	}
	b.buildAt(idx, 0)
	// Put the triangles in the order the leaves hold them.
	st, sb := make([]tri, len(tris)), make([]box3, len(tris))
	for i, j := range idx {
		st[i], sb[i] = tris[j], b.boxes[j]
	}
	b.tris, b.boxes = st, sb
	return b
}

// buildAt makes the node over idx, the window of the whole index slice that starts at at
// (sorted in place), and returns its number.
func (b *bvh) buildAt(idx []int32, at int32) int32 {
	box := b.boxes[idx[0]]
	for _, i := range idx[1:] {
		box = box.union(b.boxes[i])
	}
	n := int32(len(b.nodes))
	b.nodes = append(b.nodes, bvhNode{box: box, left: -1, right: -1, lo: at, hi: at + int32(len(idx))})
	if len(idx) <= bvhLeaf {
		return n
	}
	// Split at the median along the box's longest side.
	axis := 0
	for i := 1; i < 3; i++ {
		if box[1][i]-box[0][i] > box[1][axis]-box[0][axis] {
			axis = i
		}
	}
	slices.SortFunc(idx, func(x, y int32) int {
		cx := b.boxes[x][0][axis] + b.boxes[x][1][axis]
		cy := b.boxes[y][0][axis] + b.boxes[y][1][axis]
		switch {
		case cx < cy:
			return -1
		case cx > cy:
			return 1
		}
		return 0
	})
	mid := len(idx) / 2
	l := b.buildAt(idx[:mid], at)
	r := b.buildAt(idx[mid:], at+int32(mid))
	b.nodes[n].left, b.nodes[n].right = l, r
	return n
}

// ClosestPoints are the points of a and b (in the world) that are gap apart, gap being the
// kernel's answer for them; false when gap is 0 (they touch or overlap: no one pair says
// where) or when finding them would take over MaxClosestPairs pairs of triangles.
func ClosestPoints(a, b Placed, gap float64) (pa, pb scene.Vec3, ok bool) {
	if !(gap > 0) {
		return pa, pb, false
	}
	ta, tb := triangles(a), triangles(b)
	if len(ta) == 0 || len(tb) == 0 {
		return pa, pb, false
	}
	if len(ta) > len(tb) {
		// The tree over the larger mesh, the queries from the smaller.
		qb, qa, found := ClosestPoints(b, a, gap)
		return qa, qb, found
	}
	tree := newBVH(tb)
	// The kernel's gap is between its own float32 copies of the placed meshes: allow for
	// their rounding, relative to the coordinates' size.
	root := tree.nodes[0].box
	mag := 0.0
	for i := range 3 {
		mag = math.Max(mag, math.Max(math.Abs(root[0][i]), math.Abs(root[1][i])))
	}
	reach := gap + 1e-6*(gap+mag)
	best := math.Inf(1)
	pairs := 0
	stack := make([]int32, 0, 64)
	for _, t := range ta {
		tbox := t.box()
		if tbox.dist2(tree.nodes[0].box) > reach*reach {
			continue
		}
		stack = append(stack[:0], 0)
		for len(stack) > 0 {
			n := &tree.nodes[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
			if n.box.dist2(tbox) > math.Min(reach*reach, best) {
				continue
			}
			if n.left >= 0 {
				stack = append(stack, n.left, n.right)
				continue
			}
			for i := n.lo; i < n.hi; i++ {
				if tree.boxes[i].dist2(tbox) > math.Min(reach*reach, best) {
					continue
				}
				if pairs++; pairs > MaxClosestPairs {
					return pa, pb, false
				}
				p, q := closestTriTri(t, tree.tris[i])
				if d := dist2(p, q); d < best {
					best, pa, pb = d, p, q
				}
			}
		}
	}
	return pa, pb, !math.IsInf(best, 1)
}

func dist2(a, b scene.Vec3) float64 { d := sub(a, b); return dot(d, d) }

// closestTriTri is the closest pair of points of two triangles that do not cross: it lies on
// an edge of one against the other, so it is the best of each vertex against the other
// triangle and each edge against each edge.
func closestTriTri(a, b tri) (scene.Vec3, scene.Vec3) {
	best := math.Inf(1)
	var pa, pb scene.Vec3
	try := func(p, q scene.Vec3) {
		if d := dist2(p, q); d < best {
			best, pa, pb = d, p, q
		}
	}
	for _, v := range a {
		try(v, closestOnTriangle(v, b))
	}
	for _, v := range b {
		try(closestOnTriangle(v, a), v)
	}
	for i := range 3 {
		for j := range 3 {
			p, q := closestSegSeg(a[i], a[(i+1)%3], b[j], b[(j+1)%3])
			try(p, q)
		}
	}
	return pa, pb
}

// closestOnTriangle is the point of triangle t nearest to p: by which of the triangle's
// regions (a vertex's, an edge's, the face's) p projects into, from barycentric signs.
func closestOnTriangle(p scene.Vec3, t tri) scene.Vec3 {
	a, b, c := t[0], t[1], t[2]
	ab, ac, ap := sub(b, a), sub(c, a), sub(p, a)
	d1, d2 := dot(ab, ap), dot(ac, ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := sub(p, b)
	d3, d4 := dot(ab, bp), dot(ac, bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return add(a, scale(ab, d1/(d1-d3)))
	}
	cp := sub(p, c)
	d5, d6 := dot(ab, cp), dot(ac, cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return add(a, scale(ac, d2/(d2-d6)))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return add(b, scale(sub(c, b), (d4-d3)/((d4-d3)+(d5-d6))))
	}
	den := va + vb + vc
	if den == 0 {
		return a // a triangle of no area: its vertices were tried
	}
	v, w := vb/den, vc/den
	return add(a, add(scale(ab, v), scale(ac, w)))
}

// closestSegSeg is the closest pair of points of segments p1q1 and p2q2.
func closestSegSeg(p1, q1, p2, q2 scene.Vec3) (scene.Vec3, scene.Vec3) {
	d1, d2, r := sub(q1, p1), sub(q2, p2), sub(p1, p2)
	a, e, f := dot(d1, d1), dot(d2, d2), dot(d2, r)
	clamp := func(x float64) float64 { return math.Max(0, math.Min(1, x)) }
	var s, t float64
	switch {
	case a == 0 && e == 0:
		return p1, p2
	case a == 0:
		t = clamp(f / e)
	default:
		c := dot(d1, r)
		if e == 0 {
			s = clamp(-c / a)
		} else {
			b := dot(d1, d2)
			if den := a*e - b*b; den != 0 {
				s = clamp((b*f - c*e) / den)
			}
			t = (b*s + f) / e
			if t < 0 {
				t, s = 0, clamp(-c/a)
			} else if t > 1 {
				t, s = 1, clamp((b-c)/a)
			}
		}
	}
	return add(p1, scale(d1, s)), add(p2, scale(d2, t))
}
