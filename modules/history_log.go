package modules

// The history's log on disk, .cadrun/history/log.jsonl, is a list of records, one JSON object
// a line, after a first line that names the format:
//
//	{"version":2}
//	{"add":[{"id":1,"files":{"main":"9f…"},"scene":"4c…"}],"current":1,"next_id":2}
//	{"drop":[1],"add":[{"id":2,"files":{"main":"e3…"},"scene":"0a…"}],"current":2,"next_id":3}
//	{"labels":[{"id":2,"name":"before the holes"}],"current":2,"next_id":3}
//
// Each Save appends one record: the entries it dropped, the entries it added (always after the
// ones kept), the labels it set, and the current entry and next id after it. Reading replays
// the records. Appending one line is one small write, where rewriting the whole log cost a
// temp file and a rename over the old log (on ext4 a rename over a file also starts writing
// the new file out at once), and it does not grow with the history. The log is written whole,
// atomically (temp file and rename), when it has gathered as many records as the history keeps
// entries, when its last line is torn (a writer killed in the middle of an append: the torn
// line is ignored), when there is none yet, and when the history came from the first format
// (log.json, read when log.jsonl is missing, and removed once log.jsonl is written).
//
// Callers hold the workspace lock from LoadHistory to Save, so no other writer appends in
// between. A workspace remembers the history it last read or wrote with the log's fileKey
// (inode, size, modification time): a transaction whose log is still that file skips the read.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// historyLogVersion is log.jsonl's format; the first line of another version reads as no
// history.
const historyLogVersion = 2

// Caps on replaying a log, so that a damaged or hostile one costs little to refuse: a log that
// cadrun wrote holds at most MaxHistory records after its last rewrite and at most MaxHistory
// entries at any point; ten times that is refused as damaged (docs/limits.md).
const (
	maxLogRecords = 10 * MaxHistory
	maxLogEntries = 10 * MaxHistory
)

// logRecord is one line of the log after the first.
type logRecord struct {
	Drop    []int          `json:"drop,omitempty"`
	Add     []HistoryEntry `json:"add,omitempty"`
	Labels  []logLabel     `json:"labels,omitempty"`
	Current int            `json:"current"` // the current entry's id; 0 when there are none
	NextID  int            `json:"next_id"`
}

// logLabel names an entry.
type logLabel struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// logBase is what a History knows of the log it was read from or last saved to, so that Save
// can append what changed since. It is never changed once made: copies of a History share it.
type logBase struct {
	labels  map[int]string // every entry's label by id
	order   []int          // the entries' ids, oldest first
	current int
	nextID  int
	records int  // records in the file after the version line
	torn    bool // the file's last line is torn: append nothing to it
}

// readLog reads log.jsonl into h. ok is false when there is no such file (the caller then
// tries the first format).
func (w *Workspace) readLog(h *History) (ok bool, err error) {
	f, st, err := w.openFileStat(historyLog)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	defer f.Close()
	key := keyOf(st)
	if cached, hit := w.cachedHistory(key); hit {
		*h = *cached
		return true, nil
	}
	b, err := readUpTo(f, st.Size(), maxHistoryLogBytes)
	if err == nil && len(b) > maxHistoryLogBytes {
		err = fmt.Errorf("%w: %s is over %d bytes", ErrTooLarge, historyLog, maxHistoryLogBytes)
	}
	if err == nil {
		err = h.decodeLog(b)
	}
	if err != nil {
		return true, err
	}
	w.cacheHistory(key, h)
	return true, nil
}

// decodeLog replays the log's records into h. A last line without its line break was torn
// by a writer that stopped midway: it is ignored, and the next Save writes the log whole.
func (h *History) decodeLog(b []byte) error {
	head, rest, found := bytes.Cut(b, []byte("\n"))
	if !found {
		return fmt.Errorf("no complete first line")
	}
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(head, &v); err != nil {
		return fmt.Errorf("line 1: %w", err)
	}
	if v.Version != historyLogVersion {
		return fmt.Errorf("version %d, want %d", v.Version, historyLogVersion)
	}
	f := historyFile{NextID: 1}
	records, torn := 0, false
	for line := 2; len(rest) > 0; line++ {
		var text []byte
		text, rest, found = bytes.Cut(rest, []byte("\n"))
		if !found {
			torn = true
			break
		}
		if records == maxLogRecords {
			return fmt.Errorf("more than %d records (maxLogRecords)", maxLogRecords)
		}
		var r logRecord
		if err := json.Unmarshal(text, &r); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if err := f.apply(r); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if len(f.Entries) > maxLogEntries {
			return fmt.Errorf("line %d: more than %d entries (maxLogEntries)", line, maxLogEntries)
		}
		records++
	}
	if err := h.set(f); err != nil {
		return err
	}
	base := baseOf(h, records)
	base.torn = torn
	h.base = base
	return nil
}

// apply replays one record.
func (f *historyFile) apply(r logRecord) error {
	for _, id := range r.Drop {
		i := indexOf(f.Entries, id)
		if i < 0 {
			return fmt.Errorf("drops entry %d, which is not in the log", id)
		}
		f.Entries = append(f.Entries[:i], f.Entries[i+1:]...)
	}
	f.Entries = append(f.Entries, r.Add...)
	for _, l := range r.Labels {
		i := indexOf(f.Entries, l.ID)
		if i < 0 {
			return fmt.Errorf("labels entry %d, which is not in the log", l.ID)
		}
		f.Entries[i].Label = l.Name
	}
	f.Current, f.NextID = r.Current, r.NextID
	return nil
}

func indexOf(entries []HistoryEntry, id int) int {
	for i, e := range entries {
		if e.ID == id {
			return i
		}
	}
	return -1
}

// baseOf is h as the log on disk now holds it, with records records after the version line.
func baseOf(h *History, records int) *logBase {
	b := &logBase{labels: make(map[int]string, len(h.Entries)), order: make([]int, len(h.Entries)), nextID: h.nextID, records: records}
	for i, e := range h.Entries {
		b.labels[e.ID], b.order[i] = e.Label, e.ID
	}
	if e, ok := h.Current(); ok {
		b.current = e.ID
	}
	return b
}

// change is the record that takes the log from h.base to h; ok is false when it cannot be
// said as one (entries kept in another order, which Record and trim never make).
func (h *History) change() (r logRecord, ok bool) {
	base := h.base
	kept := 0
	for _, e := range h.Entries {
		label, was := base.labels[e.ID]
		switch {
		case !was:
			r.Add = append(r.Add, e)
			continue
		case len(r.Add) > 0:
			return logRecord{}, false // a kept entry after an added one
		case label != e.Label:
			r.Labels = append(r.Labels, logLabel{e.ID, e.Label})
		}
		// Kept entries must be base's, in base's order, less the dropped ones.
		for kept < len(base.order) && base.order[kept] != e.ID {
			r.Drop = append(r.Drop, base.order[kept])
			kept++
		}
		if kept == len(base.order) {
			return logRecord{}, false
		}
		kept++
	}
	r.Drop = append(r.Drop, base.order[kept:]...)
	if e, ok := h.Current(); ok {
		r.Current = e.ID
	}
	r.NextID = h.nextID
	return r, true
}

// empty reports whether r changes nothing from base.
func (r logRecord) empty(base *logBase) bool {
	return len(r.Drop) == 0 && len(r.Add) == 0 && len(r.Labels) == 0 && r.Current == base.current && r.NextID == base.nextID
}

// saveLog writes h's log: one appended record when the log on disk is the one h was read
// from and can take one more, else the whole log.
func (h *History) saveLog() error {
	limit := h.w.historyCap
	if limit <= 0 {
		limit = MaxHistory
	}
	if base := h.base; base != nil && !base.torn && base.records < limit {
		if r, ok := h.change(); ok {
			if r.empty(base) {
				return nil
			}
			return h.appendLog(r, base.records+1)
		}
	}
	return h.writeLog()
}

// appendLog appends r, the records-th record.
func (h *History) appendLog(r logRecord, records int) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := h.w.root.OpenFile(historyLog, os.O_WRONLY|os.O_APPEND|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return h.writeLog() // removed since it was read: write it whole
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", historyLog, err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		// Part of the line may be there: the next Save writes the log whole rather than
		// append after it.
		h.base = nil
		return fmt.Errorf("writing %s: %w", historyLog, err)
	}
	// The record is in: h is the log now, whether or not it can be remembered by its key.
	h.base = baseOf(h, records)
	if st, err := f.Stat(); err == nil {
		h.w.cacheHistory(keyOf(st), h)
	}
	return nil
}

// writeLog writes the whole log atomically: the version line and one record of every entry.
// A log in the first format is removed once this one is in place.
func (h *History) writeLog() error {
	r := logRecord{Add: h.Entries, NextID: h.nextID}
	if e, ok := h.Current(); ok {
		r.Current = e.ID
	}
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b := fmt.Appendf(make([]byte, 0, len(line)+16), "{\"version\":%d}\n", historyLogVersion)
	b = append(append(b, line...), '\n')
	if err := h.w.writeDerived(historyLog, b, newFileMode); err != nil {
		return fmt.Errorf("writing %s: %w", historyLog, err)
	}
	if h.fromV1 {
		// log.jsonl is read first from now on; a log.json that cannot be removed is only left over.
		h.w.root.Remove(historyLogV1)
		h.fromV1 = false
	}
	h.base = baseOf(h, 1)
	if st, err := h.w.root.Lstat(historyLog); err == nil {
		h.w.cacheHistory(keyOf(st), h)
	}
	return nil
}
