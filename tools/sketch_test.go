package tools

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// wobbly is a stroke from (x0, y0) to (x1, y1) through n points, each off the straight line
// by up to off, as a hand draws it.
func wobbly(x0, y0, x1, y1 float64, n int, off float64) [][2]float64 {
	pts := make([][2]float64, n)
	nx, ny := -(y1 - y0), x1-x0
	l := math.Hypot(nx, ny)
	nx, ny = nx/l, ny/l
	for i := range n {
		t := float64(i) / float64(n-1)
		o := off * math.Sin(float64(i)*1.7)
		if i == 0 || i == n-1 {
			o = 0
		}
		pts[i] = [2]float64{x0 + t*(x1-x0) + o*nx, y0 + t*(y1-y0) + o*ny}
	}
	return pts
}

// fullSketch is a sketch at its caps: modules.MaxSketchPoints in strokes of
// modules.MaxStrokePoints wobbly points, 10 apart.
func fullSketch() [][][2]float64 {
	var strokes [][][2]float64
	for i := range modules.MaxSketchPoints / modules.MaxStrokePoints {
		y := float64(10 * i)
		strokes = append(strokes, wobbly(0, y, 1000, y+5, modules.MaxStrokePoints, 0.5))
	}
	return strokes
}

func addStrokes(t testing.TB, ws *modules.Workspace, strokes ...[][2]float64) {
	t.Helper()
	for _, st := range strokes {
		if _, err := ws.AddStroke(context.Background(), modules.Stroke{Points: st}); err != nil {
			t.Fatal(err)
		}
	}
}

// scene sketch answers each stroke as the corners it means: a wobbly line as its two ends,
// a wobbly L as its three corners; the tolerance is relative to the scene's size.
func TestSceneSketch(t *testing.T) {
	t.Parallel()
	ws, dir := newWorkspace(t, map[string]string{"scene.code.js": "drawRect('plate', 0, 0, 100, 100)"})
	s := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns).Session()
	addStrokes(t, ws,
		wobbly(-40, 0, 40, 0, 200, 0.1),
		append(wobbly(-30, -30, -30, 30, 100, 0.1), wobbly(-30, 30, 30, 30, 100, 0.1)[1:]...),
	)
	out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "sketch"})
	if err != nil {
		t.Fatal(err)
	}
	want := &SketchOut{
		Strokes: []SketchStroke{
			{Points: [][2]float64{{-40, 0}, {40, 0}}},
			{Points: [][2]float64{{-30, -30}, {-30, 30}, {30, 30}}},
		},
		Count: 2, Points: 399, Shown: 5, Tolerance: 0.2,
		Bounds: geom.Box{Min: geom.Vec{X: -40, Y: -30}, Max: geom.Vec{X: 40, Y: 30.1}, NonEmpty: true},
	}
	if diff := cmp.Diff(want, out.Sketch); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if out.Omitted != nil {
		t.Errorf("omitted %+v", out.Omitted)
	}

	// Clear removes them, from the file too.
	out, err = call[SceneOut](t, s, "scene", map[string]any{"command": "sketch", "clear": true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&SketchOut{Strokes: []SketchStroke{}, Cleared: 2}, out.Sketch); diff != "" {
		t.Errorf("clear: mismatch (-want +got):\n%s", diff)
	}
	if b, err := os.ReadFile(filepath.Join(dir, modules.SketchFile)); err != nil || string(b) != "{\"strokes\":[]}\n" {
		t.Errorf("after clear the file holds %q, %v", b, err)
	}
	out, err = call[SceneOut](t, s, "scene", map[string]any{"command": "sketch"})
	if err != nil || out.Sketch.Count != 0 || len(out.Sketch.Strokes) != 0 {
		t.Errorf("after clear: %+v, %v", out.Sketch, err)
	}
	// The sketch is not part of the drawing.
	if n := s.srv.Scene().Len(); n != 1 {
		t.Errorf("the scene has %d entities, want 1", n)
	}
}

// A sketch over the budget is simplified more coarsely until it fits, and the answer says so.
func TestSceneSketchBudget(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": "drawRect('plate', 0, 0, 100, 100)"})
	s := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns).Session()
	var spiral [][2]float64
	for i := range 2000 {
		a := float64(i) * 0.05
		spiral = append(spiral, [2]float64{a * math.Cos(a), a * math.Sin(a)})
	}
	addStrokes(t, ws, spiral)
	out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "sketch", "max_bytes": 2000})
	if err != nil {
		t.Fatal(err)
	}
	if n := sceneview.Size(out); n > 2000 {
		t.Errorf("the answer is %d bytes, over the budget of 2000", n)
	}
	want := "simplified at 24.96 scene units, 64 times the usual 0.39, to fit the budget of 2000 bytes; ask with a larger max_bytes (up to 4194304) for more detail"
	if out.Omitted == nil || out.Omitted.Note != want {
		t.Errorf("omitted %+v, want the note %q", out.Omitted, want)
	}
	if out.Sketch.Tolerance != 24.96 || out.Sketch.Points != 2000 || out.Sketch.Shown != len(out.Sketch.Strokes[0].Points) {
		t.Errorf("sketch %+v", out.Sketch)
	}
}

// scene png draws the sketch over the scene in magenta.
func TestScenePNGShowsTheSketch(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": "drawRect('plate', 0, 0, 100, 100); setFill('plate', [0.9, 0.9, 0.9, 1])"})
	s := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns).Session()
	pixel := func() color.RGBA {
		t.Helper()
		out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "png"})
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(out.PNG))
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		return color.RGBAModel.Convert(img.At(b.Dx()/2, b.Dy()/2)).(color.RGBA)
	}
	if got, want := pixel(), (color.RGBA{230, 230, 230, 255}); got != want {
		t.Errorf("the centre without a sketch is %v, want the plate's %v", got, want)
	}
	addStrokes(t, ws, [][2]float64{{-40, 0}, {40, 0}})
	if got, want := pixel(), (color.RGBA{217, 0, 217, 255}); !nearColour(got, want, 2) {
		t.Errorf("the centre under the stroke is %v, want magenta %v", got, want)
	}
}

func TestSimplify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want [][2]float64
		tol      float64
	}{
		{nil, nil, 1},
		{[][2]float64{{0, 0}, {1, 1}}, [][2]float64{{0, 0}, {1, 1}}, 1},
		{[][2]float64{{0, 0}, {5, 0.5}, {10, 0}}, [][2]float64{{0, 0}, {10, 0}}, 1},
		{[][2]float64{{0, 0}, {5, 2}, {10, 0}}, [][2]float64{{0, 0}, {5, 2}, {10, 0}}, 1},
		// A closed stroke (its ends at one point) keeps its farthest point.
		{[][2]float64{{0, 0}, {10, 0}, {10, 10}, {0, 0}}, [][2]float64{{0, 0}, {10, 10}, {0, 0}}, 8},
	} {
		if got := simplify(tc.in, tc.tol); !cmp.Equal(got, tc.want) {
			t.Errorf("simplify(%v, %v) = %v, want %v", tc.in, tc.tol, got, tc.want)
		}
	}
}

// The next answer of every MCP client tells it that the user sketched (or cleared the
// sketch), once; its own scene sketch is not news to it.
func TestSketchNote(t *testing.T) {
	t.Parallel()
	ws, dir := newWorkspace(t, map[string]string{"scene.code.js": "drawRect('plate', 0, 0, 100, 100)"})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	cs := connectMCP(t, srv)
	notes := func() []string {
		t.Helper()
		res := callMCP(t, cs, "scene", map[string]any{"command": "info"})
		var out []string
		for _, c := range res.Content[1:] {
			out = append(out, c.(*mcp.TextContent).Text)
		}
		return out
	}
	if got := notes(); got != nil {
		t.Errorf("no sketch: notes %q", got)
	}
	addStrokes(t, ws, [][2]float64{{0, 0}, {10, 0}}, [][2]float64{{0, 0}, {0, 10}})
	if diff := cmp.Diff([]string{"the user sketched over the scene in the viewer: 2 strokes (scene sketch answers them in scene units)"}, notes()); diff != "" {
		t.Errorf("after two strokes: mismatch (-want +got):\n%s", diff)
	}
	if got := notes(); got != nil {
		t.Errorf("told twice: %q", got)
	}
	addStrokes(t, ws, [][2]float64{{5, 5}, {10, 10}})
	if res := callMCP(t, cs, "scene", map[string]any{"command": "sketch"}); len(res.Content) != 1 {
		t.Errorf("its own scene sketch came with a note: %v", res.Content)
	}
	if _, err := ws.ClearSketch(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"the user cleared the sketch in the viewer"}, notes()); diff != "" {
		t.Errorf("after clearing: mismatch (-want +got):\n%s", diff)
	}
	// A sketch file that cannot be read is said once, not dropped without a word.
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(modules.SketchFile)), []byte("{oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "the user's sketch could not be read, so scene png draws the scene without it: reading .cadrun/sketch.json: bad sketch: invalid character 'o' looking for beginning of object key string; clear the sketch (scene sketch with clear, or the viewer's Clear sketch)"
	if diff := cmp.Diff([]string{want}, notes()); diff != "" {
		t.Errorf("unreadable sketch: mismatch (-want +got):\n%s", diff)
	}
	if got := notes(); got != nil {
		t.Errorf("unreadable sketch told twice: %q", got)
	}
}
