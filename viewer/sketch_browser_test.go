package viewer

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// The tools server keeps the sketch for `cadrun mcp -serve`'s viewer.
var _ SketchStore = (*tools.Server)(nil)

// TestPageSketch draws a stroke in a real browser with the pointer: it lands in the
// workspace's .cadrun/sketch.json in scene units (where the page's camera puts the pointer),
// scene sketch answers it, the page's Clear sketch clears it, and strokes added and cleared by
// another process (scene sketch with clear) show up in the page by themselves.
func TestPageSketch(t *testing.T) {
	t.Parallel()
	v, ts, ws := start(t, Options{})
	v.Publish(State{Scene: circles(t, "a", "b", "c")})
	wait, eval, tab := page(t, ts.URL)
	wait("the scene", `document.body.dataset.version === '1'`)
	wait("the sketch loaded", `window.cadrunSketch && document.body.dataset.sketchStrokes === '0'`)
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("sketch"))); err != nil {
		t.Fatal(err)
	}
	wait("sketching on", `window.cadrunSketch().on && document.getElementById('sketch').getAttribute('aria-pressed') === 'true'`)
	camera := eval(`JSON.stringify(window.cadrunState().camera)`)

	// A drag from (400, 300) to (600, 400) on the page, through two points on the way.
	path := [][2]float64{{400, 300}, {450, 325}, {500, 350}, {600, 400}}
	acts := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, path[0][0], path[0][1], chromedp.ButtonLeft)}
	for _, p := range path[1:] {
		acts = append(acts, chromedp.MouseEvent(chromedp.MouseMoved, p[0], p[1], chromedp.ButtonLeft))
	}
	acts = append(acts, chromedp.MouseEvent(chromedp.MouseReleased, path[3][0], path[3][1], chromedp.ButtonLeft))
	if err := chromedp.Do(tab, acts...); err != nil {
		t.Fatal(err)
	}
	// Where the page's camera puts those pixels in the world.
	var want [][2]float64
	if err := json.Unmarshal([]byte(eval(`JSON.stringify([[400, 300], [450, 325], [500, 350], [600, 400]].map(([x, y]) => {
		const r = document.getElementById('stage').getBoundingClientRect();
		const w = window.cadrunView.toWorld(x - r.left, y - r.top);
		return [w.x, w.y];
	}))`)), &want); err != nil {
		t.Fatal(err)
	}
	var sk modules.Sketch
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if sk, _ = ws.LoadSketch(); len(sk.Strokes) == 1 {
			break
		}
	}
	if len(sk.Strokes) != 1 || len(sk.Strokes[0].Points) != len(want) {
		t.Fatalf("the workspace holds %v; want one stroke through %v", sk, want)
	}
	for i, p := range sk.Strokes[0].Points {
		if math.Abs(p[0]-want[i][0]) > 1e-9 || math.Abs(p[1]-want[i][1]) > 1e-9 {
			t.Errorf("point %d is %v, want %v", i, p, want[i])
		}
	}
	if got := eval(`JSON.stringify(window.cadrunState().camera)`); got != camera {
		t.Errorf("the drag moved the camera from %s to %s; a drag that sketches does not pan", camera, got)
	}
	if got := eval(`JSON.stringify(window.cadrunState().selection.selected)`); got != "[]" {
		t.Errorf("the drag selected %s", got)
	}
	wait("the stroke shown", `document.querySelectorAll('#sketchlayer polyline').length === 1 && window.cadrunSketch().version === 1`)
	if got := eval(`document.getElementById('st-sketch').textContent`); got != " · sketch: 1 stroke" {
		t.Errorf("status %q", got)
	}

	// scene sketch answers it: a straight drag is its two ends.
	srv := tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
	sketch := func(params string) *tools.SketchOut {
		t.Helper()
		out, err := srv.Session().Call(context.Background(), "scene", json.RawMessage(params))
		if err != nil {
			t.Fatal(err)
		}
		return out.(tools.SceneOut).Sketch
	}
	got := sketch(`{"command":"sketch"}`)
	if len(got.Strokes) != 1 || len(got.Strokes[0].Points) != 2 || got.Points != 4 {
		t.Fatalf("scene sketch: %+v; want one stroke of its two ends", got)
	}
	for i, p := range got.Strokes[0].Points {
		w := want[3*i]
		if math.Abs(p[0]-w[0]) > got.Tolerance || math.Abs(p[1]-w[1]) > got.Tolerance {
			t.Errorf("scene sketch point %d is %v, want %v", i, p, w)
		}
	}

	// The page's Clear sketch clears the workspace's.
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("sketch-clear"))); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if sk, _ = ws.LoadSketch(); len(sk.Strokes) == 0 {
			break
		}
	}
	if len(sk.Strokes) != 0 {
		t.Errorf("after Clear sketch the workspace holds %v", sk)
	}
	wait("the page cleared", `document.querySelectorAll('#sketchlayer polyline').length === 0`)

	// Another process adds a stroke, then clears the sketch: the page follows.
	if _, err := srv.AddStroke(context.Background(), modules.Stroke{Points: [][2]float64{{0, 0}, {10, 0}, {10, 10}}}); err != nil {
		t.Fatal(err)
	}
	wait("the other process's stroke", `document.querySelectorAll('#sketchlayer polyline').length === 1`)
	if got := sketch(`{"command":"sketch","clear":true}`); got.Cleared != 1 {
		t.Errorf("scene sketch clear removed %d strokes, want 1", got.Cleared)
	}
	wait("cleared by scene sketch", `document.querySelectorAll('#sketchlayer polyline').length === 0`)

	// A full sketch refuses the next stroke, and the page says why.
	full := `{"strokes":[` + strings.Repeat(`{"points":[[0,0],[1,1]]},`, modules.MaxSketchStrokes-1) + `{"points":[[0,0],[1,1]]}]}`
	if err := os.WriteFile(filepath.Join(ws.Dir(), modules.SketchFile), []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	wait("the full sketch", `document.querySelectorAll('#sketchlayer polyline').length === 1000`)
	if err := chromedp.Do(tab, acts...); err != nil {
		t.Fatal(err)
	}
	wait("the refusal", `document.getElementById('st-sketch').textContent === ' · sketch: not kept: bad sketch: the sketch has 1000 strokes (MaxSketchStrokes); clear it to draw more'`)
	wait("the refused stroke gone", `document.querySelectorAll('#sketchlayer polyline').length === 1000`)
}

// clearFails is a sketch store whose clear fails, as on a full or read-only disk.
type clearFails struct{ memorySketch }

func (*clearFails) ClearSketch(context.Context) (int, error) {
	return 0, errors.New("no space left on device")
}

// TestPageSketchClearFails: when Clear sketch is refused, the page says so and shows the
// strokes again, rather than an empty sketch that the agent still sees.
func TestPageSketchClearFails(t *testing.T) {
	t.Parallel()
	store := &clearFails{}
	if _, err := store.AddStroke(context.Background(), modules.Stroke{Points: [][2]float64{{0, 0}, {10, 10}}}); err != nil {
		t.Fatal(err)
	}
	v, ts, _ := start(t, Options{Sketch: store})
	v.Publish(State{Scene: circles(t, "a")})
	wait, eval, tab := page(t, ts.URL)
	wait("the stroke", `document.querySelectorAll('#sketchlayer polyline').length === 1`)
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("sketch-clear"))); err != nil {
		t.Fatal(err)
	}
	wait("the refusal", `document.getElementById('st-sketch').textContent.startsWith(' · sketch: not cleared: ')`)
	wait("the stroke shown again", `document.querySelectorAll('#sketchlayer polyline').length === 1`)
	if got, want := eval(`document.getElementById('st-sketch').textContent`), " · sketch: not cleared: clearing the sketch: no space left on device"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}
