package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPOverStdio builds the real binary and drives `cadrun mcp` as an MCP client would:
// initialize, list the tools, write main, look at the scene, then close stdin and expect a
// clean exit.
func TestMCPOverStdio(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildCadrun(t)
	ws := filepath.Join(dir, "ws") // missing: cadrun mcp creates it

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr strings.Builder
	cmd := exec.Command(bin, "mcp", "-workspace", ws)
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr:\n%s", err, stderr.String())
	}
	if got := cs.InitializeResult(); got.ServerInfo.Name != "cadrun" || !strings.Contains(got.Instructions, "Y points up") {
		t.Errorf("initialize: server %+v, instructions %q", got.ServerInfo, got.Instructions)
	}

	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"glob", "read", "write", "edit", "move", "delete", "scene"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{
		"file": "main", "code": "drawCircle('a', 0, 0, 1)\ndrawRect('b', 5, 0, 2, 2)\n"}})
	if err != nil || res.IsError {
		t.Fatalf("write: %v %+v", err, res)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "scene.code.js")); err != nil || !strings.Contains(string(b), "drawRect") {
		t.Errorf("scene.code.js after the write: %q, %v", b, err)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "scene", Arguments: map[string]any{"command": "info"}})
	if err != nil || res.IsError {
		t.Fatalf("scene info: %v %+v", err, res)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Info struct {
			Entities int `json:"entities"`
		} `json:"info"`
	}
	if err := json.Unmarshal(b, &info); err != nil || info.Info.Entities != 2 {
		t.Errorf("scene info: %s (%v)", b, err)
	}

	// Closing the client closes the server's stdin: the server must exit on its own, cleanly.
	if err := cs.Close(); err != nil {
		t.Errorf("closing: %v\nstderr:\n%s", err, stderr.String())
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() || !strings.Contains(stderr.String(), "the client closed stdin; exiting") {
		t.Errorf("cadrun mcp did not exit cleanly: %v\nstderr:\n%s", cmd.ProcessState, stderr.String())
	}
}

func TestMCPUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"mcp", "extra"}, {"mcp", "-bogus"}} {
		var stdout, stderr strings.Builder
		if code := run(args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "usage: cadrun mcp [-workspace DIR]") {
			t.Errorf("run(%q) = %d, stderr %q; want 2 and the usage", args, code, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("run(%q) wrote to stdout: %q", args, stdout.String())
		}
	}
}
