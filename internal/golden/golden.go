// Package golden compares test output with files in testdata/, which are rewritten only on
// request: UPDATE_GOLDEN=1 go test ./... (then review the diff before committing).
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Update reports whether golden files are being regenerated.
func Update() bool { return os.Getenv("UPDATE_GOLDEN") == "1" }

// Check compares got with the file at path, or rewrites the file under UPDATE_GOLDEN=1. A
// mismatch is reported as a line diff.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with UPDATE_GOLDEN=1 to create it): %v", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (run with UPDATE_GOLDEN=1 and review the diff) (-want +got):\n%s", path,
			cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
	}
}
