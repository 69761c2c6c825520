package render

import (
	"fmt"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// BenchmarkShade200k draws 200,000 triangles 1024 px wide, the figure docs/limits.md gives for
// a picture of solids: one sphere of 199,712 triangles, and 64 spheres of 3,120 each (199,680
// in all, with 64 times the silhouettes); and the sphere on the four-view sheet.
func BenchmarkShade200k(b *testing.B) {
	one := scene.New()
	putSolid(b, one, "ball", sphereMesh(10, 317, 316), scene.Identity3)
	many := scene.New()
	for i := range 64 {
		at := scene.Vec3{float64(i%8) * 25, float64(i/8) * 25, 0}
		putSolid(b, many, fmt.Sprint("ball", i), sphereMesh(10, 40, 40), scene.Translation3(at))
	}
	for _, c := range []struct {
		name string
		s    *scene.Scene
		cam  Camera
	}{{"sphere", one, Camera{}}, {"parts", many, Camera{}}, {"sheet", one, Camera{Name: SheetView}}} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for _, it := range c.s.Solids() {
				n += it.Entity.Shape.(*scene.Solid).Mesh.NumTriangles()
			}
			b.ReportMetric(float64(n), "triangles")
			for b.Loop() {
				if _, err := PNG(c.s, PNGOptions{Width: 1024, Camera: c.cam}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
