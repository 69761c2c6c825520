package tools

// What keeps the HTTP listener serving under hostile or careless clients:
//
//   - Timeouts: request headers must arrive within HTTPReadHeaderTimeout and the whole request
//     within HTTPReadTimeout; every write of a response must go through within
//     HTTPWriteTimeout (a per-write deadline, because an answer may come long after its
//     request and a GET event stream stays open); a keep-alive connection idle for
//     HTTPIdleTimeout is closed.
//   - A cap on connections (MaxHTTPConns). At the cap, a new connection does not wait behind
//     the others: the oldest connection that has not yet brought a request past the token
//     check (it sent nothing, half a header, or only refused requests) is closed to make room,
//     at once and without a TIME_WAIT (a reset), and only when every connection belongs to an
//     admitted client is the new one refused. Connections that send nothing, or too little,
//     cannot keep a client with the token out, and an admitted client's idle keep-alive
//     connection is never pulled from under it (its next request would fail); those close
//     after HTTPIdleTimeout.
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
	lim := &connLimiter{Listener: ln, max: maxConns, conns: map[net.Conn]*connEntry{}, freed: make(chan struct{})}
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
	freed   chan struct{} // closed (and replaced) when a connection closes
	evicted int           // connections closed to make room
	refused int           // connections refused because every one was busy
}

type connEntry struct {
	admitted bool      // a request on it passed the token check
	since    time.Time // when it was accepted
}

// Accept implements net.Listener.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if !l.makeRoom() {
			reset(c)
			continue
		}
		l.mu.Lock()
		l.conns[c] = &connEntry{since: time.Now()}
		l.mu.Unlock()
		return c, nil
	}
}

// connGrace is how long a new connection is safe from being closed to make room: time for
// its request to be read (a client that means it sends the request with the connection).
// At the cap, accepting waits for the oldest connection to be that old, so a flood is
// accepted at most MaxHTTPConns per connGrace and the rest waits in the kernel's queue.
const connGrace = 250 * time.Millisecond

// makeRoom makes room for one more connection, closing the oldest one not admitted once it
// is connGrace old. It reports false when every connection belongs to an admitted client.
func (l *connLimiter) makeRoom() bool {
	for {
		l.mu.Lock()
		if len(l.conns) < l.max {
			l.mu.Unlock()
			return true
		}
		victim, age := l.victimLocked()
		switch {
		case victim == nil:
			l.refused++
			l.mu.Unlock()
			return false
		case age >= connGrace:
			delete(l.conns, victim)
			l.evicted++
			l.mu.Unlock()
			reset(victim)
			return true
		}
		freed := l.freed
		l.mu.Unlock()
		t := time.NewTimer(connGrace - age)
		select {
		case <-freed: // a connection closed: maybe room now
		case <-t.C:
		}
		t.Stop()
	}
}

// victimLocked picks the connection to close for a new one: the oldest one not admitted, and
// its age; or none.
func (l *connLimiter) victimLocked() (net.Conn, time.Duration) {
	var best net.Conn
	var bestEntry *connEntry
	for c, e := range l.conns {
		if !e.admitted && (bestEntry == nil || e.since.Before(bestEntry.since)) {
			best, bestEntry = c, e
		}
	}
	if best == nil {
		return nil, 0
	}
	return best, time.Since(bestEntry.since)
}

// reset closes c with a reset rather than a FIN, so that it leaves no TIME_WAIT behind.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

func (l *connLimiter) connState(c net.Conn, s http.ConnState) {
	if s == http.StateClosed || s == http.StateHijacked {
		l.mu.Lock()
		delete(l.conns, c)
		close(l.freed)
		l.freed = make(chan struct{})
		l.mu.Unlock()
	}
}

type admitKey struct{}

// track lets the handler mark the request's connection as admitted (admitConn).
func (l *connLimiter) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		admit := func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if e, ok := l.conns[c]; ok {
				e.admitted = true
			}
		}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), admitKey{}, admit)))
	})
}

// admitConn marks the connection of r as one of an admitted client (it passed the token
// check), so that the connection cap does not close it to make room.
func admitConn(r *http.Request) {
	if admit, ok := r.Context().Value(admitKey{}).(func()); ok {
		admit()
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
