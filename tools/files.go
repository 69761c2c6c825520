package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// ErrEdit is returned when an edit cannot be applied to the current text.
var ErrEdit = errors.New("edit does not apply")

const globDescription = "List the workspace's files (main, modules yours and built-in, data, fonts, imports) with kind, source and size."

const readDescription = "Read a file exactly as stored; read it before you change it. offset and limit (lines) read a part."

const writeDescription = "Replace a file and run the program at once: if the run fails, nothing is written and the error shows file:line:col; else the answer sums up the scene. Read a file before replacing it. A data file NAME.json must fit NAME.schema.json."

const editDescription = "Replace old_code with new_code in a file (found once, unless replace_all), or apply edits: [...] in order, all or nothing; then run as write does."

// GlobIn filters the listing.
type GlobIn struct {
	Pattern string `json:"pattern,omitempty" jsonschema:"a name pattern with * and ?; empty lists everything"`
}

// GlobOut is the listing.
type GlobOut struct {
	Files []modules.FileInfo `json:"files"`
}

func globTool(_ context.Context, se *Session, in GlobIn) (GlobOut, error) {
	out := GlobOut{Files: []modules.FileInfo{}}
	for _, f := range se.srv.ws.List() {
		if in.Pattern != "" {
			ok, err := path.Match(in.Pattern, f.Name)
			if err != nil {
				return out, fmt.Errorf("%w: pattern %q: %v", ErrBadInput, in.Pattern, err)
			}
			if !ok {
				continue
			}
		}
		out.Files = append(out.Files, f)
	}
	return out, nil
}

// ReadIn names the file and, optionally, a range of lines.
type ReadIn struct {
	File   string `json:"file" jsonschema:"'main', a module name such as 'house_lib', or a data file such as 'door.json'"`
	Offset int    `json:"offset,omitempty" jsonschema:"first line to return, 1-based"`
	Limit  int    `json:"limit,omitempty" jsonschema:"how many lines to return"`
	// Preview asks for a data file's structure instead of its text (data.go).
	Preview bool `json:"preview,omitempty" jsonschema:"a data file: its structure (keys, types, lengths, a sample) instead of its text"`
}

// ReadOut is the content.
type ReadOut struct {
	File      string `json:"file"`
	Path      string `json:"path"`
	Content   string `json:"content"`
	Lines     int    `json:"lines"`
	Partial   bool   `json:"partial,omitempty"`
	Truncated string `json:"truncated,omitempty"`
	// Preview is a data file's structure, when asked for; Content is then empty.
	Preview json.RawMessage `json:"preview,omitempty"`
}

func readTool(_ context.Context, se *Session, in ReadIn) (ReadOut, error) {
	if err := modules.CheckFileName(in.File); err != nil {
		return ReadOut{}, err
	}
	if in.Preview {
		return previewTool(se, in)
	}
	b, p, truncated, err := se.srv.ws.ReadCapped(in.File)
	if errors.Is(err, runtime.ErrModuleNotFound) {
		return ReadOut{}, noFile(se.srv.ws, in.File, globNext)
	}
	if err != nil {
		return ReadOut{}, err
	}
	if in.Offset < 0 || in.Limit < 0 {
		return ReadOut{}, fmt.Errorf("%w: offset and limit must be >= 0", ErrBadInput)
	}
	if truncated {
		// A part at a time, up to MaxReadBytes of whole lines: this is not a full read.
		return readPart(se, in)
	}
	out := ReadOut{File: in.File, Path: p, Content: string(b), Lines: lineCount(b)}
	// Any read counts, a few lines too: an agent reads the part it edits, and edit's old_code
	// must match the file anyway. The hash is the whole file's, so a change on disk since is
	// still refused as stale.
	se.NoteRead(in.File, b)
	if in.Offset <= 1 && in.Limit == 0 {
		return out, nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines = lines[:out.Lines]
	from := max(in.Offset, 1) - 1
	if from >= len(lines) {
		return ReadOut{}, fmt.Errorf("%w: offset %d is past the end (%d lines)", ErrBadInput, in.Offset, len(lines))
	}
	to := len(lines)
	if in.Limit > 0 {
		to = min(to, from+in.Limit)
	}
	out.Content = strings.Join(lines[from:to], "")
	out.Partial = true
	return out, nil
}

// readPart reads a file over MaxReadBytes from in.Offset, and says where to read on.
func readPart(se *Session, in ReadIn) (ReadOut, error) {
	from := max(in.Offset, 1)
	b, p, next, lines, err := se.srv.ws.ReadLines(in.File, from, in.Limit)
	if err != nil {
		return ReadOut{}, err
	}
	if len(b) == 0 {
		return ReadOut{}, fmt.Errorf("%w: offset %d is past the end (%d lines)", ErrBadInput, in.Offset, lines)
	}
	out := ReadOut{File: in.File, Path: p, Content: string(b), Lines: lineCount(b), Partial: true}
	if next > 0 {
		out.Truncated = fmt.Sprintf("the file is over %d bytes (MaxReadBytes), so it is read in parts: this is lines %d-%d; read on with offset %d (limit sets how many lines)",
			modules.MaxReadBytes, from, next-1, next)
	}
	return out, nil
}

// WriteIn is a whole new file.
type WriteIn struct {
	File string `json:"file" jsonschema:"'main', a module name such as 'house_lib' (no path, no .js), or a data file such as 'door.json' or 'catalog/items.json'"`
	Code string `json:"code,omitempty" jsonschema:"the complete JavaScript source; for a data file, its JSON text, stored byte for byte"`
	// Content is a data file's JSON value (data.go).
	Content json.RawMessage `json:"content,omitempty" jsonschema:"a data file's content as a JSON object or array, stored with 2-space indentation"`
	View    ViewIn          `json:"view,omitzero"` // a picture with the answer (view.go)
}

// amendSchema adds what inference cannot see: a write gives code, or (for a data file)
// content; a missing code must not read as "", which empties the file.
func (WriteIn) amendSchema(s *jsonschema.Schema) {
	s.AnyOf = []*jsonschema.Schema{{Required: []string{"code"}}, {Required: []string{"content"}}}
}

func writeTool(ctx context.Context, se *Session, in WriteIn) (*ChangeResult, error) {
	// The input schema has already refused a write with neither code nor content
	// (amendSchema); an explicit "code": "" empties the file on purpose, as upstream allows.
	next := []byte(in.Code)
	if modules.IsDataName(in.File) {
		var err error
		if next, err = dataContent(in); err != nil {
			return nil, engine.NotApplied(err)
		}
	} else if in.Content != nil {
		return nil, engine.NotApplied(fmt.Errorf("%w: content is for data files (NAME.json); give a script's source as code", ErrBadInput))
	}
	return changed(se.Commit(ctx, in.File, func([]byte, bool) (modules.Change, error) {
		return modules.Change{Name: in.File, Next: next}, nil
	}, OverwriteWarning))
}

// Edit is one replacement.
//
// Its fields are described once, in EditIn's own old_code, new_code and replace_all, which the
// tool list carries: an error about an edit's field says what EditIn's says (checkObject).
type Edit struct {
	OldCode    string `json:"old_code"`
	NewCode    string `json:"new_code"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// EditIn is one edit, or several in order.
type EditIn struct {
	File       string `json:"file" jsonschema:"'main' or a module name"`
	OldCode    string `json:"old_code,omitempty" jsonschema:"the exact text to replace"`
	NewCode    string `json:"new_code,omitempty" jsonschema:"the text to put in its place (\"\" deletes old_code)"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence"`
	Edits      []Edit `json:"edits,omitempty" jsonschema:"several edits applied in order, all or nothing"`
	View       ViewIn `json:"view,omitzero"` // a picture with the answer (view.go)
}

// amendSchema adds what inference cannot see: old_code and new_code come together (a missing
// new_code must not read as "", which deletes), and one of them or edits must be given.
func (EditIn) amendSchema(s *jsonschema.Schema) {
	s.DependentRequired = map[string][]string{"old_code": {"new_code"}, "new_code": {"old_code"}}
	s.AnyOf = []*jsonschema.Schema{{Required: []string{"old_code", "new_code"}}, {Required: []string{"edits"}}}
}

func editTool(ctx context.Context, se *Session, in EditIn) (*ChangeResult, error) {
	edits := in.Edits
	switch {
	case len(edits) == 0:
		edits = []Edit{{OldCode: in.OldCode, NewCode: in.NewCode, ReplaceAll: in.ReplaceAll}}
	case in.OldCode != "" || in.NewCode != "":
		return nil, fmt.Errorf("%w: give old_code/new_code or edits, not both", ErrBadInput)
	}
	warn := "Warning: editing a file this session has not read; read it first to see its current text"
	return changed(se.Commit(ctx, in.File, func(current []byte, exists bool) (modules.Change, error) {
		if !exists && modules.IsBuiltin(in.File) {
			return modules.Change{}, fmt.Errorf("%s is a built-in module (%s), which is read-only; to customise it, read %s and write a copy under a new name "+
				"(such as my_%s) and import that, or write %s itself to make a workspace module that replaces the built-in",
				in.File, "builtin/"+in.File+".js", in.File, in.File, in.File)
		}
		if !exists {
			// A file that is there but refused (a hardlink, a FIFO) says why.
			if _, _, err := se.srv.ws.Read(in.File); errors.Is(err, modules.ErrLinked) || errors.Is(err, modules.ErrNotRegular) {
				return modules.Change{}, err
			}
			return modules.Change{}, noFile(se.srv.ws, in.File, "create it with write")
		}
		next, err := applyEdits(current, edits)
		if err != nil {
			return modules.Change{}, err
		}
		return modules.Change{Name: in.File, Next: next}, nil
	}, warn))
}

// lineCount counts lines as an editor shows them: a final line break ends the last line
// rather than starting an empty one.
func lineCount(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// applyEdits applies replacements in order. In a file whose line breaks are all CRLF, "\n"
// in the edit texts means "\r\n", so that the file keeps its line endings (a file with mixed
// endings is edited byte for byte); replacement text is inserted literally ($& and friends
// mean nothing here).
func applyEdits(text []byte, edits []Edit) ([]byte, error) {
	lf := bytes.Count(text, []byte("\n"))
	crlf := lf > 0 && bytes.Count(text, []byte("\r\n")) == lf
	for i, e := range edits {
		where := ""
		if len(edits) > 1 {
			where = fmt.Sprintf("edit %d: ", i)
		}
		oldCode, newCode := e.OldCode, e.NewCode
		if oldCode == "" {
			return nil, fmt.Errorf("%w: %sold_code is empty; give the exact text to replace", ErrEdit, where)
		}
		if crlf {
			oldCode, newCode = toCRLF(oldCode), toCRLF(newCode)
		}
		n := bytes.Count(text, []byte(oldCode))
		switch {
		case n == 0 && hasLineNumbers(oldCode):
			return nil, fmt.Errorf("%w: %sold_code was not found, and it looks like it carries line numbers (%q), as cat -n and read tools show them; "+
				"send the file's text without them", ErrEdit, where, firstLine(oldCode))
		case n == 0:
			return nil, fmt.Errorf("%w: %sold_code was not found; %sread the file and copy the text exactly", ErrEdit, where, nearestText(text, []byte(oldCode)))
		case n > 1 && !e.ReplaceAll:
			return nil, fmt.Errorf("%w: %sold_code occurs %d times, at %s; add surrounding lines to make it unique, or set replace_all", ErrEdit, where, n, occurrenceLines(text, []byte(oldCode)))
		}
		text = bytes.ReplaceAll(text, []byte(oldCode), []byte(newCode))
	}
	return text, nil
}

// maxOccurrenceLines caps the lines an edit's "occurs N times" error lists.
const maxOccurrenceLines = 10

// occurrenceLines names the 1-based lines where the occurrences of old in text start (the
// ones bytes.Count counts, which do not overlap), each once, the first maxOccurrenceLines of
// them, so that an agent can pick the surrounding lines that make its edit unique.
func occurrenceLines(text, old []byte) string {
	var lines []string
	line, from, more := 1, 0, false
	for {
		i := bytes.Index(text[from:], old)
		if i < 0 {
			break
		}
		line += bytes.Count(text[from:from+i], []byte("\n"))
		if l := strconv.Itoa(line); len(lines) == 0 || lines[len(lines)-1] != l {
			if len(lines) == maxOccurrenceLines {
				more = true
				break
			}
			lines = append(lines, l)
		}
		line += bytes.Count(old, []byte("\n"))
		from += i + len(old)
	}
	switch {
	case more:
		return fmt.Sprintf("lines %s, ... (the first %d)", strings.Join(lines, ", "), len(lines))
	case len(lines) == 1:
		return "line " + lines[0]
	case len(lines) == 2:
		return "lines " + lines[0] + " and " + lines[1]
	}
	return "lines " + strings.Join(lines, ", ")
}

// lineNumberRE matches a line-number prefix as tools show one: spaces, digits, then a tab, an
// arrow or a colon or bar and a space ("     2\t", "  2→", "2: ", "2 | "). Compiled at first
// use, as the package's other values.
var lineNumberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\d+(\t|→|: | \| )`) })

// hasLineNumbers reports whether every non-empty line of s starts with a line-number prefix.
func hasLineNumbers(s string) bool {
	found := false
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if l == "" {
			continue
		}
		if !lineNumberRE().MatchString(l) {
			return false
		}
		found = true
	}
	return found
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return engine.Clip([]byte(l), 40)
}

func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// nearestText says where old_code stops matching the file: the longest start of old_code
// found in the file (at least a few bytes, or its whole first line), the line it is on, and
// how the two go on from there, or "" when even its start is not in the file. The start is
// found by halving its length, each step one search of the file.
func nearestText(text, oldCode []byte) string {
	lo, hi := 0, len(oldCode) // the start of length lo is in the file; of length hi is not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if bytes.Contains(text, oldCode[:mid]) {
			lo = mid
		} else {
			hi = mid
		}
	}
	first, _, _ := bytes.Cut(oldCode, []byte("\n"))
	if lo < min(8, len(first)) {
		return ""
	}
	at := bytes.Index(text, oldCode[:lo])
	line := bytes.Count(text[:at], []byte("\n")) + 1
	from := max(0, lo-20)
	for from < lo && !utf8.RuneStart(oldCode[from]) {
		from++
	}
	return fmt.Sprintf("its first %d bytes match the file at line %d (ending %q), where the file goes on with %q and old_code with %q; ",
		lo, line, oldCode[from:lo], engine.Clip(text[at+lo:], 20), engine.Clip(oldCode[lo:], 20))
}
