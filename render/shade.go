package render

// Pictures of solids. A scene with solids is drawn as an agent or a person expects to see a
// part first: an isometric view, shaded, with its edges, fitted to the solids. This is a small
// software rasterizer of its own (golang.org/x/image/vector has no depth): triangles are
// filled into a depth buffer at ss×ss samples a pixel, then the edges that matter (the
// silhouette, and feature edges whose faces meet at over shadeFeatureDeg) and the scene's 2D
// shapes, as thin lines in the plane z = 0, are drawn over it where the depth buffer says they
// are seen, and the samples are averaged into pixels.
//
// The picture is drawn in bands of rows so that the sample buffers stay small whatever the
// picture's size, and so that the processors can draw bands side by side; the triangles and
// lines are sorted into the bands they reach first. The
// work is counted before any pixel is made (the samples each triangle and line covers, which
// are known from the projection), against MaxRasterCells like the 2D painter's cells.

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// shadeLight is the direction towards the light in the camera's frame (right, up, towards
// the camera): from the viewer's side, above and a little to the left, so that whatever the
// view, the faces turned to the viewer are lit and of a box's three faces the iso view shows
// the top is brightest, then the front (-Y) and then the right (+X). Every face gets
// shadeAmbient of its colour, plus the rest times the cosine of its angle to the light.
var shadeLight = normalize3(scene.Vec3{-0.21, 0.45, 1.1})

// worldLight is shadeLight in the world, for a camera's frame b.
func worldLight(b camBasis) scene.Vec3 {
	return add3(add3(scale3(b.right, shadeLight[0]), scale3(b.up, shadeLight[1])), scale3(b.fwd, -shadeLight[2]))
}

const shadeAmbient = 0.35

// shadeFeatureDeg is the angle between two faces' normals over which their common edge is
// drawn: a box's edges are (90°), the facets of a cylinder of 12 or more segments are not
// (30° or less), its rims are. It is the one feature angle (scene.FeatureAngle) that
// projections and the 3D viewer use too.
const shadeFeatureDeg = scene.FeatureAngle

// shadeEdgeColor is the colour of a solid's edges when its style has no stroke. On a part
// whose colour is darker than shadeDarkFace (its luminance) the edges would not show, so
// they are drawn in its colour taken shadeDarkEdgeLift of the way to white instead.
var shadeEdgeColor = scene.Color{0.12, 0.13, 0.15, 1}

const (
	shadeDarkFace     = 0.3
	shadeDarkEdgeLift = 0.5
)

// edgeColor is the colour of the edges of a solid in style st.
func edgeColor(st scene.Style) scene.Color {
	if st.Stroke != nil && st.Stroke[3] > 0 {
		return *st.Stroke
	}
	if f := st.Fill; f != nil && f[3] > 0 && 0.2126*f[0]+0.7152*f[1]+0.0722*f[2] < shadeDarkFace {
		var c scene.Color
		for i := range 3 {
			c[i] = f[i] + (1-f[i])*shadeDarkEdgeLift
		}
		c[3] = 1
		return c
	}
	return shadeEdgeColor
}

// Widths, in pixels: a solid's edges, and the scene's 2D shapes drawn in the plane z = 0.
const (
	shadeEdgePx = 1.4
	shadeLinePx = 1.0
)

// shadeBandPx is the height of a band of the picture, in pixels.
const shadeBandPx = 16

// shadeSamples is the samples a side of a pixel: 3×3 up to shadeFineSide pixels on the
// longer side, 2×2 above, where a pixel is smaller against the part.
func shadeSamples(w, h int) int {
	if max(w, h) <= shadeFineSide {
		return 3
	}
	return 2
}

const shadeFineSide = 2048

// shadeFrame is the window of the screen plane a picture of solids shows, in scene units
// along the camera's right and up, and the plan window it stands for.
type shadeFrame struct {
	cam    camBasis
	screen View // along cam.right (x) and cam.up (y)
	plan   View // the scene window in x and y framed (Picture.Visible)
	// depth is the depth (along cam.fwd) of the solids' middle, which the depth buffer
	// counts from, so that a part far from the origin keeps float32's digits for itself.
	depth float64
}

// frameOf frames the solids as camera c sees them: with no view, the projection of their
// vertices grown by margin; with a view (a window of the plan, as every other picture takes
// it), the projection of the box over that window from the solids' lowest to their highest
// point.
func frameOf(solids []scene.SolidItem, c Camera, v *View, margin float64) (shadeFrame, error) {
	cam := c.basis()
	var scr, plan geom.Box
	zlo, zhi := math.Inf(1), math.Inf(-1)
	dlo, dhi := math.Inf(1), math.Inf(-1)
	for _, it := range solids {
		sd := it.Entity.Shape.(*scene.Solid)
		for i := range uint32(sd.Mesh.NumVertices()) {
			p := it.World.Apply(sd.Mesh.Vertex(i))
			scr.Extend(cam.screen(p))
			plan.Extend(geom.Vec{X: p[0], Y: p[1]})
			zlo, zhi = math.Min(zlo, p[2]), math.Max(zhi, p[2])
			dlo, dhi = math.Min(dlo, dot3(p, cam.fwd)), math.Max(dhi, dot3(p, cam.fwd))
		}
	}
	depth := 0.0
	if dlo <= dhi {
		depth = (dlo + dhi) / 2
	} else {
		zlo, zhi = 0, 0 // meshes without vertices
	}
	if v != nil {
		if err := v.Check(); err != nil {
			return shadeFrame{}, err
		}
		scr = geom.Box{}
		for i := range 8 {
			c := scene.Vec3{v.Min.X, v.Min.Y, zlo}
			if i&1 != 0 {
				c[0] = v.Max.X
			}
			if i&2 != 0 {
				c[1] = v.Max.Y
			}
			if i&4 != 0 {
				c[2] = zhi
			}
			scr.Extend(cam.screen(c))
		}
		f := shadeFrame{cam: cam, screen: View{Min: scr.Min, Max: scr.Max}, plan: *v, depth: depth}
		if zlo == zhi {
			// Seen edge-on (a flat part, or none, from the side) the window has no height:
			// it gets the plan window's larger side, as a fitted frame gets a margin.
			f.screen = padFlat(f.screen, math.Max(v.Size().X, v.Size().Y)*DefaultMargin)
		}
		return f, f.screen.Check()
	}
	if margin == 0 {
		margin = DefaultMargin
	}
	if margin < 0 || math.IsNaN(margin) || math.IsInf(margin, 0) {
		return shadeFrame{}, fmt.Errorf("margin must be a finite fraction >= 0, got %v", margin)
	}
	if !scr.NonEmpty {
		return shadeFrame{cam: cam, screen: fitFrame(scene.Frame{}, margin), plan: fitFrame(scene.Frame{}, margin)}, nil
	}
	sz := scr.Size()
	pad := math.Max(sz.X, sz.Y) * margin
	if pad == 0 {
		pad = 1 // a solid flattened to a point still shows
	}
	grow := geom.Vec{X: pad, Y: pad}
	f := shadeFrame{
		cam:    cam,
		screen: View{Min: scr.Min.Sub(grow), Max: scr.Max.Add(grow)},
		plan:   View{Min: plan.Min.Sub(grow), Max: plan.Max.Add(grow)},
		depth:  depth,
	}
	return f, f.screen.Check()
}

// padFlat grows a window with no width or no height by pad on that side.
func padFlat(v View, pad float64) View {
	sz := v.Size()
	if !(sz.X > 0) {
		v.Min.X, v.Max.X = v.Min.X-pad, v.Max.X+pad
	}
	if !(sz.Y > 0) {
		v.Min.Y, v.Max.Y = v.Min.Y-pad, v.Max.Y+pad
	}
	return v
}

// shadeJob is one picture of solids being drawn: what is drawn, in samples.
type shadeJob struct {
	ss   int // samples a side of a pixel
	w, h int // the picture, in samples
	bg   [4]uint8

	// pts holds x, y (samples, y down) and depth (samples, away from the camera) of every
	// vertex of every solid; tris three indices into it per front-facing triangle, and cols
	// the shaded colour at each of its corners.
	pts  []float32
	tris []uint32
	cols []uint32
	// segs are the lines drawn over the faces: the solids' edges and the 2D shapes.
	segs       []shadeSeg
	styles     []shadeStyle
	styleIndex map[shadeStyle]uint32

	cost int64 // samples the triangles and lines cover, counted against maxRasterCells

	light scene.Vec3 // shadeLight in sample space

	topo topologies // shared by the jobs of one picture
}

// meshTopology is what a picture works out once for each mesh however many views and passes
// draw it (a sheet's four panels, each with its highlight): the adjacency, welded by position,
// and the triangles around each welded vertex, made when a view first shades a face.
type meshTopology struct {
	adj    *scene.MeshEdges
	around bins
	made   bool // around is made
}

// topologies holds a picture's meshTopology of each mesh. The jobs fill it one at a time, as
// they are laid out, before any draws.
type topologies map[*scene.Mesh]*meshTopology

// topologyBuilds counts the adjacencies the pictures have made, for the tests.
var topologyBuilds atomic.Int64

func (t topologies) of(mesh *scene.Mesh) *meshTopology {
	if m, ok := t[mesh]; ok {
		return m
	}
	topologyBuilds.Add(1)
	m := &meshTopology{adj: mesh.Edges()}
	t[mesh] = m
	return m
}

// trianglesAround is the triangles around each welded vertex of the mesh m is the topology of.
func (m *meshTopology) trianglesAround(mesh *scene.Mesh) bins {
	if !m.made {
		m.around, m.made = trianglesAround(mesh, m.adj.Weld), true
	}
	return m.around
}

// shadeSeg is one straight piece of line, its ends in samples and depth as pts.
type shadeSeg struct {
	ax, ay, az, bx, by, bz float32
	// eps is how far behind what the depth buffer holds near the line it may lie and still
	// show: its own faces, sampled beside it, slope towards the camera by up to this much.
	eps   float32
	style uint32
}

// shadeStyle is how a line is painted: its colour (premultiplied) and half its width in
// samples.
type shadeStyle struct {
	c    [4]uint8
	half float32
}

func newShadeJob(w, h int, bg color.RGBA, topo topologies) *shadeJob {
	ss := shadeSamples(w, h)
	return &shadeJob{ss: ss, w: w * ss, h: h * ss, bg: [4]uint8{bg.R, bg.G, bg.B, bg.A}, topo: topo}
}

// screenMap is the map from world coordinates to samples (x, y down) and depth (away from the
// camera, from the depth depth0 in scene units), for a picture whose screen-to-pixel map is
// toPx.
func (j *shadeJob) screenMap(toPx geom.Affine, cam camBasis, depth0 float64) scene.Affine3 {
	k, ss := toPx.A, float64(j.ss)
	var m scene.Affine3
	for i := range 3 {
		m[i] = ss * k * cam.right[i]
		m[4+i] = -ss * k * cam.up[i]
		m[8+i] = ss * k * cam.fwd[i]
	}
	m[3], m[7], m[11] = ss*toPx.E, ss*toPx.F, -ss*k*depth0
	return m
}

// addScene adds the solids and the 2D shapes of s that keep says to draw (nil: all), in their
// own colours or all in override (nil: their own), the 2D shapes as lines linePx pixels wide,
// and returns how many entities it added.
func (j *shadeJob) addScene(s *scene.Scene, solids []scene.SolidItem, f shadeFrame, toPx geom.Affine, keep func(*scene.Entity) bool, override *scene.Color, linePx float64) int {
	n := 0
	sm := j.screenMap(toPx, f.cam, f.depth)
	// The map to samples is a rotation and a scale (a turn of the world, and the flip of y
	// undone by the turn's handedness), so the light and the faces' normals can meet there.
	j.light = normalize3(sub3(sm.Apply(worldLight(f.cam)), sm.Apply(scene.Vec3{})))
	// Every vertex is kept, and about half the triangles face the camera: sized once, the
	// arrays are not copied as they grow (a million triangles would copy tens of megabytes).
	nv, nt := 0, 0
	for _, it := range solids {
		if keep == nil || keep(it.Entity) {
			m := it.Entity.Shape.(*scene.Solid).Mesh
			nv, nt = nv+m.NumVertices(), nt+m.NumTriangles()
		}
	}
	j.pts = make([]float32, 0, 3*nv)
	j.tris = make([]uint32, 0, 3*(nt/2+1))
	j.cols = make([]uint32, 0, 3*(nt/2+1))
	for _, it := range solids {
		if keep != nil && !keep(it.Entity) {
			continue
		}
		drawn := s.Drawn(it.Entity)
		if !drawn.Plot {
			continue
		}
		st := drawn.Style
		face, shaded := j.bg, false // no fill: the faces hide what is behind them, in the background's colour
		if st.Fill != nil && st.Fill[3] > 0 {
			face, shaded = [4]uint8{opaque8(st.Fill[0]), opaque8(st.Fill[1]), opaque8(st.Fill[2]), 0xff}, true
		}
		if override != nil {
			face, shaded = [4]uint8{opaque8(override[0]), opaque8(override[1]), opaque8(override[2]), 0xff}, true
		}
		edge := edgeColor(st)
		j.addSolid(it.Entity.Shape.(*scene.Solid).Mesh, sm.Mul(it.World), face, shaded, edge)
		n++
	}
	// The 2D shapes, as lines in the plane z = 0, in their stroke's colour (else their fill's).
	tol := pngTolerance / toPx.A
	half := float32(linePx * float64(j.ss) / 2)
	for it := range s.Paint() {
		if _, ok := it.Entity.Shape.(*scene.Solid); ok || len(it.Path) == 0 {
			continue
		}
		if keep != nil && !keep(it.Entity) {
			continue
		}
		drawn := s.Drawn(it.Entity)
		if !drawn.Plot {
			continue
		}
		st := drawn.Style
		c := st.Stroke
		if c == nil || c[3] == 0 {
			c = st.Fill
		}
		if c == nil || c[3] == 0 {
			continue
		}
		if override != nil {
			c = override
		}
		style := j.style(*c, half)
		n++
		for _, l := range it.Path.Flatten(tol) {
			pts := l.Points
			if l.Closed && len(pts) > 1 {
				pts = append(pts, pts[0])
			}
			for i := 1; i < len(pts); i++ {
				a := sm.Apply(scene.Vec3{pts[i-1].X, pts[i-1].Y, 0})
				b := sm.Apply(scene.Vec3{pts[i].X, pts[i].Y, 0})
				j.addSeg(a, b, shadeLineEps, style)
			}
		}
	}
	return n
}

// shadeLineEps is how far behind the depth buffer a 2D shape's line may lie and still show,
// in samples: the plane z = 0 it lies in is not drawn, so only a solid can hide it.
const shadeLineEps = 1.5

func opaque8(v float64) uint8 { return uint8(math.Round(pngClamp01(v) * 0xff)) }

// style adds a line style, once, and returns its index.
func (j *shadeJob) style(c scene.Color, half float32) uint32 {
	p := pngColor8(c)
	st := shadeStyle{c: [4]uint8{p.R, p.G, p.B, p.A}, half: half}
	if i, ok := j.styleIndex[st]; ok {
		return i
	}
	if j.styleIndex == nil {
		j.styleIndex = map[shadeStyle]uint32{}
	}
	i := uint32(len(j.styles))
	j.styles = append(j.styles, st)
	j.styleIndex[st] = i
	return i
}

// addSeg adds a piece of line from a to b (samples and depth), counting the samples it paints.
func (j *shadeJob) addSeg(a, b scene.Vec3, eps float64, style uint32) {
	half := float64(j.styles[style].half)
	lo := geom.Vec{X: math.Min(a[0], b[0]) - half, Y: math.Min(a[1], b[1]) - half}
	hi := geom.Vec{X: math.Max(a[0], b[0]) + half, Y: math.Max(a[1], b[1]) + half}
	if hi.X < 0 || hi.Y < 0 || lo.X > float64(j.w) || lo.Y > float64(j.h) {
		return // outside the picture
	}
	j.segs = append(j.segs, shadeSeg{
		ax: float32(a[0]), ay: float32(a[1]), az: float32(a[2]),
		bx: float32(b[0]), by: float32(b[1]), bz: float32(b[2]),
		eps: float32(eps), style: style,
	})
	l := math.Max(math.Abs(b[0]-a[0]), math.Abs(b[1]-a[1]))
	j.cost += int64(math.Min(l+2*half, float64(j.w+j.h))*(2*half+2)) + 1
}

// addSolid adds a mesh mapped to samples by m: its front-facing triangles in face, shaded
// when shaded is set, and its silhouette and feature edges in edge.
func (j *shadeJob) addSolid(mesh *scene.Mesh, m scene.Affine3, face [4]uint8, shaded bool, edge scene.Color) {
	base := uint32(len(j.pts) / 3)
	nv := mesh.NumVertices()
	for i := range uint32(nv) {
		p := m.Apply(mesh.Vertex(i))
		j.pts = append(j.pts, float32(p[0]), float32(p[1]), float32(p[2]))
	}
	pts := j.pts[3*base:]
	// The outward normal in sample space is the cross product of two sides mapped by m, which
	// is m's cofactor matrix times the sides' cross product in the mesh's own frame: worked
	// out there, from the mesh's float32 coordinates, a tiny facet keeps its direction. It is
	// turned over when m (a mirror) turns the mesh inside out.
	var r [3]scene.Vec3 // the rows of m's linear part
	for i := range 3 {
		r[i] = scene.Vec3{m[4*i], m[4*i+1], m[4*i+2]}
	}
	cof := [3]scene.Vec3{cross3(r[1], r[2]), cross3(r[2], r[0]), cross3(r[0], r[1])}
	orient := 1.0
	if m.Det() < 0 {
		orient = -1
	}
	nt := mesh.NumTriangles()
	// normals[t] is triangle t's unit outward normal (zero when degenerate); front marks the
	// ones seen from the camera (their normal points towards negative depth).
	normals := make([][3]float32, nt) // float32: a solid may have MaxSolidTriangles
	front := make([]bool, nt)
	seen := 0
	for t := range nt {
		a, b, c := mesh.Triangles[3*t], mesh.Triangles[3*t+1], mesh.Triangles[3*t+2]
		ma, mb, mc := mesh.Vertex(a), mesh.Vertex(b), mesh.Vertex(c)
		nm := cross3(sub3(mb, ma), sub3(mc, ma))
		n := scene.Vec3{dot3(cof[0], nm), dot3(cof[1], nm), dot3(cof[2], nm)}
		l := math.Sqrt(dot3(n, n))
		if !(l > 0) {
			continue
		}
		n = scale3(n, orient/l)
		normals[t] = [3]float32{float32(n[0]), float32(n[1]), float32(n[2])}
		if n[2] < 0 { // else facing away: hidden by the rest of the closed mesh
			front[t] = true
			seen++
		}
	}
	topo := j.topo.of(mesh)
	adj := topo.adj
	sharp := j.addEdges(adj, base, normals, front, edge)
	if seen == 0 {
		return
	}
	// A curved face is shaded smooth: the normal at a corner of a triangle is the mean of
	// the normals of the triangles around its vertex, and the colour runs linearly between
	// the corners. At a vertex on a feature edge (sharp) the normals are split: a corner
	// takes only the triangles within shadeFeatureDeg of its own (its face), so that a flat
	// face is one colour and its edges stay sharp. A vertex off every feature edge has one
	// colour for all its corners, worked out once. The vertices are taken welded, so that a
	// smooth face through a repeated vertex (a seam) is shaded across it as one.
	weld := adj.Weld
	around := topo.trianglesAround(mesh)
	cosFeature := float32(math.Cos(shadeFeatureDeg * math.Pi / 180))
	colour := func(sum scene.Vec3) uint32 {
		k := shadeAmbient
		if l := math.Sqrt(dot3(sum, sum)); l > 0 {
			k += (1 - shadeAmbient) * math.Max(0, dot3(sum, j.light)/l)
		}
		col := face
		for i := range 3 {
			col[i] = uint8(math.Round(float64(face[i]) * k))
		}
		return packRGBA(col)
	}
	smooth := make([]uint32, nv) // a smooth vertex's colour, 0 until worked out (alpha is 0xff)
	shadeOf := func(t uint32, v uint32) uint32 {
		if !shaded {
			return packRGBA(face)
		}
		v = weld[v]
		if !sharp[v] && smooth[v] != 0 {
			return smooth[v]
		}
		n0 := normals[t]
		var sum scene.Vec3
		for _, u := range around.of(int(v)) {
			n := normals[u]
			if !sharp[v] || n[0]*n0[0]+n[1]*n0[1]+n[2]*n0[2] >= cosFeature {
				sum = add3(sum, widen3(n))
			}
		}
		c := colour(sum)
		if !sharp[v] {
			smooth[v] = c
		}
		return c
	}
	for t := range uint32(nt) {
		if !front[t] {
			continue
		}
		a, b, c := mesh.Triangles[3*t], mesh.Triangles[3*t+1], mesh.Triangles[3*t+2]
		j.tris = append(j.tris, base+a, base+b, base+c)
		j.cols = append(j.cols, shadeOf(t, a), shadeOf(t, b), shadeOf(t, c))
		j.cost += triangleCost(vec3At(pts, a), vec3At(pts, b), vec3At(pts, c), j.w, j.h)
	}
}

// trianglesAround lists the triangles around each vertex of mesh, welded: a vertex's
// triangles are listed under weld of it.
func trianglesAround(mesh *scene.Mesh, weld []uint32) bins {
	nv := mesh.NumVertices()
	b := bins{start: make([]uint32, nv+1), items: make([]uint32, len(mesh.Triangles))}
	for _, v := range mesh.Triangles {
		b.start[weld[v]+1]++
	}
	for i := 1; i <= nv; i++ {
		b.start[i] += b.start[i-1]
	}
	fill := make([]uint32, nv)
	copy(fill, b.start[:nv])
	for i, v := range mesh.Triangles {
		w := weld[v]
		b.items[fill[w]] = uint32(i / 3)
		fill[w]++
	}
	return b
}

// addEdges adds the mesh's silhouette edges (a face seen beside one turned away) and its
// feature edges between two faces seen (normals over shadeFeatureDeg apart). An edge with one
// face only (a mesh that is not closed) is drawn too. It answers which vertices lie on a
// feature edge or on such an open one, seen or not (sharp), by the first vertex at each
// position (adj.Weld).
func (j *shadeJob) addEdges(adj *scene.MeshEdges, base uint32, normals [][3]float32, front []bool, edge scene.Color) (sharp []bool) {
	sharp = make([]bool, len(adj.Weld))
	cosFeature := math.Cos(shadeFeatureDeg * math.Pi / 180)
	half := float32(shadeEdgePx * float64(j.ss) / 2)
	style := j.style(edge, half)
	pts := j.pts[3*base:]
	for e := range adj.All() {
		t1, t2 := e.T1, e.T2
		feature := t2 == scene.NoFace || dot3(widen3(normals[t1]), widen3(normals[t2])) < cosFeature
		if feature {
			sharp[e.A], sharp[e.B] = true, true
		}
		var draw bool
		var slope float64
		switch {
		case t2 == scene.NoFace:
			draw = front[t1]
			slope = faceSlope(normals[t1])
		case front[t1] != front[t2]:
			draw = true // the silhouette
			slope = faceSlope(normals[t1])
			if front[t2] {
				slope = faceSlope(normals[t2])
			}
		case front[t1]:
			draw = feature
			slope = math.Max(faceSlope(normals[t1]), faceSlope(normals[t2]))
		}
		if !draw {
			continue
		}
		a, b := vec3At(pts, e.A), vec3At(pts, e.B)
		// The faces beside the edge, sampled within 1.5 samples of it, may come nearer the
		// camera than the edge by their slope; a hidden edge lies behind a face by far more.
		eps := math.Min(1+1.5*slope, shadeMaxEps)
		j.addSeg(a, b, eps, style)
	}
	return sharp
}

// shadeMaxEps caps how far, in samples, an edge may lie behind the depth buffer and still
// show: a face seen almost edge-on would otherwise let hidden edges through beside it.
const shadeMaxEps = 6

// faceSlope is how fast the depth of a face with unit normal n changes across the screen.
func faceSlope(n [3]float32) float64 {
	if n[2] == 0 {
		return math.Inf(1)
	}
	return math.Hypot(float64(n[0]), float64(n[1])) / math.Abs(float64(n[2]))
}

func widen3(v [3]float32) scene.Vec3 { return scene.Vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

// triangleCost is the samples a triangle fills: its area, a row's rounding each, and no more
// than its box within the picture.
func triangleCost(a, b, c scene.Vec3, w, h int) int64 {
	area := math.Abs((b[0]-a[0])*(c[1]-a[1])-(c[0]-a[0])*(b[1]-a[1])) / 2
	x0 := math.Max(0, math.Min(a[0], math.Min(b[0], c[0])))
	x1 := math.Min(float64(w), math.Max(a[0], math.Max(b[0], c[0])))
	y0 := math.Max(0, math.Min(a[1], math.Min(b[1], c[1])))
	y1 := math.Min(float64(h), math.Max(a[1], math.Max(b[1], c[1])))
	if !(x1 >= x0 && y1 >= y0) {
		return 1 // set up, then found outside
	}
	return int64(math.Min(area+(y1-y0), (x1-x0+1)*(y1-y0+1))) + 1
}

// draw paints the picture into img band by band, checking ctx (nil: never done) between
// bands.
func (j *shadeJob) draw(ctx context.Context, img *image.RGBA) error {
	if ctx == nil {
		ctx = context.Background()
	}
	band := shadeBandPx * j.ss
	var maxHalf float32
	for _, st := range j.styles {
		maxHalf = max(maxHalf, st.half)
	}
	// A band's buffers reach margin rows past it on both sides, so that a line's depth test
	// and the line itself see the faces across the band's border.
	margin := int(math.Ceil(float64(maxHalf))) + 2
	nb := (j.h + band - 1) / band
	triBins := j.binTriangles(nb, band, margin)
	segBins := j.binSegs(nb, band, margin)
	rows := band + 2*margin
	bg := packRGBA(j.bg)
	// The bands are drawn by up to shadeWorkers goroutines, each with its own buffers: a
	// band reads only the job and writes only its own rows of img, so the picture is the
	// same whatever the order.
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	var panicked atomic.Pointer[any] // re-raised below, on the caller's goroutine
	for range min(shadeWorkers(), nb) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					panicked.CompareAndSwap(nil, &p)
					next.Store(int64(nb)) // the others stop at their next band
				}
			}()
			z := make([]float32, rows*j.w)
			col := make([]uint32, rows*j.w)
			for {
				b := int(next.Add(1) - 1)
				if b >= nb || failed.Load() != nil {
					return
				}
				if err := ctx.Err(); err != nil {
					failed.CompareAndSwap(nil, fmt.Errorf("drawing the picture: %w", err))
					return
				}
				y0 := b*band - margin // the buffers' first row, in samples
				for i := range z {
					z[i] = float32(math.Inf(1))
					col[i] = bg
				}
				buf := shadeBuf{z: z, col: col, w: j.w, y0: y0, rows: rows}
				for _, t := range triBins.of(b) {
					j.fillTriangle(&buf, t)
				}
				for _, s := range segBins.of(b) {
					j.drawSeg(&buf, &j.segs[s])
				}
				j.resolve(img, &buf, b*band, min(band, j.h-b*band))
			}
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(*p)
	}
	if err, _ := failed.Load().(error); err != nil {
		return err
	}
	return nil
}

// shadeWorkers is how many goroutines draw a picture's bands: the processors Go runs on, up
// to maxShadeWorkers (past a few, the bands' buffers cost more than they save).
func shadeWorkers() int { return min(goruntime.GOMAXPROCS(0), maxShadeWorkers) }

const maxShadeWorkers = 4

// shadeBuf is a band's samples: depth and colour, rows from y0 (samples, may be negative).
type shadeBuf struct {
	z     []float32
	col   []uint32
	w, y0 int
	rows  int
}

// bins lists items by band: band b holds items[start[b]:start[b+1]].
type bins struct {
	start []uint32
	items []uint32
}

func (b *bins) of(i int) []uint32 { return b.items[b.start[i]:b.start[i+1]] }

// binBy sorts n items into nb bands: span says the bands an item reaches, first to last.
func binBy(n, nb int, span func(i int) (int, int, bool)) bins {
	b := bins{start: make([]uint32, nb+1)}
	for i := range n {
		if lo, hi, ok := span(i); ok {
			for k := lo; k <= hi; k++ {
				b.start[k+1]++
			}
		}
	}
	for k := 1; k <= nb; k++ {
		b.start[k] += b.start[k-1]
	}
	b.items = make([]uint32, b.start[nb])
	fill := make([]uint32, nb)
	copy(fill, b.start[:nb])
	for i := range n {
		if lo, hi, ok := span(i); ok {
			for k := lo; k <= hi; k++ {
				b.items[fill[k]] = uint32(i)
				fill[k]++
			}
		}
	}
	return b
}

// bandSpan is the bands a row range [lo, hi] (samples) reaches, each band's rows widened by
// margin on both sides.
func bandSpan(lo, hi float64, nb, band, margin int) (int, int, bool) {
	first := int(math.Floor((lo - float64(margin)) / float64(band)))
	last := int(math.Floor((hi + float64(margin)) / float64(band)))
	first, last = max(first, 0), min(last, nb-1)
	return first, last, first <= last
}

func (j *shadeJob) binTriangles(nb, band, margin int) bins {
	return binBy(len(j.tris)/3, nb, func(t int) (int, int, bool) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for k := range 3 {
			y := float64(j.pts[3*j.tris[3*t+k]+1])
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
		return bandSpan(lo, hi, nb, band, margin)
	})
}

func (j *shadeJob) binSegs(nb, band, margin int) bins {
	return binBy(len(j.segs), nb, func(i int) (int, int, bool) {
		s := &j.segs[i]
		half := float64(j.styles[s.style].half) + 1
		lo := math.Min(float64(s.ay), float64(s.by)) - half
		hi := math.Max(float64(s.ay), float64(s.by)) + half
		return bandSpan(lo, hi, nb, band, margin)
	})
}

// fillTriangle fills triangle t into the band, nearest depth first. A sample is in the
// triangle when its centre is, sides included, so that two triangles sharing a side leave no
// sample between them.
func (j *shadeJob) fillTriangle(buf *shadeBuf, t uint32) {
	var v [3]scene.Vec3
	for k := range 3 {
		v[k] = vec3At(j.pts, j.tris[3*t+uint32(k)])
	}
	n := cross3(sub3(v[1], v[0]), sub3(v[2], v[0]))
	if n[2] == 0 {
		return // seen edge-on: no area
	}
	sign := 1.0
	if n[2] < 0 {
		sign = -1
	}
	// depth = z0 + dx·x + dy·y, the triangle's plane.
	dx, dy := -n[0]/n[2], -n[1]/n[2]
	z0 := v[0][2] - dx*v[0][0] - dy*v[0][1]
	ylo := min(v[0][1], v[1][1], v[2][1]) // the builtins: math.Min's NaN care is slower
	yhi := max(v[0][1], v[1][1], v[2][1])
	r0 := max(int(math.Ceil(ylo-0.5-1e-6)), buf.y0, 0)
	r1 := min(int(math.Floor(yhi-0.5+1e-6)), buf.y0+buf.rows-1, j.h-1)
	c0, c1, c2 := j.cols[3*t], j.cols[3*t+1], j.cols[3*t+2]
	// A smooth triangle's colour channels, each ch0 + chx·x + chy·y; flat ones (most) skip it.
	smooth := c0 != c1 || c0 != c2
	var ch0, chx, chy [3]float64
	if smooth {
		det := (v[1][0]-v[0][0])*(v[2][1]-v[0][1]) - (v[2][0]-v[0][0])*(v[1][1]-v[0][1])
		if det == 0 {
			smooth = false
		} else {
			k0, k1, k2 := unpackRGBA(c0), unpackRGBA(c1), unpackRGBA(c2)
			for i := range 3 {
				d1, d2 := float64(k1[i])-float64(k0[i]), float64(k2[i])-float64(k0[i])
				chx[i] = (d1*(v[2][1]-v[0][1]) - d2*(v[1][1]-v[0][1])) / det
				chy[i] = (d2*(v[1][0]-v[0][0]) - d1*(v[2][0]-v[0][0])) / det
				ch0[i] = float64(k0[i]) - chx[i]*v[0][0] - chy[i]*v[0][1] + 0.5 // + 0.5: rounded below
			}
		}
	}
	alpha := c0 &^ 0xffffff
	// The side from p to q bounds the triangle where sign·((q-p)×(s-p)) >= 0: on a row at yc,
	// x >= (or <=) p.x + m·(yc-p.y), m its run over its rise, worked out once; a level side
	// bounds the rows on one side of it.
	type side struct {
		px, py, m float64
		kind      int8 // 1: a left bound, -1: a right one, 0: level
	}
	var sides [3]side
	for k := range 3 {
		p, q := v[k], v[(k+1)%3]
		a := -(q[1] - p[1]) * sign
		sd := side{px: p[0], py: p[1]}
		switch {
		case a > 0:
			sd.kind, sd.m = 1, (q[0]-p[0])/(q[1]-p[1])
		case a < 0:
			sd.kind, sd.m = -1, (q[0]-p[0])/(q[1]-p[1])
		default:
			sd.m = (q[0] - p[0]) * sign // level: (q-p)×(s-p) is m·(s.y-p.y)
		}
		sides[k] = sd
	}
	for y := r0; y <= r1; y++ {
		yc := float64(y) + 0.5
		xl, xr := 0.0, float64(j.w)
		for k := range sides {
			sd := &sides[k]
			switch sd.kind {
			case 1:
				xl = max(xl, sd.px+sd.m*(yc-sd.py))
			case -1:
				xr = min(xr, sd.px+sd.m*(yc-sd.py))
			default:
				if sd.m*(yc-sd.py) < 0 {
					xr = -1 // the row lies outside this side
				}
			}
		}
		x0 := max(int(math.Ceil(xl-0.5-1e-6)), 0)
		x1 := min(int(math.Floor(xr-0.5+1e-6)), j.w-1)
		if x0 > x1 {
			continue
		}
		row := (y - buf.y0) * buf.w
		zr := z0 + dy*yc
		if !smooth {
			for x := x0; x <= x1; x++ {
				d := float32(zr + dx*(float64(x)+0.5))
				if d < buf.z[row+x] {
					buf.z[row+x] = d
					buf.col[row+x] = c0
				}
			}
			continue
		}
		// The channels in 16.16 fixed point, stepped along the row.
		var ch, step [3]int32
		for i := range 3 {
			ch[i] = int32((ch0[i] + chx[i]*(float64(x0)+0.5) + chy[i]*yc) * 65536)
			step[i] = int32(chx[i] * 65536)
		}
		for x := x0; x <= x1; x++ {
			d := float32(zr + dx*(float64(x)+0.5))
			if d < buf.z[row+x] {
				buf.z[row+x] = d
				buf.col[row+x] = alpha | clamp255(ch[0]>>16) | clamp255(ch[1]>>16)<<8 | clamp255(ch[2]>>16)<<16
			}
			ch[0], ch[1], ch[2] = ch[0]+step[0], ch[1]+step[1], ch[2]+step[2]
		}
	}
}

// drawSeg paints a piece of line where it is seen: stepping a sample at a time along its
// longer axis, a point of it shows when it lies no more than its eps behind the farthest
// depth in the 3×3 samples around it (a face beside the line, or what lies past its
// silhouette), and paints a run of samples across it its width wide.
func (j *shadeJob) drawSeg(buf *shadeBuf, s *shadeSeg) {
	st := &j.styles[s.style]
	half := float64(st.half)
	ax, ay, az := float64(s.ax), float64(s.ay), float64(s.az)
	bx, by, bz := float64(s.bx), float64(s.by), float64(s.bz)
	dx, dy := bx-ax, by-ay
	steep := math.Abs(dy) > math.Abs(dx)
	if steep { // walk along y: swap the axes, and swap them back when touching the buffer
		ax, ay, bx, by = ay, ax, by, bx
		dx, dy = dy, dx
	}
	if dx < 0 {
		ax, bx, ay, by, az, bz = bx, ax, by, ay, bz, az
		dx, dy = -dx, -dy
	}
	m := 0.0 // the slope across, per sample along
	if dx > 0 {
		m = dy / dx
	}
	mz := 0.0
	if dx > 0 {
		mz = (bz - az) / dx
	}
	across := half * math.Sqrt(1+m*m) // half the run across, for a width measured square to the line
	// The run along covers the line and a cap of half its width at each end.
	lo := math.Ceil(ax - half - 0.5)
	hi := math.Floor(bx + half - 0.5)
	// Clip the run along to the buffer: the picture's width, or the band's rows when steep.
	minAlong, maxAlong := 0.0, float64(j.w-1)
	if steep {
		minAlong, maxAlong = float64(buf.y0), float64(buf.y0+buf.rows-1)
	}
	if !steep && m != 0 {
		// Only the part of a shallow line that crosses the band's rows is walked.
		r0, r1 := float64(buf.y0)-across-1, float64(buf.y0+buf.rows)+across+1
		u0, u1 := ax+(r0-ay)/m, ax+(r1-ay)/m
		minAlong = math.Max(minAlong, math.Floor(math.Min(u0, u1)))
		maxAlong = math.Min(maxAlong, math.Ceil(math.Max(u0, u1)))
	}
	lo, hi = math.Max(lo, minAlong), math.Min(hi, maxAlong)
	for i := lo; i <= hi; i++ {
		u := math.Min(math.Max(i+0.5, ax), bx) // the line's point nearest, along
		v := ay + m*(u-ax)
		d := az + mz*(u-ax)
		px, py := u, v
		if steep {
			px, py = v, u
		}
		if !buf.shows(int(math.Floor(px)), int(math.Floor(py)), d, float64(s.eps)) {
			continue
		}
		c0 := int(math.Ceil(v - across - 0.5))
		c1 := int(math.Floor(v + across - 0.5))
		for c := c0; c <= c1; c++ {
			x, y := int(i), c
			if steep {
				x, y = c, int(i)
			}
			buf.paint(x, y, st.c)
		}
	}
}

// shows reports whether a point at depth d over sample (x, y) is seen: no more than eps
// behind the farthest of the depths around it.
func (b *shadeBuf) shows(x, y int, d, eps float64) bool {
	far := math.Inf(-1)
	for yy := y - 1; yy <= y+1; yy++ {
		if yy < b.y0 || yy >= b.y0+b.rows {
			continue
		}
		row := (yy - b.y0) * b.w
		for xx := x - 1; xx <= x+1; xx++ {
			if xx < 0 || xx >= b.w {
				far = math.Inf(1) // past the picture's edge: nothing there hides it
				continue
			}
			far = math.Max(far, float64(b.z[row+xx]))
		}
	}
	return d <= far+eps
}

// paint blends the premultiplied colour c over sample (x, y), when it lies in the band.
func (b *shadeBuf) paint(x, y int, c [4]uint8) {
	if x < 0 || x >= b.w || y < b.y0 || y >= b.y0+b.rows {
		return
	}
	i := (y-b.y0)*b.w + x
	if c[3] == 0xff {
		b.col[i] = packRGBA(c)
		return
	}
	under := unpackRGBA(b.col[i])
	k := 255 - uint32(c[3])
	var out [4]uint8
	for ch := range 4 {
		out[ch] = uint8(uint32(c[ch]) + (uint32(under[ch])*k+127)/255)
	}
	b.col[i] = packRGBA(out)
}

// resolve averages the band's samples of rows [y, y+n) (samples) into the picture's pixels.
func (j *shadeJob) resolve(img *image.RGBA, buf *shadeBuf, y, n int) {
	ss := j.ss
	div := uint32(ss * ss)
	w := j.w / ss
	for py := y / ss; py < (y+n)/ss; py++ {
		out := img.Pix[py*img.Stride : py*img.Stride+4*w]
		for px := range w {
			var sum [4]uint32
			for sy := range ss {
				row := (py*ss + sy - buf.y0) * buf.w
				for sx := range ss {
					c := buf.col[row+px*ss+sx]
					sum[0] += c & 0xff
					sum[1] += c >> 8 & 0xff
					sum[2] += c >> 16 & 0xff
					sum[3] += c >> 24
				}
			}
			for ch := range 4 {
				out[4*px+ch] = uint8((sum[ch] + div/2) / div)
			}
		}
	}
}

// clamp255 keeps an interpolated channel, which may overshoot a little at a sample centre
// just outside its triangle, within a byte.
func clamp255(v int32) uint32 {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return uint32(v)
}

func packRGBA(c [4]uint8) uint32 {
	return uint32(c[0]) | uint32(c[1])<<8 | uint32(c[2])<<16 | uint32(c[3])<<24
}

func unpackRGBA(c uint32) [4]uint8 {
	return [4]uint8{uint8(c), uint8(c >> 8), uint8(c >> 16), uint8(c >> 24)}
}

func vec3At(pts []float32, i uint32) scene.Vec3 {
	return scene.Vec3{float64(pts[3*i]), float64(pts[3*i+1]), float64(pts[3*i+2])}
}

func add3(a, b scene.Vec3) scene.Vec3 { return scene.Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func sub3(a, b scene.Vec3) scene.Vec3 { return scene.Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func dot3(a, b scene.Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func scale3(a scene.Vec3, k float64) scene.Vec3 { return scene.Vec3{a[0] * k, a[1] * k, a[2] * k} }

func cross3(a, b scene.Vec3) scene.Vec3 {
	return scene.Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func normalize3(a scene.Vec3) scene.Vec3 { return scale3(a, 1/math.Sqrt(dot3(a, a))) }
