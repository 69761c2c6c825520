// Package workerproc starts the worker processes of runtime.Pool: this executable again, with
// CADRUN_WORKER=1 and the memory cap in its environment, its stdin and stdout the protocol's
// pipes (stdout with a bigger buffer, pipe_linux.go) and the head of its stderr kept for the
// crash report. runtime.Pool starts every worker with Start, so a worker is the same process
// whoever started it.
//
// Why a package of its own, on os.StartProcess rather than os/exec, without even strings or
// strconv: it imports only what package os imports, so that internal/prestart can start the
// worker of `cadrun run` and `cadrun tool` from its init function right after os is ready, long
// before the script engine and the renderers are. Go initialises packages in import-path
// order among those whose imports are done, so strings, strconv (and os/exec, by way of
// path/filepath) wait until the packages that sort before them and are ready have initialised:
// half the program's. The first Pool of the same memory cap takes that worker (Take).
package workerproc

import (
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
)

// Environment variables that turn the binary into a worker.
const (
	Env       = "CADRUN_WORKER"        // "1" in a worker
	MemoryEnv = "CADRUN_WORKER_MEMORY" // the worker's heap cap in bytes
	// AheadEnv is "1" in a worker started ahead of need (a pool's idle worker), which may
	// use its wait for the first request to get ready for it.
	AheadEnv = "CADRUN_WORKER_AHEAD"
)

// DefaultMaxMemory caps a worker's heap unless the Pool says otherwise: runtime's
// DefaultLimits.MaxMemory, docs/limits.md.
const DefaultMaxMemory = 512 << 20

// stderrHead is how much of a worker's stderr is kept: a Go fatal error names its cause on the
// first lines, before pages of goroutine dumps.
const stderrHead = 4096

// IsWorker reports whether this process was started as a worker.
func IsWorker() bool { return os.Getenv(Env) == "1" }

// Command is the program a worker runs: its path, its arguments (Args[0] its name), the
// directory it starts in ("" for this process's), system attributes (nil for none) and
// KEY=value settings added to its environment after Env and MemoryEnv, so that they win: a
// worker of another kind than a script runner is started with Env set to its own value.
type Command struct {
	Path string
	Args []string
	Dir  string
	Sys  *syscall.SysProcAttr
	Env  []string
}

// Self is the default worker command: this executable again, with no arguments.
func Self() Command {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return Command{Path: exe, Args: []string{exe}}
}

// Process is a started worker.
type Process struct {
	Stdin     *os.File      // the worker's stdin, to write; closed once the worker has ended
	Stdout    *os.File      // the worker's stdout, to read; closed once the worker has ended
	Stderr    *HeadBuffer   // the head of the worker's stderr, whole once Done is closed
	Done      chan struct{} // closed once the worker has ended (see Start)
	MaxMemory int64         // the cap the worker was given

	proc *os.Process
}

// Start starts c as a worker with a heap cap of maxMemory bytes. Its environment is this
// process's with Env and MemoryEnv set. Done is closed once the worker has ended and its
// stderr has been read to the end; Stdin and Stdout are closed then, so reads in flight fail.
func Start(c Command, maxMemory int64) (*Process, error) {
	var ends [6]*os.File // stdin's, stdout's and stderr's reading and writing ends
	closeAll := func() {
		for _, f := range ends {
			if f != nil {
				f.Close()
			}
		}
	}
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, &startError{err}
		}
		ends[i], ends[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := ends[0], ends[1], ends[2], ends[3], ends[4], ends[5]
	growPipe(outR) // before the worker writes to it
	env := environ(append([]string{Env + "=1", MemoryEnv + "=" + itoa(maxMemory)}, c.Env...)...)
	proc, err := os.StartProcess(c.Path, c.Args, &os.ProcAttr{Dir: c.Dir, Env: env, Files: []*os.File{inR, outW, errW}, Sys: c.Sys})
	if err != nil {
		closeAll()
		return nil, &startError{err}
	}
	inR.Close() // the worker has its own copies
	outW.Close()
	errW.Close()
	p := &Process{Stdin: inW, Stdout: outR, Stderr: &HeadBuffer{max: stderrHead}, Done: make(chan struct{}), MaxMemory: maxMemory, proc: proc}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(p.Stderr, errR)
		errR.Close()
		close(copied)
	}()
	go func() {
		_, _ = proc.Wait()
		<-copied
		inW.Close()
		outR.Close()
		close(p.Done)
	}()
	return p, nil
}

// startError is a worker that could not be started.
type startError struct{ err error }

func (e *startError) Error() string { return "starting a worker: " + e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// environ is this process's environment with the given KEY=value settings, each key once: a
// key the environment has twice, or that a setting gives again, keeps its last value (as
// os/exec has it), since a child would read the first.
func environ(set ...string) []string {
	all := append(os.Environ(), set...)
	seen := make(map[string]bool, len(all))
	keep := make([]string, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		key, ok := envKey(all[i])
		if ok && seen[key] {
			continue
		}
		seen[key] = ok
		keep = append(keep, all[i])
	}
	slices.Reverse(keep)
	return keep
}

// envKey is the key of a KEY=value setting; ok is false for a string that is not one.
func envKey(kv string) (key string, ok bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], true
		}
	}
	return "", false
}

// itoa formats n >= 0 in decimal.
func itoa(n int64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

// Kill stops the worker without waiting for it to end (Done says when it has).
func (p *Process) Kill() { _ = p.proc.Kill() }

// prestarted holds the workers PrestartRole started until a Pool takes them, one per role.
var prestarted struct {
	sync.Mutex
	p map[string]*Process
}

// Prestart starts a script worker of this executable now (PrestartRole with role "1").
func Prestart(maxMemory int64) *Process { return PrestartRole("1", maxMemory) }

// PrestartRole starts a worker of this executable now, Env set to role and with a heap cap of
// maxMemory bytes, for the first caller of TakeRole with the same role and cap: a program that
// knows early that it will run a script (or a job of another kind) overlaps the worker's
// start-up with its own. A worker nobody takes ends with the program: its input closes. A
// failure to start is left for the Pool to meet and report (nil is returned). The process
// returned stays for TakeRole; it is returned only to be recognised.
func PrestartRole(role string, maxMemory int64) *Process {
	c := Self()
	c.Env = []string{Env + "=" + role}
	p, err := Start(c, maxMemory)
	if err != nil {
		return nil
	}
	prestarted.Lock()
	if prestarted.p == nil {
		prestarted.p = map[string]*Process{}
	}
	old := prestarted.p[role]
	prestarted.p[role] = p
	prestarted.Unlock()
	if old != nil {
		old.Kill()
		<-old.Done
	}
	return p
}

// Take returns the prestarted script worker if it has a heap cap of maxMemory bytes, once;
// else nil.
func Take(maxMemory int64) *Process { return TakeRole("1", maxMemory) }

// TakeRole returns the prestarted worker of role if it has a heap cap of maxMemory bytes,
// once; else nil.
func TakeRole(role string, maxMemory int64) *Process {
	prestarted.Lock()
	defer prestarted.Unlock()
	p := prestarted.p[role]
	if p == nil || p.MaxMemory != maxMemory {
		return nil
	}
	delete(prestarted.p, role)
	return p
}

// HeadBuffer keeps the first bytes written to it, up to its cap, and drops the rest.
type HeadBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *HeadBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - len(t.buf); room > 0 {
		t.buf = append(t.buf, p[:min(len(p), room)]...)
	}
	return len(p), nil
}

func (t *HeadBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
