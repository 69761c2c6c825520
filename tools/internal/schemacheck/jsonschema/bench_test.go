package jsonschema

import (
	"fmt"
	"strings"
	"testing"
)

// A typical data file and its schema: a catalog of 200 parts, each checked by $ref.
var (
	catalogSchema = `{"type":"object","required":["name","parts"],"properties":{"name":{"type":"string","minLength":1},
"parts":{"type":"array","items":{"$ref":"#/$defs/part"},"uniqueItems":true}},
"$defs":{"part":{"type":"object","required":["id","kind","size"],"additionalProperties":false,"properties":{
"id":{"type":"integer","minimum":1},"kind":{"enum":["bolt","nut","washer"]},"note":{"type":"string","maxLength":80},
"size":{"type":"array","prefixItems":[{"type":"number","exclusiveMinimum":0},{"type":"number","exclusiveMinimum":0}],"items":false}}}}}`
	catalogData = func() string {
		parts := make([]string, 200)
		for i := range parts {
			parts[i] = fmt.Sprintf(`{"id":%d,"kind":"bolt","size":[%d.5,%d],"note":"part number %d"}`, i+1, i%7+1, i%5+2, i)
		}
		return `{"name":"kit","parts":[` + strings.Join(parts, ",") + `]}`
	}()
)

// The same catalog in draft-07, each part with a date-time and an email, which draft-07
// asserts.
var (
	formatsSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","required":["name","parts"],"properties":{"name":{"type":"string","minLength":1},
"parts":{"type":"array","items":{"$ref":"#/definitions/part"},"uniqueItems":true}},
"definitions":{"part":{"type":"object","required":["id","kind","made","contact"],"additionalProperties":false,"properties":{
"id":{"type":"integer","minimum":1},"kind":{"enum":["bolt","nut","washer"]},"made":{"type":"string","format":"date-time"},
"contact":{"type":"string","format":"email"}}}}}`
	formatsData = func() string {
		parts := make([]string, 200)
		for i := range parts {
			parts[i] = fmt.Sprintf(`{"id":%d,"kind":"bolt","made":"2024-%02d-%02dT12:%02d:00.5+01:00","contact":"buyer.%d@example.com"}`, i+1, i%12+1, i%28+1, i%60, i)
		}
		return `{"name":"kit","parts":[` + strings.Join(parts, ",") + `]}`
	}()
)

// BenchmarkCheck is one check as schemacheck makes it: decode the schema and the data,
// compile, validate. The former validator's figure is beside it, for comparison; "formats"
// is the draft-07 catalog, whose formats both assert.
func BenchmarkCheck(b *testing.B) {
	for _, tc := range []struct{ name, schema, data string }{
		{"", catalogSchema, catalogData},
		{"-formats", formatsSchema, formatsData},
	} {
		docs := map[string]string{"s.json": tc.schema}
		b.Run("cadrun"+tc.name, func(b *testing.B) {
			for b.Loop() {
				out, err := askMine(b, docs, "s.json", tc.data)
				if err != nil || len(out.leaves) != 0 {
					b.Fatal(err, out.leaves)
				}
			}
		})
		b.Run("santhosh-tekuri"+tc.name, func(b *testing.B) {
			for b.Loop() {
				if out := askOracle(b, docs, "s.json", tc.data); !out.compiled || len(out.leaves) != 0 {
					b.Fatal(out.leaves)
				}
			}
		})
	}
}
