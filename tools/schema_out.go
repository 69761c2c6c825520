package tools

// Output schemas of the tools. A schema inferred from Go fields alone would be wrong for
// the types that write their own JSON (a geom.Box is null or {"min":[x,y],"max":[x,y]}, not
// {"Min":{"X":..}}), so inference runs with a type -> schema table giving the JSON form of
// each such type. outputSchema refuses a type that marshals itself and is not in the table,
// so a new one cannot slip through with a schema that rejects the tool's own answers.

import (
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"sync"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/jsonschema-go/jsonschema"
)

// typeSchemas maps each type with its own JSON form to a schema for that form.
// An interface field may hold any value; it gets an explicit list of every JSON type rather
// than the empty schema, which marshals as `true` and which some clients refuse as a property.
// Built at the first schema asked for, not as the package initialises: a command that lists
// no tools (`cadrun version`) would pay for it.
var typeSchemas = sync.OnceValue(func() map[reflect.Type]*jsonschema.Schema {
	number := func() *jsonschema.Schema { return &jsonschema.Schema{Type: "number"} }
	tuple := func(n int) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: number(), MinItems: jsonschema.Ptr(n), MaxItems: jsonschema.Ptr(n)}
	}
	anyValue := func() *jsonschema.Schema {
		return &jsonschema.Schema{Types: []string{"null", "boolean", "number", "string", "array", "object"}}
	}
	m := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[any]():             anyValue(),
		reflect.TypeFor[json.RawMessage](): anyValue(),
		reflect.TypeFor[geom.Vec]():        tuple(2), // [x, y]
		reflect.TypeFor[geom.Affine]():     tuple(6), // [a, b, c, d, e, f]
		// null when empty.
		reflect.TypeFor[geom.Box](): {
			Types:                []string{"null", "object"},
			Properties:           map[string]*jsonschema.Schema{"min": tuple(2), "max": tuple(2)},
			Required:             []string{"min", "max"},
			AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		},
		reflect.TypeFor[[]byte](): {Types: []string{"null", "string"}, ContentEncoding: "base64"},
	}
	maps.Copy(m, viewSchemas()) // view.go
	return m
})

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// OutputSchema returns the schema of the JSON the tool's answer marshals to. A pointer is
// described by its element, so the schema's root is an object for every tool, as MCP
// clients expect.
func (tool Tool) OutputSchema() (*jsonschema.Schema, error) {
	t := tool.Out
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if err := checkSchemaTypes(t, map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("output schema of %v: %w", t, err)
	}
	return jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: typeSchemas()})
}

// checkSchemaTypes reports a type reachable from t that writes its own JSON but has no entry
// in typeSchemas, or an interface other than any (which would get the empty schema).
func checkSchemaTypes(t reflect.Type, seen map[reflect.Type]bool) error {
	if seen[t] || typeSchemas()[t] != nil {
		return nil
	}
	seen[t] = true
	for _, m := range []reflect.Type{jsonMarshaler, textMarshaler} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return fmt.Errorf("%v implements %v but has no schema in typeSchemas", t, m)
		}
	}
	switch t.Kind() {
	case reflect.Interface:
		return fmt.Errorf("interface %v has no schema in typeSchemas", t)
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return checkSchemaTypes(t.Elem(), seen)
	case reflect.Map:
		return checkSchemaTypes(t.Elem(), seen)
	case reflect.Struct:
		for f := range t.Fields() {
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			if err := checkSchemaTypes(f.Type, seen); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
	}
	return nil
}
