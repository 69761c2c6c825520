package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// Answer budgets, in bytes of the answer's JSON (what `cadrun tool` prints as data, and what an
// MCP client reads).
const (
	// changeBudget: a change's answer (write, edit, move, delete, undo, redo, reset, restore)
	// names entities in capped lists with counts, so it stays this small at any scene size.
	changeBudget = 1536
	// smallBudget: answers about one thing (an entity, a measurement, the history, a journal
	// entry, the file list of a small workspace).
	smallBudget = 4096
	// pageBudget: answers that page or cut to the default max_bytes (64 KiB), with what was
	// left out named; a little over for the envelope around the page.
	pageBudget = 64<<10 + 1024
	// imageBudget: a picture, base64, only when asked (scene png's default budget is 1 MiB).
	imageBudget = 4 << 20 / 3
	// viewBudget: a change with view: the change's answer and a picture of the scene after it
	// (512 px wide unless asked otherwise, and drawn narrower to fit the image budget).
	viewBudget = changeBudget + imageBudget
	// logsBudget: a change whose script logs without end: its console output is cut at
	// runtime.Limits' MaxConsoleBytes (64 KiB), with a warning saying so.
	logsBudget = 64<<10 + changeBudget
)

// answerSizes is every tool and scene command, in an order that each can run after the one
// before on one session, with the most bytes its answer may take on a 10,000-entity scene. A
// new tool or command gets a row. The workspace also holds a sketch at its caps (fullSketch).
var answerSizes = []struct {
	tool   string
	params string
	budget int
	lists  string // for a change: its capped lists, as listed(answer) prints them
}{
	{"write", `{"file": "grid", "code": "function grid(n, r) { for (let i = 0; i < n; i++) drawCircle('cell_' + i, i % 100, Math.floor(i / 100), r) }"}`, changeBudget, ""},
	{"write", `{"file": "main", "code": "import 'grid'\ngrid(10000, 0.4)\n"}`, changeBudget, "added 20 of 10000"},
	{"edit", `{"file": "main", "old_code": "0.4", "new_code": "0.3"}`, changeBudget, "changed 20 of 10000"},
	{"scene", `{"command": "diff"}`, imageBudget, ""},
	{"write", `{"file": "main", "code": "import 'grid'\ngrid(10000, 0.35)\n", "view": true}`, viewBudget, "changed 20 of 10000"},
	{"edit", `{"file": "main", "old_code": "0.35", "new_code": "0.3", "view": {"width": 256, "focus": "cell_0", "highlight": ["cell_1"], "grid": true}}`, viewBudget, "changed 20 of 10000"},
	{"scene", `{"command": "undo", "view": true}`, viewBudget, "changed 20 of 10000"},
	{"scene", `{"command": "redo", "view": true}`, viewBudget, "changed 20 of 10000"},
	{"write", `{"file": "size.json", "content": {"r": 0.3}}`, changeBudget, ""},
	{"write", `{"file": "spare", "code": "function spare() {}"}`, changeBudget, ""},
	{"move", `{"file": "spare", "to": "spare2"}`, changeBudget, ""},
	{"delete", `{"file": "spare2"}`, changeBudget, ""},
	{"glob", `{}`, smallBudget, ""},
	{"read", `{"file": "main"}`, smallBudget, ""},
	{"read", `{"file": "size.json", "preview": true}`, smallBudget, ""},
	{"lsp", `{"operation": "domains"}`, pageBudget, ""},
	{"lsp", `{"operation": "describe", "domain": "primitives"}`, pageBudget, ""},
	{"lsp", `{"operation": "schema", "name": "drawCircle"}`, smallBudget, ""},
	{"lsp", `{"operation": "symbols", "file": "grid"}`, smallBudget, ""},
	{"measure", `{"op": "bounds", "name": "cell_0"}`, smallBudget, ""},
	{"measure", `{"op": "distance", "name": "cell_0", "to": "cell_9999"}`, smallBudget, ""},
	{"measure", `{"op": "clearance", "name": "cell_0"}`, smallBudget, ""},
	{"measure", `{"op": "overlaps", "name": "cell_0"}`, smallBudget, ""},
	{"measure", `{"op": "area", "name": "cell_0"}`, smallBudget, ""},
	{"save", `{"title": "Grid", "text": "10,000 cells in rows of 100"}`, smallBudget, ""},
	{"search", `{"query": "cells"}`, smallBudget, ""},
	{"search", `{"ids": [1]}`, smallBudget, ""},
	{"scene", `{"command": "info"}`, smallBudget, ""},
	{"scene", `{"command": "tree"}`, pageBudget, ""},
	{"scene", `{"command": "groups"}`, pageBudget, ""},
	{"scene", `{"command": "draw_order"}`, pageBudget, ""},
	{"scene", `{"command": "entity", "name": "cell_5000"}`, smallBudget, ""},
	{"scene", `{"command": "svg"}`, pageBudget, ""},
	{"scene", `{"command": "json"}`, pageBudget, ""},
	{"scene", `{"command": "dxf"}`, pageBudget, ""},
	{"scene", `{"command": "png"}`, imageBudget, ""},
	{"scene", `{"command": "png", "focus": "cell_5000", "highlight": ["changed"], "grid": true}`, imageBudget, ""},
	{"scene", `{"command": "png", "focus": [0, 0, 10, 10], "highlight": ["cell_0", "cell_101"]}`, imageBudget, ""},
	{"scene", `{"command": "sketch"}`, pageBudget, ""},
	{"scene", `{"command": "selection"}`, smallBudget, ""},
	{"scene", `{"command": "snapshot", "name": "grid"}`, smallBudget, ""},
	{"scene", `{"command": "snapshots"}`, smallBudget, ""},
	{"scene", `{"command": "reset"}`, changeBudget, "removed 20 of 10000"},
	{"scene", `{"command": "undo"}`, changeBudget, "added 20 of 10000"},
	{"scene", `{"command": "redo"}`, changeBudget, "removed 20 of 10000"},
	{"scene", `{"command": "restore", "journal": 1}`, changeBudget, "added 20 of 10000"},
	{"edit", `{"file": "main", "old_code": "grid(10000, 0.3)", "new_code": "grid(10000, 0.3)\nfor (let i = 0; i < 10000; i++) console.log('cell', i, 'is drawn at', i % 100, Math.floor(i / 100))"}`, logsBudget, ""},
}

// slowSession is a session with the design journal whose runs may take a minute: the answers'
// sizes are what is tested, and a run of 10,000 circles under the race detector on a busy
// machine passes the default 5 s.
func slowSession(t *testing.T) *Session {
	ws, _ := newWorkspace(t, nil)
	s := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{Limits: runtime.Limits{Timeout: time.Minute}}).Session()
	t.Cleanup(s.srv.CloseJournal)
	return s
}

// TestAnswerSizes: on a 10,000-entity scene every answer fits its budget.
func TestAnswerSizes(t *testing.T) {
	t.Parallel()
	s := slowSession(t)
	addStrokes(t, s.srv.ws, fullSketch()...)
	for i, row := range answerSizes {
		out, err := s.Call(context.Background(), row.tool, json.RawMessage(row.params))
		if err != nil {
			t.Fatalf("%d: %s %s: %v", i, row.tool, row.params, err)
		}
		b, err := AnswerJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%s %s", row.tool, row.params)
		t.Logf("%7d  %s", len(b), what)
		if len(b) > row.budget {
			t.Errorf("%s: the answer is %d bytes, over its %d:\n%.600s", what, len(b), row.budget, b)
		}
		if row.lists != "" {
			if diff := cmp.Diff(row.lists, listed(out)); diff != "" {
				t.Errorf("%s: lists mismatch (-want +got):\n%s", what, diff)
			}
		}
	}
	if n := s.srv.Scene().Len(); n != 10000 {
		t.Errorf("the scene ended with %d entities; the answers were measured on a smaller one", n)
	}
}

// listed describes a change's non-empty name lists: "added 20 of 10000".
func listed(out any) string {
	c, ok := out.(*ChangeResult)
	if !ok {
		if so, isScene := out.(SceneOut); isScene {
			c = so.Change
		}
	}
	if c == nil {
		return "not a change"
	}
	var more engine.MoreCount
	if c.More != nil {
		more = *c.More
	}
	var parts []string
	for _, l := range []struct {
		name  string
		names []string
		more  int
	}{{"added", c.Added, more.Added}, {"removed", c.Removed, more.Removed}, {"changed", c.Changed, more.Changed}, {"restacked", c.Restacked, more.Restacked}} {
		if len(l.names) > 0 {
			parts = append(parts, fmt.Sprintf("%s %d of %d", l.name, len(l.names), len(l.names)+l.more))
		}
	}
	return strings.Join(parts, ", ")
}

// TestSceneDXFBudget: scene dxf answers within max_bytes, like svg; a bigger DXF is named in
// omitted with the ways to get it.
func TestSceneDXFBudget(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "for (let i = 0; i < 40; i++) drawCircle('c' + i, i, 0, 0.4)"})
	full, err := call[SceneOut](t, s, "scene", SceneIn{Command: "dxf"})
	if err != nil || full.Omitted != nil || len(full.DXF) < 2000 {
		t.Fatalf("dxf in the default budget: %d bytes, omitted %+v, %v", len(full.DXF), full.Omitted, err)
	}
	cut, err := call[SceneOut](t, s, "scene", SceneIn{Command: "dxf", MaxBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want := SceneOut{Omitted: &Omitted{Total: 40, Note: fmt.Sprintf("the DXF of 40 entities is %d bytes, over the budget of 1000: write it to a file with export {\"path\":\"out/part.dxf\"}, or ask with a larger max_bytes (up to 1048576)", len(full.DXF))}}
	if diff := cmp.Diff(want, cut); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestAnswerSizesOverMCP: the same over MCP, where the model reads the result's content (the
// answer's JSON as text, a picture as an image): the content fits the same budget. The whole
// result is about twice that, the structured content repeating the text, as the protocol asks.
func TestAnswerSizesOverMCP(t *testing.T) {
	t.Parallel()
	s := slowSession(t)
	addStrokes(t, s.srv.ws, fullSketch()...)
	cs := connectMCP(t, s.srv)
	for i, row := range answerSizes {
		var args map[string]any
		if err := json.Unmarshal([]byte(row.params), &args); err != nil {
			t.Fatal(err)
		}
		res := callMCP(t, cs, row.tool, args)
		if res.IsError {
			t.Fatalf("%d: %s %s: %s", i, row.tool, row.params, text(t, res))
		}
		content := 0
		for _, c := range res.Content {
			switch c := c.(type) {
			case *mcp.TextContent:
				content += len(c.Text)
			case *mcp.ImageContent:
				content += (len(c.Data) + 2) / 3 * 4 // as base64, as it travels
			default:
				t.Errorf("%s: unexpected content %T", row.tool, c)
			}
		}
		whole, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("%s %s", row.tool, row.params)
		t.Logf("%7d content %7d result  %s", content, len(whole), what)
		if content > row.budget {
			t.Errorf("%s: the content is %d bytes, over its %d:\n%.600s", what, content, row.budget, whole)
		}
	}
}
