package scene_test

import (
	"runtime"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
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
