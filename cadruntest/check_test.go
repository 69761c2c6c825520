package cadruntest

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errors, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	goruntime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// check runs Check on a recorder, on its own goroutine so that Fatal can end it.
func check(t *testing.T, path string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(r, path, Options{})
	}()
	<-done
	return r
}

func TestCheckTxtar(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("UPDATE_GOLDEN", "")
	dir := t.TempDir()
	path := filepath.Join(dir, "plate.txtar")
	write := func(content string) {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("A plate.\n-- scene.code.js --\nimport {w} from 'dims'\ndrawRect('plate', 0, 0, w, 20)\n-- modules/dims.js --\nexport const w = 40\n")
	r := check(t, path)
	snap := filepath.Join(dir, "__snapshots__")
	if diff := cmp.Diff([]string{path + ": wrote 3 new snapshot files in " + snap}, r.logs); diff != "" || r.errors != nil {
		t.Errorf("first check: errors %q; logs mismatch (-want +got):\n%s", r.errors, diff)
	}
	if r := check(t, path); r.errors != nil || r.logs != nil {
		t.Errorf("second check: errors %q, logs %q", r.errors, r.logs)
	}

	write("A wider plate.\n-- scene.code.js --\nimport {w} from 'dims'\ndrawRect('plate', 0, 0, w, 20)\n-- modules/dims.js --\nexport const w = 50\n")
	r = check(t, path)
	if len(r.errors) != 1 || !strings.HasPrefix(r.errors[0], path+" differs from its snapshot (UPDATE_GOLDEN=1 rewrites it; review the diff):\nresized rect \"plate\" from 40×20 to 50×20\n") {
		t.Errorf("changed check: %q", r.errors)
	}

	write("-- scene.code.js --\ndrawRect('plate', 0, 0, 1)\n")
	r = check(t, path)
	want := []string{path + ": the workspace failed:\nscene.code.js:1:1: TypeError: drawRect: missing argument height; the call is drawRect(name: string, cx: number, cy: number, width: number, height: number): boolean\n    1 | drawRect('plate', 0, 0, 1)\n        ^\n"}
	if diff := cmp.Diff(want, r.errors); diff != "" {
		t.Errorf("failing script mismatch (-want +got):\n%s", diff)
	}

	write("-- ../escape.js --\nx\n")
	r = check(t, path)
	want = []string{path + `: archive file "../escape.js" is not a workspace file: use scene.code.js, modules/NAME.js or tests/NAME.test.js`}
	if diff := cmp.Diff(want, r.errors); diff != "" {
		t.Errorf("bad archive mismatch (-want +got):\n%s", diff)
	}
}
