package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchServe: `cadrun watch -serve` shows each good run in the viewer, and a failed run
// as a diagnostic over the last good scene, as `cadrun mcp -serve` does for an agent.
func TestWatchServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildCadrun(t)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(ws, "scene.code.js")
	save := func(content string) { t.Helper(); saveAsEditor(t, main, content) }
	save("drawCircle('first', 0, 0, 1)\n")

	cmd := exec.Command(bin, "watch", "-workspace", ws, "-serve", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	base := viewerURL(t, stderr, "cadrun watch -serve") + "/"
	waitLine := func(prefix string) {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatal("cadrun watch ended")
				}
				if strings.HasPrefix(l, prefix) {
					return
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no line starting %q from cadrun watch", prefix)
			}
		}
	}
	get := func(path string) string {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
		}
		return string(b)
	}

	waitLine("ok  1 entities")
	save("drawCircle('first', 0, 0, 1)\ndrawRect('second', 0, 0, 4, 2)\n")
	waitLine("ok  2 entities")
	if svg := get("api/scene.svg"); !strings.Contains(svg, `data-name="second"`) {
		t.Errorf("the viewer's drawing after a good save lacks the new entity:\n%.400s", svg)
	}

	save("drawCircle('first', 0, 0, 1)\ndrawCirle('second', 0, 0, 1)\n")
	waitLine("scene.code.js:2:1: ReferenceError")
	// A tab that connects now gets the current state at once: the diagnostic over the last
	// good scene.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sawDiagnostic := false
	for sc.Scan() {
		l := sc.Text()
		if l == "event: diagnostic" {
			sawDiagnostic = true
		}
		if sawDiagnostic && strings.HasPrefix(l, "data:") {
			if !strings.Contains(l, "drawCirle is not defined") {
				t.Errorf("diagnostic event: %s", l)
			}
			break
		}
	}
	if !sawDiagnostic {
		t.Errorf("no diagnostic event for the failed run (%v)", sc.Err())
	}
	if svg := get("api/scene.svg"); !strings.Contains(svg, `data-name="second"`) {
		t.Errorf("the last good scene is not kept after a failed run:\n%.400s", svg)
	}
}
