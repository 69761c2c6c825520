package svg

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkRead reads a drawing of 5,000 stroked shapes, half of them dashed paths with
// corners, the per-shape work the stroke's caps, joins and dashes add.
func BenchmarkRead(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000"><g stroke="black" stroke-width="0.5" fill="none">`)
	for i := range 2500 {
		fmt.Fprintf(&sb, "\n"+`<path d="M%d %d l 10 0 l 0 10 q 5 5 10 0 c 3 3 6 3 9 0 z" stroke-dasharray="2 1"/>`, i%1000, i/10)
		fmt.Fprintf(&sb, "\n"+`<rect x="%d" y="%d" width="8" height="4" transform="rotate(%d)"/>`, i%1000, i/10, i%90)
	}
	sb.WriteString("</g></svg>")
	data := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
