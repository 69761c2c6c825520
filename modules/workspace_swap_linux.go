package modules

import (
	"os"

	"golang.org/x/sys/unix"
)

// exchange swaps the entries a and b of the directory d (renameat2 RENAME_EXCHANGE).
func exchange(d *os.File, a, b string) error {
	fd := int(d.Fd())
	return unix.Renameat2(fd, a, fd, b, unix.RENAME_EXCHANGE)
}
