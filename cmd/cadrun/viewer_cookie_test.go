package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/viewer"
)

// TestViewerCookieOpensNoMCPSession: -serve and -http share a token, and a browser sends the
// viewer's cookie to every port of the host name; the cookie /?token=T sets must not open an
// MCP session on -http, as a bearer or as a cookie.
func TestViewerCookieOpensNoMCPSession(t *testing.T) {
	t.Parallel()
	const token = "s3cret"
	mcpURL, _ := newHTTPMCP(t, token, runtime.Options{}, nil)
	v := viewer.New(viewer.Options{Token: token})
	vs := httptest.NewServer(v.Handler())
	t.Cleanup(func() { v.Close(); vs.Close() })
	res, err := http.Get(vs.URL + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookies := res.Cookies()
	if res.StatusCode != 200 || len(cookies) != 1 {
		t.Fatalf("/?token=: %s, cookies %v", res.Status, cookies)
	}
	c := cookies[0]
	initialize := func(h http.Header) int {
		t.Helper()
		req, _ := http.NewRequest("POST", mcpURL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		req.Header = h
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		name string
		h    http.Header
		want int
	}{
		{"the token", http.Header{"Authorization": {"Bearer " + token}}, 200},
		{"the cookie's value as a bearer", http.Header{"Authorization": {"Bearer " + c.Value}}, 401},
		{"the cookie", http.Header{"Cookie": {c.Name + "=" + c.Value}}, 401},
	} {
		if got := initialize(tc.h); got != tc.want {
			t.Errorf("%s: MCP answers %d, want %d", tc.name, got, tc.want)
		}
	}
}
