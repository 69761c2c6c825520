package manifold

// The wasm's memory. wazero's own grows a Go slice by append, so each grow of the heap copies
// all of it into a new slice and leaves the old one to the collector: W5 (BENCH.md) grew from
// 16 to 57 MiB in eight steps and spent a quarter of its boolean in those copies, their page
// faults and the collections they caused. Where the system can map memory (memory_mmap.go),
// an instance instead reserves address space for its whole cap at once and grows in place:
// nothing is copied, pages cost only when touched, and the pages go back to the system when
// the instance ends. Elsewhere, or when the reservation is refused, the memory is a Go slice
// as before.

import (
	"sync/atomic"

	"github.com/tetratelabs/wazero/experimental"
)

// inUse is the bytes of wasm memory all live instances of this process have grown to, mapped
// or not: what MemoryInUse reports.
var inUse atomic.Int64

// MemoryInUse is the wasm memory of every live kernel instance in this process, in bytes.
// Memory mapped outside Go's heap is not in Go's memory statistics, so a watch on a process's
// memory adds this to what it reads (the worker's MaxMemory watch does).
func MemoryInUse() int64 { return inUse.Load() }

// linearMemory is one instance's wasm memory: a reservation of limit bytes grown in place,
// or a Go slice. It is freed once, by wazero when the module closes or by the kernel when it
// drops an instance that wazero closed without its resources (a call stopped by its context).
type linearMemory struct {
	buf    []byte // the reservation or the Go slice; len is the memory's size
	mapped bool
	freed  bool
}

// newLinearMemory reserves limit bytes of address space, or falls back to a Go slice of cap
// bytes when the system cannot map it (then grows copy, as wazero's own memory does).
func newLinearMemory(capacity, limit uint64) *linearMemory {
	if b, err := reserve(limit); err == nil {
		return &linearMemory{buf: b[:0], mapped: true}
	}
	return &linearMemory{buf: make([]byte, 0, capacity)}
}

// Reallocate is experimental.LinearMemory's: the memory at size bytes, or nil past the
// reservation (wazero then fails the grow, and the kernel answers ErrMemoryLimit).
func (m *linearMemory) Reallocate(size uint64) []byte {
	if m.freed {
		return nil
	}
	old := uint64(len(m.buf))
	switch {
	case size <= uint64(cap(m.buf)):
		m.buf = m.buf[:size]
	case m.mapped:
		return nil
	default:
		m.buf = append(m.buf, make([]byte, size-old)...)
	}
	inUse.Add(int64(size) - int64(old))
	return m.buf
}

// Free is experimental.LinearMemory's; it may be called again, and does nothing then.
func (m *linearMemory) Free() {
	if m.freed {
		return
	}
	m.freed = true
	inUse.Add(-int64(len(m.buf)))
	if m.mapped {
		release(m.buf[:cap(m.buf)])
	}
	m.buf = nil
}

// allocator gives the instance being started its memory, capped at limit bytes, and records
// it in *mem for the kernel to free. The reservation holds at least the wasm's initial
// memory (capacity), so that a cap below it is refused by the kernel's check, by name.
func allocator(limit uint64, mem **linearMemory) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(capacity, most uint64) experimental.LinearMemory {
		m := newLinearMemory(capacity, max(capacity, min(most, limit)))
		*mem = m
		return m
	})
}
