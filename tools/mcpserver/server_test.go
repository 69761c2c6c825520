package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/internal/mcptest"

	"github.com/cadrun/cadrun/tools"
)

// newMCP starts an MCP server over a fresh workspace holding files; connect clients to it
// with connectMCP.
func newMCP(t *testing.T, files map[string]string) *Server {
	t.Helper()
	return New(newServer(t, files), "test")
}

// connectMCP connects one client over in-memory transports (server side first).
func connectMCP(t *testing.T, ms *Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ms.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func callMCP(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error: %v", tool, args, err)
	}
	return res
}

// text is the text of a result's only content.
func text(t *testing.T, res *mcp.CallToolResult) string { t.Helper(); return mcptest.Text(t, res) }

// structured decodes a result's structured content into T.
func structured[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	return mcptest.Structured[T](t, res)
}

func TestMCPListTools(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, nil))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	schemas := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
		schemas[tool.Name] = tool
	}
	for _, tool := range tools.Tools() {
		want = append(want, tool.Name)
		if schemas[tool.Name].Description != tool.Description {
			t.Errorf("%s: description %q, want the registry's", tool.Name, schemas[tool.Name].Description)
		}
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("tools mismatch (-want +got):\n%s", diff)
	}
	required := func(name string) []string {
		b, err := json.Marshal(schemas[name].InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if s.Type != "object" {
			t.Errorf("%s: input schema type %q, want object", name, s.Type)
		}
		slices.Sort(s.Required)
		return s.Required
	}
	for name, want := range map[string][]string{
		"write": {"file"}, "edit": {"file"}, "read": {"file"}, "glob": nil,
		"move": {"file", "to"}, "delete": {"file"}, "scene": {"command"},
	} {
		if diff := cmp.Diff(want, required(name)); diff != "" {
			t.Errorf("%s: required mismatch (-want +got):\n%s", name, diff)
		}
	}
	// Every tool declares an output schema, rooted at an object as MCP clients expect.
	for _, tool := range res.Tools {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(b, &s); err != nil || s.Type != "object" {
			t.Errorf("%s: output schema %s, want one of type object (%v)", tool.Name, b, err)
		}
	}
}

func TestMCPWrite(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, nil))
	res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 1)\ndrawRect('b', 5, 0, 2, 2)\n"})
	if res.IsError {
		t.Fatalf("write failed: %s", text(t, res))
	}
	out := structured[tools.ChangeResult](t, res)
	if !out.Created || out.Entities != 2 || !cmp.Equal(out.Added, []string{"a", "b"}) {
		t.Errorf("structured content: %+v", out)
	}
	if txt := text(t, res); !strings.Contains(txt, `"entities":2`) {
		t.Errorf("text content %s does not give the entities", txt)
	}
}

func TestMCPFailedWrite(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"}))
	callMCP(t, cs, "read", map[string]any{"file": "main"})
	res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 1)\ndrawCirle('b', 0, 0, 1)\n"})
	if !res.IsError {
		t.Fatalf("a failing write is not an error: %+v", res)
	}
	want := "scene.code.js:2:1: ReferenceError: drawCirle is not defined\n" +
		"    2 | drawCirle('b', 0, 0, 1)\n" +
		"        ^\n" +
		"hint: did you mean drawCircle? (drawCircle(name: string, cx: number, cy: number, radius: number): boolean)\n" +
		"not applied; the file is unchanged"
	if diff := cmp.Diff(want, text(t, res)); diff != "" {
		t.Errorf("error text mismatch (-want +got):\n%s", diff)
	}
	read := structured[tools.ReadOut](t, callMCP(t, cs, "read", map[string]any{"file": "main"}))
	if read.Content != "drawCircle('a', 0, 0, 1)\n" {
		t.Errorf("main after the failed write: %q", read.Content)
	}
}

func TestMCPBadArguments(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, nil))
	for _, args := range []map[string]any{
		{"file": "main"},                       // code missing
		{"file": "main", "code": 42},           // wrong type
		{"file": "main", "code": "", "x": "y"}, // unknown field
	} {
		if res := callMCP(t, cs, "write", args); !res.IsError {
			t.Errorf("write %v: want an error result, got %+v", args, res)
		}
	}
}

// TestMCPUnknownTool: a tool that does not exist is a JSON-RPC error, code -32602 (invalid
// params), as the MCP spec has it, worded as the registry words it: the tools there are, or
// the cadrun tool that does an upstream tool's job. Bad arguments to a tool that exists stay
// tool results (TestMCPBadArguments).
func TestMCPUnknownTool(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, nil))
	for _, tc := range []struct {
		tool string
		want jsonrpc.Error
	}{
		{"frob", jsonrpc.Error{Code: -32602, Message: `unknown tool "frob"; the tools are [delete edit export glob import lsp measure move read save scene search write]`}},
		{"mama_save", jsonrpc.Error{Code: -32602, Message: `unknown tool "mama_save": cadrun's tool for this is save, which records a decision, a note or a fact in the design journal`}},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: map[string]any{"x": 1}})
		var got *jsonrpc.Error
		if !errors.As(err, &got) {
			t.Errorf("%s: want a JSON-RPC error, got result %+v, error %v", tc.tool, res, err)
			continue
		}
		if diff := cmp.Diff(tc.want, *got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tc.tool, diff)
		}
	}
}

// TestMCPReadTrackingPerClient: each client connection is its own session, so only the client
// that read main overwrites it without the warning.
func TestMCPReadTrackingPerClient(t *testing.T) {
	t.Parallel()
	ms := newMCP(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	reader, other := connectMCP(t, ms), connectMCP(t, ms)
	callMCP(t, reader, "read", map[string]any{"file": "main"})
	res := callMCP(t, reader, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 2)\n"})
	if got := structured[tools.ChangeResult](t, res).Warnings; len(got) != 0 || res.IsError {
		t.Errorf("the client that read main: warnings %q, result %+v", got, res)
	}
	res = callMCP(t, other, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 3)\n"})
	if diff := cmp.Diff([]string{tools.OverwriteWarning}, structured[tools.ChangeResult](t, res).Warnings); diff != "" {
		t.Errorf("the client that did not read main: warnings mismatch (-want +got):\n%s", diff)
	}
}

func TestMCPSceneViews(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"}))

	res := callMCP(t, cs, "scene", map[string]any{"command": "png", "width": 64})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("png: %+v", res)
	}
	img, ok := res.Content[0].(*mcp.ImageContent)
	if !ok {
		t.Fatalf("png: want image content, got %T", res.Content[0])
	}
	// Then the words: how to read the picture.
	words, ok := res.Content[1].(*mcp.TextContent)
	if !ok || !strings.Contains(words.Text, `"mapping":"scene (x, y) is at pixel ((x + 2) * 16, (2 - y) * 16)`) {
		t.Errorf("png: want the image's description second, got %#v", res.Content[1])
	}
	if img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("png: MIME type %q, data starts %q", img.MIMEType, img.Data[:min(8, len(img.Data))])
	}

	if svg := text(t, callMCP(t, cs, "scene", map[string]any{"command": "svg"})); !strings.Contains(svg, "<svg") {
		t.Errorf("svg is not an SVG document: %.80q", svg)
	}
	sceneJSON := text(t, callMCP(t, cs, "scene", map[string]any{"command": "json"}))
	if !json.Valid([]byte(sceneJSON)) || !strings.Contains(sceneJSON, `"a"`) {
		t.Errorf("json is not the scene: %.200q", sceneJSON)
	}
	info := structured[struct {
		Info struct {
			Entities int `json:"entities"`
		} `json:"info"`
	}](t, callMCP(t, cs, "scene", map[string]any{"command": "info"}))
	if info.Info.Entities != 1 {
		t.Errorf("info: %+v", info)
	}
}

// TestMCPEveryTool calls every tool once: each answer must get past the SDK's output checks
// (an answer that does not match its output schema is a protocol error).
func TestMCPEveryTool(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, testws.Archive(`a main that imports one module, and two modules nothing imports (to move and delete)
-- scene.code.js --
import 'parts'
drawCircle('a', 0, 0, 1)
part('p')
-- modules/parts.js --
function part(n) { drawRect(n, 0, 0, 2, 2) }
-- modules/unused.js --
drawCircle('u', 0, 0, 1)
-- modules/unused2.js --

`)))
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"glob", map[string]any{}},
		{"glob", map[string]any{"pattern": "un*"}},
		{"read", map[string]any{"file": "main"}},
		{"read", map[string]any{"file": "main", "offset": 2, "limit": 1}},
		{"write", map[string]any{"file": "main", "code": "import 'parts'\ndrawCircle('a', 0, 0, 2)\npart('p')\n"}},
		{"edit", map[string]any{"file": "main", "old_code": "0, 2)", "new_code": "0, 3)"}},
		{"edit", map[string]any{"file": "main", "edits": []map[string]any{{"old_code": "0, 3)", "new_code": "0, 4)"}}}},
		{"move", map[string]any{"file": "unused", "to": "spare"}},
		{"delete", map[string]any{"file": "unused2"}},
		{"scene", map[string]any{"command": "snapshot", "name": "one"}},
		{"scene", map[string]any{"command": "snapshots"}},
		{"scene", map[string]any{"command": "tree"}},
		{"scene", map[string]any{"command": "groups"}},
		{"scene", map[string]any{"command": "draw_order"}},
		{"scene", map[string]any{"command": "entity", "name": "p"}},
		{"scene", map[string]any{"command": "undo"}},
		{"scene", map[string]any{"command": "redo"}},
		{"scene", map[string]any{"command": "reset"}},
		{"scene", map[string]any{"command": "info"}},
	}
	// Every answer's structured content fits the output schema the tool advertises: the
	// server sends it as it is, so this is where a schema that drifted from its answer shows.
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]*jsonschema.Resolved{}
	for _, tool := range lt.Tools {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var sch jsonschema.Schema
		if err := json.Unmarshal(b, &sch); err != nil {
			t.Fatal(err)
		}
		if outs[tool.Name], err = sch.Resolve(nil); err != nil {
			t.Fatalf("%s: output schema: %v", tool.Name, err)
		}
	}
	for _, c := range calls {
		res := callMCP(t, cs, c.tool, c.args)
		if res.IsError {
			t.Errorf("%s %v: %s", c.tool, c.args, text(t, res))
			continue
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if err := outs[c.tool].Validate(v); err != nil {
			t.Errorf("%s %v: the answer does not fit its output schema: %v\n%s", c.tool, c.args, err, b)
		}
	}
}

// MaxModelToolList caps the part of the tool list a model reads: every tool's name,
// description and input schema, as tools/list sends them. At 47 KB of JSON (about 20 KB of
// it read by the model, some 12k tokens) the list cost an agent a large share of its context
// before its first call; the view schema alone was repeated in five tools.
const MaxModelToolList = 12 << 10

// TestToolListFitsAModel measures the tool list as an MCP client receives it.
func TestToolListFitsAModel(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, nil))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	var sizes []string
	for _, tool := range res.Tools {
		schema, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		n := len(tool.Name) + len(tool.Description) + len(schema)
		total += n
		sizes = append(sizes, fmt.Sprintf("%s %d", tool.Name, n))
	}
	t.Logf("the model-facing tool list is %d bytes: %s", total, strings.Join(sizes, ", "))
	if total > MaxModelToolList {
		t.Errorf("the model-facing tool list is %d bytes, over %d (MaxModelToolList): %s; say it shorter, once", total, MaxModelToolList, strings.Join(sizes, ", "))
	}
}

// TestMCPWriteContentKeepsKeyOrder: a data file written over MCP with content keeps its keys
// in the order sent; the SDK's decoding through a map sorted them.
func TestMCPWriteContentKeepsKeyOrder(t *testing.T) {
	t.Parallel()
	ws, dir := newWorkspace(t, map[string]string{"scene.code.js": "drawRect('r', 0, 0, 1, 1)"})
	cs := connectMCP(t, New(tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}), "test"))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write",
		Arguments: json.RawMessage(`{"file":"d.json","content":{"width":120,"height":80,"depth":{"z":1,"a":2}}}`)})
	if err != nil || res.IsError {
		t.Fatalf("write: %v %+v", err, res)
	}
	got := fileBytes(t, dir, "data/d.json")
	want := "{\n  \"width\": 120,\n  \"height\": 80,\n  \"depth\": {\n    \"z\": 1,\n    \"a\": 2\n  }\n}\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("data/d.json mismatch (-want +got):\n%s", diff)
	}
}

// TestMCPAdvertisesTheRegistrySchema: the schema clients see is the one every call is checked
// against, rules between fields included.
func TestMCPAdvertisesTheRegistrySchema(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, nil))
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	asJSON := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	registry := map[string]tools.Tool{}
	for _, tool := range tools.Tools() {
		registry[tool.Name] = tool
	}
	for _, tool := range lt.Tools {
		if diff := cmp.Diff(asJSON(registry[tool.Name].Input()), asJSON(tool.InputSchema)); diff != "" {
			t.Errorf("%s: input schema mismatch (-registry +advertised):\n%s", tool.Name, diff)
		}
	}
	var edit map[string]any
	for _, tool := range lt.Tools {
		if tool.Name == "edit" {
			edit = asJSON(tool.InputSchema).(map[string]any)
		}
	}
	want := map[string]any{"old_code": []any{"new_code"}, "new_code": []any{"old_code"}}
	if diff := cmp.Diff(want, edit["dependentRequired"]); diff != "" {
		t.Errorf("edit's dependentRequired mismatch (-want +got):\n%s", diff)
	}
}
