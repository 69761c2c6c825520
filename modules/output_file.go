package modules

// Output files (an export into out/, `cadrun run -o`, `cadrun watch -out`, `cadrun test`'s
// report and difference pictures) are written by one writer that holds the folder it writes
// into. A check of a path and a later write to the same path are two lookups: a folder swapped
// for a link between them (out -> data) would lead the write where the check never looked. So
// the folder is opened once, without following a link at its end, and checked on the
// descriptor: walking up from it with ".." meets the very folders (device and inode) that the
// path named, with no link on the way, or the workspace's root. The temp file is made in the
// held folder and renamed inside it; just before the rename the path is checked again to still
// name the held folder, so a swap is refused, and one later than that check still cannot
// redirect the rename, which goes by the descriptor. (Outside Linux the folder is checked by
// its path, before the write and again before the rename.)

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrPlaceChanged is returned when the folder an output file goes into is not, as the file is
// written, the folder its path named when the write began: a folder on the way was moved, or
// swapped for a link.
var ErrPlaceChanged = errors.New("the output's folder changed during the write")

// fileID is a file's identity: its device and inode.
type fileID struct{ dev, ino uint64 }

// Place is a folder held open for writing output files into, checked to be where its path
// named it. It is used by one goroutine at a time; Close releases it.
type Place struct {
	dir *os.File // the folder, held
	// parent, when not nil, is the workspace's root, held for the check before the rename.
	parent *os.File
	shown  string // the folder as errors name it
	// real is the folder's path with no link in it, or "" for a workspace's out/ (checked
	// against the workspace's root instead).
	real string
	// still checks, just before a rename, that the path still names the held folder.
	still func() error
	// hook, when set (tests only), runs before each step of a write ("create", "rename").
	hook func(step string) error
}

// HoldFolder holds the folder dir (links on its way followed now, once) for output files. The
// returned Place's Real is the path checked: place rules (CheckOutputPlace) are checked on it.
func HoldFolder(dir string) (*Place, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	p, err := holdPath(real)
	if err != nil {
		return nil, fmt.Errorf("opening the folder %s: %w", dir, err)
	}
	p.shown = dir
	return p, nil
}

// Real is the held folder's path, with no link in it: the place a check of the output's path
// must judge.
func (p *Place) Real() string { return p.real }

// Close releases the folder.
func (p *Place) Close() error {
	if p.parent != nil {
		p.parent.Close()
	}
	if p.dir == nil {
		return nil
	}
	return p.dir.Close()
}

func (p *Place) step(name string) error {
	if p.hook != nil {
		return p.hook(name)
	}
	return nil
}

// Replace writes data to the file name in the held folder through a temp file beside it,
// renamed over it, so that a reader never sees half a file and a link at name is replaced,
// never written through. The file gets mode's permission bits. durable syncs the file and the
// folder, so that the new file survives a power cut.
func (p *Place) Replace(name string, data []byte, mode fs.FileMode, durable bool) (err error) {
	if err := p.step("create"); err != nil {
		return err
	}
	tmp := tempNameFor(name)
	f, err := p.create(tmp)
	if err != nil {
		return err
	}
	defer func() {
		if f != nil {
			f.Close()
		}
		if err != nil {
			p.remove(tmp)
		}
	}()
	// Chmod rather than the create mode: the umask must not change an existing file's bits.
	if err := f.Chmod(mode.Perm()); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if durable {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	err = f.Close()
	f = nil
	if err != nil {
		return err
	}
	if err := p.RenameIn(tmp, name); err != nil {
		return err
	}
	if durable {
		if err := p.dir.Sync(); err != nil {
			return fmt.Errorf("syncing the folder %s: %w", p.shown, err)
		}
	}
	return nil
}

// RenameIn renames the file tmp of the held folder over name, after checking that the folder
// is still where its path names it; when it is not, nothing is renamed and the error wraps
// ErrPlaceChanged.
func (p *Place) RenameIn(tmp, name string) error {
	if err := p.step("rename"); err != nil {
		return err
	}
	if err := p.still(); err != nil {
		return err
	}
	return p.rename(tmp, name)
}

// changed is the error of a folder that is no longer where its path named it.
func (p *Place) changed() error {
	return fmt.Errorf("%w: %s is not the folder it was when the write began (moved, or swapped for a link); nothing was written there: write again", ErrPlaceChanged, p.shown)
}

// tempNameFor is a new hidden name for a temp file beside name, named after it.
func tempNameFor(name string) string {
	var suffix [8]byte
	rand.Read(suffix[:])
	return "." + name + ".cadrun-tmp-" + hex.EncodeToString(suffix[:])
}
