package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
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
		{"read", `{"file":"gear"}`, "modules/gear.js does not exist; the files are main, Gear_lib"},
	}
	for _, tt := range tests {
		_, err := s.Call(context.Background(), tt.tool, json.RawMessage(tt.params))
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("%s %s: mismatch (-want +got):\n%s", tt.tool, tt.params, diff)
		}
	}
}

// TestReadOverTheCap: a file over MaxReadBytes is read in parts of whole lines, and each part
// says where to read on.
func TestReadOverTheCap(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	for i := 1; i <= 6000; i++ {
		fmt.Fprintf(&big, "// %05d%s\n", i, strings.Repeat("x", 91)) // 100 bytes a line
	}
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n", "modules/big.js": big.String()})
	line := func(i int) string { return fmt.Sprintf("// %05d%s\n", i, strings.Repeat("x", 91)) }
	lines := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			b.WriteString(line(i))
		}
		return b.String()
	}
	tests := []struct {
		in   ReadIn
		want ReadOut
	}{
		{ReadIn{File: "big"}, ReadOut{Content: lines(1, 5120), Lines: 5120,
			Truncated: "the file is over 512000 bytes (MaxReadBytes), so it is read in parts: this is lines 1-5120; read on with offset 5121 (limit sets how many lines)"}},
		{ReadIn{File: "big", Offset: 5121}, ReadOut{Content: lines(5121, 6000), Lines: 880}},
		{ReadIn{File: "big", Offset: 10, Limit: 3}, ReadOut{Content: lines(10, 12), Lines: 3,
			Truncated: "the file is over 512000 bytes (MaxReadBytes), so it is read in parts: this is lines 10-12; read on with offset 13 (limit sets how many lines)"}},
	}
	for _, tt := range tests {
		got := mustCall[ReadOut](t, s, "read", tt.in)
		tt.want.File, tt.want.Path, tt.want.Partial = "big", "modules/big.js", true
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("read %+v: mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
	_, err := call[ReadOut](t, s, "read", ReadIn{File: "big", Offset: 7000})
	if diff := cmp.Diff("bad input: offset 7000 is past the end (6000 lines)", errString(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestAnswersNotHTMLEscaped: the JSON text of an answer shows <, > and & as they are.
func TestAnswersNotHTMLEscaped(t *testing.T) {
	t.Parallel()
	code := "const r = 2 > 1 && 1 < 2 ? 5 : 1\ndrawCircle('c', 0, 0, r)\n"
	cs := connectMCP(t, newMCP(t, map[string]string{"scene.code.js": code}))
	got := text(t, callMCP(t, cs, "read", map[string]any{"file": "main"}))
	want := `{"file":"main","path":"scene.code.js","content":"const r = 2 > 1 && 1 < 2 ? 5 : 1\ndrawCircle('c', 0, 0, r)\n","lines":2}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestNoSuchEntity: an entity the scene does not have is answered with the nearest name it
// has.
func TestNoSuchEntity(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('gear_1', 0, 0, 1)\ndrawCircle('axle', 0, 0, 1)\ncreateGroup('parts', ['gear_1', 'axle'])\n"})
	tests := []struct {
		in   SceneIn
		want string
	}{
		{SceneIn{Command: "entity", Name: "gear1"}, `no such entity: "gear1"; did you mean "gear_1"? (scene tree lists the names)`},
		{SceneIn{Command: "png", Name: "Axle"}, `no such entity: "Axle"; did you mean "axle"? (scene tree lists the names)`},
		{SceneIn{Command: "draw_order", Group: "part"}, `no such entity: "part"; did you mean "parts"? (scene tree lists the names)`},
		{SceneIn{Command: "entity", Name: "bolt_17"}, `no such entity: "bolt_17"; scene tree lists the names`},
	}
	for _, tt := range tests {
		_, err := call[SceneOut](t, s, "scene", tt.in)
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("%+v: mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestChangeAnswerNames: a move's answer names both files; undo's names no file of its own
// (restored lists what it wrote).
func TestChangeAnswerNames(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n"})
	answer := func(res *ChangeResult) string {
		res.Millis = 0
		b, err := AnswerJSON(res)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write(t, s, "spare", "export const x = 1\n")
	got := answer(mustCall[*ChangeResult](t, s, "move", MoveIn{File: "spare", To: "spare2"}))
	want := `{"file":"spare","moved_to":"spare2","created":true,"entities":1,"bounds":{"min":[-1,-1],"max":[1,1]},"ms":0,"entry":3}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("move: mismatch (-want +got):\n%s", diff)
	}
	out, err := sceneCmd(t, s, "undo", "")
	if err != nil {
		t.Fatal(err)
	}
	want = `{"created":false,"entities":1,"bounds":{"min":[-1,-1],"max":[1,1]},"ms":0,"entry":2,"restored":["spare","spare2"]}`
	if diff := cmp.Diff(want, answer(out.Change)); diff != "" {
		t.Errorf("undo: mismatch (-want +got):\n%s", diff)
	}
}

// TestUpstreamToolNames: the upstream tool's names are answered with cadrun's equivalent, by
// the registry and by a session (over MCP as a JSON-RPC error: TestMCPUnknownTool in
// tools/mcpserver).
func TestUpstreamToolNames(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	want := `unknown tool "capture": cadrun's tool for this is scene {"command":"png"} (with name or region to show a part)`
	_, err := s.Call(context.Background(), "capture", json.RawMessage(`{}`))
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("Call: mismatch (-want +got):\n%s", diff)
	}
	_, err = s.Serve(context.Background(), "mama_save", json.RawMessage(`{"x":1}`))
	want = `unknown tool "mama_save": cadrun's tool for this is save, which records a decision, a note or a fact in the design journal`
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("Serve: mismatch (-want +got):\n%s", diff)
	}
}

// TestMissingFileListsFew: a file that does not exist is answered with the workspace's files
// when there are few, and with glob past maxFilesListed.
func TestMissingFileListsFew(t *testing.T) {
	t.Parallel()
	many := map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n"}
	for i := range maxFilesListed {
		many[fmt.Sprintf("modules/part%02d.js", i)] = "export const x = 1\n"
	}
	for _, tt := range []struct {
		files map[string]string
		in    string
		want  string
	}{
		{nil, `{"file":"main"}`, "scene.code.js does not exist; the workspace has no files yet (write creates one)"},
		{map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n"}, `{"file":"plate"}`, "modules/plate.js does not exist; the only file is main"},
		{map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n", "modules/gears.js": "export const g = 1\n", "data/sizes.json": "{}"},
			`{"file":"sizes"}`, "modules/sizes.js does not exist; the files are main, gears, sizes.json"},
		{many, `{"file":"nope.json"}`, "data/nope.json does not exist; glob lists the files there are"},
	} {
		s, _ := newSession(t, tt.files)
		_, err := s.Call(context.Background(), "read", json.RawMessage(tt.in))
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("read %s: mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestRestacked: entities whose only change is their stacking are listed as restacked, not
// changed.
func TestRestacked(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 5); drawCircle('b', 3, 0, 5)\n")
	res := write(t, s, "main", "drawCircle('a', 0, 0, 6); drawCircle('b', 3, 0, 5); drawOrder('a', 'front')\n")
	res.Millis = 0
	got, err := AnswerJSON(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"main","created":false,"entities":2,"bounds":{"min":[-6,-6],"max":[8,6]},"changed":["a"],"restacked":["b"],"ms":0,"entry":3}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestRefusedLandingLeavesNoTempFiles: a change whose run succeeds but whose file cannot land
// (a new name that differs only in case from a module) leaves nothing of what was made
// ahead for it: no temp file, no history object, and scene.json keeps the scene before.
func TestRefusedLandingLeavesNoTempFiles(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"modules/Gear_lib.js": "export const x = 1\n"})
	write(t, s, "main", "drawCircle('c', 0, 0, 1)")
	before, err := os.ReadFile(filepath.Join(dir, modules.SceneFile))
	if err != nil {
		t.Fatal(err)
	}
	objects := func() []string {
		entries, err := os.ReadDir(filepath.Join(dir, ".cadrun/history/objects"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	objectsBefore := objects()
	_, err = s.Call(context.Background(), "write", json.RawMessage(`{"file":"gear_lib","code":"export const y = 2\n"}`))
	if !errors.Is(err, modules.ErrCaseCollision) {
		t.Fatalf("write of gear_lib = %v; want a case collision", err)
	}
	var temps []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".cadrun-tmp-") {
			temps = append(temps, p)
		}
		return nil
	})
	if len(temps) != 0 {
		t.Errorf("temp files left: %v", temps)
	}
	if after, err := os.ReadFile(filepath.Join(dir, modules.SceneFile)); err != nil || string(after) != string(before) {
		t.Errorf("scene.json changed: %v\n%s", err, after)
	}
	if diff := cmp.Diff(objectsBefore, objects()); diff != "" {
		t.Errorf("history objects mismatch (-before +after):\n%s", diff)
	}
}

// TestFolderSyncFailsAfterLanding: when the folder's sync fails after the file was put in
// place, the change has landed (the file, the scene, the history), and the answer says so,
// with a warning that it may not be durable, rather than "not applied".
func TestFolderSyncFailsAfterLanding(t *testing.T) {
	t.Parallel()
	ws, dir := newWorkspace(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	s := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Session()
	injected := errors.New("input/output error")
	ws.FailSteps(func(step string) error {
		if step == "syncdir" {
			return injected
		}
		return nil
	})
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	out := write(t, s, "main", "drawCircle('b', 0, 0, 2)\n")
	want := []string{"the change is in place, but making it durable failed (writing scene.code.js: input/output error): " +
		"a crash before the disk takes it could bring back the file before; check the disk (full, failing, read-only), then write the file again"}
	if diff := cmp.Diff(want, out.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "scene.code.js")); string(got) != "drawCircle('b', 0, 0, 2)\n" {
		t.Errorf("main is %q; want the new code", got)
	}
	if out.Entry == 0 || !strings.Contains(sceneJSON(t, s), `"b"`) {
		t.Errorf("entry %d, scene %s; want the change recorded and its scene current", out.Entry, sceneJSON(t, s))
	}
}
