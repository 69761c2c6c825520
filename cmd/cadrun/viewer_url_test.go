package main

import (
	"bufio"
	"io"
	"os"
	"regexp"
	"testing"
	"time"
)

// viewerURLPattern finds the viewer's address in a `-serve` log line, quoted or not, without
// its final slash.
var viewerURLPattern = regexp.MustCompile(`url="?(http://127\.0\.0\.1:\d+)/`)

// viewerURL reads a cadrun process's log (its stderr pipe) until the line that says where the
// viewer serves, and answers that address (no final slash). The rest of the log is read and
// dropped, so the process never blocks on a full pipe. what names the command in the failure.
func viewerURL(t *testing.T, log io.Reader, what string) string {
	t.Helper()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(log)
		for sc.Scan() {
			if m := viewerURLPattern.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not say where the viewer is", what)
		return ""
	}
}

// saveAsEditor replaces path with content as editors save: a temp file renamed over it.
func saveAsEditor(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp~"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}
