package render

import (
	"testing"

	"github.com/cadrun/cadrun/examples"
)

func BenchmarkSVGW1(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SVG(s, SVGOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
