package jsonschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzAgreesWithOracle: for any schema and instance that pass cadrun's rule for JSON input,
// this validator never panics and agrees with the former one on whether the schema compiles
// and on every leaf error, format errors included.
func FuzzAgreesWithOracle(f *testing.F) {
	for _, tc := range differential {
		for _, inst := range tc.insts {
			if tc.docs == nil {
				f.Add(tc.schema, inst)
			}
		}
	}
	f.Fuzz(func(t *testing.T, schema, inst string) {
		if !strictJSON(schema) || !strictJSON(inst) {
			return
		}
		docs := map[string]string{"s.json": schema}
		got, err := askMine(t, docs, "s.json", inst)
		want := askOracle(t, docs, "s.json", inst)
		if want.compiled != got.compiled {
			t.Fatalf("schema %s: compiled: oracle %v, here %v (%v)", schema, want.compiled, got.compiled, err)
		}
		if diff := cmp.Diff(want.leaves, got.leaves); diff != "" {
			t.Fatalf("schema %s, instance %s: mismatch (-oracle +here):\n%s", schema, inst, diff)
		}
	})
}
