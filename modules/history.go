package modules

// The build history keeps the workspace's user files and the scene after every committed
// change, so that undo and redo can bring files and scene back together. Contents are stored
// once each, named by their SHA-256 (objects/<hex>), so that an entry is only a small map of
// names to hashes and a hundred edits of one module cost a hundred versions of that module,
// not of the workspace. One log file (log.jsonl, history_log.go) lists the entries and the
// current position; a change appends a line to it. The history is an aid, never a gate: a
// log that cannot be read is treated as empty history (the reason is returned for a warning,
// and the bad file is kept aside), so a damaged log never blocks a write.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cadrun/cadrun/runtime"
)

// MaxHistory caps the entries kept; the oldest unlabelled entries go first.
const MaxHistory = 200

// History paths, inside the workspace's internal state directory.
const (
	historyDir     = ".cadrun/history"
	historyLog     = historyDir + "/log.jsonl"
	historyObjects = historyDir + "/objects"
	// historyLogV1 is the log's first format, one JSON document rewritten on every change:
	// read when there is no log.jsonl, removed once log.jsonl is written.
	historyLogV1 = historyDir + "/log.json"
)

// Caps on what reading the history takes in: the log (MaxHistory small entries fit in a
// fraction of it) and one object (a file is at most MaxReadBytes; a scene's JSON is capped
// like scene.json).
const (
	maxHistoryLogBytes = 64 << 20
	maxObjectBytes     = MaxSceneBytes
)

// historyVersion is the version of the log's first format (log.json).
const historyVersion = 1

// ErrHistory is returned when the history cannot give what was asked: an object is missing
// or damaged, a label is taken or invalid, an entry does not exist.
var ErrHistory = errors.New("history")

// HistoryEntry is the workspace after one change: every user file (main and modules) by the
// hash of its content, and the hash of the scene's JSON.
type HistoryEntry struct {
	ID    int               `json:"id"`
	Files map[string]string `json:"files"` // logical name -> hex SHA-256 of the content
	Scene string            `json:"scene"` // hex SHA-256 of the scene JSON
	Label string            `json:"label,omitempty"`
}

// History is the loaded log of a workspace. Callers hold the workspace lock from LoadHistory
// to Save, so that no other writer changes the log in between; a History is not safe for
// concurrent use.
type History struct {
	w       *Workspace
	Entries []HistoryEntry // oldest first
	Pos     int            // index in Entries of the current state; -1 when Entries is empty
	nextID  int
	dropped bool           // entries were dropped: unreferenced objects may be left
	gone    []HistoryEntry // the entries dropped, whose objects Save removes when unreferenced
	// corrupt is the log on disk that could not be read, kept aside by Save ("" when none).
	corrupt string
	base    *logBase // the log on disk as read or last saved; nil when Save writes it whole
	fromV1  bool     // read from log.json, which Save replaces with log.jsonl
	fresh   []string // the objects Record created since the last Save, for Abandon
	// abandoned is set by Abandon: the entries Record made refer to objects it removed, so
	// Save refuses to write them.
	abandoned bool
}

// historyFile is the log's first format (log.json), and the state its records replay to.
type historyFile struct {
	Version int            `json:"version"`
	NextID  int            `json:"next_id"`
	Current int            `json:"current"` // the current entry's id; 0 when there are none
	Entries []HistoryEntry `json:"entries"`
}

// LoadHistory reads the history log: log.jsonl, or the first format's log.json when there is
// none. A missing log is empty history; a log that cannot be read or does not hold together
// is empty history too, with warning saying why.
func (w *Workspace) LoadHistory() (h *History, warning string) {
	h = &History{w: w, Pos: -1, nextID: 1}
	bad := historyLog
	found, err := w.readLog(h)
	if !found {
		bad = historyLogV1
		err = h.readV1()
		if errors.Is(err, fs.ErrNotExist) {
			return h, ""
		}
	}
	if err != nil {
		*h = History{w: w, Pos: -1, nextID: 1, corrupt: bad}
		return h, fmt.Sprintf("the build history in %s could not be read (%v); it starts again from this change, and the old log is kept as %s", bad, err, badName(bad))
	}
	return h, ""
}

// badName is where an unreadable log is kept: log.json as log.bad.json.
func badName(p string) string {
	dir, file := path.Split(p)
	name, ext, _ := strings.Cut(file, ".")
	return dir + name + ".bad." + ext
}

// readV1 reads the first format's log.json into h.
func (h *History) readV1() error {
	b, err := h.w.readFile(historyLogV1, maxHistoryLogBytes)
	if err == nil && len(b) > maxHistoryLogBytes {
		err = fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, historyLogV1, maxHistoryLogBytes)
	}
	if err != nil {
		return err
	}
	var f historyFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	if f.Version != historyVersion {
		return fmt.Errorf("version %d, want %d", f.Version, historyVersion)
	}
	h.fromV1 = true
	return h.set(f)
}

// cachedHistory is a copy of the history last read or written, if the log is still that file.
func (w *Workspace) cachedHistory(key fileKey) (*History, bool) {
	w.histMu.Lock()
	defer w.histMu.Unlock()
	if w.histValue == nil || key != w.histKey {
		return nil, false
	}
	h := *w.histValue
	// Entries are changed in place (Label) and appended to; their Files maps never change.
	h.Entries = slices.Clone(h.Entries)
	return &h, true
}

func (w *Workspace) cacheHistory(key fileKey, h *History) {
	w.histMu.Lock()
	defer w.histMu.Unlock()
	c := *h
	c.Entries = slices.Clone(h.Entries)
	c.dropped, c.gone, c.fresh, c.abandoned = false, nil, nil, false
	w.histKey, w.histValue = key, &c
}

// set checks f, the log's state, and makes it h's.
func (h *History) set(f historyFile) error {
	labels := map[string]bool{}
	prev := 0
	for i, e := range f.Entries {
		if e.ID <= prev || e.ID >= f.NextID {
			return fmt.Errorf("entry %d: id %d out of order", i, e.ID)
		}
		prev = e.ID
		if !isHash(e.Scene) {
			return fmt.Errorf("entry %d: bad scene hash %q", e.ID, e.Scene)
		}
		for name, hash := range e.Files {
			if CheckFileName(name) != nil || !isHash(hash) {
				return fmt.Errorf("entry %d: bad file %q: %q", e.ID, name, hash)
			}
		}
		if e.Label != "" {
			if labels[e.Label] {
				return fmt.Errorf("label %q used twice", e.Label)
			}
			labels[e.Label] = true
		}
		if e.ID == f.Current {
			h.Pos = i
		}
	}
	if len(f.Entries) > 0 && h.Pos < 0 {
		return fmt.Errorf("current entry %d is not in the log", f.Current)
	}
	h.Entries, h.nextID = f.Entries, f.NextID
	return nil
}

func isHash(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// hashOf is the object name of data.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Current is the entry the workspace is at, if any.
func (h *History) Current() (HistoryEntry, bool) {
	if h.Pos < 0 {
		return HistoryEntry{}, false
	}
	return h.Entries[h.Pos], true
}

// Matches reports whether files (logical name -> content) are exactly the files of e.
func (h *History) Matches(e HistoryEntry, files map[string][]byte) bool {
	if len(files) != len(e.Files) {
		return false
	}
	for name, b := range files {
		if e.Files[name] != hashOf(b) {
			return false
		}
	}
	return true
}

// Record stores files and scene (the scene's JSON) as a new entry after the current one,
// which becomes current. Entries after the old current one (the redo tail) are dropped, as
// editors do, and then the oldest entries beyond the cap. The objects are written at once; the
// log only on Save.
func (h *History) Record(files map[string][]byte, scene []byte) (HistoryEntry, error) {
	e := HistoryEntry{ID: h.nextID, Files: make(map[string]string, len(files))}
	objs, err := h.w.openObjects()
	if err != nil {
		return HistoryEntry{}, fmt.Errorf("recording the workspace: opening %s: %w", historyObjects, err)
	}
	defer objs.Close()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		hash, err := h.putObject(objs, files[name])
		if err != nil {
			return HistoryEntry{}, fmt.Errorf("recording %s: %w", runtime.PathOf(name), err)
		}
		e.Files[name] = hash
	}
	hash, err := h.putObject(objs, scene)
	if err != nil {
		return HistoryEntry{}, fmt.Errorf("recording the scene: %w", err)
	}
	e.Scene = hash
	if h.Pos+1 < len(h.Entries) {
		h.gone = append(h.gone, h.Entries[h.Pos+1:]...)
		h.Entries, h.dropped = h.Entries[:h.Pos+1], true
	}
	h.Entries = append(h.Entries, e)
	h.Pos = len(h.Entries) - 1
	h.nextID++
	h.trim()
	return e, nil
}

// putObject stores data in objs for Record, noting an object it creates.
func (h *History) putObject(objs *os.Root, data []byte) (string, error) {
	hash, created, err := putObjectIn(objs, data)
	if created {
		h.fresh = append(h.fresh, hash)
	}
	return hash, err
}

// Abandon drops what Record did since the last Save, for a change that records its entry
// before it knows it will land and then does not land: the objects Record created are
// removed. The History is not to be used afterwards: Save fails.
func (h *History) Abandon() {
	for _, hash := range h.fresh {
		h.w.root.Remove(path.Join(historyObjects, hash))
	}
	h.fresh = nil
	h.abandoned = true
}

// trim drops entries beyond the cap: the oldest unlabelled ones first, then, when labelled
// entries alone are over the cap, the oldest labelled ones. The current entry stays.
func (h *History) trim() {
	limit := h.w.historyCap
	if limit <= 0 {
		limit = MaxHistory
	}
	for _, labelled := range []bool{false, true} {
		for i := 0; len(h.Entries) > limit && i < len(h.Entries); {
			if i == h.Pos || (h.Entries[i].Label != "") != labelled {
				i++
				continue
			}
			h.gone = append(h.gone, h.Entries[i])
			h.Entries = slices.Delete(h.Entries, i, i+1)
			h.dropped = true
			if i < h.Pos {
				h.Pos--
			}
		}
	}
}

// MoveTo makes entry index i current (for undo and redo), after the files have been restored.
func (h *History) MoveTo(i int) error {
	if i < 0 || i >= len(h.Entries) {
		return fmt.Errorf("%w: no entry at index %d of %d", ErrHistory, i, len(h.Entries))
	}
	h.Pos = i
	return nil
}

// MaxLabel caps a snapshot's name, in characters.
const MaxLabel = 64

// Label names the current entry: a checkpoint that is kept while the cap allows. Names are
// unique, and an entry has one name.
func (h *History) Label(name string) error {
	switch {
	case strings.TrimSpace(name) != name || name == "":
		return fmt.Errorf("%w: snapshot name %q: give a name without leading or trailing spaces", ErrHistory, name)
	case utf8.RuneCountInString(name) > MaxLabel || strings.ContainsFunc(name, unicode.IsControl):
		return fmt.Errorf("%w: snapshot name %q: at most %d characters, no control characters", ErrHistory, name, MaxLabel)
	case h.Pos < 0:
		return fmt.Errorf("%w: the history is empty; make a change first", ErrHistory)
	}
	if e, ok := h.Find(name); ok {
		return fmt.Errorf("%w: the snapshot %q already exists (entry %d); choose another name", ErrHistory, name, e.ID)
	}
	if cur := h.Entries[h.Pos]; cur.Label != "" {
		return fmt.Errorf("%w: entry %d is already the snapshot %q; one name per entry", ErrHistory, cur.ID, cur.Label)
	}
	h.Entries[h.Pos].Label = name
	return nil
}

// Find is the entry labelled name.
func (h *History) Find(name string) (HistoryEntry, bool) {
	for _, e := range h.Entries {
		if e.Label == name {
			return e, true
		}
	}
	return HistoryEntry{}, false
}

// Index is the index in Entries of the entry with id, or -1.
func (h *History) Index(id int) int {
	return slices.IndexFunc(h.Entries, func(e HistoryEntry) bool { return e.ID == id })
}

// Snapshots lists the labelled entries, newest first.
func (h *History) Snapshots() []HistoryEntry {
	var out []HistoryEntry
	for i := len(h.Entries) - 1; i >= 0; i-- {
		if h.Entries[i].Label != "" {
			out = append(out, h.Entries[i])
		}
	}
	return out
}

// Files reads the contents of e's files from the objects.
func (h *History) Files(e HistoryEntry) (map[string][]byte, error) {
	out := make(map[string][]byte, len(e.Files))
	for name, hash := range e.Files {
		b, err := h.w.object(hash)
		if err != nil {
			return nil, fmt.Errorf("entry %d, %s: %w", e.ID, runtime.PathOf(name), err)
		}
		out[name] = b
	}
	return out, nil
}

// Scene reads e's scene JSON from the objects.
func (h *History) Scene(e HistoryEntry) ([]byte, error) {
	b, err := h.w.object(e.Scene)
	if err != nil {
		return nil, fmt.Errorf("entry %d, scene: %w", e.ID, err)
	}
	return b, nil
}

// Save writes the log (see history_log.go) and, when entries were dropped, removes the objects
// no entry references any more. Its error is the log's: once the log is written the entry is
// recorded, and an object that cannot be removed is left for the next collection.
func (h *History) Save() error {
	if h.abandoned {
		return fmt.Errorf("%w: this history's last entry was abandoned; load the history again", ErrHistory)
	}
	if h.corrupt != "" {
		// Keep the unreadable log for whoever wants to look at it; losing it loses nothing
		// more than the history already lost.
		h.w.root.Rename(h.corrupt, badName(h.corrupt))
		h.corrupt = ""
	}
	h.fresh = nil // kept now, or left unreferenced: either way no longer this History's to remove
	if err := h.saveLog(); err != nil {
		return err
	}
	if h.dropped {
		h.dropped = false
		gone := h.gone
		h.gone = nil
		if err := h.collect(gone); err != nil {
			// The entry is in the log: it is recorded, whatever is left of the old ones. What
			// could not be removed waits for the next collection, which lists objects/ again.
			h.w.histMu.Lock()
			h.w.histSwept = false
			h.w.histMu.Unlock()
		}
	}
	return nil
}

// collect removes the objects of the gone entries that no entry references any more. The
// first time a Workspace collects, it lists objects/ and removes everything unreferenced
// instead (the objects of an entry whose recording failed midway, temp files of killed
// writes), so that such leftovers go without a listing on every change of a full history.
func (h *History) collect(gone []HistoryEntry) error {
	h.w.histMu.Lock()
	swept := h.w.histSwept
	h.w.histSwept = true
	h.w.histMu.Unlock()
	if swept {
		// The gone entries' objects, less those a kept entry still uses.
		drop := map[string]bool{}
		for _, e := range gone {
			drop[e.Scene] = true
			for _, hash := range e.Files {
				drop[hash] = true
			}
		}
		for _, e := range h.Entries {
			if len(drop) == 0 {
				break
			}
			delete(drop, e.Scene)
			for _, hash := range e.Files {
				delete(drop, hash)
			}
		}
		var first error // one object that cannot go does not keep the others
		for _, hash := range slices.Sorted(maps.Keys(drop)) {
			if err := h.w.root.Remove(path.Join(historyObjects, hash)); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
				first = fmt.Errorf("collecting history objects: %w", err)
			}
		}
		return first
	}
	keep := map[string]bool{}
	for _, e := range h.Entries {
		keep[e.Scene] = true
		for _, hash := range e.Files {
			keep[hash] = true
		}
	}
	entries, err := h.w.readDir(historyObjects)
	if err != nil {
		return fmt.Errorf("collecting history objects: %w", err)
	}
	for _, d := range entries {
		if !keep[d.Name()] && !d.IsDir() {
			if err := h.w.root.Remove(path.Join(historyObjects, d.Name())); err != nil {
				return fmt.Errorf("collecting history objects: %w", err)
			}
		}
	}
	return nil
}

// putObject stores data under its hash, once (see putObjectIn).
func (w *Workspace) putObject(data []byte) (string, error) {
	objs, err := w.openObjects()
	if err != nil {
		return "", fmt.Errorf("writing object %s: %w", hashOf(data), err)
	}
	defer objs.Close()
	hash, _, err := putObjectIn(objs, data)
	return hash, err
}

// openObjects opens objects/ as a root of its own, made when missing: a Record stats and
// creates its objects there by name, one call each, where every call through the workspace's
// root would open .cadrun, history and objects on the way.
func (w *Workspace) openObjects() (*os.Root, error) {
	objs, err := w.root.OpenRoot(historyObjects)
	if errors.Is(err, fs.ErrNotExist) {
		if err := w.root.MkdirAll(historyObjects, 0o755); err != nil {
			return nil, err
		}
		objs, err = w.root.OpenRoot(historyObjects)
	}
	return objs, err
}

// putObjectIn stores data under its hash in objs (objects/), once. An object is written in
// place, without a temp file and a rename (each costs a file creation, and a rename over a file
// on ext4 also starts the write-out at once): its name is its content's hash and every read
// checks it, so a write cut short reads as damaged, never as another content, and the next put
// of that content writes it again (its size is wrong). Whatever else is in its place (a file
// of another size, a link, a directory) is removed first, never written through.
// created reports an object that was not there.
func putObjectIn(objs *os.Root, data []byte) (hash string, created bool, err error) {
	hash = hashOf(data)
	st, err := objs.Lstat(hash)
	if err == nil && checkRegular(hash, st) == nil && st.Size() == int64(len(data)) {
		return hash, false, nil
	}
	if err == nil {
		if err := objs.RemoveAll(hash); err != nil {
			return "", false, fmt.Errorf("writing object %s: %w", hash, err)
		}
	}
	f, err := objs.OpenFile(hash, os.O_CREATE|os.O_EXCL|os.O_WRONLY, newFileMode)
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			objs.Remove(hash)
		}
	}
	if err != nil {
		return "", false, fmt.Errorf("writing object %s: %w", hash, err)
	}
	return hash, true, nil
}

// object reads the object named hash and checks its content against the name.
func (w *Workspace) object(hash string) ([]byte, error) {
	if !isHash(hash) {
		return nil, fmt.Errorf("%w: bad object name %q", ErrHistory, hash)
	}
	b, err := w.readFile(path.Join(historyObjects, hash), maxObjectBytes)
	if err == nil && len(b) > maxObjectBytes {
		err = fmt.Errorf("%w: over %d bytes", ErrTooLarge, maxObjectBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: object %s: %w", ErrHistory, hash, err)
	}
	if hashOf(b) != hash {
		return nil, fmt.Errorf("%w: object %s is damaged (its content has another hash)", ErrHistory, hash)
	}
	return b, nil
}

// UserFiles reads the workspace's own files: main, the user modules and the data files (no
// built-ins), by logical name.
func (w *Workspace) UserFiles() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, f := range w.ListUser() { // no fonts: they are not text; history keeps the program and its data
		b, _, err := w.Read(f.Name)
		if err != nil {
			return nil, err
		}
		out[f.Name] = b
	}
	return out, nil
}

// Restore makes the user files exactly files: it deletes the user files not in files, then
// writes those whose content differs (deletes first, so that a module renamed in case only
// comes back). changed names the files deleted or written, sorted. It is not atomic across
// files: a failure midway leaves some files restored and is reported.
func (w *Workspace) Restore(files map[string][]byte) (changed []string, err error) {
	current, err := w.UserFiles()
	if err != nil {
		return nil, err
	}
	return w.RestoreFrom(current, files)
}

// RestoreFrom is Restore for a caller that holds the workspace lock and has read the user
// files (current) under it: nothing is read again.
func (w *Workspace) RestoreFrom(current, files map[string][]byte) (changed []string, err error) {
	known := maps.Clone(current)
	for _, name := range slices.Sorted(maps.Keys(current)) {
		if _, keep := files[name]; !keep {
			if err := w.Delete(name); err != nil {
				return changed, err
			}
			delete(known, name)
			changed = append(changed, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if b, ok := current[name]; ok && string(b) == string(files[name]) {
			continue
		}
		if _, err := w.write(name, files[name], known); err != nil {
			return changed, err
		}
		known[name] = files[name]
		changed = append(changed, name)
	}
	slices.Sort(changed)
	return changed, nil
}

// FilesSource is a runtime.Source whose user files are exactly files (logical name ->
// content): the workspace as a history entry has it. Built-in modules show through where
// files has no module of their name.
func FilesSource(files map[string][]byte) runtime.Source { return filesSource(files) }

// FilesSource is files as a runtime.Source, as the package function is, with the workspace's
// fonts: a run of exactly these files still draws text in the fonts the workspace brings.
func (w *Workspace) FilesSource(files map[string][]byte) runtime.Source {
	return filesWithFonts{filesSource(files), w}
}

type filesWithFonts struct {
	filesSource
	ws *Workspace
}

// ReadFont implements runtime.FontSource.
func (f filesWithFonts) ReadFont(name string) ([]byte, string, error) { return f.ws.ReadFont(name) }

// FontNames implements runtime.FontSource.
func (f filesWithFonts) FontNames() []string { return f.ws.FontNames() }

type filesSource map[string][]byte

// Read implements runtime.Source.
func (s filesSource) Read(name string) ([]byte, string, error) {
	if err := CheckFileName(name); err != nil {
		return nil, runtime.PathOf(name), err
	}
	if b, ok := s[name]; ok {
		return b, runtime.PathOf(name), nil
	}
	if name != runtime.MainModule {
		if b, ok := builtinSource(name); ok {
			return b, builtinPath(name), nil
		}
	}
	return nil, runtime.PathOf(name), fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
}

// Names implements runtime.Source.
func (s filesSource) Names() []string {
	names := BuiltinNames()
	for n := range s {
		if n != runtime.MainModule && !IsDataName(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
