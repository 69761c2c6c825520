package modules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/testws"
)

func TestIgnoredName(t *testing.T) {
	for name, want := range map[string]bool{
		"scene.code.js":                false,
		".scene.code.js.swp":           true, // vim's swap file
		"scene.code.js.swp":            true,
		"scene.code.js~":               true, // backups
		"4913":                         true, // vim's probe
		"scene.code.js___jb_tmp___":    true, // JetBrains safe-write
		"scene.code.js___jb_old___":    true,
		"#scene.code.js#":              true, // Emacs autosave
		".#scene.code.js":              true, // Emacs lock
		".cadrun-tmp-0123456789abcdef": true, // our own temp files
		".hidden.js":                   true,
		"house.js":                     false,
		"4914":                         false,
		"data#1.json":                  false,
	} {
		if got := IgnoredName(name); got != want {
			t.Errorf("IgnoredName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestLogicalName(t *testing.T) {
	type result struct {
		Name string
		OK   bool
	}
	for _, tc := range []struct {
		dir, base string
		want      result
	}{
		{"", "scene.code.js", result{"main", true}},
		{"", "scene.json", result{}},
		{"", "house.js", result{}},
		{"modules", "house.js", result{"house", true}},
		{"modules", "main.js", result{}}, // main is reserved
		{"modules", "bad name.js", result{}},
		{"modules", "house.ts", result{}},
		{"data", "sizes.json", result{"sizes.json", true}},
		{"data", "sizes.js", result{}},
		{".cadrun", "log.json", result{}},
	} {
		n, ok := logicalName(tc.dir, tc.base)
		if diff := cmp.Diff(tc.want, result{n, ok}); diff != "" {
			t.Errorf("logicalName(%q, %q) mismatch (-want +got):\n%s", tc.dir, tc.base, diff)
		}
	}
}

// TestWatchOverflowRescans: a lost event queue is a rescan, not an error.
func TestWatchOverflowRescans(t *testing.T) {
	w := &Watcher{dir: "ws", names: map[string]bool{}, changed: make(chan struct{}, 1)}
	w.handleErr(fmt.Errorf("reading events: %w", fsnotify.ErrEventOverflow))
	w.handleErr(errors.New("no space left on device"))
	<-w.Changed()
	got := w.Take()
	want := Changes{Names: []string{}, Rescan: true, Errs: []error{errors.New("watching ws: no space left on device")}}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a.Error() == b.Error() })); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestWatchBadArguments(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dir  string
		opt  WatchOptions
		want string
	}{
		{dir, WatchOptions{Poll: time.Millisecond}, "bad poll interval: 1ms; give between 20ms (MinPoll) and 1m0s (MaxPoll)"},
		{dir, WatchOptions{Poll: time.Hour}, "bad poll interval: 1h0m0s; give between 20ms (MinPoll) and 1m0s (MaxPoll)"},
		{dir + "/missing", WatchOptions{}, "watching " + dir + "/missing: stat " + dir + "/missing: no such file or directory"},
	} {
		w, err := Watch(tc.dir, tc.opt)
		if err == nil {
			w.Close()
			t.Errorf("Watch(%q, %+v) succeeded, want %q", tc.dir, tc.opt, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("Watch(%q, %+v) = %q, want %q", tc.dir, tc.opt, err, tc.want)
		}
	}
}

// TestWatchReportsLogicalNames: editors' temp files, cadrun's own, internal state and files
// that are no workspace file say nothing; the files that are come out as logical names. A
// last write, of a sentinel module, marks the end: events arrive in order.
func TestWatchReportsLogicalNames(t *testing.T) {
	dir := t.TempDir()
	writeAll(t, dir, map[string]string{"scene.code.js": "", "modules/a.js": ""})
	w, err := Watch(dir, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	writeAll(t, dir, map[string]string{
		".scene.code.js.swp":        "",
		"scene.code.js~":            "",
		"4913":                      "",
		"scene.code.js___jb_tmp___": "",
		"#scene.code.js#":           "",
		".cadrun-tmp-00":            "",
		".cadrun/history/log.json":  "",
		"scene.json":                "",
		"out.svg":                   "",
		"modules/.a.js.swp":         "",
		"modules/a.js~":             "",
		"modules/main.js":           "",
		"modules/notes.txt":         "",
		"scene.code.js":             "drawCircle('a', 0, 0, 1)",
		"modules/a.js":              "x",
	})
	writeAll(t, dir, map[string]string{"data/sizes.json": "{}"}) // data/ is new: scanned
	writeAll(t, dir, map[string]string{"modules/zz_sentinel.js": ""})
	got := map[string]bool{}
	timeout := time.After(10 * time.Second)
	for !got["zz_sentinel"] {
		select {
		case <-w.Changed():
		case <-timeout:
			t.Fatalf("no event for the sentinel; got %v", got)
		}
		c := w.Take()
		for _, n := range c.Names {
			got[n] = true
		}
	}
	want := map[string]bool{"main": true, "a": true, "sizes.json": true, "zz_sentinel": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	testws.Write(t, dir, files)
}

// TestWatchKernelQueueOverflow: while the watcher is held up, more files are written than the
// kernel's event queue holds; the kernel drops events and says so, and the watcher asks for a
// rescan instead of reporting a partial list as the truth.
func TestWatchKernelQueueOverflow(t *testing.T) {
	if testing.Short() {
		t.Skip("writes tens of thousands of files")
	}
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Skip("no inotify here")
	}
	var queue int
	if _, err := fmt.Sscan(string(b), &queue); err != nil || queue > 100_000 {
		t.Skipf("the kernel's event queue holds %q events; too many to fill in a test", b)
	}
	dir := t.TempDir()
	writeAll(t, dir, map[string]string{"modules/a.js": ""})
	w, err := Watch(dir, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.mu.Lock() // the watcher's loop stops at its first event, and the kernel's queue fills
	for i := range queue + 1000 {
		if err := os.WriteFile(filepath.Join(dir, "modules", fmt.Sprintf("m%06d.js", i)), nil, 0o644); err != nil {
			w.mu.Unlock()
			t.Fatal(err)
		}
	}
	w.mu.Unlock()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case <-w.Changed():
		case <-timeout:
			t.Fatal("no rescan after the overflow")
		}
		if w.Take().Rescan {
			return
		}
	}
}

// TestWatchDataFolders: a data file in a folder of data/ (catalog/items.json, as readJSON
// names it) is a workspace file like any other: a save to it is reported, in a folder that
// was there at the start, in one made (or moved in) later, and while polling. So is a data
// file's schema, which the write path checks data against.
func TestWatchDataFolders(t *testing.T) {
	for _, opt := range []WatchOptions{{}, {Poll: 20 * time.Millisecond}} {
		t.Run(fmt.Sprintf("poll=%v", opt.Poll), func(t *testing.T) {
			dir := t.TempDir()
			writeAll(t, dir, map[string]string{"scene.code.js": "", "data/catalog/items.json": "{}"})
			w, err := Watch(dir, opt)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			writeAll(t, dir, map[string]string{
				"data/catalog/items.json":        `{"n": 1}`,
				"data/catalog/items.schema.json": `{}`,
				"data/a/b/c/deep.json":           `{}`,
				"data/catalog/notes.txt":         "",
				"data/catalog/.items.json.swp":   "",
			})
			want := map[string]bool{"catalog/items.json": true, "catalog/items.schema.json": true, "a/b/c/deep.json": true}
			got := map[string]bool{}
			timeout := time.After(10 * time.Second)
			for len(got) < len(want) {
				select {
				case <-w.Changed():
				case <-timeout:
					t.Fatalf("got %v, want %v", got, want)
				}
				c := w.Take()
				for _, n := range c.Names {
					got[n] = true
				}
				if len(c.Errs) > 0 {
					t.Errorf("errors: %v", c.Errs)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWatchDataFoldersCapped: past MaxWatchedDirs, the folders left out are named once, with
// what to do, rather than watched without a bound.
func TestWatchDataFoldersCapped(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range MaxWatchedDirs {
		files[fmt.Sprintf("data/f%03d/x.json", i)] = "{}"
	}
	writeAll(t, dir, files)
	w, err := Watch(dir, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if n := len(w.watched) + 2; n != MaxWatchedDirs {
		t.Errorf("watching %d directories, want %d", n, MaxWatchedDirs)
	}
	c := w.Take()
	want := fmt.Sprintf("watching %s: over %d directories (MaxWatchedDirs); changes to the files in %s and in further folders of data/ are not seen; keep fewer folders in data/",
		dir, MaxWatchedDirs, filepath.Join(dir, "data", fmt.Sprintf("f%03d", MaxWatchedDirs-3)))
	if len(c.Errs) != 1 || c.Errs[0].Error() != want {
		t.Errorf("errors %v, want one: %s", c.Errs, want)
	}
}

// TestWatchLinkedModules: modules/ as a symbolic link to a folder in the workspace is read
// through by runs, and watched through too: a save in it is reported, as when polling.
func TestWatchLinkedModules(t *testing.T) {
	dir := t.TempDir()
	writeAll(t, dir, map[string]string{"scene.code.js": "import 'a'", "lib/a.js": ""})
	if err := os.Symlink("lib", filepath.Join(dir, "modules")); err != nil {
		t.Fatal(err)
	}
	w, err := Watch(dir, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	writeAll(t, dir, map[string]string{"lib/a.js": "drawCircle('a', 0, 0, 1)"})
	select {
	case <-w.Changed():
		if got := w.Take().Names; !slices.Equal(got, []string{"a"}) {
			t.Errorf("got %q, want [a]", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported for a save in the linked modules folder")
	}
}

// TestWatchAddFails: a folder that cannot be watched (the kernel's watches used up) is named
// with what to do; the watch goes on without it.
func TestWatchAddFails(t *testing.T) {
	dir := t.TempDir()
	writeAll(t, dir, map[string]string{"modules/a.js": ""})
	w, err := Watch(dir, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close() // from now on, every watch added fails
	w.addDir("data", true)
	writeAll(t, dir, map[string]string{"data/x.json": "{}"})
	w.addDir("data", true)
	c := w.Take()
	want := "watching " + filepath.Join(dir, "data") + ": fsnotify: watcher already closed; saves in it are not seen: restart with -poll, or raise fs.inotify.max_user_watches"
	if len(c.Errs) != 1 || c.Errs[0].Error() != want {
		t.Errorf("errors %v, want one: %s", c.Errs, want)
	}
}
