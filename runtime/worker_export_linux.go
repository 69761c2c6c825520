//go:build linux

package runtime

import (
	"os"
	"syscall"
)

// preallocate gives the n bytes about to be written at off in f their blocks now, without
// changing the file's size. On ext4 a rename over an existing file first writes out the
// renamed file's blocks that are still only reserved (delayed allocation, auto_da_alloc), and
// that would be at the end of 'cadrun run -o', when the user waits; blocks allocated here are
// not reserved, so the rename is quick. Failing (a filesystem without fallocate) changes
// nothing else.
func preallocate(f *os.File, off int64, n int) {
	const keepSize = 1 // FALLOC_FL_KEEP_SIZE
	_ = syscall.Fallocate(int(f.Fd()), keepSize, off, int64(n))
}
