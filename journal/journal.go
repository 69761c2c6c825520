// Package journal is the design journal: observations about a design (decisions,
// discoveries, bug fixes, ...) saved with the reasons behind them and found again by full-text
// search. Entries live in an embedded SQLite database (.cadrun/journal.db in the workspace)
// with an FTS5 index, with a rollback journal, so that every acknowledged save is in the
// database file itself; several processes can save and search at once, each write waiting
// for the one before.
//
// Start with Open on the path the workspace gives (modules.Workspace.JournalPath); decode a
// save's parameters with ParseSave, then call Save; Search finds entries, Get fetches them by
// id. A Journal is safe for concurrent use by many goroutines and many processes.
package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"modernc.org/sqlite" // the "sqlite" database/sql driver, FTS5 included
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrBadInput is returned for parameters that break the rules of save or search; the message
// names the field.
var ErrBadInput = errors.New("bad input")

// ErrNewerDatabase is returned by Open for a database written by a newer cadrun (its schema
// version is past the migrations this one knows).
var ErrNewerDatabase = errors.New("the journal database is newer than this cadrun")

// BusyTimeout is how long a writer waits for another process's write to finish before it
// gives up with "database is locked".
const BusyTimeout = 10 * time.Second

// Journal is an open journal database.
type Journal struct {
	db   *sql.DB
	path string
	file os.FileInfo // the database file as opened, for Moved
}

// Open opens (creating it if needed) the journal database at path and brings its schema up
// to date. The caller checks that path is a regular file inside the workspace.
func Open(ctx context.Context, path string) (*Journal, error) {
	// _txlock=immediate: every transaction takes the write lock when it begins, so two
	// writers never both read and then deadlock upgrading; the busy timeout makes the second
	// one wait instead of failing.
	//
	// journal_mode=TRUNCATE (a rollback journal), not WAL: an acknowledged save must be in
	// journal.db itself. In WAL mode the entries lived in journal.db-wal until a checkpoint,
	// so moving journal.db aside (as docs/journal.md allows) left them behind, and SQLite
	// deleted that WAL when the path was opened again: every entry was lost. A rollback
	// journal holds data only during a write, and is truncated (not deleted, which costs a
	// sync of the folder) when the write ends. synchronous=FULL makes each save durable
	// before it is answered. A database an older cadrun left in WAL mode is switched back
	// once no other process has it open.
	dsn := "file:" + path + "?_txlock=immediate" +
		fmt.Sprintf("&_pragma=busy_timeout(%d)", BusyTimeout.Milliseconds()) +
		"&_pragma=journal_mode(TRUNCATE)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening the journal: %w", err)
	}
	j := &Journal{db: db, path: path}
	// The first connections to a new database race to set its journal mode (and to switch an
	// older WAL database back), and SQLite answers that race with "database is locked" at
	// once, without its busy handler: try again, for as long as the busy timeout would have
	// waited.
	deadline, pause := time.Now().Add(BusyTimeout), 5*time.Millisecond
	for {
		err := j.migrate(ctx)
		if err == nil {
			j.file, _ = os.Stat(path)
			return j, nil
		}
		switch {
		case !isBusy(err):
			db.Close()
			return nil, fmt.Errorf("opening the journal %s: %w", path, damaged(path, err))
		case time.Now().After(deadline):
			db.Close()
			return nil, fmt.Errorf("opening the journal %s: another program has held its write lock for over %v (BusyTimeout), so it could not be readied; "+
				"try again, or end the program that keeps it open in a write: %w", path, BusyTimeout, err)
		}
		select {
		case <-ctx.Done():
			db.Close()
			return nil, fmt.Errorf("opening the journal %s: %w", path, ctx.Err())
		case <-time.After(pause):
		}
		pause = min(2*pause, 200*time.Millisecond)
	}
}

// isBusy reports SQLite's "database is locked" (SQLITE_BUSY, with any extended code).
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// damaged adds to SQLite's "file is not a database" and "database disk image is malformed"
// what to do about them; other errors are returned as they are.
func damaged(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) || (se.Code()&0xff != sqlite3.SQLITE_CORRUPT && se.Code()&0xff != sqlite3.SQLITE_NOTADB) {
		return err
	}
	return fmt.Errorf("%w; the journal file is damaged: stop every cadrun serving this workspace, move %s aside (with its -wal file, if any), and the next save starts a new journal; "+
		"keep the old one: the sqlite3 program's .recover command reads back what is left of it", err, path)
}

// Moved reports whether the database file j opened is no longer at its path: deleted, moved
// aside or replaced. SQLite goes on using the file it has open, where no later Open finds it,
// so the caller closes j and opens the path again.
func (j *Journal) Moved() bool {
	if j.file == nil {
		return false
	}
	st, err := os.Stat(j.path)
	return err != nil || !os.SameFile(st, j.file)
}

// Close closes the database.
func (j *Journal) Close() error { return j.db.Close() }

// migrations are the schema's versions, in order: migrations[i] takes a database from
// version i to i+1 (PRAGMA user_version). Never edit one that has shipped; add the next.
var migrations = []string{
	`CREATE TABLE entries (
		id                INTEGER PRIMARY KEY AUTOINCREMENT,
		title             TEXT    NOT NULL,
		text              TEXT    NOT NULL,
		type              TEXT    NOT NULL,
		project           TEXT    NOT NULL,
		memory_session_id TEXT    NOT NULL,
		facts             TEXT    NOT NULL DEFAULT '[]',
		concepts          TEXT    NOT NULL DEFAULT '[]',
		files_read        TEXT    NOT NULL DEFAULT '[]',
		files_modified    TEXT    NOT NULL DEFAULT '[]',
		agent             TEXT    NOT NULL DEFAULT '',
		department        TEXT    NOT NULL DEFAULT '',
		visibility        TEXT    NOT NULL,
		extra             TEXT    NOT NULL DEFAULT '{}',
		history_entry     INTEGER NOT NULL DEFAULT 0,
		created_at_epoch  INTEGER NOT NULL
	);
	CREATE INDEX entries_created ON entries (created_at_epoch DESC, id DESC);
	CREATE INDEX entries_session ON entries (memory_session_id);
	CREATE INDEX entries_project ON entries (project, created_at_epoch DESC);
	CREATE VIRTUAL TABLE entries_fts USING fts5 (
		title, text, facts, concepts,
		content = 'entries', content_rowid = 'id', tokenize = 'porter unicode61'
	);
	CREATE TRIGGER entries_ai AFTER INSERT ON entries BEGIN
		INSERT INTO entries_fts (rowid, title, text, facts, concepts)
		VALUES (new.id, new.title, new.text, new.facts, new.concepts);
	END;
	CREATE TRIGGER entries_ad AFTER DELETE ON entries BEGIN
		INSERT INTO entries_fts (entries_fts, rowid, title, text, facts, concepts)
		VALUES ('delete', old.id, old.title, old.text, old.facts, old.concepts);
	END;
	CREATE TRIGGER entries_au AFTER UPDATE ON entries BEGIN
		INSERT INTO entries_fts (entries_fts, rowid, title, text, facts, concepts)
		VALUES ('delete', old.id, old.title, old.text, old.facts, old.concepts);
		INSERT INTO entries_fts (rowid, title, text, facts, concepts)
		VALUES (new.id, new.title, new.text, new.facts, new.concepts);
	END;`,
	// history_state tells the history entry an entry was saved with from another of the same
	// id in a history started again since (a log damaged or deleted); '' for older entries.
	`ALTER TABLE entries ADD COLUMN history_state TEXT NOT NULL DEFAULT '';`,
}

// SchemaVersion is the schema version this cadrun writes.
var SchemaVersion = len(migrations)

// migrate applies the migrations the database lacks, each in its own write transaction, so
// that processes opening the same new database at once apply each exactly once.
func (j *Journal) migrate(ctx context.Context) error {
	// A database already up to date is read without a transaction, which in WAL mode takes
	// no lock: opening to search does not wait for another process's write.
	var v int
	if err := j.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err == nil && v == len(migrations) {
		return nil
	}
	for {
		done, err := j.migrateOne(ctx)
		if err != nil || done {
			return err
		}
	}
}

func (j *Journal) migrateOne(ctx context.Context) (done bool, err error) {
	tx, err := j.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return false, err
	}
	switch {
	case v > len(migrations):
		return false, fmt.Errorf("%w: schema version %d, this cadrun knows up to %d; upgrade cadrun", ErrNewerDatabase, v, len(migrations))
	case v == len(migrations):
		return true, nil
	}
	if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
		return false, fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// Saved is the answer to a save.
type Saved struct {
	ID              int64  `json:"id"`
	MemorySessionID string `json:"memory_session_id"`
	CreatedAtEpoch  int64  `json:"created_at_epoch"` // milliseconds since 1970-01-01 UTC
}

// Link is the history entry the workspace was in when an entry was saved.
type Link struct {
	Entry int // the history entry's id; 0 when the workspace had no history
	// State tells that history entry from another of the same id, in a history started
	// again since (its log damaged or deleted): the caller's fingerprint of the entry's
	// files. It is "" for entries saved before schema version 2.
	State string
}

// Save stores one entry, all of it or nothing, linked to the history entry link names. now
// stamps it, or 1 ms after the newest entry when that is later.
func (j *Journal) Save(ctx context.Context, in *SaveInput, link Link, now time.Time) (Saved, error) {
	extra, err := json.Marshal(in.Extra)
	if err != nil {
		return Saved{}, err
	}
	if in.Extra == nil {
		extra = []byte("{}")
	}
	// The stamp is at least 1 ms after the newest entry's, so that stamps are unique and in
	// the order of the saves: a listing paged with until (before the last stamp seen) then
	// misses none of a burst saved in one millisecond, or saved after the clock was set back.
	var id, at int64
	err = j.db.QueryRowContext(ctx, `INSERT INTO entries (title, text, type, project, memory_session_id,
		facts, concepts, files_read, files_modified, agent, department, visibility, extra, history_entry, history_state, created_at_epoch)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
			max(?, coalesce((SELECT max(created_at_epoch) FROM entries) + 1, 0)))
		RETURNING id, created_at_epoch`,
		in.Title, in.Text, in.Type, in.Project, in.MemorySessionID,
		list(in.Facts), list(in.Concepts), list(in.FilesRead), list(in.FilesModified),
		in.Agent, in.Department, in.Visibility, string(extra), link.Entry, link.State, now.UnixMilli()).Scan(&id, &at)
	if isBusy(err) {
		return Saved{}, fmt.Errorf("saving to the journal: another program has held its write lock for over %v (BusyTimeout), "+
			"so the entry was not saved; try again, or end the program that keeps %s open in a write: %w", BusyTimeout, j.path, err)
	}
	if err != nil {
		return Saved{}, fmt.Errorf("saving to the journal: %w", damaged(j.path, err))
	}
	return Saved{ID: id, MemorySessionID: in.MemorySessionID, CreatedAtEpoch: at}, nil
}

func list(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l)
	return string(b)
}

// Entry is one saved observation as search answers it.
type Entry struct {
	ID              int64                      `json:"id"`
	Title           string                     `json:"title"`
	Text            string                     `json:"text,omitempty"`
	Snippet         string                     `json:"snippet,omitempty"`
	Type            string                     `json:"type"`
	Project         string                     `json:"project"`
	MemorySessionID string                     `json:"memory_session_id"`
	Facts           []string                   `json:"facts,omitempty"`
	Concepts        []string                   `json:"concepts,omitempty"`
	FilesRead       []string                   `json:"files_read,omitempty"`
	FilesModified   []string                   `json:"files_modified,omitempty"`
	Agent           string                     `json:"agent,omitempty"`
	Department      string                     `json:"department,omitempty"`
	Visibility      string                     `json:"visibility"`
	Extra           map[string]json.RawMessage `json:"extra,omitempty"`
	HistoryEntry    int                        `json:"history_entry,omitempty"`
	CreatedAtEpoch  int64                      `json:"created_at_epoch"`
}

const entryColumns = `e.id, e.title, e.text, e.type, e.project, e.memory_session_id, e.facts, e.concepts,
	e.files_read, e.files_modified, e.agent, e.department, e.visibility, e.extra, e.history_entry, e.created_at_epoch`

func scanEntry(sc interface{ Scan(...any) error }, more ...any) (Entry, error) {
	var e Entry
	var facts, concepts, read, modified, extra string
	dst := append([]any{&e.ID, &e.Title, &e.Text, &e.Type, &e.Project, &e.MemorySessionID, &facts, &concepts,
		&read, &modified, &e.Agent, &e.Department, &e.Visibility, &extra, &e.HistoryEntry, &e.CreatedAtEpoch}, more...)
	if err := sc.Scan(dst...); err != nil {
		return e, err
	}
	for _, f := range []struct {
		s   string
		dst any
	}{{facts, &e.Facts}, {concepts, &e.Concepts}, {read, &e.FilesRead}, {modified, &e.FilesModified}, {extra, &e.Extra}} {
		if err := json.Unmarshal([]byte(f.s), f.dst); err != nil {
			return e, fmt.Errorf("entry %d is damaged: %w", e.ID, err)
		}
	}
	if len(e.Extra) == 0 {
		e.Extra = nil
	}
	return e, nil
}

// Get fetches entries by id, in the order asked, whole; ids that do not exist are listed in
// missing.
func (j *Journal) Get(ctx context.Context, ids []int64) (entries []Entry, missing []int64, err error) {
	for _, id := range ids {
		row := j.db.QueryRowContext(ctx, "SELECT "+entryColumns+" FROM entries e WHERE e.id = ?", id)
		e, err := scanEntry(row)
		if errors.Is(err, sql.ErrNoRows) {
			missing = append(missing, id)
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading the journal: %w", damaged(j.path, err))
		}
		entries = append(entries, e)
	}
	return entries, missing, nil
}

// LinkOf is the history entry entry id was saved with; found is false when there is no such
// entry.
func (j *Journal) LinkOf(ctx context.Context, id int64) (link Link, found bool, err error) {
	err = j.db.QueryRowContext(ctx, "SELECT history_entry, history_state FROM entries WHERE id = ?", id).Scan(&link.Entry, &link.State)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Link{}, false, nil
	case err != nil:
		return Link{}, false, fmt.Errorf("reading the journal: %w", damaged(j.path, err))
	}
	return link, true, nil
}

// MaxRanked is how many of the newest matches of a query are ranked by relevance.
const MaxRanked = 500

// snippetRunes is how much of an entry's text a listing without a query shows.
const snippetRunes = 160

// Search finds entries: ranked by full-text relevance (bm25) among the MaxRanked newest
// matches when q.Query is set (with a snippet around the match), else the most recent first (with the start of the text). The text
// itself is left out; Get returns it.
func (j *Journal) Search(ctx context.Context, q *Query) ([]Entry, error) {
	ctx, cancel := context.WithTimeout(ctx, MaxSearchTime)
	defer cancel()
	out, err := j.search(ctx, q)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("%w: searching the journal took longer than %v (MaxSearchTime) and was stopped; narrow the search: more words, a type, concept or since", ErrSearchTime, MaxSearchTime)
	}
	return out, err
}

// MaxSearchTime bounds one search, whatever the entries. A search takes milliseconds (the
// snippets are linear in the text); the bound is for what nothing else foresaw, with room for
// a slow machine under the race detector, where listing 30 entries of MaxEntryBytes takes
// seconds.
const MaxSearchTime = 30 * time.Second

// ErrSearchTime is returned when a search is stopped at MaxSearchTime.
var ErrSearchTime = errors.New("search limit exceeded")

func (j *Journal) search(ctx context.Context, q *Query) ([]Entry, error) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if q.Type != "" {
		add("e.type = ?", q.Type)
	}
	if q.Project != "" {
		add("e.project = ?", q.Project)
	}
	if q.Concept != "" {
		add("EXISTS (SELECT 1 FROM json_each(e.concepts) WHERE json_each.value = ?)", q.Concept)
	}
	if q.MemorySessionID != "" {
		add("e.memory_session_id = ?", q.MemorySessionID)
	}
	if q.Since != 0 {
		add("e.created_at_epoch >= ?", q.Since)
	}
	if q.Until != 0 {
		add("e.created_at_epoch < ?", q.Until)
	}
	var stmt string
	// A query of stars alone ("*") has no word to match: it lists, as no query does, rather
	// than answer that nothing matches.
	match := ftsQuery(q.Query)
	if match == "" {
		stmt = "SELECT " + entryColumns + ", '' FROM entries e" + whereClause(where) +
			" ORDER BY e.created_at_epoch DESC, e.id DESC LIMIT ?"
		args = append(args, q.Limit)
	} else {
		// Ranking costs a lookup per match, so only the MaxRanked newest matches (the
		// filters applied) are ranked: the oldest of them is found in id order, which the
		// index gives at little cost, and the ranking runs from there on.
		conds := append([]string{"entries_fts MATCH ?"}, where...)
		condArgs := append([]any{match}, args...)
		var oldest int64
		err := j.db.QueryRowContext(ctx, "SELECT entries_fts.rowid FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid"+
			whereClause(conds)+" ORDER BY entries_fts.rowid DESC LIMIT 1 OFFSET ?", append(condArgs, MaxRanked-1)...).Scan(&oldest)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("searching the journal: %w", damaged(j.path, err))
		}
		// No snippet() here: FTS5 builds it by trying every window around every match, so an
		// entry that repeats the word took time quadratic in its matches, for every match
		// ranked. The snippet is made in Go for the entries answered, in one pass over the
		// text (snippetOf).
		stmt = "SELECT " + entryColumns + ", ''" +
			" FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid" +
			whereClause(append(conds, "entries_fts.rowid >= ?")) +
			" ORDER BY entries_fts.rank, e.id DESC LIMIT ?"
		args = append(condArgs, oldest, q.Limit)
	}
	rows, err := j.db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, fmt.Errorf("searching the journal: %w", damaged(j.path, err))
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var snip string
		e, err := scanEntry(rows, &snip)
		if err != nil {
			return nil, err
		}
		if match == "" {
			snip = cut(e.Text, snippetRunes)
		} else {
			snip = snippetOf(e.Title, e.Text, q.Query)
		}
		e.Snippet, e.Text = snip, ""
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("searching the journal: %w", damaged(j.path, err))
	}
	return out, nil
}

func whereClause(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// ftsQuery turns what a person types into an FTS5 query that cannot be a syntax error: every
// word is a quoted phrase (so AND, NEAR, quotes and brackets mean nothing), all must match,
// and a word ending in * matches as a prefix. It is "" when no word is left.
func ftsQuery(s string) string {
	var parts []string
	for _, w := range strings.Fields(s) {
		prefix := strings.HasSuffix(w, "*")
		w = strings.TrimRight(w, "*")
		if w == "" {
			continue
		}
		p := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if prefix {
			p += "*"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " ")
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// snippetTokens is how many words a snippet shows around the first match.
const snippetTokens = 16

// snippetOf is the part of an entry around the first word that matches the query, matches in
// [brackets], "…" where the text goes on: a window of snippetTokens words starting a few
// before the first match, in the text, else the title. One pass over the text, which stops
// at the window's end. A word matches a query word that is the same (ignoring case), that it
// starts with when the query word ends in *, or that it extends by at most three letters (an
// approximation of the index's Porter stemming: door, doors, doorway is not). With no match
// found it is the start of the text.
func snippetOf(title, text, query string) string {
	var terms []snippetTerm
	for _, w := range strings.Fields(query) {
		prefix := strings.HasSuffix(w, "*")
		if w = strings.ToLower(strings.TrimRight(w, "*")); w != "" {
			terms = append(terms, snippetTerm{w, prefix})
		}
	}
	for _, field := range []string{text, title} {
		if s, ok := window(field, terms); ok {
			return s
		}
	}
	return cut(text, snippetRunes)
}

type snippetTerm struct {
	word   string
	prefix bool
}

func (t snippetTerm) matches(w string) bool {
	switch {
	case len(w) < len(t.word) || !strings.EqualFold(w[:len(t.word)], t.word):
		return false
	case t.prefix || len(w) == len(t.word):
		return true
	}
	return len(w)-len(t.word) <= 3
}

// window finds the first matching word of s and returns the snippet around it.
func window(s string, terms []snippetTerm) (string, bool) {
	type word struct {
		start, end int
		hit        bool
	}
	var words []word // the last few before the first match, then the window
	first := -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += n
			continue
		}
		start := i
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			i += n
		}
		w := word{start: start, end: i}
		for _, t := range terms {
			if t.matches(s[start:i]) {
				w.hit = true
				break
			}
		}
		words = append(words, w)
		if first < 0 {
			if w.hit {
				first = len(words) - 1
			} else if len(words) > 4 {
				words = words[1:] // keep the four words before a match
			}
			continue
		}
		if len(words) == snippetTokens {
			break
		}
	}
	if first < 0 {
		return "", false
	}
	var b strings.Builder
	if words[0].start > 0 {
		b.WriteString("…")
	}
	pos := words[0].start
	for _, w := range words {
		b.WriteString(s[pos:w.start])
		if w.hit {
			b.WriteString("[" + s[w.start:w.end] + "]")
		} else {
			b.WriteString(s[w.start:w.end])
		}
		pos = w.end
	}
	if pos < len(s) {
		b.WriteString("…")
	}
	return b.String(), true
}
