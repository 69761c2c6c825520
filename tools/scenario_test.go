package tools

// Scenarios are txtar archives under testdata/scenarios, one case each, so that a case reads
// as what an agent sees: the workspace it starts from, the calls it makes with the answers it
// gets, and the files it leaves behind. An archive holds:
//
//	prose           what the case pins (the archive's comment; required)
//	-- scene.code.js --, -- modules/NAME.js --, -- data/NAME.json --
//	                the workspace before the server starts
//	-- calls --     one JSON object per line (blank lines and lines starting with # are skipped):
//	                {"session":"a","tool":"write","params":{...},"error":"...","want":{...},"want_prefix":{...}}
//	                or {"disk":{"path":"scene.code.js","content":"..."}}, an edit made outside
//	                cadrun between calls
//	-- want/PATH -- the exact bytes of the workspace file PATH after every call
//	-- gone/PATH -- (empty) PATH does not exist after every call
//
// A call's session names a Session of the one server, made on first use ("a" when absent),
// so that read tracking per client can be pinned. "error" is an exact prefix of the error
// text; without it the call must succeed. "want" is matched against the JSON form of the
// answer: objects by the keys given (recursively), so that timings and sizes need not be
// pinned; arrays element by element and whole (same length, same order); a null asks for
// the key to be absent or null; anything else must be equal. "want_prefix" is matched the
// same way, except that its strings are prefixes (an SVG that starts with "<svg").
//
// Note that txtar keeps a file's bytes as they are, BOM and CR included, and always ends a
// file with a newline.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// scenarioCall is one line of a scenario's calls file.
type scenarioCall struct {
	Session    string          `json:"session"`
	Tool       string          `json:"tool"`
	Params     json.RawMessage `json:"params"`
	Error      *string         `json:"error"`
	Want       json.RawMessage `json:"want"`
	WantPrefix json.RawMessage `json:"want_prefix"`
	Disk       *struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"disk"`
}

// workspaceFile matches the archive files that seed the workspace.
var workspaceFile = regexp.MustCompile(`^(scene\.code\.js|modules/[^/]+\.js|data/[^/]+\.json)$`)

func TestScenarios(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no scenarios in testdata/scenarios")
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runScenario(t, p)
		})
	}
}

func runScenario(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	if len(bytes.TrimSpace(ar.Comment)) == 0 {
		t.Errorf("%s: no prose header saying what the case pins", name)
	}
	dir := t.TempDir()
	var calls *txtar.File
	callsLine := 0 // the archive line just before the first line of calls
	line := bytes.Count(ar.Comment, []byte("\n"))
	var checks []txtar.File
	for i, f := range ar.Files {
		line++ // the file marker
		switch {
		case f.Name == "calls":
			calls, callsLine = &ar.Files[i], line
		case strings.HasPrefix(f.Name, "want/"), strings.HasPrefix(f.Name, "gone/"):
			checks = append(checks, f)
		case workspaceFile.MatchString(f.Name):
			writeWorkspaceFile(t, dir, f.Name, f.Data)
		default:
			t.Fatalf("%s:%d: unknown file %q; use scene.code.js, modules/NAME.js, data/NAME.json, calls, want/PATH or gone/PATH", name, line, f.Name)
		}
		line += bytes.Count(f.Data, []byte("\n"))
	}

	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	srv := NewServer(t.Context(), ws, runtime.InProcess{}, runtime.Options{})
	sessions := map[string]*Session{}

	if calls != nil {
		sc := bufio.NewScanner(bytes.NewReader(calls.Data))
		sc.Buffer(nil, 1<<20)
		for n := callsLine + 1; sc.Scan(); n++ {
			text := strings.TrimSpace(sc.Text())
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			runCall(t, fmt.Sprintf("%s:%d", name, n), text, dir, srv, sessions)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}

	for _, f := range checks {
		kind, rel, _ := strings.Cut(f.Name, "/")
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		switch {
		case kind == "gone" && err == nil:
			t.Errorf("%s: %s exists; want it gone. It holds:\n%s", name, rel, got)
		case kind == "gone" && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("%s: %s: %v", name, rel, err)
		case kind == "want" && err != nil:
			t.Errorf("%s: %s: %v", name, rel, err)
		case kind == "want":
			if diff := cmp.Diff(string(f.Data), string(got)); diff != "" {
				t.Errorf("%s: %s mismatch (-want +got):\n%s", name, rel, diff)
			}
		}
	}
}

func writeWorkspaceFile(t *testing.T, dir, rel string, data []byte) {
	t.Helper()
	if !filepath.IsLocal(rel) {
		t.Fatalf("%q is not a path inside the workspace", rel)
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runCall runs one line of calls; where is file:line, for the messages.
func runCall(t *testing.T, where, text, dir string, srv *Server, sessions map[string]*Session) {
	t.Helper()
	var c scenarioCall
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s: bad call line: %v", where, err)
	}
	if c.Disk != nil {
		if c.Tool != "" {
			t.Fatalf("%s: a line is a call or a disk write, not both", where)
		}
		writeWorkspaceFile(t, dir, c.Disk.Path, []byte(c.Disk.Content))
		return
	}
	if c.Tool == "" {
		t.Fatalf("%s: no tool", where)
	}
	if c.Error != nil && (c.Want != nil || c.WantPrefix != nil) {
		t.Fatalf("%s: a call wants an error or an answer, not both", where)
	}
	if c.Session == "" {
		c.Session = "a"
	}
	s, ok := sessions[c.Session]
	if !ok {
		s = srv.Session()
		sessions[c.Session] = s
	}

	out, err := s.Call(context.Background(), c.Tool, c.Params)
	switch {
	case c.Error != nil && err == nil:
		t.Errorf("%s: %s succeeded; want the error %q", where, c.Tool, *c.Error)
		return
	case c.Error != nil:
		if !strings.HasPrefix(err.Error(), *c.Error) {
			t.Errorf("%s: %s error mismatch (-want prefix +got):\n%s", where, c.Tool, cmp.Diff(*c.Error, err.Error()))
		}
		return
	case err != nil:
		t.Errorf("%s: %s: %v", where, c.Tool, err)
		return
	}

	b, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("%s: encoding the answer: %v", where, err)
	}
	var got any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		raw    json.RawMessage
		prefix bool
	}{{c.Want, false}, {c.WantPrefix, true}} {
		if m.raw == nil {
			continue
		}
		var want any
		if err := json.Unmarshal(m.raw, &want); err != nil {
			t.Fatalf("%s: want: %v", where, err)
		}
		if diff := cmp.Diff(want, project(want, got, m.prefix)); diff != "" {
			t.Errorf("%s: %s answer mismatch (-want +got):\n%s\nthe whole answer: %s", where, c.Tool, diff, b)
		}
	}
}

// project cuts got down to the shape of want: the keys want names, and for prefix matching
// a string that starts with want's string becomes want's string. The result equals want
// exactly when got matches it, and otherwise diffs against it only where they differ.
func project(want, got any, prefix bool) any {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(w))
		for k, wv := range w {
			gv, ok := g[k]
			switch {
			case ok:
				out[k] = project(wv, gv, prefix)
			case wv == nil:
				out[k] = nil // absent counts as null
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return got
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = project(w[i], g[i], prefix)
		}
		return out
	case string:
		if g, ok := got.(string); ok && prefix && strings.HasPrefix(g, w) {
			return w
		}
	}
	return got
}
