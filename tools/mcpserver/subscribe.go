package mcpserver

// Resource subscriptions: a client that subscribes to cadrun://scene.svg, cadrun://scene.json
// or cadrun://selection gets notifications/resources/updated when it changes. One goroutine
// per MCP server forwards the changes while at least one subscription is open; it also reads
// the selection again every selectionPoll, so that a selection made in another process's
// viewer is announced too.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/tools"
)

// selectionPoll is how often a subscribed server reads the workspace's selection again.
const selectionPoll = time.Second

// subscribable are the resources that announce changes.
var subscribable = func() []string {
	var uris []string
	for _, r := range tools.Resources() {
		if r.Announced {
			uris = append(uris, r.URI)
		}
	}
	return uris
}()

type resourceWatch struct {
	srv *tools.Server
	ms  *mcp.Server

	mu   sync.Mutex
	subs int // open subscriptions, across clients
	stop context.CancelFunc
}

func (w *resourceWatch) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if !slices.Contains(subscribable, req.Params.URI) {
		return fmt.Errorf("%w: resource %q does not announce changes; subscribe to %v", tools.ErrBadInput, req.Params.URI, subscribable)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.subs++
	if w.stop == nil {
		ctx, cancel := context.WithCancel(context.Background())
		w.stop = cancel
		go w.forward(ctx)
	}
	return nil
}

func (w *resourceWatch) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.subs > 0 && slices.Contains(subscribable, req.Params.URI) {
		w.subs--
	}
	if w.subs == 0 && w.stop != nil {
		w.stop()
		w.stop = nil
	}
	return nil
}

// forward sends resource updates until ctx ends.
func (w *resourceWatch) forward(ctx context.Context) {
	changes, stop := w.srv.Subscribe()
	defer stop()
	sel, stopSel := w.srv.WatchSelection()
	defer stopSel()
	w.srv.LoadSelection() // the starting point for the changes to come
	poll := time.NewTicker(selectionPoll)
	defer poll.Stop()
	updated := func(uris ...string) {
		for _, u := range uris {
			w.ms.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: u})
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-changes:
			if !ok {
				return
			}
			updated(tools.ResourceSceneSVG, tools.ResourceSceneJSON)
		case <-sel:
			updated(tools.ResourceSelection)
		case <-poll.C:
			w.srv.LoadSelection()
		}
	}
}
