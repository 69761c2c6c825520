package tools

// Notifications: watchers and viewers learn of every change that lands. Delivery never blocks
// a transaction: a subscriber that falls behind keeps only the newest change, which is all a
// viewer needs (the scene it names is the current one).

import (
	"sync"

	"github.com/cadrun/cadrun/scene"
)

// Change is sent to subscribers after a change lands.
type Change struct {
	Files []string     // the logical names the change wrote, moved or deleted
	Scene *scene.Scene // the new scene; read-only
}

type subscribers struct {
	mu   sync.Mutex
	next int
	subs map[int]chan Change
}

// Subscribe returns a channel of landed changes and a function that ends the subscription
// (and closes the channel). The channel holds one change; a slow reader sees the newest.
func (s *Server) Subscribe() (<-chan Change, func()) {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	if s.subs.subs == nil {
		s.subs.subs = map[int]chan Change{}
	}
	id := s.subs.next
	s.subs.next++
	ch := make(chan Change, 1)
	s.subs.subs[id] = ch
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			s.subs.mu.Lock()
			defer s.subs.mu.Unlock()
			delete(s.subs.subs, id)
			close(ch)
		})
	}
}

// notify sends c to every subscriber, replacing a change it has not read yet.
func (s *Server) notify(c Change) {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	for _, ch := range s.subs.subs {
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
