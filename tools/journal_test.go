package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/journal"
	"github.com/cadrun/cadrun/modules"
)

func journalSession(t *testing.T, files map[string]string) (*Session, string) {
	t.Helper()
	s, dir := newSession(t, files)
	t.Cleanup(s.srv.CloseJournal)
	return s, dir
}

// TestSaveThenSearchOverMCP saves over MCP, with a property save does not know, and finds the
// entry again over MCP, linked to the history entry of the workspace as it was.
func TestSaveThenSearchOverMCP(t *testing.T) {
	s, dir := journalSession(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n"})
	cs := connectMCP(t, s.srv)
	res := callMCP(t, cs, "save", map[string]any{"title": "Wheel size", "text": "The wheel radius is 1 so that it fits the frame",
		"type": "decision", "concepts": []string{"wheel"}, "memory_session_id": "s1", "reviewed_by": "ana"})
	if res.IsError {
		t.Fatalf("save: %s", text(t, res))
	}
	saved := structured[journal.Saved](t, res)
	if saved.ID != 1 || saved.MemorySessionID != "s1" || saved.CreatedAtEpoch == 0 {
		t.Errorf("save answered %+v", saved)
	}
	res = callMCP(t, cs, "search", map[string]any{"query": "radius frame"})
	if res.IsError {
		t.Fatalf("search: %s", text(t, res))
	}
	got := structured[SearchOut](t, res)
	want := SearchOut{Entries: []journal.Entry{{ID: 1, Title: "Wheel size", Snippet: "The wheel [radius] is 1 so that it fits the [frame]",
		Type: "decision", Project: filepath.Base(dir), MemorySessionID: "s1", Concepts: []string{"wheel"}, Visibility: "project",
		Extra: map[string]json.RawMessage{"reviewed_by": json.RawMessage(`"ana"`)}, HistoryEntry: 1, CreatedAtEpoch: saved.CreatedAtEpoch}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// The entry it links to holds the files as they were.
	h, _ := s.srv.ws.LoadHistory()
	cur, _ := h.Current()
	files, err := h.Files(cur)
	if err != nil || cur.ID != 1 || string(files["main"]) != "drawCircle('c', 0, 0, 1)\n" {
		t.Errorf("history entry %d holds %q (%v)", cur.ID, files, err)
	}
}

func TestSaveBadInputOverMCP(t *testing.T) {
	s, dir := journalSession(t, nil)
	cs := connectMCP(t, s.srv)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"text": "x"}, "bad input: save: title is required: give the observation a short title"},
		{map[string]any{"title": "t", "text": "x", "visibility": "everyone"}, `bad input: save: visibility "everyone" is not one of private, department, project, public`},
	} {
		res := callMCP(t, cs, "save", tc.args)
		if !res.IsError {
			t.Errorf("save %v: not an error", tc.args)
			continue
		}
		if diff := cmp.Diff(tc.want, text(t, res)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	}
	res := callMCP(t, cs, "search", map[string]any{"type": "idea"})
	if diff := cmp.Diff(`bad input: search: type "idea" is not one of decision, bugfix, feature, refactor, discovery, change`, text(t, res)); !res.IsError || diff != "" {
		t.Errorf("search type idea: mismatch (-want +got):\n%s", diff)
	}
	// Nothing was saved.
	out, err := call[SearchOut](t, s, "search", map[string]any{})
	if err != nil || len(out.Entries) != 0 {
		t.Errorf("after bad saves: %+v, %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "scene.code.js")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a save created files: %v", err)
	}
}

// TestSaveOneInputRule: save follows the rule every tool's parameters do (docs/decisions.md,
// "One input check") over every entry point: `cadrun tool save` (Session.Call), MCP and
// POST /api/save refuse a key given twice and invalid UTF-8 with the same words, and save
// nothing. save had kept the last of the two titles, and POST /api/save had stored U+FFFD.
func TestSaveOneInputRule(t *testing.T) {
	s, _ := journalSession(t, nil)
	cs := connectMCP(t, s.srv)
	api := NewJournalAPI(s.srv)
	for _, tc := range []struct{ params, want string }{
		{`{"title":"first","title":"second","text":"x"}`, `bad input: save: the key "title" appears twice in one object; send it once`},
		{`{"title":"t","text":"x","facts":["a"],"refs":{"doc":1,"doc":2}}`, `bad input: save: the key "doc" appears twice in the object at refs; send it once`},
		{"{\"title\":\"t\",\"text\":\"caf\xe9\"}", `bad input: save: not valid UTF-8 (offset 24: byte 0xe9); send UTF-8 text`},
	} {
		if _, err := s.Call(context.Background(), "save", json.RawMessage(tc.params)); err == nil || err.Error() != tc.want {
			t.Errorf("cadrun tool save %s: %v; want %q", tc.params, err, tc.want)
		}
		res := callRaw(t, cs, "save", json.RawMessage(tc.params))
		if got := text(t, res); !res.IsError || got != tc.want {
			t.Errorf("MCP save %s: %q (error %v); want %q", tc.params, got, res.IsError, tc.want)
		}
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest("POST", "/api/save", strings.NewReader(tc.params)))
		want, _ := json.Marshal(map[string]string{"error": tc.want})
		if w.Code != http.StatusBadRequest || strings.TrimSpace(w.Body.String()) != string(want) {
			t.Errorf("POST /api/save %s: %d %s; want 400 %s", tc.params, w.Code, w.Body, want)
		}
	}
	if out, err := s.srv.Search(context.Background(), &journal.Query{}); err != nil || len(out.Entries) != 0 {
		t.Errorf("after the refused saves the journal holds %+v, %v", out.Entries, err)
	}
}

// TestJournalRefusesLinks checks that the database is never opened through a symlink or a
// hard link, which could lead SQLite to a file outside the workspace.
func TestJournalRefusesLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.db")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		link       func(target, link string) error
		want       string
	}{
		{"symlink", "journal.db", os.Symlink, "opening the journal: not a regular file: .cadrun/journal.db is a symbolic link; remove it"},
		{"symlinked wal", "journal.db-wal", os.Symlink, "opening the journal: not a regular file: .cadrun/journal.db-wal is a symbolic link; remove it"},
		{"hard link", "journal.db", os.Link, "opening the journal: not a regular file: .cadrun/journal.db has 2 hard links; remove the other links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := journalSession(t, nil)
			os.MkdirAll(filepath.Join(dir, ".cadrun"), 0o755)
			if err := tc.link(outside, filepath.Join(dir, ".cadrun", tc.file)); err != nil {
				t.Fatal(err)
			}
			_, err := call[journal.Saved](t, s, "save", map[string]any{"title": "t", "text": "x"})
			if err == nil || !errors.Is(err, modules.ErrNotRegular) {
				t.Fatalf("save through a %s: %v", tc.name, err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if b, _ := os.ReadFile(outside); len(b) != 0 {
		t.Errorf("the file outside was written: %d bytes", len(b))
	}
}

func TestSearchFetchByID(t *testing.T) {
	s, _ := journalSession(t, nil)
	ctx := context.Background()
	for _, title := range []string{"one", "two"} {
		if _, err := s.srv.Save(ctx, json.RawMessage(`{"title":"`+title+`","text":"body of `+title+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := call[SearchOut](t, s, "search", map[string]any{"ids": []int{2, 9}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Entries) != 1 || out.Entries[0].Text != "body of two" || !cmp.Equal(out.Missing, []int64{9}) {
		t.Errorf("fetch by id: %+v", out)
	}
	if out.Entries[0].HistoryEntry != 0 {
		t.Errorf("an empty workspace linked history entry %d", out.Entries[0].HistoryEntry)
	}
}

// TestJournalRefusesLinkedStateFolder: .cadrun/ itself may not be a link out of the workspace.
func TestJournalRefusesLinkedStateFolder(t *testing.T) {
	outside := t.TempDir()
	s, dir := journalSession(t, nil)
	if err := os.Symlink(outside, filepath.Join(dir, ".cadrun")); err != nil {
		t.Fatal(err)
	}
	_, err := call[journal.Saved](t, s, "save", map[string]any{"title": "t", "text": "x"})
	if err == nil {
		t.Fatal("save through a linked .cadrun/ succeeded")
	}
	if diff := cmp.Diff("opening the journal: mkdirat .cadrun: statat .cadrun: path escapes from parent", err.Error()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files were made outside the workspace: %v", entries)
	}
}

// TestSaveAfterTheJournalFileIsGone: a journal file deleted while the server runs is not
// written to any more: the next save starts a new journal at the path, where it is found again.
func TestSaveAfterTheJournalFileIsGone(t *testing.T) {
	t.Parallel()
	s, dir := journalSession(t, nil)
	mustCall[journal.Saved](t, s, "save", map[string]any{"title": "first", "text": "in the old file"})
	files, err := filepath.Glob(filepath.Join(dir, ".cadrun", "journal.db*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("journal files: %v %v", files, err)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	mustCall[journal.Saved](t, s, "save", map[string]any{"title": "second", "text": "after the file was deleted"})
	s.srv.CloseJournal() // as a restart would
	got := mustCall[SearchOut](t, s, "search", journal.Query{})
	if len(got.Entries) != 1 || got.Entries[0].Title != "second" {
		t.Errorf("after a restart the journal holds %+v; want the entry saved after the file was deleted", got.Entries)
	}
}

// TestSaveDeepExtraOverMCP: a property save does not know may nest MaxExtraDepth levels, and
// the entry is then listed over MCP; one level more is refused at save. An entry nested past
// what MCP clients accept (1,000 levels) had made every search that listed it fail.
func TestSaveDeepExtraOverMCP(t *testing.T) {
	s, _ := journalSession(t, nil)
	cs := connectMCP(t, s.srv)
	nested := func(levels int) json.RawMessage {
		return json.RawMessage(strings.Repeat(`[`, levels) + `"x"` + strings.Repeat(`]`, levels))
	}
	res := callMCP(t, cs, "save", map[string]any{"title": "deep", "text": "nested as deep as allowed", "nested": nested(journal.MaxExtraDepth)})
	if res.IsError {
		t.Fatalf("save at MaxExtraDepth: %s", text(t, res))
	}
	want := `bad input: save: property "nested" nests more than 64 levels deep (MaxExtraDepth); flatten it`
	res = callMCP(t, cs, "save", map[string]any{"title": "deeper", "text": "nested too deep", "nested": nested(journal.MaxExtraDepth + 1)})
	if !res.IsError || text(t, res) != want {
		t.Errorf("save nested %d levels: %s; want %q", journal.MaxExtraDepth+1, text(t, res), want)
	}
	// Past what MCP carries at all, as POST /api/save and cadrun tool send it: refused by the
	// rule every JSON input follows, before save reads a property.
	params := `{"title":"deepest","text":"nested far too deep","nested":` + string(nested(2000)) + `}`
	deepest := `bad input: save: arrays and objects nest more than 1000 levels deep (strictjson.MaxDepth); flatten the value`
	if _, err := s.srv.Save(context.Background(), json.RawMessage(params)); err == nil || err.Error() != deepest {
		t.Errorf("save nested 2000 levels: %v; want %q", err, deepest)
	}
	res = callMCP(t, cs, "search", map[string]any{})
	if res.IsError {
		t.Fatalf("search: %s", text(t, res))
	}
	if got := structured[SearchOut](t, res); len(got.Entries) != 1 || got.Entries[0].Title != "deep" {
		t.Errorf("search listed %+v; want the one entry saved", got.Entries)
	}
}

// TestSearchAnswerWithinBudget: entries at MaxEntryBytes would make a listing or a fetch of a
// hundred 25 MiB; the answer keeps to MaxAnswerBudget, and omitted names the entries left out.
func TestSearchAnswerWithinBudget(t *testing.T) {
	t.Parallel()
	s, _ := journalSession(t, nil)
	const n = 30
	facts := make([]string, 100)
	for i := range facts {
		facts[i] = strings.Repeat("f", journal.MaxEntryBytes/len(facts)-100)
	}
	var ids []int64
	for i := range n {
		params, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("big %d", i), "text": "a big entry", "facts": facts})
		saved, err := s.srv.Save(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, saved.ID)
	}
	for _, q := range []journal.Query{{Limit: n}, {IDs: ids}} {
		out, err := s.srv.Search(context.Background(), &q)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(out)
		if len(b) > MaxAnswerBudget || out.Omitted == nil || out.Omitted.Shown != len(out.Entries) || out.Omitted.Total != n {
			t.Fatalf("search %+v: %d bytes, %d entries, omitted %+v", q.IDs != nil, len(b), len(out.Entries), out.Omitted)
		}
		left := strings.Count(out.Omitted.Note, ",") + 1
		if len(out.Entries)+left != n || !strings.Contains(out.Omitted.Note, "(MaxAnswerBudget); fetch the other entries a few at a time with ids: [") {
			t.Errorf("search %+v: %d entries shown, omitted note %q", q.IDs != nil, len(out.Entries), out.Omitted.Note)
		}
	}
}
