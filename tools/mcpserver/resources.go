package mcpserver

// MCP resources: tools.Resources, each read through Server.ReadResource.

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/tools"
)

// addResources registers the resources of srv on ms.
func addResources(ms *mcp.Server, srv *tools.Server) {
	for _, r := range tools.Resources() {
		res := &mcp.Resource{URI: r.URI, Name: r.Name, MIMEType: r.MIMEType, Description: r.Description}
		ms.AddResource(res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			text, err := srv.ReadResource(ctx, res.URI)
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: res.MIMEType, Text: text}}}, nil
		})
	}
}
