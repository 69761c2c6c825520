package solid

import (
	"math"

	"github.com/cadrun/cadrun/scene"
)

// Measures are a placed solid's volume and surface area in world units, each from its recipe
// in closed form where it has one (Exact), else from its mesh.
type Measures struct {
	Volume, Surface           float64
	VolumeExact, SurfaceExact bool
}

// Measure measures a placed solid. A closed form survives any placement for the volume (it
// is multiplied by the placement's determinant) and a similarity for the surface (by the
// square of its scale); otherwise the mesh, placed, is measured.
func Measure(p Placed) Measures {
	var m Measures
	r := p.Solid.Recipe
	det := math.Abs(p.World.Det())
	if r.VolumeExact {
		m.Volume, m.VolumeExact = r.Volume*det, true
	}
	if s, ok := similarity(p.World); ok && r.SurfaceExact {
		m.Surface, m.SurfaceExact = r.Surface*s*s, true
	}
	if !m.VolumeExact || !m.SurfaceExact {
		v, a := meshMeasures(p.Solid.Mesh, p.World)
		if !m.VolumeExact {
			m.Volume = v
		}
		if !m.SurfaceExact {
			m.Surface = a
		}
	}
	return m
}

// MeasureAll is the measures of several solids together (a group's): their sums, exact when
// every one is. Overlapping solids count twice; unite them first.
func MeasureAll(ps []Placed) Measures {
	m := Measures{VolumeExact: true, SurfaceExact: true}
	for _, p := range ps {
		pm := Measure(p)
		m.Volume += pm.Volume
		m.Surface += pm.Surface
		m.VolumeExact = m.VolumeExact && pm.VolumeExact
		m.SurfaceExact = m.SurfaceExact && pm.SurfaceExact
	}
	return m
}

// meshMeasures is a closed mesh's volume (the sum of the signed tetrahedra its triangles make
// with the origin, taken about the first vertex so that far-off solids keep their digits) and
// its surface area, placed by w.
func meshMeasures(m *scene.Mesh, w scene.Affine3) (volume, area float64) {
	if m.NumVertices() == 0 {
		return 0, 0
	}
	o := w.Apply(m.Vertex(0))
	pt := func(i uint32) scene.Vec3 {
		p := w.Apply(m.Vertex(i))
		return scene.Vec3{p[0] - o[0], p[1] - o[1], p[2] - o[2]}
	}
	for t := 0; t+2 < len(m.Triangles); t += 3 {
		a, b, c := pt(m.Triangles[t]), pt(m.Triangles[t+1]), pt(m.Triangles[t+2])
		cr := cross(sub(b, a), sub(c, a))
		area += math.Sqrt(cr[0]*cr[0]+cr[1]*cr[1]+cr[2]*cr[2]) / 2
		volume += dot(a, cross(b, c)) / 6
	}
	if w.Det() < 0 {
		volume = -volume
	}
	return volume, area
}

// similarity is the scale of w's linear part when it is a similarity (a turn, a mirror and
// a uniform scale), within rounding.
func similarity(w scene.Affine3) (float64, bool) {
	cols := [3]scene.Vec3{{w[0], w[4], w[8]}, {w[1], w[5], w[9]}, {w[2], w[6], w[10]}}
	l := math.Sqrt(dot(cols[0], cols[0]))
	const eps = 1e-12
	for i := range 3 {
		if math.Abs(math.Sqrt(dot(cols[i], cols[i]))-l) > eps*l {
			return 0, false
		}
		for j := range i {
			if math.Abs(dot(cols[i], cols[j])) > eps*l*l {
				return 0, false
			}
		}
	}
	return l, true
}

func sub(a, b scene.Vec3) scene.Vec3 { return scene.Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func add(a, b scene.Vec3) scene.Vec3 { return scene.Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func scale(a scene.Vec3, k float64) scene.Vec3 {
	return scene.Vec3{a[0] * k, a[1] * k, a[2] * k}
}
func dot(a, b scene.Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b scene.Vec3) scene.Vec3 {
	return scene.Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Detail is the scene's Detail of the named entity with a solid's measures filled in.
func Detail(sc *scene.Scene, name string) (scene.Detail, error) {
	d, err := sc.Detail(name)
	if err != nil || d.Solid == nil {
		return d, err
	}
	e, err := sc.Get(name)
	if err != nil {
		return d, err
	}
	sd := e.Shape.(*scene.Solid)
	m := Measure(Placed{Name: name, Solid: sd, World: sd.World(d.WorldTransform)})
	d.Solid.Volume, d.Solid.SurfaceArea, d.Solid.VolumeExact, d.Solid.SurfaceExact = m.Volume, m.Surface, m.VolumeExact, m.SurfaceExact
	return d, nil
}
