package viewer

// The cap on the viewer's connections. Timeouts bound how long each connection lasts, but not
// how many there are: without a cap, a local program could open file descriptors until the
// process had none left. At the cap a new connection takes the place of one that serves
// nobody, so that connections which sit there cannot keep a tab out:
//
//   - the oldest idle keep-alive connection (a browser opens another without fuss), else
//   - the oldest that has not brought a request and is connGrace old (a client that means it
//     sends its request with the connection; the grace keeps a flood from closing a tab's
//     fresh connection before its request is read).
//
// When every connection is busy with a request or an event stream (which PingTimeout keeps
// to streams that read), the new connection is answered 503 naming the limit and closed.

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// DefaultMaxConns caps the connections the viewer's listener holds at once unless Options
// say otherwise: room for DefaultMaxClients tabs' streams and their requests.
const DefaultMaxConns = 512

// connGrace is how long a new connection is safe from being closed to make room.
const connGrace = 250 * time.Millisecond

// connCap is a listener with a cap on open connections. It is safe for concurrent use.
type connCap struct {
	net.Listener
	max int
	log func(refused int)

	mu      sync.Mutex
	seq     uint64
	conns   map[net.Conn]*connInfo
	refused int
}

type connInfo struct {
	state http.ConnState
	seq   uint64    // the order connections came in
	since time.Time // when it came in
}

func newConnCap(ln net.Listener, max int, log func(refused int)) *connCap {
	return &connCap{Listener: ln, max: max, log: log, conns: map[net.Conn]*connInfo{}}
}

// Accept implements net.Listener.
func (l *connCap) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		now := time.Now()
		l.mu.Lock()
		var victim net.Conn
		if len(l.conns) >= l.max {
			victim = l.victimLocked(now)
			if victim == nil {
				l.refused++
				n, refused := len(l.conns), l.refused
				l.mu.Unlock()
				refuse(c, n, l.max)
				if l.log != nil {
					l.log(refused)
				}
				continue
			}
			delete(l.conns, victim)
		}
		l.seq++
		l.conns[c] = &connInfo{state: http.StateNew, seq: l.seq, since: now}
		l.mu.Unlock()
		if victim != nil {
			reset(victim)
		}
		return c, nil
	}
}

// victimLocked picks the connection to close for a new one, or none.
func (l *connCap) victimLocked(now time.Time) net.Conn {
	var idle, fresh net.Conn
	var idleSeq, freshSeq uint64
	for c, ci := range l.conns {
		switch {
		case ci.state == http.StateIdle && (idle == nil || ci.seq < idleSeq):
			idle, idleSeq = c, ci.seq
		case ci.state == http.StateNew && now.Sub(ci.since) >= connGrace && (fresh == nil || ci.seq < freshSeq):
			fresh, freshSeq = c, ci.seq
		}
	}
	if idle != nil {
		return idle
	}
	return fresh
}

// refuse answers a connection past the cap with a 503 that names the limit, and closes it. The
// answer is small enough to go into the socket's buffer at once.
func refuse(c net.Conn, open, max int) {
	msg := fmt.Sprintf("too many connections: %d are open, the limit is %d (MaxConns, -serve-max-conns); close some tabs, or try again shortly\n", open, max)
	c.SetWriteDeadline(time.Now().Add(time.Second))
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nRetry-After: 5\r\nConnection: close\r\n\r\n%s", len(msg), msg)
	c.Close()
}

// reset closes c with a reset rather than a FIN, so that it leaves no TIME_WAIT behind.
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	c.Close()
}

// connState follows each connection's state (http.Server.ConnState).
func (l *connCap) connState(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ci, ok := l.conns[c]
	if !ok {
		return // closed to make room
	}
	if s == http.StateClosed || s == http.StateHijacked {
		delete(l.conns, c)
		return
	}
	ci.state = s
}

// count is the number of connections held now in state s.
func (l *connCap) count(s http.ConnState) int {
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
