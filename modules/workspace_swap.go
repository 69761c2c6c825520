package modules

// A rename over an existing file pays, inside the rename, for the old file's end: on ext4 its
// blocks are freed and its inode released there and then, and for a file whose bytes were not
// synced (scene.json) the rename also starts writing the new bytes out (ext4's auto_da_alloc),
// which the directory's fsync running beside it must then wait for, on the path to the answer.
// A change under the workspace lock therefore swaps the new file with the old one instead
// (renameat2 RENAME_EXCHANGE: both entries change in one step, the name never missing), so
// that the old file lands under the temp file's hidden name; once the directory is synced it
// is moved to .cadrun/trash and removed there in the background, after the answer (the trash
// stays open, so that each of those is one call). The durability is the rename's: the new
// bytes are synced before the swap and the directory after it. A filesystem without the
// exchange, a target that went away, or a trash that cannot be reached falls back to the
// rename or to removing the old file at once.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// trashDir holds the old files that swapped writes displaced, until they are removed.
const trashDir = ".cadrun/trash"

// swapIn puts the temp file in place of its target by exchanging the two, when the target
// exists; the old file is then under the temp file's name (t.displaced) until dropDisplaced.
// The directory stays open in t.dir for sync. It reports false when the exchange could not be
// made: the caller renames instead.
func (t *tempFile) swapIn() bool {
	d, err := t.w.root.OpenFile(path.Dir(t.p), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		return false
	}
	if err := exchange(d, path.Base(t.tmp), path.Base(t.p)); err != nil {
		d.Close()
		return false
	}
	t.dir, t.displaced = d, true
	return true
}

// dropDisplaced moves the old file a swap displaced from its directory dir (open, or nil) to
// the trash, where it is removed in the background; when that move cannot be made the old file
// is removed at once.
func (t *tempFile) dropDisplaced(dir *os.File) {
	if !t.displaced {
		return
	}
	t.displaced = false
	var suffix [8]byte
	rand.Read(suffix[:])
	name := "old-" + hex.EncodeToString(suffix[:])
	if trash := t.w.trash(); trash != nil && dir != nil {
		err := moveAt(dir, path.Base(t.tmp), trash, name)
		if err == nil {
			t.w.removeLater(trash, name)
			return
		}
		if errors.Is(err, fs.ErrNotExist) {
			t.w.forgetTrash(trash) // removed since it was opened: open it again next time
		}
	}
	t.w.root.Remove(t.tmp)
}

// trash is the trash folder, opened once (and made when missing) and kept open, so that a move
// into it and a removal in it are one call each; nil when it cannot be opened.
func (w *Workspace) trash() *os.File {
	w.trashMu.Lock()
	defer w.trashMu.Unlock()
	if w.trashFile != nil {
		return w.trashFile
	}
	open := func() (*os.File, error) {
		return w.root.OpenFile(trashDir, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	}
	d, err := open()
	if errors.Is(err, fs.ErrNotExist) && w.root.Mkdir(trashDir, 0o755) == nil {
		d, err = open()
	}
	if err != nil {
		return nil
	}
	w.trashFile = d
	return d
}

// forgetTrash stops using d, a trash folder that a move into failed; Close closes it.
func (w *Workspace) forgetTrash(d *os.File) {
	w.trashMu.Lock()
	defer w.trashMu.Unlock()
	if w.trashFile == d {
		w.trashFile = nil
		w.trashStale = append(w.trashStale, d)
	}
}

// closeTrash waits for the removals in the background and closes the trash folder.
func (w *Workspace) closeTrash() {
	w.removing.Wait()
	w.trashMu.Lock()
	defer w.trashMu.Unlock()
	for _, d := range append(w.trashStale, w.trashFile) {
		if d != nil {
			d.Close()
		}
	}
	w.trashFile, w.trashStale = nil, nil
}

// removeLater removes the file name of the trash folder d in the background. The first one a
// Workspace removes also empties the trash of what a process killed before its own removals
// left there. Close waits for them.
func (w *Workspace) removeLater(d *os.File, name string) {
	w.trashMu.Lock()
	sweep := !w.trashSwept
	w.trashSwept = true
	w.trashMu.Unlock()
	w.removing.Go(func() {
		removeAt(d, name)
		if !sweep {
			return
		}
		list, err := w.root.OpenFile(trashDir, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
		if err != nil {
			return
		}
		names, _ := list.Readdirnames(-1)
		list.Close()
		for _, n := range names {
			removeAt(d, n)
		}
	})
}
