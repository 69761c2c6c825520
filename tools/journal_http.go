package tools

// The journal over HTTP, for people and programs that do not speak MCP: POST /api/save and
// GET /api/search. It is a plain http.Handler with no checks of its own: mount it behind the
// front door (internal/front) of the server it rides on, as `cadrun mcp -http`
// (mcpserver.NewHTTPHandler) and the viewer do.

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/journal"
)

// MaxAPIBodyBytes caps the body of POST /api/save.
const MaxAPIBodyBytes = journal.MaxEntryBytes + 4<<10

// searchParams are the query parameters GET /api/search takes.
var searchParams = []string{"query", "type", "project", "concept", "memory_session_id", "since", "until", "limit", "id"}

// NewJournalAPI serves srv's journal: POST /api/save with save's parameters as a JSON object
// answers {id, memory_session_id, created_at_epoch}; GET /api/search with search's parameters
// in the query string (id=N, repeated, fetches entries whole) answers {entries, missing}.
// Errors are {"error": "..."}: 400 for bad input (naming the field), 404, 405, 413, 500.
func NewJournalAPI(srv *Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/save", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			front.APIError(w, http.StatusMethodNotAllowed, "use POST with a JSON object body")
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxAPIBodyBytes))
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			front.APIError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes (MaxAPIBodyBytes)", MaxAPIBodyBytes))
			return
		}
		if err != nil {
			front.APIError(w, http.StatusBadRequest, "reading the body: "+err.Error())
			return
		}
		saved, err := srv.Save(r.Context(), body)
		apiAnswer(w, saved, err)
	})
	mux.HandleFunc("/api/search", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			front.APIError(w, http.StatusMethodNotAllowed, "use GET with the parameters in the query string")
			return
		}
		q, err := searchQuery(r)
		if err != nil {
			front.APIError(w, http.StatusBadRequest, err.Error())
			return
		}
		out, err := srv.Search(r.Context(), q)
		apiAnswer(w, out, err)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		front.APIError(w, http.StatusNotFound, fmt.Sprintf("no such endpoint %q; there are POST /api/save and GET /api/search", r.URL.Path))
	})
	return mux
}

// searchQuery reads search's parameters from the query string.
func searchQuery(r *http.Request) (*journal.Query, error) {
	v := r.URL.Query()
	for _, k := range slices.Sorted(maps.Keys(v)) {
		if !slices.Contains(searchParams, k) {
			return nil, fmt.Errorf("bad input: search: unknown parameter %q; the parameters are %s", k, strings.Join(searchParams, ", "))
		}
		// One value each, as the JSON input rule has no key twice: query=a&query=b used the
		// first and dropped the second without a word. Only id repeats, to fetch several.
		if n := len(v[k]); n > 1 && k != "id" {
			return nil, fmt.Errorf("bad input: search: %s is given %d times; give it once (only id may repeat)", k, n)
		}
	}
	q := &journal.Query{Query: v.Get("query"), Type: v.Get("type"), Project: v.Get("project"),
		Concept: v.Get("concept"), MemorySessionID: v.Get("memory_session_id")}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if s := v.Get(f.name); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("bad input: search: %s must be an integer (milliseconds since 1970), got %q", f.name, s)
			}
			*f.dst = n
		}
	}
	if s := v.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("bad input: search: limit must be an integer, got %q", s)
		}
		q.Limit = n
	}
	for _, s := range v["id"] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad input: search: id must be an integer, got %q", s)
		}
		q.IDs = append(q.IDs, n)
	}
	return q, nil
}

func apiAnswer(w http.ResponseWriter, v any, err error) {
	switch {
	case errors.Is(err, ErrBadInput), errors.Is(err, journal.ErrSearchTime):
		front.APIError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		front.APIError(w, http.StatusInternalServerError, err.Error())
	default:
		front.WriteJSON(w, http.StatusOK, v)
	}
}
