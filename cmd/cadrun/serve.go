package main

// -serve ADDR: the live viewer beside a command that owns a scene. Under `cadrun mcp` it shows
// the scene the agent is building: every change that lands is published, and so is every run
// that was refused, which the page shows as an error overlay over the last good scene. The
// selection goes through the tools server, so MCP clients subscribed to cadrun://selection
// hear about it.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/tools"
	"github.com/cadrun/cadrun/viewer"
)

// serveAddr checks a -serve address as httpAddr checks -http: a bare port means 127.0.0.1,
// and any other host needs a token.
func serveAddr(addr, token string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("-serve %q: want host:port or :port (%v)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !front.IsLoopbackHost(host) && token == "" {
		return "", fmt.Errorf("-serve %q is not a loopback address: anyone who reaches it could see the scene and change the selection; "+
			"set a token with -token T or $%s (then open http://ADDR/?token=T), or listen on 127.0.0.1", addr, tokenEnv)
	}
	return net.JoinHostPort(host, port), nil
}

// startViewer listens on addr and serves the viewer of srv until ctx ends. It returns once
// the listener is bound; the returned function waits for the viewer to stop.
func startViewer(ctx context.Context, srv *tools.Server, addr, token string, maxConns int, logger *slog.Logger) (wait func(), err error) {
	v, wait, err := listenViewer(ctx, addr, token, maxConns, srv, tools.NewJournalAPI(srv), logger)
	if err != nil {
		return nil, err
	}
	follow(ctx, srv, v)
	return wait, nil
}

// listenViewer listens on addr (checked by serveAddr) and serves a viewer whose selection is
// kept by store, with the design journal's HTTP API (journal), holding at most maxConns
// connections (-serve-max-conns), until ctx ends. Any command with a scene publishes to the
// viewer it returns; wait waits for it to stop.
func listenViewer(ctx context.Context, addr, token string, maxConns int, store viewer.SelectionStore, journal http.Handler, logger *slog.Logger) (v *viewer.Server, wait func(), err error) {
	ln, err := listen(addr, "the viewer")
	if err != nil {
		return nil, nil, err
	}
	v = viewer.New(viewer.Options{Selection: store, Token: token, Logger: logger, Journal: journal, MaxConns: maxConns})
	url := "http://" + ln.Addr().String() + "/"
	if token != "" {
		url += "?token=TOKEN"
	}
	logger.Info("serving the viewer", "url", url, "max_conns", maxConns)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := v.Serve(ctx, ln); err != nil {
			logger.Error("the viewer stopped", "err", err)
		}
	}()
	return v, func() { <-done }, nil
}

// follow publishes srv's current scene, then every run, until ctx ends.
func follow(ctx context.Context, srv *tools.Server, v *viewer.Server) {
	runs, stop := srv.SubscribeRuns()
	v.Publish(viewer.State{Scene: srv.Scene()})
	go func() {
		defer stop()
		for {
			select {
			case <-ctx.Done():
				return
			case c, ok := <-runs:
				if !ok {
					return
				}
				if c.Refused != nil {
					v.Publish(viewer.State{Diagnostic: viewer.DiagnosticOf(c.Refused), Run: c.Run})
				} else {
					v.Publish(viewer.State{Scene: c.Scene, Run: c.Run})
				}
			}
		}
	}()
}

// listen listens on addr for what; an address in use says what to do about it.
func listen(addr, what string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("listening for %s: %s is in use by another program: stop it, or give another port (port 0 takes a free one): %w", what, addr, err)
	case err != nil:
		return nil, fmt.Errorf("listening for %s: %w", what, err)
	}
	return ln, nil
}
