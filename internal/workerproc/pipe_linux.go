package workerproc

import (
	"os"
	"syscall"
)

// workerPipeBytes is the pipe buffer asked for a worker's stdout: a big scene's JSON then
// crosses in a few handoffs between the processes instead of one per 64 KB (the default),
// each of which waits for the other process to be scheduled. The kernel caps it at
// /proc/sys/fs/pipe-max-size (1 MB by default); failing to grow it changes nothing else.
const workerPipeBytes = 1 << 20

// growPipe asks for a bigger pipe buffer on f.
func growPipe(f *os.File) {
	if sc, err := f.SyscallConn(); err == nil {
		sc.Control(func(fd uintptr) {
			syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETPIPE_SZ, workerPipeBytes)
		})
	}
}
