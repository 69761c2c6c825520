package tools

// What a person selects, locks or hides in a viewer reaches the agent three ways: the scene
// tool's selection command, the resource cadrun://selection, and a line in the next tool
// answer of every client that has not seen it yet ("the user selected gear_1, bolt_3").
// Current MCP clients drop resource notifications, so the answer line is the channel they
// read. The selection lives in the workspace (modules.SelectionFile), so a viewer in another
// process is seen too: each answer reads the file again (a few hundred bytes).

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
)

// selectionWatch tells watchers (resource subscriptions) that the selection changed.
type selectionWatch struct {
	mu   sync.Mutex
	last *modules.Selection
	next int
	subs map[int]chan struct{}
}

// LoadSelection reads the workspace's selection; a change since the last read is announced
// to WatchSelection's channels. It makes the Server a viewer.SelectionStore.
func (srv *Server) LoadSelection() (modules.Selection, error) {
	sel, err := srv.ws.LoadSelection()
	if err != nil {
		return modules.Selection{}, err
	}
	srv.noteSelection(sel)
	return sel, nil
}

// SaveSelection replaces the workspace's selection and announces it.
func (srv *Server) SaveSelection(sel modules.Selection) (modules.Selection, error) {
	sel, err := srv.ws.SaveSelection(sel)
	if err != nil {
		return modules.Selection{}, err
	}
	srv.noteSelection(sel)
	return sel, nil
}

func (srv *Server) noteSelection(sel modules.Selection) {
	w := &srv.selWatch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last != nil && w.last.Equal(sel) {
		return
	}
	first := w.last == nil
	w.last = &sel
	if first {
		return // the first read is the starting point, not a change
	}
	for _, ch := range w.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// WatchSelection returns a channel that gets a value when the selection changes (as seen by
// LoadSelection or SaveSelection), and a function that ends the watch.
func (srv *Server) WatchSelection() (<-chan struct{}, func()) {
	w := &srv.selWatch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.subs == nil {
		w.subs = map[int]chan struct{}{}
	}
	id := w.next
	w.next++
	ch := make(chan struct{}, 1)
	w.subs[id] = ch
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			delete(w.subs, id)
		})
	}
}

// selection answers scene selection, and counts as the session having seen it.
func (se *Session) selection() (*modules.Selection, error) {
	sel, err := se.srv.LoadSelection()
	if err != nil {
		return nil, err
	}
	se.mu.Lock()
	se.heard.sel = &sel
	se.mu.Unlock()
	return &sel, nil
}

// SelectionNote is the line for this session's next answer: what the user changed in a
// viewer since the session's last call, or "" when nothing changed. A session that starts
// while something is selected, locked or hidden is told once.
func (se *Session) SelectionNote() string {
	sel, err := se.srv.LoadSelection()
	if err != nil {
		return ""
	}
	se.mu.Lock()
	prev := se.heard.sel
	se.heard.sel = &sel
	se.mu.Unlock()
	if prev == nil {
		empty, _ := modules.Selection{}.Normalize()
		prev = &empty
	}
	return selectionNote(*prev, sel)
}

// selectionNote describes the change from prev to cur in the user's terms.
func selectionNote(prev, cur modules.Selection) string {
	var parts []string
	switch {
	case slices.Equal(prev.Selected, cur.Selected):
	case len(cur.Selected) == 0:
		parts = append(parts, "cleared the selection")
	default:
		parts = append(parts, "selected "+engine.NameList(cur.Selected))
	}
	for _, l := range []struct {
		prev, cur   []string
		on, offWord string
	}{{prev.Locked, cur.Locked, "locked", "unlocked"}, {prev.Hidden, cur.Hidden, "hid", "showed"}} {
		if added := missing(l.cur, l.prev); len(added) > 0 {
			parts = append(parts, l.on+" "+engine.NameList(added))
		}
		if removed := missing(l.prev, l.cur); len(removed) > 0 {
			parts = append(parts, l.offWord+" "+engine.NameList(removed))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "the user " + strings.Join(parts, "; ") + " (in the viewer; scene selection lists it)"
}

// missing lists the names of a that are not in b.
func missing(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

// viewerNews is what a session last heard of the viewer: the selection as its last answer
// left it, and the sketch as it last saw it (nil: nothing yet).
type viewerNews struct {
	sel    *modules.Selection
	sketch *sketchMark
}

// lockWatcher warns of locked entities a change's run changed.
type lockWatcher struct{ srv *Server }

// Check names the locked entities a run changed (moved, restyled, redrawn, reordered,
// regrouped or removed); the change lands all the same, as upstream lets it.
func (w lockWatcher) Check(old, cur *scene.Scene) []string { return w.srv.lockedWarnings(old, cur) }

// Landed implements engine.Watcher: locks have nothing to do once a scene landed.
func (lockWatcher) Landed(_, _ *scene.Scene, _ *engine.ChangeResult) {}

// lockedWarnings is lockWatcher.check.
func (srv *Server) lockedWarnings(old, cur *scene.Scene) []string {
	sel, err := srv.ws.LoadSelection()
	if err != nil || len(sel.Locked) == 0 {
		return nil
	}
	type state struct {
		shape     scene.Shape
		transform scene.Transform
		style     scene.Style
		parent    string
		rank      int
		bounds    geom.Box
	}
	get := func(s *scene.Scene, name string) (state, bool) {
		e, err := s.Get(name)
		if err != nil {
			return state{}, false
		}
		return state{e.Shape, e.Transform, e.Style, e.Parent(), s.ZRank(e), s.WorldBounds(e)}, true
	}
	var changed, removed []string
	for _, name := range sel.Locked {
		a, had := get(old, name)
		b, has := get(cur, name)
		switch {
		case had && !has:
			removed = append(removed, name)
		case had != has || !reflect.DeepEqual(a, b):
			changed = append(changed, name)
		}
	}
	var out []string
	if len(changed) > 0 {
		out = append(out, fmt.Sprintf("Warning: this change altered locked entities: %s (locked in the viewer; undo with scene undo if that was not meant)", engine.NameList(changed)))
	}
	if len(removed) > 0 {
		out = append(out, fmt.Sprintf("Warning: this change removed locked entities: %s (locked in the viewer; undo with scene undo if that was not meant)", engine.NameList(removed)))
	}
	return out
}
