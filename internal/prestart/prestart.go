// Package prestart starts the worker of a cadrun command that runs a script first thing, from
// its init function, as early in the process as Go allows. Import it for its side effect from
// the main package, and from no other:
//
//	import _ "github.com/cadrun/cadrun/internal/prestart"
//
// Why an init function, and why a package apart from internal/worker: a worker takes several
// milliseconds to get ready, and the parent as long to initialise its own packages, so the
// two start-ups should overlap. Go initialises packages in import-path order among those whose
// imports are done (the language specification, "Package initialization"); this package
// imports only internal/workerproc, which imports only the standard library's process and
// file calls, so its init runs about a millisecond into the process, long before the script
// runtime that internal/worker imports is ready. The worker it starts is the one a Pool would
// start (workerproc.Start); the command's first Pool takes it. cmd/cadrun's
// TestPrestartRunsEarly keeps it so.
package prestart

import (
	"os"

	"github.com/cadrun/cadrun/internal/workerproc"
)

// prestartFor are the commands that run a script in a worker as their first act, once: their
// start-up is what a user waits for. The servers (mcp, watch) warm their workers themselves.
var prestartFor = map[string]bool{"run": true, "tool": true}

func init() {
	if len(os.Args) > 1 && prestartFor[os.Args[1]] && !workerproc.IsWorker() {
		workerproc.Prestart(workerproc.DefaultMaxMemory)
	}
}
