package tools

// The MCP server over streamable HTTP. The SDK's handler does the protocol; this file adds
// what a network listener needs on top of it, in this order:
//
//   - Origin: a request that names an Origin must come from a page on this server (the
//     Origin's host:port is the request's Host) or from a loopback origin (a local client such
//     as the MCP inspector); anything else, "null" included, is refused with 403. The MCP
//     transport spec asks servers to validate Origin against DNS rebinding; the SDK checks
//     only Host, and only its cross-origin filter (deprecated, and for unsafe methods only)
//     would look at Origin, so cadrun checks it itself, for every method. Non-browser clients
//     send no Origin and pass.
//   - Bearer token: when one is set, every request must carry "Authorization: Bearer TOKEN"
//     (the scheme in any case) or is answered 401 and its connection closed. The comparison
//     is of SHA-256 digests in constant time, so neither the token's bytes nor its length
//     leak through timing. An address that keeps sending wrong tokens is refused for a
//     while without a look at its token (authLimiter, mcp_http_limits.go).
//   - Host: the SDK's DNS-rebinding protection stays on (DisableLocalhostProtection is never
//     set): a request that arrives on a loopback address with a Host that is not loopback
//     is refused with 403. The journal's API (not the SDK's) is checked the same way here.
//   - Body size: the SDK caps every request body at mcp.DefaultMaxRequestBodyBytes (4 MiB;
//     413 past it). A write of a whole file fits with room to spare.
//
//   - Sessions: at most HTTPOptions.MaxSessions at once; a request for one more is answered
//     503. Idle sessions close after HTTPOptions.SessionIdle.
//   - Dropped connections: each tool call learns of the HTTP request that brought it (a
//     header the handler sets, keyed in httpCalls), so a client that closes its connection
//     cancels its call, as a cancel would. cadrun keeps no event store, so a dropped stream
//     can never be resumed and there is nobody left to answer.
//
// Connection-level limits (timeouts, the connection cap) are in mcp_http_limits.go.
//
// Every HTTP session is one MCP ServerSession, so each client gets its own Session (read
// tracking) through the map in mcp.go, exactly as over stdio; tool calls of different
// clients run concurrently and their changes are serialised by the workspace lock.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultSessionIdle is how long an HTTP session may stay idle (no request) before the server
// closes it. A client that vanishes without saying goodbye (no DELETE) would otherwise hold its
// session, and its read tracking, for the life of the server. A client idle for longer gets
// 404 and starts a new session, which reads again before it overwrites.
const DefaultSessionIdle = 10 * time.Minute

// DefaultMaxSessions caps the HTTP sessions open at once.
const DefaultMaxSessions = 64

// HTTPOptions configure NewMCPHTTPHandler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry. Callers require
	// one for any listener that is not loopback.
	Token string
	// MaxSessions caps the MCP sessions open at once (0 means DefaultMaxSessions).
	MaxSessions int
	// SessionIdle is how long a session may go without a request before it is closed (0
	// means DefaultSessionIdle).
	SessionIdle time.Duration
	// API, when set, serves every path under /api/ (NewJournalAPI), behind the same checks.
	API http.Handler
}

// callHeader carries, from the HTTP handler to the tool handler, the key under which httpCalls
// holds the context of the HTTP request that brought the call. A client's own value is
// replaced.
const callHeader = "Cadrun-Call"

// NewMCPHTTPHandler serves ms over streamable HTTP (one endpoint for POST, GET and DELETE)
// with the checks described at the top of this file. It is safe for concurrent use, as
// every http.Handler is.
func NewMCPHTTPHandler(ms *mcp.Server, opt HTTPOptions) http.Handler {
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = DefaultMaxSessions
	}
	if opt.SessionIdle <= 0 {
		opt.SessionIdle = DefaultSessionIdle
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, &mcp.StreamableHTTPOptions{
		Logger:                       sdkLogger(slog.Default()),
		SessionTimeout:               opt.SessionIdle,
		PropagateRequestCancellation: true,
		// MaxRequestBodyBytes: zero means mcp.DefaultMaxRequestBodyBytes (4 MiB).
	})
	var want [sha256.Size]byte
	if opt.Token != "" {
		want = sha256.Sum256([]byte(opt.Token))
	}
	auth := newAuthLimiter()
	sessions := &sessionGate{ms: ms, max: opt.MaxSessions, idle: opt.SessionIdle}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A refusal is in the form its path promises: the journal's API answers JSON.
		isAPI := opt.API != nil && strings.HasPrefix(r.URL.Path, "/api/")
		refuse := http.Error
		if isAPI {
			refuse = func(w http.ResponseWriter, msg string, status int) { apiError(w, status, msg) }
		}
		if o := r.Header.Get("Origin"); o != "" && !allowedOrigin(o, r.Host) {
			w.Header().Set("Connection", "close")
			refuse(w, fmt.Sprintf("forbidden: origin %.100q is not this server", o), http.StatusForbidden)
			return
		}
		if opt.Token != "" {
			ip := remoteIP(r)
			if wait := auth.blocked(ip, time.Now()); wait > 0 {
				secs := int(wait.Round(time.Second) / time.Second)
				w.Header().Set("Connection", "close")
				w.Header().Set("Retry-After", fmt.Sprint(max(secs, 1)))
				refuse(w, fmt.Sprintf("too many requests: %d wrong tokens in a row from this address; try again in %v", auth.failures(ip), wait.Round(time.Second)), http.StatusTooManyRequests)
				return
			}
			got, ok := bearerToken(r.Header.Get("Authorization"))
			sum := sha256.Sum256([]byte(got))
			if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 || !ok {
				if ok {
					auth.fail(ip, time.Now())
				}
				// Close the connection: a client without the token has nothing more to say,
				// and an idle connection is a file descriptor.
				w.Header().Set("Connection", "close")
				w.Header().Set("WWW-Authenticate", `Bearer realm="cadrun"`)
				refuse(w, "unauthorized: send Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
			auth.succeed(ip)
		}
		admitConn(r)
		// The journal's API is not MCP: it opens no session, so the session cap is not its
		// to meet (a save at the cap would be refused as one session too many).
		if isAPI {
			// The SDK's DNS-rebinding check below guards MCP only: the journal gets the same,
			// or a page whose name was rebound to 127.0.0.1 (its Origin then matches its Host)
			// could read and write it.
			if !hostAllowed(r) {
				w.Header().Set("Connection", "close")
				apiError(w, http.StatusForbidden, fmt.Sprintf("forbidden: host %.100q is not loopback, and this server listens on loopback; use 127.0.0.1 or localhost", r.Host))
				return
			}
			opt.API.ServeHTTP(w, r)
			return
		}
		r.Header.Del(callHeader)
		if r.Method == http.MethodPost && r.ContentLength > MaxMessageBytes {
			// The SDK would refuse it too, without naming the limit; say what stdio says.
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("the message is %d bytes, over the %d-byte limit on one message (MaxMessageBytes). "+
				"Send smaller messages: a file is at most 500 KiB", r.ContentLength, MaxMessageBytes), http.StatusRequestEntityTooLarge)
			return
		}
		if r.Method == http.MethodPost {
			key, done := httpCalls.add(r.Context())
			defer done()
			r.Header.Set(callHeader, key)
			if r.Header.Get("Mcp-Session-Id") == "" {
				release, err := sessions.reserve()
				if err != nil {
					w.Header().Set("Retry-After", "60")
					http.Error(w, err.Error(), http.StatusServiceUnavailable)
					return
				}
				defer release()
			}
		}
		h.ServeHTTP(w, r)
	})
}

// bearerToken is the token of an Authorization header with the Bearer scheme, in any case
// ("bearer x" too, RFC 9110 section 11.1).
func bearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimLeft(token, " "), true
}

// CheckToken refuses a token that no client could send as "Authorization: Bearer TOKEN":
// empty after trimming, or with spaces or control characters in it.
func CheckToken(token string) error {
	switch {
	case strings.TrimSpace(token) == "":
		return fmt.Errorf("the token is only whitespace; choose a token of visible characters (for example: openssl rand -hex 32)")
	case strings.IndexFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0:
		return fmt.Errorf("the token contains spaces or control characters, which an Authorization header cannot carry; use visible characters only (for example: openssl rand -hex 32)")
	}
	return nil
}

// sessionGate caps the MCP sessions open at once. A request that would start a session
// (a POST without Mcp-Session-Id) reserves a place first; while it runs, the new session is
// counted twice at most, so the cap errs on the safe side.
type sessionGate struct {
	ms   *mcp.Server
	max  int
	idle time.Duration

	mu      sync.Mutex
	pending int
}

func (g *sessionGate) reserve() (release func(), err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for range g.ms.Sessions() {
		n++
	}
	if n+g.pending >= g.max {
		return nil, fmt.Errorf("too many MCP sessions: %d are open, the limit is %d (-max-sessions); "+
			"close sessions you no longer use (HTTP DELETE), or wait: a session closes after %v without a request", n, g.max, g.idle)
	}
	g.pending++
	return func() {
		g.mu.Lock()
		g.pending--
		g.mu.Unlock()
	}, nil
}

// callRegistry holds the context of each HTTP request in flight by a random key, so that the
// tool call it brought can end with it.
type callRegistry struct {
	mu sync.Mutex
	m  map[string]context.Context
}

var httpCalls = &callRegistry{m: map[string]context.Context{}}

func (c *callRegistry) add(ctx context.Context) (key string, done func()) {
	key = rand.Text()
	c.mu.Lock()
	c.m[key] = ctx
	c.mu.Unlock()
	return key, func() {
		c.mu.Lock()
		delete(c.m, key)
		c.mu.Unlock()
	}
}

// lookup finds the request context named in h. A key whose request has already ended gives
// a context that is done: the client went away before its call started.
func (c *callRegistry) lookup(h map[string][]string) (context.Context, bool) {
	key := http.Header(h).Get(callHeader)
	if key == "" {
		return nil, false
	}
	c.mu.Lock()
	ctx, ok := c.m[key]
	c.mu.Unlock()
	if !ok {
		ended, cancel := context.WithCancel(context.Background())
		cancel()
		return ended, true
	}
	return ctx, true
}

// hostAllowed reports whether r may be served by its Host: a request that arrived on a
// loopback address must name a loopback host (DNS-rebinding protection, as the SDK's).
func hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil {
		return true
	}
	if lh, _, err := net.SplitHostPort(local.String()); err != nil || !IsLoopbackHost(lh) {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return IsLoopbackHost(host)
}

// remoteIP is the client's IP address, without the port.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// allowedOrigin reports whether a browser origin may talk to the server reached as host:
// the same host and port, or a loopback host.
func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null", opaque or malformed origins
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether a host name (no port) is loopback: "localhost" or a
// loopback IP address. Names are not resolved.
func IsLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	return ip != nil && ip.IsLoopback()
}
