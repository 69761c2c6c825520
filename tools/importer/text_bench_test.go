package importer

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkImportTexts imports 2,000 MTEXTs of a dozen words each, boxed (width 41) so that
// they wrap, and centred: what measuring the words costs an import.
//
//	go test ./tools/importer/ -run '^$' -bench ImportTexts
func BenchmarkImportTexts(b *testing.B) {
	var body strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&body, "0\nMTEXT\n8\nnotes\n10\n%d\n20\n%d\n40\n2.5\n41\n40\n71\n5\n1\nDrill %d holes of 6.5 mm through the plate and chamfer each 0.5 mm deep\n", i%40*50, i/40*20, i)
	}
	data := entitiesDXF(body.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DXF(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
