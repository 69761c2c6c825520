package fulldisk

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAfter: a write past the limit fails with EFBIG after writing up to it, and once the
// limit is lifted the same write goes through. Not parallel: the limit is the process's.
func TestAfter(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lift := After(t, 4)
	n, err := f.Write([]byte("abcdef"))
	lift()
	if n != 4 || !errors.Is(err, syscall.EFBIG) {
		t.Fatalf("a write across the limit: %d bytes, %v; want 4 and EFBIG", n, err)
	}
	if n, err := f.Write([]byte("ef")); n != 2 || err != nil {
		t.Fatalf("a write after the limit was lifted: %d bytes, %v", n, err)
	}
}
