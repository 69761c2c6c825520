package viewer

// The viewer's requests pass the front door MCP's do (internal/front): Host, Origin, token
// with a back-off for wrong ones, body cap, refusals in one form (JSON under /api/). A browser
// cannot put a header on an EventSource, so the page is opened once as /?token=T, which sets
// an HttpOnly, SameSite=Strict cookie that the page's own requests then carry; tools send
// "Authorization: Bearer T". The cookie does not hold the token: the token is MCP's bearer
// too (-serve shares it with -http), and a browser sends a cookie to every port of the host
// name, so any other service there would receive it. It holds front.CookieValue, which opens
// the viewer (on any restart with the same token) and nothing else. A cookie that still
// holds the token (set by an older version) is taken once and replaced.

import (
	"net/http"

	"github.com/cadrun/cadrun/internal/front"
)

// tokenCookie carries the viewer's cookie for the page's own requests.
const tokenCookie = "cadrun_viewer_token"

// cookieValue is the viewer's cookie for token.
func cookieValue(token string) string { return front.CookieValue(token, tokenCookie) }

// guard serves next behind the front door.
func (v *Server) guard(next http.Handler) http.Handler {
	return front.New(front.Options{
		Token: v.opt.Token, Cookie: tokenCookie, Realm: "cadrun viewer", MaxBody: MaxBodyBytes,
		Hint: "open the viewer as /?token=TOKEN, or send Authorization: Bearer TOKEN",
	}).Wrap(next)
}
