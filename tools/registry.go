// Package tools is cadrun's one registry of tools (glob, read, write, edit, scene, ...): the
// MCP server and the `cadrun tool` runner both serve exactly these, with the same names,
// inputs and answers.
//
// Start with NewServer for a workspace, then Session for each client; call tools with
// Session.Call (JSON in, JSON-ready value out) or look them up in Tools. NewMCPServer serves
// the same registry over MCP, one Session per client connection.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrBadInput is returned when a tool's parameters do not match its input type.
var ErrBadInput = errors.New("bad input")

// ErrUnknownTool is returned for a tool name not in the registry.
var ErrUnknownTool = errors.New("unknown tool")

// Tool is one registry entry.
type Tool struct {
	Name        string
	Description string
	In, Out     reflect.Type // the typed input and output structs, for schemas
	call        func(ctx context.Context, s *Session, params json.RawMessage) (any, error)
	// addMCP adds the tool to an MCP server with its typed input and output (see mcp.go).
	addMCP func(ms *mcp.Server, sessions *mcpSessions)
}

var registry = map[string]Tool{}

// register adds a tool; a duplicate name or a missing description panics at start-up.
func register[In, Out any](name, description string, fn func(ctx context.Context, s *Session, in In) (Out, error)) {
	if _, dup := registry[name]; dup || description == "" {
		panic("tools: duplicate or undocumented tool " + name)
	}
	registry[name] = Tool{
		Name: name, Description: description,
		In: reflect.TypeFor[In](), Out: reflect.TypeFor[Out](),
		call: func(ctx context.Context, s *Session, params json.RawMessage) (any, error) {
			var in In
			if len(bytes.TrimSpace(params)) > 0 {
				dec := json.NewDecoder(bytes.NewReader(params))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&in); err != nil {
					return nil, fmt.Errorf("%w: %s: %v", ErrBadInput, name, err)
				}
			}
			return fn(ctx, s, in)
		},
		addMCP: mcpAdder(name, description, fn),
	}
}

// Tools lists the registry sorted by name.
func Tools() []Tool {
	out := make([]Tool, 0, len(registry))
	for _, t := range registry {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Call runs a tool by name with JSON parameters.
func (s *Session) Call(ctx context.Context, name string, params json.RawMessage) (any, error) {
	t, ok := registry[name]
	if !ok {
		names := make([]string, 0, len(registry))
		for _, t := range Tools() {
			names = append(names, t.Name)
		}
		return nil, fmt.Errorf("%w %q; the tools are %v", ErrUnknownTool, name, names)
	}
	return t.call(ctx, s, params)
}
