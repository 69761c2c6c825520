package front

// The one connection cap. Timeouts bound how long each connection lasts, but not how many
// there are: without a cap, a client could open file descriptors until the process had none
// left. At the cap a new connection does not wait behind the others: it takes the place of
//
//   - the oldest idle keep-alive connection, where Limits.EvictIdle allows it (a browser
//     opens another without fuss; an MCP client's next request would fail, so MCP keeps
//     them), else
//   - the oldest connection that has brought no request past a door (it sent nothing, half a
//     header, or only refused requests) once it is ConnGrace old; accepting waits for one to
//     be that old, so that a flood is accepted at most the cap per ConnGrace while the rest
//     waits in the kernel's queue.
//
// A connection closed to make room is reset, leaving no TIME_WAIT. When every connection is
// busy with an admitted client, the new one is answered 503 naming the limit, and closed.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// ConnGrace is how long a new connection is safe from being closed to make room: time for
// its request to be read (a client that means it sends the request with the connection).
const ConnGrace = 250 * time.Millisecond

// Limits are a listener's timeouts and its connection cap.
type Limits struct {
	// MaxConns caps the connections open at once; Name is how a refusal names the cap
	// ("MaxConns, -serve-max-conns").
	MaxConns int
	Name     string
	// EvictIdle lets a new connection take the place of an idle keep-alive one.
	EvictIdle bool
	// The http.Server's timeouts and header cap. WriteTimeout, when set, is a deadline on
	// each write of a response rather than on the whole response (an answer may come long
	// after its request, and an event stream stays open).
	ReadHeaderTimeout, ReadTimeout, IdleTimeout, WriteTimeout time.Duration
	MaxHeaderBytes                                            int
	// Refused, when set, hears of each connection refused at the cap, with the count so far.
	Refused func(refused int)
}

// NewServer returns an http.Server for h with lim's timeouts, and the listener to serve it
// on: ln with the connection cap.
func NewServer(ln net.Listener, h http.Handler, lim Limits) (*http.Server, *Listener) {
	l := &Listener{Listener: ln, lim: lim, conns: map[net.Conn]*conn{}, freed: make(chan struct{})}
	if lim.WriteTimeout > 0 {
		h = writeDeadlines(h, lim.WriteTimeout)
	}
	hs := &http.Server{
		Handler:           l.track(h),
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ConnState:         l.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	return hs, l
}

// Listener is a listener with the connection cap. It is safe for concurrent use.
type Listener struct {
	net.Listener
	lim Limits

	mu      sync.Mutex
	seq     uint64
	conns   map[net.Conn]*conn
	freed   chan struct{} // closed (and replaced) when a connection closes
	evicted int           // connections closed to make room
	refused int           // connections refused because every one was busy
}

type conn struct {
	state    http.ConnState
	admitted bool      // a request on it passed a door
	seq      uint64    // the order connections came in
	since    time.Time // when it came in
}

// Accept implements net.Listener.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if open, ok := l.makeRoom(); !ok {
			l.refuse(c, open)
			continue
		}
		l.mu.Lock()
		l.seq++
		l.conns[c] = &conn{state: http.StateNew, seq: l.seq, since: time.Now()}
		l.mu.Unlock()
		return c, nil
	}
}

// makeRoom makes room for one more connection (see the top of this file). It reports false,
// with the connections open, when every one belongs to an admitted client.
func (l *Listener) makeRoom() (open int, ok bool) {
	for {
		l.mu.Lock()
		if len(l.conns) < l.lim.MaxConns {
			l.mu.Unlock()
			return 0, true
		}
		victim, age := l.victimLocked()
		switch {
		case victim == nil:
			l.refused++
			open = len(l.conns)
			l.mu.Unlock()
			return open, false
		case age >= ConnGrace:
			delete(l.conns, victim)
			l.evicted++
			l.mu.Unlock()
			reset(victim)
			return 0, true
		}
		freed := l.freed
		l.mu.Unlock()
		t := time.NewTimer(ConnGrace - age)
		select {
		case <-freed: // a connection closed: maybe room now
		case <-t.C:
		}
		t.Stop()
	}
}

// victimLocked picks the connection to close for a new one and how long it has been open
// (an idle one counts as old enough); or none.
func (l *Listener) victimLocked() (net.Conn, time.Duration) {
	var idle, fresh net.Conn
	var idleC, freshC *conn
	for c, ci := range l.conns {
		switch {
		case l.lim.EvictIdle && ci.admitted && ci.state == http.StateIdle && (idleC == nil || ci.seq < idleC.seq):
			idle, idleC = c, ci
		case !ci.admitted && (freshC == nil || ci.seq < freshC.seq):
			fresh, freshC = c, ci
		}
	}
	switch {
	case idle != nil:
		return idle, ConnGrace
	case fresh != nil:
		return fresh, time.Since(freshC.since)
	}
	return nil, 0
}

// refuse answers a connection past the cap with a 503 that names the limit, and closes it.
// The answer is small enough to go into the socket's buffer at once.
func (l *Listener) refuse(c net.Conn, open int) {
	msg := fmt.Sprintf("too many connections: %d are open, the limit is %d (%s); close some, or try again shortly\n", open, l.lim.MaxConns, l.lim.Name)
	c.SetWriteDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nRetry-After: 5\r\nConnection: close\r\n\r\n%s", len(msg), msg)
	c.Close()
	if l.lim.Refused != nil {
		l.mu.Lock()
		n := l.refused
		l.mu.Unlock()
		l.lim.Refused(n)
	}
}

// reset closes c with a reset rather than a FIN, so that it leaves no TIME_WAIT behind.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// connState follows each connection's state (http.Server.ConnState).
func (l *Listener) connState(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ci, ok := l.conns[c]
	if !ok {
		return // closed to make room
	}
	if s == http.StateClosed || s == http.StateHijacked {
		delete(l.conns, c)
		close(l.freed)
		l.freed = make(chan struct{})
		return
	}
	ci.state = s
}

// Count is the number of connections held now in state s.
func (l *Listener) Count(s http.ConnState) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, ci := range l.conns {
		if ci.state == s {
			n++
		}
	}
	return n
}

// Stats are the connections closed to make room and those refused at the cap, so far.
func (l *Listener) Stats() (evicted, refused int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.evicted, l.refused
}

type connKey struct{}
type admitKey struct{}

// track lets a door mark the request's connection as admitted (admitConn).
func (l *Listener) track(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := r.Context().Value(connKey{}).(net.Conn)
		admit := func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			if ci, ok := l.conns[c]; ok {
				ci.admitted = true
			}
		}
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), admitKey{}, admit)))
	})
}

// admitConn marks the connection of r as one of an admitted client, so that the cap does
// not close it to make room but when idle (EvictIdle).
func admitConn(r *http.Request) {
	if admit, ok := r.Context().Value(admitKey{}).(func()); ok {
		admit()
	}
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

// MaxHeaderBytes caps a request's header on every listener; a larger one is answered 431.
const MaxHeaderBytes = 64 << 10

// Shutdown stops hs, served on l, as http.Server.Shutdown does (the listener closed, idle
// connections closed, requests in flight left to finish), within grace; past it every
// connection is closed and Shutdown reports ctx's error. One difference: a connection that
// has brought no request yet is closed once it is ConnGrace old. http.Server counts such a
// connection as busy for its first 5 s, and HTTP clients open spares they may never use, so a
// client that merely stayed connected held every stop for that long.
func Shutdown(hs *http.Server, l *Listener, grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(ConnGrace / 2)
		defer t.Stop()
		for {
			l.closeSilent(ConnGrace)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	err := hs.Shutdown(ctx)
	close(done)
	if err != nil {
		hs.Close()
	}
	return err
}

// closeSilent resets the connections that have brought no request in their first age.
func (l *Listener) closeSilent(age time.Duration) {
	l.mu.Lock()
	var silent []net.Conn
	for c, ci := range l.conns {
		if ci.state == http.StateNew && time.Since(ci.since) >= age {
			silent = append(silent, c)
		}
	}
	l.mu.Unlock()
	for _, c := range silent {
		reset(c)
	}
}
