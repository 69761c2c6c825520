package schemacheck

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// FuzzPointerOffsets: any text and pointers give offsets inside the text, never a panic.
func FuzzPointerOffsets(f *testing.F) {
	f.Add(`{"a":[1,{"b~/c":2}]}`, "/a/1/b~0~1c")
	f.Add(`[[],[[3]]]`, "/1/0/0")
	f.Add(`{"a":`, "/a")
	f.Fuzz(func(t *testing.T, text, ptr string) {
		want := map[string]int{ptr: 0, "": 0}
		pointerOffsets([]byte(text), want)
		for p, off := range want {
			if off < 0 || off > len(text) {
				t.Fatalf("%q: offset %d outside %d bytes", p, off, len(text))
			}
		}
	})
}

// FuzzLineCols: one pass over the text gives each offset at a character's start (as a JSON
// value's always is) the line and column that runtime.LineCol counts from the text's start.
func FuzzLineCols(f *testing.F) {
	f.Add("{\n  \"a\": \"żółw\",\n\"b\": 1}", 3, 12, 20)
	f.Fuzz(func(t *testing.T, text string, a, b, c int) {
		offsets := map[string]int{}
		for name, off := range map[string]int{"a": a, "b": b, "c": c} {
			if off = max(0, min(off, len(text))); off == len(text) || utf8.RuneStart(text[off]) {
				offsets[name] = off
			}
		}
		got := lineCols([]byte(text), offsets)
		for _, off := range offsets {
			line, col := runtime.LineCol([]byte(text), off)
			if diff := cmp.Diff([2]int{line, col}, got[off]); diff != "" {
				t.Fatalf("offset %d of %q: mismatch (-want +got):\n%s", off, text, diff)
			}
		}
	})
}

// TestUnusableSchemaSaysWhere: a schema that is not a usable JSON Schema is refused with
// the file, the place in it and what the keyword must be, for the schema a data file names
// and for one it $refs.
func TestUnusableSchemaSaysWhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  runtime.MapSource
		want string
	}{
		{"a keyword's value", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"properties":{"w":{"type":"nothing","minimum":"1"}}}`},
			"invalid data: data/d.schema.json is not a usable JSON Schema (2020-12): data/d.schema.json at /properties/w/minimum: want a number, got a string; " +
				"at /properties/w/type: want one of array, boolean, integer, null, number, object, string, or a non-empty array of them, each once; got 'nothing'"},
		{"in a file it refers to", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"$ref":"w.json"}`, "w.json": `{"required":"w"}`},
			"invalid data: data/d.schema.json is not a usable JSON Schema (2020-12): data/w.json at /required: want an array of property names, got a string"},
		{"a pattern", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"pattern":"(x"}`},
			"invalid data: data/d.schema.json is not a usable JSON Schema (2020-12): data/d.schema.json at /pattern: \"(x\" is not a regular expression (Go's RE2 syntax): error parsing regexp: missing closing ): `(x`"},
		{"a reference to nothing", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"$ref":"#/$defs/gone"}`},
			`invalid data: data/d.schema.json is not a usable JSON Schema (2020-12): nothing is at "data/d.schema.json#/$defs/gone"; fix the $ref's JSON pointer`},
		{"an anchor that is not there", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"$ref":"#gone"}`},
			`invalid data: data/d.schema.json is not a usable JSON Schema (2020-12): no schema in data/d.schema.json has the anchor "gone" that data/d.schema.json#gone names; add "$anchor": "gone" to the schema meant, or fix the $ref`},
		{"a draft it does not know", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"$schema":"http://example.com/s"}`},
			`invalid data: data/d.schema.json is not a usable JSON Schema (2020-12): $schema "http://example.com/s" at data/d.schema.json# is not a draft this validator knows; ` +
				"name https://json-schema.org/draft/2020-12/schema (or 2019-09, draft-07, -06, -04), or leave $schema out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Validate(tc.src, "d.json", "d.schema.json")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFormatsByDraft: a data file whose schema names draft-07 (or -06, -04) is checked
// against its formats, as before the validator was cadrun's own; in 2020-12 (the default)
// and 2019-09 format is an annotation.
func TestFormatsByDraft(t *testing.T) {
	t.Parallel()
	data := "{\n  \"contact\": \"not an email\",\n  \"since\": \"2024-02-30\"\n}"
	props := `"properties":{"contact":{"type":"string","format":"email"},"since":{"format":"date"}}`
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#",` + props + `}`,
			"invalid data: data/d.json does not match data/d.schema.json:\n" +
				"data/d.json:2:14: /contact: 'not an email' is not valid email: missing @\n" +
				"data/d.json:3:12: /since: '2024-02-30' is not valid date: parsing time \"2024-02-30\": day out of range"},
		{"draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#",` + props + `}`,
			"invalid data: data/d.json does not match data/d.schema.json:\n" +
				"data/d.json:2:14: /contact: 'not an email' is not valid email: missing @\n" +
				"data/d.json:3:12: /since: '2024-02-30' is not valid date: parsing time \"2024-02-30\": day out of range"},
		{"2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema",` + props + `}`, ""},
		{"2020-12", `{` + props + `}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Validate(runtime.MapSource{"d.json": data, "d.schema.json": tc.schema}, "d.json", "d.schema.json")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// countedFiles counts the reads of each file.
type countedFiles struct {
	runtime.MapSource
	reads map[string]int
}

func (c countedFiles) Read(name string) ([]byte, string, error) {
	c.reads[name]++
	return c.MapSource.Read(name)
}

// TestSchemaReadOnce: a check reads each file once: the schema it starts from is not read
// (and syntax-checked) again when the compiler loads it, nor when another schema $refs it.
func TestSchemaReadOnce(t *testing.T) {
	t.Parallel()
	src := countedFiles{runtime.MapSource{
		"d.json":        `{"a":1,"b":"x"}`,
		"d.schema.json": `{"properties":{"a":{"$ref":"num.json"},"b":{"type":"string"},"c":{"$ref":"d.schema.json"}}}`,
		"num.json":      `{"type":"number"}`,
	}, map[string]int{}}
	if err := Validate(src, "d.json", "d.schema.json"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"d.json": 1, "d.schema.json": 1, "num.json": 1}, src.reads); diff != "" {
		t.Errorf("reads per file (-want +got):\n%s", diff)
	}
}
