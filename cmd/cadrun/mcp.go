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
// on each request (the front door, internal/front; MCP sessions) are in tools/mcpserver/http.go, the
// connection limits (timeouts, the connection cap) in tools/mcpserver/http_limits.go.

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

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
	"github.com/cadrun/cadrun/tools/mcpserver"
	"github.com/cadrun/cadrun/viewer"
)

// tokenEnv holds the bearer token when -token is not given.
const tokenEnv = "CADRUN_MCP_TOKEN"

// tokenFrom is the token a command serves with: the -token flag's value, else $CADRUN_MCP_TOKEN,
// checked by front.CheckToken (the error names where the bad token came from); "" for none.
func tokenFrom(flagValue string) (string, error) {
	token, source := flagValue, "-token"
	if token == "" {
		token, source = os.Getenv(tokenEnv), "$"+tokenEnv
	}
	if token == "" {
		return "", nil
	}
	if err := front.CheckToken(token); err != nil {
		return "", fmt.Errorf("%s: %w", source, err)
	}
	return token, nil
}

// shutdownGrace is how long a stopping server waits for the answers of the calls in flight
// (cancelled when the signal came) before it exits anyway: an answer that cannot be written
// in that time (a client that does not read) is lost.
const shutdownGrace = 5 * time.Second

func runMCP(args []string, _, stderr io.Writer) error {
	fs := cli.NewFlags("mcp", "mcp [-workspace DIR] [-http ADDR [-token T] [-max-sessions N] [-session-idle D] [-max-conns N]] [-serve ADDR [-serve-max-conns N]] [-log-level L]", stderr)
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun (created if missing)")
	httpFlag := fs.String("http", "", "serve streamable HTTP on ADDR (host:port; :PORT means 127.0.0.1) instead of stdio")
	serveFlag := fs.String("serve", "", "also serve the live viewer on ADDR (host:port; :PORT means 127.0.0.1)")
	tokenFlag := fs.String("token", "", "bearer token every HTTP request must carry; required for a non-loopback ADDR (default $"+tokenEnv+")")
	maxSessions := fs.Int("max-sessions", mcpserver.DefaultMaxSessions, "HTTP: most MCP sessions open at once; a client past it gets 503")
	sessionIdle := fs.Duration("session-idle", mcpserver.DefaultSessionIdle, "HTTP: close a session after this long without a request")
	maxConns := fs.Int("max-conns", mcpserver.MaxHTTPConns, "HTTP: most connections open at once")
	serveConns := fs.Int("serve-max-conns", viewer.DefaultMaxConns, "the viewer: most connections open at once")
	logLevel := fs.String("log-level", "info", "log to stderr from this level up: debug, info, warn or error (debug shows every session)")
	if err := fs.Parse(args); err != nil {
		return cli.ErrUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return cli.ErrUsage
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "cadrun mcp: -log-level %q: want debug, info, warn or error\n", *logLevel)
		return cli.ErrUsage
	}
	if *maxSessions < 1 || *maxConns < 1 || *sessionIdle <= 0 || *serveConns < 1 {
		fmt.Fprintf(stderr, "cadrun mcp: -max-sessions, -max-conns, -session-idle and -serve-max-conns must be positive (got %d, %d, %v, %d)\n", *maxSessions, *maxConns, *sessionIdle, *serveConns)
		return cli.ErrUsage
	}
	token, err := tokenFrom(*tokenFlag)
	if err != nil {
		fmt.Fprintf(stderr, "cadrun mcp: %v\n", err)
		return cli.ErrUsage
	}
	var addr string
	if *httpFlag != "" {
		var err error
		if addr, err = httpAddr(*httpFlag, token); err != nil {
			fmt.Fprintf(stderr, "cadrun mcp: %v\n", err)
			return cli.ErrUsage
		}
	} else if *tokenFlag != "" && *serveFlag == "" {
		fmt.Fprintln(stderr, "cadrun mcp: -token needs -http or -serve (stdio has no requests to check)")
		return cli.ErrUsage
	}
	var viewAddr string
	if *serveFlag != "" {
		var err error
		if viewAddr, err = serveAddr(*serveFlag, token); err != nil {
			fmt.Fprintf(stderr, "cadrun mcp: %v\n", err)
			return cli.ErrUsage
		}
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)

	dir, err := cli.WorkspaceDir(*ws)
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

	// A signal ends ctx: the server's calls in flight are cancelled, and each is answered
	// (landed or not) before the process exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := tools.NewServer(ctx, w, pool, runtime.Options{})
	ms := mcpserver.New(srv, version)
	if viewAddr != "" {
		vctx, stopViewer := context.WithCancel(ctx)
		wait, err := startViewer(vctx, srv, viewAddr, token, *serveConns, logger)
		if err != nil {
			stopViewer()
			return err
		}
		defer wait()
		defer stopViewer()
	}
	if addr != "" {
		opt := mcpserver.HTTPOptions{Token: token, MaxSessions: *maxSessions, SessionIdle: *sessionIdle, API: tools.NewJournalAPI(srv)}
		return serveMCPHTTP(ctx, ms, addr, opt, *maxConns, dir, logger)
	}
	return serveMCPStdio(ctx, ms, dir, logger)
}

// serveMCPStdio serves ms on stdin and stdout until stdin ends or a signal comes; either way
// the calls already read are answered first.
func serveMCPStdio(ctx context.Context, ms *mcpserver.Server, dir string, logger *slog.Logger) error {
	logger.Info("serving MCP on stdio", "workspace", dir, "version", version, "max_message_bytes", mcpserver.MaxMessageBytes)
	st := mcpserver.NewStdioTransport(os.Stdin, os.Stdout, 0, logger)
	st.PeerGone = stdoutGone
	// A write to a stdout nobody reads fails (and cancels the calls in flight) instead of
	// killing the process with SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	defer context.AfterFunc(ctx, st.Drain)()
	served := make(chan error, 1)
	go func() { served <- ms.Run(context.Background(), st) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
		select {
		case err = <-served:
		case <-time.After(shutdownGrace):
			logger.Warn("stopped by a signal before every answer could be written", "waited", shutdownGrace)
			return nil
		}
	}
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
	if !front.IsLoopbackHost(host) && token == "" {
		return "", fmt.Errorf("-http %q is not a loopback address: anyone who reaches it could write files and run code; "+
			"set a token with -token T or $%s (clients then send \"Authorization: Bearer T\"), or listen on 127.0.0.1", addr, tokenEnv)
	}
	return net.JoinHostPort(host, port), nil
}

// serveMCPHTTP serves ms on addr until ctx ends (a signal), then stops: the calls in flight,
// cancelled by the signal, get shutdownGrace to answer before their connections are closed.
func serveMCPHTTP(ctx context.Context, ms *mcpserver.Server, addr string, opt mcpserver.HTTPOptions, maxConns int, dir string, logger *slog.Logger) error {
	ln, err := listen(addr, "MCP over HTTP")
	if err != nil {
		return err
	}
	hs, fl := mcpserver.NewHTTPServer(ln, endStreams(ctx, mcpserver.NewHTTPHandler(ms, opt)), maxConns)
	hs.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(fl) }()
	// The address as bound (a port of 0 is chosen now); the URL is what clients connect to.
	logger.Info("serving MCP over HTTP", "url", "http://"+fl.Addr().String(), "addr", fl.Addr().String(),
		"token", opt.Token != "", "workspace", dir, "version", version,
		"max_sessions", opt.MaxSessions, "session_idle", opt.SessionIdle, "max_conns", maxConns)
	select {
	case err := <-served:
		return fmt.Errorf("serving MCP over HTTP: %w", err)
	case <-ctx.Done():
	}
	if err := front.Shutdown(hs, fl, shutdownGrace); err != nil {
		logger.Warn("stopped by a signal before every request had finished", "waited", shutdownGrace)
	}
	logger.Info("stopped by a signal")
	return nil
}

// endStreams ends every GET (a client's event stream, which lasts as long as the client keeps
// it open) when ctx ends. Shutdown waits for every request to finish: without this, a client
// that merely stays connected, as MCP clients do, held every stop for the whole shutdownGrace
// with no call in flight. Answers to calls come on their POSTs, which are left to finish.
func endStreams(ctx context.Context, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			rctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			defer context.AfterFunc(ctx, cancel)()
			r = r.WithContext(rctx)
		}
		h.ServeHTTP(w, r)
	})
}
