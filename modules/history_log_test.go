package modules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/fulldisk"
)

// TestHistoryAppendFails: a Save whose append to the log fails (the disk full before the line,
// or in the middle of it) returns an error naming the log, and loses nothing: the log on disk
// still reads as the history before, without a warning, in this workspace and in a new one; and
// the next change's Save records correctly on top of it. Not parallel: see fulldisk.
func TestHistoryAppendFails(t *testing.T) {
	for _, tc := range []struct {
		name    string
		written int64 // bytes of the new line the disk takes before it is full
	}{
		{"nothing written", 0},
		{"part of the line written", 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, dir := workspace(t, nil)
			h, _ := w.LoadHistory()
			record(t, h, files("main", "1"), "s1")
			logPath := filepath.Join(dir, filepath.FromSlash(historyLog))
			before := readFile(t, logPath)
			if _, err := h.Record(files("main", "2"), []byte("s2")); err != nil {
				t.Fatal(err)
			}

			lift := fulldisk.After(t, int64(len(before))+tc.written)
			err := h.Save()
			lift()
			if err == nil || !strings.HasPrefix(err.Error(), "writing "+historyLog+": ") {
				t.Fatalf("Save with the disk full = %v; want an error writing %s", err, historyLog)
			}
			if after := readFile(t, logPath); !strings.HasPrefix(after, before) || int64(len(after)-len(before)) != tc.written {
				t.Fatalf("the log after the failed append:\n%s\nwant the log before and %d bytes more:\n%s", after, tc.written, before)
			}

			checkHistory := func(what string, h *History, warn string, want map[int]string) {
				t.Helper()
				if warn != "" {
					t.Errorf("%s: warning %q", what, warn)
				}
				got := map[int]string{}
				for _, e := range h.Entries {
					f, err := h.Files(e)
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					got[e.ID] = string(f["main"])
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: entries mismatch (-want +got):\n%s", what, diff)
				}
			}
			h2, warn := w.LoadHistory()
			checkHistory("after the failed Save", h2, warn, map[int]string{1: "1"})
			h3, warn := reopenHistory(t, dir)
			checkHistory("after the failed Save, in a new workspace", h3, warn, map[int]string{1: "1"})

			record(t, h2, files("main", "3"), "s3")
			h4, warn := w.LoadHistory()
			checkHistory("after the next Save", h4, warn, map[int]string{1: "1", 2: "3"})
			h5, warn := reopenHistory(t, dir)
			checkHistory("after the next Save, in a new workspace", h5, warn, map[int]string{1: "1", 2: "3"})
			if e, ok := h5.Current(); !ok || e.ID != 2 {
				t.Errorf("current entry after the next Save = %+v, %t; want entry 2", e, ok)
			}
		})
	}
}

// TestHistoryRewriteFails: a Save that writes the log whole (it has as many records as the
// history keeps entries) and cannot, the disk full, leaves the log as it was and no temp file
// beside it, and the next Save writes it whole. Not parallel: see fulldisk.
func TestHistoryRewriteFails(t *testing.T) {
	w, dir := workspace(t, nil)
	w.historyCap = 2
	h, _ := w.LoadHistory()
	record(t, h, files("main", "1"), "s1")
	record(t, h, files("main", "2"), "s2")
	logPath := filepath.Join(dir, filepath.FromSlash(historyLog))
	before := readFile(t, logPath)
	if _, err := h.Record(files("main", "3"), []byte("s3")); err != nil {
		t.Fatal(err)
	}
	lift := fulldisk.After(t, 10)
	err := h.Save()
	lift()
	if err == nil || !strings.HasPrefix(err.Error(), "writing "+historyLog+": ") {
		t.Fatalf("Save with the disk full = %v; want an error writing %s", err, historyLog)
	}
	if after := readFile(t, logPath); after != before {
		t.Fatalf("the log after the failed rewrite:\n%s\nwant it as it was:\n%s", after, before)
	}
	names, err := os.ReadDir(filepath.Dir(logPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range names {
		if strings.HasPrefix(d.Name(), tempPrefix) {
			t.Errorf("temp file %s left beside the log", d.Name())
		}
	}
	h2, warn := w.LoadHistory()
	if diff := cmp.Diff([]int{1, 2}, ids(h2)); diff != "" || warn != "" {
		t.Fatalf("after the failed Save: ids mismatch (-want +got):\n%s%s", diff, warn)
	}
	record(t, h2, files("main", "4"), "s4")
	h3, warn := reopenHistory(t, dir)
	if diff := cmp.Diff([]int{2, 3}, ids(h3)); diff != "" || warn != "" {
		t.Fatalf("after the next Save: ids mismatch (-want +got):\n%s%s", diff, warn)
	}
	if f, err := h3.Files(h3.Entries[1]); err != nil || string(f["main"]) != "4" {
		t.Errorf("entry 3's main = %q, %v; want \"4\"", f["main"], err)
	}
	if n := strings.Count(readFile(t, logPath), "\n"); n != 2 {
		t.Errorf("the log after the next Save has %d lines; want 2 (written whole)", n)
	}
}
