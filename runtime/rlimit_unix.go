//go:build unix && !openbsd

package runtime

import "syscall"

// capAddressSpace sets this process's address space limit (RLIMIT_AS), the hard stop behind
// a worker's heap cap, as both the soft and the hard limit. A failure leaves the soft caps.
func capAddressSpace(limit uint64) {
	var r syscall.Rlimit
	setLimit(&r.Cur, limit)
	setLimit(&r.Max, limit)
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &r)
}

// setLimit stores v in a field of syscall.Rlimit, whose type is uint64 on Linux and macOS and
// int64 on FreeBSD.
func setLimit[T int64 | uint64](f *T, v uint64) {
	*f = T(min(v, 1<<63-1))
}
