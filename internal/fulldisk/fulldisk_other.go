//go:build !unix

package fulldisk

import "testing"

// After skips the test: there is no file size limit to set here.
func After(t testing.TB, size int64) (lift func()) {
	t.Helper()
	t.Skip("no file size limit on this system")
	return func() {}
}
