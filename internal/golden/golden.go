// Package golden compares test output with golden files (in testdata/, or wherever the test
// keeps them), which are rewritten only on request: UPDATE_GOLDEN=1 go test ./... (then review
// the diff before committing). Every golden file in the repository goes through here, so that
// one switch regenerates them all (`make golden`).
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update reports whether golden files are being regenerated.
func Update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

// Check compares got with the text file at path, or rewrites the file under UPDATE_GOLDEN=1.
// A mismatch is reported as a line diff (see lines).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	want, ok := read(t, path, got)
	if !ok || bytes.Equal(want, got) {
		return
	}
	t.Errorf("%s differs (run with UPDATE_GOLDEN=1 and review the diff) (-want +got):\n%s", path,
		cmp.Diff(lines(want), lines(got)))
}

// CheckBinary compares got with the binary file at path byte for byte, or rewrites the file
// under UPDATE_GOLDEN=1. A mismatch is reported by the two sizes and the first offset where
// they differ, then by explain(want, got) when explain is not nil (a PNG test says there how
// many pixels changed).
func CheckBinary(t testing.TB, path string, got []byte, explain func(want, got []byte) string) {
	t.Helper()
	want, ok := read(t, path, got)
	if !ok || bytes.Equal(want, got) {
		return
	}
	msg := fmt.Sprintf("%s differs (run with UPDATE_GOLDEN=1 and review the change): want %d bytes, got %d, first difference at offset %d",
		path, len(want), len(got), firstDifference(want, got))
	if explain != nil {
		msg += "\n" + explain(want, got)
	}
	t.Error(msg)
}

// read returns the golden file at path, or writes got there under UPDATE_GOLDEN=1 and reports
// false: there is then nothing to compare.
func read(t testing.TB, path string, got []byte) ([]byte, bool) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return nil, false
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with UPDATE_GOLDEN=1 to create it): %v", err)
	}
	return want, true
}

// firstDifference returns the first offset where a and b differ; for a prefix, the shorter's
// length.
func firstDifference(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// lines cuts a text file into lines for a diff. SVG and scene JSON hold one entity per line,
// and a polygon's line can be thousands of characters long, so lines are also cut before each
// SVG path command and between JSON points: a changed vertex then shows as itself. The cuts
// only shape the report; files are compared byte for byte.
func lines(b []byte) []string {
	return strings.Split(pointBreaks.Replace(string(b)), "\n")
}

var pointBreaks = strings.NewReplacer("],[", "],\n[", " M ", "\n M ", " L ", "\n L ", " C ", "\n C ", " Q ", "\n Q ", " A ", "\n A ")
