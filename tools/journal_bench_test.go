package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// BenchmarkSaveTool is one save through the tool layer, as an MCP client or cadrun tool makes
// it: parse, link to the current history entry (under the workspace lock), insert.
func BenchmarkSaveTool(b *testing.B) {
	dir := b.TempDir()
	ws, err := modules.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	defer srv.CloseJournal()
	s := srv.Session()
	if _, err := s.Call(context.Background(), "write", json.RawMessage(`{"file":"main","code":"drawCircle('c', 0, 0, 5)"}`)); err != nil {
		b.Fatal(err)
	}
	params := json.RawMessage(`{"title":"Door width","text":"Doors are 900 mm wide so that a wheelchair passes","type":"decision","concepts":["door","access"]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Call(context.Background(), "save", params); err != nil {
			b.Fatal(err)
		}
	}
}
