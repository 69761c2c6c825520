package runtime

// Worker processes. goja cannot bound memory, and some failures cannot be recovered in Go at
// all: an allocation the OS refuses ("x".repeat(1e11)) or a goroutine stack overflow (a
// deeply nested JSON.parse) is a fatal error that ends the process. A Pool therefore runs
// each script in a child process (the same binary, started with CADRUN_WORKER=1), which
// caps its own address space and heap; whatever happens there, the parent answers with a
// diagnostic and starts a fresh worker. Workers are kept warm and reused: every run still
// gets a fresh realm.
//
// The protocol is JSON lines on the child's stdin and stdout. The parent sends "run", with
// the answer to the entry file's read already in it (First); the child asks for each module
// it imports with "read" and each workspace font with "font" (so the parent's Source, with
// its overlays, stays the one source of files) and ends with "result". A run asked to lint
// (Options.Lint) says "ran" when its script is done and before it lints: the parent's wait
// then grows by the lint's own time (MaxLintTime), so that the lint never eats the time the
// scene needs to come back. The scene comes back before the lint and the result, in a "scene"
// line whose SceneBytes raw bytes of JSON follow it rather than sit inside it (a big scene is
// megabytes, which a JSON field would make both sides scan again and copy): the parent reads
// it while the worker lints. A file of 4 KiB or more is answered with its content's hash, and its bytes
// follow as a raw frame only when the worker has not kept them from an earlier run
// (worker_files.go).
//
// A caller that wants only the scene written out (`cadrun run -o`, through Pool.Export) puts
// an export request in "run". After a good run the worker then sends the result without the
// scene and writes the scene out itself: the scene's JSON is neither written nor read back,
// and the parent does not render. The export is streamed: each piece the ExportFunc writes is
// sent at once as a "chunk" line with ExportBytes raw bytes, which the parent passes on to its
// writer (the output file) as they arrive, so that writing the output, the pipe and the file
// overlap; an "export" line ends it, with the export's error if it failed, and then the parent
// drops what it had. A caller that writes a file may name a new file for the worker to make
// and write itself (ExportTo.File): the bytes then skip the pipe and the parent altogether, and
// the "export" line says the file was made (Made), how many bytes it holds, and whether the
// export's error was the file's (FileErr: a full disk; ErrExportFile); after a good export it
// carries the export's warnings. A run that lints writes that file beside its lint, on the
// other core, once it has said "ran" (both only read the scene; a scene of solids waits for the
// lint): the lines are sent in the same order, and its "ran" says so (Beside), so that the
// parent puts a death from then on to writing the scene out, not to the script. The timeout covers the script, as it does when
// the parent renders; the export is the program's own code.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
	"github.com/cadrun/cadrun/scene/solid"
	"github.com/cadrun/cadrun/scene/text"
)

// workerMaxStack caps a worker's goroutine stacks, so that runaway Go recursion (deeply
// nested JSON.parse) fails fast instead of growing to the default gigabyte.
const workerMaxStack = 64 << 20

// exportRequest asks a worker to keep its scene and write it out (Request is the
// ExportFunc's), in at most MaxBytes, to a new file File when it can make it, or only to count
// its entities (Count, for Pool.Count).
type exportRequest struct {
	Request  []byte `json:"request,omitempty"`
	MaxBytes int64  `json:"max_bytes,omitempty"`
	File     string `json:"file,omitempty"`
	Count    bool   `json:"count,omitempty"`
}

type message struct {
	Type string `json:"type"` // run, read, file, content, names, font, fonts, ran, result, chunk, export

	Entry   string         `json:"entry,omitempty"`
	Options *Options       `json:"options,omitempty"`
	Export  *exportRequest `json:"export,omitempty"` // run: write the scene out (Pool.Export)
	// First is the entry file's "file" reply, sent with the run: every run reads its entry
	// first, and answering that read before it is asked saves a round trip of the pipes.
	First *message `json:"first,omitempty"`

	Name    string   `json:"name,omitempty"`
	Path    string   `json:"path,omitempty"`
	Content []byte   `json:"content,omitempty"`
	Hash    string   `json:"hash,omitempty"` // file: a hash of the content, sent apart (worker_files.go)
	Missing bool     `json:"missing,omitempty"`
	Names   []string `json:"names,omitempty"`

	SceneBytes   int              `json:"scene_bytes,omitempty"`   // scene: the raw scene JSON after the line
	Entities     int              `json:"entities,omitempty"`      // the scene's entities, when it stays in the worker
	ContentBytes int              `json:"content_bytes,omitempty"` // the raw file content after the line
	ExportBytes  int              `json:"export_bytes,omitempty"`  // chunk: the raw piece of the export after the line; export: the bytes in the file made
	Made         bool             `json:"made,omitempty"`          // export: the worker made the export's file and wrote it
	FileErr      bool             `json:"file_err,omitempty"`      // export: Err is the error of writing the file made (a full disk)
	Beside       bool             `json:"beside,omitempty"`        // ran: the export is being written beside the lint
	Logs         []string         `json:"logs,omitempty"`
	Warnings     []string         `json:"warnings,omitempty"`
	Modules      []string         `json:"modules,omitempty"`
	Diagnostic   *Diagnostic      `json:"diagnostic,omitempty"`
	Duration     time.Duration    `json:"duration,omitempty"`
	Tests        []TestResult     `json:"tests,omitempty"`
	Booleans     []lint.BooleanOp `json:"booleans,omitempty"`
	Lint         []lint.Finding   `json:"lint,omitempty"` // result: the lint's findings (Options.Lint)
	Err          string           `json:"err,omitempty"`
}

// ServeWorkerIfAsked turns this process into a worker when it was started as one, and then
// exits; otherwise it returns at once. Call it first thing in main (and in TestMain of tests
// that use a Pool). Its workers cannot export (Pool.Export); see ServeWorkerWithExport.
func ServeWorkerIfAsked() { ServeWorkerWithExport(nil) }

// ExportFunc writes a finished scene out to w, in a worker process, as the request a caller
// gave Pool.Export asks (the request's form is the ExportFunc's own). Each Write goes at once
// to the file the caller named or to the parent, so a writer that produces its output in
// pieces should write each as it is done. A Write fails past the caller's size limit
// (MaxExportBytes), when the disk is full or when the pipe broke; the ExportFunc then returns
// that error. An error returned after some bytes were written still fails the whole export:
// the caller drops what it got. The warnings of an export that succeeds (what the file leaves
// out of the scene) join the run's (Result.Warnings).
type ExportFunc func(w io.Writer, s *scene.Scene, request []byte) (warnings []string, err error)

// ServeWorkerWithExport is ServeWorkerIfAsked for a program whose workers also write scenes
// out for Pool.Export, with export. cadrun calls it from the init function of internal/worker,
// earlier than main, so that a worker skips initialising the packages only the parent uses.
func ServeWorkerWithExport(export ExportFunc) {
	if !workerproc.IsWorker() {
		return
	}
	mem, _ := strconv.ParseInt(os.Getenv(workerproc.MemoryEnv), 10, 64)
	if mem <= 0 {
		mem = DefaultLimits.MaxMemory
	}
	CapWorker(mem)
	describerProgram() // every run needs it: compiled while the parent still prepares the first
	if startedAhead() {
		prewarm() // before its first request, which it is not waiting for yet (prewarm.go)
	}
	if err := serveWorker(os.Stdin, os.Stdout, mem, export); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "cadrun worker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// CapWorker bounds this process as a worker with a heap cap of mem bytes: the GC's soft
// target (above the watchdog's threshold, so the collector does not thrash before the
// watchdog acts), goroutine stacks (workerMaxStack) and, as the hard stop, the address space
// the kernel will give it (what it has now plus room for twice the heap limit). A script
// worker calls it as it starts; so does any other kind of worker that must meet the same
// bounds (the tools' schema checker), which then watches its own heap.
func CapWorker(mem int64) {
	debug.SetMemoryLimit(2 * mem)
	debug.SetMaxStack(workerMaxStack)
	if vm := vmSize(); vm > 0 && !raceBuild {
		capAddressSpace(uint64(vm + 2*mem + 256<<20))
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

func serveWorker(in io.Reader, out io.Writer, mem int64, export ExportFunc) error {
	lines := newLineReader(bufio.NewReader(in))
	cache := &fileCache{} // file contents the parent sent, kept between runs
	bw := bufio.NewWriter(out)
	enc := json.NewEncoder(bw)
	send := func(m message) error {
		if err := enc.Encode(m); err != nil {
			return err
		}
		return bw.Flush()
	}
	for {
		spareRealm() // made while the parent sends the next run
		var req message
		if err := lines.decode(&req); err != nil {
			return err
		}
		if req.Type != "run" || req.Options == nil {
			return fmt.Errorf("unexpected message %q", req.Type)
		}
		src := &remoteSource{in: lines, send: send, cache: cache, first: req.First}
		res, err := execute(context.Background(), src, req.Entry, *req.Options, memoryWatch(mem))
		reply := message{Type: "result"}
		if src.err != nil {
			return src.err
		}
		// Export only after a good run; a failed one answers as it does without a request.
		exporting := req.Export != nil && err == nil && res != nil && res.Diagnostic == nil
		var beside chan fileExport // the export into its file, written beside the lint
		lints := err == nil && req.Options.Lint
		if lints {
			// The script is done: the parent's wait grows by the lint's own time. It is told
			// when the export is written beside the lint, so that it blames a death from here
			// on the export, not the script.
			besides := exporting && !req.Export.Count && req.Export.File != "" && !res.Scene.HasSolids()
			if err := send(message{Type: "ran", Beside: besides}); err != nil {
				return err
			}
			if besides {
				beside = make(chan fileExport, 1)
				go func() { beside <- exportToFile(export, res.Scene, req.Export) }()
			}
		}
		if res != nil && res.Diagnostic == nil && !exporting {
			// The scene goes back before the lint, which runs while the parent reads it.
			b, merr := res.Scene.MarshalJSON()
			if merr != nil {
				return merr
			}
			if err := enc.Encode(message{Type: "scene", SceneBytes: len(b)}); err != nil {
				return err
			}
			if _, err := bw.Write(b); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if lints {
			lintRun(res, *req.Options)
		}
		if res != nil {
			reply.Logs, reply.Warnings, reply.Modules, reply.Diagnostic, reply.Duration = res.Logs, res.Warnings, res.Modules, res.Diagnostic, res.Duration
			reply.Tests, reply.Booleans, reply.Lint = res.Tests, res.Booleans, res.Lint
			if exporting && req.Export.Count {
				reply.Entities = res.Scene.Len()
			}
		}
		if err != nil && reply.Diagnostic == nil {
			reply.Err = err.Error()
		}
		if err := send(reply); err != nil {
			return err
		}
		if exporting && !req.Export.Count {
			var filed *fileExport
			if beside != nil {
				f := <-beside
				filed = &f
			}
			if err := sendExport(enc, bw, export, res.Scene, req.Export, filed); err != nil {
				return err
			}
		}
		debug.SetGCPercent(bigGCPercent)
		// After a big run, give the next one its memory back now rather than inside its
		// own budget; small runs skip the cost.
		if HeapBytes() > mem/4 {
			goruntime.GC()
		}
	}
}

// sendExport writes the scene out with export, into the file req names when the worker can
// make it, else sending each piece written as a "chunk" line and its raw bytes; then an
// "export" line says whether the file was made and what it holds, or the export's error.
// filed, when not nil, is the export into the file already tried (beside the lint). Only a
// broken pipe is returned.
func sendExport(enc *json.Encoder, bw *bufio.Writer, export ExportFunc, s *scene.Scene, req *exportRequest, filed *fileExport) error {
	if filed == nil {
		f := exportToFile(export, s, req)
		filed = &f
	}
	reply := filed.reply
	if !filed.made {
		// A file the worker cannot make (a folder it may not write to) is the parent's to
		// write: the export streams.
		reply = message{Type: "export"}
		cw := &chunkWriter{enc: enc, bw: bw, max: req.MaxBytes}
		var warnings []string
		err := errNoExport
		if export != nil {
			warnings, err = export(cw, s, req.Request)
		}
		if cw.err != nil {
			return cw.err
		}
		if err != nil {
			reply.Err = err.Error()
		} else {
			reply.Warnings = warnings
		}
	}
	if err := enc.Encode(reply); err != nil {
		return err
	}
	return bw.Flush()
}

// fileExport is an export into the file the parent named: the "export" line that says so,
// when the worker made the file (made).
type fileExport struct {
	reply message
	made  bool
}

// exportToFile writes the scene out with export into the new file req names, when there is
// one, the worker can make it and it has an ExportFunc. It only reads s, so that it may run
// beside the lint, which only reads it too ("Reading never changes" the scene's lists).
func exportToFile(export ExportFunc, s *scene.Scene, req *exportRequest) fileExport {
	if export == nil || req.File == "" {
		return fileExport{}
	}
	f, err := os.OpenFile(req.File, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fileExport{}
	}
	fw := &fileWriter{f: f, max: req.MaxBytes}
	warnings, err := export(fw, s, req.Request)
	if cerr := f.Close(); err == nil && cerr != nil {
		err, fw.err = cerr, cerr
	}
	reply := message{Type: "export", Made: true, ExportBytes: int(fw.size), FileErr: err != nil && fw.err != nil}
	if err != nil {
		reply.Err = err.Error()
	} else {
		reply.Warnings = warnings
	}
	return fileExport{reply: reply, made: true}
}

// chunkWriter sends each Write as a "chunk" line and its bytes, up to max bytes in all.
type chunkWriter struct {
	enc   *json.Encoder
	bw    *bufio.Writer
	max   int64 // 0: MaxExportBytes
	total int64
	err   error // the pipe broke
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	max := c.max
	if max <= 0 {
		max = MaxExportBytes
	}
	if c.total+int64(len(p)) > max {
		return 0, exportTooLarge(max)
	}
	c.total += int64(len(p))
	if c.err = c.enc.Encode(message{Type: "chunk", ExportBytes: len(p)}); c.err != nil {
		return 0, c.err
	}
	if _, c.err = c.bw.Write(p); c.err != nil {
		return 0, c.err
	}
	if c.err = c.bw.Flush(); c.err != nil {
		return 0, c.err
	}
	return len(p), nil
}

// fileWriter writes an export to the file the parent named, up to max bytes in all, giving
// each piece its blocks first (preallocate).
type fileWriter struct {
	f    *os.File
	max  int64 // 0: MaxExportBytes
	size int64
	err  error // the file's write failed (a full disk): the export's error is the file's
}

func (w *fileWriter) Write(p []byte) (int, error) {
	max := w.max
	if max <= 0 {
		max = MaxExportBytes
	}
	if w.size+int64(len(p)) > max {
		return 0, exportTooLarge(max)
	}
	preallocate(w.f, w.size, len(p))
	n, err := w.f.Write(p)
	w.size += int64(n)
	if err != nil {
		w.err = err
	}
	return n, err
}

// MaxExportBytes caps what Pool.Export writes out: the worker refuses to write more, and the
// parent to read more. A scene at the entity and vertex caps fits well within it as SVG.
// Tests lower it.
var MaxExportBytes int64 = 1 << 30

// exportTooLarge is the error of an export past max bytes.
func exportTooLarge(max int64) error {
	return fmt.Errorf("the scene written out is over %d bytes (MaxExportBytes): draw fewer or simpler shapes, or write a smaller picture (-width)", max)
}

// errNoExport is the export error of a worker that serves without an ExportFunc.
var errNoExport = errors.New("this program's workers cannot write scenes out: they must be served with runtime.ServeWorkerWithExport")

// Garbage collection in a worker. A run's heap starts nearly empty and mostly grows, and with
// Go's default GOGC of 100 it is collected every few megabytes for little gain: several
// collections a run, a noticeable share of the worker's CPU. So a run starts with GOGC
// smallGCPercent, and once its heap (live and garbage) passes MaxMemory/smallShare the memory
// watch sets GOGC back to 100: a big run then has the same headroom under MaxMemory as it had,
// and meets the limit as it did. Between two samples (10 ms) a run can grow past that share by
// what it allocates in the meantime, far below MaxMemory. No tighter soft memory limit is set
// for the small phase: the collector would run back to back whenever memory the heap count
// does not see (free spans, stacks) kept the process near it. What follows a run in the worker
// (its scene's JSON, or the export) keeps the run's percentage, and GOGC goes back to 100 once
// the answer is sent: a small run's export (W1's SVG) then runs without a collection, where
// setting 100 as the run ended started one at once (the heap was already past the lower
// target) that ran beside the export and slowed it.
const (
	smallGCPercent = 400
	smallShare     = 16 // MaxMemory/16: 32 MB by default
	bigGCPercent   = 100
)

// memoryWatch samples the heap while a run goes on and interrupts the run past mem. An
// interrupt only lands when control returns to JS, so a built-in that keeps growing (a
// huge Array.fill) is stopped harder: past one and a half times mem the worker exits, and
// the parent reports the limit. One allocation too big to make at all is refused by the
// address space limit, which ends the worker the same way. It also sets the run's GOGC (see
// smallGCPercent).
func memoryWatch(mem int64) func(vm *goja.Runtime) func() {
	return func(vm *goja.Runtime) func() {
		debug.SetGCPercent(smallGCPercent)
		done := make(chan struct{})
		go func() {
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			big := false
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					// The solids kernel's memory lies outside Go's heap (scene/solid's
					// MemoryInUse) but is the run's as much as the script's objects are.
					heap := HeapBytes()
					used := heap + solid.MemoryInUse()
					if used > mem+mem/2 {
						fmt.Fprintln(os.Stderr, "cadrun worker: out of memory: heap and solids kernel passed", used>>20, "MB")
						os.Exit(3)
					}
					if used > mem {
						vm.Interrupt(errMemory)
					}
					if !big && heap > mem/smallShare {
						debug.SetGCPercent(bigGCPercent)
						big = true
					}
				}
			}
		}()
		return func() { close(done) }
	}
}

// HeapBytes is the live and not yet collected heap: MemStats.HeapAlloc, the figure
// runtime/metrics names /memory/classes/heap/objects:bytes. ReadMemStats stops the world for
// some microseconds (about 14 with a heap of 18 MB, a read every 10 ms of a run), where the
// metrics package would cost every process of the binary its init, a table of every
// GODEBUG's metric that Go builds before the worker is started and again in the worker
// (docs/decisions.md, "Start-up: the initialisers cadrun still runs, and who links the rest").
// A script's worker and the other jobs' workers (internal/job) read it.
func HeapBytes() int64 {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// remoteSource asks the parent for files over the worker's pipes.
type remoteSource struct {
	in    *lineReader
	send  func(message) error
	cache *fileCache
	first *message // the entry's reply, sent with the run; nil once used
	err   error    // a broken pipe, reported after the run
}

func (s *remoteSource) ask(req message) message {
	if s.err != nil {
		return message{Missing: true}
	}
	var reply message
	if f := s.first; f != nil && req.Type == "read" && req.Name == f.Name {
		reply, s.first = *f, nil
	} else {
		if err := s.send(req); err != nil {
			s.err = err
			return message{Missing: true}
		}
		if err := s.in.decode(&reply); err != nil {
			s.err = err
			return message{Missing: true}
		}
	}
	if reply.Hash != "" {
		b, err := s.content(reply.Hash)
		if err != nil {
			s.err = err
			return message{Missing: true}
		}
		reply.Content = b
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

// Runner runs a program: the entry module of src, with opt's limits. *Pool runs it in a worker
// process, which also bounds memory; InProcess runs it in this process. Run may be called
// from several goroutines at once.
type Runner interface {
	Run(ctx context.Context, src Source, entry string, opt Options) (*Result, error)
}

// InProcess runs programs in this process with Run: every limit but memory (see
// docs/limits.md). It is for tests, benchmarks and embedding; every cadrun command uses a
// Pool.
type InProcess struct{}

// Run implements Runner.
func (InProcess) Run(ctx context.Context, src Source, entry string, opt Options) (*Result, error) {
	return Run(ctx, src, entry, opt)
}

// Pool runs scripts in worker processes. It is safe for concurrent use; each run takes a
// worker of its own.
type Pool struct {
	opt    PoolOptions
	plain  bool // the default command: the pool may take the prestarted worker
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
	plain := opt.Command == nil
	if plain {
		opt.Command = selfCommand
	}
	p := &Pool{opt: opt, plain: plain}
	if !opt.Lazy {
		go p.refill()
	}
	return p
}

// Close stops the idle workers; runs in progress finish with their own workers. It kills
// them without waiting for them to end (their exits are collected in the background, or by
// the system once this process has ended), so that a one-shot command exits as soon as its
// output is written rather than after the kernel has torn a worker down.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.proc.Kill()
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
		w, err := p.start(true)
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
	return p.start(false)
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
	proc *workerproc.Process
	from *lineReader // the child's stdout, buffered

	framedBytes int // file content sent as raw frames, over the worker's life (for tests)
	asked       int // the worker's requests (read, content, font ...), over its life (for tests)
	// exporting is set while the worker writes a good run's export beside its lint, from
	// its "ran" on: a death then is the export's (or the lint's), not the script's.
	exporting bool
}

// start starts a worker, or takes the prestarted one when this pool runs the default command
// with the same memory cap. A worker started ahead of need (an idle one, for a run not yet
// asked) is told so, and gets ready for its first run while it waits (prewarm.go); one
// started for a run waiting now is not, nor is the prestarted one, whose run is known.
func (p *Pool) start(ahead bool) (*worker, error) {
	var proc *workerproc.Process
	if p.plain {
		proc = workerproc.Take(p.opt.MaxMemory)
	}
	if proc == nil {
		cmd := p.opt.Command()
		if cmd.Err != nil {
			return nil, fmt.Errorf("starting a worker: %w", cmd.Err)
		}
		c := workerproc.Command{Path: cmd.Path, Args: cmd.Args, Dir: cmd.Dir, Sys: cmd.SysProcAttr}
		if ahead && prewarmAhead {
			c.Env = []string{workerproc.AheadEnv + "=1"}
		}
		var err error
		proc, err = workerproc.Start(c, p.opt.MaxMemory)
		if err != nil {
			return nil, err
		}
	}
	return &worker{proc: proc, from: newLineReader(proc.Stdout)}, nil
}

func (w *worker) kill() {
	w.proc.Kill()
	<-w.proc.Done
}

// selfCommand re-runs this executable, the default worker command.
func selfCommand() *exec.Cmd {
	self := workerproc.Self()
	return exec.Command(self.Path, self.Args[1:]...)
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
	res, w, err := p.run(ctx, src, entry, opt, nil)
	if w != nil {
		p.put(w)
	}
	return res, err
}

// ExportTo is where Pool.Export writes the export.
type ExportTo struct {
	// File, when set, is the path of a file that does not exist yet (a temp file beside the
	// output): the worker makes it and writes the export there itself when it can, and the
	// bytes never pass through this process. The caller removes it if the export fails.
	File string
	// W gets the export otherwise, in pieces as they arrive. It must be set: the worker may
	// not be able to make File.
	W io.Writer
}

// Export is Run for a caller that wants only the finished scene written out: the worker
// writes it with the ExportFunc it serves with (ServeWorkerWithExport), given request as is,
// to to.File or, in pieces as they arrive, to to.W, instead of sending the scene, which the
// parent then neither reads back nor renders. made says whether the export went to to.File.
// A caller that must not leave half an output behind writes somewhere it can drop (`cadrun
// run -o` uses a temp file beside the output). On success res.Scene is empty and
// res.Warnings ends with the export's own (what the file leaves out). A failed run
// answers as Run does, with nothing written; an export that fails, writes more than
// MaxExportBytes, or cannot be written to to.W returns its error after part of it may have
// been written (one that cannot be written to to.File, an error matching ErrExportFile). The
// run's timeout covers the script, not the export, as it would not cover a render in the
// caller; ctx covers both. No write to to.W follows Export's return.
func (p *Pool) Export(ctx context.Context, src Source, entry string, opt Options, request []byte, to ExportTo) (res *Result, made bool, err error) {
	max := MaxExportBytes
	res, w, err := p.run(ctx, src, entry, opt, &exportRequest{Request: request, MaxBytes: max, File: to.File})
	if w == nil || err != nil {
		if w != nil {
			p.put(w)
		}
		return res, false, err
	}
	type outcome struct {
		made     bool
		warnings []string
		err      error
	}
	done := make(chan outcome, 1)
	go func() {
		made, warnings, err := w.export(to.W, max)
		done <- outcome{made, warnings, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		p.discard(w)
		<-done // the worker is gone: its stream ends, and with it the writes to to.W
		return nil, false, ctx.Err()
	}
	var xerr *exportError
	var oerr *outputError
	switch {
	case o.err == nil:
		p.put(w)
		res.Warnings = append(res.Warnings, o.warnings...)
		return res, o.made, nil
	case errors.As(o.err, &xerr):
		p.put(w)
		return res, o.made, xerr
	case errors.As(o.err, &oerr):
		p.discard(w) // in the middle of its stream
		return res, false, oerr.err
	case errors.Is(o.err, errExportTooLarge):
		p.discard(w)
		return res, o.made, exportTooLarge(max)
	}
	p.discard(w)
	return res, false, fmt.Errorf("writing the scene out in the worker: the worker stopped: %s", firstLine(w.proc.Stderr.String(), o.err))
}

// Count runs entry as Run does, but the scene stays in the worker, which answers only how
// many entities it has; the Result's Scene is empty. For a caller that needs no more (`cadrun
// run` without -o): sending a big scene's JSON and reading it back costs more than the run.
func (p *Pool) Count(ctx context.Context, src Source, entry string, opt Options) (*Result, int, error) {
	res, w, err := p.run(ctx, src, entry, opt, &exportRequest{Count: true})
	if w != nil {
		p.put(w)
	}
	if res == nil {
		return nil, 0, err
	}
	return res, res.entities, err
}

// exportError is the error an ExportFunc returned in the worker; file says it failed writing
// the file the worker made (ErrExportFile).
type exportError struct {
	msg  string
	file bool
}

func (e *exportError) Error() string { return e.msg }

func (e *exportError) Is(target error) bool { return e.file && target == ErrExportFile }

// ErrExportFile is matched (errors.Is) by Export's error when the worker could not write the
// file it made (ExportTo.File), as on a full disk: the error names only that file, so that a
// caller names what it was writing. A caller learns the same of its own to.W from its writer.
var ErrExportFile = errors.New("writing the export's file")

// run executes entry in a worker and returns the result with the worker, which the caller
// gives back with put (or discard), or with no worker when it was already replaced. With an
// export request the worker is returned only after a good run, its export still to read.
func (p *Pool) run(ctx context.Context, src Source, entry string, opt Options, export *exportRequest) (*Result, *worker, error) {
	opt.Limits = opt.Limits.withDefaults()
	opt.Limits.MaxMemory = p.opt.MaxMemory
	w, err := p.get()
	if err != nil {
		return nil, nil, err
	}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	ran := make(chan struct{}, 1)
	go func() {
		res, err := w.run(src, entry, opt, export, ran)
		done <- outcome{res, err}
	}()
	deadline := time.Now().Add(opt.Limits.Timeout + nativeGrace)
	timer := time.NewTimer(opt.Limits.Timeout + nativeGrace)
	defer timer.Stop()
	for {
		select {
		case <-ran: // the script is done: the lint's time is its own (Options.Lint)
			timer.Reset(time.Until(deadline) + MaxLintTime)
		case o := <-done:
			if o.err != nil {
				p.discard(w)
				if w.exporting {
					// The script ran: what stopped the worker was writing its scene out.
					return nil, nil, fmt.Errorf("writing the scene out in the worker: the worker stopped: %s", firstLine(w.proc.Stderr.String(), o.err))
				}
				res, err := p.crashed(w, opt, o.err)
				return res, nil, err
			}
			if o.res.Diagnostic != nil {
				return o.res, w, o.res.Diagnostic
			}
			return o.res, w, nil
		case <-timer.C:
			p.discard(w)
			d := &Diagnostic{Kind: KindTimeout,
				Message: fmt.Sprintf("the run took longer than %v (Limits.Timeout) and its worker was stopped inside a built-in function", opt.Limits.Timeout),
				Hint:    "a built-in call (a huge String.repeat or Array, a backtracking regular expression) did not return; make it smaller"}
			return &Result{Scene: scene.New(), Diagnostic: d}, nil, d
		case <-ctx.Done():
			p.discard(w)
			return nil, nil, ctx.Err()
		}
	}
}

// crashed explains a worker that died in the middle of a run, from what it printed.
func (p *Pool) crashed(w *worker, opt Options, cause error) (*Result, error) {
	out := w.proc.Stderr.String()
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

// run speaks the protocol for one script, up to its result (an export, if asked, follows).
// ran hears when the script is done and the worker lints its scene (Options.Lint).
func (w *worker) run(src Source, entry string, opt Options, export *exportRequest, ran chan<- struct{}) (*Result, error) {
	w.exporting = false
	enc := json.NewEncoder(w.proc.Stdin)
	served := map[string]*text.Font{} // workspace fonts the worker used, to read its scene
	pending := map[string][]byte{}    // the files answered by hash, for "content"
	var sc *scene.Scene               // the scene the worker sent, and its JSON
	var sceneJSON []byte
	first := sendable(readReply(src, entry), pending)
	if err := enc.Encode(message{Type: "run", Entry: entry, Options: &opt, Export: export, First: &first}); err != nil {
		return nil, err
	}

	for {
		m, err := w.next()
		if err != nil {
			return nil, err
		}
		if m.Type != "result" && m.Type != "ran" && m.Type != "scene" {
			w.asked++
		}
		switch m.Type {
		case "scene":
			// Read while the worker lints; the result that follows says how the run went.
			b, err := w.from.frame(m.SceneBytes)
			if err != nil {
				return nil, fmt.Errorf("reading the worker's scene: %w", err)
			}
			s, err := scene.ReadJSONWithFonts(b, served)
			if err != nil {
				return nil, fmt.Errorf("reading the worker's scene: %w", err)
			}
			sc, sceneJSON = s, b
		case "ran":
			w.exporting = m.Beside
			select {
			case ran <- struct{}{}:
			default:
			}
		case "read":
			if err := enc.Encode(sendable(readReply(src, m.Name), pending)); err != nil {
				return nil, err
			}
		case "content":
			if err := w.sendContent(enc, m.Hash, pending); err != nil {
				return nil, err
			}
		case "names":
			if err := enc.Encode(message{Type: "names", Names: src.Names()}); err != nil {
				return nil, err
			}
		case "font":
			if err := enc.Encode(sendable(serveFont(src, m.Name, served), pending)); err != nil {
				return nil, err
			}
		case "fonts":
			if err := enc.Encode(message{Type: "fonts", Names: fontNames(src)}); err != nil {
				return nil, err
			}
		case "result":
			res := &Result{Logs: m.Logs, Warnings: m.Warnings, Modules: m.Modules, Diagnostic: m.Diagnostic, Duration: m.Duration, Tests: m.Tests, Booleans: m.Booleans, Lint: m.Lint, Scene: scene.New(), entities: m.Entities}
			if m.Err != "" {
				return nil, errors.New(m.Err)
			}
			if sc != nil {
				res.Scene, res.SceneJSON = sc, sceneJSON
			}
			return res, nil
		default:
			return nil, unexpected(m)
		}
	}
}

// export reads the chunks that follow a good run's result, writing them to out as they
// come, up to the "export" line that ends them, which says whether the worker wrote the
// export to a file itself (made) and the export's warnings. An error the ExportFunc returned
// is an *exportError, an error writing to out an *outputError, more than max bytes
// errExportTooLarge; any other error means the worker is lost.
func (w *worker) export(out io.Writer, max int64) (made bool, warnings []string, err error) {
	var buf []byte
	var total int64
	for {
		m, err := w.next()
		if err != nil {
			return false, nil, err
		}
		switch m.Type {
		case "chunk":
			if total += int64(m.ExportBytes); m.ExportBytes < 0 || total > max {
				return false, nil, errExportTooLarge
			}
			if buf == nil {
				buf = make([]byte, exportCopyBytes)
			}
			if err := w.from.copyFrame(out, m.ExportBytes, buf); err != nil {
				return false, nil, err
			}
		case "export":
			switch {
			case m.Err != "":
				return m.Made, nil, &exportError{m.Err, m.FileErr}
			case int64(m.ExportBytes) > max:
				return m.Made, nil, errExportTooLarge
			}
			return m.Made, m.Warnings, nil
		default:
			return false, nil, unexpected(m)
		}
	}
}

// next reads the worker's next message line, for run and export, which then dispatch on its
// type: an error means the stream broke (the worker died, or sent what is not a message).
func (w *worker) next() (message, error) {
	var m message
	if err := w.from.decode(&m); err != nil {
		return m, fmt.Errorf("reading from the worker: %w", err)
	}
	return m, nil
}

// unexpected is the error of a message of a type the parent does not await at that point.
func unexpected(m message) error {
	return fmt.Errorf("unexpected message %q from the worker", m.Type)
}

// exportCopyBytes is the buffer an export passes through on its way from the worker's pipe
// to the caller's writer.
const exportCopyBytes = 256 << 10

// errExportTooLarge: the worker sent more than the export's limit.
var errExportTooLarge = errors.New("export too large")
