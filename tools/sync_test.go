package tools

// Two servers on one workspace stand for every other writer: another `cadrun mcp`, a
// `cadrun tool write`, a person's editor.

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// countingRunner counts the runs of main.
type countingRunner struct{ runs atomic.Int32 }

func (c *countingRunner) Run(ctx context.Context, src runtime.Source, entry string, opt runtime.Options) (*runtime.Result, error) {
	c.runs.Add(1)
	return runtime.Run(ctx, src, entry, opt)
}

// twoServers opens two servers on one workspace holding files.
func twoServers(t *testing.T, files map[string]string) (a, b *Server, dir string) {
	t.Helper()
	wsA, dir := newWorkspace(t, files)
	wsB, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wsB.Close() })
	a = NewServer(context.Background(), wsA, runtime.InProcess{}, runtime.Options{})
	b = NewServer(context.Background(), wsB, runtime.InProcess{}, runtime.Options{})
	return a, b, dir
}

// TestSyncFollowsAnotherServer: after another server's write, Sync runs main again and says
// what changed; the next change's answer lists only its own entities as added.
func TestSyncFollowsAnotherServer(t *testing.T) {
	t.Parallel()
	a, b, _ := twoServers(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	sa, sb := a.Session(), b.Session()
	mustCall[ReadOut](t, sb, "read", ReadIn{File: "main"})
	write(t, sb, "main", "drawCircle('a', 0, 0, 1)\ndrawCircle('b', 5, 0, 1)\n")

	got, err := a.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := &SyncResult{Files: []string{"main"}, Ran: true, Added: []string{"b"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sync: mismatch (-want +got):\n%s", diff)
	}
	if got, err := a.Sync(context.Background()); err != nil || len(got.Files) != 0 {
		t.Errorf("a second sync: %+v, %v; want nothing changed", got, err)
	}

	// Another outside write, then a change on a: its answer is about its own change.
	write(t, sb, "main", "drawCircle('a', 0, 0, 1)\ndrawCircle('b', 5, 0, 1)\ndrawCircle('c', 9, 0, 1)\n")
	mustCall[ReadOut](t, sa, "read", ReadIn{File: "main"})
	res := write(t, sa, "main", "drawCircle('a', 0, 0, 1)\ndrawCircle('b', 5, 0, 1)\ndrawCircle('c', 9, 0, 1)\ndrawCircle('d', 12, 0, 1)\n")
	if diff := cmp.Diff([]string{"d"}, res.Added); diff != "" {
		t.Errorf("added by a's write: mismatch (-want +got):\n%s", diff)
	}
}

// TestSyncCommitNotesTheOutsideChange: a change made right after an outside edit says that
// the scene was rebuilt first, and lists as added only what it added.
func TestSyncCommitNotesTheOutsideChange(t *testing.T) {
	t.Parallel()
	a, _, dir := twoServers(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('a', 0, 0, 1)\ndrawCircle('e', 3, 0, 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := write(t, a.Session(), "main", "drawCircle('a', 0, 0, 1)\ndrawCircle('e', 3, 0, 1)\ndrawCircle('f', 6, 0, 1)\n")
	want := []string{
		"scene.code.js changed on disk since this server last ran main (another client, another process or an editor); the scene was rebuilt from the files first",
		OverwriteWarning,
	}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings: mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"f"}, res.Added); diff != "" {
		t.Errorf("added: mismatch (-want +got):\n%s", diff)
	}
}

// TestSyncKeepsTheLastGoodScene: a main saved broken keeps the last good scene, says why,
// and is not run again until the files change.
func TestSyncKeepsTheLastGoodScene(t *testing.T) {
	t.Parallel()
	ws, dir := newWorkspace(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	runner := &countingRunner{}
	srv := NewServer(context.Background(), ws, runner, runtime.Options{})
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('a', 0, 0,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := runner.runs.Load()
	got, err := srv.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.Ran || got.Error == "" || srv.Scene().Len() != 1 {
		t.Errorf("sync of a broken main: %+v, scene of %d entities; want the error and the last good scene", got, srv.Scene().Len())
	}
	if got, err := srv.Sync(context.Background()); err != nil || len(got.Files) != 0 {
		t.Errorf("a second sync: %+v, %v", got, err)
	}
	if n := runner.runs.Load() - before; n != 1 {
		t.Errorf("main ran %d times for two syncs of one broken file, want 1", n)
	}
	// A write that fixes main is not told that main does not run: that was old news.
	res := write(t, srv.Session(), "main", "drawCircle('a', 0, 0, 2)\n")
	if diff := cmp.Diff([]string{OverwriteWarning}, res.Warnings); diff != "" {
		t.Errorf("warnings of the write that fixes main: mismatch (-want +got):\n%s", diff)
	}
	if got, err := srv.Sync(context.Background()); err != nil || got.Error != "" {
		t.Errorf("sync after the fix: %+v, %v", got, err)
	}
}

// TestUndoSaysItTakesBackAnotherClientsChange: an undo that takes back a change this client
// did not make says so, naming the entry and the files; an undo of its own change does not.
func TestUndoSaysItTakesBackAnotherClientsChange(t *testing.T) {
	t.Parallel()
	a, b, _ := twoServers(t, nil)
	sa, sb := a.Session(), b.Session()
	own := write(t, sa, "main", "drawCircle('a', 0, 0, 1)\n")
	mustCall[ReadOut](t, sb, "read", ReadIn{File: "main"})
	other := write(t, sb, "main", "drawCircle('a', 0, 0, 2)\n")

	out, err := sceneCmd(t, sa, "undo", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"scene.code.js changed on disk since this server last ran main (another client, another process or an editor); the scene was rebuilt from the files first",
		"this undo takes back entry " + strconv.Itoa(other.Entry) + ", which this client did not make (another client, another process such as cadrun tool, or an editor made it); it restored scene.code.js. Redo brings it back",
	}
	if diff := cmp.Diff(want, out.Change.Warnings); diff != "" {
		t.Errorf("undo of b's change: mismatch (-want +got):\n%s", diff)
	}
	if out.Change.Entry != own.Entry {
		t.Errorf("undo went to entry %d, want %d", out.Change.Entry, own.Entry)
	}
	if diff := cmp.Diff([]string{"a"}, out.Change.Changed); diff != "" {
		t.Errorf("changed by the undo: mismatch (-want +got):\n%s", diff)
	}

	mustCall[ReadOut](t, sa, "read", ReadIn{File: "main"})
	write(t, sa, "main", "drawCircle('a', 0, 0, 3)\n")
	out, err = sceneCmd(t, sa, "undo", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Change.Warnings) != 0 {
		t.Errorf("undo of a's own change warns %q", out.Change.Warnings)
	}
}

// TestMCPSceneFollowsTheDisk: over MCP, scene views and resources show what the files draw
// now, not what they drew when this server last ran main.
func TestMCPSceneFollowsTheDisk(t *testing.T) {
	t.Parallel()
	ws, dir := newWorkspace(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	cs := connectMCP(t, NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}))
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('a', 0, 0, 1)\ndrawRect('r', 0, 0, 2, 2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info := structured[struct {
		Info struct {
			Entities int `json:"entities"`
		} `json:"info"`
	}](t, callMCP(t, cs, "scene", map[string]any{"command": "info"}))
	if info.Info.Entities != 2 {
		t.Errorf("scene info after an outside edit: %d entities, want 2", info.Info.Entities)
	}

	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('a', 0, 0, 1)\ndrawRect('r', 0, 0, 2, 2)\ndrawRect('s', 5, 0, 2, 2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readResource(t, cs, ResourceSceneJSON); !strings.Contains(got, `"r"`) || !strings.Contains(got, `"s"`) {
		t.Errorf("scene.json resource after an outside edit: %.300s", got)
	}

	// A broken main on disk: the view is the last good scene, and the answer says so.
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawRect('r', 0, 0,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := callMCP(t, cs, "scene", map[string]any{"command": "info"})
	if len(r.Content) != 2 {
		t.Fatalf("scene info with a broken main: %d contents, want the answer and a note", len(r.Content))
	}
	note := r.Content[1].(*mcp.TextContent).Text
	wantPrefix := "note: scene.code.js changed on disk since this server last ran main (another client, another process or an editor); main does not run as it is now, so the scene is still the last good one:\nscene.code.js:"
	if !strings.HasPrefix(note, wantPrefix) {
		t.Errorf("note: %q\nwant it to start with %q", note, wantPrefix)
	}
	// And on every view after that, until main runs again.
	r = callMCP(t, cs, "scene", map[string]any{"command": "tree"})
	wantPrefix = "note: main as it is on disk does not run, so the scene is still the last good one:\nscene.code.js:"
	if len(r.Content) != 2 || !strings.HasPrefix(r.Content[1].(*mcp.TextContent).Text, wantPrefix) {
		t.Errorf("the next view: %+v; want a note starting %q", r.Content, wantPrefix)
	}
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawRect('r', 0, 0, 2, 2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Once main runs again the scene note goes; what remains is the note that names the
	// files someone else changed since this client's last call.
	r = callMCP(t, cs, "scene", map[string]any{"command": "info"})
	wantNote := "changed on disk since your last call (by an editor, another process or another client): scene.code.js; read before you edit them"
	if len(r.Content) != 2 || r.Content[1].(*mcp.TextContent).Text != wantNote {
		t.Errorf("a view once main runs again: %+v; want only the note %q", r.Content, wantNote)
	}
}

// BenchmarkSyncUnchanged is what every MCP call pays to notice outside changes when there
// are none: hashing the user files of a small workspace.
func BenchmarkSyncUnchanged(b *testing.B) {
	files := map[string]string{"scene.code.js": "import 'parts'\ndrawCircle('a', 0, 0, 1)\n"}
	for i := range 5 {
		files["modules/part"+strconv.Itoa(i)+".js"] = strings.Repeat("export const x"+strconv.Itoa(i)+" = 1\n", 200)
	}
	files["modules/parts.js"] = "import 'part0'\n"
	ws, err := modules.Open(testws.Files(b, files))
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := srv.Sync(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
