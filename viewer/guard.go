package viewer

// The viewer's requests get the same protection as MCP over HTTP (tools/mcp_http.go):
//
//   - Host: on a loopback listener, a Host that is not loopback is refused (403), so a page on
//     another site cannot reach the viewer through DNS rebinding.
//   - Origin: a request that names an Origin must come from this server's own page or from a
//     loopback origin; anything else, "null" included, is refused (403).
//   - Token: when one is set, every request carries it. A browser cannot put a header on an
//     EventSource, so the page is opened once as /?token=T, which sets an HttpOnly,
//     SameSite=Strict cookie that the page's own requests then carry; tools send
//     "Authorization: Bearer T". Tokens are compared as SHA-256 digests in constant time.
//   - Bodies are capped at MaxBodyBytes; the http.Server's read and idle timeouts come from
//     NewHTTPServer.

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// tokenCookie carries the token for the page's own requests.
const tokenCookie = "cadrun_viewer_token"

func (v *Server) guard(next http.Handler) http.Handler {
	var want [sha256.Size]byte
	if v.opt.Token != "" {
		want = sha256.Sum256([]byte(v.opt.Token))
	}
	match := func(got string) bool {
		sum := sha256.Sum256([]byte(got))
		return got != "" && subtle.ConstantTimeCompare(sum[:], want[:]) == 1
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && isLoopbackAddr(la) {
			host := r.Host
			if h, _, err := net.SplitHostPort(r.Host); err == nil {
				host = h
			}
			if !isLoopbackHost(host) {
				http.Error(w, fmt.Sprintf("forbidden: host %.100q is not loopback; open the viewer as http://127.0.0.1:PORT/", r.Host), http.StatusForbidden)
				return
			}
		}
		if o := r.Header.Get("Origin"); o != "" && !allowedOrigin(o, r.Host) {
			http.Error(w, fmt.Sprintf("forbidden: origin %.100q is not this server", o), http.StatusForbidden)
			return
		}
		if v.opt.Token != "" {
			bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			query := r.URL.Query().Get("token")
			cookie := ""
			if c, err := r.Cookie(tokenCookie); err == nil {
				cookie = c.Value
			}
			switch {
			case match(query):
				http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: query, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			case match(bearer), match(cookie):
			default:
				w.Header().Set("WWW-Authenticate", `Bearer realm="cadrun viewer"`)
				http.Error(w, "unauthorized: open the viewer as /?token=TOKEN, or send Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// allowedOrigin reports whether a browser origin may talk to the server reached as host:
// the same host and port, or a loopback host.
func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(u.Host, host) || isLoopbackHost(u.Hostname())
}

func isLoopbackAddr(a net.Addr) bool {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.IsLoopback()
	}
	return false
}

// isLoopbackHost reports whether a host name (no port) is loopback: "localhost" or a loopback
// IP address. Names are not resolved.
func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	return ip != nil && ip.IsLoopback()
}
