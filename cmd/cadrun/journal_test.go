package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
	"github.com/cadrun/cadrun/tools/mcpserver"
)

// TestJournalEndToEnd saves over MCP, then finds the entry over MCP, the CLI and HTTP; the
// HTTP API answers bad input with 400 naming the field, and sits behind the token.
func TestJournalEndToEnd(t *testing.T) {
	dir := t.TempDir()
	w, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	srv := tools.NewServer(context.Background(), w, runtime.InProcess{}, runtime.Options{})
	const token = "s3cret"
	hs := httptest.NewServer(mcpserver.NewHTTPHandler(mcpserver.New(srv, "test"), mcpserver.HTTPOptions{Token: token, API: tools.NewJournalAPI(srv)}))
	t.Cleanup(hs.Close)

	cs := connectHTTP(t, hs.URL, token)
	res := callHTTP(t, cs, "save", map[string]any{"title": "Stair rise", "text": "Risers are 175 mm so that the stair meets the code", "type": "decision"})
	var saved struct {
		ID int64 `json:"id"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &saved)
	if saved.ID != 1 {
		t.Fatalf("save answered %s", b)
	}
	ids := func(b []byte) []int64 {
		var out struct {
			Entries []struct {
				ID int64 `json:"id"`
			} `json:"entries"`
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var l []int64
		for _, e := range out.Entries {
			l = append(l, e.ID)
		}
		return l
	}

	// MCP
	res = callHTTP(t, cs, "search", map[string]any{"query": "risers"})
	b, _ = json.Marshal(res.StructuredContent)
	if diff := cmp.Diff([]int64{1}, ids(b)); diff != "" {
		t.Errorf("MCP search: mismatch (-want +got):\n%s", diff)
	}
	// CLI, another process's view of the same database
	var stdout, stderr bytes.Buffer
	if code := run([]string{"tool", "search", "--workspace", dir, "--params", `{"query":"risers"}`}, &stdout, &stderr); code != 0 {
		t.Fatalf("cadrun tool search: exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	var reply struct {
		Data json.RawMessage `json:"data"`
	}
	json.Unmarshal(stdout.Bytes(), &reply)
	if diff := cmp.Diff([]int64{1}, ids(reply.Data)); diff != "" {
		t.Errorf("CLI search: mismatch (-want +got):\n%s", diff)
	}
	// HTTP
	do := func(method, path, body, tok string) (int, []byte) {
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	code, body := do("GET", "/api/search?query=risers", "", token)
	if code != 200 || !cmp.Equal(ids(body), []int64{1}) {
		t.Errorf("GET /api/search: %d %s", code, body)
	}
	code, body = do("POST", "/api/save", `{"title":"Handrail","text":"900 mm high","concepts":["stair"]}`, token)
	if code != 200 || !strings.Contains(string(body), `"id":2`) {
		t.Errorf("POST /api/save: %d %s", code, body)
	}
	res = callHTTP(t, cs, "search", map[string]any{"concept": "stair"})
	b, _ = json.Marshal(res.StructuredContent)
	if diff := cmp.Diff([]int64{2}, ids(b)); diff != "" {
		t.Errorf("MCP search after an HTTP save: mismatch (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		method, path, body, token string
		code                      int
		want                      string
	}{
		{"POST", "/api/save", `{"text":"x"}`, token, 400, `{"error":"bad input: save: title is required: give the observation a short title"}`},
		{"POST", "/api/save", `{"title":"t","text":"x","type":"idea"}`, token, 400, `{"error":"bad input: save: type \"idea\" is not one of decision, bugfix, feature, refactor, discovery, change"}`},
		{"GET", "/api/search?limit=x", "", token, 400, `{"error":"bad input: search: limit must be an integer, got \"x\""}`},
		{"GET", "/api/search?q=x", "", token, 400, `{"error":"bad input: search: unknown parameter \"q\"; the parameters are query, type, project, concept, memory_session_id, since, until, limit, id"}`},
		{"GET", "/api/search?limit=500", "", token, 400, `{"error":"bad input: search: limit 500 is over 100 (MaxSearchLimit); page with until"}`},
		{"GET", "/api/save", "", token, 405, `{"error":"use POST with a JSON object body"}`},
		{"GET", "/api/nothing", "", token, 404, `{"error":"no such endpoint \"/api/nothing\"; there are POST /api/save and GET /api/search"}`},
		{"POST", "/api/save", strings.Repeat(" ", tools.MaxAPIBodyBytes+1), token, 413, `{"error":"the body is over 266240 bytes (MaxAPIBodyBytes)"}`},
		{"GET", "/api/search", "", "wrong", 401, `{"error":"unauthorized: send Authorization: Bearer TOKEN"}`},
	} {
		code, body := do(tc.method, tc.path, tc.body, tc.token)
		if code != tc.code || strings.TrimSpace(string(body)) != tc.want {
			t.Errorf("%s %s: %d %s, want %d %s", tc.method, tc.path, code, body, tc.code, tc.want)
		}
	}
	// Nothing was half-saved by the bad requests.
	code, body = do("GET", "/api/search", "", token)
	if code != 200 || !cmp.Equal(ids(body), []int64{2, 1}) {
		t.Errorf("after the bad requests: %d %s", code, body)
	}
}
