package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/fulldisk"
	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/scene"
)

// TestMain lets this test binary serve as the Pool's worker process.
func TestMain(m *testing.M) {
	ServeWorkerWithExport(testExport)
	os.Exit(m.Run())
}

// testExport is the tests' ExportFunc: the request, a line break and the scene's JSON, in
// pieces of testChunk bytes. The request "fail" fails before writing, "fail midway" and "die
// midway" after the first piece (the second by killing the worker), "collections" makes
// 6 MB of garbage and answers how many collections ran meanwhile, and "warmed" answers
// whether the worker had warmed up before the run (prewarm), "huge" whether its heap was grown
// for huge pages (noteHeapGrowth); "whole" writes the scene's JSON in one piece. The request "warn" writes
// as any other and answers testWarning.
func testExport(w io.Writer, s *scene.Scene, request []byte) ([]string, error) {
	if err := testExportBytes(w, s, request); err != nil {
		return nil, err
	}
	if string(request) == "warn" {
		return []string{testWarning}, nil
	}
	return nil, nil
}

// testWarning is the warning of testExport's request "warn".
const testWarning = "the export left something out"

func testExportBytes(w io.Writer, s *scene.Scene, request []byte) error {
	switch string(request) {
	case "fail":
		return errors.New("cannot write fail")
	case "whole":
		b, err := s.MarshalJSON()
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	case "huge":
		_, err := fmt.Fprintf(w, "huge %v", hugeHeapGrown.Load())
		return err
	case "warmed":
		_, err := fmt.Fprintf(w, "warmed %v", warmed.Load())
		return err
	case "collections":
		before := gcCycles()
		var keep [][]byte
		for range 6 << 4 {
			keep = append(keep[:0], make([]byte, 64<<10))
		}
		_, err := fmt.Fprintf(w, "%d collections", gcCycles()-before)
		return err
	}
	b, err := s.MarshalJSON()
	if err != nil {
		return err
	}
	b = append(append(request, '\n'), b...)
	for i := 0; i < len(b); i += testChunk {
		if _, err := w.Write(b[i:min(len(b), i+testChunk)]); err != nil {
			return err
		}
		switch string(request) {
		case "fail midway":
			return errors.New("cannot write fail midway")
		case "die midway":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
	return nil
}

// testChunk is the size of testExport's pieces: small, so that one read of the pipe holds
// several.
const testChunk = 100

// wantExport is what testExport writes for request from the scene src makes in process.
func wantExport(t *testing.T, src Source, request string) string {
	t.Helper()
	res, err := Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := testExport(&b, res.Scene, []byte(request)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func newTestPool(t *testing.T, mem int64) *Pool {
	t.Helper()
	p := NewPool(PoolOptions{MaxMemory: mem})
	t.Cleanup(func() { p.Close() })
	return p
}

func TestPoolMatchesInProcess(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{
		MainModule: "import {gear} from 'gears'\ngear('g', 0, 0)\nconsole.log('ok')\n" + typicalScript,
		"gears":    "export function gear(n, x, y) { drawCircle(n, x, y, 5) }",
	}
	want, err := Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // the worker is reused
		got, err := p.Run(context.Background(), src, MainModule, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := want.Scene.MarshalJSON()
		b, _ := got.Scene.MarshalJSON()
		if diff := cmp.Diff(string(a), string(b)); diff != "" {
			t.Errorf("scene mismatch (-in process +worker):\n%s", diff)
		}
		if diff := cmp.Diff(want.Logs, got.Logs); diff != "" {
			t.Errorf("logs mismatch (-in process +worker):\n%s", diff)
		}
	}
	_, err = p.Run(context.Background(), MapSource{MainModule: "import 'nope'"}, MainModule, Options{})
	if err == nil || err.Error() != "scene.code.js:1:8: ModuleError: module 'nope' not found" {
		t.Errorf("missing module through the worker: %v", err)
	}
}

// TestPoolSurvivesHostileScripts: each failure ends within its deadline plus a second with a
// clear error, and the pool (and this process) serve the next run.
func TestPoolSurvivesHostileScripts(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 256<<20)
	short := Limits{Timeout: 3 * time.Second}
	tests := []struct {
		name, src string
		want      string
		needsCap  bool          // relies on the address space cap, which race builds cannot set
		timeout   time.Duration // instead of 3 s, for a failure that is not a timeout but takes seconds
	}{
		{"huge repeat", `"x".repeat(1e11)`, "LimitError: the run needed more than 256 MB of memory (Limits.MaxMemory) and its worker was stopped", true, 0},
		// goja fills about a million slots a second, so this one usually meets the deadline
		// before the memory cap; either way the worker is stopped and the error says why.
		{"huge array", `new Array(2e8).fill(0)`, "and its worker was stopped", false, 0},
		{"growing in JS", `const a = []; for (;;) a.push(new ArrayBuffer(1 << 24))`, "MB of memory (Limits.MaxMemory)", true, 0},
		// About 1.5 s under the race detector, more on a busy machine: given time to overflow.
		{"nested JSON.parse", `JSON.parse("[".repeat(5e6) + "]".repeat(5e6))`, "StackOverflowError: the run nested too deeply", false, 30 * time.Second},
		{"catastrophic regex", `/(a+)+(?=b)/.test("a".repeat(40) + "c")`, "TimeoutError: the run took longer than 3s (Limits.Timeout)", false, 0},
		{"endless loop in a module", "import 'spin'", "modules/spin.js:1:1: TimeoutError: the run took longer than 3s", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needsCap && raceBuild {
				t.Skip("needs the worker's address space cap; `make test` runs these without -race")
			}
			lim := short
			if tt.timeout > 0 {
				lim.Timeout = tt.timeout
			}
			start := time.Now()
			_, err := p.Run(context.Background(), MapSource{MainModule: tt.src, "spin": "for (;;) {}"}, MainModule, Options{Limits: lim})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
			if el := time.Since(start); el > lim.Timeout+2*time.Second {
				t.Errorf("took %v", el)
			}
			res, err := p.Run(context.Background(), MapSource{MainModule: "drawCircle('c', 0, 0, 1)"}, MainModule, Options{})
			if err != nil || res.Scene.Len() != 1 {
				t.Fatalf("the pool did not recover: %v", err)
			}
		})
	}
}

func TestPoolCancel(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := p.Run(ctx, MapSource{MainModule: "for (;;) {}"}, MainModule, Options{})
	if err != context.Canceled {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("cancel took %v", el)
	}
}

// TestRunAnswersDespiteNativeCode: in process, a stuck built-in is abandoned, not waited on.
func TestRunAnswersDespiteNativeCode(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, err := runMain(t, `/(a+)+(?=b)/.test("a".repeat(34) + "c")`, Limits{Timeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "TimeoutError") {
		t.Fatalf("got %v", err)
	}
	if el := time.Since(start); el > 300*time.Millisecond+2*time.Second {
		t.Errorf("took %v", el)
	}
}

// TestPoolExport: the worker writes the scene out itself and sends those bytes, the same as
// writing out the scene a Run brings back; a failed run answers as Run does, writing nothing;
// an export error comes back as it is, even after part of the export was written, and the
// worker serves on.
func TestPoolExport(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: "console.log('hi')\n" + typicalScript}
	want := wantExport(t, src, "svg please")
	if len(want) < 5*testChunk {
		t.Fatalf("the export is %d bytes: too short to come in several pieces", len(want))
	}
	for range 2 { // the worker is reused
		var out strings.Builder
		res, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("export mismatch (-written from Run's scene +written in the worker):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"hi"}, res.Logs); diff != "" {
			t.Errorf("logs mismatch (-want +got):\n%s", diff)
		}
		if res.Scene.Len() != 0 {
			t.Errorf("the scene came back too: %d entities", res.Scene.Len())
		}
	}

	var out strings.Builder
	_, _, err := p.Export(context.Background(), MapSource{MainModule: "drawCircle('c', 0, 0, 1)\nnope()"}, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out})
	if err == nil || err.Error() != "scene.code.js:2:1: ReferenceError: nope is not defined" || out.Len() != 0 {
		t.Errorf("failed run: got %v and %q; want its diagnostic and no bytes", err, out.String())
	}

	for _, c := range []struct{ request, err, out string }{
		{"fail", "cannot write fail", ""},
		{"fail midway", "cannot write fail midway", ("fail midway" + wantExport(t, src, ""))[:testChunk]},
	} {
		var out strings.Builder
		_, _, err = p.Export(context.Background(), src, MainModule, Options{}, []byte(c.request), ExportTo{W: &out})
		if err == nil || err.Error() != c.err || out.String() != c.out {
			t.Errorf("export %q: got %v after %q; want %q after %q", c.request, err, out.String(), c.err, c.out)
		}
		out.Reset()
		if _, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out}); err != nil || out.String() != want {
			t.Errorf("after export %q: got %v", c.request, err)
		}
	}
}

// TestPoolExportWarnings: the warnings of an export (what its file leaves out) follow the
// run's own, whether the worker streams the export or writes its file itself.
func TestPoolExportWarnings(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: "drawCircle('c', 0, 0, 1)\ndrawCircle('c', 0, 0, 2)\n"}
	file := filepath.Join(t.TempDir(), "out")
	for _, to := range []ExportTo{{W: io.Discard}, {File: file, W: io.Discard}} {
		res, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("warn"), to)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) != 2 || !strings.Contains(res.Warnings[0], `"c" was drawn 2 times`) || res.Warnings[1] != testWarning {
			t.Errorf("export to %+v: warnings %q; want the run's redraw warning, then %q", to, res.Warnings, testWarning)
		}
	}
}

// TestPoolExportToFile: given a file to make, the worker writes the export there itself and
// nothing comes through the pipe; an export that fails there says so, and the file made is
// the caller's to remove; a file the worker cannot make (its folder is missing) has the export
// streamed to the writer instead.
func TestPoolExportToFile(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: typicalScript}
	dir := t.TempDir()
	for _, c := range []struct{ request, err, file string }{
		{"svg please", "", wantExport(t, src, "svg please")},
		{"fail midway", "cannot write fail midway", ("fail midway" + wantExport(t, src, ""))[:testChunk]},
	} {
		file := filepath.Join(dir, c.request)
		var out strings.Builder
		_, made, err := p.Export(context.Background(), src, MainModule, Options{}, []byte(c.request), ExportTo{File: file, W: &out})
		if !made || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) || out.Len() != 0 {
			t.Errorf("export %q: made %v, error %v, %d bytes streamed; want made, error %q, none streamed", c.request, made, err, out.Len(), c.err)
		}
		if b, err := os.ReadFile(file); err != nil || string(b) != c.file {
			t.Errorf("export %q: the file holds %q (%v); want %q", c.request, b, err, c.file)
		}
	}
	var out strings.Builder
	_, made, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{File: filepath.Join(dir, "missing", "out"), W: &out})
	if made || err != nil || out.String() != wantExport(t, src, "svg please") {
		t.Errorf("a file the worker cannot make: made %v, error %v; want the export streamed", made, err)
	}
}

// TestPoolExportToFileDiskFull: a worker that cannot write the file it made, the disk full,
// says so with an error that matches ErrExportFile (an ExportFunc's own error does not), and
// serves on. Not parallel: see fulldisk (the worker, started meanwhile, inherits the limit).
func TestPoolExportToFileDiskFull(t *testing.T) {
	p := NewPool(PoolOptions{Lazy: true}) // its worker starts under the limit
	defer p.Close()
	src := MapSource{MainModule: typicalScript}
	dir := t.TempDir()
	var out strings.Builder
	lift := fulldisk.After(t, testChunk)
	_, made, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{File: filepath.Join(dir, "full"), W: &out})
	lift()
	if !made || err == nil || !errors.Is(err, ErrExportFile) || !strings.HasSuffix(err.Error(), "file too large") || out.Len() != 0 {
		t.Errorf("made %v, error %v, %d bytes streamed; want made, an ErrExportFile that says the file is too large, none streamed", made, err, out.Len())
	}
	_, made, err = p.Export(context.Background(), src, MainModule, Options{}, []byte("fail midway"), ExportTo{File: filepath.Join(dir, "fail"), W: &out})
	if !made || err == nil || err.Error() != "cannot write fail midway" || errors.Is(err, ErrExportFile) {
		t.Errorf("an ExportFunc's own error: made %v, error %v; want made and %q, not an ErrExportFile", made, err, "cannot write fail midway")
	}
}

// TestPoolExportWorkerKilled: a worker that dies in the middle of its export is reported as
// stopped, what it had sent is all that was written, and the next export gets a new worker.
func TestPoolExportWorkerKilled(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: typicalScript}
	var out strings.Builder
	_, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("die midway"), ExportTo{W: &out})
	const wantErr = "writing the scene out in the worker: the worker stopped: reading from the worker: EOF"
	if err == nil || err.Error() != wantErr {
		t.Errorf("got error %v; want %q", err, wantErr)
	}
	if want := ("die midway" + wantExport(t, src, ""))[:testChunk]; out.String() != want {
		t.Errorf("written before the worker died: %q; want %q", out.String(), want)
	}
	out.Reset()
	if _, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out}); err != nil || out.String() != wantExport(t, src, "svg please") {
		t.Errorf("the next export: got %v", err)
	}
}

// TestPoolExportOverTheLimit: an export past MaxExportBytes stops there with an error that
// names the limit, and the worker serves on. Not parallel: it lowers the limit.
func TestPoolExportOverTheLimit(t *testing.T) {
	defer func(max int64) { MaxExportBytes = max }(MaxExportBytes)
	MaxExportBytes = 3 * testChunk
	p := newTestPool(t, 0)
	src := MapSource{MainModule: typicalScript}
	var out strings.Builder
	_, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out})
	const wantErr = "the scene written out is over 300 bytes (MaxExportBytes): draw fewer or simpler shapes, or write a smaller picture (-width)"
	if err == nil || err.Error() != wantErr {
		t.Errorf("got error %v; want %q", err, wantErr)
	}
	if want := wantExport(t, src, "svg please")[:3*testChunk]; out.String() != want {
		t.Errorf("written: %q; want the first %d bytes, %q", out.String(), 3*testChunk, want)
	}
	file := filepath.Join(t.TempDir(), "out")
	if _, made, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{File: file, W: &out}); !made || err == nil || err.Error() != wantErr {
		t.Errorf("to a file: made %v, error %v; want made and %q", made, err, wantErr)
	}
	if st, err := os.Stat(file); err != nil || st.Size() != 3*testChunk {
		t.Errorf("the file made: %v; want %d bytes", err, 3*testChunk)
	}
	MaxExportBytes = 1 << 20
	out.Reset()
	if _, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out}); err != nil || out.String() != wantExport(t, src, "svg please") {
		t.Errorf("the next export: got %v", err)
	}
}

// TestExportStreamOverTheLimit: the parent reads no more than the limit, whatever a worker
// sends (a worker that ignored it), and says so.
func TestExportStreamOverTheLimit(t *testing.T) {
	t.Parallel()
	stream := "{\"type\":\"chunk\",\"export_bytes\":5}\nabcde{\"type\":\"chunk\",\"export_bytes\":5}\nfghij{\"type\":\"export\"}\n"
	for _, c := range []struct {
		max  int64
		err  error
		want string
	}{
		{10, nil, "abcdefghij"},
		{9, errExportTooLarge, "abcde"},
	} {
		w := &worker{from: newLineReader(strings.NewReader(stream))}
		var out strings.Builder
		if _, _, err := w.export(&out, c.max); err != c.err || out.String() != c.want {
			t.Errorf("limit %d: got %v and %q; want %v and %q", c.max, err, out.String(), c.err, c.want)
		}
	}
}

// TestWorkerStreamCutShort: a worker's stream that ends early (the worker killed, its pipe
// broken) fails the read with the error that says where: between messages, inside a message
// line, or inside the raw bytes a line announced (a scene, an export's chunk, after passing on
// what came of it), which is an unexpected EOF even where none of the bytes came; a message
// the parent does not await there is named.
func TestWorkerStreamCutShort(t *testing.T) {
	t.Parallel()
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0) // takes the "run" line
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	for _, c := range []struct {
		name, stream string
		export       bool
		err, out     string
	}{
		{"run, between messages", "", false, "reading from the worker: EOF", ""},
		{"run, inside a line", `{"type":"res`, false, "reading from the worker: unexpected EOF", ""},
		{"run, inside the scene", "{\"type\":\"scene\",\"scene_bytes\":20}\n{\"version\"", false, "reading the worker's scene: unexpected EOF", ""},
		{"run, before the scene", "{\"type\":\"scene\",\"scene_bytes\":20}", false, "reading the worker's scene: unexpected EOF", ""},
		{"export, before a chunk", "{\"type\":\"chunk\",\"export_bytes\":5}", true, "unexpected EOF", ""},
		{"export, between messages", "{\"type\":\"chunk\",\"export_bytes\":2}\nab", true, "reading from the worker: EOF", "ab"},
		{"export, inside a line", "{\"type\":\"chunk\",\"export_bytes\":2}\nab{\"type\":\"chu", true, "reading from the worker: unexpected EOF", "ab"},
		{"export, inside a chunk", "{\"type\":\"chunk\",\"export_bytes\":5}\nabc", true, "unexpected EOF", "abc"},
		{"run, a message out of place", "{\"type\":\"chunk\"}\n", false, `unexpected message "chunk" from the worker`, ""},
		{"export, a message out of place", "{\"type\":\"result\"}\n", true, `unexpected message "result" from the worker`, ""},
	} {
		w := &worker{from: newLineReader(strings.NewReader(c.stream)), proc: &workerproc.Process{Stdin: devNull}}
		var out strings.Builder
		var err error
		if c.export {
			_, _, err = w.export(&out, 1<<20)
		} else {
			_, err = w.run(MapSource{}, MainModule, Options{}, nil, nil)
		}
		if err == nil || err.Error() != c.err || out.String() != c.out {
			t.Errorf("%s: got %v after %q; want %q after %q", c.name, err, out.String(), c.err, c.out)
		}
	}
}

// TestPoolExportWriteFails: an export that cannot be written to the caller's writer returns
// that error, and the next export gets a new worker.
func TestPoolExportWriteFails(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: typicalScript}
	_, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: failingWriter{}})
	if err != errDiskFull {
		t.Errorf("got %v; want %v", err, errDiskFull)
	}
	var out strings.Builder
	if _, _, err := p.Export(context.Background(), src, MainModule, Options{}, []byte("svg please"), ExportTo{W: &out}); err != nil || out.String() != wantExport(t, src, "svg please") {
		t.Errorf("the next export: got %v", err)
	}
}

var errDiskFull = errors.New("no space left on device")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// TestPoolExportKeepsTheRunsGC: a small run's export runs under the run's GC percentage: 6 MB
// of garbage start no collection (GOGC 100 set as the run ended started one).
func TestPoolExportKeepsTheRunsGC(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	var out strings.Builder
	if _, _, err := p.Export(context.Background(), MapSource{MainModule: typicalScript}, MainModule, Options{}, []byte("collections"), ExportTo{W: &out}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("0 collections", out.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestPrestartedWorker: the first Pool of the default command and memory cap that needs a
// worker takes the one workerproc.Prestart started instead of starting its own; a Pool with
// another cap does not. Not parallel: the prestarted worker is the process's.
func TestPrestartedWorker(t *testing.T) {
	w := workerproc.Prestart(DefaultLimits.MaxMemory)
	if w == nil {
		t.Fatal("no worker was prestarted")
	}
	src := MapSource{MainModule: "drawCircle('c', 0, 0, 1)"}

	other := NewPool(PoolOptions{Lazy: true, MaxMemory: 256 << 20})
	defer other.Close()
	if _, err := other.Run(context.Background(), src, MainModule, Options{}); err != nil {
		t.Fatal(err)
	}
	if other.idle[0].proc == w {
		t.Error("a pool with another memory cap took the prestarted worker")
	}

	p := NewPool(PoolOptions{Lazy: true})
	defer p.Close()
	if _, err := p.Run(context.Background(), src, MainModule, Options{}); err != nil {
		t.Fatal(err)
	}
	if p.idle[0].proc != w {
		t.Error("the pool started a worker of its own instead of taking the prestarted one")
	}
	if left := workerproc.Take(DefaultLimits.MaxMemory); left != nil {
		left.Kill()
		t.Error("the prestarted worker was still there after a pool took it")
	}
}

// TestPoolBigHeapKeepsHeadroom: a run that keeps a large heap live and makes garbage on top
// stays within MaxMemory, as it did with Go's default GC percentage throughout: the larger
// percentage a run starts with (smallGCPercent), kept, would let the garbage pass the limit.
func TestPoolBigHeapKeepsHeadroom(t *testing.T) {
	t.Parallel()
	if raceBuild {
		t.Skip("seconds of allocation under the race detector; `make test` runs the pool tests without -race")
	}
	p := newTestPool(t, 256<<20)
	src := MapSource{MainModule: `const keep = []
for (let i = 0; i < 80; i++) keep.push(new ArrayBuffer(1 << 20))
let made = 0
for (let i = 0; i < 2.5e5; i++) made += ('x' + i).repeat(200).length
drawCircle('c', 0, 0, 1)
console.log(keep.length, made >> 20)`}
	// It tests the heap, not the timeout: seconds of allocation on a busy machine must not
	// end it.
	res, err := p.Run(context.Background(), src, MainModule, Options{Limits: Limits{Timeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"80 312"}, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
}

// TestPoolSceneJSONIsTheScenesJSON: the scene JSON a worker sends, which callers store as it
// is (scene.json, the history), is byte for byte what the scene it decodes to encodes to.
func TestPoolSceneJSONIsTheScenesJSON(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: typicalScript + `
drawPolygon('tri', [0, 0, 10, 0, 5, 8], [[4, 2, 6, 2, 5, 4]])
drawBezier('b', 'M 0 0 C 10 10 20 -10 30 0 Q 40 10 50 0 Z')
drawText('t', 'Ø 12.5', 0, -30, 4, {align: 'center', color: [1, 0, 0, 1]})
drawEllipse('e', 0, 50, 10, 4)
drawRoundedRect('rr', 30, 50, 20, 10, 2)
rotate('tri', 0.3)
scale('b', 2, 1)
translate('e', 1.5, -2.25)
setStroke('rr', [0, 0, 1, 1], 0.5)
createGroup('g', ['tri', 'b'])
drawOrder('e', 'back')
`}
	res, err := p.Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.SceneJSON == nil {
		t.Fatal("no SceneJSON from the worker")
	}
	want, err := res.Scene.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(res.SceneJSON)); diff != "" {
		t.Errorf("scene JSON mismatch (-encoded +sent):\n%s", diff)
	}
}
