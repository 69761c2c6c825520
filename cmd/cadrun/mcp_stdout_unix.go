//go:build unix

package main

import "golang.org/x/sys/unix"

// stdoutGone reports whether nobody reads stdout any more: the client process has gone (its
// end of the pipe is closed), rather than only closed its end of stdin.
func stdoutGone() bool {
	fds := []unix.PollFd{{Fd: 1, Events: unix.POLLOUT}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n == 1 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
}
