package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestToolReplyNotHTMLEscaped: `cadrun tool` prints <, > and & as they are.
func TestToolReplyNotHTMLEscaped(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte("drawCircle('c', 0, 0, 2 > 1 && 1 < 2 ? 5 : 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"tool", "--workspace", ws, "read", "--params", `{"file":"scene.code.js"}`}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	want := `{"status":"success","data":{"file":"main","path":"scene.code.js","content":"drawCircle('c', 0, 0, 2 > 1 && 1 < 2 ? 5 : 1)\n","lines":1},"error":null}` + "\n"
	if diff := cmp.Diff(want, stdout.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
