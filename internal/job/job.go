// Package job runs bounded jobs in worker processes of their own kind: this executable again,
// started with workerproc.Env set to the kind's role, serving jobs from an init function of the
// package that owns the kind, under a heap cap and a deadline, killed past either. The schema
// checker (tools/internal/schemacheck) and the importer's worker (tools/importer) are two kinds.
//
// Why a process: some work a client or a file causes cannot be bounded where it runs. A
// validator or a converter cannot be interrupted, nor its memory capped, in the process that
// called it, and a panic in it ends that process. In a worker the process is the unit that
// stops: the parent kills it past the time limit or on cancel, the worker exits past its heap
// cap, and either way the parent reads the head of the worker's stderr to name what was passed
// (StoppedError) and goes on.
//
// The parent's side is a Pool: one idle worker kept between jobs, another started when two
// jobs meet; a worker that passed a limit, whose job was cancelled or failed, is killed and the
// next job starts a fresh one. The child's side is Serve, called from the owning package's init
// function so that the worker never initialises the packages only the parent needs (the MCP
// server, SQLite, HTTP): cmd/cadrun's TestWorkerSkipsUnneededInit keeps each role so.
//
// The protocol is JSON values on the child's stdin and stdout. The child says "ready" once
// started, so that its start-up does not count against a job's time; then each job is what
// the kind's two sides say to each other through a Conn: a request, any questions the child
// asks mid-job (the schema checker asks for each file it reads) and their answers, and a
// result.
package job

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/runtime"
)

// Kind is a kind of worker.
type Kind struct {
	// Role is workerproc.Env's value in its workers: "schema", "import".
	Role string
	// Name is what its workers are called in errors and on their stderr: "schema checker".
	Name string
}

// DefaultWorkers is how many workers of one Pool may run jobs at once unless its Limits say
// otherwise: with a heap cap each, it bounds what one kind of job can take of the machine
// however many clients ask at once (64 MCP sessions importing together would otherwise start
// 64 workers of 512 MB).
const DefaultWorkers = 2

// Limits bound each job of a Pool.
type Limits struct {
	Time   time.Duration // wall-clock time from the request sent to the result read
	Memory int64         // the worker's heap cap in bytes
	// Workers is how many jobs run at once (DefaultWorkers when 0); a job past it waits for
	// one to end, until its context ends. Its time starts once it has a worker.
	Workers int
	// KeepNone ends each job's worker when the job ends, instead of keeping one for the
	// next: for callers under testing/synctest, whose bubble must end with no goroutine left,
	// and which cannot wait while another goroutine waits on a process.
	KeepNone bool
}

// Conn is one side of the pipes between a parent and its worker. Its methods are for one
// goroutine at a time: the one speaking a job's protocol.
type Conn struct {
	dec *json.Decoder
	enc *json.Encoder
	bw  *bufio.Writer // the child's buffered stdout, flushed after each value; nil in the parent
}

// Send writes one value.
func (c *Conn) Send(v any) error {
	if err := c.enc.Encode(v); err != nil {
		return err
	}
	if c.bw != nil {
		return c.bw.Flush()
	}
	return nil
}

// Receive reads one value into v.
func (c *Conn) Receive(v any) error { return c.dec.Decode(v) }

// ready is the child's first message.
type ready struct {
	Type string `json:"type"`
}

// Serve makes this process a worker of kind k when it was started as one, and returns at once
// otherwise. A worker caps itself (runtime.CapWorker) at the heap cap its parent gave it
// (defaultMemory when none), watches its heap, says ready, and calls job for each job until its
// stdin closes; then, or when job fails (the pipe broke, or the parent broke the protocol), the
// process exits. job reads the request and sends the result through c; an io.EOF at its first
// Receive is the parent closing the pipe. Call Serve from an init function.
func Serve(k Kind, defaultMemory int64, job func(c *Conn) error) {
	if os.Getenv(workerproc.Env) != k.Role {
		return
	}
	mem, _ := strconv.ParseInt(os.Getenv(workerproc.MemoryEnv), 10, 64)
	if mem <= 0 {
		mem = defaultMemory
	}
	runtime.CapWorker(mem)
	go watchHeap(k, mem)
	if err := serve(os.Stdin, os.Stdout, job); !errors.Is(err, io.EOF) {
		fmt.Fprintf(os.Stderr, "cadrun %s: %v\n", k.Name, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// watchHeap ends the worker once its heap passes mem: the work cannot be interrupted, so the
// process is the unit that stops. The parent reads "out of memory" on stderr and names the
// limit.
func watchHeap(k Kind, mem int64) {
	for range time.Tick(10 * time.Millisecond) {
		if heap := runtime.HeapBytes(); heap > mem {
			fmt.Fprintf(os.Stderr, "cadrun %s: out of memory: heap passed %d MB\n", k.Name, heap>>20)
			os.Exit(3)
		}
	}
}

// serve serves jobs until one fails: io.EOF once the parent has closed the pipe.
func serve(in io.Reader, out io.Writer, job func(c *Conn) error) error {
	bw := bufio.NewWriter(out)
	c := &Conn{dec: json.NewDecoder(bufio.NewReader(in)), enc: json.NewEncoder(bw), bw: bw}
	// Ready: the parent's clock for a job starts after the worker's start-up.
	if err := c.Send(ready{Type: "ready"}); err != nil {
		return err
	}
	for {
		if err := job(c); err != nil {
			return err
		}
		goruntime.GC() // the next job starts from a small heap, far from the cap
	}
}

// Limit is what a worker passed when it was stopped.
type Limit int

const (
	Failed Limit = iota // it ended on its own: a panic, a fatal error, a broken protocol
	Time                // Limits.Time
	Memory              // Limits.Memory, or an allocation the address-space cap refused
	Stack               // the goroutine stack cap: recursion too deep
)

// StoppedError is a job whose worker was stopped past a limit, or ended, before its result.
// Each kind words it for its callers (naming its own limit, and what to do).
type StoppedError struct {
	Kind   Kind
	Limit  Limit
	Limits Limits
	// Cause, for Failed, is the first line the worker wrote on stderr ("panic: runtime error:
	// ..."), or the error of the pipe when it wrote none.
	Cause string
}

func (e *StoppedError) Error() string {
	switch e.Limit {
	case Time:
		return fmt.Sprintf("the %s took longer than %v and was stopped", e.Kind.Name, e.Limits.Time)
	case Memory:
		return fmt.Sprintf("the %s needed more than %d MB of memory and was stopped", e.Kind.Name, e.Limits.Memory>>20)
	case Stack:
		return fmt.Sprintf("the %s nested too deeply and was stopped", e.Kind.Name)
	}
	return fmt.Sprintf("the %s stopped unexpectedly: %s", e.Kind.Name, e.Cause)
}

// Pool runs jobs of one kind in worker processes. It is safe for concurrent use; each job
// takes a worker of its own.
type Pool struct {
	kind    Kind
	limits  Limits
	command workerproc.Command
	slots   chan struct{} // one token per job running: Limits.Workers
	mu      sync.Mutex
	idle    *worker
}

// NewPool is a Pool of workers of kind k, each job bounded by l (Time and Memory must be set);
// it starts its first worker when a job needs one.
func NewPool(k Kind, l Limits) *Pool {
	if l.Time <= 0 || l.Memory <= 0 {
		panic(fmt.Sprintf("job.NewPool(%q): limits %+v: Time and Memory must be set", k.Role, l))
	}
	if l.Workers <= 0 {
		l.Workers = DefaultWorkers
	}
	cmd := workerproc.Self()
	cmd.Env = []string{workerproc.Env + "=" + k.Role}
	return &Pool{kind: k, limits: l, command: cmd, slots: make(chan struct{}, l.Workers)}
}

// Close stops the idle worker. A Pool may still be used after it: it starts another.
func (p *Pool) Close() {
	p.mu.Lock()
	w := p.idle
	p.idle = nil
	p.mu.Unlock()
	if w != nil {
		w.proc.Kill()
	}
}

// Call runs one job in a worker: talk sends the request, answers what the worker asks and
// reads the result, through c, and returns nil once it has the result. Past the time limit,
// on ctx's end, or when talk fails (the worker ended: it passed its heap cap, or panicked),
// the worker is killed and Call returns a *StoppedError naming the limit, or ctx's error; talk
// has returned by then. An error starting the worker is returned as it is. While Limits.Workers
// jobs are running, Call waits for one of them to end (or for ctx's).
func (p *Pool) Call(ctx context.Context, talk func(c *Conn) error) error {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-p.slots }()
	w, err := p.get(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	done := make(chan error, 1)
	go func() { done <- talk(w.conn) }()
	timer := time.NewTimer(p.limits.Time)
	defer timer.Stop()
	stopped := func(l Limit, cause string) error {
		return &StoppedError{Kind: p.kind, Limit: l, Limits: p.limits, Cause: cause}
	}
	select {
	case err := <-done:
		if err != nil {
			w.kill()
			out := w.proc.Stderr.String()
			switch {
			case strings.Contains(out, "out of memory") || strings.Contains(out, "cannot allocate memory"):
				return stopped(Memory, "")
			case strings.Contains(out, "stack overflow") || strings.Contains(out, "stack exceeds"):
				return stopped(Stack, "")
			}
			return stopped(Failed, firstLine(out, err))
		}
	case <-timer.C:
		w.kill()
		<-done
		return stopped(Time, "")
	case <-ctx.Done():
		w.kill()
		<-done
		return ctx.Err()
	}
	p.put(w)
	return nil
}

func (p *Pool) get(ctx context.Context) (*worker, error) {
	p.mu.Lock()
	w := p.idle
	p.idle = nil
	p.mu.Unlock()
	if w != nil {
		return w, nil
	}
	return p.start(ctx)
}

// start starts a worker, or takes the one started ahead for this kind and heap cap
// (workerproc.PrestartRole), and waits until it is ready.
func (p *Pool) start(ctx context.Context) (*worker, error) {
	proc := workerproc.TakeRole(p.kind.Role, p.limits.Memory)
	if proc == nil {
		var err error
		if proc, err = workerproc.Start(p.command, p.limits.Memory); err != nil {
			return nil, err
		}
	}
	w := &worker{proc: proc, conn: &Conn{dec: json.NewDecoder(bufio.NewReader(proc.Stdout)), enc: json.NewEncoder(proc.Stdin)}}
	var r ready
	var err error
	started := make(chan error, 1)
	go func() { started <- w.conn.Receive(&r) }()
	select {
	case err = <-started:
	case <-ctx.Done():
		w.kill()
		<-started
		return nil, ctx.Err()
	}
	if err != nil || r.Type != "ready" {
		w.kill()
		return nil, fmt.Errorf("starting the %s: %s", p.kind.Name, firstLine(proc.Stderr.String(), fmt.Errorf("it sent %q, not ready (%v)", r.Type, err)))
	}
	return w, nil
}

func (p *Pool) put(w *worker) {
	if p.limits.KeepNone {
		w.kill()
		return
	}
	p.mu.Lock()
	old := p.idle
	p.idle = w
	p.mu.Unlock()
	if old != nil {
		old.proc.Kill()
	}
}

// worker is one child process.
type worker struct {
	proc *workerproc.Process
	conn *Conn
}

// kill ends the worker and waits until it has, so that its stderr is whole.
func (w *worker) kill() {
	w.proc.Kill()
	<-w.proc.Done
}

// firstLine is the first line of a worker's stderr that is not blank, else cause's text.
func firstLine(out string, cause error) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return cause.Error()
}
