package watch

// The watch loop's timing and state machine, under testing/synctest: time is the bubble's fake
// clock, so every run time below is exact. The files live in memory and changes are fed by
// hand; watch_fs_test.go drives the same loop from real filesystem events.

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// memFiles is a workspace in memory, by logical name; safe for concurrent use.
type memFiles struct {
	mu    sync.Mutex
	files map[string]string
	opens int
}

func (m *memFiles) Read(name string) ([]byte, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	src, ok := m.files[name]
	if !ok {
		return nil, runtime.PathOf(name), fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
	}
	return []byte(src), runtime.PathOf(name), nil
}

func (m *memFiles) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return runtime.MapSource(maps.Clone(m.files)).Names()
}

func (m *memFiles) set(name, content string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[name] = content
}

func (m *memFiles) remove(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, name)
}

// handFeed is a ChangeFeed fed by the test.
type handFeed struct {
	mu      sync.Mutex
	pending modules.Changes
	changed chan struct{}
}

func (f *handFeed) Changed() <-chan struct{} { return f.changed }

func (f *handFeed) Take() modules.Changes {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.pending
	f.pending = modules.Changes{}
	return c
}

func (f *handFeed) send(c modules.Changes) {
	f.mu.Lock()
	f.pending.Names = append(f.pending.Names, c.Names...)
	f.pending.Rescan = f.pending.Rescan || c.Rescan
	f.pending.Reopen = f.pending.Reopen || c.Reopen
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// slowRunner takes d of (fake) time per run, after reading the files, as a big scene would.
type slowRunner struct{ d time.Duration }

func (s slowRunner) Run(ctx context.Context, src runtime.Source, entry string, opt runtime.Options) (*runtime.Result, error) {
	res, err := runtime.Run(ctx, src, entry, opt)
	time.Sleep(s.d)
	return res, err
}

// watchRig runs Watch in a synctest bubble and records each run as one line: the fake time
// since the start, the run and scene version, the files that caused it, and the outcome.
type watchRig struct {
	files *memFiles
	feed  *handFeed
	start time.Time

	mu      sync.Mutex
	lines   []string
	notices []string
	cancel  context.CancelFunc
	done    chan struct{}
}

func startWatch(t *testing.T, runner runtime.Runner, files map[string]string) *watchRig {
	t.Helper()
	r := &watchRig{
		files: &memFiles{files: files},
		feed:  &handFeed{changed: make(chan struct{}, 1)},
		start: time.Now(),
		done:  make(chan struct{}),
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	go func() {
		defer close(r.done)
		err := Run(ctx, Config{
			Open: func() (runtime.Source, error) {
				r.files.mu.Lock()
				r.files.opens++
				r.files.mu.Unlock()
				return r.files, nil
			},
			Feed:    r.feed,
			Runner:  runner,
			Schemas: schemas,
			Publish: r.publish,
			Notice: func(s string) {
				r.mu.Lock()
				r.notices = append(r.notices, s)
				r.mu.Unlock()
			},
		})
		if err != nil {
			t.Errorf("Watch: %v", err)
		}
	}()
	synctest.Wait()
	return r
}

func (r *watchRig) publish(u RunUpdate) {
	line := fmt.Sprintf("%v run %d v%d %s: ", time.Since(r.start), u.Run, u.Version, strings.Join(u.Files, ","))
	switch {
	case u.Diagnostic != nil:
		line += u.Diagnostic.Error()
	case u.Err != nil:
		line += "error: " + u.Err.Error()
	default:
		line += fmt.Sprintf("ok %d entities", u.Entities)
	}
	if u.Scene != nil {
		line += fmt.Sprintf(" [scene %d]", u.Scene.Len())
	}
	r.mu.Lock()
	r.lines = append(r.lines, line)
	r.mu.Unlock()
}

// save changes a file and reports it, as an editor's save would.
func (r *watchRig) save(name, content string) {
	r.files.set(name, content)
	r.feed.send(modules.Changes{Names: []string{name}})
}

// sleep lets fake time pass with every goroutine of the bubble settled.
func (r *watchRig) sleep(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// stop ends the watch and returns the lines.
func (r *watchRig) stop(t *testing.T) []string {
	t.Helper()
	r.cancel()
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lines
}

func circles(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "drawCircle('c%d', %d, 0, 1)\n", i, i*3)
	}
	return b.String()
}

func TestWatchRunsAfterQuietWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{"main": circles(1)})
		r.save("main", circles(2))
		r.sleep(30 * time.Millisecond)
		r.save("main", circles(3)) // the quiet window starts again
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"90ms run 2 v2 main: ok 3 entities [scene 3]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchSteadyStreamOfSaves: 1,000 saves within one second (one every 999 µs, so that no
// save falls on a timer's instant) give a run every MaxDelay, the last one with the final
// content.
func TestWatchSteadyStreamOfSaves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{"main": circles(1)})
		for i := 1; i <= 1000; i++ {
			r.sleep(999 * time.Microsecond)
			r.save("main", circles(1+i%7)+fmt.Sprintf("// save %d\n", i))
		}
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"500.999ms run 2 v2 main: ok 5 entities [scene 5]", // save 501 (at 500.499 ms) draws 1+501%7
			"1.001498s run 3 v3 main: ok 7 entities [scene 7]", // save 1000, the last: 1+1000%7
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchRunsOnlyForWhatMainReads: a save that changes nothing, or changes a module main
// does not import, costs no run; a module reached through a chain of imports does run, and so
// does a module main looked for and did not find, once it appears.
func TestWatchRunsOnlyForWhatMainReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{
			"main":   "import 'a'\nring('r')\n",
			"a":      "import 'b'\nfunction ring(n) { drawCircle(n, 0, 0, R) }\n",
			"b":      "const R = 5\n",
			"unused": "drawCircle('u', 0, 0, 1)\n",
		})
		r.save("main", "import 'a'\nring('r')\n") // the same bytes
		r.sleep(time.Second)
		r.save("unused", "drawCircle('u', 0, 0, 2)\n")
		r.sleep(time.Second)
		r.save("b", "const R = 6\n") // main -> a -> b
		r.sleep(time.Second)
		r.save("main", "import 'a'\nimport 'later'\nring('r')\n")
		r.sleep(time.Second)
		r.save("later", "drawCircle('l', 9, 9, 1)\n")
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"2.06s run 2 v2 b: ok 1 entities [scene 1]",
			"3.06s run 3 v2 main: scene.code.js:2:8: ModuleError: module 'later' not found [scene 1]",
			"4.06s run 4 v3 later: ok 2 entities [scene 2]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchWaitsForAFileMidSave: vim and JetBrains remove the file for a moment, VS Code
// truncates it before writing: a file that reads as missing or empty is given SaveGrace
// to come back, and no run sees it so unless it stays that way.
func TestWatchWaitsForAFileMidSave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{"main": circles(1)})

		r.files.remove("main") // removed at 0s...
		r.feed.send(modules.Changes{Names: []string{"main"}})
		r.sleep(200 * time.Millisecond)
		r.save("main", circles(2)) // ...back at 0.2s: one run, 60 ms later
		r.sleep(time.Second)

		r.save("main", "") // truncated at 1.2s...
		r.sleep(300 * time.Millisecond)
		r.save("main", circles(3)) // ...written at 1.5s
		r.sleep(time.Second)

		r.files.remove("main") // removed at 2.5s for good: the run sees it after the grace
		r.feed.send(modules.Changes{Names: []string{"main"}})
		r.sleep(2 * time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"260ms run 2 v2 main: ok 2 entities [scene 2]",
			"1.56s run 3 v3 main: ok 3 entities [scene 3]",
			"3.06s run 4 v3 main: scene.code.js: ModuleError: scene.code.js does not exist [scene 3]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchKeepsTheLastGoodScene: a failed run publishes its diagnostic with the scene of the
// last good run; the next good run moves the version on.
func TestWatchKeepsTheLastGoodScene(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{"main": circles(2)})
		r.save("main", "drawCircle('a', 0, 0, 1)\ndrawCirle('b', 0, 0, 1)\n")
		r.sleep(time.Second)
		r.save("main", circles(4))
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 2 entities [scene 2]",
			"60ms run 2 v1 main: scene.code.js:2:1: ReferenceError: drawCirle is not defined [scene 2]",
			"1.06s run 3 v2 main: ok 4 entities [scene 4]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchOneRunAtATime: saves made while a slow run is going are taken after it, and the
// next run reads the latest state; nothing queues behind it.
func TestWatchOneRunAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, slowRunner{300 * time.Millisecond}, map[string]string{"main": circles(1)})
		r.sleep(time.Second) // the first run ends at 0.3s
		r.save("main", circles(2))
		r.sleep(100 * time.Millisecond) // 1.06s: the run of circles(2) starts, until 1.36s
		for i := 3; i <= 5; i++ {
			r.save("main", circles(i))
			r.sleep(50 * time.Millisecond)
		}
		r.sleep(2 * time.Second)
		want := []string{
			"300ms run 1 v1 : ok 1 entities [scene 1]",
			"1.36s run 2 v2 main: ok 2 entities [scene 2]",
			// The saves at 1.1, 1.15 and 1.2s are taken when that run ends, at 1.36s: a
			// quiet window from then, and 300 ms of run.
			"1.72s run 3 v3 main: ok 5 entities [scene 5]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchRescanAndReopen: lost events (an overflow) and a workspace folder made again
// re-read every file the last run read, open the workspace again, and run once if any
// changed.
func TestWatchRescanAndReopen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{"main": "import 'a'\n", "a": circles(1)})
		r.feed.send(modules.Changes{Rescan: true}) // nothing changed: no run
		r.sleep(time.Second)
		r.files.set("a", circles(3))
		r.feed.send(modules.Changes{Rescan: true, Reopen: true})
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"1.06s run 2 v2 a: ok 3 entities [scene 3]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
		if r.files.opens != 2 {
			t.Errorf("the workspace was opened %d times, want 2", r.files.opens)
		}
	})
}

// TestWatchChecksDataAgainstItsSchema: a data file main reads that breaks its schema fails the
// run with the write path's error, and keeps the last good scene, as a write of it through
// the tools would be refused; a save to the schema runs again, as it is one of the files read.
func TestWatchChecksDataAgainstItsSchema(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{
			"main":               "const s = readJSON('size'); drawCircle('c', 0, 0, s.r)\n",
			"size.json":          `{"r": 1}`,
			"size.schema.json":   `{"type": "object", "properties": {"r": {"type": "number", "maximum": 5}}}`,
			"unread.json":        `{"r": 50}`,
			"unread.schema.json": `{"properties": {"r": {"maximum": 5}}}`,
		})
		r.save("size.json", `{"r": 9}`)
		r.sleep(time.Second)
		r.save("size.schema.json", `{"type": "object", "properties": {"r": {"type": "number", "maximum": 10}}}`)
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"60ms run 2 v1 size.json: error: invalid data: data/size.json does not match data/size.schema.json:\ndata/size.json:1:7: /r: maximum: got 9, want 5 [scene 1]",
			"1.06s run 3 v2 size.schema.json: ok 1 entities [scene 1]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// TestWatchStopsASchemaBomb: a data file whose check against its schema is exponential fails
// the run at the schema limits, as a write of it would be refused, and the last good scene
// stays. In the bubble the clock stands still while the check's worker works, so it is the
// memory limit that stops it.
func TestWatchStopsASchemaBomb(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startWatch(t, runtime.InProcess{}, map[string]string{
			"main":          "const d = readJSON('d'); drawCircle('c', 0, 0, d.length)\n",
			"d.json":        `[[]]`,
			"d.schema.json": bombSchema,
		})
		r.save("d.json", nested(22))
		r.sleep(time.Second)
		r.save("d.json", `[[], []]`)
		r.sleep(time.Second)
		want := []string{
			"0s run 1 v1 : ok 1 entities [scene 1]",
			"60ms run 2 v1 d.json: error: schema validation limit exceeded: checking data/d.json against data/d.schema.json needed more than 256 MB of memory (MaxSchemaMemory) and was stopped; " +
				"simplify the schema (anyOf or oneOf branches that each $ref back into it make the check exponential in the data's depth; a schema nested hundreds of levels deep is slow to compile) or make the data smaller or shallower [scene 1]",
			"1.06s run 3 v2 d.json: ok 1 entities [scene 1]",
		}
		if diff := cmp.Diff(want, r.stop(t)); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

// bombSchema has two anyOf branches that each $ref back into it: checking data nested n deep
// takes 2^n steps.
const bombSchema = `{"anyOf":[{"type":"array","items":{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}}]}`

// nested is n arrays, each holding the next, around true.
func nested(n int) string { return strings.Repeat("[", n) + "true" + strings.Repeat("]", n) }
