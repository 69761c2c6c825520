package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

func newSession(t testing.TB, files map[string]string) (*Session, string) {
	t.Helper()
	ws, dir := newWorkspace(t, files)
	return NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Session(), dir
}

// newWorkspace opens a workspace in a temporary directory holding files (path -> content).
func newWorkspace(t testing.TB, files map[string]string) (*modules.Workspace, string) {
	t.Helper()
	dir := testws.Files(t, files)
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, dir
}

func call[T any](t *testing.T, s *Session, tool string, params any) (T, error) {
	t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Call(context.Background(), tool, raw)
	var zero T
	if err != nil {
		return zero, err
	}
	return out.(T), nil
}

func fileBytes(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteNewAndOverwrite(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	res, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('a', 0, 0, 1)\ndrawRect('b', 5, 0, 2, 2)"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.Entities != 2 || len(res.Warnings) != 0 || !cmp.Equal(res.Added, []string{"a", "b"}) {
		t.Errorf("first write: %+v", res)
	}
	// A second session has not read the file: it gets the upstream warning.
	other := s.srv.Session()
	res, err = call[*ChangeResult](t, other, "write", WriteIn{File: "main", Code: "drawCircle('a', 0, 0, 2)"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{OverwriteWarning}, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if res.Created || !cmp.Equal(res.Changed, []string{"a"}) || !cmp.Equal(res.Removed, []string{"b"}) {
		t.Errorf("overwrite: %+v", res)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('a', 0, 0, 2)" {
		t.Errorf("file = %q", got)
	}
}

func TestFailedWriteChangesNothing(t *testing.T) {
	t.Parallel()
	orig := "\ufeffdrawCircle('a', 0, 0, 1)\r\n"
	s, dir := newSession(t, map[string]string{"scene.code.js": orig})
	before := s.srv.Scene()
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	_, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('a', 0, 0, 1)\ndrawCirle('b', 0, 0, 1)"})
	if !errors.Is(err, ErrNotApplied) {
		t.Fatalf("got %v", err)
	}
	want := "scene.code.js:2:1: ReferenceError: drawCirle is not defined"
	if !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "not applied; the file is unchanged") {
		t.Errorf("error:\n%s", err)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != orig {
		t.Errorf("file changed to %q", got)
	}
	if s.srv.Scene() != before {
		t.Error("the scene changed")
	}
}

func TestBrokenUnreachableModuleIsRefused(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)"})
	_, err := call[*ChangeResult](t, s, "write", WriteIn{File: "helpers", Code: "export function f() {}\nf(]"})
	if !errors.Is(err, ErrNotApplied) || !strings.HasPrefix(err.Error(), "modules/helpers.js:2:3: SyntaxError") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "modules", "helpers.js")); err == nil {
		t.Error("the broken module was written")
	}
}

func TestEdit(t *testing.T) {
	t.Parallel()
	orig := "\ufeffdrawCircle('a', 0, 0, 1)\r\ndrawCircle('b', 3, 0, 1)\r\ndrawCircle('c', 6, 0, 1)\r\n"
	tests := []struct {
		name string
		in   EditIn
		want string // file after, or the error
		err  bool
	}{
		{"once", EditIn{File: "main", OldCode: "'b', 3", NewCode: "'b', 4"}, strings.Replace(orig, "'b', 3", "'b', 4", 1), false},
		{"crlf kept", EditIn{File: "main", OldCode: "1)\ndrawCircle('b'", NewCode: "2)\ndrawCircle('b'"}, strings.Replace(orig, "1)\r\ndrawCircle('b'", "2)\r\ndrawCircle('b'", 1), false},
		{"literal dollar", EditIn{File: "main", OldCode: "'c'", NewCode: "'$&c'"}, strings.Replace(orig, "'c'", "'$&c'", 1), false},
		{"replace all", EditIn{File: "main", OldCode: ", 0, 1)", NewCode: ", 0, 2)", ReplaceAll: true}, strings.ReplaceAll(orig, ", 0, 1)", ", 0, 2)"), false},
		{"ambiguous", EditIn{File: "main", OldCode: ", 0, 1)", NewCode: "x"}, "edit does not apply: old_code occurs 3 times, at lines 1, 2, 3; add surrounding lines to make it unique, or set replace_all", true},
		{"new_code alone", EditIn{File: "main", NewCode: "x"}, "bad input: edit: old_code is missing: new_code needs old_code, the exact text to replace", true},
		{"missing", EditIn{File: "main", OldCode: "nope", NewCode: "x"}, "edit does not apply: old_code was not found; read the file and copy the text exactly", true},
		{"batch fails at 1", EditIn{File: "main", Edits: []Edit{{OldCode: "'a'", NewCode: "'z'"}, {OldCode: "nope", NewCode: "x"}}}, "edit does not apply: edit 1: old_code was not found; read the file and copy the text exactly", true},
		{"batch", EditIn{File: "main", Edits: []Edit{{OldCode: "'a'", NewCode: "'z'"}, {OldCode: "'z', 0", NewCode: "'z', 9"}}}, strings.Replace(orig, "'a', 0", "'z', 9", 1), false},
		// Near text: where old_code stops matching is named, with the line.
		{"nearly", EditIn{File: "main", OldCode: "drawCircle('b', 3,0, 1)", NewCode: "x"},
			`edit does not apply: old_code was not found; its first 18 bytes match the file at line 2 (ending "drawCircle('b', 3,"), where the file goes on with " 0, 1)\r\ndrawCircle('..." and old_code with "0, 1)"; read the file and copy the text exactly`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, dir := newSession(t, map[string]string{"scene.code.js": orig})
			if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
				t.Fatal(err)
			}
			_, err := call[*ChangeResult](t, s, "edit", tt.in)
			if tt.err {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
					t.Errorf("got %v, want %q", err, tt.want)
				}
				tt.want = orig
			} else if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, fileBytes(t, dir, "scene.code.js")); diff != "" {
				t.Errorf("file mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStaleReadIsRefused(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)"})
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('a', 0, 0, 5)"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('a', 0, 0, 2)"})
	if !errors.Is(err, ErrStale) || !errors.Is(err, ErrNotApplied) {
		t.Fatalf("got %v", err)
	}
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('a', 0, 0, 2)"}); err != nil {
		t.Errorf("after reading again: %v", err)
	}
}

// TestEditOccursNamesLines: old_code found more than once is refused naming the lines it
// starts on, each once, at most maxOccurrenceLines of them.
func TestEditOccursNamesLines(t *testing.T) {
	t.Parallel()
	main := "drawCircle('a', 0, 0, 1)\ndrawCircle('b', 3, 0, 1)\ndrawCircle('c', 6, 0, 1)\n" + strings.Repeat("drawRect('r', 0, 0, 1, 1)\n", 12)
	const tail = "; add surrounding lines to make it unique, or set replace_all\nnot applied; the file is unchanged"
	for _, tt := range []struct{ old, want string }{
		{"0, 1)\ndrawCircle(", "edit does not apply: old_code occurs 2 times, at lines 1 and 2" + tail},
		{"drawCircle('", "edit does not apply: old_code occurs 3 times, at lines 1, 2, 3" + tail},
		{", 0", "edit does not apply: old_code occurs 28 times, at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ... (the first 10)" + tail},
		{"0, 0, 1, 1)\ndrawRect('r', 0, 0, 1, 1)\ndrawRect", "edit does not apply: old_code occurs 5 times, at lines 4, 6, 8, 10, 12" + tail},
	} {
		s, _ := newSession(t, map[string]string{"scene.code.js": main})
		mustCall[ReadOut](t, s, "read", ReadIn{File: "main"})
		_, err := call[*ChangeResult](t, s, "edit", EditIn{File: "main", OldCode: tt.old, NewCode: tt.old})
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tt.old, diff)
		}
	}
}

// TestPartialReadCountsAsRead: a read of some of a file's lines (offset, limit) counts as a
// read of the file, so the next edit has no "not read" warning; the file changing on disk
// after it is still refused as stale.
func TestPartialReadCountsAsRead(t *testing.T) {
	t.Parallel()
	const main = "drawCircle('a', 0, 0, 1)\ndrawCircle('b', 5, 0, 1)\ndrawCircle('c', 10, 0, 1)\n"
	for _, read := range []ReadIn{
		{File: "main", Offset: 2},
		{File: "main", Limit: 1},
		{File: "main", Offset: 3, Limit: 1},
	} {
		s, _ := newSession(t, map[string]string{"scene.code.js": main})
		if _, err := call[ReadOut](t, s, "read", read); err != nil {
			t.Fatal(err)
		}
		res, err := call[*ChangeResult](t, s, "edit", EditIn{File: "main", OldCode: "10, 0, 1", NewCode: "10, 0, 2"})
		if err != nil {
			t.Fatal(err)
		}
		res.Millis = 0
		got, err := AnswerJSON(res)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"file":"main","created":false,"entities":3,"bounds":{"min":[-1,-2],"max":[12,2]},"changed":["c"],"ms":0,"entry":2}`
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("edit after read %+v: mismatch (-want +got):\n%s", read, diff)
		}
	}
	s, dir := newSession(t, map[string]string{"scene.code.js": main})
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main", Limit: 1}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte(main+"// more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := call[*ChangeResult](t, s, "edit", EditIn{File: "main", OldCode: "10, 0, 1", NewCode: "10, 0, 2"})
	want := "the file changed since you read it: scene.code.js changed on disk since this session read it; read it again, then retry\nnot applied; the file is unchanged"
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("edit after the file changed: mismatch (-want +got):\n%s", diff)
	}
}

func TestConcurrentWrites(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	codes := []string{"drawCircle('a', 0, 0, 1)", "drawRect('b', 0, 0, 2, 2)"}
	var wg sync.WaitGroup
	for _, code := range codes {
		wg.Go(func() {
			if _, err := call[*ChangeResult](t, s.srv.Session(), "write", WriteIn{File: "main", Code: code}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got := fileBytes(t, dir, "scene.code.js")
	sc := s.srv.Scene()
	switch got {
	case codes[0]:
		if !sc.Exists("a") || sc.Exists("b") {
			t.Error("scene does not match the file")
		}
	case codes[1]:
		if !sc.Exists("b") || sc.Exists("a") {
			t.Error("scene does not match the file")
		}
	default:
		t.Errorf("file is %q", got)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	tests := []struct {
		tool, params, want string
	}{
		{"write", `{"file":"main","cod":"x"}`, `bad input: write: unknown parameter "cod" (did you mean "code"?); the parameters are file, code, content, view`},
		// Other tools' names for a parameter are matched where spelling cannot find them.
		{"write", `{"path":"main","code":"x"}`, `bad input: write: unknown parameter "path" (did you mean "file"?); the parameters are file, code, content, view`},
		{"read", `{"path":"main"}`, `bad input: read: unknown parameter "path" (did you mean "file"?); the parameters are file, offset, limit, preview`},
		{"edit", `{"file":"main","source":"x"}`, `bad input: edit: unknown parameter "source"; the parameters are file, old_code, new_code, replace_all, edits, view`},
		// Every unknown parameter is named, each with what it most likely meant.
		{"write", `{"fil":"main","cod":"x","zzz":1}`, `bad input: write: unknown parameters "cod" (did you mean "code"?), "fil" (did you mean "file"?), "zzz"; the parameters are file, code, content, view`},
		// Required parameters are enforced: a missing code must not empty main.
		{"write", `{"file":"main"}`, `bad input: write: give code, or content (code: the complete JavaScript source; for a data file, its JSON text, stored byte for byte; content: a data file's content as a JSON object or array, stored with 2-space indentation)`},
		{"write", ``, `bad input: write: file is missing: 'main', a module name such as 'house_lib' (no path, no .js), or a data file such as 'door.json' or 'catalog/items.json'`},
		{"edit", `{"file":"main","old_code":"x"}`, `bad input: edit: new_code is missing: old_code needs new_code, the text to put in its place ("" deletes old_code)`},
		{"edit", `{"file":"main"}`, `bad input: edit: give old_code and new_code, or edits (old_code: the exact text to replace; new_code: the text to put in its place ("" deletes old_code); edits: several edits applied in order, all or nothing)`},
		{"edit", `{"file":"main","edits":[{"old_code":"x"}]}`, `bad input: edit: edits[0].new_code is missing: the text to put in its place ("" deletes old_code)`},
		// The parameters are one JSON object, read strictly.
		{"write", `{"file":"main","code":"x"} trailing`, `bad input: write: there is more after the parameters' JSON object (at offset 26: "trailing"); send exactly one object`},
		{"write", `{"file":"main","code":"x"}{"x":1}`, `bad input: write: there is more after the parameters' JSON object (at offset 26: "{\"x\":1}"); send exactly one object`},
		{"write", `{"FILE":"main","code":"x"}`, `bad input: write: unknown parameter "FILE"; did you mean "file"? (names are case-sensitive)`},
		{"write", `{"file":"main","code":"a","code":"b"}`, `bad input: write: the key "code" appears twice in one object; send it once`},
		{"write", "{\"file\":\"main\",\"code\":\"\xff\"}", `bad input: write: the parameters are not valid UTF-8 (offset 23: byte 0xff); send UTF-8 text`},
		{"write", `[1]`, `bad input: write: the parameters must be a JSON object ({...}), not an array`},
		{"write", `{"file":"main","code":5}`, `bad input: write: the parameters do not match the tool's input schema: validating root: validating /properties/code: type: 5 has type "integer", want "string"`},
		{"write", `{"file":"main",`, `bad input: write: the parameters are not valid JSON: they end before the object does`},
		{"write", `{"file":"../etc/passwd","code":"x"}`, `bad module name: "../etc/passwd": names are 1-64 letters, digits, '_' or '-', starting with a letter or digit (no paths, no .js)` + "\nnot applied; the file is unchanged"},
		{"frob", `{}`, `unknown tool "frob"; the tools are [delete edit export glob import lsp measure move read save scene search write]`},
		// A missing command is answered with the list, as an unknown one is.
		{"scene", `{}`, `bad input: scene: command is missing: one of info, tree, groups, draw_order, entity, svg, json, png, dxf, reset, undo, redo, snapshot, snapshots, selection, diff, sketch, restore, lint`},
		{"scene", `{"command":"explode"}`, `bad input: unknown scene command "explode"; use info, tree, groups, draw_order, entity, svg, json, png, dxf, reset, undo, redo, snapshot, snapshots, selection, diff, sketch, restore, lint`},
		{"read", `{"file":"nope"}`, `modules/nope.js does not exist; the workspace has no files yet (write creates one)`},
	}
	for _, tt := range tests {
		_, err := s.Call(context.Background(), tt.tool, json.RawMessage(tt.params))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s %s: got %v, want %q", tt.tool, tt.params, err, tt.want)
		}
	}
}

// TestDidYouMean: a file or entity name one slip away from one that exists is named.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('button1', 0, 0, 1)", "modules/house_lib.js": "export const x = 1"})
	for _, tt := range []struct{ tool, params, want string }{
		{"read", `{"file":"mian"}`, `modules/mian.js does not exist; did you mean main? (the files are main, house_lib)`},
		{"read", `{"file":"hose_lib"}`, `modules/hose_lib.js does not exist; did you mean house_lib? (the files are main, house_lib)`},
		{"write", `{"file":"main","code":"drawCircle('button1', 0, 0, 1); getEntity('button0')"}`,
			"scene.code.js:1:33: Error: getEntity: no such entity: \"button0\"\n    1 | drawCircle('button1', 0, 0, 1); getEntity('button0')\n                                        ^\n" +
				"hint: did you mean \"button1\"? draw it before using it, and check the spelling; exists(name) tells whether it is there\nnot applied; the file is unchanged"},
	} {
		_, err := s.Call(context.Background(), tt.tool, json.RawMessage(tt.params))
		if err == nil {
			t.Errorf("%s %s: no error", tt.tool, tt.params)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("%s %s mismatch (-want +got):\n%s", tt.tool, tt.params, diff)
		}
	}
}

// TestWriteEmptyCodeEmpties: an explicit "code": "" empties the file on purpose, as upstream
// allows (a missing code is refused: TestBadInput).
func TestWriteEmptyCodeEmpties(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)"})
	if _, err := s.Call(context.Background(), "read", json.RawMessage(`{"file":"main"}`)); err != nil {
		t.Fatal(err)
	}
	res, err := call[*ChangeResult](t, s, "write", json.RawMessage(`{"file":"main","code":""}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "" {
		t.Errorf("main holds %q; want it empty", got)
	}
	if res.Entities != 0 || s.srv.Scene().Exists("c") {
		t.Errorf("the scene still has %d entities", res.Entities)
	}
}

// TestSceneRestoredFromSceneJSON: when main no longer runs, a new server starts from the last
// good scene, losslessly.
func TestSceneRestoredFromSceneJSON(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	code := "drawPolygon('p', [0,0, 10,0, 10,10, 0,10], [[2,2, 2,4, 4,4, 4,2]])\nsetPivot('p', 1, 1)\nrotate('p', 0.3)\ndrawBezier('b', 'M 0 0 C 1 2 3 2 4 0 Z')"
	if _, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: code}); err != nil {
		t.Fatal(err)
	}
	want, _ := s.srv.Scene().MarshalJSON()
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("syntax error ("), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	got, _ := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Scene().MarshalJSON()
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("restored scene mismatch (-want +got):\n%s", diff)
	}
}

// TestDeleteImportedModule: a module the workspace's files import is not deleted, and the
// error names each import by file and line, not "module not found"; a module overriding a
// built-in is deleted, since its imports then find the built-in.
func TestDeleteImportedModule(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{
		"scene.code.js":     "// parts\nimport { bolt } from 'parts'\nimport { wheel } from 'wheels'\nbolt('b'); wheel('w')\n",
		"modules/parts.js":  "export function bolt(n) { drawCircle(n, 0, 0, 1) }\n",
		"modules/wheels.js": "import { bolt } from './parts.js'\nexport function wheel(n) { bolt(n) ; translate(n, 5, 0) }\n",
		"modules/shapes.js": "export const mine = 1\n",
	})
	_, err := call[*ChangeResult](t, s, "delete", DeleteIn{File: "parts"})
	want := "still imported: parts: main imports it at line 2 (import { bolt } from 'parts'); wheels imports it at line 1 (import { bolt } from './parts.js'); " +
		"remove the imports and what uses them, then delete parts\nnot applied; the file is unchanged"
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("delete parts: mismatch (-want +got):\n%s", diff)
	}
	if got := fileBytes(t, dir, "modules/parts.js"); got != "export function bolt(n) { drawCircle(n, 0, 0, 1) }\n" {
		t.Errorf("parts after the refused delete: %q", got)
	}
	if _, err := call[*ChangeResult](t, s, "delete", DeleteIn{File: "shapes"}); err != nil {
		t.Errorf("delete shapes, which overrides a built-in: %v", err)
	}
}

func TestDeleteAndMove(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{
		"scene.code.js":    "import 'gears'\ngear('g')",
		"modules/gears.js": "function gear(n) { drawCircle(n, 0, 0, 5) }",
		"modules/spare.js": "const SPARE = 1",
	})
	// main imports gears: deleting it would break main, so nothing happens.
	_, err := call[*ChangeResult](t, s, "delete", DeleteIn{File: "gears"})
	if !errors.Is(err, ErrNotApplied) || !errors.Is(err, ErrImported) {
		t.Errorf("delete of an imported module: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "modules", "gears.js")); err != nil {
		t.Error("gears.js is gone")
	}
	if _, err := call[*ChangeResult](t, s, "delete", DeleteIn{File: "spare"}); err != nil {
		t.Errorf("delete of an unused module: %v", err)
	}
	if _, err := call[*ChangeResult](t, s, "move", MoveIn{File: "gears", To: "cogs"}); !errors.Is(err, ErrNotApplied) {
		t.Errorf("move of an imported module: %v", err)
	}
	if _, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('x', 0, 0, 1)"}); err != nil {
		t.Fatal(err)
	}
	if _, err := call[*ChangeResult](t, s, "move", MoveIn{File: "gears", To: "cogs"}); err != nil {
		t.Errorf("move of a free module: %v", err)
	}
	if got := fileBytes(t, dir, "modules/cogs.js"); got != "function gear(n) { drawCircle(n, 0, 0, 5) }" {
		t.Errorf("cogs.js = %q", got)
	}
}

func TestSubscribersSeeLandedChanges(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	ch, stop := s.srv.Subscribe()
	defer stop()
	if _, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('a', 0, 0, 1)"}); err != nil {
		t.Fatal(err)
	}
	c := <-ch
	if !cmp.Equal(c.Files, []string{"main"}) || !c.Scene.Exists("a") {
		t.Errorf("change = %v", c.Files)
	}
	// A failed change notifies nobody; a slow reader keeps only the newest change.
	_, _ = call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "oops("})
	for _, code := range []string{"drawCircle('b', 0, 0, 1)", "drawCircle('c', 0, 0, 1)"} {
		if _, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: code}); err != nil {
			t.Fatal(err)
		}
	}
	if c := <-ch; !c.Scene.Exists("c") {
		t.Error("the subscriber did not get the newest change")
	}
	select {
	case c := <-ch:
		t.Errorf("unexpected extra change %v", c.Files)
	default:
	}
}
