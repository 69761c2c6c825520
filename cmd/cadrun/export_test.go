package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// TestRunExports writes DXF and PDF from `cadrun run` with the export flags.
func TestRunExports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "part.js")
	code := "drawRoundedRect('plate', 0, 0, 80, 40, 5)\ndrawCircle('hole', 20, 0, 4)\ncreateGroup('cut', ['plate', 'hole'])\ndrawText('label', 'P1', 0, 30, 5)\n"
	if err := os.WriteFile(script, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		file string
		has  []string
	}{
		{nil, "part.dxf", []string{"AC1009", "POLYLINE", "VERTEX", "\n 42\n", "CIRCLE\n  8\ncut\n"}},
		{[]string{"-dxf", "2000", "-units", "in"}, "part2000.DXF", []string{"AC1015", "LWPOLYLINE", "$INSUNITS\n 70\n1\n"}},
		{[]string{"-dxf", "2000", "-dxf-text", "entities"}, "text.dxf", []string{"\nTEXT\n", "\nP1\n", "\nDejaVuSans.ttf\n"}},
		{nil, "drawing.pdf", []string{"%PDF-1.4", "/MediaBox [0 0 "}},
		{[]string{"-page", "a4", "-scale", "fit"}, "a4.pdf", []string{"/MediaBox [0 0 841.89 595.276]"}},
	} {
		out := filepath.Join(dir, c.file)
		var stdout, stderr bytes.Buffer
		args := append([]string{"run", script, "-o", out}, c.args...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("run %q: exit %d\n%s", args, code, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range c.has {
			if !bytes.Contains(b, []byte(h)) {
				t.Errorf("%s does not hold %q", c.file, h)
			}
		}
	}
}

func TestRunExportErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(t.TempDir(), "wide.js")
	if err := os.WriteFile(script, []byte("drawRect('r', 0, 0, 400, 100)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-o", filepath.Join(dir, "part.dwg")}, 2,
			`cadrun run: bad export option: output "` + filepath.Join(dir, "part.dwg") + `" must end in .svg, .png, .json, .dxf, .pdf, .stl, .3mf, .step or .glb`},
		{[]string{"-o", filepath.Join(dir, "part.dxf"), "-dxf", "2004"}, 2,
			`invalid value "2004" for flag -dxf: bad export option: DXF version "2004": use 12 or 2000`},
		{[]string{"-o", filepath.Join(dir, "part.dxf"), "-dxf-text", "glyphs"}, 2,
			`invalid value "glyphs" for flag -dxf-text: bad export option: DXF text "glyphs": use outlines or entities`},
		{[]string{"-o", filepath.Join(dir, "big.pdf"), "-page", "a4"}, 1,
			"cadrun run: bad export option: at 1:1 the drawing is 400.0 x 100.0 mm and does not fit on A4 (297.0 x 210.0 mm): use scale fit, a smaller scale (1:N) or a larger page"},
		// A scale that overflows cannot cross to the worker as JSON; the writer still says why.
		{[]string{"-o", filepath.Join(dir, "huge.pdf"), "-scale", "1e300:1e-10"}, 1,
			"cadrun run: bad export option: scale +Inf must be a number > 0"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"run", script}, c.args...)
		code := run(args, &stdout, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		if code != c.code || !strings.HasPrefix(first, c.want) {
			t.Errorf("run %q: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(0, len(entries)); diff != "" {
		t.Errorf("a refused export wrote files (-want +got):\n%s", diff)
	}
}

// TestWatchOutputsExport: watch's -out takes .dxf and .pdf with the export flags, through
// the same render.ByExt as cadrun run.
func TestWatchOutputsExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := scene.New()
	if _, err := s.Put("hole", scene.Circle{Radius: 4}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file string
		opt  render.Options
		has  string
	}{
		{"part.dxf", render.Options{DXF: render.DXFOptions{Version: render.DXF2000}}, "AC1015"},
		{"part.pdf", render.Options{PDF: render.PDFOptions{Page: "A4"}}, "/MediaBox [0 0 595.276 841.89]"},
	} {
		o, err := newOutput(filepath.Join(dir, c.file), c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.write(s); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(o.path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(c.has)) {
			t.Errorf("%s does not hold %q", c.file, c.has)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"watch", "-workspace", dir, "-out", filepath.Join(dir, "p.dxf"), "-dxf", "14"}, &stdout, &stderr); code != 2 ||
		!strings.HasPrefix(stderr.String(), `invalid value "14" for flag -dxf: bad export option: DXF version "14": use 12 or 2000`) {
		t.Errorf("watch -dxf 14: exit %d, stderr %q", code, stderr.String())
	}
}

// TestRunOutputNotAWorkspaceFile: run -o refuses what watch -out refuses (one rule,
// modules.CheckOutputPlace): an output in the workspace's data/ replaced the user's data file
// with the scene's JSON, and exit 0.
func TestRunOutputNotAWorkspaceFile(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for name, content := range map[string]string{"scene.code.js": "drawRect('r', 0, 0, 10, 10)\n", "data/d.json": `{"k":1}`} {
		p := filepath.Join(ws, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, out := range []string{filepath.Join(ws, "data", "d.json"), filepath.Join(ws, ".cadrun", "scene.svg"), filepath.Join(ws, "modules", "x.svg")} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"run", "-workspace", ws, "-o", out}, &stdout, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		dir := filepath.Base(filepath.Dir(out))
		want := `cadrun run: -o "` + out + `" is in the workspace's ` + dir + `/, where it would overwrite or become a workspace file; write it outside modules/, data/ and .cadrun/ (for example out/` + filepath.Base(out) + `)`
		if code != 2 || first != want {
			t.Errorf("run -o %s: exit %d, stderr %q; want 2 and %q", out, code, stderr.String(), want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "data", "d.json")); string(b) != `{"k":1}` {
		t.Errorf("data/d.json now holds %.60q", b)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "-workspace", ws, "-o", filepath.Join(ws, "out.svg")}, &stdout, &stderr); code != 0 {
		t.Errorf("run -o into the workspace's own folder: exit %d, %s", code, stderr.String())
	}
}

// TestRunLintsTextOnItsPaper: `cadrun run -o part.pdf -scale 1:4` warns of a 5-unit text
// that is 1.25 mm high on that paper; at 1:1 it warns of nothing.
func TestRunLintsTextOnItsPaper(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "part.js")
	if err := os.WriteFile(script, []byte("drawRect('plate', 0, 0, 80, 40)\ndrawText('label', 'P1', 0, 30, 5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const small = `lint: text-small: text "label" is 1.25 mm high on paper`
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"-o", filepath.Join(dir, "quarter.pdf"), "-scale", "1:4"}, true},
		{[]string{"-o", filepath.Join(dir, "full.pdf")}, false},
		{[]string{"-o", filepath.Join(dir, "full.png")}, false},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"run", script}, c.args...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("run %q: exit %d\n%s", args, code, stderr.String())
		}
		if got := strings.Contains(stderr.String(), small); got != c.warn {
			t.Errorf("run %q: warns of the small text %v, want %v:\n%s", args, got, c.warn, stderr.String())
		}
	}
}

// TestRunWritesSTEP: run -o part.step writes the STEP through the worker, and its message
// says which solids are exact and which faceted.
func TestRunWritesSTEP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "part.js")
	src := "drawCircle('c', 20, 0, 5)\nrevolve('c', 'ring')\ndrawBox('box', 0, 0, 0, 10, 10, 10)\ndrawSphere('ball', 0, 0, 0, 6)\n" +
		"booleanDifference('box', 'ball', 'cup')\nfor (const n of ['c', 'box', 'ball']) deleteEntity(n)\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "part.step")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", script, "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("run -o part.step: exit %d\n%s", code, stderr.String())
	}
	want := "warning: STEP solids exact (planes, cylinders, cones, tori, spheres): ring; faceted (planar triangles): cup (a 3D difference); for exact faces, make holes and pockets with 2D booleans before extruding\n"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("run -o part.step says %q, want it to hold %q", stderr.String(), want)
	}
	if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), "ISO-10303-21;") || !strings.Contains(string(b), "TOROIDAL_SURFACE") {
		t.Errorf("part.step: %v, %d bytes", err, len(b))
	}
}

// TestRunSolidFileNeedsSolids: run -o part.stl of a drawing without solids fails, saying what
// STL holds and how to make a solid, and writes nothing.
func TestRunSolidFileNeedsSolids(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "flat.js")
	if err := os.WriteFile(script, []byte("drawCircle('c', 0, 0, 5)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"part.stl", "part.3mf", "part.step", "part.glb"} {
		out := filepath.Join(dir, name)
		var stdout, stderr bytes.Buffer
		code := run([]string{"run", script, "-o", out}, &stdout, &stderr)
		format := strings.ToUpper(filepath.Ext(name)[1:])
		want := "cadrun run: no solids: the scene has no solid to write; " + format + " holds only solids: make one (extrude, revolve, drawBox, drawCylinder, drawSphere), or write .svg, .pdf, .dxf or .png for a 2D drawing\n"
		if code != 1 || stderr.String() != want {
			t.Errorf("run -o %s: exit %d, stderr %q; want 1 and %q", name, code, stderr.String(), want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("run -o %s wrote a file: %v", name, err)
		}
	}
}

// TestWatchOutputsSolids: watch -out writes the solids as STL and 3MF, and each output answers
// what it leaves out (a drawing the solids, a mesh file the 2D shapes), which the run's line
// shows as a warning.
func TestWatchOutputsSolids(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := scene.New()
	m := &scene.Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, Triangles: []uint32{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}
	if _, err := s.Put("tetra", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("hole", scene.Circle{Radius: 4}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, magic, leftOut string }{
		{"part.stl", "binary STL", "left out 1 shape that is not a solid (hole): STL holds solids only; write .svg, .pdf, .dxf or .png to see them"},
		{"part.3mf", "PK", "left out 1 shape that is not a solid (hole): 3MF holds solids only; write .svg, .pdf, .dxf or .png to see them"},
		{"part.glb", "glTF", "left out 1 shape that is not a solid (hole): GLB holds solids only; write .svg, .pdf, .dxf or .png to see them"},
		{"part.step", "ISO-10303-21;", "left out 1 shape that is not a solid (hole): STEP holds solids only; write .svg, .pdf, .dxf or .png to see them; STEP solids faceted (planar triangles): tetra (a mesh); for exact faces, make holes and pockets with 2D booleans before extruding"},
		{"part.svg", "<svg", "left out 1 solid (tetra): SVG draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them"},
	} {
		o, err := newOutput(filepath.Join(dir, c.file), render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		leftOut, err := o.write(s)
		if err != nil {
			t.Fatal(err)
		}
		if leftOut != c.leftOut {
			t.Errorf("%s: left out %q, want %q", c.file, leftOut, c.leftOut)
		}
		if b, err := os.ReadFile(o.path); err != nil || !strings.HasPrefix(string(b), c.magic) {
			t.Errorf("%s: %v, starts %.10q", c.file, err, b)
		}
	}
}

// solidRunner answers every run with a scene of one solid and one 2D shape: the script API
// that makes solids is not this test's.
type solidRunner struct{}

func (solidRunner) Run(context.Context, runtime.Source, string, runtime.Options) (*runtime.Result, error) {
	s := scene.New()
	m := &scene.Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, Triangles: []uint32{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}
	if _, err := s.Put("tetra", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		return nil, err
	}
	if _, err := s.Put("hole", scene.Circle{Radius: 4}); err != nil {
		return nil, err
	}
	return &runtime.Result{Scene: s}, nil
}

// TestWatchWarnsOfWhatOutputsLeaveOut: the line of a run shows, as warnings, what each -out
// file left out, named by the file.
func TestWatchWarnsOfWhatOutputsLeaveOut(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte("// solids\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var outputs []output
	for _, name := range []string{"part.svg", "part.stl"} {
		o, err := newOutput(filepath.Join(dir, name), render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stdout := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- watchWorkspace(ctx, watchSetup{dir: ws, outputs: outputs, runner: solidRunner{}}, stdout, io.Discard)
	}()
	for !strings.Contains(stdout.String(), "entities") {
		select {
		case err := <-done:
			t.Fatalf("the watch ended: %v\n%s", err, stdout.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := "warning: " + filepath.Join(dir, "part.svg") + ": left out 1 solid (tetra): SVG draws 2D shapes only; write .stl, .3mf, .step, .glb or .png to see them\n" +
		"warning: " + filepath.Join(dir, "part.stl") + ": left out 1 shape that is not a solid (hole): STL holds solids only; write .svg, .pdf, .dxf or .png to see them\n" +
		"ok  2 entities"
	if got := stdout.String(); !strings.HasPrefix(got, want) {
		t.Errorf("the watch printed %q, want it to start %q", got, want)
	}
}

// TestWatchOutputByLayer: watch's -out takes -layers as run -o does: the file holds the
// shapes on those layers, and a layer the scene lacks fails the write naming those it has.
func TestWatchOutputByLayer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := scene.New()
	for _, l := range []string{"cut", "dims"} {
		if err := s.CreateLayer(scene.Layer{Name: l, Plot: true}); err != nil {
			t.Fatal(err)
		}
	}
	for name, layer := range map[string]string{"hole": "cut", "mark": "dims"} {
		if _, err := s.Put(name, scene.Circle{Radius: 4}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetLayer(name, layer); err != nil {
			t.Fatal(err)
		}
	}
	o, err := newOutput(filepath.Join(dir, "cut.svg"), render.Options{Layers: []string{"cut"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.write(s); err != nil {
		t.Fatal(err)
	}
	cut, err := render.SelectLayers(s, []string{"cut"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("mark"); err != nil {
		t.Fatal(err)
	}
	want, err := render.SVG(s, render.SVGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(o.path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("-layers cut: the SVG differs from the cut layer's alone (-want +got):\n%s", diff)
	}
	if cut.Exists("mark") || !cut.Exists("hole") {
		t.Errorf("SelectLayers(cut) holds mark %v, hole %v", cut.Exists("mark"), cut.Exists("hole"))
	}
	o.opt.Layers = []string{"engrave"}
	_, err = o.write(s)
	if want := `rendering ` + o.path + `: bad export option: layer "engrave" is not in the scene; its layers are cut, dims`; err == nil || err.Error() != want {
		t.Errorf("-layers engrave: got %v, want %s", err, want)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"watch", "-workspace", dir, "-out", filepath.Join(dir, "p.dxf"), "-layers", "cut,,dims"}, &stdout, &stderr); code != 2 ||
		!strings.HasPrefix(stderr.String(), `invalid value "cut,,dims" for flag -layers: bad export option: layers "cut,,dims" holds an empty name; give layer names separated by commas`) {
		t.Errorf("watch -layers cut,,dims: exit %d, stderr %q", code, stderr.String())
	}
}
