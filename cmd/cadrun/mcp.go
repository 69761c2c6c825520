package main

// `cadrun mcp` serves the tools to one MCP client over stdio. stdout carries the JSON-RPC
// stream and nothing else: logs go to stderr through log/slog, and scripts run in worker
// processes whose own stdout is a pipe to this process.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

func runMCP(args []string, _, stderr io.Writer) error {
	fs := newFlags("mcp", "mcp [-workspace DIR]", stderr)
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun (created if missing)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
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
	logger.Info("serving MCP on stdio", "workspace", dir, "version", version)
	err = tools.NewMCPServer(srv, version).Run(ctx, &mcp.StdioTransport{})
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
