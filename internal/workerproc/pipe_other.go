//go:build !linux

package workerproc

import "os"

// growPipe does nothing where pipes cannot be resized.
func growPipe(*os.File) {}
