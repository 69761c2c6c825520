package render

import (
	"math"
	goruntime "runtime"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
)

// BenchmarkExportW1 writes the 10,000-entity W1 scene (5,000 circles, 5,000 rotated
// rectangles) as DXF R12, DXF R2000 and PDF, reporting the file size.
func BenchmarkExportW1(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		render func() ([]byte, error)
	}{
		{"DXF-R12", func() ([]byte, error) { return DXF(s, DXFOptions{}) }},
		{"DXF-R2000", func() ([]byte, error) { return DXF(s, DXFOptions{Version: DXF2000}) }},
		{"PDF", func() ([]byte, error) { return PDF(s, PDFOptions{}) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				out, err := c.render()
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "bytes/file")
		})
	}
}

// BenchmarkSolidFiles writes a UV sphere of 1,024 x 256 cells (522,240 triangles, coordinates that compress as a real part's do), turned and moved, as STL and as
// 3MF, reporting the file's bytes and the bytes allocated a triangle (what the export tool
// reserves, meshFileBytesPerTriangle, must stay above).
func BenchmarkSolidFiles(b *testing.B) {
	s := scene.New()
	m := uvSphere(1024, 256, 37.5)
	place := scene.Affine3{0.6, -0.8, 0, 12.25, 0.8, 0.6, 0, -3.5, 0, 0, 1, 7}
	if _, err := s.Put("ball", &scene.Solid{Mesh: m, Place: place}); err != nil {
		b.Fatal(err)
	}
	n := float64(m.NumTriangles())
	for _, c := range []struct {
		name   string
		render func() ([]byte, error)
	}{
		{"STL", func() ([]byte, error) { return STL(s) }},
		{"3MF", func() ([]byte, error) { return ThreeMF(s, ThreeMFOptions{}) }},
		{"GLB", func() ([]byte, error) { return GLB(s, GLTFOptions{}) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var size int
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			for b.Loop() {
				out, err := c.render()
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			goruntime.ReadMemStats(&after)
			b.ReportMetric(float64(size), "bytes/file")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/n, "alloc-bytes/triangle")
		})
	}
}

// uvSphere is a closed sphere of radius r about the origin: nu segments around, nv from pole
// to pole, a vertex at each pole, oriented outwards.
func uvSphere(nu, nv int, r float64) *scene.Mesh {
	m := &scene.Mesh{Vertices: []float32{0, 0, float32(-r)}}
	for j := 1; j < nv; j++ {
		phi := math.Pi * (float64(j)/float64(nv) - 0.5)
		for i := range nu {
			th := 2 * math.Pi * float64(i) / float64(nu)
			m.Vertices = append(m.Vertices, float32(r*math.Cos(phi)*math.Cos(th)), float32(r*math.Cos(phi)*math.Sin(th)), float32(r*math.Sin(phi)))
		}
	}
	top := uint32(1 + (nv-1)*nu)
	m.Vertices = append(m.Vertices, 0, 0, float32(r))
	at := func(j, i int) uint32 { return uint32(1 + (j-1)*nu + (i % nu)) } // ring j (1..nv-1)
	for i := range nu {
		m.Triangles = append(m.Triangles, 0, at(1, i+1), at(1, i))
		m.Triangles = append(m.Triangles, top, at(nv-1, i), at(nv-1, i+1))
		for j := 1; j < nv-1; j++ {
			a, b, c, d := at(j, i), at(j, i+1), at(j+1, i), at(j+1, i+1)
			m.Triangles = append(m.Triangles, a, b, d, a, d, c)
		}
	}
	return m
}
