package examples_test

// Every folder here with a scene.code.js is an example workspace. Each is run as the CLI
// runs it and its SVG, scene JSON and console output (and its DXF, where an expected.dxf
// is kept) are compared with the golden files beside it. After an intended change, regenerate them with
//
//	UPDATE_GOLDEN=1 go test ./examples/
//
// and look at the diff (and a PNG: cadrun run -workspace examples/NAME -o NAME.png). The
// same scene and SVG sit in each example's __snapshots__/ with its PNG, for `make test`'s
// `cadrun test examples`; rewrite those with `bin/cadrun test -update examples`.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

// examples lists the example workspaces: the folders holding a scene.code.js.
func examples(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(e.Name(), "scene.code.js")); err == nil {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) == 0 {
		t.Fatal("no example workspaces (folders with a scene.code.js) found")
	}
	return dirs
}

func TestExamples(t *testing.T) {
	t.Parallel()
	for _, dir := range examples(t) {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			ws := openExample(t, dir)
			if len(ws.Names()) == 0 {
				t.Errorf("%s has no modules in %s/modules/; every example shows modules", dir, dir)
			}

			res := runExample(t, dir, ws)
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %q", res.Warnings)
			}
			// Examples are meant to run in well under a second; the run's own timeout
			// (runtime.DefaultLimits) is the hard bound, since -race on a loaded machine is slow.
			t.Logf("%s ran in %v", dir, res.Duration)

			svg, err := render.SVG(res.Scene, render.SVGOptions{})
			if err != nil {
				t.Fatalf("rendering SVG: %v", err)
			}
			js, err := res.Scene.MarshalJSON()
			if err != nil {
				t.Fatalf("marshalling the scene: %v", err)
			}
			golden.Check(t, filepath.Join(dir, "expected.svg"), svg)
			golden.Check(t, filepath.Join(dir, "expected.json"), js)
			golden.Check(t, filepath.Join(dir, "expected.log"), []byte(strings.Join(res.Logs, "\n")))
			// A fabrication example keeps its DXF too (R12, as `cadrun run -o NAME.dxf` writes it).
			if _, err := os.Stat(filepath.Join(dir, "expected.dxf")); err == nil {
				dxf, err := render.DXF(res.Scene, render.DXFOptions{})
				if err != nil {
					t.Fatalf("rendering DXF: %v", err)
				}
				golden.Check(t, filepath.Join(dir, "expected.dxf"), dxf)
			}

			// The PNG is not golden (rasterising is checked in render); this proves it renders.
			png, err := render.PNG(res.Scene, render.PNGOptions{})
			if err != nil {
				t.Fatalf("rendering PNG: %v", err)
			}
			if err := os.WriteFile(filepath.Join(t.TempDir(), dir+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDeterministic runs each example twice and wants the same scene both times.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, dir := range examples(t) {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			ws := openExample(t, dir)
			var out [2][]byte
			for i := range out {
				res, err := runtime.Run(context.Background(), ws, runtime.MainModule, runtime.Options{})
				if err != nil {
					t.Fatalf("run %d: %v", i+1, err)
				}
				if out[i], err = res.Scene.MarshalJSON(); err != nil {
					t.Fatal(err)
				}
			}
			if string(out[0]) != string(out[1]) {
				t.Errorf("two runs of %s drew different scenes", dir)
			}
		})
	}
}

// openExample opens the example workspace dir for the test, closed when it ends.
func openExample(t *testing.T, dir string) *modules.Workspace {
	t.Helper()
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// runExample runs the main of example dir's workspace ws; a failed run fails the test with
// its diagnostic.
func runExample(t *testing.T, dir string, ws *modules.Workspace) *runtime.Result {
	t.Helper()
	res, err := runtime.Run(context.Background(), ws, runtime.MainModule, runtime.Options{})
	if err != nil {
		if d, ok := err.(*runtime.Diagnostic); ok {
			t.Fatalf("%s failed:\n%s", dir, d.Render())
		}
		t.Fatalf("%s failed: %v", dir, err)
	}
	return res
}
