// Package worker turns a cadrun process that a runtime.Pool started as its worker into that
// worker while the program is still initialising its packages. Import it for its side effect
// from the main package, and from no other:
//
//	import _ "github.com/cadrun/cadrun/internal/worker"
//
// Why in an init function rather than first thing in main: a worker needs only the script
// runtime, but by the time main runs Go has initialised every package the binary links (the
// MCP server, SQLite, the JSON Schema validator, which alone compiles its meta-schemas at
// start), and each worker would pay that again on top of its parent. Go initialises
// packages in import-path order among those whose imports are done (the language
// specification, "Package initialization"); this package imports only runtime and render,
// so its init runs as soon as they and what they need are ready, and a worker serves and
// exits from there, before the rest. cmd/cadrun's TestWorkerSkipsUnneededInit keeps it so.
//
// Its workers write scenes out with render.Export, for runtime.Pool.Export (`cadrun run -o`).
// The parent's side, starting the worker early, is internal/prestart's.
package worker

import (
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

func init() {
	runtime.ServeWorkerWithExport(render.Export)
}
