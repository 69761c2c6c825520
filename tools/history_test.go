package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/fulldisk"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

func mustCall[T any](t *testing.T, s *Session, tool string, params any) T {
	t.Helper()
	out, err := call[T](t, s, tool, params)
	if err != nil {
		t.Fatalf("%s %+v: %v", tool, params, err)
	}
	return out
}

func write(t *testing.T, s *Session, file, code string) *ChangeResult {
	t.Helper()
	return mustCall[*ChangeResult](t, s, "write", WriteIn{File: file, Code: code})
}

func sceneCmd(t *testing.T, s *Session, command, name string) (SceneOut, error) {
	t.Helper()
	return call[SceneOut](t, s, "scene", SceneIn{Command: command, Name: name})
}

func sceneJSON(t *testing.T, s *Session) string {
	t.Helper()
	b, err := s.srv.Scene().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// userFiles is the workspace's main and modules, by workspace path.
func userFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(dir, "scene.code.js")); err == nil {
		out["scene.code.js"] = string(b)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "modules"))
	for _, e := range entries {
		out["modules/"+e.Name()] = fileBytes(t, dir, "modules/"+e.Name())
	}
	return out
}

func TestUndoRedo(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	first := write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	afterFirst := sceneJSON(t, s)
	second := write(t, s, "main", "drawCircle('a', 0, 0, 1)\ndrawRect('b', 5, 0, 2, 2)")
	// Entry 1 is the empty workspace before the first change.
	if first.Entry != 2 || second.Entry != 3 {
		t.Errorf("entries %d, %d; want 2, 3", first.Entry, second.Entry)
	}

	out, err := sceneCmd(t, s, "undo", "")
	if err != nil {
		t.Fatal(err)
	}
	want := &ChangeResult{ChangeResult: &engine.ChangeResult{Entry: 2, Restored: []string{"main"}, Files: []string{"main"}, Entities: 1, Bounds: out.Change.Bounds, Removed: []string{"b"}, Millis: out.Change.Millis}}
	if diff := cmp.Diff(want, out.Change); diff != "" {
		t.Errorf("undo answer mismatch (-want +got):\n%s", diff)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('a', 0, 0, 1)" {
		t.Errorf("after undo main = %q", got)
	}
	if diff := cmp.Diff(afterFirst, sceneJSON(t, s)); diff != "" {
		t.Errorf("scene after undo mismatch (-want +got):\n%s", diff)
	}
	if got := fileBytes(t, dir, modules.SceneFile); got != afterFirst {
		t.Errorf("scene.json not saved on undo")
	}

	out, err = sceneCmd(t, s, "redo", "")
	if err != nil || out.Change.Entry != 3 || !cmp.Equal(out.Change.Added, []string{"b"}) {
		t.Fatalf("redo: %+v, %v", out.Change, err)
	}
	if _, err := sceneCmd(t, s, "redo", ""); !errors.Is(err, ErrNothingToRedo) || err.Error() != "nothing to redo; history has 3 entries and the newest is current" {
		t.Errorf("redo at the end: %v", err)
	}

	// Back past the first change: the empty workspace, then nothing more.
	for range 2 {
		if _, err := sceneCmd(t, s, "undo", ""); err != nil {
			t.Fatal(err)
		}
	}
	if got := userFiles(t, dir); len(got) != 0 || s.srv.Scene().Len() != 0 {
		t.Errorf("at the start: files %v, %d entities", got, s.srv.Scene().Len())
	}
	_, err = sceneCmd(t, s, "undo", "")
	if !errors.Is(err, ErrNothingToUndo) || err.Error() != "nothing to undo; history has 3 entries, and entry 1, the oldest, is current" {
		t.Errorf("undo past the start: %v", err)
	}

	// A new change after undo drops the redo tail.
	if _, err := sceneCmd(t, s, "redo", ""); err != nil {
		t.Fatal(err)
	}
	third := write(t, s, "main", "drawCircle('c', 0, 0, 3)")
	if third.Entry != 4 {
		t.Errorf("entry %d, want 4", third.Entry)
	}
	if _, err := sceneCmd(t, s, "redo", ""); !errors.Is(err, ErrNothingToRedo) {
		t.Errorf("redo after a new change: %v", err)
	}
	out, err = sceneCmd(t, s, "undo", "")
	if err != nil || out.Change.Entry != 2 {
		t.Errorf("undo after the new change went to %+v, %v; want entry 2", out.Change, err)
	}
}

func TestUndoWithNoHistory(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)"})
	_, err := sceneCmd(t, s, "undo", "")
	if !errors.Is(err, ErrNothingToUndo) || err.Error() != "nothing to undo; history has 0 entries; every change you make from now on is recorded" {
		t.Errorf("got %v", err)
	}
}

func TestUndoRestoresModulesDeleteAndMove(t *testing.T) {
	t.Parallel()
	start := map[string]string{
		"scene.code.js":    "import 'gears'\ngear('g')",
		"modules/gears.js": "function gear(n) { drawCircle(n, 0, 0, 5) }",
		"modules/spare.js": "const SPARE = 1",
	}
	s, dir := newSession(t, start)
	startScene := sceneJSON(t, s)
	mustCall[*ChangeResult](t, s, "delete", DeleteIn{File: "spare"})
	write(t, s, "main", "drawCircle('x', 0, 0, 1)")
	mustCall[*ChangeResult](t, s, "move", MoveIn{File: "gears", To: "cogs"})
	end := userFiles(t, dir)

	var restored []string
	for range 3 {
		out, err := sceneCmd(t, s, "undo", "")
		if err != nil {
			t.Fatal(err)
		}
		restored = append(restored, out.Change.Restored...)
	}
	if diff := cmp.Diff(start, userFiles(t, dir)); diff != "" {
		t.Errorf("files after undoing everything mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(startScene, sceneJSON(t, s)); diff != "" {
		t.Errorf("scene mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"cogs", "gears", "main", "spare"}, restored); diff != "" {
		t.Errorf("restored mismatch (-want +got):\n%s", diff)
	}
	for range 3 {
		if _, err := sceneCmd(t, s, "redo", ""); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(end, userFiles(t, dir)); diff != "" {
		t.Errorf("files after redoing everything mismatch (-want +got):\n%s", diff)
	}
}

// TestUndoCountsAsRead: a session that undid a change has seen the restored files, so it can
// write them without the overwrite warning.
func TestUndoCountsAsRead(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	write(t, s, "main", "drawCircle('a', 0, 0, 2)")
	other := s.srv.Session()
	if _, err := sceneCmd(t, other, "undo", ""); err != nil {
		t.Fatal(err)
	}
	if res := write(t, other, "main", "drawCircle('a', 0, 0, 3)"); len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
}

// TestOutsideEditsAreKept: files changed outside cadrun are recorded before undo moves away
// from them, so redo brings them back.
func TestOutsideEditsAreKept(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	edited := "drawCircle('a', 0, 0, 9)"
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := sceneCmd(t, s, "undo", "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"the files had changed outside cadrun since entry 2; that state was recorded as entry 3, which redo brings back"}, out.Change.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if out.Change.Entry != 2 || fileBytes(t, dir, "scene.code.js") != "drawCircle('a', 0, 0, 1)" {
		t.Errorf("undo went to %d", out.Change.Entry)
	}
	if _, err := sceneCmd(t, s, "redo", ""); err != nil {
		t.Fatal(err)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != edited {
		t.Errorf("after redo main = %q", got)
	}
}

func TestSnapshots(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)"})
	// A snapshot of a workspace with no history yet records it first.
	out, err := sceneCmd(t, s, "snapshot", "start")
	if err != nil {
		t.Fatal(err)
	}
	want := &HistoryOut{Entries: 1, Current: 1, Snapshots: []Snapshot{{Name: "start", Entry: 1, Current: true}}}
	if diff := cmp.Diff(want, out.History); diff != "" {
		t.Errorf("snapshot answer mismatch (-want +got):\n%s", diff)
	}
	write(t, s, "main", "drawCircle('a', 0, 0, 2)")
	if _, err := sceneCmd(t, s, "snapshot", "bigger"); err != nil {
		t.Fatal(err)
	}
	write(t, s, "main", "drawCircle('a', 0, 0, 3)")
	if _, err := sceneCmd(t, s, "snapshot", "start"); err == nil || err.Error() != `history: the snapshot "start" already exists (entry 1); choose another name` {
		t.Errorf("taken name: %v", err)
	}
	// Without a name (upstream's snapshot takes none) it is named after its entry; a name a
	// user took already gets a suffix.
	if _, err := sceneCmd(t, s, "snapshot", ""); err != nil {
		t.Errorf("no name: %v", err)
	}
	write(t, s, "main", "drawCircle('a', 0, 0, 4)")
	if _, err := sceneCmd(t, s, "snapshot", "snapshot-5"); err != nil {
		t.Fatal(err)
	}
	write(t, s, "main", "drawCircle('a', 0, 0, 3)")
	if _, err := sceneCmd(t, s, "snapshot", ""); err != nil {
		t.Errorf("no name: %v", err)
	}
	out, err = sceneCmd(t, s, "snapshots", "")
	if err != nil {
		t.Fatal(err)
	}
	want = &HistoryOut{Entries: 5, Current: 5, Snapshots: []Snapshot{{Name: "snapshot-5-2", Entry: 5, Current: true}, {Name: "snapshot-5", Entry: 4},
		{Name: "snapshot-3", Entry: 3}, {Name: "bigger", Entry: 2}, {Name: "start", Entry: 1}}}
	if diff := cmp.Diff(want, out.History); diff != "" {
		t.Errorf("snapshots mismatch (-want +got):\n%s", diff)
	}
	// undo with a name goes straight to the snapshot.
	res, err := sceneCmd(t, s, "undo", "start")
	if err != nil || res.Change.Entry != 1 || fileBytes(t, dir, "scene.code.js") != "drawCircle('a', 0, 0, 1)" {
		t.Errorf("undo to start: %+v, %v", res.Change, err)
	}
	if _, err := sceneCmd(t, s, "undo", "nope"); err == nil || err.Error() != `bad input: no snapshot named "nope"; the snapshots are "snapshot-5-2", "snapshot-5", "snapshot-3", "bigger", "start"` {
		t.Errorf("unknown snapshot: %v", err)
	}
}

func TestResetIsUndoable(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	out, err := sceneCmd(t, s, "reset", "")
	if err != nil {
		t.Fatal(err)
	}
	if out.Change.Entities != 0 || !cmp.Equal(out.Change.Removed, []string{"a"}) || fileBytes(t, dir, "scene.code.js") != "" {
		t.Errorf("reset: %+v", out.Change)
	}
	if _, err := sceneCmd(t, s, "undo", ""); err != nil {
		t.Fatal(err)
	}
	if !s.srv.Scene().Exists("a") || fileBytes(t, dir, "scene.code.js") != "drawCircle('a', 0, 0, 1)" {
		t.Error("undo did not bring main back")
	}
}

func TestHistorySurvivesRestart(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	write(t, s, "main", "drawCircle('a', 0, 0, 2)")
	if _, err := sceneCmd(t, s, "snapshot", "two"); err != nil {
		t.Fatal(err)
	}
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s2 := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Session()
	out, err := sceneCmd(t, s2, "undo", "")
	if err != nil || out.Change.Entry != 2 || fileBytes(t, dir, "scene.code.js") != "drawCircle('a', 0, 0, 1)" {
		t.Fatalf("undo after restart: %+v, %v", out.Change, err)
	}
	list, _ := sceneCmd(t, s2, "snapshots", "")
	if diff := cmp.Diff([]Snapshot{{Name: "two", Entry: 3}}, list.History.Snapshots); diff != "" {
		t.Errorf("snapshots mismatch (-want +got):\n%s", diff)
	}
}

func TestCorruptHistoryDoesNotBlockWrites(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	if err := os.WriteFile(filepath.Join(dir, ".cadrun", "history", "log.jsonl"), []byte("{garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := write(t, s, "main", "drawCircle('a', 0, 0, 2)")
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "the build history in .cadrun/history/log.jsonl could not be read") {
		t.Errorf("warnings: %q", res.Warnings)
	}
	// History starts again: the state before this write, then this write.
	if res.Entry != 2 {
		t.Errorf("entry %d", res.Entry)
	}
	if res := write(t, s, "main", "drawCircle('a', 0, 0, 3)"); len(res.Warnings) != 0 {
		t.Errorf("warnings after the log was rewritten: %q", res.Warnings)
	}
	if _, err := sceneCmd(t, s, "undo", ""); err != nil {
		t.Fatal(err)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('a', 0, 0, 2)" {
		t.Errorf("main = %q", got)
	}
}

// TestHistoryObjectsCollected: the objects of a dropped redo tail are removed.
func TestHistoryObjectsCollected(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	write(t, s, "main", "drawCircle('dropped', 0, 0, 2)")
	if _, err := sceneCmd(t, s, "undo", ""); err != nil {
		t.Fatal(err)
	}
	objects := filepath.Join(dir, ".cadrun", "history", "objects")
	if _, err := os.Stat(filepath.Join(objects, hexHash("drawCircle('dropped', 0, 0, 2)"))); err != nil {
		t.Fatal("the redo tail's object is missing before the new change")
	}
	write(t, s, "main", "drawCircle('b', 0, 0, 1)")
	if _, err := os.Stat(filepath.Join(objects, hexHash("drawCircle('dropped', 0, 0, 2)"))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dropped entry's object is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(objects, hexHash("drawCircle('a', 0, 0, 1)"))); err != nil {
		t.Errorf("a kept entry's object is gone: %v", err)
	}
}

func hexHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestUndoToEntryThatNoLongerRuns: when the target entry's main fails, nothing changes and the
// diagnostic says why.
func TestUndoToEntryThatNoLongerRuns(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	h, _ := s.srv.ws.LoadHistory()
	if _, err := h.Record(map[string][]byte{"main": []byte("drawCirle('a', 0, 0, 1)")}, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := h.Save(); err != nil {
		t.Fatal(err)
	}
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	before := sceneJSON(t, s)
	_, err := sceneCmd(t, s, "undo", "")
	if err != nil {
		t.Fatal(err) // to entry 2, the empty workspace before the write
	}
	if _, err := sceneCmd(t, s, "redo", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := sceneCmd(t, s, "undo", ""); err != nil {
		t.Fatal(err)
	}
	_, err = sceneCmd(t, s, "undo", "")
	if !errors.Is(err, ErrNotApplied) || !strings.HasPrefix(err.Error(), "entry 1 no longer runs:\nscene.code.js:1:1: ReferenceError: drawCirle is not defined") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "scene.code.js")); !errors.Is(err, os.ErrNotExist) {
		t.Error("files changed")
	}
	if _, err := sceneCmd(t, s, "redo", ""); err != nil {
		t.Fatal(err)
	}
	if got := sceneJSON(t, s); got != before {
		t.Error("scene did not come back")
	}
}

// TestRefusedLandingLeavesTheHistory: a change whose run succeeds makes its history entry while
// its file syncs; when the file then cannot land (a new name that differs only in case from a
// module), the objects that entry wrote are removed and the log is unchanged.
func TestRefusedLandingLeavesTheHistory(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"modules/Gear_lib.js": "export const x = 1\n"})
	write(t, s, "main", "drawCircle('c', 0, 0, 1)")
	history := func() []string {
		var out []string
		entries, err := os.ReadDir(filepath.Join(dir, ".cadrun", "history", "objects"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return append(out, fileBytes(t, dir, ".cadrun/history/log.jsonl"))
	}
	before := history()
	_, err := s.Call(context.Background(), "write", []byte(`{"file":"gear_lib","code":"export const y = 2\n"}`))
	if !errors.Is(err, modules.ErrCaseCollision) {
		t.Fatalf("write of gear_lib = %v; want a case collision", err)
	}
	if diff := cmp.Diff(before, history()); diff != "" {
		t.Errorf("history mismatch (-want +got):\n%s", diff)
	}
}

// TestOutsideEditsRecordedWhenTheChangeIsNot: when a change's own history entry cannot be
// written (its scene is too large for the disk, here by the file size limit) but the entry
// for edits made outside cadrun before it can, that entry is still saved: undo can bring
// those edits back. Not parallel: see fulldisk.
func TestOutsideEditsRecordedWhenTheChangeIsNot(t *testing.T) {
	s, dir := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)\n")
	outside := "drawCircle('b', 0, 0, 1)\n"
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte(outside), 0o644); err != nil {
		t.Fatal(err)
	}
	mustCall[ReadOut](t, s, "read", ReadIn{File: "main"})
	lift := fulldisk.After(t, 4<<10)
	big := "for (let i = 0; i < 200; i++) drawCircle('c' + i, i, 0, 1)\n"
	out := write(t, s, "main", big)
	// At once: the limit is the process's, and the test framework's own log is written to
	// as the test goes on (go test's cache), past the limit if it stayed.
	lift()
	if out.Entry != 0 || !slices.ContainsFunc(out.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "the change landed, but recording it in the history failed: ")
	}) {
		t.Fatalf("entry %d, warnings %q; want no entry and the history's failure", out.Entry, out.Warnings)
	}
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	h, warn := ws.LoadHistory()
	cur, ok := h.Current()
	if warn != "" || !ok || len(h.Entries) != 3 {
		t.Fatalf("history: %d entries, warning %q; want the empty workspace, the first write and the outside edit", len(h.Entries), warn)
	}
	files, err := h.Files(cur)
	if err != nil || string(files["main"]) != outside {
		t.Errorf("current entry's main = %q, %v; want the outside edit", files["main"], err)
	}
}
