package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
)

// contents returns the texts of a result's contents.
func contents(t *testing.T, res *mcp.CallToolResult) []string {
	t.Helper()
	var out []string
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			t.Fatalf("want text content, got %T", c)
		}
		out = append(out, tc.Text)
	}
	return out
}

func TestSelectionReachesTheAgent(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('gear_1', 0, 0, 5)\ndrawRect('bolt_3', 9, 0, 2, 2)\n"})
	ms := s.srv
	cs := connectMCP(t, ms)

	// Nothing selected: answers carry no note.
	if got := contents(t, callMCP(t, cs, "scene", map[string]any{"command": "info"})); len(got) != 1 {
		t.Fatalf("no selection, yet the answer has %d contents: %q", len(got), got)
	}
	// A person selects in a viewer (another process writes the same file).
	other, err := modules.Open(s.srv.ws.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.SaveSelection(modules.Selection{Selected: []string{"gear_1", "bolt_3"}, Locked: []string{"bolt_3"}}); err != nil {
		t.Fatal(err)
	}
	got := contents(t, callMCP(t, cs, "scene", map[string]any{"command": "info"}))
	want := "the user selected gear_1, bolt_3; locked bolt_3 (in the viewer; scene selection lists it)"
	if len(got) != 2 || got[1] != want {
		t.Fatalf("after selecting: contents %q; want the answer, then %q", got, want)
	}
	// Told once.
	if got := contents(t, callMCP(t, cs, "glob", nil)); len(got) != 1 {
		t.Errorf("the note came twice: %q", got)
	}
	// scene selection lists it.
	res := callMCP(t, cs, "scene", map[string]any{"command": "selection"})
	sel := structured[SceneOut](t, res).Selection
	wantSel := &modules.Selection{Selected: []string{"gear_1", "bolt_3"}, Locked: []string{"bolt_3"}, Hidden: []string{}}
	if diff := cmp.Diff(wantSel, sel); diff != "" {
		t.Errorf("scene selection: mismatch (-want +got):\n%s", diff)
	}
	// A refused change carries the note first and still ends with its last line.
	if _, err := other.SaveSelection(modules.Selection{Hidden: []string{"gear_1"}, Locked: []string{"bolt_3"}}); err != nil {
		t.Fatal(err)
	}
	res = callMCP(t, cs, "write", map[string]any{"file": "main", "code": "oops("})
	msg := text(t, res)
	wantFirst := "the user cleared the selection; hid gear_1 (in the viewer; scene selection lists it)\n\n"
	if !res.IsError || !strings.HasPrefix(msg, wantFirst) || !strings.HasSuffix(msg, ErrNotApplied.Error()) {
		t.Errorf("refused write: %q; want %q first and %q last", msg, wantFirst, ErrNotApplied)
	}
	// A second client starting now is told what is there.
	cs2 := connectMCP(t, ms)
	got = contents(t, callMCP(t, cs2, "glob", nil))
	if want := "the user locked bolt_3; hid gear_1 (in the viewer; scene selection lists it)"; len(got) != 2 || got[1] != want {
		t.Errorf("a new client: %q; want the note %q", got, want)
	}
}

func TestSelectionNote(t *testing.T) {
	t.Parallel()
	many := make([]string, 12)
	for i := range many {
		many[i] = string(rune('a' + i))
	}
	for _, c := range []struct {
		prev, cur modules.Selection
		want      string
	}{
		{modules.Selection{}, modules.Selection{}, ""},
		{modules.Selection{Selected: []string{"a"}}, modules.Selection{Selected: []string{"a"}}, ""},
		{modules.Selection{}, modules.Selection{Selected: many}, "the user selected a, b, c, d, e, f, g, h, i, j and 2 more (in the viewer; scene selection lists it)"},
		{modules.Selection{Locked: []string{"a", "b"}, Hidden: []string{"c"}}, modules.Selection{Locked: []string{"b", "d"}},
			"the user locked d; unlocked a; showed c (in the viewer; scene selection lists it)"},
	} {
		if got := selectionNote(c.prev, c.cur); got != c.want {
			t.Errorf("selectionNote(%v, %v) = %q; want %q", c.prev, c.cur, got, c.want)
		}
	}
}

func TestLockedEntityChangeWarns(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('wall', 0, 0, 5)\ndrawCircle('door', 9, 0, 1)\n"})
	if _, err := s.srv.SaveSelection(modules.Selection{Locked: []string{"wall", "door"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	res, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('wall', 0, 0, 6)\n"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Warning: this change altered locked entities: wall (locked in the viewer; undo with scene undo if that was not meant)",
		"Warning: this change removed locked entities: door (locked in the viewer; undo with scene undo if that was not meant)",
	}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings: mismatch (-want +got):\n%s", diff)
	}
	// The change landed; a change that leaves locked entities alone does not warn.
	if !s.srv.Scene().Exists("wall") || s.srv.Scene().Exists("door") {
		t.Error("the change did not land")
	}
	res, err = call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('wall', 0, 0, 6)\ndrawCircle('new', 20, 0, 1)\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("unexpected warnings %q", res.Warnings)
	}
}

func TestSubscribeRunsSeesRefusedRuns(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	runs, stop := s.srv.SubscribeRuns()
	defer stop()
	_, werr := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "oops("})
	if werr == nil {
		t.Fatal("a broken write landed")
	}
	c := <-runs
	if c.Refused == nil || !strings.HasPrefix(werr.Error(), c.Refused.Error()) || c.Scene != s.srv.Scene() {
		t.Errorf("refused run: %+v; want the diagnostic of %q and the unchanged scene", c, werr)
	}
}

func TestCancelledRunIsNotAFailedRun(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	runs, stop := s.srv.SubscribeRuns()
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := s.Call(ctx, "write", []byte(`{"file":"main","code":"for (;;) {}"}`)); err == nil {
		t.Fatal("an endless script landed")
	}
	select {
	case c := <-runs:
		t.Errorf("a cancelled call was reported as a run: %v", c.Refused)
	default:
	}
}

func TestOutsideChangesAreNamed(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	cs := connectMCP(t, s.srv)
	if got := contents(t, callMCP(t, cs, "glob", nil)); len(got) != 1 {
		t.Fatalf("first call: %q", got)
	}
	// An editor adds a module and changes main.
	if err := os.MkdirAll(filepath.Join(dir, "modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, code := range map[string]string{"modules/lib.js": "const k = 1\n", "scene.code.js": "drawCircle('a', 0, 0, 2)\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := contents(t, callMCP(t, cs, "scene", map[string]any{"command": "info"}))
	want := "changed on disk since your last call (by an editor, another process or another client): modules/lib.js, scene.code.js; read before you edit them"
	if len(got) != 2 || got[1] != want {
		t.Fatalf("after an editor's save: %q; want the note %q", got, want)
	}
	// Told once; the client's own changes are not news to it.
	if res := callMCP(t, cs, "read", map[string]any{"file": "main"}); len(contents(t, res)) != 1 {
		t.Errorf("the note came twice: %q", contents(t, res))
	}
	if res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('b', 0, 0, 1)\n"}); res.IsError || len(contents(t, res)) != 1 {
		t.Errorf("own write: %q", contents(t, res))
	}
	if got := contents(t, callMCP(t, cs, "glob", nil)); len(got) != 1 {
		t.Errorf("after its own write the client was told: %q", got)
	}
	// A deletion by someone else is named too.
	if err := os.Remove(filepath.Join(dir, "modules/lib.js")); err != nil {
		t.Fatal(err)
	}
	got = contents(t, callMCP(t, cs, "glob", nil))
	if want := "changed on disk since your last call (by an editor, another process or another client): modules/lib.js; read before you edit them"; len(got) != 2 || got[1] != want {
		t.Errorf("after a deletion: %q", got)
	}
}
