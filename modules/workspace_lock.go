package modules

// The workspace lock has two layers. Tool calls arrive concurrently within one server, so an
// in-process semaphore per directory (keyed by its absolute path, shared by every Workspace
// value on that directory) orders them; a second process (another server, cadrun run, an
// editor integration) is kept out by flock(2) on .cadrun/lock, which the kernel releases when
// the holder dies, so a crash never leaves the workspace locked. Both layers are waited for
// by polling so that a caller's context can cancel the wait.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// ErrLocked is returned by tryLock when another writer holds the workspace lock.
var ErrLocked = errors.New("workspace is locked by another writer")

// lockFile is the flock target, inside the internal state directory.
const lockFile = ".cadrun/lock"

// lockPoll is how often a waiting Lock retries.
const lockPoll = 5 * time.Millisecond

var (
	semsMu sync.Mutex
	sems   = map[string]chan struct{}{} // lockKey -> a one-slot semaphore
)

// lockKey is the key of dir in sems: the cleaned absolute path, with symlinks resolved when
// that works, so that two spellings of one directory share one in-process lock.
func lockKey(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs
}

func semFor(key string) chan struct{} {
	semsMu.Lock()
	defer semsMu.Unlock()
	s, ok := sems[key]
	if !ok {
		s = make(chan struct{}, 1)
		sems[key] = s
	}
	return s
}

// Lock takes the workspace lock, in this process and across processes, waiting until it is
// free or ctx is done (then it returns ctx's error). unlock releases it and may be called more
// than once.
func (w *Workspace) Lock(ctx context.Context) (unlock func(), err error) {
	sem := semFor(w.key)
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("locking workspace: %w", ctx.Err())
	}
	f, err := w.flock(ctx, true)
	if err != nil {
		<-sem
		return nil, fmt.Errorf("locking workspace: %w", err)
	}
	return w.releaser(sem, f), nil
}

// tryLock takes the lock only if it is free now, or fails with ErrLocked.
func (w *Workspace) tryLock() (unlock func(), err error) {
	sem := semFor(w.key)
	select {
	case sem <- struct{}{}:
	default:
		return nil, ErrLocked
	}
	f, err := w.flock(context.Background(), false)
	if err != nil {
		<-sem
		return nil, err
	}
	return w.releaser(sem, f), nil
}

// releaser is the unlock function of a lock taken with sem and f; it also drops what
// ListUserLocked kept for the lock's holder.
func (w *Workspace) releaser(sem chan struct{}, f *os.File) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			w.setLockedEntries(nil)
			// Closing the descriptor drops the flock; unlocking first makes that explicit.
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
			<-sem
		})
	}
}

// flock opens .cadrun/lock through the root and takes an exclusive flock on it; when wait is
// set it polls until ctx is done, else it tries once (ErrLocked when held).
func (w *Workspace) flock(ctx context.Context, wait bool) (*os.File, error) {
	// Like every workspace file, opened so that a FIFO in its place cannot block, and refused
	// unless it is a regular file (flock on anything else would not order writers). Its
	// content is never read, so extra hard links do no harm. Its folder is made when missing.
	open := func() (*os.File, error) {
		return w.root.OpenFile(lockFile, os.O_CREATE|os.O_RDWR|syscall.O_NONBLOCK, 0o644)
	}
	f, err := open()
	if errors.Is(err, fs.ErrNotExist) {
		if err := w.root.MkdirAll(filepath.Dir(lockFile), 0o755); err != nil {
			return nil, err
		}
		f, err = open()
	}
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%w: %s is %s; remove it (cadrun creates it again)", ErrNotRegular, lockFile, KindOf(st.Mode()))
		}
		return nil, err
	}
	var tick *time.Ticker
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("flock %s: %w", lockFile, err)
		}
		if !wait {
			f.Close()
			return nil, ErrLocked
		}
		if tick == nil {
			tick = time.NewTicker(lockPoll)
			defer tick.Stop()
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		}
	}
}
