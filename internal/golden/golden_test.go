package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recorder keeps what a check reports instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Error(args ...any)         { r.errors = append(r.errors, fmt.Sprint(args...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, fmt.Sprintf(f, a...)) }
func (r *recorder) Fatal(args ...any)         { r.Error(args...); runtime.Goexit() }
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); runtime.Goexit() }

// run calls check with a recorder on its own goroutine, so that Fatal can end it.
func run(t *testing.T, check func(testing.TB)) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.errors
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	t.Setenv("UPDATE_GOLDEN", "")
	path := filepath.Join(t.TempDir(), "a.svg")
	writeFile(t, path, "<svg>\n<path d=\"M 0 0 L 1 1 L 2 0\"/>\n</svg>\n")

	if got := run(t, func(tb testing.TB) { Check(tb, path, []byte("<svg>\n<path d=\"M 0 0 L 1 1 L 2 0\"/>\n</svg>\n")) }); got != nil {
		t.Errorf("same content: errors %q", got)
	}
	got := run(t, func(tb testing.TB) { Check(tb, path, []byte("<svg>\n<path d=\"M 0 0 L 1 2 L 2 0\"/>\n</svg>\n")) })
	want := []string{path + " differs (run with UPDATE_GOLDEN=1 and review the diff) (-want +got):\n" +
		cmp.Diff([]string{"<svg>", "<path d=\"M 0 0", " L 1 1", " L 2 0\"/>", "</svg>", ""},
			[]string{"<svg>", "<path d=\"M 0 0", " L 1 2", " L 2 0\"/>", "</svg>", ""})}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changed vertex: mismatch (-want +got):\n%s", diff)
	}

	missing := filepath.Join(t.TempDir(), "none.svg")
	got = run(t, func(tb testing.TB) { Check(tb, missing, []byte("x")) })
	want = []string{"reading golden file (run with UPDATE_GOLDEN=1 to create it): open " + missing + ": no such file or directory"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("missing file: mismatch (-want +got):\n%s", diff)
	}
}

func TestCheckBinary(t *testing.T) {
	t.Setenv("UPDATE_GOLDEN", "")
	path := filepath.Join(t.TempDir(), "a.bin")
	writeFile(t, path, "\x89PNG\x00\x01\x02")
	explain := func(want, got []byte) string { return fmt.Sprintf("explained %q %q", want, got) }

	if got := run(t, func(tb testing.TB) { CheckBinary(tb, path, []byte("\x89PNG\x00\x01\x02"), explain) }); got != nil {
		t.Errorf("same content: errors %q", got)
	}
	for _, c := range []struct {
		name    string
		got     string
		explain func([]byte, []byte) string
		want    string
	}{
		{"changed byte", "\x89PNG\x00\x07\x02", nil, path + " differs (run with UPDATE_GOLDEN=1 and review the change): want 7 bytes, got 7, first difference at offset 5"},
		{"longer", "\x89PNG\x00\x01\x02\x03", nil, path + " differs (run with UPDATE_GOLDEN=1 and review the change): want 7 bytes, got 8, first difference at offset 7"},
		{"explained", "\x89PNG", explain, path + " differs (run with UPDATE_GOLDEN=1 and review the change): want 7 bytes, got 4, first difference at offset 4\n" +
			`explained "\x89PNG\x00\x01\x02" "\x89PNG"`},
	} {
		got := run(t, func(tb testing.TB) { CheckBinary(tb, path, []byte(c.got), c.explain) })
		if diff := cmp.Diff([]string{c.want}, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestUpdateRewrites(t *testing.T) {
	t.Setenv("UPDATE_GOLDEN", "1")
	dir := t.TempDir()
	text, bin := filepath.Join(dir, "new", "a.txt"), filepath.Join(dir, "a.bin")
	writeFile(t, bin, "old")
	if got := run(t, func(tb testing.TB) {
		Check(tb, text, []byte("new text\n"))
		CheckBinary(tb, bin, []byte("new\x00"), nil)
	}); got != nil {
		t.Errorf("update: errors %q", got)
	}
	for path, want := range map[string]string{text: "new text\n", bin: "new\x00"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("%s holds %q, want %q", path, b, want)
		}
	}

	// Only "1" updates: any other value compares.
	t.Setenv("UPDATE_GOLDEN", "0")
	got := run(t, func(tb testing.TB) { Check(tb, text, []byte("other\n")) })
	if len(got) != 1 {
		t.Errorf("UPDATE_GOLDEN=0: errors %q, want one mismatch", got)
	}
}
