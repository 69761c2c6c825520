package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
	"github.com/cadrun/cadrun/tools/mcpserver"
)

func TestHTTPAddr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr, token, want, err string
	}{
		{addr: ":8765", want: "127.0.0.1:8765"},
		{addr: "127.0.0.1:0", want: "127.0.0.1:0"},
		{addr: "localhost:8765", want: "localhost:8765"},
		{addr: "[::1]:8765", want: "[::1]:8765"},
		{addr: "0.0.0.0:8765", err: `-http "0.0.0.0:8765" is not a loopback address`},
		{addr: "example.com:8765", err: "is not a loopback address"},
		{addr: "0.0.0.0:8765", token: "t", want: "0.0.0.0:8765"},
		{addr: "8765", err: `-http "8765": want host:port or :port`},
	} {
		got, err := httpAddr(tc.addr, tc.token)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("httpAddr(%q, %q) = %q, %v; want an error containing %q", tc.addr, tc.token, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("httpAddr(%q, %q) = %q, %v; want %q", tc.addr, tc.token, got, err, tc.want)
		}
	}
}

// TestMCPHTTPNeedsTokenOffLoopback: a non-loopback listener without a token does not start.
func TestMCPHTTPNeedsTokenOffLoopback(t *testing.T) {
	t.Setenv(tokenEnv, "")
	var stdout, stderr strings.Builder
	ws := filepath.Join(t.TempDir(), "ws")
	code := run([]string{"mcp", "-workspace", ws, "-http", "0.0.0.0:0"}, &stdout, &stderr)
	if code != 2 || !strings.Contains(stderr.String(), "is not a loopback address") || !strings.Contains(stderr.String(), tokenEnv) {
		t.Errorf("exit %d, stderr %q; want 2 and the reason", code, stderr.String())
	}
	if _, err := os.Stat(ws); !os.IsNotExist(err) {
		t.Errorf("the workspace was created before the refusal: %v", err)
	}
	if code := run([]string{"mcp", "-token", "t"}, &stdout, &stderr); code != 2 {
		t.Errorf("-token without -http: exit %d, want 2", code)
	}
}

// TestMCPHTTPRefusesABlankToken: a token of spaces (from -token or the environment) is
// refused at start, with the reason, before anything is created.
func TestMCPHTTPRefusesABlankToken(t *testing.T) {
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{env: "   ", want: "cadrun mcp: $" + tokenEnv + ": the token is only whitespace; choose a token of visible characters (for example: openssl rand -hex 32)\n"},
		{args: []string{"-token", " \t"}, want: "cadrun mcp: -token: the token is only whitespace; choose a token of visible characters (for example: openssl rand -hex 32)\n"},
	} {
		t.Setenv(tokenEnv, tc.env)
		var stdout, stderr strings.Builder
		ws := filepath.Join(t.TempDir(), "ws")
		args := append([]string{"mcp", "-workspace", ws, "-http", "0.0.0.0:0"}, tc.args...)
		if code := run(args, &stdout, &stderr); code != 2 || stderr.String() != tc.want {
			t.Errorf("run(%q) = %d, stderr %q; want 2 and %q", args, code, stderr.String(), tc.want)
		}
		if _, err := os.Stat(ws); !os.IsNotExist(err) {
			t.Errorf("the workspace was created before the refusal: %v", err)
		}
	}
}

// newHTTPMCP serves a fresh workspace holding files over httptest (a loopback listener).
func newHTTPMCP(t *testing.T, token string, opt runtime.Options, files map[string]string) (url, dir string) {
	t.Helper()
	dir = t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	srv := tools.NewServer(context.Background(), w, runtime.InProcess{}, opt)
	hs := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.New(srv, "test"), mcpserver.HTTPOptions{Token: token}))
	t.Cleanup(hs.Close)
	return hs.URL, dir
}

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connectHTTP(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token, http.DefaultTransport}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callHTTP(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: %+v", tool, args, res.Content)
	}
	return res
}

func warnings(t *testing.T, res *mcp.CallToolResult) []string {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.Warnings
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}`

// TestMCPHTTPRefusals: the checks in front of the SDK's handler, one request each.
func TestMCPHTTPRefusals(t *testing.T) {
	t.Parallel()
	url, _ := newHTTPMCP(t, "s3cret", runtime.Options{}, nil)
	for _, tc := range []struct {
		name   string
		header map[string]string
		host   string
		body   string
		want   int
	}{
		{name: "no token", want: http.StatusUnauthorized},
		{name: "wrong token", header: map[string]string{"Authorization": "Bearer s3cre"}, want: http.StatusUnauthorized},
		{name: "token without Bearer", header: map[string]string{"Authorization": "s3cret"}, want: http.StatusUnauthorized},
		{name: "foreign origin", header: map[string]string{"Authorization": "Bearer s3cret", "Origin": "http://evil.example"}, want: http.StatusForbidden},
		{name: "null origin", header: map[string]string{"Authorization": "Bearer s3cret", "Origin": "null"}, want: http.StatusForbidden},
		{name: "foreign host (DNS rebinding)", header: map[string]string{"Authorization": "Bearer s3cret"}, host: "evil.example:80", want: http.StatusForbidden},
		{name: "body over 4 MiB", header: map[string]string{"Authorization": "Bearer s3cret"}, body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", 5<<20) + `"}}`, want: http.StatusRequestEntityTooLarge},
		{name: "ok", header: map[string]string{"Authorization": "Bearer s3cret"}, want: http.StatusOK},
		{name: "ok from a loopback origin", header: map[string]string{"Authorization": "Bearer s3cret", "Origin": "http://localhost:6274"}, want: http.StatusOK},
	} {
		body := tc.body
		if body == "" {
			body = initialize
		}
		req, err := http.NewRequest("POST", url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d (%s), want %d", tc.name, resp.StatusCode, msg, tc.want)
		}
		if tc.want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", tc.name, resp.Header.Get("WWW-Authenticate"))
		}
	}
}

// TestMCPHTTPClients: two clients over HTTP are two sessions (read tracking apart), and their
// concurrent writes are serialised: the file is one of the two and the scene matches it.
func TestMCPHTTPClients(t *testing.T) {
	t.Parallel()
	url, dir := newHTTPMCP(t, "", runtime.Options{}, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	reader, other := connectHTTP(t, url, ""), connectHTTP(t, url, "")

	callHTTP(t, reader, "read", map[string]any{"file": "main"})
	if w := warnings(t, callHTTP(t, reader, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 2)\n"})); len(w) != 0 {
		t.Errorf("the client that read main got warnings %q", w)
	}
	if w := warnings(t, callHTTP(t, other, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 3)\n"})); len(w) != 1 || w[0] != tools.OverwriteWarning {
		t.Errorf("the client that did not read main: warnings %q, want the overwrite warning", w)
	}

	// Two new clients that have not read main (a client that read it would be refused as
	// stale once the other's write lands; that is the read tracking, not the lock, at work).
	codes := map[string]string{"one": "drawCircle('one', 0, 0, 1)\n", "two": "drawRect('two', 0, 0, 2, 2)\n"}
	var wg sync.WaitGroup
	for i, cs := range []*mcp.ClientSession{connectHTTP(t, url, ""), connectHTTP(t, url, "")} {
		code := codes[[]string{"one", "two"}[i]]
		wg.Go(func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file": "main", "code": code}})
			switch {
			case err != nil:
				t.Errorf("concurrent write %q: %v", code, err)
			case res.IsError:
				t.Errorf("concurrent write %q: %+v", code, res.Content[0])
			}
		})
	}
	wg.Wait()
	b, err := os.ReadFile(filepath.Join(dir, "scene.code.js"))
	if err != nil {
		t.Fatal(err)
	}
	var landed string
	for name, code := range codes {
		if string(b) == code {
			landed = name
		}
	}
	if landed == "" {
		t.Fatalf("main after two concurrent writes is neither: %q", b)
	}
	res := callHTTP(t, reader, "scene", map[string]any{"command": "json"})
	sceneJSON := res.Content[0].(*mcp.TextContent).Text
	for name := range codes {
		if has := strings.Contains(sceneJSON, `"`+name+`"`); has != (name == landed) {
			t.Errorf("main holds %q but the scene has %q: %t\n%.300s", landed, name, has, sceneJSON)
		}
	}
}

// TestMCPHTTPCancel: over HTTP too, a client's cancel stops a stuck run at once, and the file
// is unchanged.
func TestMCPHTTPCancel(t *testing.T) {
	t.Parallel()
	const before = "drawCircle('a', 0, 0, 1)\n"
	url, dir := newHTTPMCP(t, "", runtime.Options{Limits: runtime.Limits{Timeout: time.Minute}}, map[string]string{"scene.code.js": before})
	cs := connectHTTP(t, url, "")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file": "main", "code": "for(;;){}"}})
	if err == nil {
		t.Fatal("the cancelled write succeeded")
	}
	// The client answers at once; the server's run must end too, which the next write shows:
	// it needs the workspace lock the stuck write held.
	callHTTP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('b', 0, 0, 1)\n"})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("cancel and the next write took %v; the stuck run was not stopped", took)
	}
	b, err := os.ReadFile(filepath.Join(dir, "scene.code.js"))
	if err != nil || string(b) != "drawCircle('b', 0, 0, 1)\n" {
		t.Errorf("main: %q, %v", b, err)
	}
}

// TestMCPOverHTTPBinary drives the real binary over HTTP with a token: it starts on a port
// of its choosing, logs the URL, serves a client, and stops cleanly on SIGINT.
func TestMCPOverHTTPBinary(t *testing.T) {
	t.Parallel()
	b := startMCPHTTP(t, tokenEnv+"=tok")
	url := b.url

	resp, err := http.Post(url, "application/json", strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: status %d, want 401", resp.StatusCode)
	}
	cs := connectHTTP(t, url, "tok")
	callHTTP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 1)\n"})
	cs.Close()

	log, err := b.stop(t)
	if err != nil || !strings.Contains(log, "stopped by a signal") || strings.Contains(log, "tok ") {
		t.Errorf("cadrun mcp -http: %v\nstderr:\n%s", err, log)
	}
}

// TestMCPHTTPStopsWithAClientConnected: a client that stays connected (its event stream open,
// no call in flight) does not hold the binary's stop for the shutdown grace: the stream is
// ended at the signal and the server stops with every request finished.
func TestMCPHTTPStopsWithAClientConnected(t *testing.T) {
	t.Parallel()
	b := startMCPHTTP(t)
	url := b.url
	cs := connectHTTP(t, url, "")
	callHTTP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 1)\n"})
	// The client's event stream (a GET) is open, as after any connect; the session stays.
	log, err := b.stop(t)
	if err != nil || !strings.Contains(log, "stopped by a signal") || strings.Contains(log, "before every request had finished") {
		t.Errorf("cadrun mcp -http stopped with a client connected: %v\nstderr:\n%s", err, log)
	}
}

// httpBinary is the real binary serving MCP over HTTP on a port of its choosing, at url.
type httpBinary struct {
	cmd     *exec.Cmd
	url     string
	drained chan struct{} // closed once its stderr has ended
	mu      sync.Mutex
	log     strings.Builder
}

// startMCPHTTP starts `cadrun mcp -http 127.0.0.1:0` on a new workspace, with env added to
// this process's environment, and waits for the URL it logs.
func startMCPHTTP(t *testing.T, env ...string) *httpBinary {
	t.Helper()
	cmd := exec.Command(buildCadrun(t), "mcp", "-workspace", filepath.Join(t.TempDir(), "ws"), "-http", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	b := &httpBinary{cmd: cmd, drained: make(chan struct{})}
	urls := make(chan string, 1)
	go func() {
		defer close(b.drained)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			b.mu.Lock()
			b.log.WriteString(sc.Text() + "\n")
			b.mu.Unlock()
			if _, rest, ok := strings.Cut(sc.Text(), " url="); ok {
				urls <- strings.Fields(rest)[0]
			}
		}
	}()
	select {
	case b.url = <-urls:
	case <-time.After(30 * time.Second):
		t.Fatal("no URL logged")
	}
	return b
}

// stop sends SIGINT and waits for the binary to end: its stderr, and its exit error.
func (b *httpBinary) stop(t *testing.T) (string, error) {
	t.Helper()
	if err := b.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-b.drained
	err := b.cmd.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.log.String(), err
}
