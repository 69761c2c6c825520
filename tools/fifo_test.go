package tools

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteWithFIFOHistoryLog: a FIFO in place of the history log used to block the write for
// ever while it held the workspace lock; it is now an unreadable log like any other.
func TestWriteWithFIFOHistoryLog(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, ".cadrun/history"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".cadrun/history/log.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('c', 0, 0, 1)"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"the build history in .cadrun/history/log.jsonl could not be read (not a regular file: .cadrun/history/log.jsonl is a named pipe (FIFO); " +
		"cadrun reads only regular files there: remove it); it starts again from this change, and the old log is kept as .cadrun/history/log.bad.jsonl"}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('c', 0, 0, 1)" {
		t.Errorf("main = %q", got)
	}
}
