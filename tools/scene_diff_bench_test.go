package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// movedRows is bigScene(100) with every other row moved up by 3: 50 groups changed, and
// 5,000 shapes drawn as moved.
func movedRows() string {
	return bigScene(100) + "for (let j = 0; j < 100; j += 2) translate('row' + j, 0, 3)\n"
}

// A diff of a 10,000-entity scene where half of it moved fits the default budgets: the lists
// as text under 64 KB, the picture under 1 MB.
func TestSceneDiffFitsTheBudget(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": bigScene(100)})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	cs := connectMCP(t, srv)
	if res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": movedRows()}); res.IsError {
		t.Fatal(text(t, res))
	}
	res := callMCP(t, cs, "scene", map[string]any{"command": "diff"})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("diff: error %v, %d contents", res.IsError, len(res.Content))
	}
	img := res.Content[0].(*mcp.ImageContent)
	lists := res.Content[1].(*mcp.TextContent).Text
	if len(lists) > DefaultTextBudget || len(img.Data) > DefaultImageBudget {
		t.Errorf("the lists are %d bytes, the picture %d; want at most %d and %d", len(lists), len(img.Data), DefaultTextBudget, DefaultImageBudget)
	}
	var got struct {
		Diff DiffOut `json:"diff"`
	}
	if err := json.Unmarshal([]byte(lists), &got); err != nil {
		t.Fatal(err)
	}
	if got.Diff.Counts != (DiffCounts{Changed: 50, Unchanged: 10053}) || len(got.Diff.Changed) != engine.MaxListed || !strings.HasPrefix(got.Diff.Changed[0].Name, "row") {
		t.Errorf("counts %+v, %d listed, first %+v", got.Diff.Counts, len(got.Diff.Changed), got.Diff.Changed[0])
	}
}

// BenchmarkSceneDiff10k compares a 10,000-entity scene with the entry before, where half of
// it moved, and draws the picture (1024 px).
func BenchmarkSceneDiff10k(b *testing.B) {
	s, _ := newSession(b, map[string]string{"scene.code.js": bigScene(100)})
	if _, err := s.Call(context.Background(), "write", json.RawMessage(mustJSON(b, WriteIn{File: "main", Code: movedRows()}))); err != nil {
		b.Fatal(err)
	}
	raw := json.RawMessage(`{"command":"diff"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Call(context.Background(), "scene", raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSceneSketch answers a sketch at its caps: 10 strokes of 10,000 wobbly points.
func BenchmarkSceneSketch(b *testing.B) {
	ws, _ := newWorkspace(b, nil)
	addStrokes(b, ws, fullSketch()...)
	s := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Session()
	raw := json.RawMessage(`{"command":"sketch"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Call(context.Background(), "scene", raw); err != nil {
			b.Fatal(err)
		}
	}
}

func mustJSON(b *testing.B, v any) []byte {
	b.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
