package modules

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/cadrun/cadrun/runtime"
)

// MaxReadBytes caps one file read.
const MaxReadBytes = 500 << 10

// ErrTooLarge is returned when a file is over MaxReadBytes.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is returned for a workspace entry that is not a regular file (a FIFO, a
// device, a directory where a file belongs).
var ErrNotRegular = errors.New("not a regular file")

// Workspace is a workspace directory. It is safe for concurrent use; writers that must not
// interleave (the write-and-run transaction) hold Lock.
type Workspace struct {
	root *os.Root
	dir  string
	key  string // the cleaned absolute directory: the in-process lock's key

	// fail, when set (tests only), is called before each step of a write and may make the
	// step fail, so that the clean-up paths can be exercised as root.
	fail func(step string) error
	// historyCap, when set (tests only), replaces MaxHistory.
	historyCap int

	// The history log as last read or written, so that a commit does not decode the whole
	// log again when the bytes on disk are the same.
	histMu    sync.Mutex
	histRaw   []byte
	histValue History
}

// Open opens the workspace at dir, which must exist. Temp files left by a write that was
// killed midway are removed, unless another writer holds the workspace lock.
func Open(dir string) (*Workspace, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening workspace: %w", err)
	}
	w := &Workspace{root: root, dir: dir, key: lockKey(dir)}
	w.removeLeftovers()
	return w, nil
}

// Close releases the workspace.
func (w *Workspace) Close() error { return w.root.Close() }

// Dir is the workspace directory as given to Open.
func (w *Workspace) Dir() string { return w.dir }

// Read implements runtime.Source: main is scene.code.js, NAME is modules/NAME.js, and a
// built-in module when the workspace has no module of that name (its path is then
// builtin/NAME.js, which is not a workspace file).
func (w *Workspace) Read(name string) ([]byte, string, error) {
	b, path, truncated, err := w.ReadCapped(name)
	if err == nil && truncated {
		return nil, path, fmt.Errorf("%w: %s is over %d bytes (MaxReadBytes)", ErrTooLarge, path, MaxReadBytes)
	}
	return b, path, err
}

// ReadCapped is Read for people and agents looking at a file: a file over MaxReadBytes is
// not an error but comes back cut at the last whole UTF-8 character within the cap, with
// truncated set.
func (w *Workspace) ReadCapped(name string) (b []byte, path string, truncated bool, err error) {
	b, path, err = w.readRaw(name)
	if err != nil || len(b) <= MaxReadBytes {
		return b, path, false, err
	}
	cut := MaxReadBytes
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return b[:cut], path, true, nil
}

// readRaw reads up to MaxReadBytes+1 bytes of a name's file (or built-in).
func (w *Workspace) readRaw(name string) ([]byte, string, error) {
	path := runtime.PathOf(name)
	if err := CheckFileName(name); err != nil {
		return nil, path, err
	}
	// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; on
	// a regular file it changes nothing. The mode check below then refuses the FIFO.
	f, err := w.root.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if b, ok := builtinSource(name); ok {
			return b, builtinPath(name), nil
		}
		return nil, path, fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
	}
	if err != nil {
		return nil, path, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, path, err
	}
	if !st.Mode().IsRegular() {
		return nil, path, fmt.Errorf("%w: %s is a %s", ErrNotRegular, path, st.Mode().Type())
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil {
		return nil, path, err
	}
	return b, path, nil
}

// Names implements runtime.Source: the modules in modules/ and the built-in modules, sorted.
func (w *Workspace) Names() []string {
	names := append(w.userModules(), BuiltinNames()...)
	slices.Sort(names)
	return slices.Compact(names)
}

// userModules lists the modules in modules/, unsorted. Temp files never qualify: their
// names start with a dot, which no logical name does.
func (w *Workspace) userModules() []string {
	entries, err := fs.ReadDir(w.root.FS(), "modules")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".js")
		if ok && e.Type().IsRegular() && CheckName(name) == nil && name != runtime.MainModule {
			names = append(names, name)
		}
	}
	return names
}
