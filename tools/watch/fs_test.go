package watch

// The watch loop driven by real filesystem events (modules.Watch over fsnotify, or polling),
// one test per way editors and tools save. Each test waits for the update it expects (no
// sleeps), and fails if any run on the way saw a half-saved file.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// fsRig is a watch on a real workspace directory.
type fsRig struct {
	t       *testing.T
	dir     string
	updates chan RunUpdate
	mu      sync.Mutex
	all     []RunUpdate
	notices []string
}

// updateTimeout is how long a test waits for an update before it fails; a run normally takes a
// few milliseconds after the quiet window.
const updateTimeout = 20 * time.Second

func startFSWatch(t *testing.T, opt modules.WatchOptions, files map[string]string) *fsRig {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ws")
	writeFiles(t, dir, files)
	r := &fsRig{t: t, dir: dir, updates: make(chan RunUpdate, 1000)}
	w, err := modules.Watch(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := Run(ctx, Config{
			Open:   func() (runtime.Source, error) { return modules.Open(dir) },
			Feed:   w,
			Runner: runtime.InProcess{},
			Publish: func(u RunUpdate) {
				r.mu.Lock()
				r.all = append(r.all, u)
				r.mu.Unlock()
				r.updates <- u
			},
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
	t.Cleanup(func() {
		cancel()
		<-done
		w.Close()
	})
	r.expect(func(u RunUpdate) bool { return u.Run == 1 }, "the first run")
	return r
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	testws.Write(t, dir, files)
	if len(files) == 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// expect waits for an update that ok accepts and returns it; every update before it must be
// a good run, unless allowFailures is set.
func (r *fsRig) expect(ok func(RunUpdate) bool, what string) RunUpdate {
	r.t.Helper()
	timeout := time.After(updateTimeout)
	for {
		select {
		case u := <-r.updates:
			if ok(u) {
				return u
			}
			r.t.Fatalf("waiting for %s, got run %d: %s", what, u.Run, describeUpdate(u))
		case <-timeout:
			r.t.Fatalf("no update with %s within %v", what, updateTimeout)
		}
	}
}

// expectEntities waits for a good run with n entities.
func (r *fsRig) expectEntities(n int) RunUpdate {
	r.t.Helper()
	return r.expect(func(u RunUpdate) bool { return u.OK() && u.Entities == n }, fmt.Sprintf("a good run of %d entities", n))
}

func describeUpdate(u RunUpdate) string {
	switch {
	case u.Diagnostic != nil:
		return u.Diagnostic.Error()
	case u.Err != nil:
		return u.Err.Error()
	}
	return fmt.Sprintf("ok %d entities (files %v)", u.Entities, u.Files)
}

func (r *fsRig) path(rel string) string { return filepath.Join(r.dir, rel) }

func (r *fsRig) write(rel, content string) {
	r.t.Helper()
	if err := os.WriteFile(r.path(rel), []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *fsRig) rename(from, to string) {
	r.t.Helper()
	if err := os.Rename(r.path(from), r.path(to)); err != nil {
		r.t.Fatal(err)
	}
}

func (r *fsRig) remove(rel string) {
	r.t.Helper()
	if err := os.Remove(r.path(rel)); err != nil {
		r.t.Fatal(err)
	}
}

// runs is how many runs have been published so far.
func (r *fsRig) runs() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.all)
}

const mainFile = "scene.code.js"

func TestWatchSaveStyles(t *testing.T) {
	for _, tc := range []struct {
		name string
		save func(r *fsRig, content string)
	}{
		{"temp file and rename", func(r *fsRig, content string) {
			r.write(".scene.code.js.tmp-1234", content)
			r.rename(".scene.code.js.tmp-1234", mainFile)
		}},
		{"truncate and write in place", func(r *fsRig, content string) {
			f, err := os.OpenFile(r.path(mainFile), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				r.t.Fatal(err)
			}
			defer f.Close()
			f.Sync() // the empty file is there for a moment: a run must not see it
			f.WriteString(content)
		}},
		{"vim backup dance", func(r *fsRig, content string) {
			r.write(".scene.code.js.swp", "swap")
			r.write("4913", "") // vim's probe: can it create files here?
			r.remove("4913")
			r.rename(mainFile, mainFile+"~")
			r.write(mainFile, content)
			os.Chmod(r.path(mainFile), 0o644)
			r.remove(mainFile + "~")
			r.remove(".scene.code.js.swp")
		}},
		{"JetBrains safe-write", func(r *fsRig, content string) {
			r.write(mainFile+"___jb_tmp___", content)
			r.rename(mainFile, mainFile+"___jb_old___")
			r.rename(mainFile+"___jb_tmp___", mainFile)
			r.remove(mainFile + "___jb_old___")
		}},
		{"Emacs", func(r *fsRig, content string) {
			os.Symlink("user@host.1234", r.path(".#"+mainFile)) // the lock
			r.write("#"+mainFile+"#", content)                  // the autosave
			r.rename(mainFile, mainFile+"~")
			r.write(mainFile, content)
			r.remove("#" + mainFile + "#")
			r.remove(".#" + mainFile)
		}},
		{"sed -i", func(r *fsRig, content string) {
			sed, err := exec.LookPath("sed")
			if err != nil {
				r.t.Skip("no sed here")
			}
			// circles(1) becomes circles(2) by appending the second circle's line.
			line := strings.TrimPrefix(content, circles(1))
			cmd := exec.Command(sed, "-i", "$a "+strings.TrimSuffix(line, "\n"), mainFile)
			cmd.Dir = r.dir
			if out, err := cmd.CombinedOutput(); err != nil {
				r.t.Fatalf("sed: %v\n%s", err, out)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startFSWatch(t, modules.WatchOptions{}, map[string]string{mainFile: circles(1)})
			for i := 2; i <= 3; i++ {
				content := circles(i)
				if tc.name == "sed -i" && i == 3 {
					break
				}
				tc.save(r, content)
				r.expectEntities(i)
			}
			// Nothing is left to run: the ignored names and the clean-up sent no run.
			r.write("notes.txt", "not a workspace file")
			r.write(mainFile+"~", "a backup")
			if err := r.flush(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// flush saves main with one more circle and waits for that run, which must be the next one:
// it proves that nothing before it started a run of its own.
func (r *fsRig) flush() error {
	r.t.Helper()
	before := r.runs()
	b, err := os.ReadFile(r.path(mainFile))
	if err != nil {
		return err
	}
	r.write(mainFile, string(b)+"drawCircle('flush', 100, 100, 1)\n")
	u := r.expect(func(u RunUpdate) bool { return u.OK() }, "the flush run")
	if u.Run != before+1 {
		return fmt.Errorf("the flush was run %d, want %d: something else ran", u.Run, before+1)
	}
	return nil
}

// TestWatchNewModulesDirectory: main imports a module that does not exist yet; `mkdir modules`
// and a file written in it at once (before any watch on the new directory can exist) run.
func TestWatchNewModulesDirectory(t *testing.T) {
	r := startFSWatch(t, modules.WatchOptions{}, map[string]string{mainFile: "import 'late'\nlate()\n"})
	if err := os.Mkdir(r.path("modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("modules/late.js", "function late() { drawRect('r', 0, 0, 4, 2) }\n")
	r.expectEntities(1)
	r.write("modules/late.js", "function late() { drawRect('r', 0, 0, 4, 2); drawCircle('c', 0, 0, 1) }\n")
	r.expectEntities(2)
}

// TestWatchDirectoryMovedIn: a data/ or modules/ directory that arrives whole (moved in, as
// `mv` or a checkout does) sends one event for the directory and none for its files: the
// watch scans it.
func TestWatchDirectoryMovedIn(t *testing.T) {
	r := startFSWatch(t, modules.WatchOptions{}, map[string]string{mainFile: "import 'late'\nlate()\n"})
	writeFiles(t, r.path("modules.new"), map[string]string{"late.js": "function late() { drawRect('r', 0, 0, 4, 2) }\n"})
	r.rename("modules.new", "modules")
	r.expectEntities(1)
}

// TestWatchWorkspaceRecreated: the workspace folder is removed (the run then says main is
// missing) and made again with new files, which run.
func TestWatchWorkspaceRecreated(t *testing.T) {
	r := startFSWatch(t, modules.WatchOptions{}, map[string]string{mainFile: circles(1)})
	if err := os.RemoveAll(r.dir); err != nil {
		t.Fatal(err)
	}
	u := r.expect(func(u RunUpdate) bool { return u.Diagnostic != nil }, "a run without the folder")
	if got, want := u.Diagnostic.Error(), "scene.code.js: ModuleError: scene.code.js does not exist"; got != want {
		t.Errorf("diagnostic %q, want %q", got, want)
	}
	writeFiles(t, r.dir, map[string]string{mainFile: "import 'm'\n", "modules/m.js": circles(2)})
	r.expectEntities(2)
	r.write("modules/m.js", circles(3)) // modules/ of the new folder is watched too
	r.expectEntities(3)
}

// TestWatchFileBurst: 20,000 files written into modules/ at once (more events than the
// kernel's default queue of 16,384 holds, so it may overflow and the watch rescans), then main
// changed to import the last: the run sees it, and the burst of unrelated files ran nothing.
func TestWatchFileBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20,000 files")
	}
	r := startFSWatch(t, modules.WatchOptions{}, map[string]string{mainFile: circles(1), "modules/keep.js": ""})
	for i := range 20_000 {
		r.write(fmt.Sprintf("modules/m%05d.js", i), fmt.Sprintf("drawCircle('m%05d', 0, 0, 1)\n", i))
	}
	r.write(mainFile, "import 'm19999'\n"+circles(1))
	u := r.expectEntities(2)
	if u.Run != 2 {
		t.Errorf("the run after the burst was run %d, want 2", u.Run)
	}
	r.mu.Lock()
	t.Logf("notices: %q", r.notices) // whether the queue overflowed depends on the machine
	r.mu.Unlock()
}

// TestWatchChangesByTheTools: another process writing through the workspace (an agent over
// MCP, whose writes are atomic renames of cadrun's own temp files) shows up like any save.
func TestWatchChangesByTheTools(t *testing.T) {
	r := startFSWatch(t, modules.WatchOptions{}, map[string]string{mainFile: circles(1)})
	ws, err := modules.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	srv := engine.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}, engine.Options{})
	write := func([]byte, bool) (modules.Change, error) {
		return modules.Change{Name: "main", Next: []byte(circles(2))}, nil
	}
	if _, err := srv.Session().Commit(context.Background(), "main", write, ""); err != nil {
		t.Fatal(err)
	}
	r.expectEntities(2)
	if err := r.flush(); err != nil { // the history and scene.json the write left ran nothing
		t.Fatal(err)
	}
}

// TestWatchPoll: with -poll the same saves are found by comparing stamps.
func TestWatchPoll(t *testing.T) {
	r := startFSWatch(t, modules.WatchOptions{Poll: 25 * time.Millisecond}, map[string]string{mainFile: circles(1)})
	r.write(".scene.code.js.tmp", circles(2))
	r.rename(".scene.code.js.tmp", mainFile)
	r.expectEntities(2)
	if err := os.Mkdir(r.path("modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write("modules/m.js", circles(3))
	r.write(mainFile, "import 'm'\n")
	r.expectEntities(3)
	if err := r.flush(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(r.dir); err != nil {
		t.Fatal(err)
	}
	r.expect(func(u RunUpdate) bool { return u.Diagnostic != nil }, "a run without the folder")
	writeFiles(t, r.dir, map[string]string{mainFile: circles(2)})
	r.expectEntities(2)
}
