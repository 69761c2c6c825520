package journal

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMain doubles as the saver process of TestSeveralProcesses: with CADRUN_JOURNAL_SAVER set
// it saves that many entries to CADRUN_JOURNAL_DB and exits.
func TestMain(m *testing.M) {
	if n := os.Getenv("CADRUN_JOURNAL_SAVER"); n != "" {
		if err := saveMany(os.Getenv("CADRUN_JOURNAL_DB"), os.Getenv("CADRUN_JOURNAL_TAG"), n); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func saveMany(path, tag, count string) error {
	n, err := strconv.Atoi(count)
	if err != nil {
		return err
	}
	ctx := context.Background()
	j, err := Open(ctx, path)
	if err != nil {
		return err
	}
	defer j.Close()
	for i := range n {
		in, err := ParseSave(fmt.Appendf(nil, `{"title":"%s %d","text":"saved by %s","memory_session_id":"%s"}`, tag, i, tag, tag), "p")
		if err != nil {
			return err
		}
		if _, err := j.Save(ctx, in, Link{}, time.Now()); err != nil {
			return err
		}
	}
	return nil
}

func openTemp(t testing.TB) *Journal {
	t.Helper()
	j, err := Open(context.Background(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func save(t testing.TB, j *Journal, params string, at time.Time) Saved {
	t.Helper()
	in, err := ParseSave([]byte(params), "house")
	if err != nil {
		t.Fatal(err)
	}
	s, err := j.Save(context.Background(), in, Link{Entry: 7}, at)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSaveAndGet(t *testing.T) {
	j := openTemp(t)
	at := time.UnixMilli(1_700_000_000_123)
	s := save(t, j, `{"title":"Door width","text":"Doors are 900 mm for wheelchairs","type":"decision","memory_session_id":"s1",
		"facts":["900 mm"],"concepts":["door","access"],"files_read":["main"],"files_modified":["door_lib"],
		"agent":"claude","department":"arch","visibility":"public","mood":{"ok":true}}`, at)
	if diff := cmp.Diff(Saved{ID: 1, MemorySessionID: "s1", CreatedAtEpoch: 1_700_000_000_123}, s); diff != "" {
		t.Fatalf("mismatch (-want +got):\n%s", diff)
	}
	got, missing, err := j.Get(context.Background(), []int64{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{ID: 1, Title: "Door width", Text: "Doors are 900 mm for wheelchairs", Type: "decision", Project: "house",
		MemorySessionID: "s1", Facts: []string{"900 mm"}, Concepts: []string{"door", "access"}, FilesRead: []string{"main"},
		FilesModified: []string{"door_lib"}, Agent: "claude", Department: "arch", Visibility: "public",
		Extra: map[string]json.RawMessage{"mood": json.RawMessage(`{"ok":true}`)}, HistoryEntry: 7, CreatedAtEpoch: 1_700_000_000_123}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{2}, missing); diff != "" {
		t.Errorf("missing: mismatch (-want +got):\n%s", diff)
	}
}

func TestParseSaveDefaults(t *testing.T) {
	in, err := ParseSave([]byte(`{"title":"t","text":"x"}`), "house")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.MemorySessionID) != 36 {
		t.Errorf("memory_session_id %q is not a generated UUID", in.MemorySessionID)
	}
	in.MemorySessionID = ""
	want := &SaveInput{Title: "t", Text: "x", Type: "discovery", Project: "house", Visibility: "project"}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestParseSaveBadInput(t *testing.T) {
	long := make([]byte, MaxEntryBytes+1)
	for i := range long {
		long[i] = ' '
	}
	for _, tc := range []struct{ params, want string }{
		{`{"text":"x"}`, "bad input: title is required: give the observation a short title"},
		{`{"title":"  ","text":"x"}`, "bad input: title is required: give the observation a short title"},
		{`{"title":"t"}`, "bad input: text is required: say what was observed and why it matters"},
		{`{"title":"t","text":"x","type":"idea"}`, `bad input: type "idea" is not one of decision, bugfix, feature, refactor, discovery, change`},
		{`{"title":"t","text":"x","visibility":"world"}`, `bad input: visibility "world" is not one of private, department, project, public`},
		{`{"title":"t","text":"x","facts":"one"}`, "bad input: facts must be an array of strings, got a string"},
		{`{"title":"t","text":"x","concepts":[1]}`, "bad input: concepts must be an array of strings, got an array"},
		{`{"title":5,"text":"x"}`, "bad input: title must be a string, got a number"},
		{`[1]`, "bad input: the parameters must be a JSON object with title and text"},
		{`null`, "bad input: the parameters must be a JSON object with title and text"},
		{string(long), fmt.Sprintf("bad input: the entry is %d bytes, over %d (MaxEntryBytes); shorten text or split it into several entries", len(long), MaxEntryBytes)},
	} {
		_, err := ParseSave([]byte(tc.params), "p")
		if err == nil {
			t.Errorf("%.40s: no error", tc.params)
			continue
		}
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%.40s: %v is not ErrBadInput", tc.params, err)
		}
		if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
			t.Errorf("%.40s: mismatch (-want +got):\n%s", tc.params, diff)
		}
	}
}

// TestParseSaveOneInputRule: save's parameters follow the rule every tool's do
// (docs/decisions.md, "One input check"): a key given twice, at the top or inside a property
// save does not know, invalid UTF-8, half a surrogate pair and text after the object are
// refused, naming the key or the offset, instead of saving the last value or U+FFFD.
func TestParseSaveOneInputRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ params, want string }{
		{`{"title":"first","title":"second","text":"x"}`, `bad input: the key "title" appears twice in one object; send it once`},
		{`{"title":"t","text":"x","extra":{"a":[{"k":1,"k":2}]}}`, `bad input: the key "k" appears twice in the object at extra.a[0]; send it once`},
		{"{\"title\":\"t\",\"text\":\"\xff\"}", `bad input: not valid UTF-8 (offset 21: byte 0xff); send UTF-8 text`},
		{`{"title":"t","text":"\udc00"}`, `bad input: not valid UTF-8 (offset 21: \udc00 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`},
		{`{"title":"t","text":"x"} {"title":"u"}`, `bad input: there is more after the JSON value (at offset 24: "{\"title\":\"u\"}"); send exactly one value`},
	} {
		_, err := ParseSave([]byte(tc.params), "p")
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: %v is not ErrBadInput", tc.params, err)
		}
		got := ""
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tc.params, diff)
		}
	}
}

func titles(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Title)
	}
	return out
}

func TestSearch(t *testing.T) {
	j := openTemp(t)
	base := time.UnixMilli(1_000_000)
	save(t, j, `{"title":"Wall thickness","text":"Outer walls are 300 mm thick","type":"decision","concepts":["wall"]}`, base)
	save(t, j, `{"title":"Door swing","text":"The door swings into the room; walls leave 100 mm","type":"bugfix","concepts":["door"],"memory_session_id":"s2"}`, base.Add(time.Second))
	save(t, j, `{"title":"Roof","text":"Pitched roof, 30 degrees","project":"shed"}`, base.Add(2*time.Second))
	for _, tc := range []struct {
		name string
		q    Query
		want []string
	}{
		{"recent first", Query{}, []string{"Roof", "Door swing", "Wall thickness"}},
		{"ranked", Query{Query: "walls"}, []string{"Wall thickness", "Door swing"}},
		{"all words", Query{Query: "door walls"}, []string{"Door swing"}},
		{"prefix", Query{Query: "thick*"}, []string{"Wall thickness"}},
		{"syntax is literal", Query{Query: `(roof" NEAR`}, []string{}},
		{"quotes are literal", Query{Query: `(roof"`}, []string{"Roof"}},
		{"type", Query{Type: "bugfix"}, []string{"Door swing"}},
		{"project", Query{Project: "shed"}, []string{"Roof"}},
		{"concept", Query{Concept: "wall"}, []string{"Wall thickness"}},
		{"session", Query{MemorySessionID: "s2"}, []string{"Door swing"}},
		{"since", Query{Since: 1_001_000}, []string{"Roof", "Door swing"}},
		{"until", Query{Until: 1_001_000}, []string{"Wall thickness"}},
		{"limit", Query{Limit: 1}, []string{"Roof"}},
		{"none", Query{Query: "basement"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			if err := q.Check(); err != nil {
				t.Fatal(err)
			}
			got, err := j.Search(context.Background(), &q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, titles(got)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	q := Query{Query: "swings"}
	q.Check()
	got, _ := j.Search(context.Background(), &q)
	if diff := cmp.Diff("The door [swings] into the room; walls leave 100 mm", got[0].Snippet); diff != "" {
		t.Errorf("snippet: mismatch (-want +got):\n%s", diff)
	}
	if got[0].Text != "" {
		t.Errorf("search answered the text %q; only a fetch by id does", got[0].Text)
	}
}

func TestQueryCheck(t *testing.T) {
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{Type: "idea"}, `bad input: type "idea" is not one of decision, bugfix, feature, refactor, discovery, change`},
		{Query{Limit: -1}, "bad input: limit -1 must be 1 to 100 (MaxSearchLimit)"},
		{Query{Limit: 101}, "bad input: limit 101 is over 100 (MaxSearchLimit); page with until"},
		{Query{Since: -5}, "bad input: since and until are milliseconds since 1970 and must be >= 0"},
		{Query{Since: 5, Until: 5}, "bad input: since 5 must be before until 5"},
		{Query{IDs: make([]int64, 101)}, "bad input: ids has 101 items, over 100 (MaxFetchIDs)"},
	} {
		err := tc.q.Check()
		if err == nil {
			t.Errorf("%+v: no error", tc.q)
			continue
		}
		if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	}
	q := Query{}
	if err := q.Check(); err != nil || q.Limit != DefaultLimit {
		t.Errorf("Check() = %v, limit %d; want nil, %d", err, q.Limit, DefaultLimit)
	}
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.db")
	ctx := context.Background()
	// Opening at once from several goroutines applies each migration once.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			j, err := Open(ctx, path)
			if err == nil {
				j.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	db.QueryRow("PRAGMA user_version").Scan(&v)
	if v != SchemaVersion {
		t.Errorf("user_version %d, want %d", v, SchemaVersion)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path)
	want := fmt.Sprintf("opening the journal %s: the journal database is newer than this cadrun: schema version %d, this cadrun knows up to %d; upgrade cadrun", path, SchemaVersion+1, SchemaVersion)
	if err == nil || err.Error() != want || !errors.Is(err, ErrNewerDatabase) {
		t.Errorf("Open of a newer database = %v, want %s", err, want)
	}
}

// TestSeveralProcesses has three processes save 1,000 entries each into one database at
// once: every entry lands, with its own id.
func TestSeveralProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	path := filepath.Join(t.TempDir(), "journal.db")
	const per = 1000
	var cmds []*exec.Cmd
	for i := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CADRUN_JOURNAL_SAVER="+strconv.Itoa(per), "CADRUN_JOURNAL_DB="+path, fmt.Sprintf("CADRUN_JOURNAL_TAG=p%d", i))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("saver: %v", err)
		}
	}
	j, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	got := map[string]int{}
	rows, err := j.db.Query("SELECT memory_session_id, count(DISTINCT title), count(DISTINCT id) FROM entries GROUP BY memory_session_id ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		var titles, ids int
		rows.Scan(&s, &titles, &ids)
		got[s+" titles"], got[s+" ids"] = titles, ids
	}
	want := map[string]int{"p0 titles": per, "p0 ids": per, "p1 titles": per, "p1 ids": per, "p2 titles": per, "p2 ids": per}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	q := Query{Query: "p1"}
	q.Check()
	found, err := j.Search(context.Background(), &q)
	if err != nil || len(found) != DefaultLimit {
		t.Errorf("search after the saves: %d entries, %v; want %d", len(found), err, DefaultLimit)
	}
}

// TestLinkFromVersion1: a database of schema version 1 is brought to the current version with
// its entries, whose link has no state (restore then checks only the id, as before); an entry
// saved now keeps the state it is given.
func TestLinkFromVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{migrations[0], "PRAGMA user_version = 1",
		`INSERT INTO entries (title, text, type, project, memory_session_id, visibility, history_entry, created_at_epoch)
		 VALUES ('old', 'saved by version 1', 'decision', 'p', 's', 'project', 4, 1)`} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	in, err := ParseSave([]byte(`{"title":"new","text":"saved now"}`), "p")
	if err != nil {
		t.Fatal(err)
	}
	saved, err := j.Save(ctx, in, Link{Entry: 5, State: "abc"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id    int64
		want  Link
		found bool
	}{{1, Link{Entry: 4}, true}, {saved.ID, Link{Entry: 5, State: "abc"}, true}, {99, Link{}, false}} {
		link, found, err := j.LinkOf(ctx, tc.id)
		if err != nil || found != tc.found || link != tc.want {
			t.Errorf("LinkOf(%d) = %+v, %v, %v; want %+v, %v", tc.id, link, found, err, tc.want, tc.found)
		}
	}
}

// TestOpenWhileAnotherWrites: opening a journal that is up to date, and searching it, do not
// wait for another connection's write transaction (WAL: readers never wait for a writer).
func TestOpenWhileAnotherWrites(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	w, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	save(t, w, `{"title":"before","text":"saved before the write began"}`, time.Now())
	tx, err := w.db.BeginTx(ctx, nil) // _txlock=immediate: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	start := time.Now()
	tctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	r, err := Open(tctx, path)
	if err != nil {
		t.Fatalf("Open while another connection writes: %v (after %v)", err, time.Since(start))
	}
	defer r.Close()
	found, err := r.Search(tctx, &Query{Query: "before", Limit: 1})
	if err != nil || len(found) != 1 {
		t.Fatalf("Search while another connection writes: %v, %v (after %v)", found, err, time.Since(start))
	}
}

// TestSaveWhileLockedTooLong: a save that waits BusyTimeout for another writer fails naming
// the limit and what to do.
func TestSaveWhileLockedTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("waits BusyTimeout")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	w, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tx, err := w.db.BeginTx(ctx, nil) // _txlock=immediate: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	in, err := ParseSave([]byte(`{"title":"t","text":"x"}`), "p")
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Save(ctx, in, Link{}, time.Now())
	want := fmt.Sprintf("saving to the journal: another program has held its write lock for over 10s (BusyTimeout), so the entry was not saved; try again, or end the program that keeps %s open in a write: database is locked (5) (SQLITE_BUSY)", path)
	if err == nil || err.Error() != want {
		t.Errorf("Save while another writes: %v\nwant %s", err, want)
	}
}

// TestDamagedFile: a journal file that is not a database, or whose pages are damaged, fails
// with SQLite's error and what to do about it.
func TestDamagedFile(t *testing.T) {
	ctx := context.Background()
	hint := "; the journal file is damaged: stop every cadrun serving this workspace, move %s aside (with its -wal file, if any), and the next save starts a new journal; keep the old one: the sqlite3 program's .recover command reads back what is left of it"

	notDB := filepath.Join(t.TempDir(), "journal.db")
	if err := os.WriteFile(notDB, bytes.Repeat([]byte("not a database "), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, notDB)
	if want := fmt.Sprintf("opening the journal %s: file is not a database (26)"+hint, notDB, notDB); err == nil || err.Error() != want {
		t.Errorf("Open of a file that is not a database: %v\nwant %s", err, want)
	}

	// Damaged pages: all but the first (the schema) are overwritten.
	path := filepath.Join(t.TempDir(), "journal.db")
	j, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		save(t, j, fmt.Sprintf(`{"title":"entry %d","text":"%s"}`, i, strings.Repeat("word ", 100)), time.Now())
	}
	if _, err := j.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	j.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, int(st.Size())-4096), 4096); err != nil {
		t.Fatal(err)
	}
	f.Close()
	j, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	_, err = j.Search(ctx, &Query{Query: "word", Limit: 5})
	if want := fmt.Sprintf("searching the journal: database disk image is malformed: vtable constructor failed: entries_fts (11)"+hint, path); err == nil || err.Error() != want {
		t.Errorf("Search of a damaged journal: %v\nwant %s", err, want)
	}
}

// TestPageWithUntil: paging a listing with until set to the last entry's created_at_epoch
// misses none, even of entries saved in the same millisecond or with the clock set back.
func TestPageWithUntil(t *testing.T) {
	j := openTemp(t)
	at := time.UnixMilli(1_700_000_000_000)
	const n = 45
	for i := range n {
		when := at
		if i == 30 {
			when = at.Add(-time.Hour) // the clock was set back
		}
		save(t, j, fmt.Sprintf(`{"title":"entry %d","text":"saved in a burst"}`, i), when)
	}
	var ids []int64
	q := Query{Limit: 20}
	for range n {
		page, err := j.Search(context.Background(), &q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, e := range page {
			ids = append(ids, e.ID)
		}
		q.Until = page[len(page)-1].CreatedAtEpoch
	}
	var want []int64
	for id := int64(n); id > 0; id-- {
		want = append(want, id)
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids paged with until mismatch (-want +got):\n%s", diff)
	}
}

// TestFieldLimitsNamed: a title or a short field over its length is refused naming the field,
// the limit and what to do.
func TestFieldLimitsNamed(t *testing.T) {
	for _, tc := range []struct{ params, want string }{
		{fmt.Sprintf(`{"title":"%s","text":"x"}`, strings.Repeat("é", MaxTitleRunes+1)), "bad input: title is 501 characters, over 500 (MaxTitleRunes); shorten it"},
		{fmt.Sprintf(`{"title":"t","text":"x","agent":"%s"}`, strings.Repeat("a", MaxFieldRunes+1)), "bad input: agent is 201 characters, over 200 (MaxFieldRunes); shorten it"},
	} {
		_, err := ParseSave([]byte(tc.params), "p")
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseSave: %v\nwant %s", err, tc.want)
		}
	}
}

// TestQueryOfStarsLists: a query of stars alone ("*", "**") has no word to match and lists the
// newest entries, as no query does, instead of answering that nothing matches.
func TestQueryOfStarsLists(t *testing.T) {
	j := openTemp(t)
	save(t, j, `{"title":"Roof","text":"Pitched roof, 30 degrees"}`, time.UnixMilli(1_000))
	save(t, j, `{"title":"Door","text":"Doors are 900 mm"}`, time.UnixMilli(2_000))
	for _, query := range []string{"*", " ** * "} {
		got, err := j.Search(context.Background(), &Query{Query: query, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, e := range got {
			titles = append(titles, e.Title+": "+e.Snippet)
		}
		if diff := cmp.Diff([]string{"Door: Doors are 900 mm", "Roof: Pitched roof, 30 degrees"}, titles); diff != "" {
			t.Errorf("query %q mismatch (-want +got):\n%s", query, diff)
		}
	}
}

// TestDepth: brackets inside strings, escaped quotes included, do not count.
func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want int
	}{{`1`, 0}, {`"[[["`, 0}, {`[]`, 1}, {`{"a":[{"b":"]]\"[["}]}`, 3}, {`["\\",[["x"]]]`, 3}} {
		if got := depth(json.RawMessage(tc.v)); got != tc.want {
			t.Errorf("depth(%s) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestOpenWhileLockedTooLong: a journal that must be readied (here migrated from version 1)
// while another program holds its write lock past BusyTimeout fails naming the limit and
// what to do, not only "database is locked".
func TestOpenWhileLockedTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("waits BusyTimeout")
	}
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{migrations[0], "PRAGMA user_version = 1"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil { // holds the write lock
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")
	start := time.Now()
	j, err := Open(ctx, path)
	if err == nil {
		j.Close()
		t.Fatal("Open readied the journal while another program held its write lock")
	}
	want := fmt.Sprintf("opening the journal %s: another program has held its write lock for over 10s (BusyTimeout), so it could not be readied; try again, or end the program that keeps it open in a write: ", path)
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Open = %v\nwant it to start %q", err, want)
	}
	t.Logf("gave up after %v", time.Since(start).Round(time.Second))
}

// TestMovedAsideKeepsEverySave: every save answered is in journal.db itself, so a journal
// moved aside while it is open (as docs/journal.md allows) holds all of them, and the path
// opened again starts empty. In WAL mode the saves lived in journal.db-wal, which the next open
// of the path deleted: the moved file had none.
func TestMovedAsideKeepsEverySave(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "journal.db")
	j, err := Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		save(t, j, fmt.Sprintf(`{"title":"entry %d","text":"t"}`, i), time.UnixMilli(int64(1_700_000_000_000+i)))
	}
	aside := filepath.Join(t.TempDir(), "old.db")
	if err := os.Rename(p, aside); err != nil {
		t.Fatal(err)
	}
	if !j.Moved() {
		t.Fatal("Moved: false after the rename")
	}
	j.Close()
	again, err := Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	save(t, again, `{"title":"after the move","text":"t"}`, time.UnixMilli(1_800_000_000_000))
	again.Close()
	old, err := Open(context.Background(), aside)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	list, err := old.Search(context.Background(), &Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 20 {
		t.Errorf("the journal moved aside holds %d entries; want the 20 saved in it", len(list))
	}
}

// TestSnippetOf: the snippet is the window around the first match, made in one pass; an entry
// that repeats the searched word 87,000 times (FTS5's snippet() took 55 s over it) gives a
// window of snippetTokens words.
func TestSnippetOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ title, text, query, want string }{
		{"Door", "The door swings into the room", "swing", "The door [swings] into the room"},
		{"Door", "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty", "seven",
			"…three four five six [seven] eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen…"},
		{"Thick walls", "Nothing here", "wall", "Thick [walls]"},
		{"Roof", "Pitched roof", "pitch*", "[Pitched] roof"},
		{"Roof", "Pitched roof", "basement", "Pitched roof"},
		{"", strings.Repeat("zq ", 87000), "zq", strings.TrimSpace(strings.Repeat("[zq] ", 16)) + "…"},
	} {
		if got := snippetOf(tc.title, tc.text, tc.query); got != tc.want {
			t.Errorf("snippetOf(%.20q, %q):\n got %q\nwant %q", tc.text, tc.query, got, tc.want)
		}
	}
}
