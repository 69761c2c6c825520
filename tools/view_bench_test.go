package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// BenchmarkWriteViewAllChanged writes a 10,000-entity scene with view, moving every row group each
// time: the picture highlights all 10,100 entities as changed.
func BenchmarkWriteViewAllChanged(b *testing.B) {
	ws, err := modules.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	s := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Session()
	var raw [2]json.RawMessage
	for i, dy := range []string{"1", "2"} {
		raw[i] = mustJSON(b, WriteIn{File: "main", Code: bigScene(100) + "for (let j = 0; j < 100; j++) translate('row' + j, 0, " + dy + ")\n", View: ViewIn{On: true}})
	}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		if _, err := s.Call(context.Background(), "write", raw[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}
