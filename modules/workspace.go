package modules

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/text"
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
	// onList, when set (tests only), is called with each directory the workspace lists.
	onList func(dir string)
	// sweepPending is set by Open(ForOneCall) until ListUserLocked has swept modules/ and data/.
	sweepPending atomic.Bool
	// The names in each data folder as the listing made under the lock now held saw them
	// (ListUserLocked), so that a data file's write checks its name's case without listing
	// its folder again; nil when no such listing was made, cleared as the lock is released.
	lockedMu      sync.Mutex
	lockedEntries map[string][]string

	// The history as last read or written, with the log file's identity then, so that a
	// commit neither reads nor decodes the log again while it is the same file.
	histMu    sync.Mutex
	histKey   fileKey
	histValue *History // nil until read or written
	histSwept bool     // a Save has removed every unreferenced object once

	sketch sketchCache // sketch.go

	// The old files that swapped writes displaced are removed in the background
	// (workspace_swap.go); Close waits for them.
	removing   sync.WaitGroup
	trashMu    sync.Mutex
	trashFile  *os.File   // the trash folder, open; nil until used
	trashStale []*os.File // trash folders that stopped working, to close
	trashSwept bool       // the trash was emptied of an earlier process's leftovers
}

// An OpenOption changes how Open opens a workspace.
type OpenOption func(*openConfig)

type openConfig struct {
	oneCall bool
	onList  func(dir string) // tests: called with each directory the workspace lists
}

// ForOneCall opens the workspace for a process that makes one tool call (`cadrun tool`),
// which lists each folder at most once. Open then removes the temp files of killed writes in
// the workspace root and the history's folder only, and leaves the folders a change lists
// anyway to that change: the first ListUserLocked removes those it finds in modules/ and the
// data folders (under the lock no live writer can own them), and the history's first
// collection of objects/ removes everything unreferenced there (no write makes temp files in
// it). A call that changes nothing leaves them to the next Open; they are hidden files no
// listing shows.
func ForOneCall() OpenOption { return func(c *openConfig) { c.oneCall = true } }

// Open opens the workspace at dir, which must exist. Temp files left by a write that was
// killed midway are removed, unless another writer holds the workspace lock; ForOneCall
// leaves some of them to the call's own listing.
func Open(dir string, opts ...OpenOption) (*Workspace, error) {
	var c openConfig
	for _, o := range opts {
		o(&c)
	}
	w, err := open(dir)
	if err != nil {
		return nil, err
	}
	w.onList = c.onList
	if c.oneCall {
		w.removeLeftovers([]string{".", historyDir})
		w.sweepPending.Store(true)
		return w, nil
	}
	w.removeLeftovers(append([]string{".", modulesDir, historyDir, historyObjects}, w.dataDirs()...))
	return w, nil
}

func open(dir string) (*Workspace, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening workspace: %w", err)
	}
	return &Workspace{root: root, dir: dir, key: lockKey(dir)}, nil
}

// FailSteps makes fail run before each step of a file's write ("mkdir", "create", "chmod",
// "write", "sync", "close", "rename", "syncdir"); an error it returns fails that step. It is
// for tests, here and in the packages that build on a Workspace, of what a failing disk
// leaves; nil removes it. Set it before the workspace is used.
func (w *Workspace) FailSteps(fail func(step string) error) { w.fail = fail }

// Close releases the workspace, once the removals still running in the background are done.
func (w *Workspace) Close() error {
	w.closeTrash()
	return w.root.Close()
}

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
	b, err := w.readFile(path, MaxReadBytes)
	notDir := errors.Is(err, syscall.ENOTDIR) // modules is a file, not a directory
	if errors.Is(err, fs.ErrNotExist) || notDir {
		if b, ok := builtinSource(name); ok {
			return b, builtinPath(name), nil
		}
	}
	switch {
	case notDir:
		return nil, path, fmt.Errorf("%s cannot exist: %s is not a directory, so the workspace has no modules of its own; "+
			"rename or remove the file named %s (built-in modules still import)", path, modulesDir, modulesDir)
	case errors.Is(err, fs.ErrNotExist):
		return nil, path, fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
	case err != nil:
		return nil, path, err
	}
	return b, path, nil
}

// ErrLinked is returned for a workspace file with more than one hard link: another name,
// perhaps outside the workspace, shares its content, so reading it could read a file the
// workspace does not own (os.Root keeps symlinks inside the root, but a hardlink is the file
// itself).
var ErrLinked = errors.New("file has other hard links")

// openFile opens a workspace file for reading. Every read of a file in the workspace, the
// user's files and derived state alike (scene.json, the history), goes through it. The open
// never blocks: O_NONBLOCK makes opening a FIFO return at once instead of waiting for a
// writer (on a regular file it changes nothing). The checks then run on the open descriptor,
// so a file swapped in between cannot slip past them: a regular file with one link.
func (w *Workspace) openFile(p string) (*os.File, error) {
	f, _, err := w.openFileStat(p)
	return f, err
}

// openFileStat is openFile that also answers the open file's stat.
func (w *Workspace) openFileStat(p string) (*os.File, fs.FileInfo, error) {
	f, err := w.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := checkRegular(p, st); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// fileKey identifies one state of a file the workspace reads again and again (the history's
// log, the sketch): a write replaces the file (another inode) or appends to it (another size
// and time), so while the key is the same the bytes are the ones read before.
type fileKey struct {
	ino, size uint64
	mtime     int64 // Unix nanoseconds
}

func keyOf(st fs.FileInfo) fileKey {
	return fileKey{ino: inode(st), size: uint64(st.Size()), mtime: st.ModTime().UnixNano()}
}

// checkRegular refuses anything but a regular file with one link.
func checkRegular(p string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is %s; cadrun reads only regular files there: remove it", ErrNotRegular, p, KindOf(st.Mode()))
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		return fmt.Errorf("%w: %s has %d hard links, so it may be a file outside the workspace under a second name; "+
			"cadrun does not read it: replace it with a copy (cp --remove-destination SOURCE %s), or write it again with the write tool",
			ErrLinked, p, sys.Nlink, p)
	}
	return nil
}

// KindOf names a file type for errors ("a directory", "a named pipe (FIFO)", ...).
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// readFile reads up to max+1 bytes of the workspace file p through openFile, so that a
// caller can tell a file over max from one at it.
func (w *Workspace) readFile(p string, max int64) ([]byte, error) {
	f, st, err := w.openFileStat(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readUpTo(f, st.Size(), max)
}

// readUpTo reads f, size bytes by its stat, up to max and one byte over (a caller checks).
func readUpTo(f *os.File, size, max int64) ([]byte, error) {
	// Sized by the stat, one byte over so that the read that sees the end needs no growth; a
	// file that grew since reads on.
	b := make([]byte, 0, min(size, max)+1)
	for int64(len(b)) <= max {
		n, err := f.Read(b[len(b):min(int64(cap(b)), max+1)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = slices.Grow(b, len(b))
		}
	}
	return b, nil
}

// readDir lists a workspace directory, sorted by name. It is opened like a file, without
// blocking (a FIFO in a directory's place would otherwise wait for a writer for ever), and
// O_DIRECTORY refuses anything that is not a directory.
func (w *Workspace) readDir(p string) ([]fs.DirEntry, error) {
	d, err := w.openDir(p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// readNames lists the names in a workspace directory, unsorted, opened as readDir opens it but
// without the stat of every entry that ReadDir makes in an os.Root: for a caller that goes by
// the names alone, such as the sweep for temp files in the folder of `cadrun run FILE.js`,
// which may be a big one.
func (w *Workspace) readNames(p string) ([]string, error) {
	d, err := w.openDir(p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// openDir opens a workspace directory for listing, as readDir says.
func (w *Workspace) openDir(p string) (*os.File, error) {
	w.listing(p)
	return w.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
}

// listing tells the test hook that the directory p is being listed.
func (w *Workspace) listing(p string) {
	if w.onList != nil {
		w.onList(p)
	}
}

// isTemp reports a directory entry that is a write's temp file (a killed write's, when no
// writer holds the lock).
func isTemp(e fs.DirEntry) bool {
	return strings.HasPrefix(e.Name(), tempPrefix) && !e.IsDir()
}

// singleLinkStat reports whether the workspace file p has one link (what openFile will
// read), with the Lstat it made.
func (w *Workspace) singleLinkStat(p string) (fs.FileInfo, bool) {
	st, err := w.root.Lstat(p)
	if err != nil {
		return nil, false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return st, !ok || sys.Nlink <= 1
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
	var names []string
	for _, m := range w.userModuleFiles(nil) {
		names = append(names, m.name)
	}
	return names
}

// moduleFile is a user module as the listing found it.
type moduleFile struct {
	name string
	size int64
}

// userModuleFiles lists the modules in modules/ with their sizes, unsorted: regular files
// with one link, named NAME.js by the name rule (one Lstat each, for both). When temps is not
// nil, the temp files the listing finds are added to it.
func (w *Workspace) userModuleFiles(temps *[]string) []moduleFile {
	entries, err := w.readDir(modulesDir)
	if err != nil {
		return nil
	}
	var out []moduleFile
	for _, e := range entries {
		if temps != nil && isTemp(e) {
			*temps = append(*temps, path.Join(modulesDir, e.Name()))
		}
		name, ok := strings.CutSuffix(e.Name(), ".js")
		if !ok || !e.Type().IsRegular() || CheckName(name) != nil || name == runtime.MainModule {
			continue
		}
		if st, ok := w.singleLinkStat(path.Join(modulesDir, e.Name())); ok && st.Mode().IsRegular() {
			out = append(out, moduleFile{name, st.Size()})
		}
	}
	return out
}

// ReadFont implements runtime.FontSource: fonts/NAME.ttf, .otf or .ttc, through the same
// containment as every workspace file (no link leads outside, FIFOs and devices are refused),
// capped at text.MaxFontBytes.
func (w *Workspace) ReadFont(name string) ([]byte, string, error) {
	if err := CheckName(name); err != nil {
		return nil, "fonts/" + name, err
	}
	for _, ext := range runtime.FontExts {
		path := "fonts/" + name + ext
		f, err := w.root.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
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
		b, err := io.ReadAll(io.LimitReader(f, text.MaxFontBytes+1))
		if err != nil {
			return nil, path, err
		}
		if len(b) > text.MaxFontBytes {
			return nil, path, fmt.Errorf("%w: %s is over %d bytes (MaxFontBytes)", ErrTooLarge, path, text.MaxFontBytes)
		}
		return b, path, nil
	}
	return nil, "fonts/" + name + ".ttf", fmt.Errorf("%w: %q", runtime.ErrFontNotFound, name)
}

// FontNames implements runtime.FontSource: the fonts in fonts/, by name, sorted.
func (w *Workspace) FontNames() []string {
	var names []string
	for _, f := range w.fontFiles() {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// fontFiles lists fonts/NAME.ttf|otf|ttc with valid names, by file name.
func (w *Workspace) fontFiles() []FileInfo {
	entries, _ := fs.ReadDir(w.root.FS(), "fonts")
	var out []FileInfo
	for _, e := range entries {
		for _, ext := range runtime.FontExts {
			base, ok := strings.CutSuffix(e.Name(), ext)
			if !ok || !e.Type().IsRegular() || CheckName(base) != nil {
				continue
			}
			if info, err := e.Info(); err == nil {
				out = append(out, FileInfo{Name: base, Path: "fonts/" + e.Name(), Kind: KindFont, Source: SourceUser, Size: info.Size()})
			}
		}
	}
	return out
}
