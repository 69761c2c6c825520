package importer

// An import is bounded as a run is: the file is untrusted, and what the generator writes for
// it is work the importer does for whoever sent it. So the module is written into a
// codeWriter that refuses as soon as the text it holds passes its budget, and every loop that
// grows with the file (the entities, a path's segments, a hatch's rings, the folding) checks
// the import's clock as it goes, so a file that asks for too much is refused naming the limit
// it reached, never after the whole module is built.

import (
	"fmt"
	"strings"
	"time"

	"github.com/cadrun/cadrun/runtime"
)

// MaxUnfoldedBytes is the most text the generator writes for one module before folding
// (fold.go) turns its runs of similar calls into tables: four times the sandbox's
// MaxSourceBytes, since a drawing sheet of many similar entities only fits MaxSourceBytes
// once folded. The folded module is held to MaxSourceBytes itself.
var MaxUnfoldedBytes = 4 * runtime.DefaultLimits.MaxSourceBytes

// clockEvery is how many steps of work pass between two looks at the clock.
const clockEvery = 256

// budget is one conversion's deadline: the file's MaxTime from the start of reading, for
// reading, generating and folding alike.
type budget struct {
	start   time.Time
	maxTime time.Duration
	steps   int
	err     error // the first refusal, kept: once over, every later check says so again
}

func newBudget(maxTime time.Duration) *budget {
	return &budget{start: time.Now(), maxTime: maxTime}
}

// step counts one unit of work and, every clockEvery units, refuses the conversion once it
// has taken over its MaxTime. A nil budget never refuses (tests that build a writer alone).
func (b *budget) step() error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	b.steps++
	if b.steps%clockEvery == 0 && time.Since(b.start) > b.maxTime {
		b.err = fmt.Errorf("%w: converting the file took over %v (MaxTime); import a few layers at a time (-layers) or simplify the drawing", ErrRefused, b.maxTime)
	}
	return b.err
}

// codeWriter holds the module's text up to max bytes. Past that it keeps nothing more and
// remembers why: the text a file makes is refused while it is written, so a file cannot make
// the importer hold more than the budget. Writes after a refusal do nothing; Err says why.
type codeWriter struct {
	b     strings.Builder
	max   int
	stage string // what the budget is, for the error: " before folding", ", the limit on a script"
	limit string // the limit's name
	hint  string // what to do with a file over it
	clock *budget
	err   error
}

func newCodeWriter(max int, stage, limit, hint string, clock *budget) *codeWriter {
	return &codeWriter{max: max, stage: stage, limit: limit, hint: hint, clock: clock}
}

// WriteString appends s, or refuses once the text would pass the budget or the clock runs out.
func (w *codeWriter) WriteString(s string) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.b.Len()+len(s) > w.max {
		w.err = fmt.Errorf("%w: the module would be over %d bytes%s (%s); %s", ErrRefused, w.max, w.stage, w.limit, w.hint)
		return 0, w.err
	}
	if err := w.clock.step(); err != nil {
		w.err = err
		return 0, err
	}
	return w.b.WriteString(s)
}

// Write is WriteString, so that fmt.Fprintf writes through the budget.
func (w *codeWriter) Write(p []byte) (int, error) { return w.WriteString(string(p)) }

// Err is why the writer refused, or nil.
func (w *codeWriter) Err() error { return w.err }

// Len is how many bytes the writer holds.
func (w *codeWriter) Len() int { return w.b.Len() }

// String is the text written.
func (w *codeWriter) String() string { return w.b.String() }
