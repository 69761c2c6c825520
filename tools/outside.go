package tools

// Files changed by someone else: an editor, another process, another MCP client. Each answer
// names the files that changed on disk between this client's previous call and this one, so
// that an agent does not go on editing from a stale picture. The session keeps the files'
// state (diskState, as Sync hashes them) as its last call left them, and compares it with the
// state the sync before the next call read; changes the call itself makes are taken in after
// it.

import (
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/runtime"
)

// changedOutside names the files that differ between the snapshot of this session's last
// call and cur, the files as the sync before this call read them (created, changed or
// deleted), sorted; nil on a session's first call.
func (se *Session) changedOutside(cur diskState) []string {
	se.mu.Lock()
	prev := se.seenFiles
	se.mu.Unlock()
	if prev == nil || cur == nil {
		return nil
	}
	return changedFiles(prev, cur)
}

// snapshotFiles records the files as this call leaves them: as the server last read them (the
// sync before the call) or left them (a change the call made), without reading them again. A
// change someone else makes meanwhile is then news in the next answer. The state is shared,
// never changed in place.
func (se *Session) snapshotFiles() {
	se.srv.mu.Lock()
	cur := se.srv.built
	se.srv.mu.Unlock()
	se.mu.Lock()
	se.seenFiles = cur
	se.mu.Unlock()
}

// outsideNote is the answer line for files changed by someone else, or "".
func outsideNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = runtime.PathOf(n)
	}
	return fmt.Sprintf("changed on disk since your last call (by an editor, another process or another client): %s; read before you edit them", nameList(paths))
}

// joinNotes joins the non-empty notes, one per line.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "\n")
}
