package engine

// Build history: every committed change is recorded (modules.History), and undo and redo are
// transactions like write: the target entry's files are overlaid in memory, main runs, and only
// when it runs do the files land and the scene move. The history is never a gate for a
// write: failing to record only adds a warning. Files changed outside cadrun (an editor, a
// script) are recorded as an entry of their own before the next change or undo, so that no
// one's edits can be undone out of existence: redo, or undo to that entry, brings them back.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// ErrNothingToUndo is returned by undo at the oldest entry (or with no history).
var ErrNothingToUndo = errors.New("nothing to undo")

// ErrNothingToRedo is returned by redo at the newest entry.
var ErrNothingToRedo = errors.New("nothing to redo")

// record adds the workspace as it now is (now: its user files, nil when one could not be
// read), with sceneJSON, to the history, after a change from the files before it (nil when
// unknown) and the scene old. It answers the new entry's id, or 0 and a warning when the
// history could not be written.
func (tx *txn) record(now map[string][]byte, old *scene.Scene, sceneJSON []byte) (int, []string) {
	return tx.recordAhead(now, old, sceneJSON).save()
}

// recording is a history entry made, its objects written, whose record is not yet in the log:
// a change makes it while its file syncs, and appends it (save) once the file has landed, so
// that the log never names files that did not land.
type recording struct {
	h        *modules.History
	entry    int
	warnings []string
	failed   bool // the entry could not be made; warnings says why
	caughtUp bool // an entry for the files before (edits made outside cadrun) was made first
}

// recordAhead is record up to the log's append: see record and recording.
func (tx *txn) recordAhead(now map[string][]byte, old *scene.Scene, sceneJSON []byte) *recording {
	h, warnings := tx.history()
	r := &recording{h: h, warnings: warnings}
	fail := func(err error) *recording {
		r.warnings = append(r.warnings, fmt.Sprintf("the change landed, but recording it in the history failed: %v", err))
		r.failed = true
		return r
	}
	if sceneJSON == nil {
		return fail(errors.New("the scene could not be encoded"))
	}
	if tx.before != nil {
		caughtUp, err := tx.catchUp(old)
		if err != nil {
			return fail(err)
		}
		r.caughtUp = caughtUp
	}
	if now == nil {
		_, err := tx.srv.ws.UserFiles()
		if err == nil { // readable again a moment later
			err = errors.New("a file could not be read as the change landed")
		}
		return fail(fmt.Errorf("reading the workspace: %w", err))
	}
	e, err := h.Record(now, sceneJSON)
	if err != nil {
		return fail(err)
	}
	r.entry = e.ID
	return r
}

// abandon drops the recording of a change that did not land: the objects it created go.
func (r *recording) abandon() {
	if r != nil {
		r.h.Abandon()
	}
}

// save appends the recording to the log: the entry's id, or 0 and a warning when it could not
// be made or written. When only the change's own entry failed, the entry for the edits made
// outside cadrun before it is still saved: they are on disk, and undo must not lose them.
func (r *recording) save() (int, []string) {
	if r.failed {
		if r.caughtUp {
			if err := r.h.Save(); err != nil {
				r.warnings = append(r.warnings, fmt.Sprintf("recording the edits made outside cadrun before it failed too: %v", err))
			}
		}
		return 0, r.warnings
	}
	if err := r.h.Save(); err != nil {
		return 0, append(r.warnings, fmt.Sprintf("the change landed, but recording it in the history failed: %v", err))
	}
	return r.entry, r.warnings
}

// catchUp records files (with the scene sc) when they are not the current entry: the state
// before the first recorded change, or edits made outside cadrun. It reports whether it
// recorded; the caller saves.
func catchUp(h *modules.History, files map[string][]byte, sc *scene.Scene) (bool, error) {
	if cur, ok := h.Current(); ok && h.Matches(cur, files) {
		return false, nil
	}
	b, err := sc.MarshalJSON()
	if err != nil {
		return false, err
	}
	_, err = h.Record(files, b)
	return err == nil, err
}

// Travel is undo (back one entry), redo (forward one) or, with a snapshot name, either one
// going straight to that snapshot: a transaction that restores every user file of the target
// entry together with its scene.
func (se *Session) Travel(ctx context.Context, undo bool, name string) (*ChangeResult, error) {
	start := time.Now()
	srv := se.srv
	tx, disk, err := srv.beginRestore(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.end()
	h, warnings := tx.history()
	caughtUp := 0
	if len(h.Entries) > 0 {
		cur, _ := h.Current()
		recorded, err := tx.catchUp(srv.Scene())
		if err == nil && recorded {
			err = h.Save()
		}
		if err != nil {
			return nil, NotApplied(fmt.Errorf("the files changed outside cadrun since entry %d, and recording them failed (%w); undo would lose them", cur.ID, err))
		}
		if recorded {
			now, _ := h.Current()
			caughtUp = now.ID // this warning says what it is; no second one below
			warnings = append(warnings, fmt.Sprintf("the files had changed outside cadrun since entry %d; that state was recorded as entry %d, which redo brings back", cur.ID, now.ID))
		}
	}
	if len(tx.synced.Files) > 0 && caughtUp == 0 {
		warnings = append(warnings, tx.synced.Note())
	}

	target := h.Pos - 1
	if !undo {
		target = h.Pos + 1
	}
	switch {
	case name != "":
		e, ok := h.Find(name)
		if !ok {
			return nil, fmt.Errorf("%w: no snapshot named %q; %s", ErrBadInput, name, SnapshotNames(h))
		}
		target = h.Index(e.ID)
	case undo && target < 0:
		return nil, fmt.Errorf("%w; history has %d entries%s", ErrNothingToUndo, len(h.Entries), atOldest(h))
	case !undo && len(h.Entries) == 0:
		return nil, fmt.Errorf("%w; there is no history yet (every change that lands is recorded)", ErrNothingToRedo)
	case !undo && target >= len(h.Entries):
		return nil, fmt.Errorf("%w; history has %d entries and the newest is current", ErrNothingToRedo, len(h.Entries))
	}
	entry := h.Entries[target]
	files, err := h.Files(entry)
	if err != nil {
		return nil, NotApplied(err)
	}
	res, err := srv.run(ctx, srv.ws.FilesSource(files))
	if err != nil {
		return nil, fmt.Errorf("entry %d no longer runs:\n%w", entry.ID, NotApplied(err))
	}
	takenBack := slices.DeleteFunc(se.notMine(h, target), func(id int) bool { return id == caughtUp })
	restored, err := se.restoreFiles(disk, files)
	if err != nil {
		return nil, fmt.Errorf("restoring entry %d failed midway (%w); restored so far: %s. Read the files, then write what is missing", entry.ID, err, strings.Join(restored, ", "))
	}
	if len(takenBack) > 0 {
		warnings = append(warnings, takenBackWarning(takenBack, restored))
	}
	out := &ChangeResult{Warnings: warnings, Entry: entry.ID, Restored: restored, Files: restored}
	srv.land(res, out, nil, nil)
	if err := h.MoveTo(target); err == nil {
		err = h.Save()
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("the files were restored, but saving the history position failed: %v", err))
		}
	}
	out.Millis = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// restoreFiles writes an entry's files over the files before (disk) once its run went well,
// for undo, redo and scene restore: the server's scene is then built from them, and the session
// has read what was written. restored names the files written or removed.
func (se *Session) restoreFiles(disk, files map[string][]byte) (restored []string, err error) {
	restored, err = se.srv.ws.RestoreFrom(disk, files)
	if err != nil {
		return restored, err
	}
	se.srv.setBuilt(files)
	for _, n := range restored {
		if b, ok := files[n]; ok {
			se.NoteRead(n, b)
		}
	}
	return restored, nil
}

// notMine lists the ids of the entries an undo to index target takes back (those after it,
// up to the current one) that this session did not make: another client's changes, another
// process's, or edits made outside cadrun.
func (se *Session) notMine(h *modules.History, target int) []int {
	var ids []int
	for i := target + 1; i <= h.Pos && i < len(h.Entries); i++ {
		if id := h.Entries[i].ID; !se.didMake(id) {
			ids = append(ids, id)
		}
	}
	return ids
}

func takenBackWarning(ids []int, restored []string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	what := "entry " + s[0]
	if len(s) > 1 {
		what = "entries " + strings.Join(s, ", ")
	}
	paths := make([]string, len(restored))
	for i, n := range restored {
		paths[i] = runtime.PathOf(n)
	}
	files := "no file"
	if len(paths) > 0 {
		files = strings.Join(paths, ", ")
	}
	return fmt.Sprintf("this undo takes back %s, which this client did not make (another client, another process such as cadrun tool, or an editor made it); it restored %s. Redo brings it back", what, files)
}

func atOldest(h *modules.History) string {
	if cur, ok := h.Current(); ok {
		return fmt.Sprintf(", and entry %d, the oldest, is current", cur.ID)
	}
	return "; every change you make from now on is recorded"
}

func SnapshotNames(h *modules.History) string {
	snaps := h.Snapshots()
	if len(snaps) == 0 {
		return "there are no snapshots yet; take one with the snapshot command"
	}
	names := make([]string, len(snaps))
	for i, e := range snaps {
		names[i] = fmt.Sprintf("%q", e.Label)
	}
	return "the snapshots are " + strings.Join(names, ", ")
}

// Snapshot is one named checkpoint.
type Snapshot struct {
	Name    string `json:"name"`
	Entry   int    `json:"entry"`
	Current bool   `json:"current,omitempty"`
}

// HistoryOut describes the history: its size, the current entry and the snapshots, newest
// first.
type HistoryOut struct {
	Entries   int        `json:"entries"`
	Current   int        `json:"current"`
	Snapshots []Snapshot `json:"snapshots"`
	Warnings  []string   `json:"warnings,omitempty"`
}

func describe(h *modules.History, warnings []string) *HistoryOut {
	out := &HistoryOut{Entries: len(h.Entries), Snapshots: []Snapshot{}, Warnings: warnings}
	cur, _ := h.Current()
	out.Current = cur.ID
	for _, e := range h.Snapshots() {
		out.Snapshots = append(out.Snapshots, Snapshot{Name: e.Label, Entry: e.ID, Current: e.ID == cur.ID})
	}
	return out
}

// Snapshot names the current state: the workspace's files as they are now (recorded first
// when the history does not have them yet).
func (se *Session) Snapshot(ctx context.Context, name string) (*HistoryOut, error) {
	srv := se.srv
	tx, err := srv.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.end()
	h, warnings := tx.history()
	if _, err := tx.files(); err != nil {
		return nil, err
	}
	if _, err := tx.catchUp(srv.Scene()); err != nil {
		return nil, err
	}
	if name == "" {
		name = autoSnapshotName(h)
	}
	if err := h.Label(name); err != nil {
		return nil, err
	}
	if err := h.Save(); err != nil {
		return nil, err
	}
	return describe(h, warnings), nil
}

// autoSnapshotName names a snapshot taken without a name (upstream's takes none):
// "snapshot-ID" after the current entry's id, made unique if a user already took that name.
func autoSnapshotName(h *modules.History) string {
	base := "snapshot"
	if h.Pos >= 0 {
		base += "-" + strconv.Itoa(h.Entries[h.Pos].ID)
	}
	name := base
	for i := 2; ; i++ {
		if _, taken := h.Find(name); !taken {
			return name
		}
		name = base + "-" + strconv.Itoa(i)
	}
}

// Snapshots lists the history; it only reads, so it takes no lock (the log is replaced
// atomically).
func (se *Session) Snapshots() *HistoryOut {
	return describe(se.srv.LoadHistory())
}

// LoadHistory reads the history; a log that could not be read is empty history with the
// reason as a warning, never an error that blocks a change.
func (srv *Server) LoadHistory() (*modules.History, []string) {
	h, warn := srv.ws.LoadHistory()
	if warn == "" {
		return h, nil
	}
	return h, []string{warn}
}

// Restore brings back the files of history entry histID, with their scene, as a transaction
// (undo and redo go one step; this goes to an entry a reference held elsewhere names, as a
// journal entry does). from names the reference in errors ("journal entry 5"); state, when
// not empty, must be the entry's EntryState, so that a history started again since is not
// taken for the one the reference speaks of.
func (se *Session) Restore(ctx context.Context, histID int, state, from string) (*ChangeResult, error) {
	start := time.Now()
	srv := se.srv
	tx, disk, err := srv.beginRestore(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.end()
	h, warnings := tx.history()
	i := h.Index(histID)
	if i < 0 {
		return nil, NotApplied(fmt.Errorf("%s speaks of history entry %d, which the history no longer holds (it keeps the newest %d entries, snapshots first); take a snapshot to keep a state for good", from, histID, modules.MaxHistory))
	}
	if state != "" && state != EntryState(h.Entries[i]) {
		return nil, NotApplied(fmt.Errorf("%s speaks of history entry %d, but the history was started again since (its log was damaged or deleted) and its entry %d holds other files; the state it speaks of is gone", from, histID, histID))
	}
	files, err := h.Files(h.Entries[i])
	if err != nil {
		return nil, NotApplied(err)
	}
	differ := changedFiles(hashFiles(disk), hashFiles(files))
	if len(differ) == 0 {
		return nil, NotApplied(fmt.Errorf("the workspace already holds the files of history entry %d (%s); there is nothing to restore", histID, from))
	}
	if len(tx.synced.Files) > 0 {
		warnings = append(warnings, tx.synced.Note())
	}
	res, err := srv.run(ctx, srv.ws.FilesSource(files))
	if err != nil {
		return nil, fmt.Errorf("history entry %d (%s) no longer runs:\n%w", histID, from, NotApplied(err))
	}
	restored, err := se.restoreFiles(disk, files)
	if err != nil {
		return nil, fmt.Errorf("restoring history entry %d failed midway (%w); restored so far: %v. Read the files, then write what is missing", histID, err, restored)
	}
	out := &ChangeResult{Warnings: warnings, Restored: restored, Files: restored}
	sceneJSON, old := srv.land(res, out, nil, nil)
	var warnHistory []string
	out.Entry, warnHistory = tx.record(files, old, sceneJSON)
	out.Warnings = append(out.Warnings, warnHistory...)
	if out.Entry > 0 {
		se.noteMade(out.Entry)
	}
	out.Millis = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// Record records the workspace as it is now in the history, when the history does not hold
// it yet, and answers the entry that holds it; ok is false when there are no files and no
// history.
func (srv *Server) Record(ctx context.Context) (e modules.HistoryEntry, ok bool, err error) {
	// begin runs files changed outside cadrun first (as before any tool answers), so that the
	// entry recorded for them holds their scene, not the one before them.
	tx, err := srv.begin(ctx)
	if err != nil {
		return modules.HistoryEntry{}, false, err
	}
	defer tx.end()
	files, err := tx.files()
	if err != nil {
		return modules.HistoryEntry{}, false, err
	}
	h, _ := tx.history()
	if len(files) == 0 && len(h.Entries) == 0 {
		return modules.HistoryEntry{}, false, nil
	}
	recorded, err := tx.catchUp(srv.Scene())
	if err == nil && recorded {
		err = h.Save()
	}
	if err != nil {
		return modules.HistoryEntry{}, false, fmt.Errorf("recording the workspace in the history: %w", err)
	}
	cur, _ := h.Current()
	return cur, true, nil
}

// EntryState is the fingerprint of a history entry's files, for a reference held elsewhere
// (a journal entry keeps it with the entry's id): a history started again (its log damaged
// or deleted) numbers its entries from 1 again, and Restore must not take a new entry for the
// one the reference speaks of.
func EntryState(e modules.HistoryEntry) string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(e.Files)) {
		fmt.Fprintf(h, "%s\x00%s\n", name, e.Files[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}
