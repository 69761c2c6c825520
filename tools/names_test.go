package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileNamesAsPrinted: a file named the way cadrun's answers print it (its path, or with
// .js) is the file it obviously means, on every tool that takes one.
func TestFileNamesAsPrinted(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{
		"scene.code.js":       "import {gear} from 'gear_lib'\ngear('g')\n",
		"modules/gear_lib.js": "export function gear(n) { drawCircle(n, 0, 0, 5) }\n",
		"data/door.json":      `{"w": 1}`,
	})
	for _, name := range []string{"gear_lib.js", "modules/gear_lib.js", "./modules/gear_lib.js", "builtin/gear_lib.js"} {
		out := mustCall[ReadOut](t, s, "read", ReadIn{File: name})
		if diff := cmp.Diff("gear_lib modules/gear_lib.js", out.File+" "+out.Path); diff != "" {
			t.Errorf("read %q: mismatch (-want +got):\n%s", name, diff)
		}
	}
	for _, name := range []string{"scene.code.js", "main.js", "./scene.code.js"} {
		out := mustCall[ReadOut](t, s, "read", ReadIn{File: name})
		if diff := cmp.Diff("main scene.code.js", out.File+" "+out.Path); diff != "" {
			t.Errorf("read %q: mismatch (-want +got):\n%s", name, diff)
		}
	}
	out := mustCall[ReadOut](t, s, "read", ReadIn{File: "data/door.json"})
	if diff := cmp.Diff("door.json data/door.json", out.File+" "+out.Path); diff != "" {
		t.Errorf("read data/door.json: mismatch (-want +got):\n%s", diff)
	}
	res := write(t, s, "main.js", "import {gear} from 'gear_lib'\ngear('h')\n")
	if diff := cmp.Diff("main", res.File); diff != "" {
		t.Errorf("write main.js: mismatch (-want +got):\n%s", diff)
	}
	mustCall[*ChangeResult](t, s, "edit", EditIn{File: "modules/gear_lib.js", OldCode: "5", NewCode: "6"})
	mustCall[LSPOut](t, s, "lsp", LSPIn{Operation: "symbols", File: "gear_lib.js"})
	mustCall[*ChangeResult](t, s, "write", WriteIn{File: "modules/spare.js", Code: "export const x = 1\n"})
	mustCall[*ChangeResult](t, s, "move", MoveIn{File: "spare.js", To: "modules/spare2.js"})
	mustCall[*ChangeResult](t, s, "delete", DeleteIn{File: "modules/spare2.js"})

	// What cannot mean a file is still refused in its own words.
	_, err := call[ReadOut](t, s, "read", ReadIn{File: "modules/../etc/passwd.js"})
	want := `bad module name: "modules/../etc/passwd.js": names are 1-64 letters, digits, '_' or '-', starting with a letter or digit (no paths, no .js)`
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestFileNameCase: a name that differs only in case from a file is answered with the file's
// name.
func TestFileNameCase(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{
		"scene.code.js":       "drawCircle('c', 0, 0, 1)\n",
		"modules/Gear_lib.js": "export const x = 1\n",
	})
	tests := []struct {
		tool, params, want string
	}{
		{"read", `{"file":"gear_lib"}`, "modules/gear_lib.js does not exist; did you mean Gear_lib? (names are case-sensitive)"},
		{"read", `{"file":"modules/gear_lib.js"}`, "modules/gear_lib.js does not exist; did you mean Gear_lib? (names are case-sensitive)"},
		{"edit", `{"file":"gear_lib","old_code":"1","new_code":"2"}`, "modules/gear_lib.js does not exist; did you mean Gear_lib? (names are case-sensitive)\nnot applied; the file is unchanged"},
		{"delete", `{"file":"gear_lib"}`, "modules/gear_lib.js does not exist; did you mean Gear_lib? (names are case-sensitive)\nnot applied; the file is unchanged"},
		{"lsp", `{"operation":"symbols","file":"gear_lib"}`, "modules/gear_lib.js does not exist; did you mean Gear_lib? (names are case-sensitive)"},
		{"read", `{"file":"gear"}`, "modules/gear.js does not exist; glob lists the files there are"},
	}
	for _, tt := range tests {
		_, err := s.Call(context.Background(), tt.tool, json.RawMessage(tt.params))
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("%s %s: mismatch (-want +got):\n%s", tt.tool, tt.params, diff)
		}
	}
}
