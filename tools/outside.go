package tools

// Files changed by someone else: an editor, another process, another MCP client. Each answer
// names the files that changed on disk between this client's previous call and this one, so
// that an agent does not go on editing from a stale picture. The session keeps a hash per user
// file as its last call left them; changes the call itself makes are taken in after it.

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/runtime"
)

// fileHashes hashes the workspace's own files (main and user modules) by logical name.
func (srv *Server) fileHashes() map[string][sha256.Size]byte {
	files, err := srv.ws.UserFiles()
	if err != nil {
		return nil
	}
	out := make(map[string][sha256.Size]byte, len(files))
	for name, b := range files {
		out[name] = sha256.Sum256(b)
	}
	return out
}

// changedOutside names the files that differ from the snapshot of this session's last call
// (created, changed or deleted), sorted; nil on a session's first call.
func (se *Session) changedOutside() []string {
	se.mu.Lock()
	prev := se.seenFiles
	se.mu.Unlock()
	if prev == nil {
		return nil
	}
	cur := se.srv.fileHashes()
	if cur == nil {
		return nil
	}
	var out []string
	for name, h := range cur {
		if old, ok := prev[name]; !ok || old != h {
			out = append(out, name)
		}
	}
	for name := range prev {
		if _, ok := cur[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// snapshotFiles records the files as this call leaves them.
func (se *Session) snapshotFiles() {
	cur := se.srv.fileHashes()
	if cur == nil {
		return
	}
	se.mu.Lock()
	se.seenFiles = maps.Clone(cur)
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
