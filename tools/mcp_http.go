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
//     or is answered 401. The comparison is of SHA-256 digests in constant time, so neither
//     the token's bytes nor its length leak through timing.
//   - Host: the SDK's DNS-rebinding protection stays on (DisableLocalhostProtection is never
//     set): a request that arrives on a loopback address with a Host that is not loopback
//     is refused with 403.
//   - Body size: the SDK caps every request body at mcp.DefaultMaxRequestBodyBytes (4 MiB;
//     413 past it). A write of a whole file fits with room to spare.
//
// Every HTTP session is one MCP ServerSession, so each client gets its own Session (read
// tracking) through the map in mcp.go, exactly as over stdio; tool calls of different
// clients run concurrently and their changes are serialised by the workspace lock.

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPSessionTimeout is how long an HTTP session may stay idle before the server closes it.
// A client that vanishes without saying goodbye (no DELETE) would otherwise hold its session,
// and its read tracking, for the life of the server. A client idle for longer starts a new
// session and reads again before it overwrites.
const MCPSessionTimeout = time.Hour

// HTTPOptions configure NewMCPHTTPHandler.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry. Callers require
	// one for any listener that is not loopback.
	Token string
	// API, when set, serves every path under /api/ (NewJournalAPI), behind the same checks.
	API http.Handler
}

// NewMCPHTTPHandler serves ms over streamable HTTP (one endpoint for POST, GET and DELETE)
// with the checks described at the top of this file. It is safe for concurrent use, as
// every http.Handler is.
func NewMCPHTTPHandler(ms *mcp.Server, opt HTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, &mcp.StreamableHTTPOptions{
		Logger:         slog.Default(),
		SessionTimeout: MCPSessionTimeout,
		// MaxRequestBodyBytes: zero means mcp.DefaultMaxRequestBodyBytes (4 MiB).
	})
	var want [sha256.Size]byte
	if opt.Token != "" {
		want = sha256.Sum256([]byte(opt.Token))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !allowedOrigin(o, r.Host) {
			http.Error(w, fmt.Sprintf("forbidden: origin %.100q is not this server", o), http.StatusForbidden)
			return
		}
		if opt.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			sum := sha256.Sum256([]byte(got))
			if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 || !ok {
				w.Header().Set("WWW-Authenticate", `Bearer realm="cadrun"`)
				http.Error(w, "unauthorized: send Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		if opt.API != nil && strings.HasPrefix(r.URL.Path, "/api/") {
			opt.API.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
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
