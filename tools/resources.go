package tools

// Resources: the current scene (as SVG, as scene.json and as DXF), the selection and the API
// reference, for clients that attach context by URI rather than by calling a tool. Each read
// renders the server's last good scene at that moment, after a Sync with the files on disk,
// so a resource is never staler than the scene tool. The MCP server offers them
// (tools/mcpserver); the scene, the scene.json and the selection announce their changes.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/picture"
)

// The resources' URIs.
const (
	ResourceSceneSVG  = "cadrun://scene.svg"
	ResourceSceneJSON = "cadrun://scene.json"
	ResourceSceneDXF  = "cadrun://scene.dxf"
	ResourceAPI       = "cadrun://api.md"
	ResourceSelection = "cadrun://selection"
)

// Resource describes one resource.
type Resource struct {
	URI, Name, MIMEType, Description string
	// Announced resources tell subscribers when they change.
	Announced bool
	read      func(srv *Server) (string, error)
	// perEntity is the render memory a read reserves per entity of the scene (0: none).
	perEntity int64
}

// Resources lists the resources, in a fixed order.
func Resources() []Resource {
	return []Resource{
		{URI: ResourceSceneSVG, Name: "scene.svg", MIMEType: "image/svg+xml", Announced: true, perEntity: picture.SVGBytesPerEntity,
			Description: "The current scene drawn as SVG (Y up), the last one that ran.",
			read: func(srv *Server) (string, error) {
				b, err := render.SVG(srv.Scene(), render.SVGOptions{})
				return string(b), err
			}},
		{URI: ResourceSceneJSON, Name: "scene.json", MIMEType: "application/json", Announced: true, perEntity: picture.JSONBytesPerEntity,
			Description: "The current scene as scene.json: every entity with its geometry, transform, style and group (lossless, versioned).",
			read: func(srv *Server) (string, error) {
				b, err := srv.Scene().MarshalJSON()
				return string(b), err
			}},
		{URI: ResourceSceneDXF, Name: "scene.dxf", MIMEType: "image/vnd.dxf",
			Description: "The current scene as DXF R12 for laser cutters and CNC: outlines in world coordinates, Y up, one layer per top-level group, text as outlines.",
			read:        func(srv *Server) (string, error) { return sceneDXF(srv.Scene(), "") }},
		{URI: ResourceSelection, Name: "selection", MIMEType: "application/json", Announced: true,
			Description: "What the user selected, locked and hidden in the viewer: {selected:[], locked:[], hidden:[]} (entity names).",
			read: func(srv *Server) (string, error) {
				sel, err := srv.LoadSelection()
				if err != nil {
					return "", err
				}
				b, err := json.Marshal(sel)
				return string(b), err
			}},
		{URI: ResourceAPI, Name: "api.md", MIMEType: "text/markdown",
			Description: "The cadrun JS API reference: every function with its signature, parameters (type, unit, default), doc and example.",
			read:        func(*Server) (string, error) { return runtime.Reference(), nil }},
	}
}

// ReadResource reads a resource by URI. The scene follows the files first; a whole document
// is built under the render memory budget like the scene tool's drawings, so that concurrent
// reads of a large scene queue.
func (srv *Server) ReadResource(ctx context.Context, uri string) (string, error) {
	for _, r := range Resources() {
		if r.URI != uri {
			continue
		}
		if _, err := srv.Sync(ctx); err != nil {
			return "", err
		}
		if r.perEntity > 0 {
			done, err := picture.Reserve(ctx, picture.DrawingMemory(srv.Scene(), r.perEntity))
			if err != nil {
				return "", err
			}
			defer done()
		}
		return r.read(srv)
	}
	return "", fmt.Errorf("%w: no resource %q", ErrBadInput, uri)
}
