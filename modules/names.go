// Package modules is the workspace: logical names mapped to files under one root, read and
// written only through os.Root so that nothing can lead outside it.
//
// Start with Open. Read and Names make a Workspace a runtime.Source (built-in modules
// included); Write, Delete and Move change files atomically; Lock orders writers in this
// process and across processes; List describes the files for the glob tool. The write-and-run
// transaction and history build on these. Watch reports changes to the files, for watch
// mode.
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
