package modules

// Writes never touch the target in place: truncating in place is the one way to leave a torn
// file, and it would follow a hardlink or a symlink to whatever the link names. Instead the new
// bytes go to a hidden temp file in the same directory, which is fsynced, closed and renamed
// over the target (the rename replaces a link itself, never what it points to); then the
// directory is fsynced so that the rename survives a power cut. A reader or a crash sees the
// old file or the new one, never a mixture, and at most one temp file is left behind, which
// the next Open removes.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/cadrun/cadrun/runtime"
)

// ErrCaseCollision is returned when a new name differs only in case from an existing module:
// the two would be one file on a case-insensitive filesystem.
var ErrCaseCollision = errors.New("name differs only in case from an existing module")

// tempPrefix starts every temp file's name: hidden, and never a logical name.
const tempPrefix = ".cadrun-tmp-"

// newFileMode is the mode of a file a write creates; an existing file keeps its own.
const newFileMode fs.FileMode = 0o644

// write replaces the file of a logical name (main or a module) with data, atomically, creating
// modules/ if needed, outside a change (a restore of the history's files). created reports
// that the file did not exist before. A name that differs only in case from an existing module
// is refused with ErrCaseCollision, and data over MaxReadBytes with ErrTooLarge, before
// anything is written. Writing a built-in module's name creates a user module, which then wins
// over the built-in. files is the user files as the caller read them under the lock (nil: not
// known), whose names the case check uses instead of a listing of modules/.
func (w *Workspace) write(name string, data []byte, files map[string][]byte) (created bool, err error) {
	pw, err := w.prepareWrite(name, data, files)
	if err != nil {
		return false, err
	}
	return pw.land()
}

// pendingWrite is a write whose new bytes wait, synced, in a temp file beside the target.
type pendingWrite struct {
	t      *tempFile
	exists bool
}

// prepareWrite is the first half of write: every check, and the new bytes written and synced
// to a temp file. Only land makes them the file.
func (w *Workspace) prepareWrite(name string, data []byte, files map[string][]byte) (*pendingWrite, error) {
	if err := CheckFileName(name); err != nil {
		return nil, err
	}
	p := runtime.PathOf(name)
	if len(data) > MaxReadBytes {
		return nil, fmt.Errorf("writing %s: %w: %d bytes is over %d (MaxReadBytes)", p, ErrTooLarge, len(data), MaxReadBytes)
	}
	if err := w.checkCaseAmong(name, "", files); err != nil {
		return nil, err
	}
	mode, exists, err := w.targetMode(p)
	var t *tempFile
	if err == nil {
		t, err = w.writeTemp(p, data, mode, true)
	}
	if err != nil {
		return nil, writeError(p, err)
	}
	return &pendingWrite{t: t, exists: exists}, nil
}

// land renames the prepared bytes over the file and makes the rename durable.
func (pw *pendingWrite) land() (created bool, err error) {
	if err := pw.t.rename(); err != nil {
		return false, writeError(pw.t.p, err)
	}
	return !pw.exists, nil
}

// put renames the prepared bytes over the file; sync then makes that durable.
func (pw *pendingWrite) put() (created bool, err error) {
	if err := pw.t.put(); err != nil {
		return false, writeError(pw.t.p, err)
	}
	return !pw.exists, nil
}

func (pw *pendingWrite) sync() error {
	if err := pw.t.sync(); err != nil {
		return writeError(pw.t.p, err)
	}
	return nil
}

// writeError is the error of a failed write of p.
func writeError(p string, err error) error {
	if errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("writing %s: %s is not a directory; rename or remove the file named %s, then write again", p, path.Dir(p), path.Dir(p))
	}
	return fmt.Errorf("writing %s: %w", p, err)
}

// Delete removes the file of a logical name. A built-in module cannot be deleted; deleting a
// user module that overrides one brings the built-in back.
func (w *Workspace) Delete(name string) error {
	if err := CheckFileName(name); err != nil {
		return err
	}
	p := runtime.PathOf(name)
	if _, err := w.root.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		if _, ok := builtinSource(name); ok {
			return fmt.Errorf("deleting %s: %w: %q is a built-in module, which is read-only", p, runtime.ErrModuleNotFound, name)
		}
		return fmt.Errorf("deleting %s: %w: %q", p, runtime.ErrModuleNotFound, name)
	} else if err != nil {
		return fmt.Errorf("deleting %s: %w", p, err)
	}
	if err := w.root.Remove(p); err != nil {
		return fmt.Errorf("deleting %s: %w", p, err)
	}
	if err := w.syncDir(path.Dir(p)); err != nil {
		return fmt.Errorf("deleting %s: %w", p, err)
	}
	return nil
}

// Move renames the file of logical name from to to. It refuses a to that exists (wrapping
// fs.ErrExist) or that differs only in case from another module; changing only the case of a
// name is allowed. Callers that race other writers hold Lock.
func (w *Workspace) Move(from, to string) error {
	for _, n := range []string{from, to} {
		if err := CheckFileName(n); err != nil {
			return err
		}
	}
	if err := CheckMoveKinds(from, to); err != nil {
		return err
	}
	src, dst := runtime.PathOf(from), runtime.PathOf(to)
	if from == to {
		return fmt.Errorf("moving %s: the new name is the same", src)
	}
	st, err := w.root.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("moving %s: %w: %q", src, runtime.ErrModuleNotFound, from)
	}
	if err != nil {
		return fmt.Errorf("moving %s: %w", src, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("moving %s: %w: it is a %s", src, ErrNotRegular, st.Mode().Type())
	}
	if err := w.checkCase(to, from); err != nil {
		return err
	}
	// Existence by exact name from the listing: on a case-insensitive filesystem Lstat of
	// House.js would find house.js, and a case-only rename must still go through.
	if w.hasEntry(dst) {
		return fmt.Errorf("moving %s to %s: %w: %s already exists; delete it first or choose another name", src, dst, fs.ErrExist, dst)
	}
	if err := w.root.MkdirAll(path.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("moving %s: %w", src, err)
	}
	if err := w.root.Rename(src, dst); err != nil {
		return fmt.Errorf("moving %s: %w", src, err)
	}
	for _, d := range uniq(path.Dir(src), path.Dir(dst)) {
		if err := w.syncDir(d); err != nil {
			return fmt.Errorf("moving %s: %w", src, err)
		}
	}
	return nil
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// hasEntry reports whether the directory of p lists p's base name exactly.
func (w *Workspace) hasEntry(p string) bool {
	entries, err := w.readDir(path.Dir(p))
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() == path.Base(p) {
			return true
		}
	}
	return false
}

// checkCase refuses a module name that is not in the workspace but differs only in case from
// a module that is (a user module or a built-in). except is a name to ignore: the module being
// renamed.
func (w *Workspace) checkCase(name, except string) error {
	return w.checkCaseAmong(name, except, nil)
}

// checkCaseAmong is checkCase with the user files as read under the lock (nil: list
// modules/ for them).
func (w *Workspace) checkCaseAmong(name, except string, files map[string][]byte) error {
	if IsDataName(name) {
		return w.checkDataCase(name, except, files != nil)
	}
	if name == runtime.MainModule {
		return nil
	}
	mods := moduleNames(files)
	if files == nil {
		mods = w.userModules()
	}
	var other string
	for _, n := range mods {
		if n == name {
			return nil // it exists: this is an overwrite, not a new name
		}
		if n != except && strings.EqualFold(n, name) {
			other = runtime.PathOf(n)
		}
	}
	if other == "" {
		for _, n := range BuiltinNames() {
			if n != name && strings.EqualFold(n, name) {
				other = "the built-in module " + builtinPath(n)
			}
		}
	}
	if other != "" {
		return fmt.Errorf("%w: %s would collide with %s; use the existing name or choose another", ErrCaseCollision, runtime.PathOf(name), other)
	}
	return nil
}

// moduleNames lists the user modules among files (main and data files left out), unsorted.
func moduleNames(files map[string][]byte) []string {
	var names []string
	for n := range files {
		if n != runtime.MainModule && !IsDataName(n) {
			names = append(names, n)
		}
	}
	return names
}

// targetMode is the mode a write of p gives the new file: an existing regular file's
// permission bits, else newFileMode. A directory in the way is refused.
func (w *Workspace) targetMode(p string) (mode fs.FileMode, exists bool, err error) {
	st, err := w.root.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return newFileMode, false, nil
	case err != nil:
		return 0, false, err
	case st.IsDir():
		return 0, true, fmt.Errorf("%w: %s is a directory", ErrNotRegular, p)
	case st.Mode().IsRegular():
		return st.Mode().Perm(), true, nil
	default: // a symlink, FIFO or device: the rename replaces the entry itself
		return newFileMode, true, nil
	}
}

// step runs the test hook, if any, before a step of a write.
func (w *Workspace) step(name string) error {
	if w.fail != nil {
		return w.fail(name)
	}
	return nil
}

// writeDerived writes data that can be rebuilt (scene.json, history) the same way but
// without the two fsyncs: a crash still leaves the old or the new bytes, and after a power
// loss the file may be empty or old, which its readers treat as missing. It keeps the fsync
// cost of a change to the one file the user wrote.
func (w *Workspace) writeDerived(p string, data []byte, mode fs.FileMode) error {
	return w.replaceFile(p, data, mode, false)
}

func (w *Workspace) replaceFile(p string, data []byte, mode fs.FileMode, durable bool) error {
	t, err := w.writeTemp(p, data, mode, durable)
	if err != nil {
		return err
	}
	return t.rename()
}

// tempFile is the first half of a replaceFile: the new bytes, written (and synced when
// durable) to a hidden temp file beside the target, waiting to be renamed over it.
type tempFile struct {
	w       *Workspace
	tmp, p  string
	durable bool
	// swap asks put to exchange the temp file with an existing target rather than rename
	// over it (workspace_swap.go); displaced then reports the old file under tmp, and dir is
	// the directory, open for sync.
	swap      bool
	displaced bool
	dir       *os.File
}

// writeTemp writes data to a new temp file in p's directory: the steps of replaceFile up to
// the rename. The temp file is removed on any failure.
func (w *Workspace) writeTemp(p string, data []byte, mode fs.FileMode, durable bool) (*tempFile, error) {
	dir := path.Dir(p)
	if err := w.step("mkdir"); err != nil {
		return nil, err
	}
	var suffix [8]byte
	rand.Read(suffix[:])
	tmp := path.Join(dir, tempPrefix+hex.EncodeToString(suffix[:]))
	if err := w.step("create"); err != nil {
		return nil, err
	}
	create := func() (*os.File, error) {
		return w.root.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	}
	// The directory is made only when it is missing: it nearly always exists, and making
	// sure of it costs a walk of every folder on the way.
	f, err := create()
	if errors.Is(err, fs.ErrNotExist) {
		if err := w.root.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err = create()
	}
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if f != nil {
			f.Close()
		}
		if !done {
			w.root.Remove(tmp)
		}
	}()
	// Chmod rather than the OpenFile mode: the umask must not change an existing file's bits.
	for _, s := range []struct {
		name string
		do   func() error
	}{
		{"chmod", func() error { return f.Chmod(mode) }},
		{"write", func() error { _, err := f.Write(data); return err }},
		{"sync", func() error {
			if !durable {
				return nil
			}
			return f.Sync()
		}},
		{"close", func() error { err := f.Close(); f = nil; return err }},
	} {
		if err := w.step(s.name); err != nil {
			return nil, err
		}
		if err := s.do(); err != nil {
			return nil, err
		}
	}
	done = true
	return &tempFile{w: w, tmp: tmp, p: p, durable: durable}, nil
}

// rename puts the temp file in place of its target, then syncs the directory when durable:
// the second half of replaceFile.
func (t *tempFile) rename() error {
	if err := t.put(); err != nil {
		return err
	}
	return t.sync()
}

// put renames the temp file over its target; the temp file is removed when that fails.
func (t *tempFile) put() error {
	if err := t.w.step("rename"); err != nil {
		t.remove()
		return err
	}
	if t.swap && t.swapIn() {
		return nil
	}
	if err := t.w.root.Rename(t.tmp, t.p); err != nil {
		t.remove()
		return err
	}
	return nil
}

// sync makes a durable write's rename durable: it syncs the directory. The old file a swap
// displaced then goes to the trash.
func (t *tempFile) sync() error {
	d := t.dir
	t.dir = nil
	defer func() {
		t.dropDisplaced(d)
		if d != nil {
			d.Close()
		}
	}()
	if !t.durable {
		return nil
	}
	if err := t.w.step("syncdir"); err != nil {
		return err
	}
	if d == nil {
		return t.w.syncDir(path.Dir(t.p))
	}
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", path.Dir(t.p), err)
	}
	return nil
}

// remove removes the temp file: the write will not happen.
func (t *tempFile) remove() { t.w.root.Remove(t.tmp) }

// syncDir fsyncs a workspace directory, making the renames and removals in it durable.
func (w *Workspace) syncDir(dir string) error {
	d, err := w.root.OpenFile(dir, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// removeLeftovers removes the temp files of writes that were killed midway in dirs (Open
// sweeps the workspace root, modules/, the history's directories and the data folders). It
// runs only when the workspace lock is free right now: a live writer in another process may
// hold the lock and own the temp file it is filling. Errors are ignored; the next Open tries
// again.
func (w *Workspace) removeLeftovers(dirs []string) {
	var found []string
	for _, d := range dirs {
		names, err := w.readNames(d)
		if err != nil {
			continue
		}
		for _, n := range names {
			if !strings.HasPrefix(n, tempPrefix) {
				continue
			}
			if st, err := w.root.Lstat(path.Join(d, n)); err == nil && !st.IsDir() {
				found = append(found, path.Join(d, n))
			}
		}
	}
	if len(found) == 0 {
		return // nothing to do: do not create .cadrun/ in a workspace only read
	}
	unlock, err := w.tryLock()
	if err != nil {
		return
	}
	defer unlock()
	for _, p := range found {
		w.root.Remove(p)
	}
}

// SceneFile is where the last good scene is kept, in the workspace root.
const SceneFile = "scene.json"

// SceneWrite is scene.json's next bytes in a temp file beside it, waiting to be renamed over
// it: a change writes them while its own file is still being made durable, and puts them in
// place once that file has landed.
type SceneWrite struct{ t *tempFile }

// PrepareScene writes data, the last good scene's JSON, to scene.json's temp file. A scene
// over MaxSceneBytes is not written (ErrTooLarge): LoadScene would refuse it.
func (w *Workspace) PrepareScene(data []byte) (*SceneWrite, error) {
	if len(data) > MaxSceneBytes {
		return nil, fmt.Errorf("writing %s: %w: %d bytes is over %d (MaxSceneBytes)", SceneFile, ErrTooLarge, len(data), MaxSceneBytes)
	}
	mode, exists, err := w.targetMode(SceneFile)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", SceneFile, err)
	}
	t, err := w.writeTemp(SceneFile, data, mode, false)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", SceneFile, err)
	}
	t.swap = exists
	return &SceneWrite{t}, nil
}

// Put renames the bytes over scene.json.
func (s *SceneWrite) Put() error {
	if err := s.t.rename(); err != nil {
		return fmt.Errorf("writing %s: %w", SceneFile, err)
	}
	return nil
}

// Discard removes the temp file: the scene will not be saved.
func (s *SceneWrite) Discard() { s.t.remove() }

// LoadScene reads the last good scene's JSON; a missing file wraps fs.ErrNotExist, a file
// over MaxSceneBytes is refused with ErrTooLarge before any of it is read.
func (w *Workspace) LoadScene() ([]byte, error) {
	f, err := w.openFile(SceneFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func(size int64) error {
		return fmt.Errorf("%w: %s is %d bytes, over %d (MaxSceneBytes)", ErrTooLarge, SceneFile, size, MaxSceneBytes)
	}
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if st.Size() > MaxSceneBytes {
		return nil, tooLarge(st.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxSceneBytes+1))
	if err == nil && len(b) > MaxSceneBytes { // it grew since the stat
		return nil, tooLarge(int64(len(b)))
	}
	return b, err
}

// MaxSceneBytes caps scene.json, read at start when main is missing or fails. Reading and
// decoding a scene costs a few times its size in memory, so the cap bounds that memory while
// leaving room for scenes of hundreds of thousands of ordinary shapes.
const MaxSceneBytes = 128 << 20
