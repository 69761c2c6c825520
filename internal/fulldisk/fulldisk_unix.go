//go:build unix

package fulldisk

import (
	"flag"
	"syscall"
	"testing"
)

// After makes this process's writes past size bytes of any file fail until lift is called
// (or the test ends): a write that crosses the limit writes up to it, the next gets EFBIG
// ("file too large"; Go ignores the SIGXFSZ that comes with it). It skips the test where the
// limit cannot be set.
func After(t testing.TB, size int64) (lift func()) {
	t.Helper()
	if f := flag.Lookup("test.testlogfile"); f != nil && f.Value.String() != "" {
		// go test keeps a log of the files the tests open, to cache their result, and it
		// writes it as they go: past the limit its next line fails, and so does the run.
		// -count=1 (as make test runs) turns the cache and its log off.
		t.Skip("the file size limit would cut go test's cache log: run with -count=1")
	}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skipf("no file size limit here: %v", err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: uint64(size), Max: old.Max}); err != nil {
		t.Skipf("cannot set the file size limit: %v", err)
	}
	lifted := false
	lift = func() {
		if lifted {
			return
		}
		lifted = true
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			panic("fulldisk: lifting the file size limit: " + err.Error()) // every later test would fail
		}
	}
	t.Cleanup(lift)
	return lift
}
