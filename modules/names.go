// Package modules is the workspace: logical names mapped to files under one root, read and
// written only through os.Root so that nothing can lead outside it.
//
// Start with Open. Read and Names make a Workspace a runtime.Source (built-in modules
// included); a Change, made ready by Prepare and made by Put and Sync, writes, deletes or
// moves a file atomically; Lock orders writers in this process and across processes; List describes the files for the glob tool. The write-and-run
// transaction and history build on these. Watch reports changes to the files, for watch
// mode.
package modules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/runtime"
)

// ErrBadName is returned for a logical name that breaks the naming rule.
var ErrBadName = errors.New("bad module name")

// NameRule is the rule every logical name follows; names never carry a path or extension.
const NameRule = `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`

// validName reports whether name follows NameRule; written out rather than compiled from it,
// so that no program start compiles the expression (TestValidNameIsNameRule keeps the two
// the same).
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// CheckName refuses anything but a plain logical name, before any filesystem call.
func CheckName(name string) error {
	if !validName(name) {
		return fmt.Errorf("%w: %q: names are 1-64 letters, digits, '_' or '-', starting with a letter or digit (no paths, no .js)", ErrBadName, name)
	}
	return nil
}

// CleanName turns a file name as cadrun's own answers print it into the logical name it
// means: scene.code.js and main.js are main, modules/NAME.js, NAME.js and builtin/NAME.js are
// NAME, data/NAME.json is NAME.json (a leading ./ is dropped). A name that does not become a
// valid one comes back unchanged, for the checks to refuse in its own words.
func CleanName(name string) string {
	n := strings.TrimPrefix(name, "./")
	switch n {
	case runtime.PathOf(runtime.MainModule), runtime.MainModule + ".js":
		return runtime.MainModule
	}
	if d, ok := strings.CutPrefix(n, dataDir+"/"); ok && IsDataName(d) {
		n = d
	} else if !IsDataName(n) {
		n = strings.TrimSuffix(n, ".js")
		if m, ok := strings.CutPrefix(n, "modules/"); ok {
			n = m
		} else {
			n = strings.TrimPrefix(n, "builtin/")
		}
	}
	if CheckFileName(n) != nil {
		return name
	}
	return n
}
