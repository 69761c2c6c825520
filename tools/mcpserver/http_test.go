package mcpserver

// The HTTP listener's limits, driven with raw HTTP as hostile and careless clients would.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/journal"
	"github.com/cadrun/cadrun/runtime"

	"github.com/cadrun/cadrun/tools"
)

const httpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

// newHTTPHandler serves a workspace holding files over NewMCPHTTPHandler.
func newHTTPHandler(t *testing.T, opt HTTPOptions, ropt runtime.Options, files map[string]string) (http.Handler, string) {
	t.Helper()
	ws, dir := newWorkspace(t, files)
	return NewHTTPHandler(New(tools.NewServer(context.Background(), ws, runtime.InProcess{}, ropt), "test"), opt), dir
}

// post sends one JSON-RPC message; it returns the response with its body read.
func post(t *testing.T, ctx context.Context, url, session, token, body string) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// initSession starts an MCP session over raw HTTP and returns its id.
func initSession(t *testing.T, url, token string) string {
	t.Helper()
	resp, body, err := post(t, context.Background(), url, "", token, httpInit)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %v %v %s", err, resp, body)
	}
	id := resp.Header.Get("Mcp-Session-Id")
	if resp, body, err := post(t, context.Background(), url, id, token, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %v %v %s", err, resp, body)
	}
	return id
}

// TestHTTPBearerSchemeAnyCase: "bearer", "BEARER" and "Bearer" are one scheme; a refusal
// closes the connection.
func TestHTTPBearerSchemeAnyCase(t *testing.T) {
	t.Parallel()
	h, _ := newHTTPHandler(t, HTTPOptions{Token: "s3cret"}, runtime.Options{}, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	for _, tc := range []struct {
		auth string
		want int
	}{
		{"Bearer s3cret", http.StatusOK},
		{"bearer s3cret", http.StatusOK},
		{"BEARER  s3cret", http.StatusOK},
		{"Basic s3cret", http.StatusUnauthorized},
		{"bearer s3cre", http.StatusUnauthorized},
		{"bearers3cret", http.StatusUnauthorized},
	} {
		resp, body, err := post(t, context.Background(), hs.URL, "", tc.auth, httpInit)
		if err != nil {
			t.Fatalf("%q: %v", tc.auth, err)
		}
		if resp.StatusCode != tc.want {
			t.Errorf("Authorization %q: status %d (%s), want %d", tc.auth, resp.StatusCode, body, tc.want)
		}
		if tc.want == http.StatusUnauthorized && !resp.Close {
			t.Errorf("Authorization %q: the refusal keeps the connection open", tc.auth)
		}
	}
}

// TestHTTPWrongTokensAreSlowedDown: from a remote address, the sixth wrong token in a row
// makes the next requests 429 with Retry-After, the right token included, without a look at
// the token; a request with no token at all is no guess and does not count.
func TestHTTPWrongTokensAreSlowedDown(t *testing.T) {
	t.Parallel()
	h, _ := newHTTPHandler(t, HTTPOptions{Token: "s3cret"}, runtime.Options{}, nil)
	do := func(auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8765/", strings.NewReader(httpInit))
		req.RemoteAddr = "203.0.113.7:40000"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for range 10 {
		if rec := do(""); rec.Code != http.StatusUnauthorized {
			t.Fatalf("no token: %d", rec.Code)
		}
	}
	for i := range 6 { // five free wrong tokens, and the one that starts the refusal
		if rec := do("Bearer guess"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := do("Bearer s3cret")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("the right token during the refusal: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	if want := "too many requests: 6 wrong tokens in a row from this address; try again in 1s\n"; rec.Body.String() != want {
		t.Errorf("body %q, want %q", rec.Body.String(), want)
	}
}

// TestHTTPSessionCap: past MaxSessions a new session is refused with 503 naming the limit;
// closing one makes room.
func TestHTTPSessionCap(t *testing.T) {
	t.Parallel()
	h, _ := newHTTPHandler(t, HTTPOptions{MaxSessions: 2}, runtime.Options{}, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	first := initSession(t, hs.URL, "")
	initSession(t, hs.URL, "")
	resp, body, err := post(t, context.Background(), hs.URL, "", "", httpInit)
	if err != nil {
		t.Fatal(err)
	}
	want := "too many MCP sessions: 2 are open, the limit is 2 (-max-sessions); close sessions you no longer use (HTTP DELETE), or wait: a session closes after 10m0s without a request\n"
	if resp.StatusCode != http.StatusServiceUnavailable || body != want {
		t.Errorf("a third session: %d %q, want 503 %q", resp.StatusCode, body, want)
	}
	req, _ := http.NewRequest("DELETE", hs.URL, nil)
	req.Header.Set("Mcp-Session-Id", first)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", err, resp)
	}
	initSession(t, hs.URL, "")
}

// TestHTTPJournalAPIAtTheSessionCap: the journal's API opens no MCP session, so a save and a
// search are answered when every session is taken.
func TestHTTPJournalAPIAtTheSessionCap(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, nil)
	srv := tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	t.Cleanup(srv.CloseJournal)
	h := NewHTTPHandler(New(srv, "test"), HTTPOptions{MaxSessions: 1, API: tools.NewJournalAPI(srv)})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	initSession(t, hs.URL, "")
	resp, body, err := post(t, context.Background(), hs.URL+"/api/save", "", "", `{"title":"at the cap","text":"saved all the same"}`)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"id":1`) {
		t.Errorf("POST /api/save with every session taken: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(hs.URL + "/api/search?query=cap")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"title":"at the cap"`) {
		t.Errorf("GET /api/search with every session taken: %d %s", resp.StatusCode, b)
	}
}

// TestHTTPMessageOverTheLimit: a message over MaxMessageBytes is refused 413 with the words
// stdio answers it with, naming the limit.
func TestHTTPMessageOverTheLimit(t *testing.T) {
	t.Parallel()
	h, _ := newHTTPHandler(t, HTTPOptions{}, runtime.Options{}, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write","arguments":{"file":"main","code":"` +
		strings.Repeat("x", MaxMessageBytes) + `"}}}`
	resp, body, err := post(t, context.Background(), hs.URL, "", "", big)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the message is %d bytes, over the 4194304-byte limit on one message (MaxMessageBytes). Send smaller messages: a file is at most 500 KiB\n", len(big))
	if resp.StatusCode != http.StatusRequestEntityTooLarge || body != want {
		t.Errorf("a message over the limit: %d %q, want 413 %q", resp.StatusCode, body, want)
	}
}

// TestHTTPJournalAPIRefusesAForeignHost: on a loopback listener the journal's API, like MCP,
// refuses a Host that is not loopback (a page whose name was rebound to 127.0.0.1 sends its
// own name, and an Origin that matches it).
func TestHTTPJournalAPIRefusesAForeignHost(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, nil)
	srv := tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	t.Cleanup(srv.CloseJournal)
	hs := httptest.NewServer(NewHTTPHandler(New(srv, "test"), HTTPOptions{API: tools.NewJournalAPI(srv)}))
	t.Cleanup(hs.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(hs.URL, "http://"))
	for _, tc := range []struct {
		method, path, host string
		status             int
	}{
		{"GET", "/api/search", "evil.example:" + port, http.StatusForbidden},
		{"POST", "/api/save", "evil.example:" + port, http.StatusForbidden},
		{"GET", "/api/search", "localhost:" + port, http.StatusOK},
		{"GET", "/api/search", "127.0.0.1:" + port, http.StatusOK},
	} {
		req, _ := http.NewRequest(tc.method, hs.URL+tc.path, strings.NewReader(`{"title":"t","text":"x"}`))
		req.Host = tc.host
		req.Header.Set("Origin", "http://"+tc.host)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s with Host %s: %d %s; want %d", tc.method, tc.path, tc.host, resp.StatusCode, b, tc.status)
		}
	}
	if out, err := srv.Search(context.Background(), &journal.Query{}); err != nil || len(out.Entries) != 0 {
		t.Errorf("the journal after the refused save: %+v, %v", out.Entries, err)
	}
}

// TestSDKInfoLogsAreDebug: the SDK's per-session INFO lines go out at DEBUG; warnings stay.
func TestSDKInfoLogsAreDebug(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	l := sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})))
	l.Info("server session connected", "session_id", "x")
	l.Warn("something")
	if got, want := buf.String(), "level=WARN msg=something\n"; got != want {
		t.Errorf("logged %q, want %q", got, want)
	}
	buf.Reset()
	l = sdkLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Info("server session connected")
	if !strings.Contains(buf.String(), "level=DEBUG msg=\"server session connected\"") {
		t.Errorf("at debug level: %q", buf.String())
	}
}

// TestHTTPDroppedConnectionCancelsTheCall: a client that closes its connection in the middle
// of a write (a long loop that would land) cancels it: the write does not land, and the next
// change, which needs the lock the first held, goes through at once.
func TestHTTPDroppedConnectionCancelsTheCall(t *testing.T) {
	t.Parallel()
	const before = "drawCircle('a', 0, 0, 1)\n"
	h, dir := newHTTPHandler(t, HTTPOptions{}, runtime.Options{Limits: runtime.Limits{Timeout: time.Minute}}, map[string]string{"scene.code.js": before})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	session := initSession(t, hs.URL, "")

	ctx, drop := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, drop) // the client goes away mid-run
	slow := "let t = 0; for (let i = 0; i < 3e8; i++) { t += i } drawCircle('late', 0, 0, 1)\n"
	if _, _, err := post(t, ctx, hs.URL, session, "", rpcCall(2, "write", map[string]any{"file": "main", "code": slow})); err == nil {
		t.Fatal("the dropped request answered")
	}
	start := time.Now()
	other := initSession(t, hs.URL, "")
	resp, body, err := post(t, context.Background(), hs.URL, other, "", rpcCall(2, "write", map[string]any{"file": "m", "code": "export const x = 1\n"}))
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, `"entities":1`) {
		t.Fatalf("the next write: %v %v %s", err, resp, body)
	}
	t.Logf("the next write answered %v after the drop", time.Since(start))
	if got := fileBytes(t, dir, "scene.code.js"); got != before {
		t.Errorf("main after the dropped write: %q", got)
	}
}

func rpcCall(id int, tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// TestHTTPConnectionFlood: 20,000 hostile connections are tried (connections that send
// nothing, half a header, or a request without the token and then sit idle), while a client
// with the token connects, initializes and calls a tool. It gets in; the time it took is
// logged (run with -v to see it).
func TestHTTPConnectionFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 connections")
	}
	h, _ := newHTTPHandler(t, HTTPOptions{Token: "tok"}, runtime.Options{}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs, lim := NewHTTPServer(ln, h, 0)
	go hs.Serve(lim)
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()
	url := "http://" + addr

	// The same client without a flood, for comparison.
	baseline := tokenClientTime(t, url)

	// 64 hostile clients each keep their last 16 connections open (1,024 at a time, four
	// times the server's cap) and dial the next one at once.
	const total, workers, held = 20000, 64, 16
	var tried, refusedByServer atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var ring []net.Conn
			defer func() {
				for _, c := range ring {
					c.Close()
				}
			}()
			for i := w; i < total; i += workers {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.Dial("tcp", addr)
				tried.Add(1)
				if err != nil {
					refusedByServer.Add(1)
					continue
				}
				switch i % 3 {
				case 0: // nothing at all
				case 1: // half a header
					io.WriteString(c, "POST / HTTP/1.1\r\nHost: "+addr+"\r\n")
				case 2: // a request without the token, then idle
					io.WriteString(c, "POST / HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
				}
				ring = append(ring, c)
				if len(ring) > held {
					ring[0].Close()
					ring = ring[1:]
				}
			}
		})
	}
	for tried.Load() < total/4 {
		time.Sleep(10 * time.Millisecond)
	}
	took := tokenClientTime(t, url)
	during := tried.Load()
	wg.Wait()
	close(stop)
	evicted, refused := lim.Stats()
	t.Logf("the client with the token connected and called glob in %v (%v without the flood), with %d hostile connections tried by then (%d in all); the server closed %d idle ones to make room and refused %d; %d dials failed",
		took, baseline, during, tried.Load(), evicted, refused, refusedByServer.Load())
}

// tokenClientTime connects a client with the token, initializes and calls glob; it returns
// how long that took.
func tokenClientTime(t *testing.T, url string) time.Duration {
	t.Helper()
	start := time.Now()
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: &http.Client{Transport: bearerRT{"tok"}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "token", Version: "v0"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("the client with the token could not connect after %v: %v", time.Since(start), err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "glob", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("glob: %v %+v", err, res)
	}
	return time.Since(start)
}

type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPIdleAndSlowConnectionsAreClosed: a connection that sends half a header, one that
// sends its request body too slowly, and a keep-alive connection left idle are closed by the
// server's read and idle timeouts.
func TestHTTPIdleAndSlowConnectionsAreClosed(t *testing.T) {
	t.Parallel()
	h, _ := newHTTPHandler(t, HTTPOptions{}, runtime.Options{}, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs, lim := NewHTTPServer(ln, h, 0)
	// Shorter timeouts than the real ones, so that the test need not wait 10 s.
	hs.ReadHeaderTimeout, hs.ReadTimeout, hs.IdleTimeout = 200*time.Millisecond, 400*time.Millisecond, 300*time.Millisecond
	go hs.Serve(lim)
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: "+addr+"\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, c); err != nil {
		t.Errorf("half a header: the server did not close the connection: %v", err)
	}

	c2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	fmt.Fprintf(c2, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n{", addr, len(httpInit))
	c2.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c2), nil)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("a body that never came: status %d", resp.StatusCode)
		}
	}
	if _, err := io.Copy(io.Discard, c2); err != nil {
		t.Errorf("slow body: the server did not close the connection: %v", err)
	}

	// A keep-alive connection left idle after a whole request and answer.
	c3, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	fmt.Fprintf(c3, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(httpInit), httpInit)
	c3.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(c3)
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("initialize: %d, close %t", resp.StatusCode, resp.Close)
	}
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Errorf("idle keep-alive: the server did not close the connection: %v", err)
	}
}

// TestHTTPIdleSessionIsReaped: a session without a request for SessionIdle is closed; its
// client gets 404 and may start a new one, and the closed session no longer counts against
// the cap.
func TestHTTPIdleSessionIsReaped(t *testing.T) {
	t.Parallel()
	h, _ := newHTTPHandler(t, HTTPOptions{MaxSessions: 1, SessionIdle: 100 * time.Millisecond}, runtime.Options{}, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	id := initSession(t, hs.URL, "")
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, _, err := post(t, context.Background(), hs.URL, id, "", rpcCall(5, "glob", map[string]any{}))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle session still answers %d after 10 s", resp.StatusCode)
		}
		time.Sleep(150 * time.Millisecond) // idle for longer than SessionIdle
	}
	initSession(t, hs.URL, "") // room again under a cap of one
}

// TestHTTPJournalAPIRefusalsAreJSON: the checks before the journal's API (origin, token)
// refuse in the API's own form, {"error": "..."}, as docs/journal.md promises; MCP's paths
// keep plain text.
func TestHTTPJournalAPIRefusalsAreJSON(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, nil)
	srv := tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	t.Cleanup(srv.CloseJournal)
	hs := httptest.NewServer(NewHTTPHandler(New(srv, "test"), HTTPOptions{Token: "s3cret", API: tools.NewJournalAPI(srv)}))
	t.Cleanup(hs.Close)
	for _, tc := range []struct {
		path, origin, wantType, wantBody string
		status                           int
	}{
		{"/api/search", "", "application/json", `{"error":"unauthorized: send Authorization: Bearer TOKEN"}` + "\n", http.StatusUnauthorized},
		{"/api/search", "http://evil.example", "application/json", `{"error":"forbidden: origin \"http://evil.example\" is not this server"}` + "\n", http.StatusForbidden},
		{"/mcp", "", "text/plain; charset=utf-8", "unauthorized: send Authorization: Bearer TOKEN\n", http.StatusUnauthorized},
	} {
		req, _ := http.NewRequest("GET", hs.URL+tc.path, nil)
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.wantType || string(b) != tc.wantBody {
			t.Errorf("GET %s: %d %q %q; want %d %q %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), b, tc.status, tc.wantType, tc.wantBody)
		}
	}
}

// TestJournalAPISearchParameterTwice: a search parameter given twice is refused naming it,
// where the first was used and the second dropped; id alone repeats.
func TestJournalAPISearchParameterTwice(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, nil)
	srv := tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	t.Cleanup(srv.CloseJournal)
	hs := httptest.NewServer(tools.NewJournalAPI(srv))
	t.Cleanup(hs.Close)
	for _, tc := range []struct {
		query string
		code  int
		body  string
	}{
		{"query=a&query=b", 400, `{"error":"bad input: search: query is given 2 times; give it once (only id may repeat)"}`},
		{"id=1&id=2", 200, `{"entries":[],"missing":[1,2]}`},
	} {
		resp, err := http.Get(hs.URL + "/api/search?" + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || strings.TrimSpace(string(b)) != tc.body {
			t.Errorf("%s: %d %s; want %d %s", tc.query, resp.StatusCode, b, tc.code, tc.body)
		}
	}
}
