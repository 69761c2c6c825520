package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/render"
)

func init() {
	register("scene", "Look at the current scene: command is info, tree, groups, draw_order (group optional), entity (name), svg, json or png (width optional, default 1024).", sceneTool)
}

// sceneCommands are the commands of the scene tool built so far.
var sceneCommands = []string{"info", "tree", "groups", "draw_order", "entity", "svg", "json", "png"}

// SceneIn selects a view of the scene.
type SceneIn struct {
	Command string `json:"command" jsonschema:"info, tree, groups, draw_order, entity, svg, json or png"`
	Name    string `json:"name,omitempty" jsonschema:"entity name, for entity"`
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
}

func sceneTool(_ context.Context, s *Session, in SceneIn) (SceneOut, error) {
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
