package scene_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// BenchmarkDeleteMany deletes n top-level entities one by one, as a script that cleans up its
// inputs does (W2 deletes 2,701 of them): oldest first (W2's order), newest first, and in a
// random order. Building the scene is not timed.
func BenchmarkDeleteMany(b *testing.B) {
	for _, n := range []int{2_500, 10_000} {
		names := make([]string, n)
		base := scene.New()
		for i := range names {
			names[i] = "h" + strconv.Itoa(i)
			if _, err := base.Put(names[i], scene.Rect{Width: 1, Height: 1}); err != nil {
				b.Fatal(err)
			}
		}
		reversed := make([]string, n)
		for i, name := range names {
			reversed[n-1-i] = name
		}
		shuffled := append([]string(nil), names...)
		rand.New(rand.NewPCG(1, 2)).Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, order := range []struct {
			name  string
			names []string
		}{{"oldest-first", names}, {"newest-first", reversed}, {"random", shuffled}} {
			b.Run(strconv.Itoa(n)+"/"+order.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					s := base.Clone()
					b.StartTimer()
					for _, name := range order.names {
						if err := s.Delete(name); err != nil {
							b.Fatal(err)
						}
					}
					if s.Len() != 0 {
						b.Fatalf("%d entities left", s.Len())
					}
				}
			})
		}
	}
}
