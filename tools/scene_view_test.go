package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// bigScene is rows rows of W1 (with 100 rows, an ordinary 10,000-entity scene: a 100 × 100
// grid of circles and rotated rectangles) with each row in a group, and one boolean result
// whose vertices are full of 17-digit floats.
func bigScene(rows int) string {
	return strings.Replace(bigSceneJS, "ROWS", fmt.Sprint(rows), 1)
}

const bigSceneJS = `for (let j = 0; j < ROWS; j++) {
  const row = []
  for (let i = 0; i < 100; i++) {
    const k = 100 * j + i, name = 'e' + k
    if (k % 2 === 0) drawCircle(name, 10 * i, 10 * j, 4)
    else { drawRect(name, 0, 0, 6, 4); rotate(name, (k % 90) * Math.PI / 180); translate(name, 10 * i, 10 * j) }
    row.push(name)
  }
  createGroup('row' + j, row)
}
drawCircle('u1', 0, -50, 7); drawCircle('u2', 5, -50, 7); booleanUnion('u1', 'u2', 'blob')
`

// Every scene view of a 10,000-entity scene fits its budget (before, tree answered 658 KB,
// svg 3.9 MB, json 4.2 MB, a png 1.9 MB, and each twice), and says what it left out.
func TestSceneViewsFitTheBudget(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": bigScene(100)})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	if n := srv.Scene().Len(); n != 10103 {
		t.Fatalf("the scene has %d entities, want 10103", n)
	}
	cs := connectMCP(t, srv)
	for _, args := range []map[string]any{
		{"command": "info"},
		{"command": "tree"},
		{"command": "groups"},
		{"command": "draw_order", "group": "row3"},
		{"command": "draw_order"},
		{"command": "entity", "name": "blob"},
		{"command": "entity", "name": "row0"},
		{"command": "svg"},
		{"command": "svg", "region": []float64{0, 0, 100, 100}},
		{"command": "json"},
		{"command": "png"},
		{"command": "png", "width": 2048},
	} {
		res := callMCP(t, cs, "scene", args)
		if res.IsError {
			t.Errorf("%v: %s", args, text(t, res))
			continue
		}
		st, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		budget := DefaultTextBudget
		if args["command"] == "png" {
			budget = DefaultImageBudget
		}
		for _, c := range res.Content {
			n := 0
			switch c := c.(type) {
			case *mcp.TextContent:
				n = len(c.Text)
			case *mcp.ImageContent:
				n = len(c.Data)
			}
			if n > budget {
				t.Errorf("%v: content of %d bytes, over the budget of %d", args, n, budget)
			}
		}
		if len(st) > DefaultTextBudget {
			t.Errorf("%v: structured content of %d bytes, over %d", args, len(st), DefaultTextBudget)
		}
		if strings.Contains(string(st), `"png":`) || strings.Contains(string(st), `"svg":`) {
			t.Errorf("%v: the drawing travels twice: structured content %.200s", args, st)
		}
	}
}

// slowRuns gives the large scenes of these tests time to run under the race detector on a
// busy machine.
var slowRuns = runtime.Options{Limits: runtime.Limits{Timeout: time.Minute}}

// bigSession is a session on a workspace whose main draws bigScene(rows).
func bigSession(t *testing.T, rows int) *Session {
	t.Helper()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": bigScene(rows)})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	if srv.Scene().Len() < 100*rows {
		t.Fatalf("main did not run: %d entities", srv.Scene().Len())
	}
	return srv.Session()
}

// Paging through tree, draw_order and json gives every entity exactly once.
func TestScenePagesCoverTheScene(t *testing.T) {
	t.Parallel()
	s := bigSession(t, 30)
	want := s.srv.Scene().Len()
	collect := func(in SceneIn, names func(SceneOut) []string) []string {
		var all []string
		for page := 0; ; page++ {
			if page > 1000 {
				t.Fatalf("%s: no end to the pages", in.Command)
			}
			out, err := call[SceneOut](t, s, "scene", in)
			if err != nil {
				t.Fatal(err)
			}
			got := names(out)
			if len(got) == 0 {
				t.Fatalf("%s: empty page at offset %d", in.Command, in.Offset)
			}
			all = append(all, got...)
			if out.Omitted == nil || out.Omitted.NextOffset == 0 {
				return all
			}
			in.Offset = out.Omitted.NextOffset
		}
	}
	var walk func([]*TreeNode) []string
	walk = func(ns []*TreeNode) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.Name)
			out = append(out, walk(n.Children)...)
		}
		return out
	}
	tree := collect(SceneIn{Command: "tree"}, func(o SceneOut) []string { return walk(o.Tree.([]*TreeNode)) })
	var wantOrder []string
	for _, e := range s.srv.Scene().Walk() {
		wantOrder = append(wantOrder, e.Name)
	}
	if diff := cmp.Diff(wantOrder, tree); diff != "" {
		t.Errorf("tree pages mismatch (-want +got):\n%.2000s", diff)
	}
	seen := map[string]int{}
	collect(SceneIn{Command: "json"}, func(o SceneOut) []string {
		page, err := scene.ReadJSON(o.JSON)
		if err != nil {
			t.Fatalf("a json page is not a scene: %v", err)
		}
		var names []string
		for _, e := range page.Walk() {
			if !e.IsGroup() {
				seen[e.Name]++
				names = append(names, e.Name)
			}
		}
		return names
	})
	shapes := 0
	for _, e := range s.srv.Scene().Walk() {
		if !e.IsGroup() {
			shapes++
			if seen[e.Name] != 1 {
				t.Errorf("json pages hold %q %d times", e.Name, seen[e.Name])
			}
		}
	}
	if len(seen) != shapes || want != shapes+30 {
		t.Errorf("json pages hold %d shapes of %d (%d entities)", len(seen), shapes, want)
	}
	order := collect(SceneIn{Command: "draw_order"}, func(o SceneOut) []string { return o.Order })
	if len(order) != 33 { // 30 rows, u1, u2 and the blob
		t.Errorf("draw_order pages: %d names, want 33", len(order))
	}
}

// A page of the tree says where it stops; depth hides the members below it, counted.
func TestSceneTreePageAndDepth(t *testing.T) {
	t.Parallel()
	s := bigSession(t, 30)
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "tree", Depth: 1, Offset: 29})
	if err != nil {
		t.Fatal(err)
	}
	want := []*TreeNode{{Name: "row29", Kind: "group", Hidden: 100}, {Name: "u1", Kind: "circle"}, {Name: "u2", Kind: "circle"}, {Name: "blob", Kind: "polygon"}}
	if diff := cmp.Diff(want, out.Tree); diff != "" {
		t.Errorf("tree mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(&Omitted{Shown: 4, Total: 33, Note: "items 29..32 of 33; this is the last page"}, out.Omitted); diff != "" {
		t.Errorf("omitted mismatch (-want +got):\n%s", diff)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "tree", Group: "row1", Offset: 98})
	if err != nil {
		t.Fatal(err)
	}
	want = []*TreeNode{{Name: "e198", Kind: "circle"}, {Name: "e199", Kind: "rect"}}
	if diff := cmp.Diff(want, out.Tree); diff != "" {
		t.Errorf("tree of a group mismatch (-want +got):\n%s", diff)
	}
	// A page that starts inside a group names the parent of its first nodes.
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "tree", Offset: 102, MaxBytes: 600})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Tree.([]*TreeNode); len(got) == 0 || got[0].Name != "e100" || got[0].Parent != "row1" {
		t.Errorf("a page inside a group: %+v", got)
	}
}

// Numbers are rounded to what the scene's size warrants: no 17-digit floats.
func TestSceneEntityRounded(t *testing.T) {
	t.Parallel()
	s := bigSession(t, 30)
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "entity", Name: "blob", Geometry: true})
	if err != nil {
		t.Fatal(err)
	}
	b := out.Entity.(json.RawMessage)
	if long := regexp.MustCompile(`\d*\.\d{9,}`).FindAll(b, 3); long != nil {
		t.Errorf("long numbers in %.300s: %q", b, long)
	}
	var d struct {
		Geometry struct {
			Parts []struct {
				Outer [][2]float64 `json:"outer"`
			} `json:"parts"`
		} `json:"geometry"`
	}
	if err := json.Unmarshal(b, &d); err != nil || len(d.Geometry.Parts) != 1 || len(d.Geometry.Parts[0].Outer) < 2 {
		t.Errorf("the geometry is not there: %v %.300s", err, b)
	}
}

// What does not fit is named with the way to get it.
func TestSceneOmittedNotes(t *testing.T) {
	t.Parallel()
	s := bigSession(t, 30)
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "svg"})
	if err != nil {
		t.Fatal(err)
	}
	if out.SVG != "" || out.Omitted == nil || out.Omitted.Note != "the SVG of 3033 entities would be at least 144160 bytes, over the budget of 65536: ask for one entity or group (name), a region [minX, minY, maxX, maxY], a png, or a larger max_bytes (up to 4194304)" {
		t.Errorf("svg: %.100q, %+v", out.SVG, out.Omitted)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "svg", Name: "row2", MaxBytes: 8000})
	if err != nil {
		t.Fatal(err)
	}
	if out.SVG != "" || out.Omitted == nil || !strings.HasPrefix(out.Omitted.Note, "the SVG of 101 entities is ") ||
		!strings.HasSuffix(out.Omitted.Note, " bytes, over the budget of 8000: ask for one entity or group (name), a region [minX, minY, maxX, maxY], a png, or a larger max_bytes (up to 4194304)") {
		t.Errorf("svg of a group over a small budget: %.100q, %+v", out.SVG, out.Omitted)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "svg", Name: "row2"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Omitted != nil || strings.Count(out.SVG, "<path") != 100 {
		t.Errorf("svg of one group: %d paths, %+v", strings.Count(out.SVG, "<path"), out.Omitted)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "entity", Name: "blob", Geometry: true, MaxBytes: 600})
	if err != nil {
		t.Fatal(err)
	}
	if out.Omitted == nil || !strings.HasPrefix(out.Omitted.Note, "the geometry (") || strings.Contains(string(out.Entity.(json.RawMessage)), `"geometry":{`) {
		t.Errorf("entity over the budget: %s %+v", out.Entity, out.Omitted)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "png", MaxBytes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if out.Image == nil || out.Image.Bytes > 20000 || out.Image.Width >= 1024 || out.Omitted == nil ||
		!strings.Contains(out.Omitted.Note, fmt.Sprintf("this one is %d px wide", out.Image.Width)) {
		t.Errorf("png over the budget: %+v %+v", out.Image, out.Omitted)
	}
	for _, bad := range []struct {
		in   SceneIn
		want string
	}{
		{SceneIn{Command: "tree", Offset: -1}, "bad input: offset -1, depth 0: give 0 or more"},
		{SceneIn{Command: "svg", Region: []float64{0, 0, 0, 1}}, "bad input: region [0 0 0 1]: give [minX, minY, maxX, maxY] in world units, finite, min below max"},
		{SceneIn{Command: "json", MaxBytes: MaxAnswerBudget + 1}, "bad input: max_bytes 4194305: give 1..4194304 (MaxAnswerBudget), or leave it out for the default 65536"},
	} {
		_, err := call[SceneOut](t, s, "scene", bad.in)
		if err == nil || err.Error() != bad.want {
			t.Errorf("%+v: got %v, want %q", bad.in, err, bad.want)
		}
	}
}

// TestSceneEntityArcs: a panel cut by circles keeps them as arcs, so it is a few vertices
// answered with its geometry, and its measures are exact.
func TestSceneEntityArcs(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": `drawRect('b', 0, 0, 80, 50); drawCircle('h', 10, 0, 4); drawCircle('h2', -10, 0, 4)
booleanDifference('b', ['h', 'h2'], 'panel'); deleteEntity('b'); deleteEntity('h'); deleteEntity('h2')`})
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "entity", Name: "panel"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Geometry scene.Polygon  `json:"geometry"`
		Summary  map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(out.Entity.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if p := got.Geometry.Parts; len(p) != 1 || len(p[0].Holes) != 2 || len(p[0].HoleBulges) != 2 || len(p[0].Holes[0]) != 2 {
		t.Errorf("geometry: %+v; want one part with two holes of two arcs each", got.Geometry)
	}
	want := map[string]any{"area": 4000 - 32*math.Pi, "perimeter": 260 + 16*math.Pi, "parts": 1.0, "holes": 2.0, "vertices": 8.0}
	if diff := cmp.Diff(want, got.Summary, cmpopts.EquateApprox(1e-7, 0)); diff != "" {
		t.Errorf("summary mismatch (-want +got):\n%s", diff)
	}
}

// TestSceneEntitySummary: a shape of many vertices (a panel cut by a boolean) is answered by a
// summary of what it is, its vertices left out with the way to get them; a circle keeps its
// geometry; scene info names the top level.
func TestSceneEntitySummary(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": `drawRect('b', 0, 0, 80, 50); drawEllipse('h', 10, 0, 4, 3); drawEllipse('h2', -10, 0, 4, 3)
booleanDifference('b', ['h', 'h2'], 'panel'); deleteEntity('b'); deleteEntity('h'); deleteEntity('h2')
drawCircle('c', 0, 40, 2); createGroup('g', ['c'])`})
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "entity", Name: "panel"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Geometry json.RawMessage `json:"geometry"`
		Summary  map[string]any  `json:"summary"`
	}
	if err := json.Unmarshal(out.Entity.(json.RawMessage), &got); err != nil {
		t.Fatal(err)
	}
	if got.Geometry != nil {
		t.Errorf("the panel's geometry is in the answer: %.100s", got.Geometry)
	}
	// 4 corners, and two holes of 50 vertices each: the ellipses flattened for the boolean, so
	// the area is 4000 less two 50-gons inside ellipses of semi-axes 4 and 3 (π·12 = 37.699).
	want := map[string]any{"area": 3924.8001, "perimeter": 304.1779, "parts": 1.0, "holes": 2.0, "vertices": 104.0}
	if diff := cmp.Diff(want, got.Summary, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Errorf("summary mismatch (-want +got):\n%s", diff)
	}
	if want := "the geometry's 104 vertices are left out (the summary says what the shape is); ask again with geometry: true for them"; out.Omitted == nil || out.Omitted.Note != want {
		t.Errorf("omitted: %+v; want the note %q", out.Omitted, want)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "entity", Name: "panel", Geometry: true})
	if err != nil || out.Omitted != nil || !strings.Contains(string(out.Entity.(json.RawMessage)), `"geometry":{"parts":[{"outer":[`) {
		t.Errorf("with geometry: true: %v %+v %.200s", err, out.Omitted, out.Entity)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "entity", Name: "c"})
	if err != nil || out.Omitted != nil || !strings.Contains(string(out.Entity.(json.RawMessage)), `"geometry":{"center":[0,40],"radius":2}`) {
		t.Errorf("a circle: %v %+v %.300s", err, out.Omitted, out.Entity)
	}
	out, err = call[SceneOut](t, s, "scene", SceneIn{Command: "info"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"entities":3,"shapes":2,"groups":1,"bounds":{"min":[-40,-25],"max":[40,42]},"top":["panel","g"],"top_count":2}`; string(out.Info.(json.RawMessage)) != want {
		t.Errorf("info: %s\nwant %s", out.Info, want)
	}
}

// TestSceneSVGCountsTextOutlines leaves out, without drawing it, the SVG of one label whose
// outline alone is over the budget: its 40,000 segments write at least 2 bytes each, where 48
// bytes an entity put it at 48.
func TestSceneSVGCountsTextOutlines(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": "drawText('label', 'Ø20 H7 '.repeat(400), 0, 0, 5)\n"})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	segs := srv.Scene().TextSegments()
	if sceneview.SVGMinBytesPerShape+2*segs <= DefaultTextBudget {
		t.Fatalf("main did not run, or the label has only %d segments", segs)
	}
	out, err := call[SceneOut](t, srv.Session(), "scene", SceneIn{Command: "svg"})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the SVG of 1 entities would be at least %d bytes, over the budget of 65536: ", sceneview.SVGMinBytesPerShape+2*segs)
	if out.SVG != "" || out.Omitted == nil || !strings.HasPrefix(out.Omitted.Note, want) {
		t.Errorf("svg: %.100q, %+v; want a note starting %q", out.SVG, out.Omitted, want)
	}
}

// TestSceneSVGCountsVertices leaves out, without drawing it, the SVG of a polyline whose
// points alone are over the budget: 20,000 points of at least 4 bytes each, where 48 bytes an
// entity put it at 48 and the whole SVG was written to learn it was over.
func TestSceneSVGCountsVertices(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, map[string]string{"scene.code.js": "const p = []; for (let i = 0; i < 20000; i++) p.push(i, i % 7);\ndrawLine('l', p);\n"})
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	if srv.Scene().Len() != 1 {
		t.Fatal("main did not run")
	}
	out, err := call[SceneOut](t, srv.Session(), "scene", SceneIn{Command: "svg"})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the SVG of 1 entities would be at least %d bytes, over the budget of 65536: ", sceneview.SVGMinBytesPerShape+20_000*sceneview.SVGMinBytesPerVertex)
	if out.SVG != "" || out.Omitted == nil || !strings.HasPrefix(out.Omitted.Note, want) {
		t.Errorf("svg: %.100q, %+v; want a note starting %q", out.SVG, out.Omitted, want)
	}
}

// layerStylesMain draws a plate, and a centre line on a layer that makes it red and dashed.
const layerStylesMain = `createLayer('axis', {color: [1, 0, 0, 1], linetype: 'center'})
drawLine('axis', [-60, 0, 60, 0]); setLayer('axis', 'axis')
drawRect('plate', 0, 0, 100, 40); drawCircle('far', 300, 0, 5)
`

// TestScenePicturesKeepLayerStyles: a picture of a region or of one entity draws what the
// whole scene draws there: the centre line red and dashed, as its layer says, not black and
// solid. Each answer is compared whole with the drawing of the scene itself in that window.
func TestScenePicturesKeepLayerStyles(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": layerStylesMain})
	full := s.srv.Scene()
	only := full.Clone() // the scene with the centre line alone, its layer table kept
	for _, n := range []string{"plate", "far"} {
		if err := only.Delete(n); err != nil {
			t.Fatal(err)
		}
	}
	fit := render.FitView(only, render.DefaultMargin)
	region := render.View{Min: geom.Vec{X: -70, Y: -30}, Max: geom.Vec{X: 70, Y: 30}}
	png := func(sc *scene.Scene, win render.View) []byte {
		pic, err := render.Draw(sc, render.PNGOptions{Width: 400, View: &win}, render.Marks{})
		if err != nil {
			t.Fatal(err)
		}
		return pic.PNG
	}
	svg, err := render.SVG(only, render.SVGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   string
		want []byte
		got  func(SceneOut) []byte
	}{
		{`{"command":"png","region":[-70,-30,70,30],"width":400}`, png(full, region), func(o SceneOut) []byte { return o.PNG }},
		{`{"command":"png","name":"axis","width":400}`, png(only, fit), func(o SceneOut) []byte { return o.PNG }},
		{`{"command":"svg","name":"axis"}`, svg, func(o SceneOut) []byte { return []byte(o.SVG) }},
	} {
		out, err := s.Call(t.Context(), "scene", json.RawMessage(c.in))
		if err != nil {
			t.Fatalf("scene %s: %v", c.in, err)
		}
		if got := c.got(out.(SceneOut)); !bytes.Equal(got, c.want) {
			t.Errorf("scene %s: the drawing differs from the scene's own there (%d bytes, want %d)", c.in, len(got), len(c.want))
		}
	}
}
