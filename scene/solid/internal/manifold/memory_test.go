package manifold

import (
	"context"
	"testing"
	"unsafe"
)

// TestMemoryGrowsInPlace: where the system maps memory, the wasm's memory grows without
// moving (no copy of the heap at each grow), MemoryInUse follows it, and it is all given back
// when the kernel closes, also after a call stopped by its context left an instance behind
// that wazero closed without its memory.
func TestMemoryGrowsInPlace(t *testing.T) {
	requireKernel(t)
	if _, err := reserve(1 << 20); err != nil {
		t.Skipf("this system maps no memory (%v): the wasm's memory is a Go slice", err)
	}
	ctx := context.Background()
	before := MemoryInUse()
	k, err := New(ctx, Options{NoInterrupt: true})
	if err != nil {
		t.Fatal(err)
	}
	ok := must(t)
	ok(k.Cube(ctx, 1, 1, 1, false))
	base, size := unsafe.SliceData(k.in.memory.buf), k.MemorySize()
	if got := MemoryInUse() - before; got != int64(size) {
		t.Errorf("MemoryInUse grew by %d with an instance of %d bytes", got, size)
	}
	ok(k.Sphere(ctx, 10, 600))
	if k.MemorySize() <= size {
		t.Fatalf("a 1000-segment sphere did not grow the memory from %d bytes", size)
	}
	if unsafe.SliceData(k.in.memory.buf) != base {
		t.Error("the memory moved as it grew")
	}
	if got := MemoryInUse() - before; got != int64(k.MemorySize()) {
		t.Errorf("MemoryInUse grew by %d with an instance of %d bytes", got, k.MemorySize())
	}
	if err := k.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if got := MemoryInUse(); got != before {
		t.Errorf("MemoryInUse is %d after the kernel closed, want %d", got, before)
	}

	// An interruptible kernel stopped inside a call: its instance is dropped at the next call.
	k = newKernel(t, Options{})
	stop, cancel := context.WithCancel(ctx)
	testHookResize = cancel
	defer func() { testHookResize = nil }()
	if _, err := k.Sphere(stop, 10, 1500); err == nil {
		t.Fatal("a sphere whose context was cancelled as it ran was made")
	}
	testHookResize = nil
	ok(k.Cube(ctx, 1, 1, 1, false))
	if got := MemoryInUse() - before; got != int64(k.MemorySize()) {
		t.Errorf("after a stopped call, MemoryInUse grew by %d with one instance of %d bytes: the stopped one's memory was kept", got, k.MemorySize())
	}
}
