// Package cadruntest tests what cadrun workspaces draw: it runs a workspace (a folder, or a
// txtar archive in a Go test), renders the scene to scene.json, SVG and PNG, and compares
// them with snapshots kept beside the workspace in __snapshots__/. `cadrun test` is built on
// it; Go projects that generate or ship drawings call it from their own tests.
//
// Start with Check in a Go test, or Render and Compare for more control; RunDirs runs the
// whole suite of a folder (its workspace and its tests/NAME.test.js scripts) as `cadrun test`
// does.
//
// A snapshot is three files named by what they test: __snapshots__/scene.json, scene.svg and
// scene.png for the workspace, tests/__snapshots__/NAME.json, .svg and .png for a test script
// that draws. The scene is compared as data, numbers within Options.Tolerance (see
// DiffScenes); the SVG as text; the PNG pixel by pixel with render.PixelDiff, which forgives
// anti-aliased edge pixels. A missing snapshot is written and reported as new (a failure when
// Options.CI is set); Options.Update rewrites them.
//
// Scripts run through a runtime.Runner with every runtime limit. *runtime.Pool is one, running
// each script in a worker process that also bounds memory; runtime.InProcess, the default,
// runs them in the test's own process and bounds time and size only. A test binary that uses
// a Pool must call runtime.ServeWorkerIfAsked first thing in TestMain.
package cadruntest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// Options tune rendering and comparing. The zero value runs in process with the default
// limits and tolerances, and writes missing snapshots.
type Options struct {
	Runner    runtime.Runner // nil means runtime.InProcess
	Limits    runtime.Limits // zero fields take runtime.DefaultLimits
	Update    bool           // rewrite every snapshot with what was drawn
	CI        bool           // a missing snapshot is a failure, not new
	DiffDir   string         // when set, a changed PNG leaves NAME.old.png, .new.png and .diff.png here
	Tolerance float64        // scene numbers; 0 means DefaultTolerance
	Threshold float64        // pixel colour distance, 0..1; 0 means render.DefaultDiffThreshold
	Run       *regexp.Regexp // RunDirs runs only the tests whose names match
}

func (o Options) runner() runtime.Runner {
	if o.Runner == nil {
		return runtime.InProcess{}
	}
	return o.Runner
}

// Output is a script run and rendered.
type Output struct {
	Scene *scene.Scene
	JSON  []byte      // scene.json
	SVG   []byte      // render.SVG with default options
	Image *image.RGBA // the PNG's pixels: render.Raster with default options (longest side 1024 px)
	Logs  []string
	Tests []runtime.TestResult // test('name', fn) blocks, for test scripts
}

// PNG encodes Image.
func (o *Output) PNG() ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, o.Image); err != nil {
		return nil, fmt.Errorf("encoding png: %w", err)
	}
	return buf.Bytes(), nil
}

// Render runs src's main module and renders what it drew. A script failure is returned as
// the *runtime.Diagnostic.
func Render(ctx context.Context, src runtime.Source, opt Options) (*Output, error) {
	return render1(ctx, src, runtime.Options{Limits: opt.Limits}, opt)
}

// render1 is the one place a test's script meets the runtime.
func render1(ctx context.Context, src runtime.Source, ropt runtime.Options, opt Options) (*Output, error) {
	res, err := opt.runner().Run(ctx, src, runtime.MainModule, ropt)
	if res == nil {
		return nil, err
	}
	out := &Output{Scene: res.Scene, Logs: res.Logs, Tests: res.Tests}
	if err != nil {
		return out, err
	}
	return out, out.draw()
}

func (o *Output) draw() error {
	var err error
	if o.JSON, err = o.Scene.MarshalJSON(); err != nil {
		return err
	}
	if o.Scene.Len() == 0 {
		return nil // nothing to frame: an empty scene has no SVG or PNG
	}
	if o.SVG, err = render.SVG(o.Scene, render.SVGOptions{}); err != nil {
		return fmt.Errorf("rendering svg: %w", err)
	}
	if o.Image, err = render.Raster(o.Scene, render.PNGOptions{}); err != nil {
		return fmt.Errorf("rendering png: %w", err)
	}
	return nil
}

// archiveName is what a txtar workspace may hold.
// Compiled on first use, not as every cadrun process starts.
var archiveName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(scene\.code\.js|modules/[A-Za-z0-9_-]+\.js|tests/[A-Za-z0-9_-]+\.test\.js)$`)
})

// Extract writes the workspace files of a txtar archive (scene.code.js, modules/NAME.js,
// tests/NAME.test.js) into dir, which it creates.
func Extract(archive []byte, dir string) error {
	a := txtar.Parse(archive)
	for _, f := range a.Files {
		if !archiveName().MatchString(f.Name) {
			return fmt.Errorf("archive file %q is not a workspace file: use scene.code.js, modules/NAME.js or tests/NAME.test.js", f.Name)
		}
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return err
		}
	}
	if len(a.Files) == 0 {
		return fmt.Errorf("the archive holds no files; add -- scene.code.js -- and what it draws")
	}
	return nil
}

// Check runs the workspace at path (a folder, or a .txtar archive) and compares what it
// draws with its snapshots: path/__snapshots__/scene.* for a folder, __snapshots__/NAME.*
// beside NAME.txtar for an archive. A difference fails t with what changed; a missing
// snapshot is written (a failure when CI=true); UPDATE_GOLDEN=1 rewrites them.
func Check(t testing.TB, path string, opt Options) {
	t.Helper()
	// The snapshots live in a folder of their own workspace: the one tested, or for an
	// archive the folder beside it.
	dir, snapRoot, base := path, path, "scene"
	if name, ok := strings.CutSuffix(filepath.Base(path), ".txtar"); ok {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		dir = t.TempDir()
		if err := Extract(data, dir); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		snapRoot, base = filepath.Dir(path), name
	}
	opt.Update = opt.Update || os.Getenv("UPDATE_GOLDEN") == "1"
	opt.CI = opt.CI || os.Getenv("CI") == "true"
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	out, err := Render(t.Context(), ws, opt)
	if d, ok := err.(*runtime.Diagnostic); ok {
		t.Fatalf("%s: the workspace failed:\n%s", path, d.Render())
	}
	if err != nil {
		t.Fatal(err)
	}
	snaps := ws
	if snapRoot != dir {
		if snaps, err = modules.Open(snapRoot); err != nil {
			t.Fatal(err)
		}
		defer snaps.Close()
	}
	snapDir := filepath.Join(snapRoot, "__snapshots__")
	rep, err := Compare(snaps, "__snapshots__", base, out, opt)
	if err != nil {
		t.Fatal(err)
	}
	switch rep.Status {
	case StatusFail:
		t.Errorf("%s differs from its snapshot (UPDATE_GOLDEN=1 rewrites it; review the diff):\n%s", path, rep.Message())
	case StatusNew:
		t.Logf("%s: wrote %d new snapshot files in %s", path, rep.Written, snapDir)
	}
}
