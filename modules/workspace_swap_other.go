//go:build !linux

package modules

import (
	"errors"
	"os"
)

// exchange is not made outside Linux: writes rename over their target, and nothing is ever
// displaced for moveAt and removeAt to handle.
func exchange(d *os.File, a, b string) error { return errors.ErrUnsupported }

func moveAt(from *os.File, a string, to *os.File, b string) error { return errors.ErrUnsupported }

func removeAt(d *os.File, name string) error { return errors.ErrUnsupported }
