package tools

// The MCP server over the registry. Every registry tool is added with mcp.AddTool, so its
// input schema is inferred from the typed input struct and the SDK validates arguments before
// a tool runs. Every tool also declares an output schema (outputSchema, mcp_schema.go): the
// inferred schema of its answer, with the scene types that write their own JSON (a Box is null
// or {"min":[x,y],"max":[x,y]}, a Vec is a pair) described as they marshal. The SDK checks each
// answer against it and returns it as structured content and as JSON text.
//
// Each client connection is one Session, so read tracking ("read before you overwrite") is
// per client. A tool's error comes back as a tool result with IsError and the full error text
// (the diagnostic), never as a protocol error.

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpInstructions is what a client learns about cadrun on connecting.
const mcpInstructions = `cadrun is a CAD scripting runtime: JavaScript files in a workspace draw a 2D scene (drawCircle, drawRect, booleanUnion, createGroup, ...). ` +
	`'main' is the program; modules are imported by name. Every write or edit runs the whole program at once; ` +
	`a change that fails is not applied (the file is unchanged) and the error shows file:line:col with the source line and a hint.
Read a file before you overwrite or edit it; glob lists the files.
Conventions: Y points up; angles are radians, counter-clockwise; colours are RGBA in 0..1; rects and ellipses are given by their centre.
Build each part at the origin, then group it (createGroup) and move the group into place (translate, rotate).
Look at the result with scene: info for a summary, png for an image you can see, svg or json for the exact drawing.`

// NewMCPServer returns an MCP server offering every registry tool over srv. Each client
// connection gets its own Session, created on its first tool call. Logs go to slog.Default.
func NewMCPServer(srv *Server, version string) *mcp.Server {
	ms := mcp.NewServer(&mcp.Implementation{Name: "cadrun", Title: "cadrun", Version: version}, &mcp.ServerOptions{
		Instructions: mcpInstructions,
		Logger:       slog.Default(),
		// No logging capability: cadrun sends no log messages to clients.
		Capabilities: &mcp.ServerCapabilities{},
	})
	sessions := &mcpSessions{srv: srv, ms: ms, m: map[*mcp.ServerSession]*Session{}}
	for _, t := range Tools() {
		t.addMCP(ms, sessions)
	}
	addResources(ms, srv)
	return ms
}

// mcpSessions maps each MCP client connection to its Session. It is safe for concurrent use
// (tool calls are handled concurrently).
type mcpSessions struct {
	srv *Server
	ms  *mcp.Server

	mu sync.Mutex
	m  map[*mcp.ServerSession]*Session
}

// get returns the Session of a client connection, starting one on first use.
func (m *mcpSessions) get(ss *mcp.ServerSession) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	if se, ok := m.m[ss]; ok {
		return se
	}
	// A new client: forget the ones that have gone, so the map does not grow without bound
	// on a long-running server.
	live := map[*mcp.ServerSession]bool{}
	for s := range m.ms.Sessions() {
		live[s] = true
	}
	for s := range m.m {
		if !live[s] {
			delete(m.m, s)
		}
	}
	se := m.srv.Session()
	m.m[ss] = se
	return se
}

// mcpAdder returns the function that adds one registry tool to an MCP server. It panics if
// the tool's output has no faithful schema (a type with its own JSON form missing from
// mcpTypeSchemas), which every test that starts a server catches.
func mcpAdder[In, Out any](name, description string, fn func(ctx context.Context, s *Session, in In) (Out, error)) func(*mcp.Server, *mcpSessions) {
	return func(ms *mcp.Server, sessions *mcpSessions) {
		schema, err := outputSchema[Out]()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", name, err))
		}
		// The input schema is inferred with the same type table, so that a JSON value field
		// (write's content) accepts any JSON value rather than an array of bytes.
		in, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: mcpTypeSchemas})
		if err != nil {
			panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
		}
		t := &mcp.Tool{Name: name, Description: description, InputSchema: in, OutputSchema: schema}
		mcp.AddTool(ms, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			out, err := fn(ctx, sessions.get(req.Session), in)
			if err != nil {
				var zero Out
				return nil, zero, err
			}
			return mcpContent(out), out, nil
		})
	}
}

// mcpContent shows the scene's drawings as what they are rather than as JSON fields: png as
// an image the agent can see, svg and json as plain text. It returns nil for every other
// answer. The answer itself still goes out as structured content (a client checks it against
// the output schema and may refuse a tool with a schema and no structured content), so a png
// is also there as base64: one copy for the agent to see, one in the declared form.
func mcpContent(out any) *mcp.CallToolResult {
	o, ok := out.(SceneOut)
	if !ok {
		return nil
	}
	var c mcp.Content
	switch {
	case o.PNG != nil:
		c = &mcp.ImageContent{Data: o.PNG, MIMEType: "image/png"} // raw bytes; the SDK encodes them
	case o.SVG != "":
		c = &mcp.TextContent{Text: o.SVG}
	case o.JSON != nil:
		c = &mcp.TextContent{Text: string(o.JSON)}
	default:
		return nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{c}}
}
