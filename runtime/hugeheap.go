package runtime

import "sync/atomic"

// A worker's run grows its heap onto memory the process has never touched, and each 4 KiB
// page of it costs a fault when first written: on a virtual machine several microseconds, so
// that a run of 10,000 shapes, its lint and its SVG (some 9 MB) spent about a fifth of `cadrun
// run`'s time in them (docs/decisions.md, "W1's run, stage by stage"). Where the system gives
// transparent huge pages on request (Linux's `madvise` setting, the default of many
// distributions), a run that has drawn hugeHeapEntities shapes, and so will likely grow its
// heap by megabytes, has its worker grow the heap once by hugeHeapBytes of memory marked for
// them, on another goroutine: a 2 MiB page then costs one fault. A small run never pays for
// it, and an in-process run (tests, embedding) never touches the host program's heap.
const (
	hugeHeapEntities = 1000
	// hugeHeapBytes is what the heap grows by: W1's run, lint and SVG after its first
	// thousand shapes fit, and it stays under the heap the memory watch calls big
	// (MaxMemory/smallShare, 32 MB by default) with the run's own beside it.
	hugeHeapBytes = 16 << 20
)

// hugeHeapGrown is set once this process has grown its heap for huge pages (or tried).
var hugeHeapGrown atomic.Bool

// noteHeapGrowth grows the heap for huge pages once per worker process, when r's scene has
// reached hugeHeapEntities.
func (r *run) noteHeapGrowth() {
	// Load before Swap: every call after the thousandth shape asks, and a load does not
	// write the flag's cache line as a swap does.
	if r.inWorker && r.scene.Len() >= hugeHeapEntities && !hugeHeapGrown.Load() && !hugeHeapGrown.Swap(true) {
		go growHugeHeap(hugeHeapBytes)
	}
}
