package main

// `cadrun mcp` over stdio as careless and hostile clients drive it: raw lines in, raw lines
// out, through the real binary.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	rawInit        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	rawInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// buildCadrun returns the real binary, built once for every test that needs a whole process
// (cliBinary); without a go command the test is skipped.
func buildCadrun(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the binary with")
	}
	bin, err := cliBinary()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	return bin
}

func rawCall(id int, tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// answers decodes every line of out.
func answers(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	var got []map[string]any
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line %.200q: %v", sc.Text(), err)
		}
		got = append(got, m)
	}
	return got
}

func ids(as []map[string]any) []any {
	var out []any
	for _, a := range as {
		out = append(out, a["id"])
	}
	return out
}

// TestMCPStdioAnswersBeforeEOF: a client that sends its requests and closes stdin at once
// (printf '...' | cadrun mcp) gets every answer, and cadrun exits 0.
func TestMCPStdioAnswersBeforeEOF(t *testing.T) {
	t.Parallel()
	bin := buildCadrun(t)
	cmd := exec.Command(bin, "mcp", "-workspace", filepath.Join(t.TempDir(), "ws"))
	cmd.Stdin = strings.NewReader(rawInit + "\n" + rawInitialized + "\n" + rawCall(2, "glob", map[string]any{}) + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cadrun mcp: %v\nstderr:\n%s", err, stderr.String())
	}
	got := answers(t, out)
	if diff := cmp.Diff([]any{float64(1), float64(2)}, ids(got)); diff != "" {
		t.Errorf("answered ids: mismatch (-want +got):\n%s\nstdout:\n%s", diff, out)
	}
}

// TestMCPStdioOversizeLine: a 5 MB line (over the 4 MiB cap) gets an error naming its id and
// the limit; the next call is served; nothing is written.
func TestMCPStdioOversizeLine(t *testing.T) {
	t.Parallel()
	bin := buildCadrun(t)
	ws := filepath.Join(t.TempDir(), "ws")
	big := `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"write","arguments":{"file":"main","code":"` +
		strings.Repeat("x", 5<<20) + `"}},"id":2}`
	cmd := exec.Command(bin, "mcp", "-workspace", ws)
	cmd.Stdin = strings.NewReader(rawInit + "\n" + rawInitialized + "\n" + big + "\n" + rawCall(3, "glob", map[string]any{}) + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cadrun mcp: %v\nstderr:\n%s", err, stderr.String())
	}
	got := answers(t, out)
	if len(got) != 3 {
		t.Fatalf("answers: %v, want 3\nstderr:\n%s", ids(got), stderr.String())
	}
	want := map[string]any{"jsonrpc": "2.0", "id": float64(2), "error": map[string]any{"code": float64(-32600),
		"message": fmt.Sprintf("the message is %d bytes, over the 4194304-byte limit on one message (MaxMessageBytes); it was skipped. Send smaller messages: a file is at most 500 KiB", len(big))}}
	if diff := cmp.Diff(want, got[1]); diff != "" {
		t.Errorf("the oversize call: mismatch (-want +got):\n%s", diff)
	}
	if got[2]["id"] != float64(3) || got[2]["result"] == nil {
		t.Errorf("the call after it: %v", got[2])
	}
	if _, err := os.Stat(filepath.Join(ws, "scene.code.js")); !os.IsNotExist(err) {
		t.Errorf("the skipped write landed: %v", err)
	}
}

// TestMCPStdioSIGTERMAnswersTheWrite: SIGTERM in the middle of a write stuck in a loop: the
// write is answered (not applied) before cadrun exits 0, and main is unchanged.
func TestMCPStdioSIGTERMAnswersTheWrite(t *testing.T) {
	t.Parallel()
	bin := buildCadrun(t)
	ws := t.TempDir()
	const before = "drawCircle('a', 0, 0, 1)\n"
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "-workspace", ws)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	io.WriteString(stdin, rawInit+"\n"+rawInitialized+"\n")
	if !lines.Scan() {
		t.Fatalf("no answer to initialize\nstderr:\n%s", stderr.String())
	}
	io.WriteString(stdin, rawCall(2, "write", map[string]any{"file": "main", "code": "for(;;){}\n"})+"\n")
	time.Sleep(500 * time.Millisecond) // inside the loop, which runs for 5 s unless stopped
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	err = cmd.Wait()
	t.Logf("exited %v after SIGTERM", time.Since(start))
	got := answers(t, rest)
	if len(got) != 1 || got[0]["id"] != float64(2) {
		t.Fatalf("answers after SIGTERM: %v, want the write's\nstderr:\n%s", got, stderr.String())
	}
	res, _ := got[0]["result"].(map[string]any)
	content, _ := res["content"].([]any)
	text := ""
	if len(content) == 1 {
		text, _ = content[0].(map[string]any)["text"].(string)
	}
	if res["isError"] != true || !strings.HasSuffix(text, "not applied; the file is unchanged") {
		t.Errorf("the write's answer: %v; want a tool error ending in 'not applied'", got[0])
	}
	if err != nil || !strings.Contains(stderr.String(), "stopped by a signal") {
		t.Errorf("exit: %v\nstderr:\n%s", err, stderr.String())
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "scene.code.js")); string(b) != before {
		t.Errorf("main after the stopped write: %q", b)
	}
	if slices.ContainsFunc(got, func(a map[string]any) bool { return a["error"] != nil }) {
		t.Errorf("a protocol error: %v", got)
	}
}

// TestMCPStdioClientGoneCancels: a client process that goes away (stdin and stdout both
// closed) in the middle of a write that would land cancels it instead: its answer could not
// arrive, so the change must not land. cadrun exits on its own.
func TestMCPStdioClientGoneCancels(t *testing.T) {
	t.Parallel()
	bin := buildCadrun(t)
	ws := t.TempDir()
	const before = "drawCircle('a', 0, 0, 1)\n"
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "-workspace", ws)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	io.WriteString(stdin, rawInit+"\n"+rawInitialized+"\n")
	if !lines.Scan() {
		t.Fatalf("no answer to initialize\nstderr:\n%s", stderr.String())
	}
	// About a second of work, then a change that would land.
	slow := "let t = 0; for (let i = 0; i < 2e6; i++) { t += i }\ndrawCircle('late', 0, 0, 1)\n"
	io.WriteString(stdin, rawCall(2, "write", map[string]any{"file": "main", "code": slow})+"\n")
	stdout.Close()
	stdin.Close()
	cmd.Wait()
	if b, _ := os.ReadFile(filepath.Join(ws, "scene.code.js")); string(b) != before {
		t.Errorf("main after the client went away: %q\nstderr:\n%s", b, stderr.String())
	}
	if !strings.Contains(stderr.String(), "the client is gone; cancelling the calls in flight") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
