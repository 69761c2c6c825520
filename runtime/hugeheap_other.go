//go:build !linux

package runtime

// growHugeHeap does nothing where the heap's page size cannot be asked for.
func growHugeHeap(int) {}
