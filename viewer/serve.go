package viewer

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/cadrun/cadrun/internal/front"
)

// Timeouts of the viewer's listener; docs/limits.md lists them. There is no whole-request
// write timeout, because an event stream stays open: each write has WriteTimeout instead.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	IdleTimeout       = 60 * time.Second
	shutdownGrace     = 2 * time.Second
)

// Serve serves the viewer on ln until ctx ends; then it ends the event streams, waits up to
// two seconds for other requests and closes the listener.
// At most MaxConns connections are held at once (serve_conns.go).
func (v *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs, lim := front.NewServer(ln, v.Handler(), front.Limits{
		MaxConns: v.opt.MaxConns, Name: "MaxConns, -serve-max-conns", EvictIdle: true,
		ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout, IdleTimeout: IdleTimeout,
		MaxHeaderBytes: front.MaxHeaderBytes,
		Refused: func(refused int) {
			if refused&(refused-1) == 0 { // the 1st, 2nd, 4th, 8th...: a flood does not flood the log
				v.log.Warn("viewer: connections refused at the cap; raise it with -serve-max-conns if they are real tabs",
					"refused", refused, "max_conns", v.opt.MaxConns)
			}
		},
	})
	hs.ErrorLog = slog.NewLogLogger(v.log.Handler(), slog.LevelWarn)
	v.mu.Lock()
	v.conns = lim
	v.mu.Unlock()
	ln = lim
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		v.Close()
		return err
	case <-ctx.Done():
	}
	v.Close()
	front.Shutdown(hs, lim, shutdownGrace)
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
