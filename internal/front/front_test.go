package front

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCheckToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ token, err string }{
		{"s3cret", ""},
		{"   ", "the token is only whitespace; choose a token of visible characters (for example: openssl rand -hex 32)"},
		{"\t\n", "the token is only whitespace; choose a token of visible characters (for example: openssl rand -hex 32)"},
		{"two words", "the token contains spaces or control characters, which an Authorization header cannot carry; use visible characters only (for example: openssl rand -hex 32)"},
		{"tok\n", "the token contains spaces or control characters, which an Authorization header cannot carry; use visible characters only (for example: openssl rand -hex 32)"},
	} {
		got := ""
		if err := CheckToken(tc.token); err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("CheckToken(%q) = %q, want %q", tc.token, got, tc.err)
		}
	}
}

// TestBackoff: five wrong tokens in a row are free; then each one refuses the address
// for twice as long as the one before (1 s, 2 s, ... up to a minute); a right token ends the
// run; loopback addresses are never refused.
func TestBackoff(t *testing.T) {
	t.Parallel()
	a := newBackoff()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const ip = "203.0.113.7"
	for range backoffFree {
		a.fail(ip, now)
	}
	if d := a.blocked(ip, now); d != 0 {
		t.Fatalf("after %d wrong tokens: refused for %v, want not refused", backoffFree, d)
	}
	var got []time.Duration
	for range 8 {
		a.fail(ip, now)
		got = append(got, a.blocked(ip, now))
		now = now.Add(a.blocked(ip, now)) // the client waits as told, then tries again
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 32 * time.Second, time.Minute, time.Minute}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refusals: mismatch (-want +got):\n%s", diff)
	}
	a.succeed(ip)
	a.fail(ip, now)
	if d := a.blocked(ip, now); d != 0 {
		t.Errorf("a wrong token after a right one: refused for %v", d)
	}
	for range 50 {
		a.fail("127.0.0.1", now)
		a.fail("::1", now)
	}
	if d := a.blocked("127.0.0.1", now) + a.blocked("::1", now); d != 0 {
		t.Errorf("loopback refused for %v", d)
	}
}

// TestWriteDeadline: a client that sends a request and never reads its answer is cut off
// once a write has waited the write timeout; the handler's write fails instead of blocking
// for ever.
func TestWriteDeadline(t *testing.T) {
	t.Parallel()
	failed := make(chan error, 1)
	h := writeDeadlines(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for {
			if _, err := w.Write(chunk); err != nil {
				failed <- err
				return
			}
		}
	}), 200*time.Millisecond)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	c, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case err := <-failed:
		t.Logf("the handler's write failed: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("a client that does not read held the handler for 30 s")
	}
}
