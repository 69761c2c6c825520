//go:build darwin || freebsd

package manifold

// hugePages does nothing here: the system decides its page sizes itself.
func hugePages([]byte) {}
