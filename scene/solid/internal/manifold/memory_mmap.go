//go:build linux || darwin || freebsd

package manifold

import "syscall"

// reserve maps n bytes of private, zeroed memory: address space only, until touched.
func reserve(n uint64) ([]byte, error) {
	if n == 0 || n > 1<<32 {
		return nil, syscall.EINVAL
	}
	b, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	hugePages(b)
	return b, nil
}

// release gives a reservation back to the system.
func release(b []byte) { _ = syscall.Munmap(b) }
