package importer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// refereeResult is what testdata/dxfbounds.py, ezdxf's reading of a DXF file, says of it.
type refereeResult struct {
	Path     string                 `json:"path"`
	Box      *[4]float64            `json:"bbox"`     // x0, y0, x1, y1; nil when nothing counted
	Layers   map[string]*[4]float64 `json:"layers"`   // by layer of the top-level entity
	Entities map[string]int         `json:"entities"` // modelspace entities by kind
	Error    string                 `json:"error"`
}

// python is a python3 that has ezdxf, or the test is skipped (failed under CADRUN_REQUIRE_TOOLS).
func python(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import ezdxf").Run() == nil {
			return p
		}
	}
	needTool(t, "python3 with ezdxf (Debian package python3-ezdxf)")
	return ""
}

// referee is a running testdata/dxfbounds.py: files are sent to it as they are ready, and
// results collects its answers, so that ezdxf reads while the importer works.
type referee struct {
	stdin io.WriteCloser
	in    *bufio.Writer
	done  chan map[string]refereeResult
	err   error
}

// startReferee starts one python process for every file of a test.
func startReferee(t *testing.T) *referee {
	t.Helper()
	cmd := exec.Command(python(t), filepath.Join("testdata", "dxfbounds.py"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &referee{stdin: stdin, in: bufio.NewWriter(stdin), done: make(chan map[string]refereeResult, 1)}
	go func() {
		out := map[string]refereeResult{}
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var res refereeResult
			if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
				r.err = err
				continue
			}
			out[res.Path] = res
		}
		if err := cmd.Wait(); err != nil && r.err == nil {
			r.err = fmt.Errorf("%w\n%s", err, stderr.String())
		}
		r.done <- out
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return r
}

// send asks for a file's box over the given entity kinds (INSERT is always followed).
func (r *referee) send(path string, kinds []string) {
	r.in.WriteString(path + "\t" + strings.Join(kinds, ",") + "\n")
}

// results closes the input and waits for every answer.
func (r *referee) results(t *testing.T) map[string]refereeResult {
	t.Helper()
	if err := r.in.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := r.stdin.Close(); err != nil {
		t.Fatal(err)
	}
	out := <-r.done
	if r.err != nil {
		t.Fatalf("dxfbounds.py: %v", r.err)
	}
	return out
}

// asBox is the referee's box as a geom.Box.
func asBox(b *[4]float64) geom.Box {
	if b == nil {
		return geom.Box{}
	}
	return geom.Box{Min: geom.Vec{X: b[0], Y: b[1]}, Max: geom.Vec{X: b[2], Y: b[3]}, NonEmpty: true}
}

// boxOffEmpty is how far apart two boxes are: the largest difference of their sides, infinite
// when one is empty and the other not.
func boxOffEmpty(a, b geom.Box) float64 {
	if a.NonEmpty != b.NonEmpty {
		return math.Inf(1)
	}
	if !a.NonEmpty {
		return 0
	}
	return boxOff(a, b)
}

// boxSize is the larger side of a box, 1 for an empty or flat-as-a-point one.
func boxSize(b geom.Box) float64 {
	if s := math.Max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y); b.NonEmpty && s > 0 {
		return s
	}
	return 1
}

// runModule runs an imported module from a main that calls its export, as the import's
// answer says to.
func runModule(code string) (*scene.Scene, error) {
	res, err := runtime.Run(context.Background(), importedSource(code), runtime.MainModule, runtime.Options{})
	if err != nil {
		return nil, err
	}
	return res.Scene, nil
}

// exportLine finds the function a module exports.
var exportLine = regexp.MustCompile(`(?m)^export function (\w+)\(\)`)

// importedSource is the module as modules/imported.js and a main that draws it.
func importedSource(code string) runtime.MapSource {
	fn := "missing"
	if m := exportLine.FindStringSubmatch(code); m != nil {
		fn = m[1]
	}
	return runtime.MapSource{"imported": code, runtime.MainModule: fmt.Sprintf("import {%s} from 'imported';\n%s();\n", fn, fn)}
}

// importedKinds are the DXF kinds an import drew, but the texts, which the referee leaves out.
func importedKinds(rep *Report) []string {
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(rep.Kinds)) {
		if k != "TEXT" && k != "MTEXT" {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// geometryBounds is the world bounds of a scene's shapes but its texts (their extents depend
// on the font).
func geometryBounds(s *scene.Scene) geom.Box {
	var all geom.Box
	for _, e := range s.Walk() {
		if !e.IsGroup() && e.Kind() != scene.KindText {
			all.Union(s.WorldBounds(e))
		}
	}
	return all
}
