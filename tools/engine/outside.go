package engine

// Files changed by someone else: an editor, another process, another MCP client. Each answer
// names the files that changed on disk between this client's previous call and this one, so
// that an agent does not go on editing from a stale picture. The session keeps the files'
// state (diskState, as Sync hashes them) as its last call left them, and compares it with the
// state the sync before the next call read; changes the call itself makes are taken in after
// it.

import (
	"context"
	"fmt"
	"strings"
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

// maxNoted caps the names one list of a note names.
const maxNoted = 10

// NameList names at most maxNoted names, and how many more there are.
func NameList(names []string) string {
	if len(names) <= maxNoted {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxNoted], ", "), len(names)-maxNoted)
}

// BeginCall brings the scene up to date with the files on disk before a client's call
// (Server.Sync) and names the files someone else changed since this session's last call.
func (se *Session) BeginCall(ctx context.Context) (synced *SyncResult, outside []string, err error) {
	synced, disk, err := se.srv.sync(ctx)
	if err != nil {
		return nil, nil, err
	}
	return synced, se.changedOutside(disk), nil
}

// EndCall records the files as the call leaves them, for the next call's BeginCall.
func (se *Session) EndCall() { se.snapshotFiles() }
