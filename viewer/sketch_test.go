package viewer

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/modules"
)

// The sketch API adds strokes to the workspace and clears them; every tab hears of each
// change, and of one made by another process; every bad stroke gets a 400 that says what to
// send.
func TestSketchAPI(t *testing.T) {
	t.Parallel()
	_, ts, ws := start(t, Options{})
	es := openEvents(t, ts.URL, nil)
	// No sketch: nothing said of it on connecting.
	es.expect(event{"0", "scene", "version=0 entities=0"}, event{"0", "diagnostic", `{"version":0,"diagnostic":null}`}, event{"0", "selection", noSelection})

	if got, want := post(t, ts.URL+"/api/sketch", `{"points":[[0,0],[1.5,2]]}`, 200), `{"points":2,"strokes":1}`; got != want {
		t.Errorf("POST answer %s; want %s", got, want)
	}
	es.expect(event{"0", "sketch", `{"version":1,"strokes":1}`})
	want := `{"strokes":[{"points":[[0,0],[1.5,2]]}]}`
	if got := get(t, ts.URL+"/api/sketch", 200); got != want {
		t.Errorf("GET %s; want %s", got, want)
	}
	if sk, err := ws.LoadSketch(); err != nil || len(sk.Strokes) != 1 {
		t.Errorf("the workspace holds %v, %v", sk, err)
	}
	// Another process adds one: the viewer notices.
	other, err := modules.Open(ws.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.AddStroke(context.Background(), modules.Stroke{Points: [][2]float64{{5, 5}, {6, 6}}}); err != nil {
		t.Fatal(err)
	}
	es.expect(event{"0", "sketch", `{"version":2,"strokes":2}`})

	if got, want := post(t, ts.URL+"/api/sketch/clear", ``, 200), `{"cleared":2}`; got != want {
		t.Errorf("clear answer %s; want %s", got, want)
	}
	es.expect(event{"0", "sketch", `{"version":3,"strokes":0}`})
	if got, want := get(t, ts.URL+"/api/sketch", 200), `{"strokes":[]}`; got != want {
		t.Errorf("GET after clear %s; want %s", got, want)
	}

	for _, c := range []struct{ body, want string }{
		{`{"points":[[0,0]]}`, "bad sketch: a stroke has 1 points; give 2 to 10000 (MaxStrokePoints)"},
		{`{"points":[[0,0],[1e16,0]]}`, "bad sketch: point 1 is [1e+16 0]; give finite scene coordinates within ±1e+15 (MaxCoord)"},
		{`{"points":[[0,0],[1,1]]} {}`, `bad stroke: want {"points":[[x,y],...]} in scene units: there is more after the JSON value (at offset 24: "{}"); send exactly one value`},
		{`{"pts":[]}`, `bad stroke: want {"points":[[x,y],...]} in scene units: unknown key "pts"; the keys are points`},
		{`{"points":[[0,0,0],[1,1]]}`, "bad stroke: point 0 has 3 numbers; give [x, y] in scene units"},
		{`{"points":"here"}`, "bad stroke: want {\"points\":[[x,y],...]} in scene units: json: cannot unmarshal string into Go struct field .points of type [][]float64"},
	} {
		if got := post(t, ts.URL+"/api/sketch", c.body, 400); got != apiError(c.want) {
			t.Errorf("POST %s: %q; want %q", c.body, got, c.want)
		}
	}
	big := `{"points":[` + strings.Repeat("[0,0],", MaxBodyBytes/6) + `[0,0]]}`
	if got := post(t, ts.URL+"/api/sketch", big, 413); got != apiError("the body is over 1048576 bytes (MaxBodyBytes); send a stroke of fewer points") {
		t.Errorf("big body: %q", got)
	}
	if sk, err := ws.LoadSketch(); err != nil || len(sk.Strokes) != 0 {
		t.Errorf("after the refusals the workspace holds %v, %v", sk, err)
	}
}

// Drawing needs the token like every other request, and a page of another origin cannot post.
func TestSketchGuard(t *testing.T) {
	t.Parallel()
	_, ts, ws := start(t, Options{Token: "s3cret"})
	for _, c := range []struct {
		name   string
		h      http.Header
		status int
	}{
		{"no token", nil, 401},
		{"another origin", http.Header{"Authorization": {"Bearer s3cret"}, "Origin": {"http://evil.example"}}, 403},
		{"bearer", http.Header{"Authorization": {"Bearer s3cret"}}, 200},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/sketch", strings.NewReader(`{"points":[[0,0],[1,1]]}`))
		for k, v := range c.h {
			req.Header[k] = v
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("%s: %s %s; want %d", c.name, res.Status, b, c.status)
		}
	}
	if sk, err := ws.LoadSketch(); err != nil || len(sk.Strokes) != 1 {
		t.Errorf("the workspace holds %v, %v; want the one stroke with the token", sk, err)
	}
}

// A viewer without a workspace keeps its sketch in memory, under the same rules.
func TestSketchInMemory(t *testing.T) {
	t.Parallel()
	v := New(Options{})
	ctx := context.Background()
	if _, err := v.sketches.AddStroke(ctx, modules.Stroke{Points: [][2]float64{{0, 0}}}); err == nil || !strings.Contains(err.Error(), "MaxStrokePoints") {
		t.Errorf("one point: %v", err)
	}
	if _, err := v.sketches.AddStroke(ctx, modules.Stroke{Points: [][2]float64{{0, 0}, {1, 1}}}); err != nil {
		t.Fatal(err)
	}
	if sk, _ := v.sketches.LoadSketch(); len(sk.Strokes) != 1 {
		t.Errorf("in memory: %v", sk)
	}
	if n, err := v.sketches.ClearSketch(ctx); n != 1 || err != nil {
		t.Errorf("clear: %d, %v", n, err)
	}
}
