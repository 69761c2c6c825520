// Package tools is cadrun's one registry of tools (glob, read, write, edit, scene, ...): the
// MCP server and the `cadrun tool` runner both serve exactly these, with the same names,
// inputs and answers.
//
// Start with NewServer for a workspace, then Session for each client; call tools with
// Session.Call (JSON in, JSON-ready value out), or Session.Serve as a long-lived server
// answers, or look them up in Tools. Package tools/mcpserver serves the same registry over
// MCP (stdio and HTTP), one Session per client connection; the tools do not know which
// transport called them.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// ErrUnknownTool is returned for a tool name not in the registry.
var ErrUnknownTool = errors.New("unknown tool")

// Tool types, for `cadrun tool --list`.
const (
	TypeRead = "read" // only looks: never changes a file
	TypeEdit = "edit" // may change files (and records history)
)

// Tool is one registry entry.
type Tool struct {
	Name        string
	Description string
	Type        string       // TypeRead or TypeEdit
	In, Out     reflect.Type // the typed input and output structs, for schemas
	// schema is the input schema and its resolved form, inferred on first use: every
	// cadrun process (each worker too) registers the tools, and most never check an input.
	schema func() (*jsonschema.Schema, *jsonschema.Resolved)
	// checksOwn marks a tool that checks its own parameters (save keeps properties it does
	// not know): the generic input check of every entry point leaves it alone.
	checksOwn bool
	call      func(ctx context.Context, s *Session, params json.RawMessage) (any, error)
}

// registry is every tool, one row each: name, type, description and handler. A handler is a
// plain typed function whose input and output structs give the schemas; its description is a
// const beside it. MCP and the CLI runner both serve exactly these. A duplicate name, or a
// row without a description or a type, panics at start-up.
var registry = index([]*Tool{
	typed("glob", TypeRead, globDescription, globTool),
	typed("read", TypeRead, readDescription, readTool),
	typed("write", TypeEdit, writeDescription, writeTool),
	typed("edit", TypeEdit, editDescription, editTool),
	typed("delete", TypeEdit, deleteDescription, deleteTool),
	typed("move", TypeEdit, moveDescription, moveTool),
	typed("lsp", TypeRead, lspDescription, lspTool),
	typed("measure", TypeRead, measureDescription, measureTool),
	// scene is an edit tool: undo, redo, reset and snapshot change files or history.
	typed("scene", TypeEdit, sceneDescription, sceneTool),
	// save keeps the properties it does not know, so it checks its own input (journal.go).
	ownInput[SaveIn]("save", TypeEdit, saveDescription, saveInputSchema, saveTool),
	typed("search", TypeRead, searchDescription, searchTool),
	// export writes a file, in out/ only, and no history (export.go).
	typed("export", TypeEdit, exportDescription, exportTool),
	// import writes modules/NAME.js through write's transaction (import.go).
	typed("import", TypeEdit, importDescription, importTool),
})

// index makes the registry from its rows.
func index(rows []*Tool) map[string]*Tool {
	out := make(map[string]*Tool, len(rows))
	for _, t := range rows {
		if _, dup := out[t.Name]; dup || t.Description == "" || (t.Type != TypeRead && t.Type != TypeEdit) {
			panic("tools: duplicate, undocumented or untyped tool " + t.Name)
		}
		out[t.Name] = t
	}
	return out
}

// Input is the input schema every call is checked against, on every entry point (inferred
// from In, with the rules between fields that In adds).
func (t Tool) Input() *jsonschema.Schema {
	s, _ := t.schema()
	return s
}

// typed is the row of a tool whose parameters decode into In. Its input schema is inferred on
// first use; an input type without one panics then (TestMCPAdvertisesTheRegistrySchema uses
// every tool's).
func typed[In, Out any](name, typ, description string, fn func(ctx context.Context, s *Session, in In) (Out, error)) *Tool {
	fn = withView(withFileNames(fn))
	t := &Tool{
		Name: name, Description: description, Type: typ,
		In: reflect.TypeFor[In](), Out: reflect.TypeFor[Out](),
		schema: sync.OnceValues(func() (*jsonschema.Schema, *jsonschema.Resolved) {
			schema, resolved, err := inputSchema[In]()
			if err != nil {
				panic(fmt.Sprintf("tools: input schema of %s: %v", name, err))
			}
			return schema, resolved
		}),
	}
	t.call = func(ctx context.Context, s *Session, params json.RawMessage) (any, error) {
		if err := t.checkParams(params); err != nil {
			return nil, err
		}
		var in In
		if t := bytes.TrimSpace(params); len(t) > 0 && string(t) != "null" {
			// Checked above: exact keys, one object; this cannot fail but on a bug.
			if err := json.Unmarshal(params, &in); err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrBadInput, name, err)
			}
		}
		return fn(ctx, s, in)
	}
	return t
}

// ownInput is the row of a tool that decodes and checks its own parameters, so the generic
// input check of every entry point leaves it alone: In documents the parameters, and schema
// is the input schema it advertises.
func ownInput[In, Out any](name, typ, description string, schema func() *jsonschema.Schema, fn func(ctx context.Context, s *Session, params json.RawMessage) (Out, error)) *Tool {
	t := &Tool{
		Name: name, Description: description, Type: typ, checksOwn: true,
		In: reflect.TypeFor[In](), Out: reflect.TypeFor[Out](),
		schema: sync.OnceValues(func() (*jsonschema.Schema, *jsonschema.Resolved) {
			s := schema()
			r, err := s.Resolve(nil)
			if err != nil {
				panic(fmt.Sprintf("tools: input schema of %s: %v", name, err))
			}
			return s, r
		}),
		call: func(ctx context.Context, s *Session, params json.RawMessage) (any, error) {
			return fn(ctx, s, params)
		},
	}
	return t
}

// Tools lists the registry sorted by name.
func Tools() []Tool {
	out := make([]Tool, 0, len(registry))
	for _, t := range registry {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Call runs a tool by name with JSON parameters.
func (se *Session) Call(ctx context.Context, name string, params json.RawMessage) (any, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	return registry[name].call(ctx, se, params)
}

// CheckName refuses a name that is not a tool's, saying what to call instead (an upstream
// tool's name says which cadrun tool does its job).
func CheckName(name string) error {
	if _, ok := registry[name]; ok {
		return nil
	}
	if err := upstreamTool(name); err != nil {
		return err
	}
	names := make([]string, 0, len(registry))
	for _, t := range Tools() {
		names = append(names, t.Name)
	}
	return fmt.Errorf("%w %q; the tools are %v", ErrUnknownTool, name, names)
}
