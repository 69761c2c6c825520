//go:build !unix || openbsd

package runtime

// capAddressSpace does nothing where the system has no address space limit (OpenBSD has none
// to set, and Windows is not supported: README, "Platforms"): a worker is then
// bounded by Go's memory limit and the heap watch alone.
func capAddressSpace(limit uint64) {}
