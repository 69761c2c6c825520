package modules

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// The cross-process tests re-run this test binary as a helper: TestHelperProcess does nothing
// unless helperEnv names a role.
const (
	helperEnv    = "CADRUN_MODULES_HELPER"
	helperDirEnv = "CADRUN_MODULES_HELPER_DIR"
)

// helper starts this test binary as a helper process in role on dir, with stdin and stdout
// piped.
func helper(t *testing.T, role, dir string) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, helperDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, stdin, bufio.NewReader(stdout)
}

// TestHelperProcess is not a test: it is the body of the helper processes.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(helperEnv)
	if role == "" {
		t.Skip("only run as a helper process")
	}
	w, err := Open(os.Getenv(helperDirEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	switch role {
	case "lock": // hold the lock until stdin closes
		unlock, err := w.Lock(context.Background())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		unlock()
		fmt.Println("unlocked")
	case "crash": // write A and B in turn until killed
		a, b := crashContent('A'), crashContent('B')
		for i := 0; ; i++ {
			data := a
			if i%2 == 1 {
				data = b
			}
			if _, err := w.write("main", data, nil); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if i == 0 {
				fmt.Println("ready")
			}
		}
	}
	os.Exit(0)
}

// TestLockInProcess runs in a synctest bubble: the lock's waiting is pure timing logic here
// (a semaphore, a context deadline, a poll), since within one process the semaphore orders
// the holders and the flock under it is always free. The tests below that take the lock from
// another process cannot: a bubble's clock stands still while a goroutine waits on a real
// process or pipe.
func TestLockInProcess(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testLockInProcess)
}

func testLockInProcess(t *testing.T) {
	_, dir := workspace(t, nil)
	// Two Workspace values on one directory, one spelled differently: they share the lock.
	w1, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w1.Close()
	w2, err := Open(dir + string(filepath.Separator) + ".")
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Close()

	unlock, err := w1.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := w2.Lock(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second Lock while held = %v; want DeadlineExceeded", err)
	}
	unlock()
	unlock() // a second call is harmless

	// Goroutines contending: never two inside at once, and every one gets its turn.
	var inside, turns atomic.Int32
	var overlap atomic.Bool
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := w1
			if i%2 == 1 {
				w = w2
			}
			for range 20 {
				unlock, err := w.Lock(t.Context())
				if err != nil {
					t.Error(err)
					return
				}
				if inside.Add(1) != 1 {
					overlap.Store(true)
				}
				time.Sleep(100 * time.Microsecond) // the bubble's clock: no real wait
				inside.Add(-1)
				turns.Add(1)
				unlock()
			}
		}()
	}
	wg.Wait()
	if overlap.Load() || turns.Load() != 160 {
		t.Errorf("two holders at once: %v; turns %d, want 160", overlap.Load(), turns.Load())
	}
}

func TestLockAcrossProcesses(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	_, stdin, stdout := helper(t, "lock", dir)
	if line, err := stdout.ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if _, err := w.Lock(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock while another process holds it = %v; want DeadlineExceeded", err)
	}
	// The in-process half was released when the wait was cancelled: the other process's
	// release is all that is needed now.
	got := make(chan error, 1)
	go func() {
		unlock, err := w.Lock(t.Context())
		if err == nil {
			unlock()
		}
		got <- err
	}()
	stdin.Close()
	if err := <-got; err != nil {
		t.Errorf("Lock after the other process released it: %v", err)
	}

	// And the other way round: while this process holds the lock, a helper waits.
	unlock, err := w.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	cmd, stdin2, stdout2 := helper(t, "lock", dir)
	locked := make(chan string, 1)
	go func() {
		line, _ := stdout2.ReadString('\n')
		locked <- line
	}()
	select {
	case line := <-locked:
		t.Fatalf("helper took the lock while it was held: %q", line)
	case <-time.After(200 * time.Millisecond):
	}
	unlock()
	select {
	case line := <-locked:
		if line != "locked\n" {
			t.Errorf("helper said %q", line)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("helper never took the released lock")
	}
	stdin2.Close()
	cmd.Wait()
}

// TestLockReleasedOnDeath: a holder killed with SIGKILL leaves the workspace unlocked.
func TestLockReleasedOnDeath(t *testing.T) {
	t.Parallel()
	w, dir := workspace(t, nil)
	cmd, _, stdout := helper(t, "lock", dir)
	if line, err := stdout.ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	unlock, err := w.Lock(ctx)
	if err != nil {
		t.Fatalf("Lock after the holder died: %v", err)
	}
	unlock()
}

// crashContent is 200 KB that says what it is on every line, so that a torn file would show
// where it tore.
func crashContent(label byte) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 200<<10; i++ {
		fmt.Fprintf(&b, "// %c line %06d of the %c version\r\n", label, i, label)
	}
	return b.Bytes()
}

// TestCrashDuringWrite kills a process that writes A and B in turn at random moments: the
// file is always exactly A or B, at most the one temp file in flight is left, and Open
// removes it.
func TestCrashDuringWrite(t *testing.T) {
	t.Parallel()
	runs := 100
	if testing.Short() {
		runs = 10
	}
	a, b := crashContent('A'), crashContent('B')
	_, dir := workspace(t, map[string]string{"scene.code.js": string(a)})
	seen := map[string]int{}
	for i := range runs {
		cmd, _, stdout := helper(t, "crash", dir)
		if line, err := stdout.ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("run %d: helper said %q, %v", i, line, err)
		}
		time.Sleep(time.Duration(rand.IntN(5000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		got := readFile(t, filepath.Join(dir, "scene.code.js"))
		switch got {
		case string(a):
			seen["A"]++
		case string(b):
			seen["B"]++
		default:
			t.Fatalf("run %d: the file is neither A nor B (%d bytes)", i, len(got))
		}
		left := temps(t, dir)
		if len(left) > 1 {
			t.Fatalf("run %d: %d temp files left: %v", i, len(left), left)
		}
		if len(left) == 1 {
			seen["temp"]++
		}
		w, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if left := temps(t, dir); len(left) != 0 {
			t.Fatalf("run %d: Open left temp files: %v", i, left)
		}
	}
	t.Logf("over %d kills: %v", runs, seen)
}
