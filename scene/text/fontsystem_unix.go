//go:build unix

package text

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps a regular file of at most MaxFontBytes read-only; unmap releases it.
func mapFile(path string) (data []byte, unmap func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() || info.Size() == 0 || info.Size() > MaxFontBytes {
		return nil, nil, fmt.Errorf("%w: %s is not a regular file of 1 to %d bytes", ErrBadFont, path, MaxFontBytes)
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}
