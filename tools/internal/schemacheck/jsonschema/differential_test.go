package jsonschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// differential is a table of schemas (with the other documents they $ref) and instances:
// every keyword of every draft, references of each kind, unevaluated*, and combinations.
var differential = []struct {
	name   string
	schema string
	docs   map[string]string // other data files, by name
	insts  []string
}{
	{"type", `{"type":"number"}`, nil, []string{`1`, `"a"`, `null`, `[1]`, `{}`, `true`, `1.5`}},
	{"type list", `{"type":["integer","string","null"]}`, nil, []string{`1`, `1.0`, `1.5`, `"a"`, `null`, `[]`, `{}`, `false`}},
	{"integer", `{"type":"integer"}`, nil, []string{`1`, `1e3`, `1.000`, `1.1`, `-0`, `1e-3`}},
	{"enum", `{"enum":[1,"a",null,true]}`, nil, []string{`1`, `1.0`, `"a"`, `"b"`, `null`, `true`, `false`, `[1]`}},
	{"enum one", `{"enum":["only"]}`, nil, []string{`"only"`, `"x"`}},
	{"enum structured", `{"enum":[[1,2],{"a":1}]}`, nil, []string{`[1,2]`, `[1.0,2]`, `{"a":1.0}`, `{"a":2}`, `[2,1]`}},
	{"const", `{"const":2.50}`, nil, []string{`2.5`, `2.50`, `25e-1`, `2`, `"2.5"`}},
	{"const structured", `{"const":{"a":[1,{"b":null}]}}`, nil, []string{`{"a":[1,{"b":null}]}`, `{"a":[1,{"b":0}]}`}},
	{"const null", `{"const":null}`, nil, []string{`null`, `0`}},
	{"numbers", `{"minimum":1.5,"maximum":1000000,"exclusiveMinimum":0,"exclusiveMaximum":2e6,"multipleOf":0.5}`, nil,
		[]string{`1`, `1.5`, `2.25`, `1000000`, `1000000.5`, `1.7976931348623157e309`, `0`, `-1e400`, `2000000`, `1e-7`}},
	{"numbers exact", `{"multipleOf":0.1,"maximum":0.30000000000000004}`, nil, []string{`0.3`, `0.30000000000000004`, `0.35`, `12345678901234567890.1`}},
	{"big numbers", `{"minimum":1e21,"maximum":1234567.5}`, nil, []string{`1`, `1e22`, `123456789`, `0.00001`, `-123456.789`}},
	{"strings", `{"minLength":2,"maxLength":3,"pattern":"^[a-zż]+$"}`, nil, []string{`"ab"`, `"a"`, `"żółw"`, `"abcd"`, `"A1"`, `"żż"`, `""`, `"it's \"q\"\n"`}},
	{"arrays", `{"minItems":2,"maxItems":3,"uniqueItems":true}`, nil, []string{`[1,2]`, `[1]`, `[1,1.0]`, `[1,2,3,4]`, `[{"a":1},{"a":1.0}]`, `["a",1,"a",1]`}},
	{"unique long", `{"uniqueItems":true}`, nil, []string{`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,3.0]`, `[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]`}},
	{"objects", `{"minProperties":1,"maxProperties":2,"required":["a","b","c"]}`, nil, []string{`{}`, `{"a":1}`, `{"a":1,"b":2,"c":3}`, `{"x":1,"y":2,"z":3}`}},
	{"properties", `{"properties":{"a":{"type":"string"},"b/c~d":{"minimum":3}},"patternProperties":{"^x":{"type":"integer"},"y$":false},"additionalProperties":false}`, nil,
		[]string{`{"a":"s","b/c~d":4}`, `{"a":1,"b/c~d":1}`, `{"x1":1.5,"xy":1}`, `{"q":1,"r":2}`, `{"zzy":null}`}},
	{"additionalProperties schema", `{"properties":{"a":true},"additionalProperties":{"type":"number"}}`, nil, []string{`{"a":"x","b":1}`, `{"b":"x","c":"y"}`}},
	{"propertyNames", `{"propertyNames":{"maxLength":3,"pattern":"^[a-z]"}}`, nil, []string{`{"abc":1}`, `{"abcd":1,"Ab":2}`, `{"":1}`}},
	{"propertyNames false", `{"propertyNames":false}`, nil, []string{`{}`, `{"a":1}`}},
	{"dependentRequired", `{"dependentRequired":{"a":["b","c"],"d":[]}}`, nil, []string{`{"a":1}`, `{"a":1,"b":1,"c":1}`, `{"d":1}`, `{"b":1}`}},
	{"dependentSchemas", `{"dependentSchemas":{"a":{"required":["b"]},"c":false}}`, nil, []string{`{"a":1}`, `{"a":1,"b":2}`, `{"c":1}`}},
	{"prefixItems items", `{"prefixItems":[{"type":"string"},{"type":"number"}],"items":{"type":"boolean"}}`, nil, []string{`["a",1,true,false]`, `[1,"a",3]`, `["a"]`, `[]`}},
	{"items false", `{"prefixItems":[true],"items":false}`, nil, []string{`[1]`, `[1,2,3]`}},
	{"contains", `{"contains":{"type":"string"}}`, nil, []string{`[1,"a"]`, `[1,2]`, `[]`, `["a","b"]`}},
	{"min max contains", `{"contains":{"type":"string"},"minContains":2,"maxContains":3}`, nil, []string{`["a",1,"b"]`, `["a",1]`, `[1,2]`, `["a","b","c","d",5]`, `[]`, `["a"]`}},
	{"minContains 0", `{"contains":{"type":"string"},"minContains":0}`, nil, []string{`[]`, `[1]`}},
	{"allOf anyOf oneOf not", `{"allOf":[{"type":"object"},{"required":["a"]}],"anyOf":[{"required":["b"]},{"required":["c"]}],"oneOf":[{"required":["d"]},{"required":["e"]}],"not":{"required":["f"]}}`, nil,
		[]string{`{"a":1,"b":1,"d":1}`, `{}`, `{"a":1,"b":1,"d":1,"e":1}`, `{"a":1,"c":1,"e":1,"f":1}`, `[]`}},
	{"oneOf none", `{"oneOf":[{"type":"string"},{"minimum":5}]}`, nil, []string{`1`, `"a"`, `7`, `null`}},
	{"if then else", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["x"]},"else":{"required":["y"]}}`, nil, []string{`{"k":"a"}`, `{"k":"b"}`, `{"k":"a","x":1}`, `{"y":1}`}},
	{"if false", `{"if":false,"then":false,"else":{"type":"string"}}`, nil, []string{`1`, `"a"`}},
	{"false schema", `false`, nil, []string{`1`, `{}`}},
	{"true schema", `true`, nil, []string{`1`}},
	{"empty schema", `{}`, nil, []string{`[1,{"a":null}]`}},
	{"defs ref", `{"$defs":{"pos":{"type":"number","minimum":0}},"properties":{"a":{"$ref":"#/$defs/pos"},"b":{"$ref":"#/$defs/pos","maximum":3}}}`, nil,
		[]string{`{"a":1,"b":2}`, `{"a":-1,"b":4}`, `{"a":"x","b":-1}`}},
	{"ref siblings 2020", `{"$ref":"#/$defs/a","required":["y"],"$defs":{"a":{"required":["x"]}}}`, nil, []string{`{}`, `{"x":1,"y":1}`}},
	{"anchor", `{"$defs":{"a":{"$anchor":"thing","type":"string"}},"items":{"$ref":"#thing"}}`, nil, []string{`["a",1]`}},
	{"recursive ref", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name"]}`, nil,
		[]string{`{"name":"a","children":[{"name":"b","children":[{"children":[]}]},{"name":1}]}`}},
	{"ref to another file", `{"properties":{"w":{"$ref":"size.json"},"h":{"$ref":"size.json#/$defs/small"}}}`,
		map[string]string{"size.json": `{"type":"number","minimum":600,"$defs":{"small":{"maximum":10}}}`}, []string{`{"w":700,"h":5}`, `{"w":1,"h":50}`}},
	{"$id and relative ref", `{"$id":"cadrun:///data/sub/a.json","properties":{"x":{"$ref":"b.json"}}}`,
		map[string]string{"sub/b.json": `{"type":"string"}`}, []string{`{"x":"s"}`, `{"x":1}`}},
	{"embedded resource", `{"$defs":{"e":{"$id":"cadrun:///data/emb.json","$defs":{"n":{"type":"null"}},"$ref":"#/$defs/n"}},"$ref":"emb.json"}`, nil, []string{`null`, `1`}},
	{"ref loop", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, nil, []string{`1`}},
	{"ref self", `{"$ref":"#"}`, nil, []string{`1`}},
	{"ref loop with progress", `{"items":{"$ref":"#"},"type":"array"}`, nil, []string{`[[[]]]`, `[[1]]`}},
	{"dynamicRef", `{"$id":"cadrun:///data/tree.json","$dynamicAnchor":"node","type":"object","properties":{"data":true,"children":{"type":"array","items":{"$dynamicRef":"#node"}}}}`, nil,
		[]string{`{"children":[{"data":1}]}`, `{"children":[1]}`}},
	{"dynamicRef extended", `{"$id":"cadrun:///data/strict.json","$dynamicAnchor":"node","$ref":"tree.json","unevaluatedProperties":false}`,
		map[string]string{"tree.json": `{"$id":"cadrun:///data/tree.json","$dynamicAnchor":"node","type":"object","properties":{"data":true,"children":{"type":"array","items":{"$dynamicRef":"#node"}}}}`},
		[]string{`{"children":[{"data":1}]}`, `{"children":[{"daat":1}]}`, `{"x":1}`}},
	{"dynamicRef without anchor", `{"$defs":{"a":{"type":"string"}},"$dynamicRef":"#/$defs/a"}`, nil, []string{`"s"`, `1`}},
	{"unevaluatedProperties", `{"properties":{"a":true},"allOf":[{"properties":{"b":true}}],"anyOf":[{"properties":{"c":true}},{"properties":{"d":true}}],"unevaluatedProperties":false}`, nil,
		[]string{`{"a":1,"b":1,"c":1,"d":1}`, `{"a":1,"e":1,"f":2}`}},
	{"unevaluatedProperties if", `{"if":{"properties":{"t":{"const":1}},"required":["t"]},"then":{"properties":{"x":true}},"else":{"properties":{"y":true}},"unevaluatedProperties":false}`, nil,
		[]string{`{"t":1,"x":1}`, `{"t":1,"y":1}`, `{"t":2,"y":1}`, `{"t":2,"x":1}`}},
	{"unevaluatedProperties schema", `{"patternProperties":{"^a":true},"unevaluatedProperties":{"type":"string"}}`, nil, []string{`{"a1":1,"b":"s","c":2}`}},
	{"unevaluatedProperties failed branch", `{"oneOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"a":{"type":"number"}}}],"unevaluatedProperties":false}`, nil,
		[]string{`{"a":"s"}`, `{"a":null}`, `{"b":1}`}},
	{"unevaluatedProperties nested", `{"properties":{"o":{"$ref":"#/$defs/o"}},"$defs":{"o":{"properties":{"p":true},"unevaluatedProperties":false}}}`, nil, []string{`{"o":{"p":1,"q":2}}`}},
	{"unevaluatedProperties dependentSchemas", `{"dependentSchemas":{"a":{"properties":{"b":true}}},"properties":{"a":true},"unevaluatedProperties":false}`, nil, []string{`{"a":1,"b":1}`, `{"b":1}`}},
	{"unevaluatedItems", `{"prefixItems":[true],"allOf":[{"prefixItems":[true,true]}],"unevaluatedItems":{"type":"string"}}`, nil, []string{`[1,2,"s",4]`, `[1]`, `[1,2,"a","b"]`}},
	{"unevaluatedItems contains", `{"contains":{"type":"string"},"unevaluatedItems":false}`, nil, []string{`["a","b"]`, `["a",1]`, `[1]`}},
	{"unevaluatedItems items", `{"items":true,"unevaluatedItems":false}`, nil, []string{`[1,2]`}},
	{"unevaluatedItems anyOf", `{"anyOf":[{"prefixItems":[true]},{"prefixItems":[true,true]}],"unevaluatedItems":false}`, nil, []string{`[1,2]`, `[1,2,3]`}},
	{"format annotation", `{"format":"email","properties":{"d":{"format":"date-time"}}}`, nil, []string{`"not an email"`, `{"d":"yesterday"}`}},
	{"comment and annotations", `{"$comment":"c","title":"t","description":"d","default":1,"examples":[1],"deprecated":true,"readOnly":true,"writeOnly":false,"contentMediaType":"application/json","contentEncoding":"base64","contentSchema":{"type":"object"}}`, nil, []string{`"e30="`, `1`}},
	{"unknown keywords", `{"x-extra":{"type":"string"},"maximum":1}`, nil, []string{`5`}},
	{"deep combination", `{"type":"object","properties":{"parts":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/bolt"},{"$ref":"#/$defs/nut"}]}}},"$defs":{"bolt":{"type":"object","properties":{"kind":{"const":"bolt"},"d":{"enum":[3,4,5]}},"required":["kind","d"]},"nut":{"type":"object","properties":{"kind":{"const":"nut"}},"required":["kind"],"additionalProperties":false}}}`, nil,
		[]string{`{"parts":[{"kind":"bolt","d":4},{"kind":"nut"}]}`, `{"parts":[{"kind":"bolt","d":6},{"kind":"nut","x":1},{"kind":"washer"},7]}`}},

	// The older drafts, by $schema.
	{"2019-09 recursiveRef", `{"$schema":"https://json-schema.org/draft/2019-09/schema","$id":"cadrun:///data/r.json","$recursiveAnchor":true,"type":"object","properties":{"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}`, nil,
		[]string{`{"kids":[{"kids":[]}]}`, `{"kids":[1]}`}},
	{"2019-09 items array", `{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"string"}],"additionalItems":false,"unevaluatedItems":false}`, nil, []string{`["a"]`, `["a",1,2]`, `[1]`}},
	{"2019-09 contains uneval", `{"$schema":"https://json-schema.org/draft/2019-09/schema","contains":{"type":"string"},"unevaluatedItems":false}`, nil, []string{`["a"]`}},
	{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"number"}},"properties":{"a":{"$ref":"#/definitions/n"}},"items":[{"type":"string"}],"additionalItems":{"type":"number"},"dependencies":{"a":["b"],"c":{"required":["d"]}},"if":{"required":["z"]},"then":{"maxProperties":1}}`, nil,
		[]string{`{"a":1,"b":2}`, `{"a":"x"}`, `{"c":1}`, `["s",1,"t"]`, `{"z":1,"y":2}`}},
	{"draft-07 ref ignores siblings", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","maxLength":1,"const":"xyz"}}}`, nil, []string{`{"a":"xyz"}`, `{"a":"ab"}`, `{"a":1}`}},
	{"draft-06", `{"$schema":"http://json-schema.org/draft-06/schema#","contains":{"const":1},"propertyNames":{"maxLength":1},"exclusiveMaximum":5}`, nil, []string{`[1]`, `[2]`, `{"ab":1}`, `5`, `4`}},
	{"draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","maximum":5,"exclusiveMaximum":true,"minimum":1,"exclusiveMinimum":false,"properties":{"a":{"id":"#x","type":"string"}},"items":{"$ref":"#x"}}`, nil, []string{`5`, `1`, `3`, `{"a":1}`, `["s",2]`}},
	{"draft-04 id base", `{"$schema":"http://json-schema.org/draft-04/schema#","id":"cadrun:///data/d4/","properties":{"a":{"$ref":"t.json"}}}`, map[string]string{"d4/t.json": `{"type":"integer"}`}, []string{`{"a":1}`, `{"a":1.5}`}},
	// Formats: asserted in draft-07 and older, annotations in 2019-09 and 2020-12 (above), as
	// the former validator took them; FormatsAgreeWithOracle holds each format's edge cases.
	{"draft-07 format that holds", `{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv4"}`, nil, []string{`"1.2.3.4"`}},
	{"draft-07 formats", `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"e":{"format":"email"},"d":{"format":"date-time"},"h":{"format":"hostname"},"u":{"format":"uri"},"x":{"format":"idn-email"},"z":{"format":"no-such-format"}}}`, nil,
		[]string{`{"e":"a@b.c","d":"2024-01-01T00:00:00Z","h":"a.b","u":"http://x/"}`, `{"e":"not an email","d":"yesterday","h":"-a","u":"/rel","x":"no","z":"no"}`, `{"e":1,"d":null,"h":[],"u":{}}`}},
	{"draft-06 format", `{"$schema":"http://json-schema.org/draft-06/schema#","format":"json-pointer"}`, nil, []string{`"/a~0"`, `"a"`}},
	{"draft-04 format", `{"$schema":"http://json-schema.org/draft-04/schema#","format":"date-time","type":"string"}`, nil, []string{`"2024-01-01T00:00:00Z"`, `"2024-01-01"`, `5`}},
	{"2019-09 format annotation", `{"$schema":"https://json-schema.org/draft/2019-09/schema","format":"email"}`, nil, []string{`"not an email"`}},
	{"draft-07 format stops the schema", `{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv4","maxLength":3,"pattern":"^a"}`, nil, []string{`"1.2.3.999"`, `"abcd"`, `"1.2.3.4"`}},
	{"draft-07 format after enum", `{"$schema":"http://json-schema.org/draft-07/schema#","format":"uuid","enum":["x","y"]}`, nil, []string{`"x"`, `"z"`}},
	{"draft-07 format beside ref ignored", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","format":"email"}}}`, nil, []string{`{"a":"x"}`}},
	{"draft-07 format in combinations", `{"$schema":"http://json-schema.org/draft-07/schema#","anyOf":[{"format":"ipv4"},{"format":"ipv6"}],"propertyNames":{"format":"hostname"},"items":{"not":{"format":"date"}}}`, nil,
		[]string{`"1.2.3.4"`, `"::1"`, `"x"`, `{"a-b":1,"-x":2}`, `["2024-01-01","x"]`}},
	{"draft-07 format in a file it refs", `{"$schema":"http://json-schema.org/draft-07/schema#","items":{"$ref":"f.json"}}`,
		map[string]string{"f.json": `{"$schema":"http://json-schema.org/draft-07/schema#","format":"semver"}`}, []string{`["1.2.3","1.2"]`}},
	{"2020-12 refs a draft-07 format", `{"items":{"$ref":"f.json"}}`,
		map[string]string{"f.json": `{"$schema":"http://json-schema.org/draft-07/schema#","format":"time"}`}, []string{`["23:59:60Z","12:00:60Z"]`}},
	{"draft-07 refs a 2020-12 format", `{"$schema":"http://json-schema.org/draft-07/schema#","items":{"$ref":"f.json"}}`,
		map[string]string{"f.json": `{"format":"time"}`}, []string{`["12:00:60Z"]`}},

	// Schemas that do not compile: both refuse them.
	{"bad type", `{"type":"nothing"}`, nil, []string{`1`}},
	{"bad minimum", `{"minimum":"1"}`, nil, []string{`1`}},
	{"bad minLength", `{"minLength":-1}`, nil, []string{`1`}},
	{"bad minLength fraction", `{"minLength":1.5}`, nil, []string{`1`}},
	{"minLength 1.0", `{"minLength":1.0}`, nil, []string{`""`}},
	{"bad pattern", `{"pattern":"("}`, nil, []string{`1`}},
	{"bad patternProperties", `{"patternProperties":{"(":{}}}`, nil, []string{`1`}},
	{"bad required", `{"required":["a","a"]}`, nil, []string{`1`}},
	{"bad allOf", `{"allOf":[]}`, nil, []string{`1`}},
	{"bad items", `{"items":[{}]}`, nil, []string{`1`}},
	{"bad ref", `{"$ref":"#/$defs/missing"}`, nil, []string{`1`}},
	{"bad anchor ref", `{"$ref":"#nowhere"}`, nil, []string{`1`}},
	{"ref outside", `{"$ref":"file:///etc/passwd"}`, nil, []string{`1`}},
	{"ref missing file", `{"$ref":"gone.json"}`, nil, []string{`1`}},
	{"bad in defs", `{"$defs":{"x":{"type":5}}}`, nil, []string{`1`}},
	{"bad schema value", `{"not":5}`, nil, []string{`1`}},
	{"bad schema", `5`, nil, []string{`1`}},
	{"unknown draft", `{"$schema":"http://example.com/s"}`, nil, []string{`1`}},
	{"bad multipleOf", `{"multipleOf":0}`, nil, []string{`1`}},
	{"bad enum draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","enum":[]}`, nil, []string{`1`}},
	{"empty enum 2020", `{"enum":[]}`, nil, []string{`1`}},
	{"bad id fragment", `{"$id":"cadrun:///data/x.json#frag"}`, nil, []string{`1`}},
	{"bad anchor name", `{"$anchor":"1a"}`, nil, []string{`1`}},
	{"duplicate anchor", `{"$defs":{"a":{"$anchor":"x"},"b":{"$anchor":"x"}}}`, nil, []string{`1`}},
	{"draft-04 boolean subschema", `{"$schema":"http://json-schema.org/draft-04/schema#","not":true}`, nil, []string{`1`}},
	{"draft-04 exclusiveMaximum alone", `{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMaximum":true}`, nil, []string{`1`}},
	{"ref into a non-schema", `{"properties":{"a":{"default":{"type":"nothing"}}},"$ref":"#/properties/a/default"}`, nil, []string{`1`}},
}

// TestAgreesWithOracle: for each schema and instance, this validator and the former one
// agree on whether the schema compiles and, when it does, on every leaf error: the instance
// location, the schema location and keyword, and the message.
func TestAgreesWithOracle(t *testing.T) {
	t.Parallel()
	for _, tc := range differential {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			docs := map[string]string{"s.json": tc.schema}
			for k, v := range tc.docs {
				docs[k] = v
			}
			for _, inst := range tc.insts {
				want := askOracle(t, docs, "s.json", inst)
				got, err := askMine(t, docs, "s.json", inst)
				if want.compiled != got.compiled {
					t.Fatalf("%s: compiled: oracle %v, here %v (%v)", inst, want.compiled, got.compiled, err)
				}
				if diff := cmp.Diff(want.leaves, got.leaves); diff != "" {
					t.Errorf("%s: mismatch (-oracle +here):\n%s", inst, diff)
				}
			}
		})
	}
}
