package scene_test

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// BenchmarkBuildW1 builds the 10,000-entity W1 scene; it also reports the live heap the scene
// holds (heap-B/scene), the memory target's figure.
func BenchmarkBuildW1(b *testing.B) {
	b.ReportAllocs()
	var ms runtime.MemStats
	var heap uint64
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		s, err := examples.W1Scene()
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heap = ms.HeapAlloc - before
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(heap), "heap-B/scene")
}

func BenchmarkWorldBoundsW1(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = s.Bounds()
	}
}

func BenchmarkJSONW1(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadJSONW1(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	doc, err := s.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scene.ReadJSON(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateGroupBoxes builds 1,000 isometric boxes the way upstream's crossy_lib does:
// three faces drawn at the top level, grouped at once (each createGroup sorts its members by
// their stacking), then the boxes grouped in threes.
func BenchmarkCreateGroupBoxes(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s := scene.New()
		for i := range 1000 {
			n := "box" + strconv.Itoa(i)
			for _, face := range []string{"_l", "_r", "_t"} {
				if _, err := s.Put(n+face, scene.Rect{Width: 1, Height: 1}); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := s.CreateGroup(n, []string{n + "_t", n + "_l", n + "_r"}); err != nil {
				b.Fatal(err)
			}
			if i%3 == 2 {
				if _, err := s.CreateGroup("trio"+strconv.Itoa(i), []string{n, "box" + strconv.Itoa(i-1), "box" + strconv.Itoa(i-2)}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkPutNoted draws 10,000 circles under new names, asking as the runtime does whether
// each name was taken: with Exists before Put (two look-ups of a new name) and with PutOver
// (one).
func BenchmarkPutNoted(b *testing.B) {
	names := make([]string, 10_000)
	for i := range names {
		names[i] = "e" + strconv.Itoa(i)
	}
	for _, bc := range []struct {
		name string
		put  func(s *scene.Scene, name string, sh scene.Shape) bool
	}{
		{"ExistsThenPut", func(s *scene.Scene, name string, sh scene.Shape) bool {
			over := s.Exists(name)
			_, _ = s.Put(name, sh)
			return over
		}},
		{"PutOver", func(s *scene.Scene, name string, sh scene.Shape) bool {
			_, over, _ := s.PutOver(name, sh)
			return over
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := scene.New()
				for i, n := range names {
					if bc.put(s, n, scene.Circle{Center: geom.Vec{X: float64(i), Y: 0}, Radius: 4}) {
						b.Fatal("a new name was taken")
					}
				}
			}
		})
	}
}
