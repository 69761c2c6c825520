package manifold

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// MaxKernelMemory is the most memory one kernel's wasm may grow to: half of a run's MaxMemory
// (512 MB), so that solids and the script's own heap together stay within the run's limit.
// Past it the call fails with ErrMemoryLimit naming it.
const MaxKernelMemory = 256 << 20

var (
	// ErrKernel is returned when manifold itself fails: a C++ exception, an abort, a trap.
	// The kernel's instance is then replaced, and solids made before it are gone (ErrStale).
	ErrKernel = errors.New("solids kernel failed")
	// ErrMemoryLimit is returned when a call needs more wasm memory than the kernel's cap.
	ErrMemoryLimit = errors.New("limit exceeded")
	// ErrStale is returned when a solid is used after the instance that made it failed or
	// the kernel was closed.
	ErrStale = errors.New("solid no longer exists: the solids kernel was restarted after an error or closed")
	// ErrInvalid is returned when manifold refuses its input (a mesh that is not a closed
	// manifold, a non-finite vertex): it carries manifold's status name.
	ErrInvalid = errors.New("invalid solid")
)

// instance is one wasm instance with its registry and values. It runs one call at a time
// (the Kernel's lock).
type instance struct {
	mod      api.Module
	mem      api.Memory
	memory   *linearMemory // what backs mem (memory.go), freed by close
	freeFn   api.Function
	reg      *registry
	vals     emvals
	table    map[fnRef]api.Function
	maxBytes uint64
	oom      bool
	err      error // what a host function raised in the current call
	broken   error // set once a call failed: the instance is not used again
}

// engine is the compiled module, made once per process and shared by every Kernel.
type engine struct {
	rt   wazero.Runtime
	code wazero.CompiledModule
}

// shared holds the process's engines: [0] interruptible, [1] not (Options.NoInterrupt).
var shared struct {
	sync.Mutex
	e [2]*engine
}

// CacheDir is where compiled kernels are kept between processes: the user's cache folder
// (on Linux $XDG_CACHE_HOME or ~/.cache) under cadrun/kernel, or "" (no cache) when there is
// none. wazero keys each entry by its own version, the platform and the wasm's hash, and
// writes it to a temporary file renamed into place, so processes share the folder safely;
// it holds one entry per wazero version and wasm a binary has used (about 6 MB each).
func CacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "cadrun", "kernel")
}

// compiled returns the process's engine, compiling the wasm on first use.
func compiled(ctx context.Context, noInterrupt bool) (*engine, error) {
	shared.Lock()
	defer shared.Unlock()
	mode := 0
	if noInterrupt {
		mode = 1
	}
	if shared.e[mode] != nil {
		return shared.e[mode], nil
	}
	e, err := compile(ctx, CacheDir(), !noInterrupt)
	if err != nil {
		return nil, err
	}
	shared.e[mode] = e
	return e, nil
}

// compile makes a runtime with the host and compiles the wasm, through the cache in dir
// when dir is not "". An interruptible engine's code checks, at every loop and call, whether
// the call's context is done (wazero's WithCloseOnContextDone).
func compile(ctx context.Context, dir string, interruptible bool) (*engine, error) {
	b, err := wasmBytes()
	if err != nil {
		return nil, err
	}
	cfg := wazero.NewRuntimeConfig().WithCloseOnContextDone(interruptible)
	if dir != "" {
		if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			cfg = cfg.WithCompilationCache(cache)
		}
	}
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := instantiateHost(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("%w: starting the host: %v", ErrKernel, err)
	}
	code, err := rt.CompileModule(ctx, b)
	if err != nil {
		_ = rt.Close(ctx)
		if dir != "" { // a cache that cannot be written or read back only costs the compile
			return compile(ctx, "", interruptible)
		}
		return nil, fmt.Errorf("%w: compiling manifold.wasm: %v", ErrKernel, err)
	}
	return &engine{rt: rt, code: code}, nil
}

// instantiate starts an instance and runs the module's constructors, which register
// manifold's classes and functions with the host.
func (e *engine) instantiate(ctx context.Context, maxBytes uint64) (*instance, error) {
	in := &instance{reg: newRegistry(), table: map[fnRef]api.Function{}, maxBytes: maxBytes}
	ctx = context.WithValue(ctx, instKey{}, in)
	mod, err := e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, allocator(maxBytes, &in.memory)),
		e.code, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		if in.memory != nil {
			in.memory.Free()
		}
		return nil, fmt.Errorf("%w: starting manifold: %v", ErrKernel, err)
	}
	in.mod, in.mem, in.freeFn = mod, mod.ExportedMemory("I"), mod.ExportedFunction("N")
	if uint64(in.mem.Size()) > maxBytes {
		in.close(ctx)
		return nil, fmt.Errorf("%w: the solids kernel starts with %d MiB of memory, more than its %d MiB cap (MaxKernelMemory)", ErrMemoryLimit, in.mem.Size()>>20, maxBytes>>20)
	}
	if _, err := mod.ExportedFunction("J").Call(ctx); err != nil { // __wasm_call_ctors
		in.close(ctx)
		if in.err != nil {
			err = in.err
		}
		return nil, fmt.Errorf("%w: registering manifold's calls: %v", ErrKernel, err)
	}
	return in, nil
}

// close ends the instance and frees its memory, also when wazero closed the module itself
// at its call's context's end (it then leaves the memory to the module's next Close, which
// does nothing).
func (in *instance) close(ctx context.Context) error {
	err := in.mod.Close(ctx)
	if in.memory != nil {
		in.memory.Free()
	}
	return err
}

// Options configure a Kernel.
type Options struct {
	// MaxMemory caps the wasm's memory in bytes; 0 means MaxKernelMemory.
	MaxMemory uint64
	// NoInterrupt runs the kernel's code without checking the context inside a call:
	// booleans run about four times faster and a call costs about 1 µs instead of 10, but
	// a call that has started runs to its end whatever the context (it is checked before
	// each call). For callers bounded otherwise, such as a worker process killed past its
	// run's timeout. See docs/decisions.md, "Solids: the kernel".
	NoInterrupt bool
}

// Kernel is one manifold instance. Its methods may be called from several goroutines; they
// run one at a time. A call that fails inside manifold (ErrKernel, ErrMemoryLimit, the
// context done) ends the instance: the next call starts a fresh one, and the solids made
// before answer ErrStale.
type Kernel struct {
	mu   sync.Mutex
	e    *engine
	max  uint64
	in   *instance
	done bool
}

// New returns a kernel, compiling the wasm if this process has not yet (ErrNoKernel when the
// binary was built without it).
func New(ctx context.Context, opts Options) (*Kernel, error) {
	e, err := compiled(ctx, opts.NoInterrupt)
	if err != nil {
		return nil, err
	}
	k := &Kernel{e: e, max: opts.MaxMemory}
	if k.max == 0 {
		k.max = MaxKernelMemory
	}
	return k, nil
}

// Close ends the kernel's instance; its solids are gone.
func (k *Kernel) Close(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.done = true
	if k.in != nil {
		err := k.in.close(ctx)
		k.in = nil
		return err
	}
	return nil
}

// MemorySize is the wasm's memory now, in bytes (0 before the first call).
func (k *Kernel) MemorySize() uint64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.in == nil {
		return 0
	}
	return uint64(k.in.mem.Size())
}

// with runs f in the kernel's live instance, starting one if there is none or the last one
// failed.
func (k *Kernel) with(ctx context.Context, f func(in *instance) error) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.done {
		return ErrStale
	}
	if ctx.Err() != nil {
		return fmt.Errorf("solids kernel stopped: %w", context.Cause(ctx))
	}
	if k.in != nil && k.in.broken != nil {
		_ = k.in.close(context.WithoutCancel(ctx))
		k.in = nil
	}
	if k.in == nil {
		in, err := k.e.instantiate(ctx, k.max)
		if err != nil {
			return err
		}
		k.in = in
	}
	k.in.err, k.in.oom = nil, false
	return f(k.in)
}
