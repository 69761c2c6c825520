package tools

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMCPRequiredParameters: over MCP too, a missing code or new_code is an error naming the
// field, not an empty string that deletes; an explicit "" still deletes.
func TestMCPRequiredParameters(t *testing.T) {
	t.Parallel()
	orig := "const x = 10;\ndrawCircle('c', 0, 0, x)\n"
	s, dir := newSession(t, map[string]string{"scene.code.js": orig})
	cs := connectMCP(t, s.srv)
	callMCP(t, cs, "read", map[string]any{"file": "main"})
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"write", map[string]any{"file": "main"}, `bad input: write: give code, or content (code: the complete JavaScript source; for a data file, its JSON text, stored byte for byte; content: a data file's content as a JSON object or array, stored with 2-space indentation)`},
		{"edit", map[string]any{"file": "main", "old_code": "const x = 10;\n"}, `bad input: edit: new_code is missing: old_code needs new_code, the text to put in its place ("" deletes old_code)`},
		{"edit", map[string]any{"file": "main", "FILE": "main", "old_code": "a", "new_code": "b"}, `bad input: edit: unknown parameter "FILE"; did you mean "file"? (names are case-sensitive)`},
	} {
		res := callMCP(t, cs, tt.tool, tt.args)
		if diff := cmp.Diff(tt.want, text(t, res)); diff != "" || !res.IsError {
			t.Errorf("%s %v: isError %v; mismatch (-want +got):\n%s", tt.tool, tt.args, res.IsError, diff)
		}
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != orig {
		t.Fatalf("main changed to %q", got)
	}
	// An explicit empty new_code deletes the text, as before.
	res := callMCP(t, cs, "edit", map[string]any{"file": "main", "old_code": "drawCircle('c', 0, 0, x)\n", "new_code": ""})
	if res.IsError {
		t.Fatalf("edit with new_code \"\": %s", text(t, res))
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "const x = 10;\n" {
		t.Errorf("main after deleting a line: %q", got)
	}
}

func TestToolTypes(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for _, tool := range Tools() {
		got[tool.Name] = tool.Type
	}
	want := map[string]string{
		"glob": "read", "read": "read", "lsp": "read",
		"write": "edit", "edit": "edit", "move": "edit", "delete": "edit", "scene": "edit",
		"search": "read", "save": "edit", "measure": "read", "export": "edit", "import": "edit",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestEditHints: an old_code copied with its line numbers, and an edit of a built-in module,
// each say what is wrong and what to do.
func TestEditHints(t *testing.T) {
	t.Parallel()
	orig := "drawRect('plate', 0, 0, 60, 40)\ndrawCircle('hole', 0, 0, 8)\n"
	s, dir := newSession(t, map[string]string{"scene.code.js": orig})
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in   EditIn
		want string
	}{
		{EditIn{File: "main", OldCode: "     2\tdrawCircle('hole', 0, 0, 8)", NewCode: "drawCircle('hole', 0, 0, 9)"},
			`edit does not apply: old_code was not found, and it looks like it carries line numbers ("     2\tdrawCircle('hole', 0, 0, 8)"), ` +
				"as cat -n and read tools show them; send the file's text without them\nnot applied; the file is unchanged"},
		{EditIn{File: "main", OldCode: "1→drawRect('plate', 0, 0, 60, 40)\n2→drawCircle('hole', 0, 0, 8)\n", NewCode: "x"},
			`edit does not apply: old_code was not found, and it looks like it carries line numbers ("1→drawRect('plate', 0, 0, 60, 40)"), ` +
				"as cat -n and read tools show them; send the file's text without them\nnot applied; the file is unchanged"},
		{EditIn{File: "main", OldCode: "drawCircle('hole', 0, 0, 7)", NewCode: "x"},
			`edit does not apply: old_code was not found; its first 25 bytes match the file at line 2 (ending "ircle('hole', 0, 0, "), where the file goes on with "8)\n" and old_code with "7)"; ` +
				"read the file and copy the text exactly\nnot applied; the file is unchanged"},
		{EditIn{File: "shapes", OldCode: "function star", NewCode: "function star2"},
			"shapes is a built-in module (builtin/shapes.js), which is read-only; to customise it, read shapes and write a copy under a new name " +
				"(such as my_shapes) and import that, or write shapes itself to make a workspace module that replaces the built-in\n" +
				"not applied; the file is unchanged"},
	} {
		_, err := call[*ChangeResult](t, s, "edit", tt.in)
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("edit %q: mismatch (-want +got):\n%s", tt.in.OldCode, diff)
		}
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != orig {
		t.Errorf("main changed to %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "modules")); !os.IsNotExist(err) {
		t.Errorf("modules/ was created: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// FuzzParseParams: any bytes are either refused or parsed to exactly the object that
// encoding/json reads from them, and the parse never panics.
func FuzzParseParams(f *testing.F) {
	for _, s := range []string{
		`{"file":"main","code":"x"}`, `{"file":"main"} x`, `{"a":1}{"b":2}`, `{"a":{"b":[1,{"c":null}]}}`,
		`{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, "{\"a\":\"\xff\"}", `[1,2]`, `null`, ``, `{"a":`, `{1:2}`, `{"a" 1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := parseParams(raw)
		if err != nil {
			return
		}
		if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
			return
		}
		var want map[string]any
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatalf("parseParams accepted %q, which encoding/json refuses: %v", raw, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q: mismatch (-encoding/json +parseParams):\n%s", raw, diff)
		}
	})
}
