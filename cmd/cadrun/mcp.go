package main

// `cadrun mcp` serves the tools to MCP clients: to one client over stdio by default, or to
// any number of clients over streamable HTTP with -http ADDR.
//
// Over stdio, stdout carries the JSON-RPC stream and nothing else: logs go to stderr through
// log/slog, and scripts run in worker processes whose own stdout is a pipe to this process.
//
// Over HTTP the listener is loopback unless told otherwise: a bare port (":8765") means
// 127.0.0.1. Any other address needs a bearer token (-token, or $CADRUN_MCP_TOKEN so that it
// stays out of the process list); without one cadrun refuses to start, because the tools
// write files and run code. A token given for a loopback address is enforced too. The checks
// on each request (Origin, token, Host, body size) are in tools/mcp_http.go.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// tokenEnv holds the bearer token when -token is not given.
const tokenEnv = "CADRUN_MCP_TOKEN"

// shutdownGrace is how long a stopping HTTP server waits for calls in flight before it
// closes their connections.
const shutdownGrace = 2 * time.Second

func runMCP(args []string, _, stderr io.Writer) error {
	fs := newFlags("mcp", "mcp [-workspace DIR] [-http ADDR [-token T]]", stderr)
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun (created if missing)")
	httpFlag := fs.String("http", "", "serve streamable HTTP on ADDR (host:port; :PORT means 127.0.0.1) instead of stdio")
	tokenFlag := fs.String("token", "", "bearer token every HTTP request must carry; required for a non-loopback ADDR (default $"+tokenEnv+")")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	token := *tokenFlag
	if token == "" {
		token = os.Getenv(tokenEnv)
	}
	var addr string
	if *httpFlag != "" {
		var err error
		if addr, err = httpAddr(*httpFlag, token); err != nil {
			fmt.Fprintf(stderr, "cadrun mcp: %v\n", err)
			return errUsage
		}
	} else if *tokenFlag != "" {
		fmt.Fprintln(stderr, "cadrun mcp: -token needs -http (stdio has no requests to check)")
		return errUsage
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	slog.SetDefault(logger)

	dir, err := workspaceDir(*ws)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the workspace: %w", err)
	}
	w, err := modules.Open(dir)
	if err != nil {
		return err
	}
	defer w.Close()
	pool := runtime.NewPool(runtime.PoolOptions{})
	defer pool.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := tools.NewServer(ctx, w, pool, runtime.Options{})
	ms := tools.NewMCPServer(srv, version)
	if addr != "" {
		return serveMCPHTTP(ctx, ms, tools.HTTPOptions{Token: token, API: tools.NewJournalAPI(srv)}, addr, dir, logger)
	}
	logger.Info("serving MCP on stdio", "workspace", dir, "version", version)
	err = ms.Run(ctx, &mcp.StdioTransport{})
	switch {
	case ctx.Err() != nil:
		logger.Info("stopped by a signal")
		return nil
	case err == nil || errors.Is(err, io.EOF):
		logger.Info("the client closed stdin; exiting")
		return nil
	}
	return err
}

// httpAddr checks an -http address and fills in the loopback host of a bare port. A host that
// is not loopback ("0.0.0.0", a LAN address, a name) is refused without a token. Names other
// than "localhost" are not resolved: they count as not loopback.
func httpAddr(addr, token string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("-http %q: want host:port or :port (%v)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !tools.IsLoopbackHost(host) && token == "" {
		return "", fmt.Errorf("-http %q is not a loopback address: anyone who reaches it could write files and run code; "+
			"set a token with -token T or $%s (clients then send \"Authorization: Bearer T\"), or listen on 127.0.0.1", addr, tokenEnv)
	}
	return net.JoinHostPort(host, port), nil
}

// serveMCPHTTP serves ms on addr until ctx ends (a signal), then stops: calls in flight get
// shutdownGrace to finish before their connections are closed.
func serveMCPHTTP(ctx context.Context, ms *mcp.Server, opt tools.HTTPOptions, addr, dir string, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening for MCP over HTTP: %w", err)
	}
	hs := &http.Server{
		Handler: tools.NewMCPHTTPHandler(ms, opt),
		// Headers must arrive promptly; bodies and event streams have no deadline, because a
		// tool call may run as long as its script's timeout and a GET stream stays open.
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	// The address as bound (a port of 0 is chosen now); the URL is what clients connect to.
	logger.Info("serving MCP over HTTP", "url", "http://"+ln.Addr().String(), "addr", ln.Addr().String(),
		"token", opt.Token != "", "workspace", dir, "version", version)
	select {
	case err := <-served:
		return fmt.Errorf("serving MCP over HTTP: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	logger.Info("stopped by a signal")
	return nil
}
