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

// BenchmarkCheck is one check as schemacheck makes it: decode the schema and the data,
// compile, validate. The former validator's figure is beside it, for comparison.
func BenchmarkCheck(b *testing.B) {
	docs := map[string]string{"s.json": catalogSchema}
	b.Run("cadrun", func(b *testing.B) {
		for b.Loop() {
			out, err := askMine(b, docs, "s.json", catalogData)
			if err != nil || len(out.leaves) != 0 {
				b.Fatal(err, out.leaves)
			}
		}
	})
	b.Run("santhosh-tekuri", func(b *testing.B) {
		for b.Loop() {
			if out := askOracle(b, docs, "s.json", catalogData); !out.compiled || len(out.leaves) != 0 {
				b.Fatal(out.leaves)
			}
		}
	})
}
