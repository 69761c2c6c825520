// Package schemacheck checks a workspace's data files against their JSON Schemas (2020-12),
// in a worker process of its own.
//
// Why a process: a schema is user input, and validating with it is not bounded by its size.
// Two anyOf branches that each $ref back into the schema make the check exponential in the
// data's depth (a few dozen bytes of each can take seconds and gigabytes), and a validator
// cannot be interrupted, nor its memory capped, in
// the process that called it. So a Checker runs each check in a child process (this
// executable again, started with CADRUN_WORKER=schema) under the same kind of bounds as a
// script's worker (a heap cap, an address-space cap, a stack cap) and a deadline, and kills
// it past them: a kind of internal/job's bounded jobs. The child asks the parent for every file it reads, so the caller's Source,
// with its overlays, stays the one source of files, and the child reads nothing itself.
//
// Why a package of its own: the child serves from this package's init function, which runs
// once the validator is ready and before the packages only the parent needs (the MCP
// server, SQLite, HTTP) are initialised; and a script worker (internal/worker), which never
// imports this package, never pays for the validator's start-up.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/internal/schemacheck/jsonschema"
)

// ErrInvalidData is returned for a data file that is not JSON or does not match its schema,
// and for a schema that is not JSON or not a usable JSON Schema.
var ErrInvalidData = errors.New("invalid data")

// MaxSchemaErrors caps the schema errors one answer lists.
const MaxSchemaErrors = 50

// schemaBase is the URL the data folder has for the schema compiler; it names no real file.
const schemaBase = "cadrun:///data/"

// Files reads workspace files by logical name; runtime.Source is one.
type Files interface {
	Read(name string) ([]byte, string, error)
}

// Validate checks data against schema when both exist in src, in this process and without
// bounds: a Checker runs it in its worker. A missing schema or data file is no error; a
// schema that does not compile is one even without data.
func Validate(src Files, data, schema string) error {
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
	// The compiler asks for the schema again through the loader: it gets the bytes just read
	// and checked, so a check reads and syntax-checks each schema file once.
	load := schemaLoader{src: src, name: schema, read: sb}
	sch, err := jsonschema.NewCompiler(load.Load, jsonschema.Draft2020).Compile(schemaBase + schema)
	if err != nil {
		return fmt.Errorf("%w: %s is not a usable JSON Schema (2020-12): %v", ErrInvalidData, spath, schemaProblems(err))
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
	inst, err := jsonschema.Decode(db)
	if err != nil {
		return fmt.Errorf("%w: %s:%s", ErrInvalidData, dpath, runtime.JSONSyntaxError(db))
	}
	failures := sch.Validate(inst)
	if len(failures) == 0 {
		return nil
	}
	type leaf struct{ ptr, msg string }
	found := make([]leaf, 0, len(failures))
	for _, f := range failures {
		ptr := ""
		for _, seg := range f.Instance {
			ptr += "/" + strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
		}
		found = append(found, leaf{ptr, f.Message})
	}
	want := make(map[string]int, len(found))
	for _, l := range found {
		want[l.ptr] = 0
	}
	pointerOffsets(db, want)
	at := lineCols(db, want)
	lines := make([]string, 0, len(found))
	for _, l := range found {
		line, col := at[want[l.ptr]][0], at[want[l.ptr]][1]
		ptr := l.ptr
		if ptr == "" {
			ptr = "(the whole value)"
		}
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s: %s", dpath, line, col, ptr, l.msg))
	}
	sort.Strings(lines)
	lines = sortedUnique(lines)
	if len(lines) > MaxSchemaErrors {
		lines = append(lines[:MaxSchemaErrors], fmt.Sprintf("... and %d more (MaxSchemaErrors)", len(lines)-MaxSchemaErrors))
	}
	return fmt.Errorf("%w: %s does not match %s:\n%s", ErrInvalidData, dpath, spath, strings.Join(lines, "\n"))
}

// lineCols is the 1-based line and column (in characters, as runtime.LineCol) of each
// offset in offsets' values, each at a character's start, reading b once: a line:col per error, each counted from the
// start, made a data file with many errors quadratic.
func lineCols(b []byte, offsets map[string]int) map[int][2]int {
	sorted := make([]int, 0, len(offsets))
	for _, off := range offsets {
		sorted = append(sorted, max(0, min(off, len(b))))
	}
	slices.Sort(sorted)
	out := make(map[int][2]int, len(sorted))
	pos, line, col := 0, 1, 0 // col: characters since the line's start, up to pos
	for _, off := range sorted {
		seg := b[pos:off]
		for {
			i := bytes.IndexByte(seg, '\n')
			if i < 0 {
				break
			}
			line, col, seg = line+1, 0, seg[i+1:]
		}
		col += utf8.RuneCount(seg)
		pos = off
		out[off] = [2]int{line, col + 1}
	}
	return out
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
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
// The schema Validate starts from (name) comes with its bytes (read), already read and
// found to be JSON.
type schemaLoader struct {
	src  Files
	name string
	read []byte
}

func (l schemaLoader) Load(url string) (any, error) {
	name, ok := strings.CutPrefix(url, schemaBase)
	if !ok || modules.CheckDataName(name) != nil {
		return nil, fmt.Errorf("%q is outside the workspace's data files; a $ref may name only data/NAME.json files", url)
	}
	if name == l.name && l.read != nil {
		return jsonschema.Decode(l.read)
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
	return jsonschema.Decode(b)
}

// schemaProblems names the file each of a schema's problems is in, as a path of the
// workspace: the schema itself or one it $refs.
func schemaProblems(err error) error {
	var se *jsonschema.SchemaError
	if !errors.As(err, &se) {
		return err
	}
	msg := strings.ReplaceAll(se.Error(), schemaBase, "data/")
	if se.URL == "" {
		return errors.New(msg)
	}
	return fmt.Errorf("%s %s", runtime.PathOf(strings.TrimPrefix(se.URL, schemaBase)), msg)
}

// pointerOffsets sets each JSON pointer in want to the byte offset in b (valid JSON) of the
// value it names, leaving 0 for one it does not find. It reads b once, whatever the number
// of pointers: one scan per error made a data file with many errors quadratic.
func pointerOffsets(b []byte, want map[string]int) {
	depths := map[int]bool{}
	for ptr := range want {
		depths[strings.Count(ptr, "/")] = true
	}
	type frame struct {
		obj       bool
		key       string
		idx       int
		expectKey bool
	}
	var stack []frame
	pointer := func() string {
		var sb strings.Builder
		for _, f := range stack {
			seg := f.key
			if !f.obj {
				seg = strconv.Itoa(f.idx)
			}
			sb.WriteByte('/')
			sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1"))
		}
		return sb.String()
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
	left := len(want)
	dec := json.NewDecoder(bytes.NewReader(b))
	for left > 0 {
		off := int(dec.InputOffset())
		for off < len(b) && strings.IndexByte(" \t\r\n,:", b[off]) >= 0 {
			off++
		}
		tok, err := dec.Token()
		if err != nil {
			return
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
		if depths[len(stack)] {
			if p := pointer(); hasKey(want, p) { // each value has its one pointer: seen once
				want[p] = off
				left--
			}
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
