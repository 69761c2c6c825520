package mcpserver

// A client that gives up on a call must get its answer at once and leave nothing behind: the
// SDK cancels a handler's context when the client cancels the request (notifications/
// cancelled) or when its connection goes away, the workspace lock and the runner both watch
// that context, and a Pool kills the worker of a cancelled run. These tests are not parallel:
// they time the answer and count goroutines and child processes of the whole test binary.

import (
	"context"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/runtime"

	"github.com/cadrun/cadrun/tools"
)

// TestMain lets this test binary serve as a Pool's worker process.
func TestMain(m *testing.M) {
	runtime.ServeWorkerIfAsked()
	os.Exit(m.Run())
}

// longRun is long enough that only a cancel can end `for(;;){}` within the test.
var longRun = runtime.Options{Limits: runtime.Limits{Timeout: time.Minute}}

const stuck = "for(;;){}\n"

// newMCPRunner is newMCP with a chosen runner and options; it returns the workspace too.
func newMCPRunner(t *testing.T, runner runtime.Runner, opt runtime.Options, files map[string]string) (*Server, string) {
	t.Helper()
	ws, dir := newWorkspace(t, files)
	return New(tools.NewServer(context.Background(), ws, runner, opt), "test"), dir
}

func newTestPool(t *testing.T) *runtime.Pool {
	t.Helper()
	p := runtime.NewPool(runtime.PoolOptions{})
	t.Cleanup(func() { p.Close() })
	return p
}

// starting is a runtime.Runner that says when the run of the stuck script begins, so that a test
// acts on that event rather than on a guess of how long it takes. (These tests cannot run in
// a synctest bubble: the script spins without blocking, and the pool's runs are real
// processes, so a bubble's clock would never move.)
type starting struct {
	runtime.Runner
	started chan struct{}
	once    sync.Once
}

func startSignal(r runtime.Runner) *starting {
	return &starting{Runner: r, started: make(chan struct{})}
}

// Run implements runtime.Runner.
func (s *starting) Run(ctx context.Context, src runtime.Source, entry string, opt runtime.Options) (*runtime.Result, error) {
	if b, _, _ := src.Read(entry); string(b) == stuck {
		s.once.Do(func() { close(s.started) })
	}
	return s.Runner.Run(ctx, src, entry, opt)
}

// TestMCPCancelStopsTheRun: a client cancels a write stuck in an endless loop; the call
// answers within about a second, the file is unchanged, and the next write lands.
func TestMCPCancelStopsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		runner func(t *testing.T) runtime.Runner
	}{
		{"in process", func(*testing.T) runtime.Runner { return runtime.InProcess{} }},
		{"pool", func(t *testing.T) runtime.Runner { return newTestPool(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const before = "drawCircle('a', 0, 0, 1)\n"
			runner := startSignal(tc.runner(t))
			ms, dir := newMCPRunner(t, runner, longRun, map[string]string{"scene.code.js": before})
			cs := connectMCP(t, ms)
			callMCP(t, cs, "read", map[string]any{"file": "main"})

			ctx, cancel := context.WithCancel(context.Background())
			var start time.Time
			go func() {
				<-runner.started
				start = time.Now()
				cancel()
			}()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file": "main", "code": stuck}})
			if took := time.Since(start); err == nil || took > 1500*time.Millisecond {
				t.Fatalf("cancelled write: answered after %v with %v, %+v; want a cancellation within about a second", took, err, res)
			}
			if got := fileBytes(t, dir, "scene.code.js"); got != before {
				t.Errorf("main after the cancelled write: %q", got)
			}
			res = callMCP(t, cs, "write", map[string]any{"file": "main", "code": "drawCircle('b', 0, 0, 2)\n"})
			if res.IsError || structured[tools.ChangeResult](t, res).Entities != 1 {
				t.Fatalf("the write after the cancel: %+v", res)
			}
			if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('b', 0, 0, 2)\n" {
				t.Errorf("main after the next write: %q", got)
			}
		})
	}
}

// droppable is a client transport whose connection a test can cut, as when a client process
// dies: ClientSession.Close would instead wait for the calls in flight to answer.
type droppable struct {
	mcp.Transport
	conn mcp.Connection
}

func (d *droppable) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := d.Transport.Connect(ctx)
	d.conn = c
	return c, err
}

// TestMCPDisconnectLeaksNothing: a client goes away in the middle of a stuck write. Within a
// second the goroutines are back near where they were, and the worker that ran the script is
// gone (the pool keeps at most its one warm worker).
func TestMCPDisconnectLeaksNothing(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc to count worker processes")
	}
	pool := startSignal(newTestPool(t))
	ms, dir := newMCPRunner(t, pool, longRun, map[string]string{"scene.code.js": "drawCircle('a', 0, 0, 1)\n"})
	waitFor(t, "the warm worker", func() bool { return len(children(t)) == 1 })
	baseline := goruntime.NumGoroutine()

	st, ct := mcp.NewInMemoryTransports()
	ss, err := ms.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	drop := &droppable{Transport: ct}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), drop, nil)
	if err != nil {
		t.Fatal(err)
	}
	called := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write", Arguments: map[string]any{"file": "main", "code": stuck}})
		called <- err
	}()
	<-pool.started // the run is on the worker that was warm
	busy := children(t)
	if len(busy) != 1 {
		t.Fatalf("worker processes during the run: %v, want one", busy)
	}

	drop.conn.Close() // the client is gone: no cancel, no goodbye
	if err := <-called; err == nil {
		t.Error("the call on a closed connection succeeded")
	}
	ss.Wait()
	waitFor(t, "the busy worker to go", func() bool {
		_, err := os.Stat("/proc/" + strconv.Itoa(busy[0]))
		return os.IsNotExist(err) && len(children(t)) <= 1
	})
	const tolerance = 5
	waitFor(t, "the goroutines to come back", func() bool { return goruntime.NumGoroutine() <= baseline+tolerance })
	t.Logf("goroutines: %d before the client, %d after it left", baseline, goruntime.NumGoroutine())
	if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('a', 0, 0, 1)\n" {
		t.Errorf("main after the abandoned write: %q", got)
	}
}

// waitFor polls cond for up to a second: what it waits for is another process's end, seen
// only in /proc, which no event announces to this one.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a second for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// children lists the live child processes of this process, from /proc.
func children(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...; comm may hold spaces, so split after its ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) >= 2 && f[0] != "Z" && f[1] == strconv.Itoa(self) {
			pids = append(pids, pid)
		}
	}
	return pids
}
