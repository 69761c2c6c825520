package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/tools"
)

func TestResourceSubscriptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := newServer(t, nil)
	ms := New(srv, "test")
	updates := make(chan string, 16)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := ms.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updates <- req.Params.URI },
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	if !cs.InitializeResult().Capabilities.Resources.Subscribe {
		t.Fatal("the server does not announce resource subscriptions")
	}
	for _, uri := range []string{tools.ResourceSceneSVG, tools.ResourceSelection} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatalf("subscribe %s: %v", uri, err)
		}
	}
	// The client's Subscribe does not wait for the server's answer, so ask the handler.
	w := &resourceWatch{srv: srv, ms: ms.Server}
	err = w.subscribe(ctx, &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: tools.ResourceAPI}})
	if want := `bad input: resource "cadrun://api.md" does not announce changes; subscribe to [cadrun://scene.svg cadrun://scene.json cadrun://selection]`; err == nil || err.Error() != want {
		t.Errorf("subscribing to api.md: %v; want %q", err, want)
	}
	if res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 1)\n"}); res.IsError {
		t.Fatal(text(t, res))
	}
	if got := <-updates; got != tools.ResourceSceneSVG {
		t.Errorf("after a write: update for %s", got)
	}
	if _, err := srv.SaveSelection(modules.Selection{Selected: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if got := <-updates; got != tools.ResourceSelection {
		t.Errorf("after selecting: update for %s", got)
	}
	for _, uri := range []string{tools.ResourceSceneSVG, tools.ResourceSelection} {
		if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
			t.Fatalf("unsubscribe %s: %v", uri, err)
		}
	}
}
