package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// BenchmarkCheckParams is the input check of a write of a 10 KB script: strict parsing and the
// schema, paid by every call before it runs.
func BenchmarkCheckParams(b *testing.B) {
	code := strings.Repeat("drawCircle('c', 0, 0, 1) // a line of a script\n", 200)
	raw, err := json.Marshal(WriteIn{File: "main", Code: code})
	if err != nil {
		b.Fatal(err)
	}
	t := registry["write"]
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := t.checkParams(raw); err != nil {
			b.Fatal(err)
		}
	}
}
