package render

import (
	"fmt"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// pngW1Scene is BENCH.md's W1: a 100×100 grid at pitch 10; for k = 100j + i, a circle of
// radius 4 at (10i, 10j) when k is even, else a 6×4 rectangle rotated by (k mod 90) degrees
// and moved there. With filled set, every shape also gets a translucent fill.
func pngW1Scene(b *testing.B, filled bool) *scene.Scene {
	b.Helper()
	s := scene.New()
	fill := scene.Color{0.2, 0.5, 0.8, 0.6}
	for j := range 100 {
		for i := range 100 {
			k := 100*j + i
			name := fmt.Sprint("e", k)
			at := geom.Vec{X: float64(10 * i), Y: float64(10 * j)}
			if k%2 == 0 {
				put(b, s, name, scene.Circle{Center: at, Radius: 4})
			} else {
				put(b, s, name, scene.Rect{Width: 6, Height: 4})
				if err := s.Rotate(name, float64(k%90)*math.Pi/180, scene.SpaceWorld); err != nil {
					b.Fatal(err)
				}
				if err := s.Translate(name, at, scene.SpaceWorld); err != nil {
					b.Fatal(err)
				}
			}
			if filled {
				if err := s.SetFill(name, &fill); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return s
}

func BenchmarkPNG(b *testing.B) {
	for _, filled := range []bool{false, true} {
		s := pngW1Scene(b, filled)
		opt := PNGOptions{Width: 1024, Height: 1024}
		name := "W1/stroked"
		if filled {
			name = "W1/filled"
		}
		b.Run(name+"/raster", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Raster(s, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/png", func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				out, err := PNG(s, opt)
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "bytes/png")
		})
	}
}
