// Package modules is the workspace: logical names mapped to files under one root, read and
// written only through os.Root so that nothing can lead outside it.
//
// Start with Open. This first part is read-only: the write-and-run transaction, locking and
// history build on it.
package modules

import (
	"errors"
	"fmt"
	"regexp"
)

// ErrBadName is returned for a logical name that breaks the naming rule.
var ErrBadName = errors.New("bad module name")

// NameRule is the rule every logical name follows; names never carry a path or extension.
const NameRule = `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`

var nameRE = regexp.MustCompile(NameRule)

// CheckName refuses anything but a plain logical name, before any filesystem call.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("%w: %q: names are 1-64 letters, digits, '_' or '-', starting with a letter or digit (no paths, no .js)", ErrBadName, name)
	}
	return nil
}
