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
//     The cookie does not hold the token: the token is MCP's bearer too (-serve shares it with
//     -http), and a browser sends a cookie to every port of the host name, so any other
//     service there would receive it. It holds cookieValue(T), an HMAC of the token under a
//     label of the viewer's own, which opens the viewer (on any restart with the same token)
//     and nothing else: MCP takes only the token itself. A cookie that still holds the token
//     (set by an older version) is taken once and replaced.
//   - Bodies are capped at MaxBodyBytes; the http.Server's read and idle timeouts come from
//     NewHTTPServer.

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// tokenCookie carries cookieValue(token) for the page's own requests.
const tokenCookie = "cadrun_viewer_token"

// cookieLabel is what the token signs to make the viewer's cookie; changing it ends every
// cookie given out.
const cookieLabel = "cadrun viewer cookie v1"

// cookieValue is the viewer's cookie for token: good for the viewer alone, and the token
// cannot be worked back from it.
func cookieValue(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(cookieLabel))
	return hex.EncodeToString(m.Sum(nil))
}

func (v *Server) guard(next http.Handler) http.Handler {
	var want, wantCookie [sha256.Size]byte
	var cookieVal string
	if v.opt.Token != "" {
		want = sha256.Sum256([]byte(v.opt.Token))
		cookieVal = cookieValue(v.opt.Token)
		wantCookie = sha256.Sum256([]byte(cookieVal))
	}
	equal := func(got string, want [sha256.Size]byte) bool {
		sum := sha256.Sum256([]byte(got))
		return got != "" && subtle.ConstantTimeCompare(sum[:], want[:]) == 1
	}
	match := func(got string) bool { return equal(got, want) }
	setCookie := func(w http.ResponseWriter) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: cookieVal, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
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
			case match(query), match(cookie): // the token in a cookie: an older version's, replaced
				setCookie(w)
			case match(bearer), equal(cookie, wantCookie):
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
