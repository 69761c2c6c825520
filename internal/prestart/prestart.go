// Package prestart starts the worker of a cadrun command that runs a script first thing (and
// the importer's, for an import), from its init function, as early in the process as Go allows. Import it for its side effect from
// the main package, and from no other:
//
//	import _ "github.com/cadrun/cadrun/internal/prestart"
//
// Why an init function, and why a package apart from internal/worker: a worker takes several
// milliseconds to get ready, and the parent as long to initialise its own packages, so the
// two start-ups should overlap. Go initialises packages in import-path order among those whose
// imports are done (the language specification, "Package initialization"); this package
// imports only internal/workerproc, which imports only the standard library's process and
// file calls, so its init runs among the first of the process, long before the script
// runtime that internal/worker imports is ready. The worker it starts is the one a Pool would
// start (workerproc.Start); the command's first Pool takes it. cmd/cadrun's
// TestPrestartRunsEarly keeps it so.
package prestart

import (
	"os"

	"github.com/cadrun/cadrun/internal/workerproc"
)

// prestartFor reports the commands that run a script in a worker as their first act, once:
// their start-up is what a user waits for. The servers (mcp, watch) warm their workers
// themselves. `cadrun import` runs the module and main after the conversion. (This package's
// lists are switches and arrays, data the program starts with: a map would be filled as the
// package initialises, in every process.)
func prestartFor(command string) bool {
	switch command {
	case "run", "tool", "import":
		return true
	}
	return false
}

// importRole is the role of the worker that converts a drawing (tools/importer), which `cadrun
// import` and `cadrun tool import` start here too, with the heap cap that
// importer.MaxImportMemory is.
const importRole = "import"

// ScriptlessTools are the tools a `cadrun tool` call makes without running a script (it builds
// the scene only when a tool needs it): for them a worker would start for nothing, and on a busy
// machine its start-up takes the parent's time. cmd/cadrun's TestScriptlessToolsRunNoScript
// keeps the list true. A command line that names no tool (--list, a usage error) runs none
// either.
var ScriptlessTools = [...]string{"", "glob", "read", "lsp", "search"}

// scriptless reports a tool in ScriptlessTools.
func scriptless(tool string) bool {
	for _, t := range ScriptlessTools {
		if t == tool {
			return true
		}
	}
	return false
}

// toolFlag reports the flags of `cadrun tool` that take a value (the others are booleans).
func toolFlag(name string) bool {
	switch name {
	case "params", "params-file", "workspace":
		return true
	}
	return false
}

func init() {
	if workerproc.IsWorker() {
		return
	}
	for _, role := range roles(os.Args[1:]) {
		workerproc.PrestartRole(role, workerproc.DefaultMaxMemory)
	}
}

// roles are the workers a command line starts ahead, by role: the importer's first, whose
// start-up the conversion waits on before any script runs.
func roles(args []string) []string {
	if len(args) == 0 || !prestartFor(args[0]) {
		return nil
	}
	tool := ""
	if args[0] == "tool" {
		tool = toolName(args[1:])
	}
	var r []string
	if args[0] == "import" || tool == "import" {
		r = append(r, importRole)
	}
	if !(args[0] == "tool" && scriptless(tool)) {
		r = append(r, "1")
	}
	return r
}

// toolName is the tool a `cadrun tool` command line names: its first argument that is neither
// a flag nor a flag's value, as the flag package parses them; "" when there is none.
func toolName(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1]
			}
			return ""
		case len(a) < 2 || a[0] != '-':
			return a
		}
		name := a[1:]
		if name[0] == '-' {
			name = name[1:]
		}
		hasValue := false
		for j := 0; j < len(name); j++ {
			if name[j] == '=' {
				hasValue = true
				break
			}
		}
		if !hasValue && toolFlag(name) {
			i++ // the flag's value
		}
	}
	return ""
}
