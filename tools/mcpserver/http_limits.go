package mcpserver

// The MCP listener's limits: timeouts, and the connection cap (front.Listener: at the cap a
// new connection takes the place of the oldest one that has brought no request past the
// door, and only when every connection belongs to an admitted client is it refused; an
// admitted client's idle keep-alive connection is never pulled from under it).

import (
	"net"
	"net/http"
	"time"

	"github.com/cadrun/cadrun/internal/front"
)

// The HTTP listener's limits; docs/limits.md lists them.
const (
	HTTPReadHeaderTimeout = 10 * time.Second
	HTTPReadTimeout       = 30 * time.Second
	HTTPWriteTimeout      = 30 * time.Second
	HTTPIdleTimeout       = 60 * time.Second
	MaxHTTPConns          = 256
)

// NewHTTPServer returns an http.Server for h with the timeouts above, and the listener to
// serve it on: ln with the connection cap (maxConns; 0 means MaxHTTPConns).
func NewHTTPServer(ln net.Listener, h http.Handler, maxConns int) (*http.Server, *front.Listener) {
	if maxConns <= 0 {
		maxConns = MaxHTTPConns
	}
	return front.NewServer(ln, h, front.Limits{
		MaxConns: maxConns, Name: "MaxHTTPConns, -max-conns",
		ReadHeaderTimeout: HTTPReadHeaderTimeout, ReadTimeout: HTTPReadTimeout,
		WriteTimeout: HTTPWriteTimeout, IdleTimeout: HTTPIdleTimeout, MaxHeaderBytes: front.MaxHeaderBytes,
	})
}
