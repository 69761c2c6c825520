//go:build !linux

package runtime

import "os"

// preallocate does nothing here (see the Linux version).
func preallocate(*os.File, int64, int) {}
