package runtime

import (
	"syscall"
	"testing"
)

// BenchmarkFreshPageFloor is the floor under a fresh process's heap, with no cadrun code in it:
// the first write to each 4 KB page of new anonymous memory, which the kernel then has to find,
// zero and map (on a virtual machine the host may have to back it too). A run in a new worker
// (`cadrun run`) grows its heap onto such pages: W1's worker touches about 2,300 of them
// (docs/benchmarks.md, "the cost of a fresh page"). ns/page is one page's first write.
func BenchmarkFreshPageFloor(b *testing.B) {
	b.Run("4KiB", func(b *testing.B) { benchFreshPages(b, false) })
	// With the memory marked for transparent huge pages, as a worker's heap is once its run
	// has drawn hugeHeapEntities shapes (hugeheap.go): where the system grants them, a
	// fault maps 2 MiB.
	b.Run("huge", func(b *testing.B) { benchFreshPages(b, true) })
}

func benchFreshPages(b *testing.B, huge bool) {
	const size = 16 << 20
	pages := 0
	for b.Loop() {
		m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		if err != nil {
			b.Fatal(err)
		}
		if huge {
			if err := syscall.Madvise(m, madvHugepage); err != nil {
				b.Skip("no transparent huge pages here:", err)
			}
		}
		for i := 0; i < size; i += 4096 {
			m[i] = 1
		}
		pages += size / 4096
		if err := syscall.Munmap(m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pages), "ns/page")
}
