package tools

// Data files in the write-and-run transaction. A change to a data file (or to its schema) is
// checked before the program runs: the text must be JSON, and a data file with a schema
// (data/NAME.schema.json) must validate against it. The schema loader reads only the
// workspace's own data files, through the same Source the run uses, so a $ref can neither
// read another file nor see a state that is not the one being committed. Then main runs
// with the change overlaid, as for a script: a data change that breaks the drawing is refused.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/internal/schemacheck"
)

// ErrInvalidData is returned for a data file that is not JSON or does not match its schema.
var ErrInvalidData = schemacheck.ErrInvalidData

// ErrSchemaLimit is returned for a data file or schema whose check passed MaxSchemaTime or
// MaxSchemaMemory, or nested too deeply for the checker, and was stopped.
var ErrSchemaLimit = schemacheck.ErrSchemaLimit

// Limits of checking data files against schemas (see package schemacheck).
const (
	// MaxSchemaErrors caps the schema errors one answer lists.
	MaxSchemaErrors = schemacheck.MaxSchemaErrors
	// MaxSchemaTime is the wall-clock time one check of a data file against its schema may
	// take, the schema's compilation included.
	MaxSchemaTime = schemacheck.MaxSchemaTime
	// MaxSchemaMemory caps the heap of the worker process that checks.
	MaxSchemaMemory = schemacheck.MaxSchemaMemory
)

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
func checkData(ctx context.Context, c modules.Change, src runtime.Source) error {
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
		if err := validate(ctx, src, data, schema); err != nil {
			return err
		}
	}
	return nil
}

// schemas checks data files against their schemas for every server of this process, each
// check in a worker process within MaxSchemaTime and MaxSchemaMemory: the process's shared
// checker, which the tests replace by one that keeps no worker.
var schemas = schemacheck.Shared()

// validate checks data against schema when both exist in src, in a worker process and
// within the schema limits.
func validate(ctx context.Context, src runtime.Source, data, schema string) error {
	return schemas.Check(ctx, src, data, schema)
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
func previewTool(se *Session, in ReadIn) (ReadOut, error) {
	if !modules.IsDataName(in.File) {
		return ReadOut{}, fmt.Errorf("%w: preview is for data files (NAME.json); read %s without it", ErrBadInput, in.File)
	}
	b, p, err := se.srv.ws.Read(in.File)
	if errors.Is(err, runtime.ErrModuleNotFound) {
		return ReadOut{}, noFile(se.srv.ws, in.File, globNext)
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
