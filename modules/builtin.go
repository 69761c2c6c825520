package modules

import (
	"embed"
	"io/fs"
	"slices"
	"strings"
)

// The built-in modules ship inside the binary and are read-only; a user module of the same
// name wins, which is how a user overrides one (write to its name). Each .js file documents
// itself at the top.
//
//go:embed builtin/*.js
var builtinFS embed.FS

// builtinNames is the sorted names of the built-in modules, found once.
var builtinNames = func() []string {
	entries, err := fs.ReadDir(builtinFS, "builtin")
	if err != nil {
		panic(err)
	}
	var names []string
	for _, e := range entries {
		n := strings.TrimSuffix(e.Name(), ".js")
		if err := CheckName(n); err != nil {
			panic("built-in module: " + err.Error())
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}()

// BuiltinNames lists the built-in modules, sorted.
func BuiltinNames() []string { return slices.Clone(builtinNames) }

// builtinSource is the source of built-in module name.
func builtinSource(name string) ([]byte, bool) {
	if !slices.Contains(builtinNames, name) {
		return nil, false
	}
	b, err := builtinFS.ReadFile(builtinPath(name))
	return b, err == nil
}

// builtinPath is the path a built-in module is shown under; it is not a workspace file.
func builtinPath(name string) string { return "builtin/" + name + ".js" }

// IsBuiltin reports whether name is a built-in module.
func IsBuiltin(name string) bool { return slices.Contains(builtinNames, name) }
