package engine

// Notifications: watchers and viewers learn of every change that lands (and, through
// SubscribeRuns, of every run that was refused, so that a viewer can show why). Delivery never blocks
// a transaction: a subscriber that falls behind keeps only the newest change, which is all a
// viewer needs (the scene it names is the current one).

import (
	"sync"
	"time"

	"github.com/cadrun/cadrun/scene"
)

// Change is sent to subscribers after a change lands.
type Change struct {
	Files []string      // the logical names the change wrote, moved or deleted
	Scene *scene.Scene  // the new scene; read-only
	Run   time.Duration // how long the run took
	// Refused, when set, is why a change's run failed: nothing landed and Scene is the last
	// good scene, unchanged. Only SubscribeRuns delivers these.
	Refused error
}

type subscribers struct {
	mu   sync.Mutex
	next int
	subs map[int]chan Change
	runs map[int]bool // subscribers that also get refused runs
}

// Subscribe returns a channel of landed changes and a function that ends the subscription
// (and closes the channel). The channel holds one change; a slow reader sees the newest.
func (srv *Server) Subscribe() (<-chan Change, func()) { return srv.subscribe(false) }

// SubscribeRuns is Subscribe for viewers: the channel also gets every change whose run failed
// (Change.Refused set), so that the last run's error can be shown over the last good scene.
func (srv *Server) SubscribeRuns() (<-chan Change, func()) { return srv.subscribe(true) }

func (srv *Server) subscribe(runs bool) (<-chan Change, func()) {
	srv.subs.mu.Lock()
	defer srv.subs.mu.Unlock()
	if srv.subs.subs == nil {
		srv.subs.subs = map[int]chan Change{}
	}
	id := srv.subs.next
	srv.subs.next++
	ch := make(chan Change, 1)
	srv.subs.subs[id] = ch
	if runs {
		if srv.subs.runs == nil {
			srv.subs.runs = map[int]bool{}
		}
		srv.subs.runs[id] = true
	}
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			srv.subs.mu.Lock()
			defer srv.subs.mu.Unlock()
			delete(srv.subs.subs, id)
			delete(srv.subs.runs, id)
			close(ch)
		})
	}
}

// notify sends c to every subscriber, replacing a change it has not read yet.
func (srv *Server) notify(c Change) {
	srv.subs.mu.Lock()
	defer srv.subs.mu.Unlock()
	for id, ch := range srv.subs.subs {
		if c.Refused != nil && !srv.subs.runs[id] {
			continue
		}
		select {
		case ch <- c:
		default:
			select {
			case <-ch: // drop the stale one
			default:
			}
			ch <- c
		}
	}
}
