// Package mcpserver serves cadrun's tools (package tools) over MCP: over stdio (stdio.go) and
// over streamable HTTP behind the front door (http.go), with the resources and their
// subscriptions. It is the only package that knows the MCP SDK; the tools do not know which
// transport called them.
//
// Every tool is added with its input and output schemas (Tool.Input, Tool.OutputSchema); a
// call goes to Session.Serve with the arguments as the client sent them, which checks them by
// the registry's one input rule, syncs the scene with the files and answers the notes a
// client should hear. A picture goes as an image, a drawing as text, any other answer as its
// JSON text and structured content; a tool's error comes back as a tool result with IsError
// and the full error text (the diagnostic). Only a call of a tool that does not exist is a
// protocol error (unknownTools).
//
// Each client connection is one Session, so read tracking ("read before you overwrite") is
// per client. A call's context ends with the client's cancel, with the server's own context
// (a signal: the call is cancelled and still answered), and over HTTP with the connection
// that brought it (callContext).
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/tools"
)

// mcpInstructions is what a client learns about cadrun on connecting.
const mcpInstructions = `cadrun is a CAD scripting runtime: JavaScript files in a workspace draw a 2D scene (drawCircle, drawRect, booleanUnion, createGroup, ...). ` +
	`'main' is the program; modules are imported by name. Every write or edit runs the whole program at once; ` +
	`a change that fails is not applied (the file is unchanged) and the error shows file:line:col with the source line and a hint.
Read a file before you overwrite or edit it; glob lists the files.
What changed since an earlier state: scene diff (against: a snapshot name, or -N steps back) answers it in words and a picture. What the user drew by hand over the scene in the viewer: scene sketch (points in scene units, to turn into geometry).
Conventions: Y points up; angles are radians, counter-clockwise; colours are RGBA in 0..1; rects and ellipses are given by their centre.
Build each part at the origin, then group it (createGroup) and move the group into place (translate, rotate).
Look at the result with scene: info for a summary, png for an image you can see, svg or json for the exact drawing.
Check it with measure: distance between two shapes, clearance to the others, overlaps, bounds, area, perimeter, centroid.
To see a change, add view: true to write, edit, move, delete (or scene undo, redo, reset): the answer then carries a small picture with what the change added or altered in orange. ` +
	`Ask for it when placement or shape matters (a new part, a move, a layout fix, an undo you want to confirm), not for text-only edits; view: {focus: NAME} frames one part. ` +
	`scene png takes focus, highlight and grid: true (labelled grid lines, to read coordinates off the picture); every picture says how pixels map to scene units and when it is blank.`

// Server is cadrun's MCP server: the SDK's server with every tool, and what its transports
// share with its tool calls (over HTTP, the request that brought each call). Serve it over
// stdio as the SDK's (Run, Connect), over HTTP with NewHTTPHandler.
type Server struct {
	*mcp.Server
	// calls holds the HTTP requests in flight (NewHTTPHandler), for the tool calls they bring
	// to end with them (callContext).
	calls *callRegistry
}

// New returns an MCP server offering every tool over srv. Each client connection gets its
// own Session, created on its first tool call. Logs go to slog.Default. It panics if a tool's
// output has no faithful schema, which every test that starts a server catches.
func New(srv *tools.Server, version string) *Server {
	s := &Server{calls: &callRegistry{m: map[string]context.Context{}}}
	watch := &resourceWatch{srv: srv}
	ms := mcp.NewServer(&mcp.Implementation{Name: "cadrun", Title: "cadrun", Version: version}, &mcp.ServerOptions{
		Instructions: mcpInstructions,
		Logger:       sdkLogger(slog.Default()),
		// No logging capability: cadrun sends no log messages to clients.
		Capabilities: &mcp.ServerCapabilities{},
		// Subscriptions to the scene and the selection (subscribe.go); the SDK needs both
		// handlers.
		SubscribeHandler:   watch.subscribe,
		UnsubscribeHandler: watch.unsubscribe,
	})
	ms.AddReceivingMiddleware(unknownTools)
	watch.ms = ms
	sessions := &sessions{srv: srv, ms: ms, m: map[*mcp.ServerSession]*tools.Session{}}
	for _, t := range tools.Tools() {
		out, err := t.OutputSchema()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", t.Name, err))
		}
		ms.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Input(), OutputSchema: out},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				ctx, cancel := s.callContext(ctx, req.Extra)
				defer cancel()
				a, err := sessions.get(req.Session).Serve(ctx, t.Name, req.Params.Arguments)
				if err != nil {
					res := &mcp.CallToolResult{}
					res.SetError(err)
					return res, nil
				}
				return result(a)
			})
	}
	addResources(ms, srv)
	s.Server = ms
	return s
}

// unknownTools answers a call of a tool that does not exist as the JSON-RPC error the MCP
// spec asks for (code -32602, invalid params), in the registry's words (tools.CheckName): the
// tools there are, or the cadrun tool that does an upstream tool's job. The SDK's own error
// would say only "unknown tool". Bad arguments to a tool that exists stay tool results, which
// a model reads and corrects.
func unknownTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && r.Params != nil {
			if err := tools.CheckName(r.Params.Name); err != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
			}
		}
		return next(ctx, method, req)
	}
}

// result is an answer as MCP content, its parts in order (Answer.Parts); the structured
// content is the answer without its picture or drawing, which travel once.
func result(a *tools.Answer) (*mcp.CallToolResult, error) {
	parts, err := a.Parts()
	if err != nil {
		return nil, err
	}
	content := make([]mcp.Content, len(parts))
	for i, p := range parts {
		if p.PNG != nil {
			content[i] = &mcp.ImageContent{Data: p.PNG, MIMEType: "image/png"} // raw bytes; the SDK encodes them
		} else {
			content[i] = &mcp.TextContent{Text: p.Text}
		}
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: a.Out}, nil
}

// sessions maps each MCP client connection to its Session. It is safe for concurrent use
// (tool calls are handled concurrently).
type sessions struct {
	srv *tools.Server
	ms  *mcp.Server

	mu sync.Mutex
	m  map[*mcp.ServerSession]*tools.Session
}

// get returns the Session of a client connection, starting one on first use.
func (m *sessions) get(ss *mcp.ServerSession) *tools.Session {
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

// callContext is the context of one tool call: the SDK's, ended also, over HTTP, when the
// client's connection for this call drops.
func (s *Server) callContext(ctx context.Context, extra *mcp.RequestExtra) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stopDrop := func() bool { return false }
	if extra != nil {
		if dropped, ok := s.calls.lookup(extra.Header); ok {
			stopDrop = context.AfterFunc(dropped, func() { cancel(errors.New("the client's connection closed")) })
		}
	}
	return ctx, func() {
		stopDrop()
		cancel(nil)
	}
}

// sdkLogger is logger with the SDK's INFO records (a line for every session that starts or
// ends) moved down to DEBUG: a busy HTTP server would otherwise log a line per session.
func sdkLogger(logger *slog.Logger) *slog.Logger {
	return slog.New(demoteInfo{logger.Handler()})
}

type demoteInfo struct{ slog.Handler }

func (h demoteInfo) Enabled(ctx context.Context, l slog.Level) bool {
	if l == slog.LevelInfo {
		l = slog.LevelDebug
	}
	return h.Handler.Enabled(ctx, l)
}

func (h demoteInfo) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo {
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
}

func (h demoteInfo) WithAttrs(as []slog.Attr) slog.Handler {
	return demoteInfo{h.Handler.WithAttrs(as)}
}
func (h demoteInfo) WithGroup(name string) slog.Handler { return demoteInfo{h.Handler.WithGroup(name)} }
