package scene

// A solid in the entity tree. The tree knows a solid only as a kind with its recipe and its
// mesh: how solids are made, measured and combined is the business of scene/solid, which owns
// the kernel. Here a solid is placed (its own 3D map under the tree's 2D maps), bounded, kept
// in scene.json and handed to the writers.

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
)

// KindSolid is the kind of a solid entity.
const KindSolid Kind = "solid"

// Limits on solids, documented in docs/limits.md.
const (
	// MaxSolidTriangles caps the triangles of one solid's mesh.
	MaxSolidTriangles = 2_000_000
	// MaxSceneTriangles caps the triangles of every solid of a scene together.
	MaxSceneTriangles = 4_000_000
)

// FeatureAngle is the angle in degrees between two faces' normals over which their common
// edge is a feature a picture or a drawing of the solid draws: a box's edges are (90°), the
// facets of a cylinder of 12 or more segments are not (30° or less), its rims are.
const FeatureAngle = 30

// Mesh is a closed, oriented triangle mesh: Vertices holds x, y, z for each vertex (float32,
// as the kernel computes them) and Triangles three vertex indices for each triangle,
// counter-clockwise seen from outside. A mesh in a Solid is never changed: operations make a
// new one, so clones and copies share it.
type Mesh struct {
	Vertices  []float32
	Triangles []uint32
}

// NumVertices is the number of vertices.
func (m *Mesh) NumVertices() int { return len(m.Vertices) / 3 }

// NumTriangles is the number of triangles.
func (m *Mesh) NumTriangles() int { return len(m.Triangles) / 3 }

// Vertex is vertex i.
func (m *Mesh) Vertex(i uint32) Vec3 {
	v := m.Vertices[3*i : 3*i+3]
	return Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
}

// check reports a mesh whose arrays do not hold whole vertices and triangles, whose indices
// point past its vertices, or whose coordinates are not finite numbers within MaxCoord.
func (m *Mesh) check() error {
	if m == nil {
		return fmt.Errorf("%w: a solid has no mesh", ErrBadGeometry)
	}
	if len(m.Vertices)%3 != 0 || len(m.Triangles)%3 != 0 {
		return fmt.Errorf("%w: a mesh holds %d coordinates and %d indices; both must be multiples of 3", ErrBadGeometry, len(m.Vertices), len(m.Triangles))
	}
	if n := m.NumTriangles(); n > MaxSolidTriangles {
		return fmt.Errorf("%w: a solid of %d triangles is over MaxSolidTriangles (%d); use fewer segments or a coarser tolerance", ErrLimit, n, MaxSolidTriangles)
	}
	for _, x := range m.Vertices {
		if !(math.Abs(float64(x)) <= MaxCoord) {
			return fmt.Errorf("%w: a mesh coordinate is %v; coordinates must be finite and within %g (MaxCoord)", ErrBadGeometry, x, MaxCoord)
		}
	}
	nv := uint32(m.NumVertices())
	for _, t := range m.Triangles {
		if t >= nv {
			return fmt.Errorf("%w: a mesh triangle names vertex %d of %d", ErrBadGeometry, t, nv)
		}
	}
	return nil
}

// Vec3 is a point or a displacement in 3D, in scene units. Z points up out of the sheet.
type Vec3 [3]float64

// Affine3 is a 3D affine map, row by row: x' = M[0]x + M[1]y + M[2]z + M[3], y' = M[4]x + ...,
// z' = M[8]x + M[9]y + M[10]z + M[11].
type Affine3 [12]float64

// Identity3 is the 3D map that changes nothing.
var Identity3 = Affine3{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}

// Lift is the 2D map m acting on x and y, z unchanged: how the tree's 2D transforms place a
// solid.
func Lift(m geom.Affine) Affine3 {
	return Affine3{m.A, m.C, 0, m.E, m.B, m.D, 0, m.F, 0, 0, 1, 0}
}

// Translation3 is the map that moves by d.
func Translation3(d Vec3) Affine3 {
	return Affine3{1, 0, 0, d[0], 0, 1, 0, d[1], 0, 0, 1, d[2]}
}

// Mul is the composition m∘n: n is applied first, then m.
func (m Affine3) Mul(n Affine3) Affine3 {
	var r Affine3
	for i := range 3 {
		for j := range 4 {
			v := m[4*i]*n[j] + m[4*i+1]*n[4+j] + m[4*i+2]*n[8+j]
			if j == 3 {
				v += m[4*i+3]
			}
			r[4*i+j] = v
		}
	}
	return r
}

// Apply maps the point p.
func (m Affine3) Apply(p Vec3) Vec3 {
	return Vec3{
		m[0]*p[0] + m[1]*p[1] + m[2]*p[2] + m[3],
		m[4]*p[0] + m[5]*p[1] + m[6]*p[2] + m[7],
		m[8]*p[0] + m[9]*p[1] + m[10]*p[2] + m[11],
	}
}

// Det is the determinant of the linear part: the factor by which m multiplies volumes,
// negative when it mirrors.
func (m Affine3) Det() float64 {
	return m[0]*(m[5]*m[10]-m[6]*m[9]) - m[1]*(m[4]*m[10]-m[6]*m[8]) + m[2]*(m[4]*m[9]-m[5]*m[8])
}

// Invert is the inverse map; ok is false when m is singular or not finite.
func (m Affine3) Invert() (inv Affine3, ok bool) {
	det := m.Det()
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Affine3{}, false
	}
	a, b, c := m[0], m[1], m[2]
	d, e, f := m[4], m[5], m[6]
	g, h, k := m[8], m[9], m[10]
	l := [9]float64{
		(e*k - f*h) / det, (c*h - b*k) / det, (b*f - c*e) / det,
		(f*g - d*k) / det, (a*k - c*g) / det, (c*d - a*f) / det,
		(d*h - e*g) / det, (b*g - a*h) / det, (a*e - b*d) / det,
	}
	t := Vec3{m[3], m[7], m[11]}
	for i := range 3 {
		inv[4*i], inv[4*i+1], inv[4*i+2] = l[3*i], l[3*i+1], l[3*i+2]
		inv[4*i+3] = -(l[3*i]*t[0] + l[3*i+1]*t[1] + l[3*i+2]*t[2])
	}
	return inv, true
}

// Box3 is an axis-aligned box in 3D. The zero Box3 is empty.
type Box3 struct {
	Min, Max Vec3
	NonEmpty bool
}

// Extend grows b to contain p.
func (b *Box3) Extend(p Vec3) {
	if !b.NonEmpty {
		*b = Box3{Min: p, Max: p, NonEmpty: true}
		return
	}
	for i := range 3 {
		b.Min[i] = math.Min(b.Min[i], p[i])
		b.Max[i] = math.Max(b.Max[i], p[i])
	}
}

// Union grows b to contain c.
func (b *Box3) Union(c Box3) {
	if c.NonEmpty {
		b.Extend(c.Min)
		b.Extend(c.Max)
	}
}

// Center is the middle of the box.
func (b Box3) Center() Vec3 {
	return Vec3{(b.Min[0] + b.Max[0]) / 2, (b.Min[1] + b.Max[1]) / 2, (b.Min[2] + b.Max[2]) / 2}
}

// Recipe is how a solid was made, and the measures it has in closed form in its own frame
// (before Place). A measure not known exactly is answered from the mesh, and the answer says
// so.
type Recipe struct {
	// Op is what made the solid: extrude, revolve, box, cylinder, sphere, union, difference,
	// intersect, hull or mesh.
	Op string `json:"op"`
	// From names the entities it was made of, as they were named then.
	From []string `json:"from,omitempty"`
	// Volume is the exact volume when VolumeExact is set.
	Volume      float64 `json:"volume,omitempty"`
	VolumeExact bool    `json:"volumeExact,omitempty"`
	// Surface is the exact surface area when SurfaceExact is set.
	Surface      float64 `json:"surface,omitempty"`
	SurfaceExact bool    `json:"surfaceExact,omitempty"`
	// Tolerance is the chord tolerance the curves were faceted at (0 when none was used) and
	// Segments the segment count a script asked for instead (0 when none).
	Tolerance float64 `json:"tolerance,omitempty"`
	Segments  int     `json:"segments,omitempty"`
}

// Solid is a solid's geometry: a mesh in its own frame, placed by Place (which takes the 3D
// parts of its transforms: a move in z, a turn about x or y), then by the entity's 2D
// transform and its groups', which act on x and y.
type Solid struct {
	Mesh   *Mesh
	Place  Affine3
	Recipe Recipe
	// Form is the exact shape the mesh approximates, in the mesh's frame, while the solid is
	// what one sweep made (form.go); nil once a 3D boolean or a hull has made it.
	Form *Form
}

// Kind implements Shape.
func (*Solid) Kind() Kind { return KindSolid }

// Outline implements Shape: a solid draws nothing in the 2D writers, which name it in a
// warning instead; its pictures come from its mesh.
func (*Solid) Outline() geom.Path { return nil }

// Region implements Shape: a solid has no 2D area.
func (s *Solid) Region() (geom.Path, error) {
	return nil, fmt.Errorf("%w: a solid is not a 2D shape; use the 3D operations (booleans, volume, surfaceArea) on solids", ErrNotClosed)
}

func (s *Solid) validate() error {
	if err := s.Mesh.check(); err != nil {
		return err
	}
	for _, x := range s.Place {
		if !(math.Abs(x) <= MaxCoord) {
			return fmt.Errorf("%w: a solid's placement holds %v; it must be finite", ErrBadTransform, x)
		}
	}
	if s.Place.Det() == 0 {
		return fmt.Errorf("%w: a solid's placement is singular (it flattens the solid)", ErrBadTransform)
	}
	if s.Form != nil {
		return s.Form.validate()
	}
	return nil
}

// boundsUnder is the box of the solid's vertices seen from above (x and y) under m.
func (s *Solid) boundsUnder(m geom.Affine) geom.Box {
	b3 := s.Bounds3(Lift(m))
	if !b3.NonEmpty {
		return geom.Box{}
	}
	return geom.Box{Min: geom.Vec{X: b3.Min[0], Y: b3.Min[1]}, Max: geom.Vec{X: b3.Max[0], Y: b3.Max[1]}, NonEmpty: true}
}

// Bounds3 is the box of the solid's vertices under m·Place.
func (s *Solid) Bounds3(m Affine3) Box3 { return s.Mesh.BoundsUnder(m.Mul(s.Place)) }

// BoundsUnder is the box of the mesh's vertices under w.
func (m *Mesh) BoundsUnder(w Affine3) Box3 {
	var b Box3
	for i := range uint32(m.NumVertices()) {
		b.Extend(w.Apply(m.Vertex(i)))
	}
	return b
}

// World is the map from the solid's mesh to world coordinates for an entity whose world 2D
// map is m (Scene.WorldMatrix).
func (s *Solid) World(m geom.Affine) Affine3 { return Lift(m).Mul(s.Place) }

// Placed returns a copy of s placed further by p (p after its Place).
func (s *Solid) Placed(p Affine3) *Solid {
	c := *s
	c.Place = p.Mul(s.Place)
	return &c
}

// SolidItem is one solid ready to draw or write: its entity and its map to world coordinates.
type SolidItem struct {
	Entity *Entity
	World  Affine3
}

// HasSolids reports whether the scene holds a solid; it costs one read.
func (s *Scene) HasSolids() bool { return s.byName.solids > 0 }

// Solids lists the scene's solids back to front, with their world maps. A scene without
// solids answers at once; one with them is walked without making any shape's outline.
func (s *Scene) Solids() []SolidItem {
	if !s.HasSolids() {
		return nil
	}
	var out []SolidItem
	world := make([]geom.Affine, 0, 8) // world[d]: the world map of the group open at depth d
	for depth, e := range s.Walk() {
		m := e.Transform.Matrix()
		if depth > 0 {
			m = world[depth-1].Mul(m)
		}
		if e.IsGroup() {
			world = append(world[:depth], m)
			continue
		}
		if sd, ok := e.Shape.(*Solid); ok {
			out = append(out, SolidItem{Entity: e, World: sd.World(m)})
		}
	}
	return out
}

// SolidColor is a new solid's colour: a light steel grey, which shading leaves readable.
var SolidColor = Color{0.64, 0.68, 0.74, 1}

// solidCount is 1 for a solid, 0 for other shapes (HasSolids).
func solidCount(sh Shape) int {
	if _, ok := sh.(*Solid); ok {
		return 1
	}
	return 0
}

// solidTriangles is the triangles of a solid's mesh (MaxSceneTriangles); 0 for other shapes.
func solidTriangles(sh Shape) int {
	if sd, ok := sh.(*Solid); ok && sd != nil && sd.Mesh != nil {
		return sd.Mesh.NumTriangles()
	}
	return 0
}

// SceneTriangles is the triangles of the scene's solids together (MaxSceneTriangles).
func (s *Scene) SceneTriangles() int { return s.byName.triangles }

// checkTriangles refuses a solid of n triangles under name when the scene's solids would pass
// MaxSceneTriangles with it (in place of old, the entity it is drawn over, if any).
func (s *Scene) checkTriangles(name string, n int, old *Entity) error {
	total := s.byName.triangles + n
	if old != nil {
		total -= solidTriangles(old.Shape)
	}
	if total <= MaxSceneTriangles {
		return nil
	}
	return fmt.Errorf("%w: the solid %q has %d triangles, which would make the scene's solids %d, over %d (MaxSceneTriangles); use fewer segments or a coarser tolerance, or delete solids no longer needed", ErrLimit, name, n, total, MaxSceneTriangles)
}

// jsonSolid is a solid's geometry in scene.json: its mesh as base64 of little-endian float32
// coordinates and uint32 indices (exact, and a third of the size of decimal text), its
// placement as 12 numbers, its recipe.
type jsonSolid struct {
	Mesh struct {
		Vertices  string `json:"vertices"`
		Triangles string `json:"triangles"`
	} `json:"mesh"`
	Place  Affine3 `json:"place"`
	Recipe Recipe  `json:"recipe"`
	Form   *Form   `json:"form,omitempty"`
}

// MarshalJSON writes the solid as jsonSolid.
func (s *Solid) MarshalJSON() ([]byte, error) {
	var j jsonSolid
	vb := make([]byte, 4*len(s.Mesh.Vertices))
	for i, x := range s.Mesh.Vertices {
		binary.LittleEndian.PutUint32(vb[4*i:], math.Float32bits(x))
	}
	tb := make([]byte, 4*len(s.Mesh.Triangles))
	for i, t := range s.Mesh.Triangles {
		binary.LittleEndian.PutUint32(tb[4*i:], t)
	}
	j.Mesh.Vertices = base64.StdEncoding.EncodeToString(vb)
	j.Mesh.Triangles = base64.StdEncoding.EncodeToString(tb)
	j.Place, j.Recipe, j.Form = s.Place, s.Recipe, s.Form
	return json.Marshal(&j)
}

// UnmarshalJSON reads a solid written by MarshalJSON; the scene validates it as it reads it.
func (s *Solid) UnmarshalJSON(b []byte) error {
	var j jsonSolid
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	vb, err := base64.StdEncoding.DecodeString(j.Mesh.Vertices)
	if err != nil {
		return fmt.Errorf("mesh vertices: %w", err)
	}
	tb, err := base64.StdEncoding.DecodeString(j.Mesh.Triangles)
	if err != nil {
		return fmt.Errorf("mesh triangles: %w", err)
	}
	if len(vb)%12 != 0 || len(tb)%12 != 0 {
		return fmt.Errorf("%w: a mesh holds %d bytes of vertices and %d of triangles; each must be a multiple of 12 (three 4-byte numbers)", ErrBadGeometry, len(vb), len(tb))
	}
	m := &Mesh{Vertices: make([]float32, len(vb)/4), Triangles: make([]uint32, len(tb)/4)}
	for i := range m.Vertices {
		m.Vertices[i] = math.Float32frombits(binary.LittleEndian.Uint32(vb[4*i:]))
	}
	for i := range m.Triangles {
		m.Triangles[i] = binary.LittleEndian.Uint32(tb[4*i:])
	}
	if j.Form != nil && j.Form.validate() == nil {
		// A form as every form is made (an older cadrun's may hold edges of no length); an
		// invalid one is left for the solid's validation to name.
		j.Form = NewForm(*j.Form)
	}
	*s = Solid{Mesh: m, Place: j.Place, Recipe: j.Recipe, Form: j.Form}
	return nil
}

// MarshalJSON writes a box as {"min": [x, y, z], "max": [x, y, z]}, or null when empty.
func (b Box3) MarshalJSON() ([]byte, error) {
	if !b.NonEmpty {
		return []byte("null"), nil
	}
	return json.Marshal(struct {
		Min Vec3 `json:"min"`
		Max Vec3 `json:"max"`
	}{b.Min, b.Max})
}

// WorldBounds3 is the 3D world box of an entity's solids (a group: of its subtree's), empty
// when it holds none.
func (s *Scene) WorldBounds3(e *Entity) Box3 {
	var b Box3
	var walk func(e *Entity, m geom.Affine)
	walk = func(e *Entity, m geom.Affine) {
		if sd, ok := e.Shape.(*Solid); ok {
			b.Union(sd.Bounds3(Lift(m)))
		}
		for c := range e.children.all() {
			walk(c, m.Mul(c.Transform.Matrix()))
		}
	}
	walk(e, s.WorldMatrix(e))
	return b
}

// Place3 moves, turns, scales or mirrors the named solid, or every solid of the named group,
// by the world map m. A solid takes it into its own placement, conjugated by the tree's maps
// above it, so that its world map becomes m after what it was. A group that holds 2D shapes is
// refused: they lie in the plane z = 0, and the 2D transforms move them.
func (s *Scene) Place3(name string, m Affine3) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	for _, x := range m {
		if !(math.Abs(x) <= MaxCoord) {
			return fmt.Errorf("%w: the map holds %v; it must be finite", ErrBadTransform, x)
		}
	}
	if m.Det() == 0 {
		return fmt.Errorf("%w: the map is singular (it would flatten the solid)", ErrBadTransform)
	}
	var solids []*Entity
	var shapes []string
	var walk func(e *Entity)
	walk = func(e *Entity) {
		switch {
		case e.IsGroup():
			for c := range e.children.all() {
				walk(c)
			}
		case e.Kind() == KindSolid:
			solids = append(solids, e)
		default:
			shapes = append(shapes, e.Name)
		}
	}
	walk(e)
	if len(shapes) > 0 {
		return fmt.Errorf("%w: %q holds the 2D shape %q, which lies in the plane z = 0 and cannot move out of it; move the solids alone, or extrude the shape first", ErrBadTransform, name, shapes[0])
	}
	for _, c := range solids {
		lw := Lift(s.WorldMatrix(c))
		inv, ok := lw.Invert()
		if !ok {
			return fmt.Errorf("%w: the transform above %q is singular", ErrBadTransform, c.Name)
		}
		sd := c.Shape.(*Solid).Placed(inv.Mul(m).Mul(lw))
		if err := sd.validate(); err != nil {
			return fmt.Errorf("placing %q: %w", c.Name, err)
		}
		c.Shape = sd
		if c == s.last {
			s.lastBox = localBounds(sd)
		}
	}
	return nil
}
