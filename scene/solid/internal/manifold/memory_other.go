//go:build !(linux || darwin || freebsd)

package manifold

import "errors"

// reserve is not done here: the memory is a Go slice.
func reserve(uint64) ([]byte, error) { return nil, errors.ErrUnsupported }

func release([]byte) {}
