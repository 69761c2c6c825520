package strictjson

// Decode is for bodies with fixed fields (the viewer's selection and strokes). encoding/json
// matches a key to a field regardless of case, so {"selected":["a"],"Selected":["b"]} would
// pass Check and still set one field twice; the keys are therefore compared with the fields'
// names exactly before the value is decoded.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Decode checks b with Check and decodes it into v, a non-nil pointer. When v points to a
// struct, b must be an object (not null) whose keys, and those of the objects nested in it
// that decode into structs, each name a field exactly (case included).
func Decode(b []byte, v any) error {
	if err := Check(b); err != nil {
		return err
	}
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Errorf("strictjson.Decode needs a pointer, got %T", v)
	}
	if t.Elem().Kind() == reflect.Struct {
		var tree any
		if err := json.Unmarshal(b, &tree); err != nil {
			return err
		}
		if _, ok := tree.(map[string]any); !ok {
			return &Error{Err: ErrNotObject, Detail: fmt.Sprintf("want a JSON object ({...}), not %s", Kind(tree))}
		}
		if err := exactKeys(nil, tree, t.Elem()); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// exactKeys checks the keys of the objects in v against the structs of t, where t has them.
func exactKeys(path []step, v any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fields := jsonFields(t)
			names := slices.Sorted(maps.Keys(fields))
			for _, k := range slices.Sorted(maps.Keys(x)) {
				ft, ok := fields[k]
				if !ok {
					return unknownKey(path, k, names)
				}
				if err := exactKeys(append(path, step{key: k, isKey: true}), x[k], ft); err != nil {
					return err
				}
			}
		case reflect.Map:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if err := exactKeys(append(path, step{key: k, isKey: true}), x[k], t.Elem()); err != nil {
					return err
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, e := range x {
				if err := exactKeys(append(path, step{index: i}), e, t.Elem()); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func unknownKey(path []step, k string, names []string) error {
	var p []byte
	for _, st := range path {
		p = appendStep(p, st)
	}
	e := &Error{Err: ErrUnknownKey, Path: string(p), Key: k, Detail: "the keys are " + strings.Join(names, ", ")}
	for _, n := range names {
		if strings.EqualFold(n, k) {
			e.Detail = fmt.Sprintf("did you mean %q? (keys are case-sensitive)", n)
		}
	}
	if len(names) == 0 {
		e.Detail = "the object takes no keys"
	}
	return e
}

// jsonFields maps the JSON names of t's fields, as encoding/json names them, to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for n, t := range jsonFields(ft) {
					if _, shadowed := out[n]; !shadowed {
						out[n] = t
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// Kind names the JSON kind of a decoded value ("an array", "a string", "null", ...), for
// errors that say what was given.
func Kind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "an object"
}
