package modules

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/runtime"
)

func files(kv ...string) map[string][]byte {
	m := map[string][]byte{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = []byte(kv[i+1])
	}
	return m
}

// objects lists the object names in the workspace's history.
func objects(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(historyObjects)))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// checkObjects checks that the history's objects are exactly those of contents.
func checkObjects(t *testing.T, dir string, contents ...string) {
	t.Helper()
	var want []string
	for _, c := range contents {
		want = append(want, hashOf([]byte(c)))
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, objects(t, dir)); diff != "" {
		t.Errorf("objects mismatch (-want +got):\n%s", diff)
	}
}

func record(t *testing.T, h *History, f map[string][]byte, scene string) HistoryEntry {
	t.Helper()
	e, err := h.Record(f, []byte(scene))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Save(); err != nil {
		t.Fatal(err)
	}
	return e
}

func ids(h *History) []int {
	var out []int
	for _, e := range h.Entries {
		out = append(out, e.ID)
	}
	return out
}

func TestHistoryRecordAndReload(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, warn := w.LoadHistory()
	if warn != "" || len(h.Entries) != 0 || h.Pos != -1 {
		t.Fatalf("fresh history: %+v, %q", h, warn)
	}
	record(t, h, files(), `{"a":1}`)
	e2 := record(t, h, files("main", "m1", "gears", "g"), `{"a":2}`)
	record(t, h, files("main", "m2", "gears", "g"), `{"a":3}`)
	// gears is stored once; two scenes, two mains, one empty... each content once.
	if got := len(objects(t, dir)); got != 6 {
		t.Errorf("%d objects, want 6: %v", got, objects(t, dir))
	}

	// A new History on the same directory reads the same log.
	h2, warn := w.LoadHistory()
	if warn != "" {
		t.Fatal(warn)
	}
	if diff := cmp.Diff(h.Entries, h2.Entries); diff != "" {
		t.Errorf("reloaded entries mismatch (-want +got):\n%s", diff)
	}
	if h2.Pos != 2 {
		t.Errorf("pos = %d", h2.Pos)
	}
	got, err := h2.Files(h2.Entries[1])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files("main", "m1", "gears", "g"), got); diff != "" {
		t.Errorf("files mismatch (-want +got):\n%s", diff)
	}
	if sc, err := h2.Scene(e2); err != nil || string(sc) != `{"a":2}` {
		t.Errorf("scene = %q, %v", sc, err)
	}
	if !h2.Matches(e2, files("main", "m1", "gears", "g")) || h2.Matches(e2, files("main", "m1")) {
		t.Error("Matches is wrong")
	}
}

func TestHistoryRedoTailDroppedAndCollected(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, _ := w.LoadHistory()
	record(t, h, files("main", "one"), "s1")
	record(t, h, files("main", "two"), "s2")
	record(t, h, files("main", "three"), "s3")
	if err := h.MoveTo(0); err != nil {
		t.Fatal(err)
	}
	record(t, h, files("main", "four"), "s4")
	if diff := cmp.Diff([]int{1, 4}, ids(h)); diff != "" {
		t.Errorf("ids mismatch (-want +got):\n%s", diff)
	}
	checkObjects(t, dir, "one", "s1", "four", "s4")
}

func TestHistoryCap(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	w.historyCap = 3
	h, _ := w.LoadHistory()
	record(t, h, files("main", "1"), "s")
	if err := h.Label("first"); err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 5; i++ {
		record(t, h, files("main", string(rune('0'+i))), "s")
	}
	// The labelled entry 1 is kept; the oldest unlabelled ones go.
	if diff := cmp.Diff([]int{1, 4, 5}, ids(h)); diff != "" {
		t.Errorf("ids mismatch (-want +got):\n%s", diff)
	}
	if h.Pos != 2 {
		t.Errorf("pos = %d", h.Pos)
	}
	if got := len(objects(t, dir)); got != 4 { // "1", "4", "5", "s"
		t.Errorf("%d objects: %v", got, objects(t, dir))
	}
	// Labelled entries alone over the cap: the oldest labelled go too.
	for _, name := range []string{"a", "b", "c"} {
		record(t, h, files("main", name), "s")
		if err := h.Label(name); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Save(); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, e := range h.Snapshots() {
		labels = append(labels, e.Label)
	}
	if diff := cmp.Diff([]string{"c", "b", "a"}, labels); diff != "" {
		t.Errorf("labels mismatch (-want +got):\n%s", diff)
	}
}

func TestHistoryLabel(t *testing.T) {
	t.Parallel()
	w, _ := workspace(t, nil)
	h, _ := w.LoadHistory()
	if err := h.Label("x"); !errors.Is(err, ErrHistory) {
		t.Errorf("label on empty history: %v", err)
	}
	record(t, h, files("main", "1"), "s")
	for _, bad := range []string{"", " x", "a\nb", strings.Repeat("x", MaxLabel+1)} {
		if err := h.Label(bad); !errors.Is(err, ErrHistory) {
			t.Errorf("Label(%q) = %v", bad, err)
		}
	}
	if err := h.Label("door v1"); err != nil {
		t.Fatal(err)
	}
	if err := h.Label("door v2"); err == nil || err.Error() != `history: entry 1 is already the snapshot "door v1"; one name per entry` {
		t.Errorf("second label: %v", err)
	}
	record(t, h, files("main", "2"), "s")
	if err := h.Label("door v1"); err == nil || err.Error() != `history: the snapshot "door v1" already exists (entry 1); choose another name` {
		t.Errorf("taken label: %v", err)
	}
	if e, ok := h.Find("door v1"); !ok || e.ID != 1 {
		t.Errorf("Find = %+v, %v", e, ok)
	}
}

func TestHistoryCorruptLog(t *testing.T) {
	t.Parallel()
	entry := func(id int, file string) string {
		return `{"id":` + fmt.Sprint(id) + `,"files":{"` + file + `":"` + hashOf(nil) + `"},"scene":"` + hashOf(nil) + `"}`
	}
	for _, tc := range []struct {
		name, log, content string
	}{
		{"not json", historyLogV1, "{oops"},
		{"future version", historyLogV1, `{"version":9,"next_id":1,"current":0,"entries":[]}`},
		{"bad current", historyLogV1, `{"version":1,"next_id":3,"current":7,"entries":[` + entry(1, "main") + `]}`},
		{"bad file name", historyLogV1, `{"version":1,"next_id":3,"current":1,"entries":[` + entry(1, "../x") + `]}`},
		{"lines: not json", historyLog, "{\"version\":2}\n{oops\n"},
		{"lines: no version line", historyLog, `{"version":2}`},
		{"lines: future version", historyLog, "{\"version\":9}\n"},
		{"lines: first format", historyLog, `{"version":1,"next_id":1,"current":0,"entries":[]}` + "\n"},
		{"lines: bad current", historyLog, "{\"version\":2}\n{\"add\":[" + entry(1, "main") + "],\"current\":7,\"next_id\":2}\n"},
		{"lines: drops a missing entry", historyLog, "{\"version\":2}\n{\"drop\":[4],\"current\":0,\"next_id\":5}\n"},
		{"lines: labels a missing entry", historyLog, "{\"version\":2}\n{\"labels\":[{\"id\":4,\"name\":\"x\"}],\"current\":0,\"next_id\":5}\n"},
		{"lines: ids out of order", historyLog, "{\"version\":2}\n{\"add\":[" + entry(2, "main") + "," + entry(1, "main") + "],\"current\":1,\"next_id\":3}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, dir := workspace(t, nil)
			logPath := filepath.Join(dir, filepath.FromSlash(tc.log))
			if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(logPath, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			h, warn := w.LoadHistory()
			if !strings.HasPrefix(warn, "the build history in "+tc.log+" could not be read") ||
				!strings.HasSuffix(warn, "the old log is kept as "+badName(tc.log)) || len(h.Entries) != 0 {
				t.Fatalf("got %d entries, warning %q", len(h.Entries), warn)
			}
			record(t, h, files("main", "x"), "s")
			if got := readFile(t, filepath.Join(dir, filepath.FromSlash(badName(tc.log)))); got != tc.content {
				t.Errorf("bad log kept as %q", got)
			}
			if h2, warn := w.LoadHistory(); warn != "" || len(h2.Entries) != 1 {
				t.Errorf("after saving: %d entries, %q", len(h2.Entries), warn)
			}
		})
	}
}

func TestHistoryDamagedObject(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, _ := w.LoadHistory()
	e := record(t, h, files("main", "drawCircle('a',0,0,1)"), "s")
	p := filepath.Join(dir, filepath.FromSlash(historyObjects), e.Files["main"])
	if err := os.WriteFile(p, []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Files(e); !errors.Is(err, ErrHistory) || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("got %v", err)
	}
	os.Remove(p)
	if _, err := h.Files(e); !errors.Is(err, ErrHistory) {
		t.Errorf("missing object: %v", err)
	}
}

func TestRestoreAndFilesSource(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, map[string]string{
		"scene.code.js":    "import 'house'",
		"modules/house.js": "old",
		"modules/extra.js": "x",
		"data/d.json":      "{}",
	})
	got, err := w.UserFiles()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files("main", "import 'house'", "house", "old", "extra", "x", "d.json", "{}"), got); diff != "" {
		t.Errorf("UserFiles mismatch (-want +got):\n%s", diff)
	}
	target := files("main", "import 'house'", "House", "new", "more", "y")
	src := FilesSource(target)
	if b, _, err := src.Read("House"); err != nil || string(b) != "new" {
		t.Errorf("Read(House) = %q, %v", b, err)
	}
	if _, _, err := src.Read("extra"); err == nil {
		t.Error("extra is visible")
	}
	if names := src.Names(); !slices.Contains(names, "House") || slices.Contains(names, "extra") || slices.Contains(names, "main") {
		t.Errorf("Names = %v", names)
	}
	changed, err := w.Restore(target)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"House", "d.json", "extra", "house", "more"}, changed); diff != "" {
		t.Errorf("changed mismatch (-want +got):\n%s", diff)
	}
	if got, _ := w.UserFiles(); !cmp.Equal(target, got) {
		t.Errorf("after Restore: %q", got)
	}
	// Data files are part of the state: one the target does not have is deleted.
	if _, err := os.Stat(filepath.Join(dir, "data", "d.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("data/d.json is still there: %v", err)
	}
}

// A run of recorded files still finds the workspace's fonts: FilesSource of a workspace is a
// runtime.FontSource reading them from the workspace.
func TestFilesSourceHasTheWorkspaceFonts(t *testing.T) {
	w, dir := workspace(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, "fonts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fonts", "mine.ttf"), []byte("not really a font"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, ok := w.FilesSource(map[string][]byte{"main": []byte("x")}).(runtime.FontSource)
	if !ok {
		t.Fatal("a workspace's FilesSource is not a FontSource")
	}
	if diff := cmp.Diff([]string{"mine"}, src.FontNames()); diff != "" {
		t.Errorf("font names mismatch (-want +got):\n%s", diff)
	}
	if b, _, err := src.ReadFont("mine"); err != nil || string(b) != "not really a font" {
		t.Errorf("ReadFont = %q, %v", b, err)
	}
}

// TestPutObjectReplacesWhatIsInItsPlace: an object cut short, a hard link to a file outside
// the workspace and a directory in an object's place are removed and the object written; the
// file outside keeps its bytes.
func TestPutObjectReplacesWhatIsInItsPlace(t *testing.T) {
	t.Parallel()
	data := []byte("drawCircle('a', 0, 0, 1)")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, put := range map[string]func(p string) error{
		"cut short": func(p string) error { return os.WriteFile(p, data[:5], 0o644) },
		"hard link": func(p string) error { return os.Link(outside, p) },
		"directory": func(p string) error { return os.MkdirAll(filepath.Join(p, "x"), 0o755) },
	} {
		w, dir := workspace(t, nil)
		p := filepath.Join(dir, filepath.FromSlash(historyObjects), hashOf(data))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := put(p); err != nil {
			t.Fatal(err)
		}
		hash, err := w.putObject(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, err := w.object(hash); err != nil || string(got) != string(data) {
			t.Errorf("%s: object reads %q, %v; want %q", name, got, err, data)
		}
	}
	if got := readFile(t, outside); got != "outside" {
		t.Errorf("the file outside the workspace became %q", got)
	}
}

// TestHistoryLogRemovedBeforeSave: a log removed after it was read (by hand, while the history
// was open) is written whole at the next Save, not appended to.
func TestHistoryLogRemovedBeforeSave(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, _ := w.LoadHistory()
	record(t, h, files("main", "1"), "s1")
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(historyLog))); err != nil {
		t.Fatal(err)
	}
	record(t, h, files("main", "2"), "s2")
	h2, warn := reopenHistory(t, dir)
	if diff := cmp.Diff([]int{1, 2}, ids(h2)); diff != "" || warn != "" {
		t.Errorf("ids mismatch (-want +got):\n%s%s", diff, warn)
	}
}

// TestHistoryLogCaps: a log with more records or more entries than cadrun ever writes is
// refused as damaged after reading no further than the cap.
func TestHistoryLogCaps(t *testing.T) {
	t.Parallel()
	entry := func(id int) string {
		return `{"id":` + fmt.Sprint(id) + `,"files":{},"scene":"` + hashOf(nil) + `"}`
	}
	var records, entries strings.Builder
	records.WriteString("{\"version\":2}\n")
	for range maxLogRecords + 1 {
		records.WriteString("{\"current\":0,\"next_id\":1}\n")
	}
	var adds []string
	for id := 1; id <= maxLogEntries+1; id++ {
		adds = append(adds, entry(id))
	}
	entries.WriteString("{\"version\":2}\n{\"add\":[" + strings.Join(adds, ",") + "],\"current\":1,\"next_id\":" + fmt.Sprint(maxLogEntries+2) + "}\n")
	for _, tc := range []struct{ log, want string }{
		{records.String(), "more than 2000 records (maxLogRecords)"},
		{entries.String(), "line 2: more than 2000 entries (maxLogEntries)"},
	} {
		h := &History{Pos: -1, nextID: 1}
		if err := h.decodeLog([]byte(tc.log)); err == nil || err.Error() != tc.want {
			t.Errorf("decodeLog = %v; want %q", err, tc.want)
		}
	}
}

// FuzzHistoryLog: any log either reads as a history that holds together or is refused, never
// a panic; a history it reads is written whole and reads back the same.
func FuzzHistoryLog(f *testing.F) {
	s := hashOf(nil)
	f.Add([]byte("{\"version\":2}\n{\"add\":[{\"id\":1,\"files\":{\"main\":\"" + s + "\"},\"scene\":\"" + s + "\"}],\"current\":1,\"next_id\":2}\n"))
	f.Add([]byte("{\"version\":2}\n{\"add\":[{\"id\":1,\"files\":{},\"scene\":\"" + s + "\"},{\"id\":2,\"files\":{},\"scene\":\"" + s + "\"}],\"current\":2,\"next_id\":3}\n{\"drop\":[1],\"labels\":[{\"id\":2,\"name\":\"x\"}],\"current\":2,\"next_id\":3}\n"))
	f.Add([]byte("{\"version\":2}\n{\"drop\":[7]"))
	f.Fuzz(func(t *testing.T, log []byte) {
		h := &History{Pos: -1, nextID: 1}
		if err := h.decodeLog(log); err != nil {
			return
		}
		r := logRecord{Add: h.Entries, NextID: h.nextID}
		if e, ok := h.Current(); ok {
			r.Current = e.ID
		}
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		again := &History{Pos: -1, nextID: 1}
		if err := again.decodeLog(append([]byte("{\"version\":2}\n"), append(line, '\n')...)); err != nil {
			t.Fatalf("the log written whole does not read back: %v", err)
		}
		if diff := cmp.Diff(h.Entries, again.Entries, cmpopts.EquateEmpty()); diff != "" || h.Pos != again.Pos || h.nextID != again.nextID {
			t.Errorf("read back mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestHistoryAbandonedCannotSave: an entry recorded ahead and then abandoned (its change did
// not land) loses its new objects, and Save refuses to write it, so the log never names an
// object that is gone; the log on disk keeps the entries before.
func TestHistoryAbandonedCannotSave(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	h, _ := w.LoadHistory()
	record(t, h, map[string][]byte{"main": []byte("a")}, "{}")
	if _, err := h.Record(map[string][]byte{"main": []byte("b")}, []byte(`{"b":1}`)); err != nil {
		t.Fatal(err)
	}
	h.Abandon()
	checkObjects(t, dir, "a", "{}")
	err := h.Save()
	want := "history: this history's last entry was abandoned; load the history again"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("Save after Abandon mismatch (-want +got):\n%s", diff)
	}
	if h2, warn := w.LoadHistory(); warn != "" || len(h2.Entries) != 1 {
		t.Errorf("history on disk: %d entries, warning %q; want the one saved", len(h2.Entries), warn)
	}
}

// TestHistoryCollectFails: when an old entry's object cannot be removed (here a directory
// with a file in it stands in its place), the entry's other objects go all the same and Save
// still succeeds, since the log, and with it the new entry, is written; the next collection
// lists objects/ again to sweep what is left.
func TestHistoryCollectFails(t *testing.T) {
	w, dir := workspace(t, nil)
	w.historyCap = 1
	h, _ := w.LoadHistory()
	record(t, h, map[string][]byte{"main": []byte("a")}, "A")
	record(t, h, map[string][]byte{"main": []byte("b")}, "B") // drops a: the first, full sweep
	// b's object, which sorts before B's, cannot be removed.
	stuck := filepath.Join(dir, ".cadrun/history/objects", hashOf([]byte("b")))
	if err := os.Remove(stuck); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(stuck, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Record(map[string][]byte{"main": []byte("c")}, []byte("C")); err != nil {
		t.Fatal(err)
	}
	if err := h.Save(); err != nil { // drops b's entry, whose file object cannot be removed
		t.Fatalf("Save with an object that cannot be removed: %v", err)
	}
	h2, warn := w.LoadHistory()
	if cur, ok := h2.Current(); warn != "" || !ok || cur.Scene != hashOf([]byte("C")) {
		t.Errorf("history after save: current %+v, warning %q; want the entry of c", cur, warn)
	}
	w.histMu.Lock()
	swept := w.histSwept
	w.histMu.Unlock()
	if swept {
		t.Error("the next collection will not list objects/ again")
	}
	checkObjects(t, dir, "c", "C", "b") // B's object went all the same; b's place is the directory
}
