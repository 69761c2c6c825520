package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInteropTypeScriptSDK drives `cadrun mcp` over stdio with the official MCP TypeScript SDK
// (.tools/mcp-interop.mjs): a client written by someone else must list the tools, write main,
// see the scene as a PNG image, and get a failing write back as a tool error. `make deps`
// installs the SDK; CI (CADRUN_REQUIRE_TOOLS=1) fails instead of skipping without it.
func TestInteropTypeScriptSDK(t *testing.T) {
	t.Parallel()
	script, err := filepath.Abs(filepath.Join("..", "..", ".tools", "mcp-interop.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	sdk := filepath.Join(filepath.Dir(script), "node_modules", "@modelcontextprotocol", "sdk")
	node, nodeErr := exec.LookPath("node")
	_, sdkErr := os.Stat(sdk)
	var missing []string
	if nodeErr != nil {
		missing = append(missing, "node (Node 20 or later) on PATH")
	}
	if sdkErr != nil {
		missing = append(missing, ".tools/node_modules/@modelcontextprotocol/sdk")
	}
	if len(missing) > 0 {
		msg := "missing " + strings.Join(missing, " and ") + "; run make deps"
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}

	dir := t.TempDir()
	bin := buildCadrun(t)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, bin, filepath.Join(dir, "ws"))
	cmd.Dir = filepath.Dir(script)
	cmd.WaitDelay = 5 * time.Second // the script's child (cadrun) may hold the pipes open
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node mcp-interop.mjs: %v (context: %v)\n%s", err, ctx.Err(), out)
	}
	if !strings.HasPrefix(string(out), `{"ok":true`) {
		t.Errorf("node mcp-interop.mjs succeeded but printed:\n%s", out)
	}
	t.Logf("%s", out)
}
