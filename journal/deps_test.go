package journal

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibcMatchesSqlite checks that the build uses exactly the modernc.org/libc that
// modernc.org/sqlite's go.mod requires: the SQLite translation is generated against that libc,
// and another version can fail at run time in ways no compiler notices.
func TestLibcMatchesSqlite(t *testing.T) {
	out, err := exec.Command("go", "mod", "graph").Output()
	if err != nil {
		t.Skipf("go mod graph: %v", err)
	}
	sel, err := exec.Command("go", "list", "-m", "-f", "{{.Path}}@{{.Version}}", "modernc.org/sqlite", "modernc.org/libc").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	selected := strings.Fields(string(sel)) // [sqlite@v, libc@v]
	if len(selected) != 2 {
		t.Fatalf("go list -m answered %q", sel)
	}
	required := ""
	for line := range strings.Lines(string(out)) {
		from, to, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && from == selected[0] && strings.HasPrefix(to, "modernc.org/libc@") {
			required = to
		}
	}
	if required != selected[1] {
		t.Errorf("%s requires %s, but the build selects %s; pin modernc.org/libc in go.mod to the version sqlite requires", selected[0], required, selected[1])
	}
}
