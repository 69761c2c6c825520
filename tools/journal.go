package tools

// The journal's tools, save and search. save keeps the properties it does not know (a client's
// own fields travel with the entry), which the generic registry row refuses, so its row is
// ownInput: its parameters are decoded by journal.ParseSave, and over MCP it declares an
// input schema that allows extra properties.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cadrun/cadrun/journal"
	"github.com/cadrun/cadrun/tools/engine"
)

const saveDescription = "Save an observation to the design journal, linked to the current history entry; unknown properties are kept. Answers {id, memory_session_id, created_at_epoch}."

// saveTool saves an entry; its parameters are decoded by journal.ParseSave (in Server.Save).
func saveTool(ctx context.Context, se *Session, params json.RawMessage) (journal.Saved, error) {
	return se.srv.Save(ctx, params)
}

const searchDescription = "Search the design journal: query words (ranked, with snippets; empty: the newest) and filters; next page: until the last entry's created_at_epoch."

// SaveIn documents save's parameters (its schema); the parameters themselves are decoded by
// journal.ParseSave, which also keeps unknown properties.
type SaveIn struct {
	Title           string   `json:"title" jsonschema:"a short title"`
	Text            string   `json:"text" jsonschema:"what was observed and why it matters"`
	Type            string   `json:"type,omitempty" jsonschema:"default discovery"`
	Project         string   `json:"project,omitempty" jsonschema:"default the workspace's folder name"`
	MemorySessionID string   `json:"memory_session_id,omitempty" jsonschema:"groups related saves"`
	Facts           []string `json:"facts,omitempty"`
	Concepts        []string `json:"concepts,omitempty"`
	FilesRead       []string `json:"files_read,omitempty"`
	FilesModified   []string `json:"files_modified,omitempty"`
	Agent           string   `json:"agent,omitempty"`
	Department      string   `json:"department,omitempty"`
	Visibility      string   `json:"visibility,omitempty" jsonschema:"default project"`
}

// saveInputSchema is SaveIn's schema with the enums and required fields spelled out and
// extra properties allowed.
func saveInputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[SaveIn](nil)
	if err != nil {
		panic(err)
	}
	s.AdditionalProperties = nil
	s.Required = []string{"title", "text"}
	for field, values := range map[string][]string{"type": journal.Types, "visibility": journal.Visibilities} {
		for _, v := range values {
			s.Properties[field].Enum = append(s.Properties[field].Enum, v)
		}
	}
	return s
}

// journalHandle opens the workspace's journal on first use and keeps it open.
type journalHandle struct {
	mu sync.Mutex
	j  *journal.Journal
}

// journal returns the workspace's journal, opening it on first use; a failure is tried again
// on the next call. A journal file deleted or moved aside since is let go and the path opened
// again, so that no save goes to a file nobody will open again.
func (srv *Server) journal(ctx context.Context) (*journal.Journal, error) {
	h := &srv.jrnl
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.j != nil && h.j.Moved() {
		h.j.Close()
		h.j = nil
	}
	if h.j != nil {
		return h.j, nil
	}
	p, err := srv.ws.JournalPath()
	if err != nil {
		return nil, err
	}
	j, err := journal.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	h.j = j
	return j, nil
}

// CloseJournal closes the journal if it is open; the next use opens it again. A server
// otherwise keeps it for its life.
func (srv *Server) CloseJournal() {
	srv.jrnl.mu.Lock()
	defer srv.jrnl.mu.Unlock()
	if srv.jrnl.j != nil {
		srv.jrnl.j.Close()
		srv.jrnl.j = nil
	}
}

// Save saves a journal entry from save's parameters (a JSON object), linked to the current
// history entry: the workspace as it is now, recorded first if the history does not have it
// yet (files changed outside cadrun, run first so that their scene is recorded with them).
func (srv *Server) Save(ctx context.Context, params json.RawMessage) (journal.Saved, error) {
	in, err := journal.ParseSave(params, filepath.Base(absDir(srv.ws.Dir())))
	if err != nil {
		return journal.Saved{}, badInput("save", err)
	}
	j, err := srv.journal(ctx)
	if err != nil {
		return journal.Saved{}, err
	}
	link, err := srv.currentEntry(ctx)
	if err != nil {
		return journal.Saved{}, err
	}
	return j.Save(ctx, in, link, time.Now())
}

// currentEntry is the history entry that holds the workspace as it is now (none when there
// are no files to record).
func (srv *Server) currentEntry(ctx context.Context) (journal.Link, error) {
	e, ok, err := srv.Record(ctx)
	if err != nil || !ok {
		return journal.Link{}, err
	}
	return journal.Link{Entry: e.ID, State: engine.EntryState(e)}, nil
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// badInput marks a journal input error as the registry's ErrBadInput.
func badInput(tool string, err error) error {
	if errors.Is(err, journal.ErrBadInput) {
		return fmt.Errorf("%w: %s: %s", ErrBadInput, tool, strings.TrimPrefix(err.Error(), journal.ErrBadInput.Error()+": "))
	}
	return err
}

// SearchOut is search's answer: the entries found, and for a fetch by id the ids that do not
// exist.
type SearchOut struct {
	Entries []journal.Entry `json:"entries"`
	Missing []int64         `json:"missing,omitempty"`
	// Omitted says which entries were left out to keep the answer within MaxAnswerBudget.
	Omitted *Omitted `json:"omitted,omitempty"`
}

func searchTool(ctx context.Context, se *Session, in journal.Query) (SearchOut, error) {
	return se.srv.Search(ctx, &in)
}

// Search runs a journal search, or a fetch by id when q.IDs is set.
func (srv *Server) Search(ctx context.Context, q *journal.Query) (SearchOut, error) {
	if err := q.Check(); err != nil {
		return SearchOut{}, badInput("search", err)
	}
	j, err := srv.journal(ctx)
	if err != nil {
		return SearchOut{}, err
	}
	if len(q.IDs) > 0 {
		entries, missing, err := j.Get(ctx, q.IDs)
		if entries == nil {
			entries = []journal.Entry{}
		}
		out := SearchOut{Entries: entries, Missing: missing}
		out.fit(MaxAnswerBudget)
		return out, err
	}
	entries, err := j.Search(ctx, q)
	out := SearchOut{Entries: entries}
	out.fit(MaxAnswerBudget)
	return out, err
}

// fit keeps the answer within budget bytes of JSON: an entry may carry up to
// journal.MaxEntryBytes, so a hundred of them would be 25 MiB. The first entries that fit
// stay (at least one), and Omitted names the others' ids, to fetch a few at a time.
func (out *SearchOut) fit(budget int) {
	size := 64 // the envelope, missing aside
	for i, e := range out.Entries {
		b, _ := json.Marshal(e)
		size += len(b) + 1
		if size <= budget || i == 0 {
			continue
		}
		var ids []string
		for _, e := range out.Entries[i:] {
			ids = append(ids, fmt.Sprint(e.ID))
		}
		out.Omitted = &Omitted{Shown: i, Total: len(out.Entries), Note: fmt.Sprintf(
			"the answer is cut at %d bytes (MaxAnswerBudget); fetch the other entries a few at a time with ids: [%s]",
			budget, strings.Join(ids, ", "))}
		out.Entries = out.Entries[:i]
		return
	}
}
