package schemacheck

// The parent's side: a Checker is a job.Pool of schema checkers, which keeps one idle worker
// between checks and starts another when two checks meet (two workspaces, or a watch beside a
// server). A worker that passed a limit, or whose check was cancelled, is killed; the next
// check starts a fresh one.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cadrun/cadrun/internal/job"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// Limits of one check: data files and schemas are user input, so checking one is bounded
// like a script's run. Both cover everything the check does: reading the schema and what it
// $refs, compiling it (with its check against the JSON Schema meta-schema), validating, and
// listing the errors.
const (
	// MaxSchemaTime is the wall-clock time one check may take.
	MaxSchemaTime = 2 * time.Second
	// MaxSchemaMemory caps the heap of the worker that checks; a check passing it ends
	// the worker.
	MaxSchemaMemory = 256 << 20
)

// ErrSchemaLimit is returned for a check that passed MaxSchemaTime or MaxSchemaMemory or
// nested too deeply, and was stopped.
var ErrSchemaLimit = errors.New("schema validation limit exceeded")

// Options configure a Checker.
type Options struct {
	// Time and Memory bound each check: MaxSchemaTime and MaxSchemaMemory unless set
	// (tests lower them).
	Time   time.Duration
	Memory int64
	// KeepNone ends each check's worker when the check ends, instead of keeping one for the
	// next: for callers under testing/synctest, whose bubble must end with no goroutine
	// left, and which cannot wait while another goroutine waits on a process.
	KeepNone bool
}

// Checker checks data files against their schemas in worker processes. It is safe for
// concurrent use; each check takes a worker of its own.
type Checker struct {
	pool *job.Pool
}

// NewChecker is a Checker with options l; it starts its first worker when a check needs one.
func NewChecker(l Options) *Checker {
	if l.Time <= 0 {
		l.Time = MaxSchemaTime
	}
	if l.Memory <= 0 {
		l.Memory = MaxSchemaMemory
	}
	return &Checker{pool: job.NewPool(kind, job.Limits{Time: l.Time, Memory: l.Memory, KeepNone: l.KeepNone})}
}

// Close stops the idle worker. A Checker may still be used after it: it starts another.
func (c *Checker) Close() { c.pool.Close() }

// Check is Validate, run in a worker within the Checker's limits: past them the worker is
// killed and the error (ErrSchemaLimit) names the limit and what to do. src is read only
// from the calling goroutine's point of view: every read the worker asks for is answered
// before Check returns, and none after.
func (c *Checker) Check(ctx context.Context, src Files, data, schema string) error {
	readErrs := map[string]error{}
	var reply wire
	err := c.pool.Call(ctx, func(conn *job.Conn) error {
		var err error
		reply, err = check(conn, src, data, schema, readErrs)
		return err
	})
	stopped := func(what, next string) error {
		return fmt.Errorf("%w: checking %s against %s %s and was stopped; %s",
			ErrSchemaLimit, runtime.PathOf(data), runtime.PathOf(schema), what, next)
	}
	const simplify = "simplify the schema (anyOf or oneOf branches that each $ref back into it make the check exponential in the data's depth; a schema nested hundreds of levels deep is slow to compile) or make the data smaller or shallower"
	var se *job.StoppedError
	switch {
	case errors.As(err, &se):
		switch se.Limit {
		case job.Time:
			return stopped(fmt.Sprintf("took longer than %v (MaxSchemaTime)", se.Limits.Time), simplify)
		case job.Memory:
			return stopped(fmt.Sprintf("needed more than %d MB of memory (MaxSchemaMemory)", se.Limits.Memory>>20), simplify)
		case job.Stack:
			return stopped("nested too deeply", "make the schema or the data less deeply nested")
		}
		return fmt.Errorf("checking %s against %s: the schema checker stopped unexpectedly: %s", runtime.PathOf(data), runtime.PathOf(schema), se.Cause)
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("checking %s against %s: %w", runtime.PathOf(data), runtime.PathOf(schema), err)
	case reply.ReadErr && readErrs[reply.Name] != nil:
		return readErrs[reply.Name]
	case reply.Invalid:
		return fmt.Errorf("%w: %s", ErrInvalidData, reply.Err)
	case reply.Err != "":
		return errors.New(reply.Err)
	}
	return nil
}

// check speaks the protocol for one check, answering the worker's reads from src; a read's
// error other than a missing file is kept in readErrs. An error means the worker is lost.
func check(conn *job.Conn, src Files, data, schema string, readErrs map[string]error) (wire, error) {
	if err := conn.Send(wire{Type: "check", Data: data, Schema: schema}); err != nil {
		return wire{}, err
	}
	for {
		var m wire
		if err := conn.Receive(&m); err != nil {
			return wire{}, fmt.Errorf("reading from the schema checker: %w", err)
		}
		switch m.Type {
		case "result":
			return m, nil
		case "read":
			if err := conn.Send(serveRead(src, m.Name, readErrs)); err != nil {
				return wire{}, err
			}
		default:
			return wire{}, fmt.Errorf("unexpected message %q from the schema checker", m.Type)
		}
	}
}

// serveRead answers a worker's read of name: data files only, whatever it asks.
func serveRead(src Files, name string, readErrs map[string]error) wire {
	reply := wire{Type: "file", Name: name}
	if err := modules.CheckDataName(name); err != nil {
		reply.Err = err.Error()
		return reply
	}
	b, path, err := src.Read(name)
	reply.Path = path
	switch {
	case errors.Is(err, runtime.ErrModuleNotFound):
		reply.Missing, reply.Err = true, err.Error()
	case err != nil:
		reply.Err = err.Error()
		readErrs[name] = err
	default:
		reply.Content = b
	}
	return reply
}

// shared is the checker of every server and watch in this process: its workers are a cache,
// started on first use and kept warm.
var shared = NewChecker(Options{})

// Shared is the process's shared checker.
func Shared() *Checker { return shared }
