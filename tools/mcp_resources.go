package tools

// MCP resources: the current scene (as SVG, as scene.json and as DXF) and the API reference, for
// clients that attach context by URI rather than by calling a tool. Each read renders the
// server's last good scene at that moment, after a Sync with the files on disk, so a resource
// is never staler than the scene tool.

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

// The resources' URIs.
const (
	ResourceSceneSVG  = "cadrun://scene.svg"
	ResourceSceneJSON = "cadrun://scene.json"
	ResourceSceneDXF  = "cadrun://scene.dxf"
	ResourceAPI       = "cadrun://api.md"
	ResourceSelection = "cadrun://selection"
)

// addResources registers the resources of srv on ms.
func addResources(ms *mcp.Server, srv *Server) {
	// The scene's resources are whole documents, built under the render memory budget like
	// the scene tool's drawings, so that concurrent reads of a large scene queue.
	perEntity := map[string]int64{ResourceSceneSVG: svgBytesPerEntity, ResourceSceneJSON: jsonBytesPerEntity}
	for _, r := range []struct {
		res  mcp.Resource
		read func() (string, error)
	}{
		{mcp.Resource{URI: ResourceSceneSVG, Name: "scene.svg", MIMEType: "image/svg+xml",
			Description: "The current scene drawn as SVG (Y up), the last one that ran."},
			func() (string, error) {
				b, err := render.SVG(srv.Scene(), render.SVGOptions{})
				return string(b), err
			}},
		{mcp.Resource{URI: ResourceSceneJSON, Name: "scene.json", MIMEType: "application/json",
			Description: "The current scene as scene.json: every entity with its geometry, transform, style and group (lossless, versioned)."},
			func() (string, error) {
				b, err := srv.Scene().MarshalJSON()
				return string(b), err
			}},
		{mcp.Resource{URI: ResourceSceneDXF, Name: "scene.dxf", MIMEType: "image/vnd.dxf",
			Description: "The current scene as DXF R12 for laser cutters and CNC: outlines in world coordinates, Y up, one layer per top-level group, text as outlines."},
			func() (string, error) { return sceneDXF(srv.Scene(), "") }},
		{mcp.Resource{URI: ResourceSelection, Name: "selection", MIMEType: "application/json",
			Description: "What the user selected, locked and hidden in the viewer: {selected:[], locked:[], hidden:[]} (entity names)."},
			func() (string, error) {
				sel, err := srv.LoadSelection()
				if err != nil {
					return "", err
				}
				b, err := json.Marshal(sel)
				return string(b), err
			}},
		{mcp.Resource{URI: ResourceAPI, Name: "api.md", MIMEType: "text/markdown",
			Description: "The cadrun JS API reference: every function with its signature, parameters (type, unit, default), doc and example."},
			func() (string, error) { return runtime.Reference(), nil }},
	} {
		ms.AddResource(&r.res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			// The scene follows the files first (another process or an editor may have
			// changed them); a main that no longer runs leaves the last good scene.
			if _, err := srv.Sync(ctx); err != nil {
				return nil, err
			}
			if n := perEntity[r.res.URI]; n > 0 {
				done, err := reserve(ctx, int64(srv.Scene().Len())*n)
				if err != nil {
					return nil, err
				}
				defer done()
			}
			text, err := r.read()
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: r.res.MIMEType, Text: text}}}, nil
		})
	}
}
