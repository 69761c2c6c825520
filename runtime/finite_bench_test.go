package runtime_test

import (
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/runtime"
)

// BenchmarkCheckFiniteW1 is the check that ends every run, on W1's 10,000 entities.
func BenchmarkCheckFiniteW1(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := runtime.CheckFinite(s); err != nil {
			b.Fatal(err)
		}
	}
}
