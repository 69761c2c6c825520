package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzToolCall: any parameters to any tool never panic, and a call that fails leaves the
// workspace's files byte for byte as they were.
func FuzzToolCall(f *testing.F) {
	seeds := []struct{ tool, params string }{
		{"write", `{"file":"main","code":"drawCircle('a', 0, 0, 1)"}`},
		{"write", `{"file":"main","code":"oops("}`},
		{"edit", `{"file":"main","old_code":"1)","new_code":"2)"}`},
		{"edit", `{"file":"main","edits":[{"old_code":"a","new_code":"b"},{"old_code":"","new_code":"c"}]}`},
		{"read", `{"file":"main","offset":2,"limit":1}`},
		{"glob", `{"pattern":"[*"}`},
		{"move", `{"file":"gears","to":"../x"}`},
		{"delete", `{"file":"gears"}`},
		{"scene", `{"command":"entity","name":"a"}`},
		{"scene", `{"command":"undo"}`},
		{"scene", `{"command":"dxf","dxf_version":"2000"}`},
		{"scene", `{"command":"tree","group":"g","offset":1,"depth":2,"max_bytes":600}`},
		{"scene", `{"command":"json","region":[-1,-1,1,1],"offset":3}`},
		{"scene", `{"command":"svg","name":"g","max_bytes":100}`},
		{"scene", `{"command":"diff","against":-1,"width":64}`},
		{"scene", `{"command":"diff","against":"v1","max_bytes":100,"width":64}`},
		{"scene", `{"command":"sketch","max_bytes":600}`},
		{"scene", `{"command":"sketch","clear":true}`},
		{"write", `{"file":"main","code":"drawCircle('a', 0, 0, 1)","view":{"width":64,"focus":"a","highlight":"changed","grid":true}}`},
		{"scene", `{"command":"undo","view":{"width":32,"focus":[-1,-1,1,1],"highlight":["g"]}}`},
		{"import", `{"content":"0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\n1\n20\n1\n40\n2\n0\nENDSEC\n0\nEOF\n","module":"part","layers":["0"],"units":"mm"}`},
		{"import", `{"content":"0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\nx\n","module":"main"}`},
		{"import", `{"path":"../scene.code.js","format":"svg"}`},
		{"import", `{"content":"<svg xmlns='http://www.w3.org/2000/svg'><path d='M0 0 L1 1'/></svg>","module":"logo","prefix":"l_1"}`},
	}
	for _, s := range seeds {
		f.Add(s.tool, s.params)
	}
	f.Fuzz(func(t *testing.T, tool, params string) {
		if tool == "scene" && bytes.Contains([]byte(params), []byte("png")) {
			return // rendering large pictures is slow and not what this target explores
		}
		s, dir := newSession(t, map[string]string{
			"scene.code.js":    "import 'gears'\ngear('g')\n",
			"modules/gears.js": "function gear(n) { drawCircle(n, 0, 0, 5) }\n",
		})
		before := snapshotDir(t, dir)
		_, err := s.Call(context.Background(), tool, json.RawMessage(params))
		if err != nil && !bytes.Equal(before, snapshotDir(t, dir)) {
			t.Fatalf("%s %s failed (%v) but changed the workspace", tool, params, err)
		}
	})
}

// snapshotDir is the workspace's user files (main and modules), for comparison.
func snapshotDir(t *testing.T, dir string) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, rel := range []string{"scene.code.js"} {
		b, _ := os.ReadFile(filepath.Join(dir, rel))
		out.Write(b)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "modules"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, "modules", e.Name()))
		out.WriteString(e.Name())
		out.Write(b)
	}
	return out.Bytes()
}
