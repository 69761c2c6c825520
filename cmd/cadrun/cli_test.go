package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/cadruntest"
	"github.com/cadrun/cadrun/tools"
)

// cliBinaryDir holds the binary cliBinary built, if it did.
var cliBinaryDir string

// cliBinary builds the real cadrun binary once for the tests that need a whole process (the
// test binary is built with -race, which cannot cap a worker's address space).
var cliBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "cadrun-cli-test")
	if err != nil {
		return "", err
	}
	cliBinaryDir = dir // TestMain removes it
	bin := filepath.Join(dir, "cadrun")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", &buildError{err, out}
	}
	return bin, nil
})

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + string(e.out) }

// cadrun runs the real binary and returns its exit status, stdout and stderr.
func cadrun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	bin, err := cliBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// TestHostileScriptsEveryEntryPoint: scripts that end a Go process (a fatal stack overflow, an
// allocation the OS refuses) end only a worker, with the same diagnostic and exit status 1 from
// run and tool alike, and no Go trace.
func TestHostileScriptsEveryEntryPoint(t *testing.T) {
	t.Parallel()
	stackMsg := "StackOverflowError: the run nested too deeply for the engine (a deeply nested JSON.parse or structure) and its worker was stopped\nhint: flatten the data\n"
	memMsg := "LimitError: the run needed more than 512 MB of memory (Limits.MaxMemory) and its worker was stopped\nhint: a single huge string or array was requested; build less at once\n"
	for _, tt := range []struct {
		name, code, want string
	}{
		{"stack", `JSON.parse("[".repeat(5e6) + "]".repeat(5e6))`, stackMsg},
		{"polygon", "const a=[[0,0]]; a.length=2**32-1; drawPolygon('p',a)", memMsg},
		{"group", "const a=['x']; a.length=2**32-1; createGroup('g',a)", memMsg},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			script := filepath.Join(dir, "hostile.js")
			if err := os.WriteFile(script, []byte(tt.code), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := cadrun(t, "", "run", script, "-o", filepath.Join(dir, "out.svg"))
			if code != 1 || stdout != "" {
				t.Errorf("run: exit %d, stdout %q; want 1 and nothing", code, stdout)
			}
			if diff := cmp.Diff(tt.want, stderr); diff != "" {
				t.Errorf("run: stderr mismatch (-want +got):\n%s", diff)
			}

			ws := filepath.Join(dir, "ws")
			params, _ := json.Marshal(map[string]string{"file": "main", "code": tt.code})
			code, stdout, stderr = cadrun(t, "", "tool", "write", "--workspace", ws, "--params", string(params))
			msg := tt.want + "not applied; the file is unchanged"
			want := toolReply{Status: "error", Error: &msg}
			var got toolReply
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("tool: stdout %q is not one JSON object: %v (stderr %q)", stdout, err, stderr)
			}
			if diff := cmp.Diff(want, got); diff != "" || code != 1 {
				t.Errorf("tool: exit %d; reply mismatch (-want +got):\n%s", code, diff)
			}
			if _, err := os.Stat(filepath.Join(ws, "scene.code.js")); !os.IsNotExist(err) {
				t.Errorf("tool: main was written: %v", err)
			}
		})
	}
}

// TestToolUsageErrorsPrintOneObject: every command line `cadrun tool` cannot make sense of
// still prints exactly one JSON object, with exit status 2.
func TestToolUsageErrorsPrintOneObject(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "usage: flag provided but not defined: -bogus"},
		{nil, "usage: no tool name; give one of [delete edit export glob import lsp measure move read save scene search write], or --list"},
		{[]string{"write", "--params", "{}", "--params-file", "x"}, "usage: give --params or --params-file, not both"},
		{[]string{"write", "read"}, `usage: one tool at a time; got ["write" "read"]`},
		{[]string{"--list", "write"}, "usage: --list takes no tool name"},
		{[]string{"write", "--params-file", filepath.Join(ws, "missing.json")}, "usage: reading the parameters: open " + filepath.Join(ws, "missing.json") + ": no such file or directory"},
		{[]string{"write", "--params", `{"file":"main","code":"x"} trailing`}, `bad input: write: there is more after the parameters' JSON object (at offset 26: "trailing"); send exactly one object`},
		{[]string{"write", "--params", `{"file":"main","code":"x"}{"x":1}`}, `bad input: write: there is more after the parameters' JSON object (at offset 26: "{\"x\":1}"); send exactly one object`},
		{[]string{"write", "--params", `{"FILE":"main","code":"x"}`}, `bad input: write: unknown parameter "FILE"; did you mean "file"? (names are case-sensitive)`},
		{[]string{"write", "--params", "{\"file\":\"main\",\"code\":\"\xff\"}"}, `bad input: write: the parameters are not valid UTF-8 (offset 23: byte 0xff); send UTF-8 text`},
		{[]string{"write", "--params", `{"file":"main"}`}, `bad input: write: give code, or content (code: the complete JavaScript source; for a data file, its JSON text, stored byte for byte; content: a data file's content as a JSON object or array, stored with 2-space indentation)`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"tool", "--workspace", ws}, tt.args...), &stdout, &stderr)
		dec := json.NewDecoder(&stdout)
		var got toolReply
		if err := dec.Decode(&got); err != nil || dec.More() {
			t.Errorf("tool %q: stdout is not exactly one JSON object: %v", tt.args, err)
			continue
		}
		want := toolReply{Status: "error", Error: &tt.want}
		if diff := cmp.Diff(want, got); diff != "" || code != 2 {
			t.Errorf("tool %q: exit %d, want 2; reply mismatch (-want +got):\n%s", tt.args, code, diff)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "scene.code.js")); !os.IsNotExist(err) {
		t.Errorf("main was written: %v", err)
	}
}

func TestToolList(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"tool", "--list"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	var got struct {
		Status string
		Data   toolList
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := toolList{}
	for _, tool := range tools.Tools() {
		want.Tools = append(want.Tools, toolEntry{Name: tool.Name, Type: tool.Type, Description: tool.Description})
	}
	want.Total = len(want.Tools)
	if diff := cmp.Diff(want, got.Data); diff != "" || got.Status != "success" || want.Total < 8 {
		t.Errorf("status %q; mismatch (-want +got):\n%s", got.Status, diff)
	}
}

// TestToolParamsFile: parameters from a file, or from stdin with "-", byte for byte.
func TestToolParamsFile(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	code := "// a comment with \"quotes\"\ndrawCircle('c', 0, 0, 5)\n"
	params, _ := json.MarshalIndent(map[string]string{"file": "main", "code": code}, "", "  ")
	file := filepath.Join(t.TempDir(), "params.json")
	if err := os.WriteFile(file, params, 0o644); err != nil {
		t.Fatal(err)
	}
	if status, stdout, stderr := cadrun(t, "", "tool", "write", "--workspace", ws, "--params-file", file); status != 0 {
		t.Fatalf("--params-file FILE: exit %d, %s %s", status, stdout, stderr)
	}
	if got := readString(t, filepath.Join(ws, "scene.code.js")); got != code {
		t.Errorf("main = %q, want %q", got, code)
	}
	code2 := strings.Replace(code, "5)", "7)", 1)
	params, _ = json.Marshal(map[string]string{"file": "main", "code": code2})
	if status, stdout, stderr := cadrun(t, string(params), "tool", "write", "--workspace", ws, "--params-file", "-"); status != 0 {
		t.Fatalf("--params-file -: exit %d, %s %s", status, stdout, stderr)
	}
	if got := readString(t, filepath.Join(ws, "scene.code.js")); got != code2 {
		t.Errorf("main = %q, want %q", got, code2)
	}
	status, stdout, _ := cadrun(t, "", "tool", "write", "--workspace", ws, "--params-file", "-")
	if want := `{"status":"error","data":null,"error":"usage: stdin holds no parameters; give a JSON object ({} for none)"}` + "\n"; status != 2 || stdout != want {
		t.Errorf("empty stdin: exit %d, %q; want 2, %q", status, stdout, want)
	}
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHelpListsEverything: `cadrun -h` names every command and every tool; `cadrun` alone
// prints the same usage and exits 2.
func TestHelpListsEverything(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		code int
	}{{[]string{"-h"}, 0}, {nil, 2}} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != tt.code || stdout.Len() != 0 {
			t.Errorf("cadrun %q: exit %d, stdout %q; want %d and nothing", tt.args, code, stdout.String(), tt.code)
		}
		lines := strings.Split(stderr.String(), "\n")
		listed := func(name string) bool {
			for _, l := range lines {
				if strings.HasPrefix(l, "  "+name+" ") {
					return true
				}
			}
			return false
		}
		for _, c := range commands() {
			if !listed(c.name) {
				t.Errorf("cadrun %q: command %s not listed:\n%s", tt.args, c.name, stderr.String())
			}
		}
		for _, tool := range tools.Tools() {
			if !listed(tool.Name) {
				t.Errorf("cadrun %q: tool %s not listed:\n%s", tt.args, tool.Name, stderr.String())
			}
		}
		if !listed("demo     run the example workspaces") {
			t.Errorf("demo's summary is not what it does:\n%s", stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"run", "-h"}, &stdout, &stderr)
	if !strings.Contains(stderr.String(), "without -o it only runs the program and prints a one-line\nsummary") {
		t.Errorf("run -h does not say what happens without -o:\n%s", stderr.String())
	}
}

// TestRunPrintsControlCharactersEscaped: `cadrun run` prints a script's console output and its
// error through the same escaping as `cadrun watch`, so that a script cannot drive the
// terminal it is run from (clear it, retitle it, set the clipboard).
func TestRunPrintsControlCharactersEscaped(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "s.js")
	code := "console.log('A\\x1b]52;c;aGk=\\x07B\\tC')\nthrow new Error('E\\x1b[2J')\n"
	if err := os.WriteFile(script, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, stderr := cadrun(t, "", "run", script)
	if status != 1 || !strings.HasPrefix(stderr, "A\\x1b]52;c;aGk=\\x07B\tC\n") || !strings.Contains(stderr, "Error: E\\x1b[2J") || strings.Contains(stderr, "\x1b") {
		t.Errorf("status %d, stderr %q; want the console line and the error with their escapes shown", status, stderr)
	}
}

// TestTestPrintsControlCharactersEscaped: `cadrun test` prints a failing workspace's diagnostic
// through the same escaping as `cadrun run`.
func TestTestPrintsControlCharactersEscaped(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	printResult(&b, cadruntest.Result{Name: "w\x1b[2J", Status: cadruntest.StatusFail, Message: "E\x1b]0;x\x07\nline"}, false)
	if got, want := b.String(), "FAIL w\\x1b[2J\n    E\\x1b]0;x\\x07\n    line\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
