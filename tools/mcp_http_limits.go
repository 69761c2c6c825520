package tools

// What keeps the HTTP listener serving under hostile or careless clients:
//
//   - Timeouts: request headers must arrive within HTTPReadHeaderTimeout and the whole request
//     within HTTPReadTimeout; every write of a response must go through within
//     HTTPWriteTimeout (a per-write deadline, because an answer may come long after its
//     request and a GET event stream stays open); a keep-alive connection idle for
//     HTTPIdleTimeout is closed.
//   - A cap on connections (MaxHTTPConns). At the cap, a new connection does not wait behind
//     the others: the oldest connection that is not inside a request (never sent a complete
//     header, or idle between requests) is closed to make room, and only when every
//     connection is busy with a request is the new one refused. So connections that send
//     nothing, or too little, cannot keep a client with the token out.
//   - Wrong tokens (authLimiter): after a few in a row from one address, that address is
//     refused for a while, doubling with each further wrong token, without its token being
//     looked at, so that guessing is slow. Loopback addresses are exempt: a token guards
//     against other machines, and a local process could otherwise lock the local agent out.

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// The HTTP listener's limits; docs/limits.md lists them.
const (
	HTTPReadHeaderTimeout = 10 * time.Second
	HTTPReadTimeout       = 30 * time.Second
	HTTPWriteTimeout      = 30 * time.Second
	HTTPIdleTimeout       = 60 * time.Second
	MaxHTTPConns          = 256
)

// Wrong-token limits: authFreeFailures wrong tokens in a row from one address are answered
// 401 at once; each further one starts a refusal of authFirstPenalty, doubling up to
// authMaxPenalty. At most authMaxAddrs addresses are remembered (the oldest go first).
const (
	authFreeFailures = 5
	authFirstPenalty = time.Second
	authMaxPenalty   = time.Minute
	authMaxAddrs     = 10000
)

// NewHTTPServer returns an http.Server for h with the timeouts above, and the listener to
// serve it on: ln with the connection cap (maxConns; 0 means MaxHTTPConns).
func NewHTTPServer(ln net.Listener, h http.Handler, maxConns int) (*http.Server, net.Listener) {
	if maxConns <= 0 {
		maxConns = MaxHTTPConns
	}
	lim := &connLimiter{Listener: ln, max: maxConns, conns: map[net.Conn]*connEntry{}}
	hs := &http.Server{
		Handler:           lim.track(writeDeadlines(h, HTTPWriteTimeout)),
		ReadHeaderTimeout: HTTPReadHeaderTimeout,
		ReadTimeout:       HTTPReadTimeout,
		IdleTimeout:       HTTPIdleTimeout,
		ConnState:         lim.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	return hs, lim
}

// writeDeadlines gives every write of a response d to go through.
func writeDeadlines(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}, r)
	})
}

type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	w.rc.Flush()
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type connKey struct{}

// connLimiter is a listener with a cap on open connections (see the top of this file). It is
// safe for concurrent use.
type connLimiter struct {
	net.Listener
	max int

	mu      sync.Mutex
	conns   map[net.Conn]*connEntry
	evicted int // connections closed to make room
	refused int // connections refused because every one was busy
}

type connEntry struct {
	busy  bool      // inside a request handler
	ever  bool      // has been through a handler once (idle keep-alive when not busy)
	since time.Time // when it was accepted or last left a handler
}

// Accept implements net.Listener.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if len(l.conns) >= l.max {
			victim := l.victimLocked()
			if victim == nil {
				l.refused++
				l.mu.Unlock()
				c.Close()
				continue
			}
			delete(l.conns, victim)
			l.evicted++
			victim.Close()
		}
		l.conns[c] = &connEntry{since: time.Now()}
		l.mu.Unlock()
		return c, nil
	}
}

// victimLocked picks the connection to close for a new one: the oldest that never finished
// a request header, else the oldest idle keep-alive one, else none.
func (l *connLimiter) victimLocked() net.Conn {
	var best net.Conn
	var bestEntry *connEntry
	for c, e := range l.conns {
		if e.busy {
			continue
		}
		if bestEntry == nil || (!e.ever && bestEntry.ever) || (e.ever == bestEntry.ever && e.since.Before(bestEntry.since)) {
			best, bestEntry = c, e
		}
	}
	return best
}

func (l *connLimiter) connState(c net.Conn, s http.ConnState) {
	if s == http.StateClosed || s == http.StateHijacked {
		l.mu.Lock()
		delete(l.conns, c)
		l.mu.Unlock()
	}
}

// track marks a connection busy while a request is inside h.
func (l *connLimiter) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		l.setBusy(c, true)
		defer l.setBusy(c, false)
		h.ServeHTTP(w, r)
	})
}

func (l *connLimiter) setBusy(c net.Conn, busy bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.conns[c]; ok {
		e.busy, e.ever, e.since = busy, true, time.Now()
	}
}

// authLimiter counts wrong tokens by client address (see the top of this file). It is safe
// for concurrent use.
type authLimiter struct {
	mu    sync.Mutex
	addrs map[string]*authState
}

type authState struct {
	fails int
	until time.Time // refused until then
	last  time.Time
}

func newAuthLimiter() *authLimiter { return &authLimiter{addrs: map[string]*authState{}} }

// blocked is how much longer ip is refused at now (0: not refused).
func (a *authLimiter) blocked(ip string, now time.Time) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if st, ok := a.addrs[ip]; ok && now.Before(st.until) {
		return st.until.Sub(now)
	}
	return 0
}

func (a *authLimiter) failures(ip string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if st, ok := a.addrs[ip]; ok {
		return st.fails
	}
	return 0
}

// fail counts a wrong token from ip at now, and starts a refusal past the free ones.
func (a *authLimiter) fail(ip string, now time.Time) {
	if IsLoopbackHost(ip) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	st, ok := a.addrs[ip]
	if !ok {
		if len(a.addrs) >= authMaxAddrs {
			a.forgetOldestLocked()
		}
		st = &authState{}
		a.addrs[ip] = st
	}
	st.fails++
	st.last = now
	if over := st.fails - authFreeFailures; over > 0 {
		penalty := authMaxPenalty
		if over <= 6 { // 1s << 6 is past the cap
			penalty = min(authFirstPenalty<<(over-1), authMaxPenalty)
		}
		st.until = now.Add(penalty)
	}
}

// succeed ends ip's run of wrong tokens.
func (a *authLimiter) succeed(ip string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.addrs, ip)
}

func (a *authLimiter) forgetOldestLocked() {
	var oldest string
	var at time.Time
	for ip, st := range a.addrs {
		if oldest == "" || st.last.Before(at) {
			oldest, at = ip, st.last
		}
	}
	delete(a.addrs, oldest)
}
