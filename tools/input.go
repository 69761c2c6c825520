package tools

// Tool inputs are checked in one place, against one schema per tool, whoever calls: the
// `cadrun tool` runner through Session.Call, MCP clients through a middleware that runs the
// same check before the SDK's handler (the SDK then validates against the same schema, which
// the tool list advertises). Go's JSON decoder alone is too forgiving for inputs that write
// files (see internal/strictjson), and a missing string field is indistinguishable from ""
// once decoded, so `write {"file":"main"}` would empty main. The parameters are therefore
// checked by strictjson's rule first (one value, UTF-8, no key twice, nothing after), then
// against the schema with errors that name the parameter and say what to send, keys matched
// exactly, and only then decoded.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cadrun/cadrun/internal/strictjson"
	"github.com/cadrun/cadrun/runtime"
)

// MaxParamsBytes caps one call's parameters: the largest file a write can land
// (modules.MaxReadBytes) escaped as JSON fits, as does the HTTP transport's body cap.
const MaxParamsBytes = 4 << 20

// schemaAmender is implemented by input types whose schema needs more than inference gives
// (a rule between fields).
type schemaAmender interface {
	amendSchema(s *jsonschema.Schema)
}

// errorDocser is implemented by input types with a parameter whose error needs more than its
// description says: what the tool list says once, in the tool's description, an error says
// again where it is needed (scene's command names its commands). The schema stays as
// advertised.
type errorDocser interface {
	errorDocs() map[string]string
}

// inputSchema infers the input schema of In and applies its amendments.
func inputSchema[In any]() (*jsonschema.Schema, *jsonschema.Resolved, error) {
	// The type table of the output schemas: a JSON value field (write's content) accepts any
	// JSON value rather than an array of bytes.
	s, err := jsonschema.For[In](&jsonschema.ForOptions{TypeSchemas: typeSchemas()})
	if err != nil {
		return nil, nil, err
	}
	var in In
	if a, ok := any(in).(schemaAmender); ok {
		a.amendSchema(s)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, nil, err
	}
	return s, r, nil
}

// checkParams parses a call's parameters strictly and checks them against the tool's
// schema. Empty parameters (no --params, MCP arguments left out or null) are the empty
// object.
func (t *Tool) checkParams(raw []byte) error {
	schema, resolved := t.schema()
	v, err := parseParams(raw)
	if err == nil {
		var docs map[string]string
		if d, ok := reflect.Zero(t.In).Interface().(errorDocser); ok {
			docs = d.errorDocs()
		}
		err = checkObject("", v, schema, nil, docs)
	}
	if err == nil {
		if verr := resolved.Validate(v); verr != nil {
			err = fmt.Errorf("the parameters do not match the tool's input schema: %v", verr)
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrBadInput, t.Name, err)
	}
	return nil
}

// parseParams decodes raw as exactly one JSON object, by cadrun's one rule for JSON input
// (internal/strictjson): valid UTF-8, no key twice in any object, nothing after it.
func parseParams(raw []byte) (map[string]any, error) {
	if len(raw) > MaxParamsBytes {
		return nil, fmt.Errorf("the parameters are %d bytes; the limit is %d (MaxParamsBytes)", len(raw), MaxParamsBytes)
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return map[string]any{}, nil
	}
	if err := strictjson.Check(raw); err != nil {
		var se *strictjson.Error
		errors.As(err, &se)
		switch {
		case errors.Is(err, strictjson.ErrTruncated):
			return nil, errors.New("the parameters are not valid JSON: they end before the object does")
		case errors.Is(err, strictjson.ErrTrailing):
			return nil, fmt.Errorf("there is more after the parameters' JSON object (at offset %d: %q); send exactly one object", se.Offset, se.Detail)
		case errors.Is(err, strictjson.ErrDuplicateKey):
			return nil, err
		}
		return nil, fmt.Errorf("the parameters are %v", err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err // a number out of float64's range
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the parameters must be a JSON object ({...}), not %s", strictjson.Kind(v))
	}
	return obj, nil
}

// checkObject checks the keys of v against s, and those of the objects nested in it:
// unknown keys (with a hint when only the case differs), missing required ones, and
// parameters that need another. at is the path of v in the parameters ("", "edits[0]."); docs
// words a parameter's error in place of its description, by its path (errorDocser). outer is
// the object whose array v is an item of (nil for the parameters themselves): an item's
// parameter without a description of its own is described as outer's of the same name, so
// that the tool list says it once (edit's edits[].old_code is edit's old_code).
func checkObject(at string, v map[string]any, s, outer *jsonschema.Schema, docs map[string]string) error {
	doc := func(k string) string {
		ps := s.Properties[k]
		if o := outer; o != nil && (ps == nil || ps.Description == "") && o.Properties[k] != nil {
			ps = o.Properties[k]
		}
		return paramDoc(docs, at+k, ps)
	}
	if s == nil || s.Properties == nil {
		return nil
	}
	names := propertyNames(s)
	var unknown []string // each with what it was most likely meant to be
	for _, k := range sortedKeys(v) {
		if _, ok := s.Properties[k]; ok {
			continue
		}
		for _, n := range names {
			if strings.EqualFold(n, k) {
				return fmt.Errorf("unknown parameter %q; did you mean %q? (names are case-sensitive)", at+k, at+n)
			}
		}
		u := fmt.Sprintf("%q", at+k)
		if c := runtime.Closest(k, names); c != "" {
			u += fmt.Sprintf(" (did you mean %q?)", at+c)
		} else if c := upstreamParams[k]; slices.Contains(names, c) {
			u += fmt.Sprintf(" (did you mean %q?)", at+c)
		}
		unknown = append(unknown, u)
	}
	switch len(unknown) {
	case 0:
	case 1:
		return fmt.Errorf("unknown parameter %s; the parameters are %s", unknown[0], strings.Join(names, ", "))
	default:
		return fmt.Errorf("unknown parameters %s; the parameters are %s", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	for _, k := range s.Required {
		if _, ok := v[k]; !ok {
			return fmt.Errorf("%s is missing: %s", at+k, doc(k))
		}
	}
	for _, k := range sortedKeys(s.DependentRequired) {
		if _, ok := v[k]; !ok {
			continue
		}
		for _, need := range s.DependentRequired[k] {
			if _, ok := v[need]; !ok {
				return fmt.Errorf("%s is missing: %s needs %s, %s", at+need, at+k, at+need, doc(need))
			}
		}
	}
	// anyOf alternatives that each only require parameters: one set must be there.
	if len(s.AnyOf) > 0 && !slices.ContainsFunc(s.AnyOf, func(alt *jsonschema.Schema) bool {
		return !slices.ContainsFunc(alt.Required, func(k string) bool { _, ok := v[k]; return !ok })
	}) {
		var alts, said []string
		for _, alt := range s.AnyOf {
			alts = append(alts, at+strings.Join(alt.Required, " and "+at))
			for _, k := range alt.Required {
				said = append(said, at+k+": "+doc(k))
			}
		}
		return fmt.Errorf("give %s (%s)", strings.Join(alts, ", or "), strings.Join(said, "; "))
	}
	for _, k := range sortedKeys(v) {
		ps := s.Properties[k]
		switch x := v[k].(type) {
		case map[string]any:
			if err := checkObject(at+k+".", x, ps, nil, docs); err != nil {
				return err
			}
		case []any:
			if ps.Items == nil {
				continue
			}
			for i, e := range x {
				if m, ok := e.(map[string]any); ok {
					if err := checkObject(fmt.Sprintf("%s%s[%d].", at, k, i), m, ps.Items, s, docs); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// paramDoc is what an error says of the parameter at path: its words in docs, its
// description, or its type.
func paramDoc(docs map[string]string, path string, s *jsonschema.Schema) string {
	if d, ok := docs[path]; ok {
		return d
	}
	if s == nil {
		return "a value"
	}
	if s.Description != "" {
		return s.Description
	}
	return "a " + s.Type
}

// propertyNames lists a schema's properties in declaration order.
func propertyNames(s *jsonschema.Schema) []string {
	names := slices.Clone(s.PropertyOrder)
	for _, k := range sortedKeys(s.Properties) {
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	return names
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
