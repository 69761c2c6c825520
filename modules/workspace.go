package modules

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/cadrun/cadrun/runtime"
)

// MaxReadBytes caps one file read.
const MaxReadBytes = 500 << 10

// ErrTooLarge is returned when a file is over MaxReadBytes.
var ErrTooLarge = errors.New("file too large")

// ErrNotRegular is returned for a workspace entry that is not a regular file (a FIFO, a
// device, a directory where a file belongs).
var ErrNotRegular = errors.New("not a regular file")

// Workspace is a workspace directory. It is safe for concurrent use.
type Workspace struct {
	root *os.Root
	dir  string
}

// Open opens the workspace at dir, which must exist.
func Open(dir string) (*Workspace, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening workspace: %w", err)
	}
	return &Workspace{root: root, dir: dir}, nil
}

// Close releases the workspace.
func (w *Workspace) Close() error { return w.root.Close() }

// Dir is the workspace directory as given to Open.
func (w *Workspace) Dir() string { return w.dir }

// Read implements runtime.Source: main is scene.code.js, NAME is modules/NAME.js.
func (w *Workspace) Read(name string) ([]byte, string, error) {
	path := runtime.PathOf(name)
	if err := CheckName(name); err != nil {
		return nil, path, err
	}
	// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; on
	// a regular file it changes nothing. The mode check below then refuses the FIFO.
	f, err := w.root.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
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
	if len(b) > MaxReadBytes {
		return nil, path, fmt.Errorf("%w: %s is over %d bytes (MaxReadBytes)", ErrTooLarge, path, MaxReadBytes)
	}
	return b, path, nil
}

// Names implements runtime.Source: the modules in modules/, sorted.
func (w *Workspace) Names() []string {
	entries, err := fs.ReadDir(w.root.FS(), "modules")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".js")
		if ok && e.Type().IsRegular() && CheckName(name) == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
