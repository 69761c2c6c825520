package tools

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
)

// outputSchema is the output schema of a tool answering Out.
func outputSchema[Out any]() (*jsonschema.Schema, error) {
	return Tool{Out: reflect.TypeFor[Out]()}.OutputSchema()
}

// TestOutputSchemaOwnJSON: the types that write their own JSON are described as they write
// it, so both an empty and a real bounding box pass, and a Go-shaped one does not.
func TestOutputSchemaOwnJSON(t *testing.T) {
	t.Parallel()
	resolve := func(s *jsonschema.Schema, err error) *jsonschema.Resolved {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	change, sceneOut := resolve(outputSchema[*ChangeResult]()), resolve(outputSchema[SceneOut]())
	validate := func(rs *jsonschema.Resolved, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var m any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return rs.Validate(m)
	}
	for _, b := range []geom.Box{{}, {Min: geom.Vec{X: -1, Y: -2}, Max: geom.Vec{X: 3, Y: 4}, NonEmpty: true}} {
		if err := validate(change, ChangeResult{ChangeResult: &engine.ChangeResult{File: "main", Bounds: b}}); err != nil {
			t.Errorf("bounds %+v: %v", b, err)
		}
	}
	goShaped := map[string]any{"file": "main", "created": false, "entities": 0, "ms": 1.0,
		"bounds": map[string]any{"Min": map[string]any{"X": 0, "Y": 0}, "Max": map[string]any{"X": 0, "Y": 0}, "NonEmpty": true}}
	if err := validate(change, goShaped); err == nil {
		t.Error("a Go-shaped bounding box passes the schema")
	}
	if err := validate(sceneOut, SceneOut{PNG: []byte("\x89PNG"), JSON: json.RawMessage(`{"a":[1]}`)}); err != nil {
		t.Errorf("scene png and json: %v", err)
	}
	type unknown struct{ T time.Time }
	if _, err := outputSchema[unknown](); err == nil {
		t.Error("a type with its own JSON form and no schema in typeSchemas is accepted")
	}
}
