package runtime

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
)

// TestReferenceIsCurrent fails when docs/api.md no longer matches the table; regenerate it
// with `make docs` (UPDATE_GOLDEN=1 for this test alone) or `make golden`.
func TestReferenceIsCurrent(t *testing.T) {
	t.Parallel()
	golden.Check(t, filepath.Join("..", "docs", "api.md"), []byte(Reference()))
}

// TestTypeScriptCompiles checks the declarations with the TypeScript compiler when one is
// installed (`make deps` installs it); the declarations must parse and type-check.
func TestTypeScriptCompiles(t *testing.T) {
	t.Parallel()
	tsc := filepath.Join("..", ".tools", "node_modules", ".bin", "tsc")
	if !fileExists(tsc) {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatal("tsc is missing; make deps installs it")
		}
		t.Skip("tsc not installed; run make deps")
	}
	dir := t.TempDir()
	dts := filepath.Join(dir, "cadrun.d.ts")
	if err := os.WriteFile(dts, []byte(TypeScript()), 0o644); err != nil {
		t.Fatal(err)
	}
	use := filepath.Join(dir, "use.ts")
	if err := os.WriteFile(use, []byte("drawCircle('c', 0, 0, 5);\nconst m = getTextMetrics('x', 4);\nconst w: number = m.width;\nconsole.log(w);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tsc, "--noEmit", "--strict", "--lib", "es2020", dts, use).CombinedOutput()
	if err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
