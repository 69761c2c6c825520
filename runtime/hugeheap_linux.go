//go:build linux

package runtime

import (
	goruntime "runtime"
	"syscall"
	"unsafe"
)

const (
	madvHugepage  = 14 // MADV_HUGEPAGE
	hugePageBytes = 2 << 20
)

// growHugeHeap grows the heap by n bytes of new memory, marks the whole huge pages of it for
// transparent huge pages, and gives it back to the heap, untouched, for the run's next
// allocations. Go maps its heap as it grows, and a mapping made later does not inherit the
// mark, so the memory is taken as one block (mapped now), marked, and freed by a collection.
// A system without transparent huge pages ignores the mark: the memory is then ordinary heap
// the run would have grown onto anyway.
func growHugeHeap(n int) {
	b := make([]byte, n)
	p := uintptr(unsafe.Pointer(&b[0]))
	start := (p + hugePageBytes - 1) &^ (hugePageBytes - 1)
	end := (p + uintptr(n)) &^ (hugePageBytes - 1)
	if start < end {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugepage)
	}
	goruntime.KeepAlive(b)
	goruntime.GC()
}
