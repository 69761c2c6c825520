package mcpserver

// The MCP server over streamable HTTP. The SDK's handler does the protocol. Every request
// first passes the front door (internal/front), the one the viewer has too: Host, Origin,
// bearer token with a back-off for wrong ones, refusals in one form. The SDK's own
// DNS-rebinding protection stays on as well (DisableLocalhostProtection is never set), and it
// caps every request body at mcp.DefaultMaxRequestBodyBytes (4 MiB; 413 past it), which a
// write of a whole file fits with room to spare. This file adds what MCP needs beyond the door:
//
//   - Sessions: at most HTTPOptions.MaxSessions at once; a request for one more is answered
//     503. Idle sessions close after HTTPOptions.SessionIdle.
//   - Dropped connections: each tool call learns of the HTTP request that brought it (a
//     header the handler sets, keyed in the server's calls), so a client that closes its connection
//     cancels its call, as a cancel would. cadrun keeps no event store, so a dropped stream
//     can never be resumed and there is nobody left to answer.
//
// The listener's timeouts and connection cap are in http_limits.go.
//
// Every HTTP session is one MCP ServerSession, so each client gets its own Session (read
// tracking) through the map in server.go, exactly as over stdio; tool calls of different
// clients run concurrently and their changes are serialised by the workspace lock.

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/internal/front"
)

// DefaultSessionIdle is how long an HTTP session may stay idle (no request) before the server
// closes it. A client that vanishes without saying goodbye (no DELETE) would otherwise hold its
// session, and its read tracking, for the life of the server. A client idle for longer gets
// 404 and starts a new session, which reads again before it overwrites.
const DefaultSessionIdle = 10 * time.Minute

// DefaultMaxSessions caps the HTTP sessions open at once.
const DefaultMaxSessions = 64

// HTTPOptions configure NewHTTPHandler.
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

// callHeader carries, from the HTTP handler to the tool handler, the key under which the
// server's calls hold the context of the HTTP request that brought the call. A client's own value is
// replaced.
const callHeader = "Cadrun-Call"

// NewHTTPHandler serves s over streamable HTTP (one endpoint for POST, GET and DELETE)
// with the checks described at the top of this file. It is safe for concurrent use, as
// every http.Handler is.
func NewHTTPHandler(s *Server, opt HTTPOptions) http.Handler {
	ms := s.Server
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
	door := front.New(front.Options{Token: opt.Token, Realm: "cadrun", Hint: "send Authorization: Bearer TOKEN"})
	sessions := &sessionGate{ms: ms, max: opt.MaxSessions, idle: opt.SessionIdle}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !door.Admit(w, r) {
			return
		}
		// The journal's API is not MCP: it opens no session, so the session cap is not its
		// to meet (a save at the cap would be refused as one session too many).
		if opt.API != nil && front.IsAPI(r) {
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
			key, done := s.calls.add(r.Context())
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
