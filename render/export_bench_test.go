package render

import (
	"testing"

	"github.com/cadrun/cadrun/examples"
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
