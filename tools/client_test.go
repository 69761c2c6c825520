package tools

// A client for the tests of the tools: it calls them as the MCP server does
// (Session.Serve, one Session per connection) and shows each answer as MCP content
// (Answer.Parts), so that a test reads an answer as an agent does. The MCP server itself, its
// transports and the SDK's side are tested in tools/mcpserver.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/tools/internal/mcptest"
)

// newMCP makes a server over a fresh workspace holding files; connect clients to it with
// connectMCP.
func newMCP(t *testing.T, files map[string]string) *Server {
	t.Helper()
	s, _ := newSession(t, files)
	return s.srv
}

// client is one connection: its own Session.
type client struct{ se *Session }

// connectMCP connects one client.
func connectMCP(t *testing.T, srv *Server) *client {
	t.Helper()
	return &client{se: srv.Session()}
}

// callMCP calls a tool as an MCP client would and answers what it would receive.
func callMCP(t *testing.T, c *client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if args == nil {
		raw = nil
	}
	return callRaw(t, c, tool, raw)
}

// callRaw is callMCP with the arguments as sent.
func callRaw(t *testing.T, c *client, tool string, raw json.RawMessage) *mcp.CallToolResult {
	t.Helper()
	a, err := c.se.Serve(context.Background(), tool, raw)
	if err != nil {
		res := &mcp.CallToolResult{}
		res.SetError(err)
		return res
	}
	parts, err := a.Parts()
	if err != nil {
		t.Fatal(err)
	}
	res := &mcp.CallToolResult{StructuredContent: roundTrip(t, a.Out)}
	for _, p := range parts {
		if p.PNG != nil {
			res.Content = append(res.Content, &mcp.ImageContent{Data: p.PNG, MIMEType: "image/png"})
		} else {
			res.Content = append(res.Content, &mcp.TextContent{Text: p.Text})
		}
	}
	return res
}

// readResource reads a resource as an MCP client would.
func readResource(t *testing.T, c *client, uri string) string {
	t.Helper()
	text, err := c.se.srv.ReadResource(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// roundTrip is v as a client decodes it from JSON.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
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

// text is the text of a result's only content.
func text(t *testing.T, res *mcp.CallToolResult) string { t.Helper(); return mcptest.Text(t, res) }

// structured decodes a result's structured content into T.
func structured[T any](t *testing.T, res *mcp.CallToolResult) T {
	t.Helper()
	return mcptest.Structured[T](t, res)
}
