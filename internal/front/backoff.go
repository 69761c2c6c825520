package front

// Wrong tokens: after backoffFree wrong tokens in a row from one address, that address is
// refused for backoffFirst, doubling with each further wrong token up to backoffMax, without
// its token being looked at, so that guessing is slow. Loopback addresses are exempt: a token
// guards against other machines, and a local process could otherwise lock the local agent
// or the user's own browser out. At most backoffAddrs addresses are remembered (the oldest
// go first).

import (
	"sync"
	"time"
)

const (
	backoffFree  = 5
	backoffFirst = time.Second
	backoffMax   = time.Minute
	backoffAddrs = 10000
)

// backoff counts wrong tokens by client address. It is safe for concurrent use.
type backoff struct {
	mu    sync.Mutex
	addrs map[string]*backoffState
}

type backoffState struct {
	fails int
	until time.Time // refused until then
	last  time.Time
}

func newBackoff() *backoff { return &backoff{addrs: map[string]*backoffState{}} }

// blocked is how much longer ip is refused at now (0: not refused).
func (a *backoff) blocked(ip string, now time.Time) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if st, ok := a.addrs[ip]; ok && now.Before(st.until) {
		return st.until.Sub(now)
	}
	return 0
}

// failures is ip's run of wrong tokens.
func (a *backoff) failures(ip string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	if st, ok := a.addrs[ip]; ok {
		return st.fails
	}
	return 0
}

// fail counts a wrong token from ip at now, and starts a refusal past the free ones.
func (a *backoff) fail(ip string, now time.Time) {
	if IsLoopbackHost(ip) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	st, ok := a.addrs[ip]
	if !ok {
		if len(a.addrs) >= backoffAddrs {
			a.forgetOldestLocked()
		}
		st = &backoffState{}
		a.addrs[ip] = st
	}
	st.fails++
	st.last = now
	if over := st.fails - backoffFree; over > 0 {
		penalty := backoffMax
		if over <= 6 { // 1s << 6 is past the cap
			penalty = min(backoffFirst<<(over-1), backoffMax)
		}
		st.until = now.Add(penalty)
	}
}

// succeed ends ip's run of wrong tokens.
func (a *backoff) succeed(ip string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.addrs, ip)
}

func (a *backoff) forgetOldestLocked() {
	var oldest string
	var at time.Time
	for ip, st := range a.addrs {
		if oldest == "" || st.last.Before(at) {
			oldest, at = ip, st.last
		}
	}
	delete(a.addrs, oldest)
}
