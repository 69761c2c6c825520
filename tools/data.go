package tools

// Data files in the write-and-run transaction. A change to a data file (or to its schema) is
// checked before the program runs: the text must be JSON, and a data file with a schema
// (data/NAME.schema.json) must validate against it. The schema loader reads only the
// workspace's own data files, through the same Source the run uses, so a $ref can neither
// read another file nor see a state that is not the one being committed. Then main runs
// with the change overlaid, as for a script: a data change that breaks the drawing is refused.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// ErrInvalidData is returned for a data file that is not JSON or does not match its schema.
var ErrInvalidData = errors.New("invalid data")

// MaxSchemaErrors caps the schema errors one answer lists.
const MaxSchemaErrors = 50

// schemaBase is the URL the data folder has for the schema compiler; it names no real file.
const schemaBase = "cadrun:///data/"

// dataContent is the bytes a write stores for a data file: code byte for byte, or content as
// JSON with 2-space indentation and a final newline. A string holding JSON is parsed, never
// stored as a JSON string.
func dataContent(in WriteIn) ([]byte, error) {
	switch {
	case in.Content != nil && in.Code != "":
		return nil, fmt.Errorf("%w: give code (the JSON text) or content (the JSON value), not both", ErrBadInput)
	case in.Content == nil:
		return []byte(in.Code), nil
	}
	raw := bytes.TrimSpace(in.Content)
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		if msg := runtime.JSONSyntaxError([]byte(s)); msg != "" {
			return nil, fmt.Errorf("%w: content is a string that is not JSON text: %s; give an object or array", ErrInvalidData, msg)
		}
		raw = []byte(s)
	}
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return nil, fmt.Errorf("%w: content must be a JSON object or array; give code for other JSON text", ErrBadInput)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("%w: content: %s", ErrInvalidData, runtime.JSONSyntaxError(raw))
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// checkData checks the data files a change touches, as the changed workspace (src) has
// them: each is JSON; a data file with a schema matches it; a schema compiles and its data
// file matches it. A script change passes untouched.
func checkData(c modules.Change, src runtime.Source) error {
	if !modules.IsDataName(c.Name) {
		return nil
	}
	if c.MoveTo != "" {
		if err := modules.CheckMoveKinds(c.Name, c.MoveTo); err != nil {
			return err
		}
	}
	for _, name := range c.Files() {
		b, path, err := src.Read(name)
		if errors.Is(err, runtime.ErrModuleNotFound) {
			continue // deleted or moved away
		}
		if err != nil {
			return err
		}
		if msg := runtime.JSONSyntaxError(b); msg != "" {
			return fmt.Errorf("%w: %s:%s", ErrInvalidData, path, msg)
		}
		data, schema := name, ""
		if s, ok := modules.SchemaOf(name); ok {
			schema = s
		} else {
			data, schema = strings.TrimSuffix(name, modules.SchemaSuffix)+".json", name
		}
		if err := validate(src, data, schema); err != nil {
			return err
		}
	}
	return nil
}

// validate checks data against schema when both exist in src.
func validate(src runtime.Source, data, schema string) error {
	sb, spath, err := src.Read(schema)
	if errors.Is(err, runtime.ErrModuleNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if msg := runtime.JSONSyntaxError(sb); msg != "" {
		return fmt.Errorf("%w: %s:%s", ErrInvalidData, spath, msg)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(schemaLoader{src})
	sch, err := c.Compile(schemaBase + schema)
	if err != nil {
		return fmt.Errorf("%w: %s is not a usable JSON Schema (2020-12): %v", ErrInvalidData, spath, err)
	}
	db, dpath, err := src.Read(data)
	if errors.Is(err, runtime.ErrModuleNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if msg := runtime.JSONSyntaxError(db); msg != "" { // a data file the change does not touch
		return fmt.Errorf("%w: %s:%s", ErrInvalidData, dpath, msg)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(db))
	if err != nil {
		return fmt.Errorf("%w: %s:%s", ErrInvalidData, dpath, runtime.JSONSyntaxError(db))
	}
	err = sch.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var lines []string
	printer := message.NewPrinter(language.English)
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		for _, c := range e.Causes {
			leaves(c)
		}
		if len(e.Causes) > 0 {
			return
		}
		ptr := ""
		for _, seg := range e.InstanceLocation {
			ptr += "/" + strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
		}
		line, col := runtime.LineCol(db, pointerOffset(db, ptr))
		if ptr == "" {
			ptr = "(the whole value)"
		}
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s: %s", dpath, line, col, ptr, e.ErrorKind.LocalizedString(printer)))
	}
	leaves(ve)
	sort.Strings(lines)
	lines = sortedUnique(lines)
	if len(lines) > MaxSchemaErrors {
		lines = append(lines[:MaxSchemaErrors], fmt.Sprintf("... and %d more (MaxSchemaErrors)", len(lines)-MaxSchemaErrors))
	}
	return fmt.Errorf("%w: %s does not match %s:\n%s", ErrInvalidData, dpath, spath, strings.Join(lines, "\n"))
}

func sortedUnique(l []string) []string {
	out := l[:0]
	for i, s := range l {
		if i == 0 || s != l[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// schemaLoader lets the schema compiler read the workspace's data files and nothing else.
type schemaLoader struct{ src runtime.Source }

func (l schemaLoader) Load(url string) (any, error) {
	name, ok := strings.CutPrefix(url, schemaBase)
	if !ok || modules.CheckDataName(name) != nil {
		return nil, fmt.Errorf("%q is outside the workspace's data files; a $ref may name only data/NAME.json files", url)
	}
	b, path, err := l.src.Read(name)
	if err != nil {
		return nil, err
	}
	// The one rule for JSON input, as for the schema that refers here: the compiler's own
	// decoder would keep the last of a repeated key.
	if msg := runtime.JSONSyntaxError(b); msg != "" {
		return nil, fmt.Errorf("%s:%s", path, msg)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// pointerOffset is the byte offset in b (valid JSON) of the value a JSON pointer names, or 0.
func pointerOffset(b []byte, ptr string) int {
	var want []string
	if ptr != "" {
		for _, p := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			want = append(want, strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~"))
		}
	}
	type frame struct {
		obj       bool
		key       string
		idx       int
		expectKey bool
	}
	var stack []frame
	at := func() bool {
		if len(stack) != len(want) {
			return false
		}
		for i, f := range stack {
			seg := f.key
			if !f.obj {
				seg = strconv.Itoa(f.idx)
			}
			if seg != want[i] {
				return false
			}
		}
		return true
	}
	done := func() { // a value ended: the parent moves on
		if n := len(stack); n > 0 {
			if stack[n-1].obj {
				stack[n-1].expectKey = true
			} else {
				stack[n-1].idx++
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		off := int(dec.InputOffset())
		for off < len(b) && strings.IndexByte(" \t\r\n,:", b[off]) >= 0 {
			off++
		}
		tok, err := dec.Token()
		if err != nil {
			return 0
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			done()
			continue
		}
		if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].expectKey {
			stack[n-1].key, stack[n-1].expectKey = tok.(string), false
			continue
		}
		if at() {
			return off
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{obj: true, expectKey: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		default:
			done()
		}
	}
}

// Preview limits: how deep the structure is described, how many keys of an object and how
// many sample items of an array.
const (
	previewDepth   = 6
	previewKeys    = 50
	previewSamples = 3
)

// preview describes a JSON value's structure: an object by its keys (each described in turn),
// an array by its length, the structure of its first item and a sample of its first items, a
// scalar by its type.
func preview(b []byte) (json.RawMessage, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidData, runtime.JSONSyntaxError(b))
	}
	return json.Marshal(describeValue(v, 0))
}

func describeValue(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		if depth >= previewDepth {
			return fmt.Sprintf("object (%d keys)", len(x))
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := map[string]any{}
		for i, k := range keys {
			if i == previewKeys {
				out["…"] = fmt.Sprintf("%d more keys", len(keys)-previewKeys)
				break
			}
			out[k] = describeValue(x[k], depth+1)
		}
		return out
	case []any:
		out := map[string]any{"array": len(x)}
		if len(x) > 0 && depth < previewDepth {
			out["item"] = describeValue(x[0], depth+1)
			sample := x[:min(len(x), previewSamples)]
			if b, err := json.Marshal(sample); err == nil && len(b) <= 2000 {
				out["sample"] = json.RawMessage(b)
			}
		}
		return out
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// previewTool answers read with preview: a data file's structure, read whole even when it is
// too big to show (up to the workspace's read cap).
func previewTool(s *Session, in ReadIn) (ReadOut, error) {
	if !modules.IsDataName(in.File) {
		return ReadOut{}, fmt.Errorf("%w: preview is for data files (NAME.json); read %s without it", ErrBadInput, in.File)
	}
	b, p, err := s.srv.ws.Read(in.File)
	if errors.Is(err, runtime.ErrModuleNotFound) {
		return ReadOut{}, noFile(s.srv.ws, in.File, globNext)
	}
	if err != nil {
		return ReadOut{}, err
	}
	pv, err := preview(b)
	if err != nil {
		return ReadOut{}, fmt.Errorf("%s: %w", p, err)
	}
	return ReadOut{File: in.File, Path: p, Lines: lineCount(b), Partial: true, Preview: pv}, nil
}
