package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/fulldisk"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// TestMain lets this test binary serve as the worker of the pools Run starts, writing scenes
// out as cadrun's workers do, or failing as testExportEnv asks.
func TestMain(m *testing.M) {
	runtime.ServeWorkerWithExport(testExport)
	os.Exit(m.Run())
}

// testExportEnv makes the workers' export fail after its first piece: "fail midway" returns
// an error, "die midway" kills the worker; "solid" adds a solid, a tetrahedron, to the scene
// before it is written (the script API that makes solids is not these tests'). The workers
// inherit it from the test.
const testExportEnv = "CADRUN_TEST_EXPORT"

func testExport(w io.Writer, s *scene.Scene, request []byte) ([]string, error) {
	how := os.Getenv(testExportEnv)
	switch how {
	case "":
		return render.Export(w, s, request)
	case "solid":
		m := &scene.Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, Triangles: []uint32{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}
		if _, err := s.Put("tetra", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
			return nil, err
		}
		return render.Export(w, s, request)
	}
	return render.Export(writerFunc(func(p []byte) (int, error) {
		n, err := w.Write(p)
		switch how {
		case "fail midway":
			return n, errors.New("the export failed midway")
		case "die midway":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		return n, err
	}), s, request)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// manyShapes draws 3,000 circles: an SVG of three pieces (render's svgPieceEntities).
const manyShapes = "for (let i = 0; i < 3000; i++) drawCircle('c' + i, i, 0, 0.5)\n"

// runTo runs script with -o out and returns what Run wrote to stderr and its error.
func runTo(t *testing.T, script, out string) (string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "main.js")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := Run([]string{file, "-o", out}, &stdout, &stderr)
	return stderr.String(), err
}

// wantSVG is the SVG of script's scene, written in process.
func wantSVG(t *testing.T, script string) string {
	t.Helper()
	res, err := runtime.Run(t.Context(), runtime.MapSource{runtime.MainModule: script}, runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := render.SVG(res.Scene, render.SVGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkFolder fails unless dir holds exactly the files want (name: content): no temp file
// left behind.
func checkFolder(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		got[e.Name()] = string(b)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("folder mismatch (-want +got):\n%s", diff)
	}
}

// TestRunOutputFailures: an export that fails after part of it was written, whose worker dies
// in the middle, or that passes MaxExportBytes, leaves the existing output as it was and no
// temp file beside it, and says why, whether the worker writes the temp file or streams the
// export to this process. Not parallel: it sets the environment, the limit and the path.
func TestRunOutputFailures(t *testing.T) {
	defer func() { streamed = false }()
	for _, stream := range []bool{false, true} {
		for _, c := range []struct {
			env  string
			max  int64
			want string
			// or is another answer as good: a worker that dies between two messages
			// ends the stream at a message's start (EOF), one that dies while sending a
			// message ends it inside one (unexpected EOF), as the moment falls.
			or string
		}{
			{"fail midway", 0, "the export failed midway", ""},
			{"die midway", 0, "writing the scene out in the worker: the worker stopped: reading from the worker: EOF",
				"writing the scene out in the worker: the worker stopped: unexpected EOF"},
			{"", 1000, "the scene written out is over 1000 bytes (MaxExportBytes): draw fewer or simpler shapes, or write a smaller picture (-width)", ""},
		} {
			t.Run(fmt.Sprintf("streamed=%v/%s", stream, c.want), func(t *testing.T) {
				streamed = stream
				t.Setenv(testExportEnv, c.env)
				if c.max > 0 {
					defer func(max int64) { runtime.MaxExportBytes = max }(runtime.MaxExportBytes)
					runtime.MaxExportBytes = c.max
				}
				dir := t.TempDir()
				out := filepath.Join(dir, "part.svg")
				if err := os.WriteFile(out, []byte("the old drawing"), 0o644); err != nil {
					t.Fatal(err)
				}
				_, err := runTo(t, manyShapes, out)
				if err == nil || (err.Error() != c.want && (c.or == "" || err.Error() != c.or)) {
					t.Errorf("got error %v; want %q", err, c.want)
				}
				checkFolder(t, dir, map[string]string{"part.svg": "the old drawing"})
			})
		}
		t.Run(fmt.Sprintf("streamed=%v/good", stream), func(t *testing.T) {
			streamed = stream
			dir := t.TempDir()
			out := filepath.Join(dir, "part.svg")
			if stderr, err := runTo(t, manyShapes, out); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			checkFolder(t, dir, map[string]string{"part.svg": wantSVG(t, manyShapes)})
		})
	}
}

// TestRunOutputDiskFull: an export that meets a full disk in the temp file, whether the worker
// writes it or this process does, leaves the existing output as it was and no temp file
// beside it, and says so naming the output. Not parallel: see fulldisk (the worker, started
// meanwhile, inherits the limit).
func TestRunOutputDiskFull(t *testing.T) {
	defer func() { streamed = false }()
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("streamed=%v", stream), func(t *testing.T) {
			streamed = stream
			dir := t.TempDir()
			out := filepath.Join(dir, "part.svg")
			if err := os.WriteFile(out, []byte("the old drawing"), 0o644); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "main.js")
			if err := os.WriteFile(file, []byte(manyShapes), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			lift := fulldisk.After(t, 1000)
			err := Run([]string{file, "-o", out}, &stdout, &stderr)
			lift()
			if err == nil || !strings.HasPrefix(err.Error(), "writing "+out+": ") || !strings.HasSuffix(err.Error(), ": file too large") {
				t.Errorf("got error %v; want one writing %s that says the file is too large", err, out)
			}
			checkFolder(t, dir, map[string]string{"part.svg": "the old drawing"})
		})
	}
}

// TestRunOutputReplaces: a good export replaces the output whole; a plain file keeps its
// permission bits, a symlink stays a link (the file it points to gets the bytes), and a file
// with another hard link stays one file under both names.
func TestRunOutputReplaces(t *testing.T) {
	t.Parallel()
	want := wantSVG(t, manyShapes)
	dir := t.TempDir()

	plain := filepath.Join(dir, "plain.svg")
	if err := os.WriteFile(plain, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	target, link := filepath.Join(dir, "target.svg"), filepath.Join(dir, "link.svg")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.svg", link); err != nil {
		t.Fatal(err)
	}
	hard, other := filepath.Join(dir, "hard.svg"), filepath.Join(dir, "other-name.svg")
	if err := os.WriteFile(hard, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(hard, other); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.svg")
	for _, out := range []string{plain, link, hard, fresh} {
		if stderr, err := runTo(t, manyShapes, out); err != nil {
			t.Fatalf("-o %s: %v\n%s", out, err, stderr)
		}
	}
	checkFolder(t, dir, map[string]string{"plain.svg": want, "target.svg": want, "link.svg": want, "hard.svg": want, "other-name.svg": want, "fresh.svg": want})
	if st, err := os.Stat(plain); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("plain.svg: %v, %v; want mode 0600 kept", st.Mode(), err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.svg is no longer a symlink: %v, %v", st.Mode(), err)
	}
	if st, err := os.Stat(hard); err != nil || st.Sys().(*syscall.Stat_t).Nlink != 2 {
		t.Errorf("hard.svg lost its other link: %v", err)
	}
}

// TestRunOutputWriteFails: a write to the temp file this process makes (when the worker
// could not) that fails, as on a full disk, is kept for Run to name the output in its error,
// and abort leaves no temp file; the temp file is hidden and named after the output.
func TestRunOutputWriteFails(t *testing.T) {
	t.Parallel()
	o := newOutput(filepath.Join(t.TempDir(), "part.svg"))
	if _, err := o.Write([]byte("<svg")); err != nil {
		t.Fatal(err)
	}
	o.f.Close() // the next write fails
	if _, err := o.Write([]byte("/>")); err == nil || o.failed == nil {
		t.Fatalf("a write to a closed file did not fail")
	}
	o.abort()
	checkFolder(t, filepath.Dir(o.path), map[string]string{})
	if !strings.HasPrefix(filepath.Base(o.tmp), ".part.svg.cadrun-tmp-") {
		t.Errorf("temp file %s: want it hidden and named after the output", o.tmp)
	}
}

// TestRunOutputInAFolderClosedToNewFiles: when neither the worker nor this process may make a
// file beside the output, the export streams, is held in memory, and is written into the
// output at the end, as before.
func TestRunOutputInAFolderClosedToNewFiles(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root may make files in any folder")
	}
	want := wantSVG(t, manyShapes)
	dir := t.TempDir()
	out := filepath.Join(dir, "part.svg")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if stderr, err := runTo(t, manyShapes, out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	checkFolder(t, dir, map[string]string{"part.svg": want})
}

// TestRunWarnsOfWhatTheFileLeavesOut: run -o prints what its file leaves out as a warning,
// said by the worker that wrote it: an SVG the solids, an STL the 2D shapes. Not parallel: it
// sets the environment.
func TestRunWarnsOfWhatTheFileLeavesOut(t *testing.T) {
	t.Setenv(testExportEnv, "solid")
	for _, c := range []struct{ file, magic, warning string }{
		{"part.svg", "<svg", "warning: left out 1 solid (tetra): SVG draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them\n"},
		{"part.stl", "binary STL", "warning: left out 1 shape that is not a solid (c): STL holds solids only; write .svg, .pdf, .dxf or .png to see them\n"},
	} {
		out := filepath.Join(t.TempDir(), c.file)
		stderr, err := runTo(t, "drawCircle('c', 0, 0, 1)\n", out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.file, err, stderr)
		}
		if stderr != c.warning {
			t.Errorf("%s: stderr %q, want %q", c.file, stderr, c.warning)
		}
		if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), c.magic) {
			t.Errorf("%s: %v, starts %.10q", c.file, err, b)
		}
	}
}

// TestRunOutputByLayer: -layers writes only the shapes on those layers, byte for byte the
// file of a scene that drew only them; a layer the scene lacks fails the run naming those it
// has, and leaves no file.
func TestRunOutputByLayer(t *testing.T) {
	const layers = "createLayer('cut'); createLayer('dims', {color: [0, 0, 1, 1]})\n"
	const cut = "drawRect('panel', 0, 0, 80, 50); setLayer('panel', 'cut')\n"
	const dims = "dimLinear('width', [-40, 25], [40, 25], {direction: 'horizontal', offset: 8}); setLayer('width', 'dims')\n"
	dir := t.TempDir()
	file := filepath.Join(dir, "main.js")
	if err := os.WriteFile(file, []byte(layers+cut+dims), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "cut.dxf")
	var stdout, stderr bytes.Buffer
	if err := Run([]string{file, "-o", out, "-layers", "cut"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	res, err := runtime.Run(t.Context(), runtime.MapSource{runtime.MainModule: layers + cut}, runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := render.DXF(res.Scene, render.DXFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("-layers cut: the DXF differs from the cut layer's alone (-want +got):\n%s", diff)
	}
	stderr.Reset()
	err = Run([]string{file, "-o", filepath.Join(dir, "x.dxf"), "-layers", "cut,engrave"}, &stdout, &stderr)
	want2 := `bad export option: layer "engrave" is not in the scene; its layers are cut, dims`
	if err == nil || err.Error() != want2 || stderr.String() != "" {
		t.Errorf("-layers cut,engrave: got %v and stderr %q, want %s", err, stderr.String(), want2)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.dxf")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-layers cut,engrave left a file: %v", err)
	}
}
