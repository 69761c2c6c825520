package render

import (
	"math"

	"github.com/cadrun/cadrun/scene"
)

// A faceted solid's STEP is its mesh: but a CAD program shows each face of a B-rep as a
// face, so a box's side written as the two triangles that make it reads as two faces with a
// line between them, and a drilled plate's top as dozens. The triangles that lie in one
// plane and meet along their edges are merged into one planar face, bounded by the loop
// around them and a loop around each hole, as a CAD program would have made it; the vertices
// and edges stay the mesh's, so the shell is the same surface and encloses the same volume.

// facetPlaneTol is how far a triangle's corners may lie from the plane of the face it joins,
// in the file's unit: half what the file says a reader may take as on the surface
// (stepUncertainty), so that every corner of a merged face is on its plane for the reader.
// A flat face along the axes is flat exactly; one of a turned solid, whose corners are
// float32 world points rounded by about 6e-8 of their size, is merged where its rounding
// stays within this, and is left in triangles where it does not.
const facetPlaneTol = stepUncertainty / 2

// facetedBrep is a solid's mesh as a closed shell of planar faces, in world coordinates:
// points that round to the same float32 world point are one vertex, each edge is shared by
// the two faces beside it, and triangles side by side in one plane are one face. A triangle
// that rounding collapses is left out.
func facetedBrep(it scene.SolidItem) *brep {
	v, mirrored := worldVertices(it)
	b := &brep{}
	at, pts := weldWorld(v) // b's vertex j is pts[j]
	for _, p := range pts {
		b.vertex(scene.Vec3{float64(p[0]), float64(p[1]), float64(p[2])})
	}
	// The triangles that have an area, each counter-clockwise seen from outside, and which of
	// them has each directed side.
	tris := it.Entity.Shape.(*scene.Solid).Mesh.Triangles
	var facets [][3]int
	var normals [][3]float32
	side := map[[2]int]int{}
	for t := range len(tris) / 3 {
		i, j, k := triangle(tris, t, mirrored)
		f := [3]int{int(at[i]), int(at[j]), int(at[k])}
		n := facetNormal(v, i, j, k)
		if f[0] == f[1] || f[1] == f[2] || f[0] == f[2] || n == ([3]float32{}) {
			continue
		}
		for e := range 3 {
			side[[2]int{f[e], f[(e+1)%3]}] = len(facets)
		}
		facets = append(facets, f)
		normals = append(normals, n)
	}
	edges := map[[2]int]int{}
	use := func(a, c int) bUse {
		if a > c {
			u := use2(edges, b, c, a)
			u.forward = false
			return u
		}
		return use2(edges, b, a, c)
	}
	region := make([]int, len(facets))
	for i := range region {
		region[i] = -1
	}
	var shell []int
	tol := facetPlaneTol
	for seed := range facets {
		if region[seed] >= 0 {
			continue
		}
		members := grow(b, facets, side, region, seed, tol)
		face, ok := planarFace(b, facets, side, region, members, use)
		if !ok {
			// A region whose boundary touches itself at a vertex, or whose loops do not say
			// which is outside: its triangles are written each as a face, as they come.
			for _, t := range members {
				f, n := facets[t], normals[t]
				pa, pc := b.verts[f[0]], b.verts[f[1]]
				face = bFace{
					surf:  bSurface{kind: surfPlane, loc: pa, axis: scene.Vec3{float64(n[0]), float64(n[1]), float64(n[2])}, ref: sub3(pc, pa)},
					same:  true,
					loops: [][]bUse{{use(f[0], f[1]), use(f[1], f[2]), use(f[2], f[0])}},
				}
				b.faces = append(b.faces, face)
				shell = append(shell, len(b.faces)-1)
			}
			continue
		}
		b.faces = append(b.faces, face)
		shell = append(shell, len(b.faces)-1)
	}
	b.shells = [][]int{shell}
	return b
}

// grow marks with seed's number the triangles reached from seed across shared sides whose
// corners all lie within tol of seed's plane, and answers them, seed first.
func grow(b *brep, facets [][3]int, side map[[2]int]int, region []int, seed int, tol float64) []int {
	f := facets[seed]
	p0 := b.verts[f[0]]
	n := cross3(sub3(b.verts[f[1]], p0), sub3(b.verts[f[2]], p0))
	n = scale3(n, 1/math.Sqrt(dot3(n, n)))
	// A triangle joins when its corners lie on the plane and it faces the same way (a sheet
	// folded flat onto itself has its two sides in one plane, facing apart).
	onPlane := func(t int) bool {
		g := facets[t]
		for _, q := range g {
			if math.Abs(dot3(sub3(b.verts[q], p0), n)) > tol {
				return false
			}
		}
		q0 := b.verts[g[0]]
		return dot3(cross3(sub3(b.verts[g[1]], q0), sub3(b.verts[g[2]], q0)), n) > 0
	}
	region[seed] = seed
	members := []int{seed}
	for k := 0; k < len(members); k++ {
		g := facets[members[k]]
		for e := range 3 {
			t, ok := side[[2]int{g[(e+1)%3], g[e]}] // the triangle across this side
			if ok && region[t] < 0 && onPlane(t) {
				region[t] = seed
				members = append(members, t)
			}
		}
	}
	return members
}

// planarFace is the face the triangles of one region make: its loops are the sides no other
// triangle of the region shares, chained end to end, the one that turns counter-clockwise
// about the face's normal first (its outside) and the holes after it. It answers false where
// the boundary passes a vertex twice or more than one loop would be outside.
func planarFace(b *brep, facets [][3]int, side map[[2]int]int, region []int, members []int, use func(a, c int) bUse) (bFace, bool) {
	id := region[members[0]]
	next := map[int]int{}
	var starts []int
	for _, t := range members {
		f := facets[t]
		for e := range 3 {
			a, c := f[e], f[(e+1)%3]
			if o, ok := side[[2]int{c, a}]; ok && region[o] == id {
				continue // inside the face
			}
			if _, twice := next[a]; twice {
				return bFace{}, false
			}
			next[a] = c
			starts = append(starts, a)
		}
	}
	var loops [][]int
	done := map[int]bool{}
	for _, s := range starts {
		if done[s] {
			continue
		}
		var loop []int
		for q := s; !done[q]; {
			done[q] = true
			loop = append(loop, q)
			nq, ok := next[q]
			if !ok {
				return bFace{}, false
			}
			q = nq
		}
		if len(loop) < 3 || loop[0] != next[loop[len(loop)-1]] {
			return bFace{}, false
		}
		loops = append(loops, loop)
	}
	// Newell's normal of each loop: its length is twice the loop's area, its direction the
	// side it turns counter-clockwise about. The outside loop turns about the face's
	// outward normal; the holes the other way.
	var normal scene.Vec3
	outer := -1
	newell := make([]scene.Vec3, len(loops))
	for i, l := range loops {
		for k, q := range l {
			p, r := b.verts[q], b.verts[l[(k+1)%len(l)]]
			newell[i] = add3(newell[i], scene.Vec3{(p[1] - r[1]) * (p[2] + r[2]), (p[2] - r[2]) * (p[0] + r[0]), (p[0] - r[0]) * (p[1] + r[1])})
		}
		if outer < 0 || dot3(newell[i], newell[i]) > dot3(newell[outer], newell[outer]) {
			outer = i
		}
	}
	normal = newell[outer]
	l := math.Sqrt(dot3(normal, normal))
	if !(l > 0) {
		return bFace{}, false
	}
	normal = scale3(normal, 1/l)
	for i := range loops {
		if i != outer && dot3(newell[i], normal) >= 0 {
			return bFace{}, false // two loops both turning outward
		}
	}
	loops[0], loops[outer] = loops[outer], loops[0]
	face := bFace{same: true}
	o := loops[0]
	face.surf = bSurface{kind: surfPlane, loc: b.verts[o[0]], axis: normal, ref: sub3(b.verts[o[1]], b.verts[o[0]])}
	for _, l := range loops {
		uses := make([]bUse, len(l))
		for k, q := range l {
			uses[k] = use(q, l[(k+1)%len(l)])
		}
		face.loops = append(face.loops, uses)
	}
	return face, true
}
