package journal

// Parameters of save and search, checked before anything touches the database. save's
// parameters pass strictjson's rule first, as every tool's do; save keeps properties it does
// not know (a client's own fields) rather than refusing them, so they are then decoded by
// hand from a map instead of into a struct with unknown fields disallowed.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cadrun/cadrun/internal/strictjson"
)

// Types and visibilities an entry may have.
var (
	Types        = []string{"decision", "bugfix", "feature", "refactor", "discovery", "change"}
	Visibilities = []string{"private", "department", "project", "public"}
)

// Defaults of save.
const (
	DefaultType       = "discovery"
	DefaultVisibility = "project"
)

// Limits on one entry and on a search.
const (
	MaxEntryBytes  = 256 << 10 // the save's parameters, encoded
	MaxTitleRunes  = 500
	MaxListItems   = 200 // facts, concepts, files_read, files_modified each
	MaxFieldRunes  = 200 // project, memory_session_id, agent, department (list items count only toward MaxEntryBytes)
	DefaultLimit   = 20
	MaxSearchLimit = 100
	MaxQueryRunes  = 1000
	MaxFetchIDs    = 100
	// MaxExtraDepth caps the nesting of a property save does not know: MCP clients refuse
	// an answer nested past 1,000 levels, so one entry nested deeper would fail every search
	// that lists it.
	MaxExtraDepth = 64
)

// SaveInput is a checked save.
type SaveInput struct {
	Title           string
	Text            string
	Type            string
	Project         string
	MemorySessionID string
	Facts           []string
	Concepts        []string
	FilesRead       []string
	FilesModified   []string
	Agent           string
	Department      string
	Visibility      string
	// Extra holds the properties save does not know, as given.
	Extra map[string]json.RawMessage
}

// ParseSave decodes and checks a save's parameters (a JSON object). project defaults to
// defaultProject; a missing memory_session_id is generated.
func ParseSave(raw []byte, defaultProject string) (*SaveInput, error) {
	if len(raw) > MaxEntryBytes {
		return nil, fmt.Errorf("%w: the entry is %d bytes, over %d (MaxEntryBytes); shorten text or split it into several entries", ErrBadInput, len(raw), MaxEntryBytes)
	}
	// The one rule for JSON input (as every tool's parameters): a repeated key or invalid
	// UTF-8 would otherwise be saved as the last value or as U+FFFD, not as sent.
	if err := strictjson.Check(raw); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("%w: the parameters must be a JSON object with title and text", ErrBadInput)
	}
	in := &SaveInput{Type: DefaultType, Visibility: DefaultVisibility, Project: defaultProject}
	str := func(field string, dst *string, maxRunes int) error {
		v, ok := m[field]
		delete(m, field)
		if !ok || string(v) == "null" {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("%w: %s must be a string, got %s", ErrBadInput, field, kindOf(v))
		}
		if n := utf8.RuneCountInString(*dst); maxRunes > 0 && n > maxRunes {
			limit := "MaxFieldRunes"
			if maxRunes == MaxTitleRunes {
				limit = "MaxTitleRunes"
			}
			return fmt.Errorf("%w: %s is %d characters, over %d (%s); shorten it", ErrBadInput, field, n, maxRunes, limit)
		}
		return nil
	}
	strs := func(field string, dst *[]string) error {
		v, ok := m[field]
		delete(m, field)
		if !ok || string(v) == "null" {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return fmt.Errorf("%w: %s must be an array of strings, got %s", ErrBadInput, field, kindOf(v))
		}
		if len(*dst) > MaxListItems {
			return fmt.Errorf("%w: %s has %d items, over %d (MaxListItems)", ErrBadInput, field, len(*dst), MaxListItems)
		}
		return nil
	}
	enum := func(field string, dst *string, allowed []string) error {
		if err := str(field, dst, 0); err != nil {
			return err
		}
		if !slices.Contains(allowed, *dst) {
			return fmt.Errorf("%w: %s %q is not one of %s", ErrBadInput, field, *dst, strings.Join(allowed, ", "))
		}
		return nil
	}
	for _, err := range []error{
		str("title", &in.Title, MaxTitleRunes),
		str("text", &in.Text, 0),
		enum("type", &in.Type, Types),
		str("project", &in.Project, MaxFieldRunes),
		str("memory_session_id", &in.MemorySessionID, MaxFieldRunes),
		strs("facts", &in.Facts),
		strs("concepts", &in.Concepts),
		strs("files_read", &in.FilesRead),
		strs("files_modified", &in.FilesModified),
		str("agent", &in.Agent, MaxFieldRunes),
		str("department", &in.Department, MaxFieldRunes),
		enum("visibility", &in.Visibility, Visibilities),
	} {
		if err != nil {
			return nil, err
		}
	}
	switch {
	case strings.TrimSpace(in.Title) == "":
		return nil, fmt.Errorf("%w: title is required: give the observation a short title", ErrBadInput)
	case strings.TrimSpace(in.Text) == "":
		return nil, fmt.Errorf("%w: text is required: say what was observed and why it matters", ErrBadInput)
	}
	if in.MemorySessionID == "" {
		in.MemorySessionID = newSessionID()
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if depth(m[name]) > MaxExtraDepth {
			return nil, fmt.Errorf("%w: property %q nests more than %d levels deep (MaxExtraDepth); flatten it", ErrBadInput, name, MaxExtraDepth)
		}
	}
	if len(m) > 0 {
		in.Extra = m
	}
	return in, nil
}

// depth is how deeply a valid JSON value nests arrays and objects (0 for a scalar).
func depth(v json.RawMessage) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, c := range v {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

// newSessionID is a random (version 4) UUID.
func newSessionID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// kindOf names the JSON type of a value, for errors.
func kindOf(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case '{':
		return "an object"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// Query is a checked search.
type Query struct {
	Query           string  `json:"query,omitempty" jsonschema:"words, all to match (word* a prefix)"`
	Type            string  `json:"type,omitempty" jsonschema:"decision, bugfix, feature, refactor, discovery or change"`
	Project         string  `json:"project,omitempty"`
	Concept         string  `json:"concept,omitempty"`
	MemorySessionID string  `json:"memory_session_id,omitempty"`
	Since           int64   `json:"since,omitempty" jsonschema:"ms since 1970, at or after"`
	Until           int64   `json:"until,omitempty" jsonschema:"ms since 1970, before"`
	Limit           int     `json:"limit,omitempty" jsonschema:"default 20, at most 100"`
	IDs             []int64 `json:"ids,omitempty" jsonschema:"fetch these entries whole"`
}

// Check applies the defaults and refuses what is out of range.
func (q *Query) Check() error {
	switch {
	case q.Type != "" && !slices.Contains(Types, q.Type):
		return fmt.Errorf("%w: type %q is not one of %s", ErrBadInput, q.Type, strings.Join(Types, ", "))
	case q.Limit < 0:
		return fmt.Errorf("%w: limit %d must be 1 to %d (MaxSearchLimit)", ErrBadInput, q.Limit, MaxSearchLimit)
	case q.Limit > MaxSearchLimit:
		return fmt.Errorf("%w: limit %d is over %d (MaxSearchLimit); page with until", ErrBadInput, q.Limit, MaxSearchLimit)
	case q.Since < 0 || q.Until < 0:
		return fmt.Errorf("%w: since and until are milliseconds since 1970 and must be >= 0", ErrBadInput)
	case q.Until != 0 && q.Since >= q.Until:
		return fmt.Errorf("%w: since %d must be before until %d", ErrBadInput, q.Since, q.Until)
	case utf8.RuneCountInString(q.Query) > MaxQueryRunes:
		return fmt.Errorf("%w: query is over %d characters (MaxQueryRunes)", ErrBadInput, MaxQueryRunes)
	case len(q.IDs) > MaxFetchIDs:
		return fmt.Errorf("%w: ids has %d items, over %d (MaxFetchIDs)", ErrBadInput, len(q.IDs), MaxFetchIDs)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	q.Query = strings.TrimSpace(q.Query)
	return nil
}
