package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxPNGPeakRSS is the most memory `cadrun mcp` may ever hold (its peak resident set) after
// three pictures of the largest size in a row. A 8192 × 8192 picture is 256 MiB of pixels;
// before renders were budgeted and their memory given back, one such picture peaked at about
// 350 MB and the memory stayed with the server.
const maxPNGPeakRSS = 500 << 20

// TestMCPLargePNGMemory drives the real binary over stdio, asks for three 8,192-px pictures
// of a rectangle in a row, then three at once, and reads the server's peak resident set size
// (VmHWM) from /proc after each step.
func TestMCPLargePNGMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("six 8192-px pictures take a while")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to read the peak memory from")
	}
	dir := t.TempDir()
	bin := buildCadrun(t)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte("drawRect('r', 0, 0, 100, 100)\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var stderr strings.Builder
	cmd := exec.Command(bin, "mcp", "-workspace", ws)
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr:\n%s", err, stderr.String())
	}
	defer cs.Close()
	png := func(label string) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "scene", Arguments: map[string]any{"command": "png", "width": 8192}})
		if err != nil || res.IsError {
			t.Errorf("png %s: %v %+v", label, err, res)
			return
		}
		if img, ok := res.Content[0].(*mcp.ImageContent); !ok || !strings.HasPrefix(string(img.Data), "\x89PNG") {
			t.Errorf("png %s: no image content: %+v", label, res.Content)
		}
	}
	check := func(step string) {
		peak, err := peakRSS(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("peak RSS of cadrun mcp after %s: %d MB", step, peak>>20)
		if peak > maxPNGPeakRSS {
			t.Errorf("peak RSS after %s: %d MB, over %d MB", step, peak>>20, maxPNGPeakRSS>>20)
		}
	}
	for i := range 3 {
		png(fmt.Sprint(i))
		check(fmt.Sprintf("%d 8192-px pictures in a row", i+1))
	}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() { png(fmt.Sprint("concurrent ", i)) })
	}
	wg.Wait()
	check("3 more at once")
}

// peakRSS reads a process's peak resident set size (VmHWM), in bytes.
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}
