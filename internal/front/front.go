// Package front is cadrun's one front door for HTTP: the checks every request to the MCP
// server and to the viewer passes, in one order, with refusals in one form, and the one
// connection cap both listeners hold.
//
//   - Host: a request that arrived on a loopback address must name a loopback host (403), so
//     that a page on another site cannot reach the server through DNS rebinding.
//   - Origin: a request that names an Origin must come from a page on this server (the
//     Origin's host:port is the request's Host) or from a loopback origin; anything else,
//     "null" included, is refused (403). Non-browser clients send no Origin and pass.
//   - Token: when one is set, every request carries it as "Authorization: Bearer TOKEN" (the
//     scheme in any case), or, where Options.Cookie names a cookie (the viewer's page, since a
//     browser cannot put a header on an EventSource), as ?token=TOKEN once, which sets a
//     cookie holding an HMAC of the token under that cookie's name: good for that door alone,
//     and the token cannot be worked back from it. Tokens are compared as SHA-256 digests in
//     constant time. An address that keeps sending wrong tokens is refused for a while without
//     a look at its token (backoff.go); loopback addresses are exempt.
//   - Body: capped at Options.MaxBody (413 past it, from the reader).
//
// A refusal closes the connection. Its body is JSON ({"error": "..."}) for a path under
// /api/, where every answer is JSON, and text otherwise.
package front

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Options configure a Door.
type Options struct {
	// Token, when not empty, is required of every request.
	Token string
	// Cookie, when set, is the name of the cookie that ?token=TOKEN sets and that then opens
	// this door (the viewer's page); "" takes the bearer header only.
	Cookie string
	// Realm names the server in WWW-Authenticate.
	Realm string
	// Hint says how to send the token, in the 401's text.
	Hint string
	// MaxBody caps a request's body (0: no cap here).
	MaxBody int64
}

// Door runs the checks on each request. It is safe for concurrent use.
type Door struct {
	opt        Options
	want       [sha256.Size]byte // the token's digest
	cookieVal  string            // the cookie ?token= sets
	wantCookie [sha256.Size]byte // its digest
	backoff    *backoff
}

// New returns a Door with opt.
func New(opt Options) *Door {
	d := &Door{opt: opt, backoff: newBackoff()}
	if opt.Token != "" {
		d.want = sha256.Sum256([]byte(opt.Token))
		if opt.Cookie != "" {
			d.cookieVal = CookieValue(opt.Token, opt.Cookie)
			d.wantCookie = sha256.Sum256([]byte(d.cookieVal))
		}
	}
	return d
}

// CookieValue is the cookie named name that opens a door with token: an HMAC of the name
// under the token, so that it opens that door (across restarts with the same token) and
// nothing else.
func CookieValue(token, name string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("cadrun cookie v1 " + name))
	return hex.EncodeToString(m.Sum(nil))
}

// Wrap serves next behind the door.
func (d *Door) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d.Admit(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}

// Admit runs the checks on r. It answers a refusal itself and reports false; a request it
// admits has its body capped and its connection marked admitted (see Serve).
func (d *Door) Admit(w http.ResponseWriter, r *http.Request) bool {
	if !hostAllowed(r) {
		Refuse(w, r, http.StatusForbidden, fmt.Sprintf("forbidden: host %.100q is not loopback, and this server listens on loopback; use 127.0.0.1 or localhost", r.Host))
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && !allowedOrigin(o, r.Host) {
		Refuse(w, r, http.StatusForbidden, fmt.Sprintf("forbidden: origin %.100q is not this server", o))
		return false
	}
	if d.opt.Token != "" && !d.tokenOK(w, r) {
		return false
	}
	if d.opt.MaxBody > 0 && r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, d.opt.MaxBody)
	}
	admitConn(r)
	return true
}

// tokenOK checks r's token, answering the refusal when it is wrong or the address is
// waiting out wrong ones.
func (d *Door) tokenOK(w http.ResponseWriter, r *http.Request) bool {
	ip := remoteIP(r)
	now := time.Now()
	if wait := d.backoff.blocked(ip, now); wait > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(max(int(wait.Round(time.Second)/time.Second), 1)))
		Refuse(w, r, http.StatusTooManyRequests, fmt.Sprintf("too many requests: %d wrong tokens in a row from this address; try again in %v",
			d.backoff.failures(ip), wait.Round(time.Second)))
		return false
	}
	bearer, hasBearer := bearerToken(r.Header.Get("Authorization"))
	query, cookie := "", ""
	if d.opt.Cookie != "" {
		query = r.URL.Query().Get("token")
		if c, err := r.Cookie(d.opt.Cookie); err == nil {
			cookie = c.Value
		}
	}
	switch {
	case d.opt.Cookie != "" && (equal(query, d.want) || equal(cookie, d.want)):
		// ?token= opens the page; a cookie holding the token itself (an older version's) is
		// replaced by the cookie that opens this door alone.
		http.SetCookie(w, &http.Cookie{Name: d.opt.Cookie, Value: d.cookieVal, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	case equal(bearer, d.want) && hasBearer, d.opt.Cookie != "" && equal(cookie, d.wantCookie):
	default:
		if hasBearer || query != "" || cookie != "" {
			d.backoff.fail(ip, now)
		}
		w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer realm=%q", d.opt.Realm))
		Refuse(w, r, http.StatusUnauthorized, "unauthorized: "+d.opt.Hint)
		return false
	}
	d.backoff.succeed(ip)
	return true
}

// equal compares got with a digest in constant time; "" never matches.
func equal(got string, want [sha256.Size]byte) bool {
	sum := sha256.Sum256([]byte(got))
	return got != "" && subtle.ConstantTimeCompare(sum[:], want[:]) == 1
}

// Refuse answers r with status and msg in the one form of refusals: JSON for a path under
// /api/, text otherwise; the connection is closed after it.
func Refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Connection", "close")
	if IsAPI(r) {
		APIError(w, status, msg)
		return
	}
	http.Error(w, msg, status)
}

// IsAPI reports a request for the JSON API (a path under /api/).
func IsAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/") }

// APIError answers a JSON API request with status and {"error": msg}.
func APIError(w http.ResponseWriter, status int, msg string) {
	WriteJSON(w, status, map[string]string{"error": msg})
}

// WriteJSON answers a JSON API request with status and v as JSON, never cached; a v that
// cannot be encoded is a 500 saying so.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
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

// hostAllowed reports whether r may be served by its Host: a request that arrived on a
// loopback address must name a loopback host.
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
	return strings.EqualFold(u.Host, host) || IsLoopbackHost(u.Hostname())
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
