package modules

// The journal database is the one workspace file cadrun does not open itself: SQLite opens it
// by path (and its -wal and -shm companions). So the path is handed out only after the same
// checks every other workspace file gets: .cadrun/ is a real directory of the workspace, and
// each database file is absent or a regular file with one link, never a symlink, hardlink,
// FIFO or device that could lead SQLite to another file.

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
)

// JournalFile is the journal database, in the workspace.
const JournalFile = ".cadrun/journal.db"

// JournalPath returns the journal database's path on disk, creating .cadrun/ as needed. It
// refuses, wrapping ErrNotRegular, when .cadrun/ or any of the database's files is not what
// it should be.
func (w *Workspace) JournalPath() (string, error) {
	dir := filepath.Dir(JournalFile)
	if err := w.root.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("opening the journal: %w", err)
	}
	if st, err := w.root.Lstat(dir); err != nil {
		return "", fmt.Errorf("opening the journal: %w", err)
	} else if !st.IsDir() {
		return "", fmt.Errorf("opening the journal: %w: %s is %s, not a directory; remove it", ErrNotRegular, dir, KindOf(st.Mode()))
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		p := JournalFile + suffix
		st, err := w.root.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("opening the journal: %w", err)
		}
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("opening the journal: %w: %s is %s; remove it", ErrNotRegular, p, KindOf(st.Mode()))
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink != 1 {
			return "", fmt.Errorf("opening the journal: %w: %s has %d hard links; remove the other links", ErrNotRegular, p, sys.Nlink)
		}
	}
	abs, err := filepath.Abs(filepath.Join(w.dir, filepath.FromSlash(JournalFile)))
	if err != nil {
		return "", fmt.Errorf("opening the journal: %w", err)
	}
	return abs, nil
}
