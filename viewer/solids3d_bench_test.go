package viewer

import (
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// BenchmarkSolidsData makes the 3D view's data for a scene at DefaultMaxViewerTriangles: one
// sphere of 1,998,000 triangles, the most GET /api/solids makes for one scene version.
func BenchmarkSolidsData(b *testing.B) {
	const rings, segments = 1000, 1000
	m := &scene.Mesh{Vertices: []float32{0, 0, 10, 0, 0, -10}}
	for i := 1; i < rings; i++ {
		th := math.Pi * float64(i) / rings
		for k := range segments {
			ph := 2 * math.Pi * float64(k) / segments
			m.Vertices = append(m.Vertices, float32(10*math.Sin(th)*math.Cos(ph)), float32(10*math.Sin(th)*math.Sin(ph)), float32(10*math.Cos(th)))
		}
	}
	at := func(ring, k int) uint32 { return uint32(2 + (ring-1)*segments + k%segments) }
	for k := range segments {
		m.Triangles = append(m.Triangles, 0, at(1, k), at(1, k+1), 1, at(rings-1, k+1), at(rings-1, k))
	}
	for i := 1; i < rings-1; i++ {
		for k := range segments {
			a, c, d, e := at(i, k), at(i, k+1), at(i+1, k), at(i+1, k+1)
			m.Triangles = append(m.Triangles, a, d, e, a, e, c)
		}
	}
	s := scene.New()
	if _, err := s.Put("ball", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(m.NumTriangles()), "triangles")
	for b.Loop() {
		if _, err := solidsData(s, DefaultMaxViewerTriangles); err != nil {
			b.Fatal(err)
		}
	}
}
