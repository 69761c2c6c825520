package modules

// Watching a workspace. Editors save by rename (write a temp file, rename it over the old
// one), so a watch on a file's inode is lost at the first save; cadrun watches directories
// instead: the workspace root, modules/, data/ and data's folders (data/catalog/items.json is
// a workspace file too), added as they appear, and scanned then, since the files made inside a
// new directory before its watch exists send no event; plus
// the root's parent, so that a workspace folder removed and made again is picked up. Events
// become logical names here, and editors' temp and backup files are dropped before anyone
// else sees them. What is left is kept as a set that the consumer takes when it is ready: a
// burst of thousands of events never blocks the reader and never grows a queue.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/cadrun/cadrun/runtime"
)

// Watched directories of a workspace, besides its root.
const (
	modulesDir = "modules"
	dataDir    = "data"
)

// MaxWatchedDirs is how many directories a Watcher watches (or, polling, walks) at most: the
// root's parent, the root, modules/, data/ and the folders of data/ (down to MaxDataDepth-1
// below it, as data file names go). Past it, the folders left out are named in Changes.Errs.
const MaxWatchedDirs = 256

// Poll intervals a Watcher accepts (WatchOptions.Poll).
const (
	MinPoll = 20 * time.Millisecond
	MaxPoll = time.Minute
)

// ErrBadPoll is returned by Watch for a poll interval outside MinPoll..MaxPoll.
var ErrBadPoll = errors.New("bad poll interval")

// CheckPoll refuses a poll interval outside MinPoll..MaxPoll (0, no polling, is fine).
func CheckPoll(d time.Duration) error {
	if d != 0 && (d < MinPoll || d > MaxPoll) {
		return fmt.Errorf("%w: %v; give between %v (MinPoll) and %v (MaxPoll)", ErrBadPoll, d, MinPoll, MaxPoll)
	}
	return nil
}

// Changes is what a Watcher noted since the last Take.
type Changes struct {
	// Names are the logical names whose files may have changed: main, a module's NAME, or a
	// data file's NAME.json (as List names them). Sorted.
	Names []string
	// Rescan is set when events may have been lost (the event queue overflowed, a watched
	// directory went away or came back): any file may have changed.
	Rescan bool
	// Reopen is set when the workspace folder was made again: a Workspace opened on the old
	// one reads nothing now, so open it again.
	Reopen bool
	// Errs are failures of the watch itself (a directory that could not be watched); the
	// watch goes on.
	Errs []error
}

// WatchOptions tune a Watcher.
type WatchOptions struct {
	// Poll, when set, compares the files' size, time and inode at this interval instead of
	// relying on OS events, which network drives, containers and WSL2 do not deliver.
	Poll time.Duration
}

// Watcher reports changes to a workspace's files. Changed and Take are safe for concurrent
// use; one consumer is expected.
type Watcher struct {
	dir, abs string // as given; absolute, for matching event paths
	opt      WatchOptions
	fsw      *fsnotify.Watcher // nil when polling

	// watched are the directories watched, besides the root and its parent, by path
	// relative to the root; used on the loop's goroutine only (and by Watch before it).
	watched map[string]bool
	capped  bool // the folders past MaxWatchedDirs were reported

	mu      sync.Mutex
	pending Changes
	names   map[string]bool
	changed chan struct{}

	stop chan struct{}
	done chan struct{}
}

// Watch starts watching the workspace at dir, which must exist.
func Watch(dir string, opt WatchOptions) (*Watcher, error) {
	if err := CheckPoll(opt.Poll); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("watching %s: not a directory", dir)
	}
	w := &Watcher{dir: dir, abs: abs, opt: opt, names: map[string]bool{}, watched: map[string]bool{},
		changed: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if opt.Poll > 0 {
		// The first stamps are taken before Watch returns, so that a save made just after
		// it is a change, not the starting point.
		prev, prevRoot := w.stamps()
		go w.poll(prev, prevRoot)
		return w, nil
	}
	w.fsw, err = fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w; try -poll", dir, err)
	}
	// The parent tells us when the root itself is removed or made again. A parent that cannot
	// be watched (no permission) costs only that.
	if parent := filepath.Dir(abs); parent != abs {
		_ = w.fsw.Add(parent)
	}
	if err := w.fsw.Add(abs); err != nil {
		w.fsw.Close()
		return nil, fmt.Errorf("watching %s: %w; try -poll", dir, err)
	}
	for _, d := range []string{modulesDir, dataDir} {
		w.addDir(d, false)
	}
	go w.loop()
	return w, nil
}

// Changed receives a value when changes were noted since the last Take.
func (w *Watcher) Changed() <-chan struct{} { return w.changed }

// Take returns the changes noted since the last call and forgets them.
func (w *Watcher) Take() Changes {
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.pending
	c.Names = make([]string, 0, len(w.names))
	for n := range w.names {
		c.Names = append(c.Names, n)
	}
	slices.Sort(c.Names)
	w.pending = Changes{}
	clear(w.names)
	return c
}

// Close stops the watch.
func (w *Watcher) Close() error {
	select {
	case <-w.stop:
		return nil
	default:
	}
	close(w.stop)
	var err error
	if w.fsw != nil {
		err = w.fsw.Close()
	}
	<-w.done
	return err
}

// note records changes and wakes the consumer.
func (w *Watcher) note(f func(c *Changes)) {
	w.mu.Lock()
	f(&w.pending)
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

func (w *Watcher) noteNames(names ...string) {
	if len(names) == 0 {
		return
	}
	w.note(func(*Changes) {
		for _, n := range names {
			w.names[n] = true
		}
	})
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.handleErr(err)
		}
	}
}

// handle turns one fsnotify event into logical names, new watches and rescans.
func (w *Watcher) handle(ev fsnotify.Event) {
	if ev.Op == fsnotify.Chmod || ev.Op == 0 {
		return // a mode change (or a delete's link-count change, which a Remove follows)
	}
	rel, err := filepath.Rel(w.abs, ev.Name)
	if err != nil {
		return
	}
	rel = filepath.ToSlash(rel)
	switch {
	case rel == ".": // the root itself, from its own watch or its parent's
		switch {
		case ev.Has(fsnotify.Create):
			w.rootCreated()
		case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
			// The workspace folder is gone; the parent's watch sees it come back. Everything
			// the last run read is missing now.
			w.note(func(c *Changes) { c.Rescan = true })
		}
		return
	case rel == ".." || strings.HasPrefix(rel, "../"):
		return // a neighbour of the root, seen by the parent's watch
	}
	dir, base := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	if IgnoredName(base) {
		return
	}
	if watchable(rel) {
		switch {
		case ev.Has(fsnotify.Create):
			w.addDir(rel, true)
			return
		case w.watched[rel] && (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)):
			// Every file in it went with it; a rescan covers the names we were told of.
			w.forget(rel)
			w.note(func(c *Changes) { c.Rescan = true })
			return
		case dir == "":
			return // modules or data, not a directory
		}
	}
	if name, ok := logicalName(dir, base); ok {
		w.noteNames(name)
	}
}

// handleErr deals with an error from fsnotify: an overflow loses events, so everything may
// have changed.
func (w *Watcher) handleErr(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.note(func(c *Changes) { c.Rescan = true })
		return
	}
	w.note(func(c *Changes) { c.Errs = append(c.Errs, fmt.Errorf("watching %s: %w", w.dir, err)) })
}

// rootCreated watches a workspace folder made again, and its directories.
func (w *Watcher) rootCreated() {
	if err := w.fsw.Add(w.abs); err != nil {
		w.note(func(c *Changes) {
			c.Errs = append(c.Errs, fmt.Errorf("watching %s again: %w; saves in it are not seen: restart with -poll, or raise fs.inotify.max_user_watches", w.dir, err))
		})
		return
	}
	w.note(func(c *Changes) { c.Rescan, c.Reopen = true, true })
	w.noteNames(w.scanRoot()...)
	clear(w.watched) // the old folder's watches went with it
	for _, d := range []string{modulesDir, dataDir} {
		w.addDir(d, true)
	}
}

// watchable reports whether rel (relative to the root) names a directory that may hold
// workspace files: modules/, data/, or a folder of data/ that a data file name can reach.
func watchable(rel string) bool {
	if rel == modulesDir || rel == dataDir {
		return true
	}
	sub, ok := strings.CutPrefix(rel, dataDir+"/")
	if !ok {
		return false
	}
	segs := strings.Split(sub, "/")
	if len(segs) >= MaxDataDepth {
		return false
	}
	for _, s := range segs {
		if CheckName(s) != nil {
			return false
		}
	}
	return true
}

// addDir watches modules/, data/ or a folder of data/ when it exists (and the folders of data
// in it) and, when scan is set, notes every file in them: files made in a new directory
// before its watch was added sent no event.
func (w *Watcher) addDir(d string, scan bool) {
	p := filepath.Join(w.abs, filepath.FromSlash(d))
	// A link to a directory counts, as the workspace reads through it (and polling does).
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return
	}
	if !w.watched[d] {
		if len(w.watched)+2 >= MaxWatchedDirs {
			w.over(d)
			return
		}
		if err := w.fsw.Add(p); err != nil {
			// Most often the kernel's max_user_watches, which other programs share.
			w.note(func(c *Changes) {
				c.Errs = append(c.Errs, fmt.Errorf("watching %s: %w; saves in it are not seen: restart with -poll, or raise fs.inotify.max_user_watches", filepath.Join(w.dir, d), err))
			})
			return
		}
		w.watched[d] = true
	}
	names, dirs := w.scanDirs(d)
	if scan {
		w.noteNames(names...)
	}
	for _, sub := range dirs {
		w.addDir(sub, scan)
	}
}

// forget drops the watches of a directory that went away, and of the folders in it.
func (w *Watcher) forget(d string) {
	for k := range w.watched {
		if k == d || strings.HasPrefix(k, d+"/") {
			delete(w.watched, k)
			_ = w.fsw.Remove(filepath.Join(w.abs, filepath.FromSlash(k)))
		}
	}
}

// over reports, once, that folder d is past MaxWatchedDirs and its files are not watched.
func (w *Watcher) over(d string) {
	if w.capped {
		return
	}
	w.capped = true
	err := fmt.Errorf("watching %s: over %d directories (MaxWatchedDirs); changes to the files in %s and in further folders of data/ are not seen; keep fewer folders in data/",
		w.dir, MaxWatchedDirs, filepath.Join(w.dir, d))
	w.note(func(c *Changes) { c.Errs = append(c.Errs, err) })
}

// scanRoot lists the logical names of the root's files (main).
func (w *Watcher) scanRoot() []string {
	if _, err := os.Lstat(filepath.Join(w.abs, runtime.PathOf(runtime.MainModule))); err == nil {
		return []string{runtime.MainModule}
	}
	return nil
}

// scanDirs lists the logical names of the files in modules/, data/ or a folder of data/, and
// the folders in it that may hold data files. The directory is opened as the workspace opens
// it (see Workspace.readDir): a FIFO in its place must not block.
func (w *Watcher) scanDirs(d string) (names, dirs []string) {
	f, err := os.OpenFile(filepath.Join(w.abs, filepath.FromSlash(d)), os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return nil, nil
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		if e.IsDir() {
			if sub := d + "/" + e.Name(); d != modulesDir && watchable(sub) {
				dirs = append(dirs, sub)
			}
			continue
		}
		if n, ok := logicalName(d, e.Name()); ok {
			names = append(names, n)
		}
	}
	return names, dirs
}

// logicalName maps a file in the root, modules/, data/ or a folder of data/ to its logical
// name, if it has one: main, a module's NAME, a data file's (or schema's) FOLDER/NAME.json.
func logicalName(dir, base string) (string, bool) {
	switch dir {
	case "":
		if base == runtime.PathOf(runtime.MainModule) {
			return runtime.MainModule, true
		}
	case modulesDir:
		if n, ok := strings.CutSuffix(base, ".js"); ok && n != runtime.MainModule && CheckName(n) == nil {
			return n, true
		}
	default:
		sub, ok := strings.CutPrefix(dir+"/", dataDir+"/")
		if ok && IsDataName(base) && CheckDataName(sub+base) == nil {
			return sub + base, true
		}
	}
	return "", false
}

// IgnoredName reports whether a file name is an editor's or cadrun's temp or backup file,
// whose events say nothing about the workspace: dotfiles (vim's .x.swp, Emacs's .#x lock,
// cadrun's own temp files), backups ending in ~, vim's 4913 probe and .swp/.swo files, Emacs's
// #x# autosaves, and JetBrains' x___jb_tmp___ and x___jb_old___ safe-write files.
func IgnoredName(base string) bool {
	switch {
	case base == "" || strings.HasPrefix(base, "."):
		return true
	case strings.HasSuffix(base, "~"), base == "4913":
		return true
	case strings.HasSuffix(base, ".swp"), strings.HasSuffix(base, ".swo"), strings.HasSuffix(base, ".swx"):
		return true
	case strings.HasPrefix(base, "#") && strings.HasSuffix(base, "#"):
		return true
	case strings.Contains(base, "___jb_tmp___"), strings.Contains(base, "___jb_old___"):
		return true
	}
	return false
}

// fileStamp is what polling compares: a change to any of them is a change to the file.
type fileStamp struct {
	size  int64
	mtime time.Time
	ino   uint64
}

// poll compares the workspace's files with what they were one interval ago, starting from
// the stamps prev and prevRoot.
func (w *Watcher) poll(prev map[string]fileStamp, prevRoot uint64) {
	defer close(w.done)
	t := time.NewTicker(w.opt.Poll)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		cur, root := w.stamps()
		if root != prevRoot {
			// The folder was removed or made again (a new inode): open it again, read all.
			w.note(func(c *Changes) { c.Rescan, c.Reopen = true, root != 0 })
		}
		var changed []string
		for n, s := range cur {
			if p, ok := prev[n]; !ok || p != s {
				changed = append(changed, n)
			}
		}
		for n := range prev {
			if _, ok := cur[n]; !ok {
				changed = append(changed, n)
			}
		}
		w.noteNames(changed...)
		prev, prevRoot = cur, root
	}
}

// stamps reads the stamps of every workspace file, and the root's inode (0 when missing).
func (w *Watcher) stamps() (map[string]fileStamp, uint64) {
	out := map[string]fileStamp{}
	st, err := os.Stat(w.abs)
	if err != nil {
		return out, 0
	}
	stampOf := func(name, p string) {
		if fi, err := os.Lstat(p); err == nil {
			out[name] = fileStamp{size: fi.Size(), mtime: fi.ModTime(), ino: inode(fi)}
		}
	}
	stampOf(runtime.MainModule, filepath.Join(w.abs, runtime.PathOf(runtime.MainModule)))
	todo, walked := []string{modulesDir, dataDir}, 2
	for len(todo) > 0 {
		d := todo[0]
		todo = todo[1:]
		names, dirs := w.scanDirs(d)
		for _, n := range names {
			stampOf(n, filepath.Join(w.abs, filepath.FromSlash(runtime.PathOf(n))))
		}
		for _, sub := range dirs {
			if walked+2 >= MaxWatchedDirs {
				w.over(sub)
				break
			}
			walked++
			todo = append(todo, sub)
		}
	}
	return out, inode(st)
}

func inode(fi fs.FileInfo) uint64 {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		return s.Ino
	}
	return 0
}
