package runtime

// Worker processes. goja cannot bound memory, and some failures cannot be recovered in Go at
// all: an allocation the OS refuses ("x".repeat(1e11)) or a goroutine stack overflow (a
// deeply nested JSON.parse) is a fatal error that ends the process. A Pool therefore runs
// each script in a child process (the same binary, started with CADRUN_WORKER=1), which
// caps its own address space and heap; whatever happens there, the parent answers with a
// diagnostic and starts a fresh worker. Workers are kept warm and reused: every run still
// gets a fresh realm.
//
// The protocol is JSON lines on the child's stdin and stdout. The parent sends "run"; the
// child asks for each module it imports with "read" and each workspace font with "font" (so
// the parent's Source, with its overlays, stays the one source of files) and ends with
// "result". The result's scene JSON follows the result line as SceneBytes raw bytes rather
// than inside it: a big scene is megabytes, which a JSON field would make both sides scan
// again and copy.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	goruntime "runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
)

// Environment variables that turn the binary into a worker.
const (
	workerEnv    = "CADRUN_WORKER"
	workerMemEnv = "CADRUN_WORKER_MEMORY"
)

// workerMaxStack caps a worker's goroutine stacks, so that runaway Go recursion (deeply
// nested JSON.parse) fails fast instead of growing to the default gigabyte.
const workerMaxStack = 64 << 20

type message struct {
	Type string `json:"type"` // run, read, file, names, font, fonts, result

	Entry   string   `json:"entry,omitempty"`
	Options *Options `json:"options,omitempty"`

	Name    string   `json:"name,omitempty"`
	Path    string   `json:"path,omitempty"`
	Content []byte   `json:"content,omitempty"`
	Missing bool     `json:"missing,omitempty"`
	Names   []string `json:"names,omitempty"`

	SceneBytes int           `json:"scene_bytes,omitempty"` // the raw scene JSON after the line
	Logs       []string      `json:"logs,omitempty"`
	Warnings   []string      `json:"warnings,omitempty"`
	Modules    []string      `json:"modules,omitempty"`
	Diagnostic *Diagnostic   `json:"diagnostic,omitempty"`
	Duration   time.Duration `json:"duration,omitempty"`
	Tests      []TestResult  `json:"tests,omitempty"`
	Err        string        `json:"err,omitempty"`
}

// ServeWorkerIfAsked turns this process into a worker when it was started as one, and then
// exits; otherwise it returns at once. Call it first thing in main (and in TestMain of tests
// that use a Pool).
func ServeWorkerIfAsked() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	mem, _ := strconv.ParseInt(os.Getenv(workerMemEnv), 10, 64)
	if mem <= 0 {
		mem = DefaultLimits.MaxMemory
	}
	capWorker(mem)
	if err := serveWorker(os.Stdin, os.Stdout, mem); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "cadrun worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// capWorker bounds the worker: the GC's soft target (above the watchdog's threshold, so the
// collector does not thrash before the watchdog acts) and, as the hard stop, the address
// space the kernel will give it (what it has now plus room for twice the heap limit).
func capWorker(mem int64) {
	debug.SetMemoryLimit(2 * mem)
	debug.SetMaxStack(workerMaxStack)
	if vm := vmSize(); vm > 0 && !raceBuild {
		limit := uint64(vm + 2*mem + 256<<20)
		_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit})
	}
}

// vmSize reads this process's virtual size from /proc (0 when unknown).
func vmSize() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func serveWorker(in io.Reader, out io.Writer, mem int64) error {
	dec := json.NewDecoder(bufio.NewReader(in))
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	send := func(m message) error {
		if err := enc.Encode(m); err != nil {
			return err
		}
		return bw.Flush()
	}
	for {
		var req message
		if err := dec.Decode(&req); err != nil {
			return err
		}
		if req.Type != "run" || req.Options == nil {
			return fmt.Errorf("unexpected message %q", req.Type)
		}
		src := &remoteSource{dec: dec, send: send}
		res, err := execute(context.Background(), src, req.Entry, *req.Options, memoryWatch(mem))
		reply := message{Type: "result"}
		if src.err != nil {
			return src.err
		}
		var sceneJSON []byte
		if res != nil {
			reply.Logs, reply.Warnings, reply.Modules, reply.Diagnostic, reply.Duration = res.Logs, res.Warnings, res.Modules, res.Diagnostic, res.Duration
			reply.Tests = res.Tests
			if res.Diagnostic == nil {
				b, merr := res.Scene.MarshalJSON()
				if merr != nil {
					return merr
				}
				sceneJSON, reply.SceneBytes = b, len(b)
			}
		}
		if err != nil && reply.Diagnostic == nil {
			reply.Err = err.Error()
		}
		if err := enc.Encode(reply); err != nil {
			return err
		}
		if _, err := bw.Write(sceneJSON); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		// After a big run, give the next one its memory back now rather than inside its
		// own budget; small runs skip the cost.
		if heapBytes() > mem/4 {
			goruntime.GC()
		}
	}
}

// memoryWatch samples the heap while a run goes on and interrupts the run past mem. An
// interrupt only lands when control returns to JS, so a built-in that keeps growing (a
// huge Array.fill) is stopped harder: past one and a half times mem the worker exits, and
// the parent reports the limit. One allocation too big to make at all is refused by the
// address space limit, which ends the worker the same way.
func memoryWatch(mem int64) func(vm *goja.Runtime) func() {
	return func(vm *goja.Runtime) func() {
		done := make(chan struct{})
		go func() {
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					heap := heapBytes()
					if heap > mem+mem/2 {
						fmt.Fprintln(os.Stderr, "cadrun worker: out of memory: heap passed", heap>>20, "MB")
						os.Exit(3)
					}
					if heap > mem {
						vm.Interrupt(errMemory)
					}
				}
			}
		}()
		return func() { close(done) }
	}
}

// heapBytes is the live and not yet collected heap.
func heapBytes() int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return int64(sample[0].Value.Uint64())
}

// remoteSource asks the parent for files over the worker's pipes.
type remoteSource struct {
	dec  *json.Decoder
	send func(message) error
	err  error // a broken pipe, reported after the run
}

func (s *remoteSource) ask(req message) message {
	if s.err != nil {
		return message{Missing: true}
	}
	if err := s.send(req); err != nil {
		s.err = err
		return message{Missing: true}
	}
	var reply message
	if err := s.dec.Decode(&reply); err != nil {
		s.err = err
		return message{Missing: true}
	}
	return reply
}

// Read implements Source.
func (s *remoteSource) Read(name string) ([]byte, string, error) {
	r := s.ask(message{Type: "read", Name: name})
	switch {
	case r.Missing:
		return nil, r.Path, fmt.Errorf("%w: %q", ErrModuleNotFound, name)
	case r.Err != "":
		return nil, r.Path, errors.New(r.Err)
	}
	return r.Content, r.Path, nil
}

// Names implements Source.
func (s *remoteSource) Names() []string { return s.ask(message{Type: "names"}).Names }

// PoolOptions configure a Pool.
type PoolOptions struct {
	// Warm is how many idle workers to keep ready (default 1).
	Warm int
	// Lazy starts a worker only when a run needs one, and none in the background, for
	// one-shot commands that run once or twice and exit.
	Lazy bool
	// MaxMemory caps each worker's heap (default DefaultLimits.MaxMemory).
	MaxMemory int64
	// Command starts a worker; the default re-runs this executable. Tests replace it.
	Command func() *exec.Cmd
}

// Pool runs scripts in worker processes. It is safe for concurrent use; each run takes a
// worker of its own.
type Pool struct {
	opt    PoolOptions
	mu     sync.Mutex
	idle   []*worker
	closed bool
}

// NewPool starts a pool and warms its first workers in the background.
func NewPool(opt PoolOptions) *Pool {
	if opt.Warm <= 0 {
		opt.Warm = 1
	}
	if opt.MaxMemory <= 0 {
		opt.MaxMemory = DefaultLimits.MaxMemory
	}
	if opt.Command == nil {
		opt.Command = func() *exec.Cmd {
			exe, err := os.Executable()
			if err != nil {
				exe = os.Args[0]
			}
			return exec.Command(exe)
		}
	}
	p := &Pool{opt: opt}
	if !opt.Lazy {
		go p.refill()
	}
	return p
}

// Close stops the idle workers; runs in progress finish with their own workers.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.kill()
	}
	return nil
}

func (p *Pool) refill() {
	for {
		p.mu.Lock()
		need := !p.closed && len(p.idle) < p.opt.Warm
		p.mu.Unlock()
		if !need {
			return
		}
		w, err := p.start()
		if err != nil {
			return
		}
		p.put(w)
	}
}

func (p *Pool) get() (*worker, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.start()
}

func (p *Pool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle) >= p.opt.Warm {
		w.kill()
		return
	}
	p.idle = append(p.idle, w)
}

// worker is one child process.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    io.Reader // the child's stdout, buffered
	dec    *json.Decoder
	stderr *headBuffer
	waited chan struct{}
}

func (p *Pool) start() (*worker, error) {
	cmd := p.opt.Command()
	cmd.Env = append(os.Environ(), workerEnv+"=1", workerMemEnv+"="+strconv.FormatInt(p.opt.MaxMemory, 10))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// os.Pipe rather than cmd.StdoutPipe, to resize the pipe before the worker writes to it.
	stdout, childOut, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	growPipe(stdout)
	cmd.Stdout = childOut
	out := bufio.NewReader(stdout)
	w := &worker{cmd: cmd, stdin: stdin, out: out, dec: json.NewDecoder(out), stderr: &headBuffer{max: 4096}, waited: make(chan struct{})}
	cmd.Stderr = w.stderr
	err = cmd.Start()
	childOut.Close() // the child has its own copy
	if err != nil {
		stdout.Close()
		return nil, fmt.Errorf("starting a worker: %w", err)
	}
	go func() {
		_ = cmd.Wait()
		stdout.Close() // what cmd.StdoutPipe would do; reads in flight then fail
		close(w.waited)
	}()
	return w, nil
}

func (w *worker) kill() {
	_ = w.cmd.Process.Kill()
	<-w.waited
}

// discard kills a worker that cannot be reused and warms a replacement.
func (p *Pool) discard(w *worker) {
	w.kill()
	if !p.opt.Lazy {
		go p.refill()
	}
}

// Run executes entry from src in a worker process. It answers within the run's timeout plus
// a second whatever the script does; a worker that crashed or had to be killed is replaced.
func (p *Pool) Run(ctx context.Context, src Source, entry string, opt Options) (*Result, error) {
	opt.Limits = opt.Limits.withDefaults()
	opt.Limits.MaxMemory = p.opt.MaxMemory
	w, err := p.get()
	if err != nil {
		return nil, err
	}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := w.run(src, entry, opt)
		done <- outcome{res, err}
	}()
	timer := time.NewTimer(opt.Limits.Timeout + nativeGrace)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.err != nil {
			p.discard(w)
			return p.crashed(w, opt, o.err)
		}
		p.put(w)
		if o.res.Diagnostic != nil {
			return o.res, o.res.Diagnostic
		}
		return o.res, nil
	case <-timer.C:
		p.discard(w)
		d := &Diagnostic{Kind: KindTimeout,
			Message: fmt.Sprintf("the run took longer than %v (Limits.Timeout) and its worker was stopped inside a built-in function", opt.Limits.Timeout),
			Hint:    "a built-in call (a huge String.repeat or Array, a backtracking regular expression) did not return; make it smaller"}
		return &Result{Scene: scene.New(), Diagnostic: d}, d
	case <-ctx.Done():
		p.discard(w)
		return nil, ctx.Err()
	}
}

// crashed explains a worker that died in the middle of a run, from what it printed.
func (p *Pool) crashed(w *worker, opt Options, cause error) (*Result, error) {
	out := w.stderr.String()
	d := &Diagnostic{Kind: KindUncaught}
	switch {
	case strings.Contains(out, "out of memory") || strings.Contains(out, "cannot allocate memory"):
		d.Kind = KindLimit
		d.Message = fmt.Sprintf("the run needed more than %d MB of memory (Limits.MaxMemory) and its worker was stopped", opt.Limits.MaxMemory>>20)
		d.Hint = "a single huge string or array was requested; build less at once"
	case strings.Contains(out, "stack overflow") || strings.Contains(out, "stack exceeds"):
		d.Kind = KindStack
		d.Message = "the run nested too deeply for the engine (a deeply nested JSON.parse or structure) and its worker was stopped"
		d.Hint = "flatten the data"
	default:
		d.Message = "the worker process stopped unexpectedly: " + firstLine(out, cause)
	}
	return &Result{Scene: scene.New(), Diagnostic: d}, d
}

func firstLine(out string, cause error) string {
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return cause.Error()
}

// run speaks the protocol for one script.
func (w *worker) run(src Source, entry string, opt Options) (*Result, error) {
	enc := json.NewEncoder(w.stdin)
	if err := enc.Encode(message{Type: "run", Entry: entry, Options: &opt}); err != nil {
		return nil, err
	}
	served := map[string]*scene.Font{} // workspace fonts the worker used, to read its scene

	for {
		var m message
		if err := w.dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("reading from the worker: %w", err)
		}
		switch m.Type {
		case "read":
			content, path, err := src.Read(m.Name)
			reply := message{Type: "file", Name: m.Name, Path: path, Content: content}
			if errors.Is(err, ErrModuleNotFound) {
				reply.Missing = true
			} else if err != nil {
				reply.Err = err.Error()
			}
			if err := enc.Encode(reply); err != nil {
				return nil, err
			}
		case "names":
			if err := enc.Encode(message{Type: "names", Names: src.Names()}); err != nil {
				return nil, err
			}
		case "font":
			if err := enc.Encode(serveFont(src, m.Name, served)); err != nil {
				return nil, err
			}
		case "fonts":
			if err := enc.Encode(message{Type: "fonts", Names: fontNames(src)}); err != nil {
				return nil, err
			}
		case "result":
			res := &Result{Logs: m.Logs, Warnings: m.Warnings, Modules: m.Modules, Diagnostic: m.Diagnostic, Duration: m.Duration, Tests: m.Tests, Scene: scene.New()}
			if m.Err != "" {
				return nil, errors.New(m.Err)
			}
			if m.SceneBytes > 0 {
				b, err := w.readFrame(m.SceneBytes)
				if err != nil {
					return nil, fmt.Errorf("reading the worker's scene: %w", err)
				}
				s, err := scene.ReadJSONWithFonts(b, served)
				if err != nil {
					return nil, fmt.Errorf("reading the worker's scene: %w", err)
				}
				res.Scene, res.SceneJSON = s, b
			}
			return res, nil
		default:
			return nil, fmt.Errorf("unexpected message %q from the worker", m.Type)
		}
	}
}

// maxSceneFrame caps the scene JSON a worker may send; a scene at its entity and vertex caps
// fits well within it.
const maxSceneFrame = 1 << 30

// readFrame reads the n raw bytes that follow the last JSON line: first what the decoder has
// buffered, then the pipe. The decoder then starts again after them.
func (w *worker) readFrame(n int) ([]byte, error) {
	if n > maxSceneFrame {
		return nil, fmt.Errorf("%d bytes is over %d", n, maxSceneFrame)
	}
	r := io.MultiReader(w.dec.Buffered(), w.out)
	// The frame starts after the newline that ends the message line, which the decoder has
	// not consumed.
	var nl [1]byte
	if _, err := io.ReadFull(r, nl[:]); err != nil {
		return nil, err
	}
	if nl[0] != '\n' {
		return nil, fmt.Errorf("the frame does not start on a new line (%q)", nl[0])
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	// Whatever the old decoder had buffered past the frame is still first in r. MultiReader
	// flattens nested MultiReaders and drops spent ones, so this does not grow run by run.
	w.out = r
	w.dec = json.NewDecoder(r)
	return b, nil
}

// headBuffer keeps the first max bytes written to it: a Go fatal error names its cause on
// the first lines, before pages of goroutine dumps.
type headBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *headBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		t.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (t *headBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
