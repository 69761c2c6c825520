package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

func init() {
	register("scene", "Look at the current scene: command is info, tree, groups, draw_order (group optional), entity (name), svg, json or png (width optional, default 1024). "+
		"History: every change is recorded; undo and redo restore all files and the scene together (undo or redo with name goes straight to that snapshot), snapshot names the current state (name), snapshots lists the names, newest first. "+
		"reset empties the scene by writing an empty main (the scene is always what main draws); it is recorded, so undo brings main back. "+
		"selection lists what the user selected, locked and hidden in the viewer.", sceneTool)
}

// sceneCommands are the commands of the scene tool built so far.
var sceneCommands = []string{"info", "tree", "groups", "draw_order", "entity", "svg", "json", "png", "reset", "undo", "redo", "snapshot", "snapshots", "selection"}

// SceneIn selects a view of the scene.
type SceneIn struct {
	Command string `json:"command" jsonschema:"info, tree, groups, draw_order, entity, svg, json, png, reset, undo, redo, snapshot, snapshots or selection"`
	Name    string `json:"name,omitempty" jsonschema:"entity name, for entity; snapshot name, for snapshot (and for undo/redo to go to that snapshot)"`
	Group   string `json:"group,omitempty" jsonschema:"group name, for draw_order; empty means the top level"`
	Width   int    `json:"width,omitempty" jsonschema:"png width in pixels"`
}

// SceneOut holds the one field the command fills.
type SceneOut struct {
	Info   any             `json:"info,omitempty"`
	Tree   any             `json:"tree,omitempty"`
	Groups any             `json:"groups,omitempty"`
	Order  []string        `json:"order,omitempty"`
	Entity any             `json:"entity,omitempty"`
	SVG    string          `json:"svg,omitempty"`
	JSON   json.RawMessage `json:"json,omitempty"`
	PNG    []byte          `json:"png,omitempty"` // base64 in JSON
	// Change answers reset, undo and redo, as write answers a change.
	Change *ChangeResult `json:"change,omitempty"`
	// History answers snapshot and snapshots.
	History *HistoryOut `json:"history,omitempty"`
	// Selection answers selection: what the user picked in the viewer.
	Selection *modules.Selection `json:"selection,omitempty"`
}

func sceneTool(ctx context.Context, s *Session, in SceneIn) (SceneOut, error) {
	sc := s.srv.Scene()
	var out SceneOut
	var err error
	switch in.Command {
	case "info":
		out.Info = sc.Info()
	case "tree":
		out.Tree = sc.Tree()
	case "groups":
		out.Groups = sc.Groups()
	case "draw_order":
		out.Order, err = sc.DrawOrderOf(in.Group)
	case "entity":
		if in.Name == "" {
			return out, fmt.Errorf("%w: entity needs name", ErrBadInput)
		}
		out.Entity, err = sc.Detail(in.Name)
	case "svg":
		var b []byte
		b, err = render.SVG(sc, render.SVGOptions{})
		out.SVG = string(b)
	case "json":
		out.JSON, err = sc.MarshalJSON()
	case "reset":
		out.Change, err = s.commit(ctx, runtime.MainModule, func([]byte, bool) (change, error) {
			return s.writeChange(runtime.MainModule, []byte{}), nil
		}, "")
	case "undo", "redo":
		out.Change, err = s.travel(ctx, in.Command == "undo", in.Name)
	case "snapshot":
		if in.Name == "" {
			return out, fmt.Errorf("%w: snapshot needs name", ErrBadInput)
		}
		out.History, err = s.snapshot(ctx, in.Name)
	case "snapshots":
		out.History = s.snapshots()
	case "selection":
		out.Selection, err = s.selection()
	case "png":
		w := in.Width
		if w == 0 {
			w = render.DefaultPNGSide
		}
		out.PNG, err = render.PNG(sc, render.PNGOptions{Width: w})
	default:
		return out, fmt.Errorf("%w: unknown scene command %q; use %s", ErrBadInput, in.Command, strings.Join(sceneCommands, ", "))
	}
	return out, err
}
