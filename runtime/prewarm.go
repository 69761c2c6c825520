package runtime

// A worker that a Pool starts ahead of need (an idle worker kept for the next write) waits
// for its first request with nothing to do, while the tables the runtime, the lint and text
// build at first use (to keep every process's start light: docs/decisions.md, "Start-up: the
// initialisers cadrun still runs, and who links the rest") would be built on the path of that
// request, an agent's first write. So such a worker builds them before it reads its first
// request, by running a small drawing that reaches each of them (warmScript) in a realm of its
// own, through the same run and lint as a request. It does so before reading rather than
// beside it: a request that comes that early would otherwise share the cores with the warm-up
// and wait for the same tables anyway. A worker whose request is already waiting (`cadrun
// run`'s, which internal/prestart starts, or one a Pool starts because a run needs it now)
// does not warm up: the warm-up would only stand in front of the run.

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/cadrun/cadrun/internal/workerproc"
)

// warmScript draws what reaches the tables built at first use: the API table and its index,
// the realm's helpers, the text face and its glyphs, a dimension's layout, a boolean, a layer,
// and texts and a layer name that the lint's patterns read (sizes stated in labels, a layer
// named as a cut).
const warmScript = `
createLayer('cut lines')
drawRect('plate', 0, 0, 80, 40)
drawCircle('bore', 20, 0, 5)
setLayer('bore', 'cut lines')
booleanDifference('plate', 'bore', 'part')
drawLine('axis', [-40, 0, 40, 0])
setLinetype('axis', 'center')
drawText('label', 'Ø10 R5 40 mm', 0, -30, 5, {align: 'center'})
dimLinear('width', [-40, 20], [40, 20], {direction: 'horizontal', offset: 8})
rotate('part', 0.1)
translate('part', 1, 2)
`

// warmed is set once a worker started ahead of need has run its warm-up (prewarm).
var warmed atomic.Bool

// startedAhead reports whether this worker was started ahead of need (workerproc.AheadEnv).
func startedAhead() bool { return os.Getenv(workerproc.AheadEnv) == "1" }

// prewarm runs warmScript, linted, in a realm of its own, and builds the API's index, so that
// the first request finds what they build ready. What it draws is dropped. It never fails a
// worker: a warm-up that does not run leaves the tables to be built at first use, as before.
func prewarm() {
	defer warmed.Store(true)
	defer func() { _ = recover() }()
	apiIndex()
	declRE()
	opt := Options{Lint: true}
	res, err := executeIn(context.Background(), newRealm(), MapSource{MainModule: warmScript}, MainModule, opt, nil)
	if err == nil {
		lintRun(res, opt)
	}
}

// prewarmAhead has a Pool tell the workers it starts ahead of need so; a benchmark turns it
// off to compare.
var prewarmAhead = true
