package tools

// The MCP server over the registry. Every registry tool is added with mcp.AddTool and the
// registry's input schema (tools/input.go); the registry's input check runs first, as a
// middleware, and the SDK validates against the same schema before a tool runs. Every tool also declares an output schema (outputSchema, mcp_schema.go): the
// inferred schema of its answer, with the scene types that write their own JSON (a Box is null
// or {"min":[x,y],"max":[x,y]}, a Vec is a pair) described as they marshal. The SDK checks each
// answer against it and returns it as structured content and as JSON text.
//
// Each client connection is one Session, so read tracking ("read before you overwrite") is
// per client. A tool's error comes back as a tool result with IsError and the full error text
// (the diagnostic), never as a protocol error.
//
// Before every call the server syncs its scene with the files on disk (Server.Sync, sync.go).
// A call's context ends with the client's cancel, with the server's own context (a signal:
// the call is cancelled and still answered), and over HTTP with the connection that brought
// it (callContext).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
What changed since an earlier state: scene diff (against: a snapshot name, or -N steps back) answers it in words and a picture. What the user drew by hand over the scene in the viewer: scene sketch (points in scene units, to turn into geometry).
Conventions: Y points up; angles are radians, counter-clockwise; colours are RGBA in 0..1; rects and ellipses are given by their centre.
Build each part at the origin, then group it (createGroup) and move the group into place (translate, rotate).
Look at the result with scene: info for a summary, png for an image you can see, svg or json for the exact drawing.
Check it with measure: distance between two shapes, clearance to the others, overlaps, bounds, area, perimeter, centroid.
To see a change, add view: true to write, edit, move, delete (or scene undo, redo, reset): the answer then carries a small picture with what the change added or altered in orange. ` +
	`Ask for it when placement or shape matters (a new part, a move, a layout fix, an undo you want to confirm), not for text-only edits; view: {focus: NAME} frames one part. ` +
	`scene png takes focus, highlight and grid: true (labelled grid lines, to read coordinates off the picture); every picture says how pixels map to scene units and when it is blank.`

// NewMCPServer returns an MCP server offering every registry tool over srv. Each client
// connection gets its own Session, created on its first tool call. Logs go to slog.Default.
func NewMCPServer(srv *Server, version string) *mcp.Server {
	watch := &resourceWatch{srv: srv}
	ms := mcp.NewServer(&mcp.Implementation{Name: "cadrun", Title: "cadrun", Version: version}, &mcp.ServerOptions{
		Instructions: mcpInstructions,
		Logger:       sdkLogger(slog.Default()),
		// No logging capability: cadrun sends no log messages to clients.
		Capabilities: &mcp.ServerCapabilities{},
		// Subscriptions to the scene and the selection (mcp_subscribe.go); the SDK needs both
		// handlers.
		SubscribeHandler:   watch.subscribe,
		UnsubscribeHandler: watch.unsubscribe,
	})
	ms.AddReceivingMiddleware(checkToolCalls) // the registry's input check, as on the CLI
	watch.ms = ms
	sessions := &mcpSessions{srv: srv, ms: ms, m: map[*mcp.ServerSession]*Session{}}
	for _, t := range Tools() {
		t.addMCP(ms, sessions)
	}
	addResources(ms, srv)
	return ms
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
func mcpAdder[In, Out any](name, description string, input func() *jsonschema.Schema, fn func(ctx context.Context, s *Session, in In) (Out, error)) func(*mcp.Server, *mcpSessions) {
	return func(ms *mcp.Server, sessions *mcpSessions) {
		schema, err := outputSchema[Out]()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", name, err))
		}
		t := &mcp.Tool{Name: name, Description: description, InputSchema: input(), OutputSchema: schema}
		mcp.AddTool(ms, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			var zero Out
			if raw, ok := rawArguments(ctx); ok {
				// The arguments as sent (checked by checkToolCalls), not as the SDK's map
				// left them: a JSON value in them (write's content) keeps its key order.
				var sent In
				if err := json.Unmarshal(raw, &sent); err == nil {
					in = sent
				}
			}
			ctx, cancel := callContext(ctx, sessions.srv.ctx, req.Extra)
			defer cancel()
			// The scene follows the files before any answer: another process or an editor
			// may have changed them. A change syncs again under its own lock.
			synced, disk, err := sessions.srv.sync(ctx)
			if err != nil {
				return nil, zero, err
			}
			se := sessions.get(req.Session)
			outside := outsideNote(se.changedOutside(disk))
			out, err := fn(ctx, se, in)
			se.snapshotFiles()
			note := joinNotes(outside, se.SelectionNote(), se.SketchNote())
			if err != nil {
				if note != "" {
					// First, so that a refused change still ends with its last line.
					err = fmt.Errorf("%s\n\n%w", note, err)
				}
				return nil, zero, err
			}
			res := mcpContent(out)
			if pic, rest, ok := pictureContent(out); ok { // a png or a view: its words and the image (view.go)
				res, out = pic, rest
			} else if o, ok := any(out).(SceneOut); ok && res != nil {
				// The drawing travels once, in the content; the structured content keeps the
				// rest (its size, what was left out).
				o.PNG, o.SVG, o.DXF, o.JSON = nil, "", "", nil
				out = any(o).(Out)
			}
			if _, isChange := any(out).(*ChangeResult); !isChange && synced.Error != "" && isSceneView(out) {
				// A view of the last good scene while main on disk does not run: say so.
				note = joinNotes("note: "+synced.Note(), note)
			}
			return withNote(res, out, note), out, nil
		})
	}
}

// ownInputMCPAdder is mcpAdder for a tool that decodes its own parameters (ownInput): the
// arguments go to fn as they came, and its error is the tool result's text.
func ownInputMCPAdder[Out any](name, description string, input func() *jsonschema.Schema, fn func(ctx context.Context, s *Session, params json.RawMessage) (Out, error)) func(*mcp.Server, *mcpSessions) {
	return func(ms *mcp.Server, sessions *mcpSessions) {
		out, err := outputSchema[Out]()
		if err != nil {
			panic(fmt.Sprintf("tool %s: %v", name, err))
		}
		t := &mcp.Tool{Name: name, Description: description, InputSchema: input(), OutputSchema: out}
		ms.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := fn(ctx, sessions.get(req.Session), req.Params.Arguments)
			if err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
			}
			b, err := json.Marshal(res)
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{StructuredContent: res, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
		})
	}
}

// callContext is the context of one tool call: the SDK's, ended also when the server stops
// (stop) and, over HTTP, when the client's connection for this call drops.
func callContext(ctx, stop context.Context, extra *mcp.RequestExtra) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stopStop := context.AfterFunc(stop, func() { cancel(errors.New("the server is stopping")) })
	stopDrop := func() bool { return false }
	if extra != nil {
		if dropped, ok := httpCalls.lookup(extra.Header); ok {
			stopDrop = context.AfterFunc(dropped, func() { cancel(errors.New("the client's connection closed")) })
		}
	}
	return ctx, func() {
		stopStop()
		stopDrop()
		cancel(nil)
	}
}

// isSceneView reports an answer that shows the scene (a scene command that is not a change).
func isSceneView(out any) bool {
	o, ok := out.(SceneOut)
	return ok && o.Change == nil
}

// mcpContent shows the scene's drawings as what they are rather than as JSON fields: png as
// an image the agent can see, svg, json and dxf as plain text. It returns nil for every other
// answer (the SDK then sends the structured content's JSON as the text). A drawing is sent
// once: the caller leaves it out of the structured content, which keeps its size and what
// was left out.
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
	case o.DXF != "":
		c = &mcp.TextContent{Text: o.DXF}
	case o.JSON != nil:
		c = &mcp.TextContent{Text: string(o.JSON)}
	default:
		return nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{c}}
}

// withNote adds a note (files changed by someone else, what the user changed in the viewer)
// to an answer as a text content
// of its own after the answer's content; with no content of its own the answer's JSON text
// comes first, as the SDK would send it but for HTML escaping (see AnswerJSON).
func withNote(res *mcp.CallToolResult, out any, note string) *mcp.CallToolResult {
	if res == nil {
		b, err := AnswerJSON(out)
		if err != nil {
			return nil // the SDK reports the same error when it marshals the answer
		}
		res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
	}
	if note != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: note})
	}
	return res
}

// AnswerJSON is an answer as JSON text for its reader: like json.Marshal, but without
// escaping <, > and & (a script's `a > b` stays readable; no answer is put into HTML).
func AnswerJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
