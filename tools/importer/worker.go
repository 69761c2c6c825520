package importer

// Import in a worker process of its own (internal/job), so that no drawing can take down the
// process that imports it: a file is user input, and its conversion is bounded here from the
// outside, whatever the readers and the code generation bound from the inside. A panic in the
// importer, an allocation past the heap cap or a conversion past the time limit ends the
// worker, not the server, and is refused naming what happened. The parent sends the bytes and
// the options; the worker answers the module's source and the report, or the error: its text,
// byte for byte, and the sentinels it wraps (wireErrors), so that errors.Is holds in the parent
// as it does in process. Types (*dxf.SyntaxError, *svg.LineError) do not cross: errors.As finds
// none in the parent.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cadrun/cadrun/internal/job"
	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// Limits of one import in its worker (Pool.Import): a drawing is user input, so converting it
// is bounded like a script's run. Both cover the whole conversion: reading the file,
// converting it, writing the module and folding it.
const (
	// MaxImportTime is the wall-clock time one import's conversion may take, counted from the
	// moment the file is sent to the worker. The readers' own MaxTime (5 s) starts later, once
	// the worker has the file, so it sits inside this one; it is what bounds an Import in
	// process (tests, fuzzers).
	MaxImportTime = 5 * time.Second
	// MaxImportMemory caps the heap of the worker that imports: a run's MaxMemory, which
	// internal/prestart starts `cadrun import`'s worker with.
	MaxImportMemory = workerproc.DefaultMaxMemory
)

// PoolOptions configure a Pool.
type PoolOptions struct {
	// Time and Memory bound each import: MaxImportTime and MaxImportMemory unless set
	// (tests lower them).
	Time   time.Duration
	Memory int64
	// KeepNone ends each import's worker when the import ends (see job.Limits).
	KeepNone bool
}

// Pool imports drawings in worker processes. It is safe for concurrent use; each import takes
// a worker of its own.
type Pool struct {
	jobs *job.Pool
}

// kind is the importer's kind of worker: workerproc.Env is "import" in it.
var kind = job.Kind{Role: "import", Name: "importer"}

// NewPool is a Pool with options o; it starts its first worker when an import needs one.
func NewPool(o PoolOptions) *Pool {
	if o.Time <= 0 {
		o.Time = MaxImportTime
	}
	if o.Memory <= 0 {
		o.Memory = MaxImportMemory
	}
	return &Pool{jobs: job.NewPool(kind, job.Limits{Time: o.Time, Memory: o.Memory, KeepNone: o.KeepNone})}
}

// Close stops the idle worker. A Pool may still be used after it: it starts another.
func (p *Pool) Close() { p.jobs.Close() }

// shared is the pool of every server and command in this process: its worker is a cache,
// started on first use and kept warm.
var shared = NewPool(PoolOptions{})

// Shared is the process's shared Pool.
func Shared() *Pool { return shared }

// importRequest is what the parent sends for one import.
type importRequest struct {
	Format string  `json:"format"`
	Data   []byte  `json:"data"`
	Opt    Options `json:"opt"`
}

// importResult is what the worker answers.
type importResult struct {
	Code   string            `json:"code,omitempty"`
	Report *Report           `json:"report,omitempty"`
	Data   map[string]string `json:"data,omitempty"` // Report.Data, which the report's JSON leaves out
	Err    string            `json:"err,omitempty"`  // the error's text
	Is     []int             `json:"is,omitempty"`   // the wireErrors it wraps, by index
}

// wireErrors are the sentinels an import's error keeps across the pipe. By index: both ends
// are the same executable.
var wireErrors = []error{ErrRefused, ErrUnits, ErrFormat,
	dxf.ErrBinary, dxf.ErrLimit, dxf.ErrSyntax,
	svg.ErrLimit, svg.ErrSyntax, svg.ErrEntities, svg.ErrRefused, dxf.ErrLayout}

// remoteError is an import's error as the worker sent it.
type remoteError struct {
	msg string
	is  []error
}

func (e *remoteError) Error() string { return e.msg }

func (e *remoteError) Is(target error) bool { return slices.Contains(e.is, target) }

// Import is Import, run in a worker within the Pool's limits. Past them, or when the importer
// fails on the file (a panic), the worker is ended and the import refused (ErrRefused),
// naming the limit or the failure and what to do; an error of the file's is what Import in
// process says, word for word, and wraps the same sentinels.
func (p *Pool) Import(ctx context.Context, format string, data []byte, opt Options) (string, *Report, error) {
	if err := precheck(format, data, opt); err != nil {
		return "", nil, err
	}
	var res importResult
	err := p.jobs.Call(ctx, func(c *job.Conn) error {
		if err := c.Send(importRequest{Format: format, Data: data, Opt: opt}); err != nil {
			return err
		}
		return c.Receive(&res)
	})
	const smaller = "import a few layers at a time (-layers) or simplify the drawing"
	var se *job.StoppedError
	switch {
	case errors.As(err, &se):
		switch se.Limit {
		case job.Time:
			return "", nil, fmt.Errorf("%w: converting the drawing took longer than %v (MaxImportTime) and was stopped; %s", ErrRefused, se.Limits.Time, smaller)
		case job.Memory:
			return "", nil, fmt.Errorf("%w: converting the drawing needed more than %d MB of memory (MaxImportMemory) and was stopped; %s", ErrRefused, se.Limits.Memory>>20, smaller)
		case job.Stack:
			return "", nil, fmt.Errorf("%w: the drawing nests too deeply to convert; %s", ErrRefused, smaller)
		}
		return "", nil, fmt.Errorf("%w: the importer failed on this file (%s), a fault of cadrun's; import a few layers at a time (-layers) to get past the entity it fails on", ErrRefused, se.Cause)
	case err != nil && ctx.Err() != nil:
		return "", nil, ctx.Err()
	case err != nil:
		return "", nil, err
	case res.Err != "":
		e := &remoteError{msg: res.Err}
		for _, i := range res.Is {
			if i >= 0 && i < len(wireErrors) {
				e.is = append(e.is, wireErrors[i])
			}
		}
		return "", nil, e
	}
	if res.Report != nil {
		res.Report.Data = res.Data
	}
	return res.Code, res.Report, nil
}

func init() { job.Serve(kind, MaxImportMemory, serveImport) }

// convert is what the worker runs: Import, which tests wrap to fail on demand.
var convert = Import

// serveImport serves one import in the worker.
func serveImport(c *job.Conn) error {
	var req importRequest
	if err := c.Receive(&req); err != nil {
		return err
	}
	code, rep, err := convert(req.Format, req.Data, req.Opt)
	res := importResult{Code: code, Report: rep}
	if rep != nil {
		res.Data = rep.Data
	}
	if err != nil {
		res = importResult{Err: err.Error()}
		for i, s := range wireErrors {
			if errors.Is(err, s) {
				res.Is = append(res.Is, i)
			}
		}
	}
	return c.Send(res)
}
