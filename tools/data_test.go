package tools

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const doorSchema = `{"type":"object","properties":{"width":{"type":"number","minimum":600},"height":{"type":"number"}},"required":["width","height"]}`

func doorSession(t *testing.T) (*Session, string) {
	t.Helper()
	return newSession(t, map[string]string{
		"scene.code.js":         "const d = readJSON('door')\ndrawRect('door', 0, 0, d.width, d.height)\n",
		"data/door.json":        "{\n  \"width\": 900,\n  \"height\": 2100\n}\n",
		"data/door.schema.json": doorSchema,
	})
}

func TestWriteData(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"code byte for byte", map[string]any{"file": "door.json", "code": `{"width":700,  "height":2000}`}, `{"width":700,  "height":2000}`},
		{"content indented", map[string]any{"file": "door.json", "content": map[string]any{"width": 700, "height": 2000}}, "{\n  \"height\": 2000,\n  \"width\": 700\n}\n"},
		{"content keeps key order", map[string]any{"file": "door.json", "content": rawJSON(`{"width":700,"height":2000}`)}, "{\n  \"width\": 700,\n  \"height\": 2000\n}\n"},
		{"string holding JSON is parsed", map[string]any{"file": "door.json", "content": `{"width":700,"height":2000}`}, "{\n  \"width\": 700,\n  \"height\": 2000\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := doorSession(t)
			res, err := call[*ChangeResult](t, s, "write", tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("data/door.json", "data/"+res.File); diff != "" {
				t.Error(diff)
			}
			if diff := cmp.Diff(tc.want, fileBytes(t, dir, "data/door.json")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"door"}, res.Changed); diff != "" {
				t.Errorf("the run did not see the new data: mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// TestBadDataIsRefused pins every refusal of a data change, and that nothing is written.
func TestBadDataIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tool   string
		params map[string]any
		want   string
	}{
		{"invalid JSON", "write", map[string]any{"file": "door.json", "code": "{\n  \"width\": 700,\n  \"height\" 5\n}"},
			"invalid data: data/door.json:3:12: invalid character '5' after object key\nnot applied; the file is unchanged"},
		{"truncated JSON", "write", map[string]any{"file": "door.json", "code": "{\n  \"width\": 700,"},
			"invalid data: data/door.json:2:16: the text ends before the JSON value does\nnot applied; the file is unchanged"},
		{"schema", "write", map[string]any{"file": "door.json", "code": "{\n  \"width\": 300,\n  \"height\": \"tall\"\n}\n"},
			"invalid data: data/door.json does not match data/door.schema.json:\ndata/door.json:2:12: /width: minimum: got 300, want 600\ndata/door.json:3:13: /height: got string, want number\nnot applied; the file is unchanged"},
		{"schema, required", "write", map[string]any{"file": "door.json", "content": map[string]any{"width": 700}},
			"invalid data: data/door.json does not match data/door.schema.json:\ndata/door.json:1:1: (the whole value): missing property 'height'\nnot applied; the file is unchanged"},
		{"new schema the data breaks", "write", map[string]any{"file": "door.schema.json", "code": `{"properties":{"width":{"maximum":500}}}`},
			"invalid data: data/door.json does not match data/door.schema.json:\ndata/door.json:2:12: /width: maximum: got 900, want 500\nnot applied; the file is unchanged"},
		{"both code and content", "write", map[string]any{"file": "door.json", "code": "{}", "content": map[string]any{}},
			"bad input: give code (the JSON text) or content (the JSON value), not both\nnot applied; the file is unchanged"},
		{"content a number", "write", map[string]any{"file": "door.json", "content": 5},
			"bad input: content must be a JSON object or array; give code for other JSON text\nnot applied; the file is unchanged"},
		{"content a string that is not JSON", "write", map[string]any{"file": "door.json", "content": "{width: 1}"},
			"invalid data: content is a string that is not JSON text: 1:2: invalid character 'w' looking for beginning of object key string; give an object or array\nnot applied; the file is unchanged"},
		{"content for a script", "write", map[string]any{"file": "main", "content": map[string]any{}},
			"bad input: content is for data files (NAME.json); give a script's source as code\nnot applied; the file is unchanged"},
		{"the run fails", "write", map[string]any{"file": "door.json", "content": map[string]any{"width": 700, "height": 2000, "extra": 1}, "x": 1},
			"bad input: write: unknown parameter \"x\"; the parameters are file, code, content, view"},
		{"data the drawing cannot use", "write", map[string]any{"file": "door.json", "code": `{"width": 1e400, "height": 1}`},
			""},
		{"bad name", "write", map[string]any{"file": "../door.json", "code": "{}"},
			"bad module name: \"../door.json\": a data file is NAME.json or FOLDER/NAME.json (at most 7 folders deep, MaxDataDepth; its schema NAME.schema.json), each part 1-64 letters, digits, '_' or '-', starting with a letter or digit\nnot applied; the file is unchanged"},
		{"ref outside the workspace", "write", map[string]any{"file": "door.schema.json", "code": `{"$ref":"file:///etc/passwd"}`},
			""},
		{"move data to a script", "move", map[string]any{"file": "door.json", "to": "door"},
			"moving data/door.json to modules/door.js: bad module name: a data file stays a data file (NAME.json) and a script a script\nnot applied; the file is unchanged"},
		{"delete data main reads", "delete", map[string]any{"file": "door.json"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := doorSession(t)
			before := userFiles(t, dir)
			_, err := call[*ChangeResult](t, s, tc.tool, tc.params)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != "" {
				if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
			} else if !errors.Is(err, ErrNotApplied) {
				t.Errorf("%v is not ErrNotApplied", err)
			}
			if diff := cmp.Diff(before, userFiles(t, dir)); diff != "" {
				t.Errorf("files changed: mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDataWriteOneInputRule: a data file or schema written follows the one rule for JSON input
// (docs/decisions.md, "One input check"), as readJSON reads it: a key given twice or half a
// surrogate pair is refused with line:col and nothing is written. Such a file had landed, the
// schema check and the script each keeping the last of the two values.
func TestDataWriteOneInputRule(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"code with a key twice", map[string]any{"file": "door.json", "code": "{\n  \"width\": 700,\n  \"height\": 2000,\n  \"width\": 900\n}\n"},
			"invalid data: data/door.json:4:3: the key \"width\" appears twice in one object; send it once\nnot applied; the file is unchanged"},
		{"content string with a key twice", map[string]any{"file": "door.json", "content": `{"width":700,"height":2000,"frame":{"depth":3,"depth":4}}`},
			"invalid data: content is a string that is not JSON text: 1:47: the key \"depth\" appears twice in the object at frame; send it once; give an object or array\nnot applied; the file is unchanged"},
		{"half a surrogate pair", map[string]any{"file": "door.json", "code": `{"width":700,"height":2000,"label":"\udc00"}`},
			"invalid data: data/door.json:1:37: not valid UTF-8 (\\udc00 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\\ud83d\\ude00), or send it as UTF-8\nnot applied; the file is unchanged"},
		{"schema with a key twice", map[string]any{"file": "door.schema.json", "code": `{"properties":{"width":{"minimum":1}},"properties":{}}`},
			"invalid data: data/door.schema.json:1:39: the key \"properties\" appears twice in one object; send it once\nnot applied; the file is unchanged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := doorSession(t)
			before := userFiles(t, dir)
			_, err := call[*ChangeResult](t, s, "write", tc.params)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, userFiles(t, dir)); diff != "" {
				t.Errorf("files changed: mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSchemaRefOneInputRule: a schema a $ref names, and a data file a schema change checks,
// follow the one rule for JSON input though the change does not touch them (an editor may
// have written them): the schema compiler's and validator's own decoding keeps the last of a
// repeated key.
func TestSchemaRefOneInputRule(t *testing.T) {
	s, dir := newSession(t, map[string]string{
		"scene.code.js":                "drawRect('door', 0, 0, 1, 1)\n",
		"data/door.json":               `{"width": 900, "height": 2100}`,
		"data/common/size.schema.json": `{"type": "number", "minimum": 600, "minimum": 0}`,
		"data/frame.json":              `{"depth": 3, "depth": 4}`,
	})
	for _, tc := range []struct{ file, code, want string }{
		{"door.schema.json", `{"properties":{"width":{"$ref":"common/size.schema.json"}}}`,
			`invalid data: data/door.schema.json is not a usable JSON Schema (2020-12): failing loading "cadrun:///data/common/size.schema.json": data/common/size.schema.json:1:36: the key "minimum" appears twice in one object; send it once` + "\nnot applied; the file is unchanged"},
		{"frame.schema.json", `{"properties":{"depth":{"type":"number"}}}`,
			`invalid data: data/frame.json:1:14: the key "depth" appears twice in one object; send it once` + "\nnot applied; the file is unchanged"},
	} {
		before := userFiles(t, dir)
		_, err := call[*ChangeResult](t, s, "write", map[string]any{"file": tc.file, "code": tc.code})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tc.file, diff)
		}
		if diff := cmp.Diff(before, userFiles(t, dir)); diff != "" {
			t.Errorf("%s: files changed: mismatch (-want +got):\n%s", tc.file, diff)
		}
	}
}

func TestSchemaRefToAnotherDataFile(t *testing.T) {
	// A $ref may name another data file of the workspace, read as the change would leave it.
	s, dir := doorSession(t)
	if _, err := call[*ChangeResult](t, s, "write", map[string]any{"file": "common/size.schema.json", "code": `{"type":"number","minimum":600}`}); err != nil {
		t.Fatal(err)
	}
	_, err := call[*ChangeResult](t, s, "write", map[string]any{"file": "door.schema.json", "code": `{"properties":{"width":{"$ref":"common/size.schema.json"}}}`})
	if err != nil {
		t.Fatal(err)
	}
	_, err = call[*ChangeResult](t, s, "write", map[string]any{"file": "door.json", "content": map[string]any{"width": 10, "height": 1}})
	want := "invalid data: data/door.json does not match data/door.schema.json:\ndata/door.json:3:12: /width: minimum: got 10, want 600\nnot applied; the file is unchanged"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "common", "size.schema.json")); err != nil {
		t.Error(err)
	}
}

func TestReadDataPreview(t *testing.T) {
	s, _ := newSession(t, map[string]string{"data/parts.json": `{"name":"kit","items":[{"id":1,"size":[2,3]},{"id":2,"size":[4,5]},{"id":3,"size":[1,1]},{"id":4,"size":[9,9]}],"ok":true,"note":null}`})
	out, err := call[ReadOut](t, s, "read", map[string]any{"file": "parts.json", "preview": true})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"items":{"array":4,"item":{"id":"number","size":{"array":2,"item":"number","sample":[2,3]}},"sample":[{"id":1,"size":[2,3]},{"id":2,"size":[4,5]},{"id":3,"size":[1,1]}]},"name":"string","note":"null","ok":"boolean"}`
	if diff := cmp.Diff(want, string(out.Preview)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	_, err = call[ReadOut](t, s, "read", map[string]any{"file": "main", "preview": true})
	if diff := cmp.Diff("bad input: preview is for data files (NAME.json); read main without it", errString(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestGlobListsDataInFolders(t *testing.T) {
	s, _ := newSession(t, map[string]string{"data/a.json": "{}", "data/catalog/items.json": "[]", "data/.cadrun-tmp-x": "", "data/bad name.json": "{}"})
	out, err := call[GlobOut](t, s, "glob", map[string]any{"pattern": "*.json"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range out.Files {
		got = append(got, f.Name+" "+f.Path+" "+f.Kind)
	}
	if diff := cmp.Diff([]string{"a.json data/a.json data"}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	out, _ = call[GlobOut](t, s, "glob", map[string]any{"pattern": "catalog/*"})
	if len(out.Files) != 1 || out.Files[0].Path != "data/catalog/items.json" {
		t.Errorf("glob catalog/*: %+v", out.Files)
	}
}

// TestExampleBracket runs the example that draws from data: its data matches its schema, and
// a change that breaks the schema is refused with the place it points at.
func TestExampleBracket(t *testing.T) {
	files := map[string]string{}
	for _, p := range []string{"scene.code.js", "modules/plate_lib.js", "data/bracket.json", "data/bracket.schema.json"} {
		b, err := os.ReadFile(filepath.Join("..", "examples", "bracket", p))
		if err != nil {
			t.Fatal(err)
		}
		files[p] = string(b)
	}
	s, _ := newSession(t, files)
	if _, err := call[*ChangeResult](t, s, "edit", map[string]any{"file": "bracket.json", "old_code": `"width": 120`, "new_code": `"width": 140`}); err != nil {
		t.Fatal(err)
	}
	_, err := call[*ChangeResult](t, s, "edit", map[string]any{"file": "bracket.json", "old_code": `"diameter": 14`, "new_code": `"diameter": 0`})
	want := "invalid data: data/bracket.json does not match data/bracket.schema.json:\ndata/bracket.json:10:36: /holes/2/diameter: exclusiveMinimum: got 0, want 0\nnot applied; the file is unchanged"
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// bombSchema has two anyOf branches that each $ref back into it: checking data nested n deep
// against it takes time and memory exponential in n (at 18, 8 s and 1.9 GB unbounded).
const bombSchema = `{"anyOf":[{"type":"array","items":{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}}]}`

// nested is true in n arrays: [[...[true]...]].
func nested(n int) string { return strings.Repeat("[", n) + "true" + strings.Repeat("]", n) }

// schemaLimit matches the refusal of a check stopped at MaxSchemaTime or MaxSchemaMemory,
// whichever it meets first on this machine.
var schemaLimit = regexp.MustCompile(`^schema validation limit exceeded: checking data/d\.json against data/d\.schema\.json ` +
	`(took longer than 2s \(MaxSchemaTime\)|needed more than 256 MB of memory \(MaxSchemaMemory\)) and was stopped; simplify the schema .*\nnot applied; the file is unchanged$`)

// TestSchemaBombIsRefused: a schema, or a data file, whose check is exponential is refused
// at the schema limits, naming the limit, and nothing is written. Depth 17 would take an
// unbounded check about 4 s and 1 GB.
func TestSchemaBombIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		files  map[string]string
		params map[string]any
	}{
		{"the schema written", map[string]string{"data/d.json": nested(17)},
			map[string]any{"file": "d.schema.json", "code": bombSchema}},
		{"the data written", map[string]string{"data/d.schema.json": bombSchema},
			map[string]any{"file": "d.json", "code": nested(17)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["scene.code.js"] = "drawRect('r', 0, 0, 10, 10)\n"
			s, dir := newSession(t, tc.files)
			before := userFiles(t, dir)
			_, err := call[*ChangeResult](t, s, "write", tc.params)
			if err == nil || !schemaLimit.MatchString(err.Error()) {
				t.Fatalf("got %v, want an error matching %s", err, schemaLimit)
			}
			if diff := cmp.Diff(before, userFiles(t, dir)); diff != "" {
				t.Errorf("files changed: mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGlobListsImports: glob names the drawings in imports/ that the import tool reads by
// path (kind import), folders included, and leaves out what it would refuse: a dot file, a
// link, a name against the rule.
func TestGlobListsImports(t *testing.T) {
	s, dir := newSession(t, map[string]string{"imports/plan.dxf": "0\nEOF\n", "imports/logos/mark.svg": "<svg/>",
		"imports/.hidden.dxf": "", "imports/bad|name.dxf": ""})
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "imports", "link.dxf")); err != nil {
		t.Fatal(err)
	}
	out, err := call[GlobOut](t, s, "glob", map[string]any{"pattern": "imports/*"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range out.Files {
		got = append(got, f.Name+" "+f.Kind)
	}
	if diff := cmp.Diff([]string{"imports/plan.dxf import"}, got); diff != "" {
		t.Errorf("glob imports/*: mismatch (-want +got):\n%s", diff)
	}
	out, _ = call[GlobOut](t, s, "glob", nil)
	var imports []string
	for _, f := range out.Files {
		if f.Kind == "import" {
			imports = append(imports, f.Path)
		}
	}
	if diff := cmp.Diff([]string{"imports/logos/mark.svg", "imports/plan.dxf"}, imports); diff != "" {
		t.Errorf("glob: imports mismatch (-want +got):\n%s", diff)
	}
}
