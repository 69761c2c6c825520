package engine

// Every change (write, edit, move, delete, undo, redo, snapshot) opens the same way: take the
// workspace lock, bring the scene up to date with the files on disk, and keep the files as
// that sync read them, once, as the state before the change. Everything after reads from
// that state instead of the disk: the file a tool changes, the run's sources, the case check
// of a new name, the history's catch-up and, after the change, the files now (before plus the
// change). The history is loaded on first use. Only when a file could not be read (before is
// nil) do the steps go back to the workspace, so that the run reports why.

import (
	"context"
	"fmt"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/scene"
)

// txn is an open transaction: it holds the workspace lock until end.
type txn struct {
	srv    *Server
	unlock func()
	synced *SyncResult
	// before is the user files as the sync read them under the lock; nil when one could not
	// be read.
	before map[string][]byte

	hist         *modules.History // nil until history
	histWarnings []string
}

// begin takes the workspace lock and syncs. A lock that could not be taken (ctx ended) is a
// lockError; a sync that failed (ctx ended while main ran) is returned as it is.
func (srv *Server) begin(ctx context.Context) (*txn, error) {
	unlock, err := srv.ws.Lock(ctx)
	if err != nil {
		return nil, lockError{fmt.Errorf("taking the workspace lock: %w", err)}
	}
	synced, before, err := srv.syncLocked(ctx)
	if err != nil {
		unlock()
		return nil, err
	}
	return &txn{srv: srv, unlock: unlock, synced: synced, before: before}, nil
}

// lockError marks begin's failure to take the lock, which callers return as it is; a failed
// sync they may wrap.
type lockError struct{ error }

func (e lockError) Unwrap() error { return e.error }

// refused is the error of a change that begin could not open: a lock that could not be
// taken as it is, a failed sync as a change not applied.
func refused(err error) error {
	if _, ok := err.(lockError); ok {
		return err
	}
	return NotApplied(err)
}

// beginRestore is begin for a transaction that restores files (travel, Restore): it also
// answers the files before it, and its errors are a change's.
func (srv *Server) beginRestore(ctx context.Context) (*txn, map[string][]byte, error) {
	tx, err := srv.begin(ctx)
	if err != nil {
		return nil, nil, refused(err)
	}
	disk, err := tx.files()
	if err != nil {
		tx.end()
		return nil, nil, NotApplied(err)
	}
	return tx, disk, nil
}

// end releases the lock.
func (tx *txn) end() { tx.unlock() }

// history is the history log, loaded once per transaction, with the warnings of loading it.
func (tx *txn) history() (*modules.History, []string) {
	if tx.hist == nil {
		tx.hist, tx.histWarnings = tx.srv.LoadHistory()
	}
	return tx.hist, tx.histWarnings
}

// files is before; when it is not known, the workspace is read again and what it holds
// becomes before, or the error of reading it says why.
func (tx *txn) files() (map[string][]byte, error) {
	if tx.before != nil {
		return tx.before, nil
	}
	files, err := tx.srv.ws.UserFiles()
	if err != nil {
		return nil, fmt.Errorf("reading the workspace: %w", err)
	}
	tx.before = files
	return files, nil
}

// userFile is the workspace's own file of a name (not a built-in's text) before the change.
func (tx *txn) userFile(name string) ([]byte, bool, error) {
	if tx.before == nil {
		return tx.srv.UserFile(name)
	}
	b, ok := tx.before[name]
	return b, ok, nil
}

// catchUp records the files before the change, with the scene sc, when the history's current
// entry is not them (see catchUp); the caller saves.
func (tx *txn) catchUp(sc *scene.Scene) (bool, error) {
	h, _ := tx.history()
	return catchUp(h, tx.before, sc)
}

// filesAfter moves the server's record of the files its scene was built from to the workspace
// after change c, and answers those files (nil when one could not be read): before plus c,
// or, when before is not known, the files read again.
func (tx *txn) filesAfter(c modules.Change) map[string][]byte {
	srv := tx.srv
	if tx.before == nil {
		now, st, readable := srv.diskFiles()
		srv.mu.Lock()
		srv.built, srv.mainErr = st, ""
		srv.mu.Unlock()
		if !readable {
			return nil
		}
		return now
	}
	now := modules.After(tx.before, c)
	srv.setBuilt(now)
	return now
}
