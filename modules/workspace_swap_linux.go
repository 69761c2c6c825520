package modules

import (
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the entries a and b of the directory d (renameat2 RENAME_EXCHANGE).
func exchange(d *os.File, a, b string) error {
	return withFd(d, func(fd int) error { return unix.Renameat2(fd, a, fd, b, unix.RENAME_EXCHANGE) })
}

// moveAt renames a in the directory from to b in the directory to.
func moveAt(from *os.File, a string, to *os.File, b string) error {
	return withFd(from, func(f int) error {
		return withFd(to, func(t int) error { return unix.Renameat(f, a, t, b) })
	})
}

// removeAt removes the file name from the directory d.
func removeAt(d *os.File, name string) error {
	return withFd(d, func(fd int) error { return unix.Unlinkat(fd, name, 0) })
}

// withFd calls do with d's descriptor, which stays open meanwhile.
func withFd(d *os.File, do func(fd int) error) error {
	c, err := d.SyscallConn()
	if err != nil {
		return err
	}
	var derr error
	if err := c.Control(func(fd uintptr) { derr = do(int(fd)) }); err != nil {
		return err
	}
	return derr
}
