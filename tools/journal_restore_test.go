package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/journal"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/tools/engine"
)

func saveNote(t *testing.T, s *Session, title string) journal.Saved {
	t.Helper()
	return mustCall[journal.Saved](t, s, "save", map[string]any{"title": title, "text": "a note on " + title})
}

func restore(t *testing.T, s *Session, id int64) (SceneOut, error) {
	t.Helper()
	return call[SceneOut](t, s, "scene", SceneIn{Command: "restore", Journal: id})
}

// TestRestoreJournal: restore brings back the files and scene of the state a journal entry
// speaks of, as a new history entry; undo takes the restore back.
func TestRestoreJournal(t *testing.T) {
	t.Parallel()
	s, dir := journalSession(t, nil)
	write(t, s, "gear", "function gear(n) { drawCircle(n, 0, 0, 2) }")
	write(t, s, "main", "import 'gear'\ngear('g')")
	then := sceneJSON(t, s)
	note := saveNote(t, s, "two parts")
	write(t, s, "main", "drawRect('plate', 0, 0, 4, 4)")
	mustCall[*ChangeResult](t, s, "delete", DeleteIn{File: "gear"})
	write(t, s, "size.json", `{"w": 4}`)
	later, laterFiles := sceneJSON(t, s), userFiles(t, dir)

	out, err := restore(t, s, note.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := &ChangeResult{ChangeResult: &engine.ChangeResult{Entry: 7, Restored: []string{"gear", "main", "size.json"}, Files: []string{"gear", "main", "size.json"},
		Entities: 1, Bounds: out.Change.Bounds, Added: []string{"g"}, Removed: []string{"plate"}, Millis: out.Change.Millis}}
	if diff := cmp.Diff(want, out.Change); diff != "" {
		t.Errorf("restore answer mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"scene.code.js": "import 'gear'\ngear('g')", "modules/gear.js": "function gear(n) { drawCircle(n, 0, 0, 2) }"}, userFiles(t, dir)); diff != "" {
		t.Errorf("files after restore mismatch (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "size.json")); !os.IsNotExist(err) {
		t.Errorf("data/size.json is still there after the restore (%v)", err)
	}
	if diff := cmp.Diff(then, sceneJSON(t, s)); diff != "" {
		t.Errorf("scene after restore mismatch (-want +got):\n%s", diff)
	}
	// The restored files count as read: an edit of main right away needs no read first.
	edit := mustCall[*ChangeResult](t, s, "edit", EditIn{File: "main", OldCode: "gear('g')", NewCode: "gear('h')"})
	if len(edit.Warnings) > 0 {
		t.Errorf("edit after restore warned %q", edit.Warnings)
	}

	// Two undos: the edit, then the restore itself.
	for range 2 {
		if _, err := sceneCmd(t, s, "undo", ""); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(later, sceneJSON(t, s)); diff != "" {
		t.Errorf("scene after undoing the restore mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(laterFiles, userFiles(t, dir)); diff != "" {
		t.Errorf("files after undoing the restore mismatch (-want +got):\n%s", diff)
	}
	if got := fileBytes(t, dir, "data/size.json"); got != `{"w": 4}` {
		t.Errorf("data/size.json after undoing the restore: %q", got)
	}
}

// TestRestoreJournalRefused: every refusal names what to do, and changes nothing.
func TestRestoreJournalRefused(t *testing.T) {
	t.Parallel()
	s, dir := journalSession(t, nil)
	empty := saveNote(t, s, "before anything")
	write(t, s, "main", "drawCircle('c', 0, 0, 1)")
	here := saveNote(t, s, "a circle")
	// A state written outside cadrun that does not run: saving records it, restoring it fails.
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('c', 0, 0"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := saveNote(t, s, "a broken main")
	mustCall[ReadOut](t, s, "read", ReadIn{File: "main"})
	write(t, s, "main", "drawCircle('c', 0, 0, 3)")
	j, err := s.srv.journal(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	in, err := journal.ParseSave([]byte(`{"title": "gone", "text": "its history entry is gone"}`), "p")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := j.Save(context.Background(), in, journal.Link{Entry: 999}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	files, sc := userFiles(t, dir), sceneJSON(t, s)
	for _, tc := range []struct {
		id   int64
		want string
	}{
		{0, "bad input: restore needs journal, the id of a journal entry (search answers them), got 0"},
		{42, "bad input: there is no journal entry 42; search lists the entries"},
		{empty.ID, "bad input: journal entry 1 was saved in a workspace with no files and no history, so there is no state to restore"},
		{gone.ID, fmt.Sprintf("journal entry %d speaks of history entry 999, which the history no longer holds (it keeps the newest %d entries, snapshots first); take a snapshot to keep a state for good\nnot applied; the file is unchanged", gone.ID, modules.MaxHistory)},
		{broken.ID, "history entry 3 (journal entry 3) no longer runs:\n" +
			"scene.code.js:1:11: SyntaxError: the ( opened at 1:11 is not closed\n    1 | drawCircle('c', 0, 0\n                  ^\n" +
			"scene.code.js:1:21: note: the parser stopped here: Unexpected end of input\n    1 | drawCircle('c', 0, 0\n                            ^\n" +
			"hint: add ) at the end of line 1\nnot applied; the file is unchanged"},
	} {
		_, err := restore(t, s, tc.id)
		if err == nil {
			t.Errorf("restore %d: no error", tc.id)
			continue
		}
		if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
			t.Errorf("restore %d: mismatch (-want +got):\n%s", tc.id, diff)
		}
	}
	if diff := cmp.Diff(files, userFiles(t, dir)); diff != "" {
		t.Errorf("files after refused restores mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(sc, sceneJSON(t, s)); diff != "" {
		t.Errorf("scene after refused restores mismatch (-want +got):\n%s", diff)
	}
	// Restoring the state the workspace is in changes nothing and says so.
	if _, err := restore(t, s, here.ID); err != nil {
		t.Fatal(err)
	}
	_, err = restore(t, s, here.ID)
	want := "the workspace already holds the files of history entry 2 (journal entry 2); there is nothing to restore\nnot applied; the file is unchanged"
	if err == nil || err.Error() != want {
		t.Errorf("restoring the current state: %v; want %q", err, want)
	}
}

// TestSaveRecordsTheSceneOfOutsideEdits: files changed outside cadrun (cadrun watch's editor)
// are run before save records them, so the history entry a journal entry links to holds
// their scene, not the one before them.
func TestSaveRecordsTheSceneOfOutsideEdits(t *testing.T) {
	t.Parallel()
	s, dir := journalSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 1)")
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('b', 0, 0, 1)"), 0o644); err != nil {
		t.Fatal(err)
	}
	saveNote(t, s, "edited in an editor")
	h, _ := s.srv.ws.LoadHistory()
	cur, _ := h.Current()
	b, err := h.Scene(cur)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sceneJSON(t, s), string(b)); diff != "" {
		t.Errorf("the scene recorded with the edited files mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(b), `"b"`) {
		t.Errorf("the recorded scene lacks the editor's entity b: %s", b)
	}
}

// TestRestoreJournalHistoryStartedAgain: a history started again (its log deleted or damaged)
// numbers its entries from 1 again; a journal entry linked to an old entry 2 is refused
// rather than restored to the new, unrelated entry 2.
func TestRestoreJournalHistoryStartedAgain(t *testing.T) {
	t.Parallel()
	s, dir := journalSession(t, nil)
	write(t, s, "main", "drawCircle('then', 0, 0, 1)")
	note := saveNote(t, s, "a circle")
	if err := os.RemoveAll(filepath.Join(dir, ".cadrun", "history")); err != nil {
		t.Fatal(err)
	}
	// Edited outside cadrun, then written: the new history's entry 1 holds the outside edit.
	if err := os.WriteFile(filepath.Join(dir, "scene.code.js"), []byte("drawCircle('outside', 0, 0, 1)"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustCall[ReadOut](t, s, "read", ReadIn{File: "main"})
	write(t, s, "main", "drawCircle('new 2', 0, 0, 1)")
	write(t, s, "main", "drawCircle('now', 0, 0, 1)")
	files, sc := userFiles(t, dir), sceneJSON(t, s)

	_, err := restore(t, s, note.ID)
	want := "journal entry 1 speaks of history entry 2, but the history was started again since (its log was damaged or deleted) and its entry 2 holds other files; the state it speaks of is gone\nnot applied; the file is unchanged"
	if err == nil || err.Error() != want {
		t.Errorf("restore after the history started again: %v; want %q", err, want)
	}
	if diff := cmp.Diff(files, userFiles(t, dir)); diff != "" {
		t.Errorf("files after the refused restore mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(sc, sceneJSON(t, s)); diff != "" {
		t.Errorf("scene after the refused restore mismatch (-want +got):\n%s", diff)
	}
	// An entry saved in the new history restores as before.
	again := saveNote(t, s, "the new circle")
	write(t, s, "main", "drawCircle('later', 0, 0, 1)")
	if _, err := restore(t, s, again.ID); err != nil {
		t.Fatal(err)
	}
}
