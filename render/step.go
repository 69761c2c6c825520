package render

// STEP (ISO 10303-21, the AP214 schema AUTOMOTIVE_DESIGN): the file CAD and CAM programs take.
// A solid that is still what one sweep made of lines and arcs (scene.Form) is written as an
// exact boundary: planes, cylinders, cones, tori and spheres bounded by lines and circles, so
// that a machinist's program finds a true hole, not a prism of facets. Any other solid (a 3D
// boolean's, or one whose map stretches circles into ellipses) is written as a closed shell of
// planar faces: the mesh an STL holds, its triangles that lie in one plane side by side merged
// into one face (step_facets.go), in a form every STEP reader takes.
//
// Each solid is its own product, named after its entity and styled in its colour, so that a
// CAD program lists the parts by name. The B-rep is built in the form's own frame, where the
// sweep is simple, and written through the solid's world map; since that map is a similarity
// (else the solid is faceted), planes, circles and the rest stay what they are under it.
//
// Curved faces never close on themselves: a profile's circle is two half arcs, and a
// revolution is cut into sectors of at most half a turn, so every face is bounded by one loop
// of edges (and its holes) with no seam, which every reader builds the same way.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// MaxSTEPFacets caps the triangles of the faceted solids of one STEP file: each is at most
// about 850 bytes of text (a face, its plane, its loop and its share of edges and points:
// about 20 entities), less where coplanar ones are merged into one face (BenchmarkSTEP: 350),
// so a file at the cap is at most about 85 MB, within MaxOutputBytes.
// Exact solids are a few entities a profile edge and are not counted.
const MaxSTEPFacets = 100_000

// ErrSTEPTooLarge is returned for a STEP whose faceted solids pass MaxSTEPFacets.
var ErrSTEPTooLarge = errors.New("STEP too large")

// STEPOptions are the STEP writer's options.
type STEPOptions struct {
	Unit Unit // what one scene unit is; "" is DefaultUnit (millimetres)
}

// STEP writes the scene's solids as a STEP file (see the file's comment); a scene without a
// solid is refused (ErrNoSolids), and one whose faceted solids pass MaxSTEPFacets triangles
// (ErrSTEPTooLarge).
func STEP(s *scene.Scene, opt STEPOptions) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteSTEP(&b, s, opt); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteSTEP writes the STEP that STEP makes to w, as it is made.
func WriteSTEP(w io.Writer, s *scene.Scene, opt STEPOptions) error {
	u := opt.Unit
	if u == "" {
		u = DefaultUnit
	}
	if _, _, err := unitInfo(u); err != nil {
		return err
	}
	items, err := solidItems(s, "STEP")
	if err != nil {
		return err
	}
	ways := make([]stepWay, len(items))
	facets := 0
	for i, it := range items {
		ways[i] = stepWayOf(it)
		if ways[i].brep == nil {
			facets += it.Entity.Shape.(*scene.Solid).Mesh.NumTriangles()
		}
	}
	if facets > MaxSTEPFacets {
		return fmt.Errorf("%w: the faceted solids (%s) have %d triangles, over %d (MaxSTEPFacets); write them as .stl or .3mf, make them coarser (fewer segments), or make them exact: booleans in 2D before extruding",
			ErrSTEPTooLarge, nameList(faceted(items, ways)), facets, MaxSTEPFacets)
	}
	o := &stepOut{w: bufio.NewWriterSize(w, stlChunk)}
	o.header()
	ctx := o.contexts(u)
	for i, it := range items {
		b := ways[i].brep
		m := ways[i].world
		if b == nil {
			b, m = facetedBrep(it), scene.Identity3
		}
		o.solid(it.Entity.Name, b, m, ctx, solidColor(s, it.Entity))
	}
	o.w.WriteString("ENDSEC;\nEND-ISO-10303-21;\n")
	return o.w.Flush()
}

// faceted names the solids written faceted.
func faceted(items []scene.SolidItem, ways []stepWay) []string {
	var names []string
	for i, it := range items {
		if ways[i].brep == nil {
			names = append(names, it.Entity.Name)
		}
	}
	return names
}

// stepNote says which solids a STEP of s writes exactly and which faceted, and why: the
// answer of `cadrun run -o x.step` and of the export tool (Format.LeftOut).
func stepNote(s *scene.Scene) string {
	var exact, flat []string
	for _, it := range s.Solids() {
		w := stepWayOf(it)
		if w.brep != nil {
			exact = append(exact, it.Entity.Name)
		} else {
			flat = append(flat, it.Entity.Name+" ("+w.why+")")
		}
	}
	if len(exact)+len(flat) == 0 {
		return ""
	}
	var parts []string
	if len(exact) > 0 {
		parts = append(parts, "exact (planes, cylinders, cones, tori, spheres): "+nameList(exact))
	}
	if len(flat) > 0 {
		parts = append(parts, "faceted (planar triangles): "+nameList(flat)+"; for exact faces, make holes and pockets with 2D booleans before extruding")
	}
	return "STEP solids " + strings.Join(parts, "; ")
}

// stepWay is how a solid is written: exactly, from brep placed by world, or faceted (brep
// nil) for the reason why.
type stepWay struct {
	brep  *brep
	world scene.Affine3
	why   string
}

// similarityTolerance is how far (relative) a map's axes may differ in length or from right
// angles and still be taken as a similarity, which keeps circles circles: turns come out of
// sine and cosine.
const similarityTolerance = 1e-9

// stepWayOf decides how a solid is written.
func stepWayOf(it scene.SolidItem) stepWay {
	sd := it.Entity.Shape.(*scene.Solid)
	f := sd.Form
	if f == nil {
		switch sd.Recipe.Op {
		case "union", "difference", "intersect":
			return stepWay{why: "a 3D " + sd.Recipe.Op}
		case "extrude":
			return stepWay{why: "a twisted or scaled extrusion, or of a profile with other curves than arcs"}
		case "":
			return stepWay{why: "a mesh"}
		}
		return stepWay{why: "made by " + sd.Recipe.Op}
	}
	m := it.World.Mul(scene.Translation3(f.Offset))
	if m.Det() < 0 {
		// A mirror of the form is the form itself moved: an extrusion mirrored through its
		// middle height, a turn mirrored in y swept the other way round. Written through the
		// map that is not a mirror, every loop keeps its sense.
		switch f.Op {
		case scene.FormExtrude:
			z := f.Base + f.Height/2
			m = m.Mul(scene.Affine3{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 2 * z})
		default:
			sn, cs := math.Sincos(-f.Angle)
			m = m.Mul(scene.Affine3{1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0}).Mul(scene.Affine3{cs, -sn, 0, 0, sn, cs, 0, 0, 0, 0, 1, 0})
		}
	}
	if _, ok := similarity(m); !ok {
		return stepWay{why: "stretched unevenly, which makes circles ellipses"}
	}
	var b *brep
	if f.Op == scene.FormExtrude {
		b = extrusionBrep(f)
	} else {
		b = revolutionBrep(f)
	}
	if b == nil {
		return stepWay{why: "a turned arc reaches round the axis, a torus that crosses itself"}
	}
	return stepWay{brep: b, world: m}
}

// similarity is the scale of m when its linear part is a similarity that does not mirror.
func similarity(m scene.Affine3) (float64, bool) {
	col := func(j int) scene.Vec3 { return scene.Vec3{m[j], m[4+j], m[8+j]} }
	dot := func(a, b scene.Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	s2 := (dot(col(0), col(0)) + dot(col(1), col(1)) + dot(col(2), col(2))) / 3
	if !(s2 > 0) || m.Det() <= 0 {
		return 0, false
	}
	for i := range 3 {
		for j := range 3 {
			want := 0.0
			if i == j {
				want = s2
			}
			if math.Abs(dot(col(i), col(j))-want) > similarityTolerance*s2 {
				return 0, false
			}
		}
	}
	return math.Sqrt(s2), true
}

// A brep is a solid's boundary in its form's frame: vertices, edges between them on lines
// and circles, and faces on surfaces bounded by loops of those edges, one closed shell of
// faces for each part of the profile.
type brep struct {
	verts  []scene.Vec3
	edges  []bEdge
	faces  []bFace
	shells [][]int // the faces of each shell
}

// bEdge runs from vertex a to vertex b along a line, or along a circle (circle set: centre
// c, radius r, counter-clockwise about axis from ref, the edge's own direction).
type bEdge struct {
	a, b      int
	circle    bool
	c         scene.Vec3
	axis, ref scene.Vec3
	r         float64
}

// Surface kinds.
const (
	surfPlane = iota
	surfCylinder
	surfCone
	surfTorus
	surfSphere
)

// bSurface is a surface placed by loc, axis and ref: a plane through loc normal to axis; a
// cylinder, a sphere or a cone about the axis through loc (r1 its radius, for a cone its
// radius at loc and r2 its half-angle); a torus (r1 major, r2 minor radius).
type bSurface struct {
	kind           int
	loc, axis, ref scene.Vec3
	r1, r2         float64
}

// bUse is an edge in a loop, along its direction or against it.
type bUse struct {
	edge    int
	forward bool
}

// bFace is a face on surf, whose normal points out of the solid when same is set; loops[0]
// bounds it outside (counter-clockwise seen from outside the solid), the rest are its holes.
type bFace struct {
	surf  bSurface
	same  bool
	loops [][]bUse
}

func (b *brep) vertex(p scene.Vec3) int {
	b.verts = append(b.verts, p)
	return len(b.verts) - 1
}

func (b *brep) edge(e bEdge) int {
	b.edges = append(b.edges, e)
	return len(b.edges) - 1
}

// bArc is the circle of a profile edge from p to q of bulge k (k != 0): centre, radius and
// sweep (counter-clockwise positive), as scene's bulged rings define it.
func bArc(p, q geom.Vec, k float64) (c geom.Vec, r, sweep float64) {
	sweep = 4 * math.Atan(k)
	d := q.Sub(p)
	chord := d.Len()
	h := chord / (2 * math.Tan(sweep/2))
	n := geom.Vec{X: -d.Y / chord, Y: d.X / chord}
	c = p.Add(q).Mul(0.5).Add(n.Mul(h))
	return c, chord / (2 * math.Abs(math.Sin(sweep/2))), sweep
}

// profileRing is one ring of a form's profile: its points and bulges (nil when straight).
type profileRing struct {
	pts []geom.Vec
	bul []float64
}

func (r profileRing) bulge(i int) float64 {
	if r.bul == nil {
		return 0
	}
	return r.bul[i]
}

// partRings are a profile part's rings, the outer one first. A form's profile holds no edge
// of no length (scene.EmptyEdge), which would be a face of no width that readers refuse.
func partRings(p scene.PolygonPart) []profileRing {
	out := []profileRing{{p.Outer, p.OuterBulges}}
	for k, h := range p.Holes {
		var bul []float64
		if k < len(p.HoleBulges) {
			bul = p.HoleBulges[k]
		}
		out = append(out, profileRing{h, bul})
	}
	return out
}

var (
	zAxis = scene.Vec3{0, 0, 1}
	xAxis = scene.Vec3{1, 0, 0}
)

// extrusionBrep is the boundary of an extrusion: for each part, a bottom and a top plane
// bounded by the profile's rings, and a side face for each ring edge, a plane for a line, a
// cylinder for an arc.
func extrusionBrep(f *scene.Form) *brep {
	b := &brep{}
	z0, z1 := f.Base, f.Base+f.Height
	for _, part := range f.Profile.Parts {
		var shell []int
		var bottom, top [][]bUse
		for _, ring := range partRings(part) {
			n := len(ring.pts)
			vb, vt, up := make([]int, n), make([]int, n), make([]int, n)
			for i, p := range ring.pts {
				vb[i] = b.vertex(scene.Vec3{p.X, p.Y, z0})
				vt[i] = b.vertex(scene.Vec3{p.X, p.Y, z1})
				up[i] = b.edge(bEdge{a: vb[i], b: vt[i]})
			}
			eb, et := make([]int, n), make([]int, n)
			for i, p := range ring.pts {
				j := (i + 1) % n
				q := ring.pts[j]
				k := ring.bulge(i)
				eb[i] = b.edge(bEdge{a: vb[i], b: vb[j]})
				et[i] = b.edge(bEdge{a: vt[i], b: vt[j]})
				side := bFace{same: true, loops: [][]bUse{{{eb[i], true}, {up[j], true}, {et[i], false}, {up[i], false}}}}
				if k == 0 {
					d := q.Sub(p).Mul(1 / q.Sub(p).Len())
					side.surf = bSurface{kind: surfPlane, loc: scene.Vec3{p.X, p.Y, z0}, axis: scene.Vec3{d.Y, -d.X, 0}, ref: scene.Vec3{d.X, d.Y, 0}}
				} else {
					c, r, sweep := bArc(p, q, k)
					axis := zAxis
					if sweep < 0 {
						axis = scene.Vec3{0, 0, -1}
					}
					for _, e := range []int{eb[i], et[i]} {
						z := b.verts[b.edges[e].a][2]
						b.edges[e].circle, b.edges[e].c, b.edges[e].axis, b.edges[e].ref, b.edges[e].r = true, scene.Vec3{c.X, c.Y, z}, axis, xAxis, r
					}
					// The cylinder's normal points away from its axis: out of the solid where
					// the arc turns counter-clockwise round the material.
					side.surf = bSurface{kind: surfCylinder, loc: scene.Vec3{c.X, c.Y, z0}, axis: zAxis, ref: xAxis, r1: r}
					side.same = sweep > 0
				}
				b.faces = append(b.faces, side)
				shell = append(shell, len(b.faces)-1)
			}
			lb := make([]bUse, n)
			lt := make([]bUse, n)
			for i := range n {
				lb[i] = bUse{eb[n-1-i], false}
				lt[i] = bUse{et[i], true}
			}
			bottom, top = append(bottom, lb), append(top, lt)
		}
		b.faces = append(b.faces,
			bFace{surf: bSurface{kind: surfPlane, loc: scene.Vec3{0, 0, z0}, axis: scene.Vec3{0, 0, -1}, ref: xAxis}, same: true, loops: bottom},
			bFace{surf: bSurface{kind: surfPlane, loc: scene.Vec3{0, 0, z1}, axis: zAxis, ref: xAxis}, same: true, loops: top})
		shell = append(shell, len(b.faces)-2, len(b.faces)-1)
		b.shells = append(b.shells, shell)
	}
	return b
}

// revolutionBrep is the boundary of a revolution: each profile edge turned (a plane, a
// cylinder or a cone for a line, a torus or a sphere for an arc) in sectors of at most half
// a turn, and for a partial turn its two end planes bounded by the profile. nil when an arc
// would turn into a torus that crosses itself (its circle reaches round the axis).
func revolutionBrep(f *scene.Form) *brep {
	n := int(math.Ceil(f.Angle/math.Pi - 1e-9))
	whole := f.Angle >= 2*math.Pi-1e-12
	angle := func(k int) float64 {
		if whole && k == n {
			return 0
		}
		return f.Angle * float64(k) / float64(n)
	}
	// A profile point on the axis is one vertex at every angle.
	size := 0.0
	for _, part := range f.Profile.Parts {
		for _, p := range part.Outer {
			size = math.Max(size, math.Max(math.Abs(p.X), math.Abs(p.Y)))
		}
	}
	onAxis := func(p geom.Vec) bool { return math.Abs(p.X) <= 1e-12*size }
	at := func(p geom.Vec, t float64) scene.Vec3 {
		sn, cs := math.Sincos(t)
		return scene.Vec3{p.X * cs, p.X * sn, p.Y}
	}
	b := &brep{}
	for _, part := range f.Profile.Parts {
		var shell []int
		var start, end [][]bUse
		for _, ring := range partRings(part) {
			m := len(ring.pts)
			// v[i][k]: vertex i at angle k (the same vertex at every k on the axis, and at
			// k = n as at 0 for a whole turn).
			v := make([][]int, m)
			for i, p := range ring.pts {
				v[i] = make([]int, n+1)
				for k := range n + 1 {
					switch {
					case onAxis(p) && k > 0, whole && k == n:
						v[i][k] = v[i][0]
					default:
						v[i][k] = b.vertex(at(p, angle(k)))
					}
				}
			}
			// mer[i][k]: edge i at angle k, -1 on the axis but for a partial turn's caps.
			mer := make([][]int, m)
			par := make([][]int, m) // par[i][k]: vertex i's circle from angle k to k+1, -1 on the axis
			for i, p := range ring.pts {
				j := (i + 1) % m
				q := ring.pts[j]
				mer[i] = make([]int, n+1)
				par[i] = make([]int, n)
				// A straight edge along the axis sweeps nothing: it is an edge of a partial
				// turn's caps only, the same at both ends.
				axisEdge := onAxis(p) && onAxis(q) && ring.bulge(i) == 0
				for k := range n + 1 {
					switch {
					case axisEdge && whole:
						mer[i][k] = -1
					case k > 0 && (axisEdge || whole && k == n):
						mer[i][k] = mer[i][0]
					default:
						e := bEdge{a: v[i][k], b: v[j][k]}
						if kb := ring.bulge(i); kb != 0 {
							c, r, sweep := bArc(p, q, kb)
							sn, cs := math.Sincos(angle(k))
							er := scene.Vec3{cs, sn, 0}
							axis := scene.Vec3{sn, -cs, 0} // er × z: counter-clockwise in the profile
							if sweep < 0 {
								axis = scene.Vec3{-sn, cs, 0}
							}
							e.circle, e.c, e.axis, e.ref, e.r = true, scene.Vec3{c.X * cs, c.X * sn, c.Y}, axis, er, r
						}
						mer[i][k] = b.edge(e)
					}
				}
				for k := range n {
					if onAxis(p) {
						par[i][k] = -1
						continue
					}
					par[i][k] = b.edge(bEdge{a: v[i][k], b: v[i][k+1], circle: true, c: scene.Vec3{0, 0, p.Y}, axis: zAxis, ref: xAxis, r: p.X})
				}
			}
			for i, p := range ring.pts {
				j := (i + 1) % m
				q := ring.pts[j]
				if onAxis(p) && onAxis(q) && ring.bulge(i) == 0 {
					continue
				}
				surf, same, ok := turnedSurface(p, q, ring.bulge(i), onAxis)
				if !ok {
					return nil
				}
				for k := range n {
					var loop []bUse
					if par[i][k] >= 0 {
						loop = append(loop, bUse{par[i][k], true})
					}
					loop = append(loop, bUse{mer[i][k+1], true})
					if par[j][k] >= 0 {
						loop = append(loop, bUse{par[j][k], false})
					}
					loop = append(loop, bUse{mer[i][k], false})
					b.faces = append(b.faces, bFace{surf: surf, same: same, loops: [][]bUse{loop}})
					shell = append(shell, len(b.faces)-1)
				}
			}
			if !whole {
				ls, le := make([]bUse, m), make([]bUse, m)
				for i := range m {
					ls[i] = bUse{mer[i][0], true}
					le[i] = bUse{mer[m-1-i][n], false}
				}
				start, end = append(start, ls), append(end, le)
			}
		}
		if !whole {
			sn, cs := math.Sincos(f.Angle)
			b.faces = append(b.faces,
				bFace{surf: bSurface{kind: surfPlane, axis: scene.Vec3{0, -1, 0}, ref: xAxis}, same: true, loops: start},
				bFace{surf: bSurface{kind: surfPlane, axis: scene.Vec3{-sn, cs, 0}, ref: scene.Vec3{cs, sn, 0}}, same: true, loops: end})
			shell = append(shell, len(b.faces)-2, len(b.faces)-1)
		}
		b.shells = append(b.shells, shell)
	}
	return b
}

// turnedSurface is the surface a profile edge from p to q of bulge k sweeps turning about the
// axis, and whether its normal points out of the solid (the material lies left of p→q in the
// profile); false for an arc whose circle reaches round the axis.
func turnedSurface(p, q geom.Vec, k float64, onAxis func(geom.Vec) bool) (bSurface, bool, bool) {
	if k != 0 {
		c, r, sweep := bArc(p, q, k)
		// Torus and sphere normals point away from the circle's centre: out of the solid where
		// the arc turns counter-clockwise round the material.
		if onAxis(c) {
			return bSurface{kind: surfSphere, loc: scene.Vec3{0, 0, c.Y}, axis: zAxis, ref: xAxis, r1: r}, sweep > 0, true
		}
		if c.X <= r {
			return bSurface{}, false, false
		}
		return bSurface{kind: surfTorus, loc: scene.Vec3{0, 0, c.Y}, axis: zAxis, ref: xAxis, r1: c.X, r2: r}, sweep > 0, true
	}
	d := q.Sub(p)
	// The outward normal is right of p→q: (d.Y, -d.X) in (radius, height).
	switch {
	case d.Y == 0:
		return bSurface{kind: surfPlane, loc: scene.Vec3{0, 0, p.Y}, axis: scene.Vec3{0, 0, -math.Copysign(1, d.X)}, ref: xAxis}, true, true
	case d.X == 0:
		return bSurface{kind: surfCylinder, axis: zAxis, ref: xAxis, r1: p.X}, d.Y > 0, true
	}
	// A cone placed at the wider end, its axis the way its radius grows.
	far := p
	if q.X > p.X {
		far = q
	}
	axis := zAxis
	if (d.X > 0) != (d.Y > 0) {
		axis = scene.Vec3{0, 0, -1}
	}
	return bSurface{kind: surfCone, loc: scene.Vec3{0, 0, far.Y}, axis: axis, ref: xAxis, r1: far.X, r2: math.Atan(math.Abs(d.X / d.Y))}, d.Y > 0, true
}

// use2 is the edge from a to c (a < c), made the first time it is asked for.
func use2(edges map[[2]int]int, b *brep, a, c int) bUse {
	e, ok := edges[[2]int{a, c}]
	if !ok {
		e = b.edge(bEdge{a: a, b: c})
		edges[[2]int{a, c}] = e
	}
	return bUse{e, true}
}

// stepOut writes a STEP's entities, numbering them as they are written.
type stepOut struct {
	w   *bufio.Writer
	n   int
	buf []byte
}

// add writes the entity whose text is parts joined, and answers its number.
func (o *stepOut) add(parts ...string) int {
	o.n++
	o.buf = append(o.buf[:0], '#')
	o.buf = strconv.AppendInt(o.buf, int64(o.n), 10)
	o.buf = append(o.buf, '=')
	for _, p := range parts {
		o.buf = append(o.buf, p...)
	}
	o.buf = append(o.buf, ";\n"...)
	o.w.Write(o.buf)
	return o.n
}

// ref is an entity's reference, #n.
func ref(n int) string { return "#" + strconv.Itoa(n) }

// refs is a list of references, (#a,#b).
func refs(ns []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(ref(n))
	}
	b.WriteByte(')')
	return b.String()
}

// stepReal is x as a STEP real: the shortest decimal that reads back the same float64, with
// the point STEP requires ("1.", "2.5E-07"); -0 is "0.".
func stepReal(x float64) string {
	if x == 0 {
		return "0."
	}
	s := strconv.FormatFloat(x, 'G', -1, 64)
	mant, exp, hasExp := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += "."
	}
	if hasExp {
		return mant + "E" + exp
	}
	return mant
}

// stepString is s as a STEP string: quotes doubled, a backslash written \\, anything beyond
// ASCII's printable characters as \X2\ and its UTF-16 code units.
func stepString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\'':
			b.WriteString("''")
		case r == '\\':
			b.WriteString(`\\`)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		default:
			b.WriteString(`\X2\`)
			var u [2]uint16
			n := 1
			if r > 0xffff {
				r -= 0x10000
				u[0], u[1], n = uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)), 2
			} else {
				u[0] = uint16(r)
			}
			for _, c := range u[:n] {
				fmt.Fprintf(&b, "%04X", c)
			}
			b.WriteString(`\X0\`)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func (o *stepOut) header() {
	o.w.WriteString("ISO-10303-21;\nHEADER;\n" +
		"FILE_DESCRIPTION(('cadrun solids'),'2;1');\n" +
		"FILE_NAME('','1980-01-01T00:00:00',(''),(''),'cadrun','cadrun','');\n" +
		"FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));\n" +
		"ENDSEC;\nDATA;\n")
}

// stepContexts are the entities every solid's product and shape refer to.
type stepContexts struct {
	product, definition, geometry int
}

// stepPrefixes name the SI prefix of each metric unit; inches and feet are converted from
// millimetres.
var stepPrefixes = map[Unit]string{UnitMM: ".MILLI.", UnitCM: ".CENTI.", UnitM: "$"}

// stepUncertainty is the distance, in the file's unit, under which the file says two points
// are one (its confusion accuracy): what a reader may take as on a curve or a surface.
const stepUncertainty = 1e-7

func (o *stepOut) contexts(u Unit) stepContexts {
	app := o.add("APPLICATION_CONTEXT('automotive design')")
	o.add("APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,", ref(app), ")")
	var c stepContexts
	c.product = o.add("PRODUCT_CONTEXT('',", ref(app), ",'mechanical')")
	c.definition = o.add("PRODUCT_DEFINITION_CONTEXT('part definition',", ref(app), ",'design')")
	var length int
	if p, ok := stepPrefixes[u]; ok {
		length = o.add("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(", p, ",.METRE.))")
	} else {
		_, mm, _ := unitInfo(u)
		base := o.add("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.))")
		measure := o.add("LENGTH_MEASURE_WITH_UNIT(LENGTH_MEASURE(", stepReal(mm), "),", ref(base), ")")
		dims := o.add("DIMENSIONAL_EXPONENTS(1.,0.,0.,0.,0.,0.,0.)")
		name := map[Unit]string{UnitIn: "'INCH'", UnitFt: "'FOOT'"}[u]
		length = o.add("(CONVERSION_BASED_UNIT(", name, ",", ref(measure), ")LENGTH_UNIT()NAMED_UNIT(", ref(dims), "))")
	}
	angle := o.add("(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.))")
	solid := o.add("(NAMED_UNIT(*)SI_UNIT($,.STERADIAN.)SOLID_ANGLE_UNIT())")
	unc := o.add("UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(", stepReal(stepUncertainty), "),", ref(length), ",'distance_accuracy_value','confusion accuracy')")
	c.geometry = o.add("(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((", ref(unc), "))GLOBAL_UNIT_ASSIGNED_CONTEXT((",
		ref(length), ",", ref(angle), ",", ref(solid), "))REPRESENTATION_CONTEXT('',''))")
	return c
}

// placed writes points and directions through m, a similarity (lengths the caller scales).
type placed struct {
	o *stepOut
	m scene.Affine3
}

func (g placed) point(p scene.Vec3) int {
	q := g.m.Apply(p)
	return g.o.add("CARTESIAN_POINT('',(", stepReal(q[0]), ",", stepReal(q[1]), ",", stepReal(q[2]), "))")
}

// dir writes the direction d through m: the map's linear part, made a unit again.
func (g placed) dir(d scene.Vec3) int {
	m := g.m
	q := scene.Vec3{m[0]*d[0] + m[1]*d[1] + m[2]*d[2], m[4]*d[0] + m[5]*d[1] + m[6]*d[2], m[8]*d[0] + m[9]*d[1] + m[10]*d[2]}
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2])
	return g.o.add("DIRECTION('',(", stepReal(q[0]/l), ",", stepReal(q[1]/l), ",", stepReal(q[2]/l), "))")
}

func (g placed) axis2(loc, axis, refDir scene.Vec3) int {
	p, a, r := g.point(loc), g.dir(axis), g.dir(refDir)
	return g.o.add("AXIS2_PLACEMENT_3D('',", ref(p), ",", ref(a), ",", ref(r), ")")
}

// solid writes one solid: its shells as MANIFOLD_SOLID_BREPs in an advanced B-rep
// representation, the product that names it, and its colour.
func (o *stepOut) solid(name string, b *brep, m scene.Affine3, c stepContexts, color scene.Color) {
	scale, _ := similarity(m)
	g := placed{o: o, m: m}
	vp := make([]int, len(b.verts))  // CARTESIAN_POINT
	vid := make([]int, len(b.verts)) // VERTEX_POINT
	for i, p := range b.verts {
		vp[i] = g.point(p)
		vid[i] = o.add("VERTEX_POINT('',", ref(vp[i]), ")")
	}
	eid := make([]int, len(b.edges))
	for i, e := range b.edges {
		var curve int
		if e.circle {
			a := g.axis2(e.c, e.axis, e.ref)
			curve = o.add("CIRCLE('',", ref(a), ",", stepReal(e.r*scale), ")")
		} else {
			pa, pb := b.verts[e.a], b.verts[e.b]
			d := g.dir(scene.Vec3{pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]})
			qa, qb := m.Apply(pa), m.Apply(pb)
			l := math.Sqrt((qb[0]-qa[0])*(qb[0]-qa[0]) + (qb[1]-qa[1])*(qb[1]-qa[1]) + (qb[2]-qa[2])*(qb[2]-qa[2]))
			vec := o.add("VECTOR('',", ref(d), ",", stepReal(l), ")")
			curve = o.add("LINE('',", ref(vp[e.a]), ",", ref(vec), ")")
		}
		eid[i] = o.add("EDGE_CURVE('',", ref(vid[e.a]), ",", ref(vid[e.b]), ",", ref(curve), ",.T.)")
	}
	fid := make([]int, len(b.faces))
	for i, f := range b.faces {
		bounds := make([]int, len(f.loops))
		for l, loop := range f.loops {
			oes := make([]int, len(loop))
			for k, u := range loop {
				oes[k] = o.add("ORIENTED_EDGE('',*,*,", ref(eid[u.edge]), ",", stepBool(u.forward), ")")
			}
			el := o.add("EDGE_LOOP('',", refs(oes), ")")
			kind := "FACE_BOUND"
			if l == 0 {
				kind = "FACE_OUTER_BOUND"
			}
			bounds[l] = o.add(kind, "('',", ref(el), ",.T.)")
		}
		s := f.surf
		a := g.axis2(s.loc, s.axis, s.ref)
		var surf int
		switch s.kind {
		case surfPlane:
			surf = o.add("PLANE('',", ref(a), ")")
		case surfCylinder:
			surf = o.add("CYLINDRICAL_SURFACE('',", ref(a), ",", stepReal(s.r1*scale), ")")
		case surfCone:
			surf = o.add("CONICAL_SURFACE('',", ref(a), ",", stepReal(s.r1*scale), ",", stepReal(s.r2), ")")
		case surfTorus:
			surf = o.add("TOROIDAL_SURFACE('',", ref(a), ",", stepReal(s.r1*scale), ",", stepReal(s.r2*scale), ")")
		case surfSphere:
			surf = o.add("SPHERICAL_SURFACE('',", ref(a), ",", stepReal(s.r1*scale), ")")
		}
		fid[i] = o.add("ADVANCED_FACE('',", refs(bounds), ",", ref(surf), ",", stepBool(f.same), ")")
	}
	nm := stepString(name)
	var items []int
	for _, shell := range b.shells {
		faces := make([]int, len(shell))
		for k, f := range shell {
			faces[k] = fid[f]
		}
		sh := o.add("CLOSED_SHELL('',", refs(faces), ")")
		items = append(items, o.add("MANIFOLD_SOLID_BREP(", nm, ",", ref(sh), ")"))
	}
	origin := placed{o: o, m: scene.Identity3}.axis2(scene.Vec3{}, zAxis, xAxis)
	rep := o.add("ADVANCED_BREP_SHAPE_REPRESENTATION(", nm, ",", refs(append(append([]int(nil), items...), origin)), ",", ref(c.geometry), ")")
	prod := o.add("PRODUCT(", nm, ",", nm, ",'',(", ref(c.product), "))")
	o.add("PRODUCT_RELATED_PRODUCT_CATEGORY('part',$,(", ref(prod), "))")
	pdf := o.add("PRODUCT_DEFINITION_FORMATION('','',", ref(prod), ")")
	pd := o.add("PRODUCT_DEFINITION('design','',", ref(pdf), ",", ref(c.definition), ")")
	pds := o.add("PRODUCT_DEFINITION_SHAPE('','',", ref(pd), ")")
	o.add("SHAPE_DEFINITION_REPRESENTATION(", ref(pds), ",", ref(rep), ")")
	// The colour: a surface style on each of the solid's B-reps.
	rgb := o.add("COLOUR_RGB('',", stepReal(clamp01(color[0])), ",", stepReal(clamp01(color[1])), ",", stepReal(clamp01(color[2])), ")")
	fill := o.add("FILL_AREA_STYLE_COLOUR('',", ref(rgb), ")")
	area := o.add("FILL_AREA_STYLE('',(", ref(fill), "))")
	sfa := o.add("SURFACE_STYLE_FILL_AREA(", ref(area), ")")
	side := o.add("SURFACE_SIDE_STYLE('',(", ref(sfa), "))")
	usage := o.add("SURFACE_STYLE_USAGE(.BOTH.,", ref(side), ")")
	psa := o.add("PRESENTATION_STYLE_ASSIGNMENT((", ref(usage), "))")
	styled := make([]int, len(items))
	for k, it := range items {
		styled[k] = o.add("STYLED_ITEM('color',(", ref(psa), "),", ref(it), ")")
	}
	o.add("MECHANICAL_DESIGN_GEOMETRIC_PRESENTATION_REPRESENTATION('',", refs(styled), ",", ref(c.geometry), ")")
}

func stepBool(b bool) string {
	if b {
		return ".T."
	}
	return ".F."
}

// clamp01 is x within [0, 1], NaN as 0.
func clamp01(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return math.Min(1, x)
}

// STEPFacets is the triangles of the solids of s a STEP writes faceted (MaxSTEPFacets), for
// an estimate of what writing it takes.
func STEPFacets(s *scene.Scene) int {
	n := 0
	for _, it := range s.Solids() {
		if stepWayOf(it).brep == nil {
			n += it.Entity.Shape.(*scene.Solid).Mesh.NumTriangles()
		}
	}
	return n
}
