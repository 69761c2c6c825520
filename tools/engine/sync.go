package engine

// Sync: one server is rarely the only writer of its workspace. Another server on the same
// directory, a `cadrun tool write`, or a person's editor changes the files too, and the scene
// this server holds must follow, or its views go stale, its next change's answer lists as
// "added" entities that already existed, and its undo takes back changes it never saw.
//
// The server remembers the content hash of every user file its scene was built from. Sync
// hashes the files on disk (cheap: a workspace is a few small files) and, only when they
// differ, takes the workspace lock and runs main again from exactly the bytes it hashed. A
// main that no longer runs (an editor saving half a line) keeps the last good scene; the
// failure is remembered with the files, so it is not run again until they change. Every MCP
// call, resource read and transaction syncs first; watch mode and the viewer call Sync too.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// SyncResult says what a Sync found on disk.
type SyncResult struct {
	// Files names the user files that changed, appeared or went away since the scene was
	// built, sorted; empty when the scene was current.
	Files []string `json:"files,omitempty"`
	// Ran reports that main ran again and the scene moved to what the files now draw.
	Ran bool `json:"ran,omitempty"`
	// Added, Removed and Changed name the entities that moved with it (capped lists, the
	// rest counted in More).
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Changed []string `json:"changed,omitempty"`
	// Restacked names the entities whose only change is their place in the stacking.
	Restacked []string   `json:"restacked,omitempty"`
	More      *MoreCount `json:"more,omitempty"`
	// Error is the diagnostic of a main that does not run as the files are now (found by
	// this sync or an earlier one); the scene is then the last good one.
	Error string `json:"error,omitempty"`
}

// Note is the sentence a tool answer carries about a sync that found changes, or "".
func (r *SyncResult) Note() string {
	if r == nil {
		return ""
	}
	if len(r.Files) == 0 {
		if r.Error == "" {
			return ""
		}
		return "main as it is on disk does not run, so the scene is still the last good one:\n" + r.Error
	}
	names := make([]string, len(r.Files))
	for i, n := range r.Files {
		names[i] = runtime.PathOf(n)
	}
	msg := fmt.Sprintf("%s changed on disk since this server last ran main (another client, another process or an editor)", strings.Join(names, ", "))
	if r.Error != "" {
		return msg + "; main does not run as it is now, so the scene is still the last good one:\n" + r.Error
	}
	return msg + "; the scene was rebuilt from the files first"
}

// diskState is the content hash of each user file by logical name; a file that could not be
// read has the zero hash, so that it counts as changed until it reads again.
type diskState map[string][sha256.Size]byte

func hashFiles(files map[string][]byte) diskState {
	st := make(diskState, len(files))
	for n, b := range files {
		st[n] = sha256.Sum256(b)
	}
	return st
}

// diskFiles reads the user files. ok is false when one of them could not be read: the state
// then marks it, and a run must read the workspace itself to report why.
func (srv *Server) diskFiles() (files map[string][]byte, st diskState, ok bool) {
	return srv.readFiles(srv.ws.ListUser())
}

// diskFilesLocked is diskFiles for a caller that holds the workspace lock and has made no temp
// file under it yet (modules.ListUserLocked).
func (srv *Server) diskFilesLocked() (files map[string][]byte, st diskState, ok bool) {
	return srv.readFiles(srv.ws.ListUserLocked())
}

// readFiles reads the listed files, as diskFiles says.
func (srv *Server) readFiles(list []modules.FileInfo) (files map[string][]byte, st diskState, ok bool) {
	files, ok = map[string][]byte{}, true
	st = diskState{}
	for _, f := range list { // no fonts: drawText reads them, not as files of the program
		b, _, err := srv.ws.Read(f.Name)
		if err != nil {
			st[f.Name], ok = [sha256.Size]byte{}, false
			continue
		}
		files[f.Name], st[f.Name] = b, sha256.Sum256(b)
	}
	return files, st, ok
}

// changedFiles names the files whose state differs between a and b, sorted.
func changedFiles(a, b diskState) []string {
	var out []string
	for n, h := range a {
		if g, ok := b[n]; !ok || g != h {
			out = append(out, n)
		}
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Sync brings the scene up to date with the files on disk: when they changed since the scene
// was built, main runs again (under the workspace lock) and the scene, the subscribers and
// the answer follow. It is safe for concurrent use; when nothing changed it takes no lock.
// The error is only for a lock that could not be taken (ctx ended); a main that does not run
// is reported in the result.
func (srv *Server) Sync(ctx context.Context) (*SyncResult, error) {
	res, _, err := srv.sync(ctx)
	return res, err
}

// sync is Sync that also answers the files' state as it read them (nil when one could not be
// read), so that a tool call compares it with its session's last (outside.go) without
// reading the workspace again.
func (srv *Server) sync(ctx context.Context) (*SyncResult, diskState, error) {
	files, st, readable := srv.diskFiles()
	if srv.pending.Load() && !srv.buildPending(ctx, &diskRead{files, st, readable}) && ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if len(srv.staleFiles(st)) == 0 {
		return &SyncResult{Error: srv.mainError()}, st, nil
	}
	unlock, err := srv.ws.Lock(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("taking the workspace lock: %w", err)
	}
	defer unlock()
	res, files, err := srv.syncLocked(ctx)
	if files == nil {
		return res, nil, err
	}
	return res, hashFiles(files), err
}

// mainError is the diagnostic of main as it is on disk when it does not run, else "".
func (srv *Server) mainError() string {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.mainErr
}

// staleFiles names the files that differ from the ones the scene was built from.
func (srv *Server) staleFiles(st diskState) []string {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return changedFiles(srv.built, st)
}

// syncLocked is Sync for a caller that holds the workspace lock. It also returns the files
// as read (nil when one could not be read), which a transaction records as the state before
// its change.
func (srv *Server) syncLocked(ctx context.Context) (*SyncResult, map[string][]byte, error) {
	files, st, readable := srv.diskFilesLocked()
	// A server made with OneCall builds its scene from these files: nothing is stale.
	if srv.pending.Load() && !srv.buildPending(ctx, &diskRead{files, st, readable}) && ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if !readable {
		files = nil
	}
	out := &SyncResult{Files: srv.staleFiles(st)}
	if len(out.Files) == 0 {
		out.Error = srv.mainError()
		return out, files, nil
	}
	var src runtime.Source = srv.ws
	if readable {
		src = srv.ws.FilesSource(files) // exactly the bytes hashed
	}
	res, err := srv.run(ctx, src)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err != nil {
		out.Error = diagnostic(err)
		srv.mu.Lock()
		srv.built, srv.mainErr = st, out.Error // not run again until the files change
		srv.mu.Unlock()
		return out, files, nil
	}
	out.Ran = true
	srv.mu.Lock()
	old := srv.scene
	srv.scene, srv.lint, srv.built, srv.mainErr = res.Scene, lintOf(res), st, ""
	srv.mu.Unlock()
	srv.notify(Change{Files: out.Files, Scene: res.Scene})
	out.Added, out.Removed, out.Changed, out.Restacked, out.More = diffScenes(old, res.Scene)
	srv.tellWatchers(old, res.Scene, nil)
	return out, files, nil
}

// diagnostic is the text of a run's failure without the "not applied" line of a change.
func diagnostic(err error) string {
	return strings.TrimSuffix(strings.TrimSuffix(NotApplied(err).Error(), ErrNotApplied.Error()), "\n")
}

// setBuilt records the files a scene that just landed was built from.
func (srv *Server) setBuilt(files map[string][]byte) {
	st := hashFiles(files)
	srv.mu.Lock()
	srv.built, srv.mainErr = st, ""
	srv.mu.Unlock()
}
