package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/runtime"

	"github.com/cadrun/cadrun/tools"
)

func TestMCPResources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cs := connectMCP(t, newMCP(t, map[string]string{"scene.code.js": "drawCircle('wheel', 0, 0, 5)\n"}))

	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type listed struct{ URI, Name, MIMEType string }
	var got []listed
	for _, r := range list.Resources {
		if r.Description == "" {
			t.Errorf("%s has no description", r.URI)
		}
		got = append(got, listed{r.URI, r.Name, r.MIMEType})
	}
	want := []listed{ // the SDK lists resources sorted by URI
		{"cadrun://api.md", "api.md", "text/markdown"},
		{"cadrun://scene.dxf", "scene.dxf", "image/vnd.dxf"},
		{"cadrun://scene.json", "scene.json", "application/json"},
		{"cadrun://scene.svg", "scene.svg", "image/svg+xml"},
		{"cadrun://selection", "selection", "application/json"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("resources mismatch (-want +got):\n%s", diff)
	}

	read := func(uri string) string {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != uri {
			t.Fatalf("%s: want one content for the URI, got %+v", uri, res.Contents)
		}
		return res.Contents[0].Text
	}

	if got := read(tools.ResourceAPI); got != runtime.Reference() {
		t.Errorf("api.md is not runtime.Reference(): starts %.80q", got)
	}
	svg := read(tools.ResourceSceneSVG)
	if !strings.HasPrefix(svg, "<svg") && !strings.HasPrefix(svg, "<?xml") {
		t.Errorf("scene.svg is not an SVG document: %.80q", svg)
	}
	sceneJSON := read(tools.ResourceSceneJSON)
	if !json.Valid([]byte(sceneJSON)) || !strings.Contains(sceneJSON, `"wheel"`) {
		t.Errorf("scene.json is not the scene: %.200q", sceneJSON)
	}

	// After a write, the resources show the new scene.
	if res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": "drawRect('door', 0, 0, 8, 20)\n"}); res.IsError {
		t.Fatalf("write: %s", text(t, res))
	}
	if got := read(tools.ResourceSceneSVG); got == svg {
		t.Error("scene.svg did not change after a write")
	}
	if got := read(tools.ResourceSceneJSON); !strings.Contains(got, `"door"`) || strings.Contains(got, `"wheel"`) {
		t.Errorf("scene.json after the write: %.200q", got)
	}

	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cadrun://nope"}); err == nil {
		t.Error("reading an unknown resource succeeded")
	}
}
