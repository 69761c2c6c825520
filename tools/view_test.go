package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/picture"
)

// plateMain draws a light blue plate with a hole; the tests add a part to it.
const plateMain = "drawRect('plate', 0, 0, 100, 60)\nsetFill('plate', [0.6, 0.7, 0.9, 1])\ndrawCircle('hole', 20, 10, 8)\n"

// withPin is plateMain with a green pin added at (-30, -15), 10 × 6.
const withPin = plateMain + "drawRect('pin', -30, -15, 10, 6)\nsetFill('pin', [0, 0.6, 0, 1])\n"

// decodePNG decodes a picture and checks its size against its description.
func decodePNG(t *testing.T, b []byte, info *ImageInfo) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if sz := img.Bounds().Size(); info == nil || sz.X != info.Width || sz.Y != info.Height || len(b) != info.Bytes {
		t.Fatalf("picture %v, %d bytes; described as %+v", sz, len(b), info)
	}
	return img
}

// at is the colour of the pixel holding scene point (x, y), found with the picture's own
// description of its mapping.
func at(img image.Image, info *ImageInfo, x, y float64) color.RGBA {
	px := int(math.Floor((x - info.Origin[0]) * info.Scale))
	py := int(math.Floor((info.Origin[1] - y) * info.Scale))
	return color.RGBAModel.Convert(img.At(px, py)).(color.RGBA)
}

// isHighlight reports a pixel in the highlight colour (opaque orange).
func isHighlight(c color.RGBA) bool {
	h := render.HighlightColor
	near := func(v uint8, f float64) bool { return math.Abs(float64(v)-f*255) <= 2 }
	return near(c.R, h[0]) && near(c.G, h[1]) && near(c.B, h[2])
}

// TestViewOffAnswerUnchanged pins a change's answer without view, whole: view adds nothing
// to it unless asked.
func TestViewOffAnswerUnchanged(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	for _, view := range []ViewIn{{}, {On: false, Width: 300}} {
		res := mustCall[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: plateMain, View: view})
		res.Millis = 0
		b, err := AnswerJSON(res)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"file":"main","created":true,"entities":2,"bounds":{"min":[-50,-30],"max":[50,30]},"added":["plate","hole"],"ms":0,"entry":2}`
		if view.Width > 0 {
			want = `{"file":"main","created":false,"entities":2,"bounds":{"min":[-50,-30],"max":[50,30]},"ms":0,"entry":3}`
		}
		if diff := cmp.Diff(want, string(b)); diff != "" {
			t.Errorf("view %+v: answer mismatch (-want +got):\n%s", view, diff)
		}
	}
}

// TestViewHighlightsTheChange: an edit with view answers a picture of the scene it landed,
// 512 px wide, with the pin it added in the highlight colour where the pin is, and the rest
// faded.
func TestViewHighlightsTheChange(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", plateMain)
	res := mustCall[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: withPin, View: ViewIn{On: true}})
	if res.View == nil || res.View.Error != "" {
		t.Fatalf("view: %+v", res.View)
	}
	info := res.View.Image
	// The plate's bounds with a 5% margin, 512 px wide: 110 × 70 units at 512/110 px a unit.
	want := &ImageInfo{Width: 512, Height: 326, Bytes: len(res.View.PNG), Scale: 4.6545455, Origin: []float64{-55, 35.0195}, Region: []float64{-55, -35.0195, 55, 35.0195},
		Mapping:     "scene (x, y) is at pixel ((x + 55) * 4.6545455, (35.0195 - y) * 4.6545455); scene y points up, image y points down; origin is the scene point at pixel (0, 0), the top-left corner",
		Highlighted: 1}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Fatalf("image mismatch (-want +got):\n%s", diff)
	}
	img := decodePNG(t, res.View.PNG, info)
	// The pin's edges are stroked in the highlight colour, at least 2 px wide, so the pixel
	// holding a point of its edge is wholly covered.
	for _, p := range [][2]float64{{-35, -15}, {-25, -15}, {-30, -12}, {-30, -18}} {
		if c := at(img, info, p[0], p[1]); !isHighlight(c) {
			t.Errorf("pin edge at %v: pixel %v, want the highlight colour", p, c)
		}
	}
	// Its inside is the highlight colour at half strength over the faded green.
	if c := at(img, info, -30, -15); !(c.R > 200 && c.B < 120) {
		t.Errorf("pin inside: pixel %v, want an orange tint", c)
	}
	// The hole did not change: its edge is faded, not highlighted.
	if c := at(img, info, 28, 10); isHighlight(c) || c.R < 150 {
		t.Errorf("hole edge: pixel %v, want faded", c)
	}
	// The plate away from both is the plate's blue faded 70% toward white.
	fadeTo := func(v float64) uint8 { return uint8(math.Round(math.Round(v*255)*0.3 + 255*0.7)) }
	if c, want := at(img, info, 0, -20), (color.RGBA{fadeTo(0.6), fadeTo(0.7), fadeTo(0.9), 255}); c != want {
		t.Errorf("plate: pixel %v, want %v", c, want)
	}
}

// TestPNGPixelMapping: the centre of a known entity, mapped to pixels with the answer's own
// scale and origin, holds that entity's colour, for a fitted picture and a focused one.
func TestPNGPixelMapping(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", withPin+"drawRect('red', 37, 21, 4, 4)\nsetFill('red', [1, 0, 0, 1])\nsetStroke('red', null)\n")
	red := color.RGBA{255, 0, 0, 255}
	for _, in := range []SceneIn{
		{Command: "png"},
		{Command: "png", Width: 333},
		{Command: "png", Focus: Focus{Name: "red"}},
		{Command: "png", Focus: Focus{Region: []float64{30, 0, 50, 30}}, Grid: true},
	} {
		out := mustCall[SceneOut](t, s, "scene", in)
		img := decodePNG(t, out.PNG, out.Image)
		if c := at(img, out.Image, 37, 21); c != red {
			t.Errorf("%+v: pixel at red's centre is %v, want %v (%+v)", in, c, red, out.Image)
		}
		if c := at(img, out.Image, 37, 25.5); c == red {
			t.Errorf("%+v: pixel just above red is red too (%+v)", in, out.Image)
		}
	}
	// Focus frames the entity with a margin: 4 units wide, 20% each side, squared up.
	out := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png", Focus: Focus{Name: "red"}, Width: 100})
	if diff := cmp.Diff([]float64{34.2, 18.2, 39.8, 23.8}, out.Image.Region); diff != "" {
		t.Errorf("focus region mismatch (-want +got):\n%s", diff)
	}
}

// TestPNGBlank: a picture that shows nothing says so, and why.
func TestPNGBlank(t *testing.T) {
	t.Parallel()
	empty, _ := newSession(t, nil)
	s, _ := newSession(t, nil)
	write(t, s, "main", withPin+"drawRect('ghost', 200, 0, 10, 10)\nsetFill('ghost', [1, 1, 1, 1])\nsetStroke('ghost', null)\n")
	for _, c := range []struct {
		s    *Session
		in   SceneIn
		want string
	}{
		{empty, SceneIn{Command: "png"}, "blank: nothing is drawn: there are no shapes to draw (main draws nothing, or the group asked for is empty)"},
		{s, SceneIn{Command: "png", Focus: Focus{Region: []float64{1000, 1000, 1010, 1010}}},
			"blank: nothing is drawn: all 4 shapes lie outside the visible region [998, 998, 1012, 1012]; they lie within [-50, -30, 205, 30]: leave out focus and region, or choose ones that reach into it"},
		{s, SceneIn{Command: "png", Region: []float64{1000, 1000, 1010, 1010}},
			"blank: nothing is drawn: all 4 shapes lie outside the visible region [1000, 1000, 1010, 1010]; they lie within [-50, -30, 205, 30]: leave out focus and region, or choose ones that reach into it"},
		{s, SceneIn{Command: "png", Focus: Focus{Name: "ghost"}},
			"blank: every pixel is the background: the 1 shapes in the visible region paint nothing that shows (no fill or stroke, fully transparent, or the background's colour)"},
		{s, SceneIn{Command: "png", Focus: Focus{Name: "pin"}}, ""},
		{s, SceneIn{Command: "png"}, ""},
	} {
		out := mustCall[SceneOut](t, c.s, "scene", c.in)
		decodePNG(t, out.PNG, out.Image)
		if out.Image.Blank != c.want {
			t.Errorf("%+v: blank %q, want %q", c.in, out.Image.Blank, c.want)
		}
	}
}

// TestPNGHighlight: highlight by name, or "changed" for what the last change altered (none
// yet on a fresh server, and none when the last change only removed).
func TestPNGHighlight(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": plateMain})
	out := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png", Highlight: Highlight{"changed"}})
	if out.Image.Highlighted != 0 || out.Image.Highlight != "no change has landed since this server started, so nothing is highlighted as changed" {
		t.Errorf("changed on a fresh server: %+v", out.Image)
	}
	write(t, s, "main", "createGroup('g', [])\n"+withPin+"addToGroup('g', 'pin')\naddToGroup('g', 'hole')\n")
	for _, c := range []struct {
		highlight Highlight
		want      int
	}{
		{Highlight{"changed"}, 2}, // g was added, and moved pin and hole in
		{Highlight{"g"}, 2},       // a group highlights its members
		{Highlight{"plate", "pin"}, 2},
	} {
		out := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png", Highlight: c.highlight})
		if out.Image.Highlighted != c.want || out.Image.Highlight != "" {
			t.Errorf("highlight %v: %+v, want %d highlighted", c.highlight, out.Image, c.want)
		}
		img := decodePNG(t, out.PNG, out.Image)
		if c := at(img, out.Image, -35, -15); !isHighlight(c) {
			t.Errorf("highlight %v: pin's edge %v, want the highlight colour", c, c)
		}
	}
	write(t, s, "main", "createGroup('g', [])\n"+plateMain+"addToGroup('g', 'hole')\n")
	out = mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png", Highlight: Highlight{"changed"}})
	if out.Image.Highlighted != 0 || out.Image.Highlight != "the last change added or altered no entity (it removed 1, which are not drawn), so nothing is highlighted as changed" {
		t.Errorf("changed after a removal: %+v", out.Image)
	}
}

// TestUndoRedoView: undo and redo take view like a write; the redo highlights what it brought
// back.
func TestUndoRedoView(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", plateMain)
	write(t, s, "main", withPin)
	undo := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "undo", View: ViewIn{On: true, Width: 200}})
	if v := undo.Change.View; v == nil || v.Image.Width != 200 || v.Image.Highlighted != 0 ||
		v.Image.Highlight != "the change added or altered no entity (it removed 1, which are not drawn), so nothing is highlighted as changed" {
		t.Errorf("undo view: %+v", undo.Change.View)
	}
	redo := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "redo", View: ViewIn{On: true}})
	v := redo.Change.View
	if v == nil || v.Image == nil || v.Image.Highlighted != 1 {
		t.Fatalf("redo view: %+v", v)
	}
	if c := at(decodePNG(t, v.PNG, v.Image), v.Image, -25, -15); !isHighlight(c) {
		t.Errorf("redo view: pin edge %v, want the highlight colour", c)
	}
}

// TestViewErrors: every bad picture parameter gets the whole message; a view refused before
// the change leaves the file as it was, and one that can only fail after it says the change
// landed.
func TestViewErrors(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", withPin+"drawCircle('gear', 0, 0, 5)\n")
	for _, c := range []struct {
		tool   string
		params string
		want   string
	}{
		{"write", `{"file":"main","code":"x","view":{"width":3000}}`,
			"bad input: view.width 3000: give 1..2048 pixels (MaxViewWidth), or leave it out for 512 (wider, up to 2048, so that the smallest text reads); scene png draws larger pictures (up to 8192 px)\nnot applied; the file is unchanged"},
		{"edit", `{"file":"main","old_code":"a","new_code":"b","view":{"focus":[0,0,0,1]}}`,
			"bad input: view.focus [0 0 0 1]: give an entity or group name, or a region [minX, minY, maxX, maxY] in scene units, finite, min below max\nnot applied; the file is unchanged"},
		{"delete", `{"file":"main","view":{"highlight":["pin",""]}}`,
			`bad input: view.highlight has an empty name: give entity or group names, or "changed"` + "\nnot applied; the file is unchanged"},
		{"write", `{"file":"main","code":"x","view":{"widht":3}}`,
			`bad input: write: unknown parameter "view.widht" (did you mean "view.width"?); the parameters are width, focus, highlight, grid`},
		{"write", `{"file":"main","code":"x","view":"yes"}`,
			`bad input: write: view: bad view "yes": give iso, front, top, right, back, left, bottom, sheet, or a direction [x, y, z] the camera looks from`},
		{"scene", `{"command":"png","focus":"gaer"}`, `no such entity: "gaer"; did you mean "gear"? (scene tree lists the names)`},
		{"scene", `{"command":"png","highlight":["pln"]}`, `no such entity: "pln"; did you mean "pin"? (scene tree lists the names)`},
		{"scene", `{"command":"png","focus":[5,5,1,1]}`,
			"bad input: focus [5 5 1 1]: give an entity or group name, or a region [minX, minY, maxX, maxY] in scene units, finite, min below max"},
		{"scene", `{"command":"png","focus":"pin","region":[0,0,1,1]}`,
			"bad input: give focus or region, not both: region shows only the shapes reaching into it, focus frames one place with everything around it"},
		{"scene", `{"command":"png","width":9000}`,
			"bad png size: 9000 x 5727 px requested; each side must be at most 8192 px (MaxPNGSide): use a smaller scale or width"},
		{"scene", `{"command":"svg","grid":true}`, "bad input: focus, highlight and grid are for png (and for view with a change); svg draws no picture"},
		{"scene", `{"command":"info","view":true}`,
			"bad input: view is for the scene commands that change the scene (undo, redo, reset), and png's side; for a picture of the scene as it is, use png (with focus, highlight and grid)"},
	} {
		_, err := s.Call(t.Context(), c.tool, json.RawMessage(c.params))
		if err == nil {
			t.Errorf("%s %s: no error", c.tool, c.params)
			continue
		}
		if diff := cmp.Diff(c.want, err.Error()); diff != "" {
			t.Errorf("%s %s: error mismatch (-want +got):\n%s", c.tool, c.params, diff)
		}
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != withPin+"drawCircle('gear', 0, 0, 5)\n" {
		t.Errorf("a refused view changed main: %q", got)
	}
	// A focus that can only be looked up in the new scene: the change lands, the view says
	// why there is no picture.
	res := mustCall[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: plateMain + "drawCircle('gear', 0, 0, 5)\n", View: ViewIn{On: true, Focus: Focus{Name: "pin"}}})
	want := &ViewOut{Error: `no picture: no such entity: "pin"; scene tree lists the names; the change landed: see it with scene png`}
	if diff := cmp.Diff(want, res.View); diff != "" || res.Entities != 3 {
		t.Errorf("view of a focus the change removed: %d entities, mismatch (-want +got):\n%s", res.Entities, diff)
	}
}

// TestMCPView: over MCP a view travels once, as image content before the answer's words; the
// structured content keeps the rest.
func TestMCPView(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, map[string]string{"scene.code.js": plateMain}))
	callMCP(t, cs, "read", map[string]any{"file": "main"})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write", map[string]any{"file": "main", "code": withPin, "view": true}},
		{"scene", map[string]any{"command": "undo", "view": map[string]any{"width": 128, "grid": true}}},
	} {
		res := callMCP(t, cs, c.tool, c.args)
		if res.IsError || len(res.Content) != 2 {
			t.Fatalf("%s: %+v", c.tool, res)
		}
		img, ok := res.Content[0].(*mcp.ImageContent)
		if !ok || img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
			t.Errorf("%s: want a png image first, got %#v", c.tool, res.Content[0])
		}
		words, ok := res.Content[1].(*mcp.TextContent)
		if !ok || !strings.Contains(words.Text, `"view":{"image":{"width":`) || strings.Contains(words.Text, `"png"`) {
			t.Errorf("%s: words %#v", c.tool, res.Content[1])
		}
		if st, _ := json.Marshal(res.StructuredContent); bytes.Contains(st, []byte(`"png"`)) || !bytes.Contains(st, []byte(`"mapping"`)) {
			t.Errorf("%s: structured content %s", c.tool, st)
		}
	}
	// Without view, a write's answer is its JSON alone, as before.
	res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": plateMain})
	if len(res.Content) != 1 {
		t.Errorf("write without view: %d contents", len(res.Content))
	}
}

// BenchmarkWriteView is BenchmarkWriteAndRun's typical write with a view (512 px, the change
// highlighted), on a memory filesystem where there is one: the difference to "off" is the
// picture's cost.
func BenchmarkWriteView(b *testing.B) {
	dir, err := os.MkdirTemp("/dev/shm", "cadrun-bench-")
	if err != nil {
		dir = b.TempDir()
	} else {
		defer os.RemoveAll(dir)
	}
	ws, err := modules.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	s := NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{}).Session()
	for _, view := range []ViewIn{{}, {On: true}, {On: true, Grid: true}} {
		name := "off"
		if view.On {
			name = "on"
			if view.Grid {
				name = "on+grid"
			}
		}
		b.Run(name, func(b *testing.B) {
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				code := fmt.Sprintf("drawRect('plate', 0, 0, 80, 40)\ndrawCircle('h1', -25, 0, 5)\ndrawCircle('h2', 25, 0, %d)\nsetFill('plate', [0.7, 0.7, 0.75, 1])\ndrawLine('axis', [-40, 0, 40, 0])\ndrawArc('bend', 0, 20, 10, 0, Math.PI)\ncreateGroup('part', ['plate', 'h1', 'h2'])", 1+i%5)
				raw, _ := json.Marshal(WriteIn{File: "main", Code: code, View: view})
				if _, err := s.Call(context.Background(), "write", raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAlteredAgreesWithTheAnswer: what a view highlights as changed is what the change's
// answer lists as added and changed (uncapped, in the same order).
func TestAlteredAgreesWithTheAnswer(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	for _, code := range []string{
		plateMain,
		withPin,
		"createGroup('g', [])\n" + withPin + "addToGroup('g', 'pin')\n",
		"createGroup('g', [])\n" + withPin + "addToGroup('g', 'pin')\ntranslate('g', 5, 0)\nsetStroke('hole', [1, 0, 0, 1], 2)\n",
		"createGroup('g', [])\n" + withPin + "addToGroup('g', 'pin')\ntranslate('g', 5, 0)\ndrawOrder('plate', 'front')\n",
		plateMain,
	} {
		res := write(t, s, "main", code)
		l := s.srv.changes.of(res.ChangeResult)
		if l == nil {
			t.Fatalf("%q: no landing kept for its answer", code)
		}
		d := scene.Compare(l.before, l.after, 0)
		if diff := cmp.Diff(slices.Concat(res.Added, res.Changed), picture.Altered(d), cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" || len(d.Removed) != len(res.Removed) {
			t.Errorf("%q: removed %v (answer %v), altered mismatch (-answer +altered):\n%s", code, d.Removed, res.Removed, diff)
		}
	}
}

// TestMoveDeleteView: move and delete take view too; a change that draws nothing new says
// so instead of highlighting.
func TestMoveDeleteView(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", plateMain)
	write(t, s, "extra", "function extra() {}\n")
	on := ViewIn{On: true, Width: 100}
	moved := mustCall[*ChangeResult](t, s, "move", MoveIn{File: "extra", To: "spare", View: on})
	deleted := mustCall[*ChangeResult](t, s, "delete", DeleteIn{File: "spare", View: on})
	for _, res := range []*ChangeResult{moved, deleted} {
		want := &ImageInfo{Width: 100, Height: 64, Scale: 0.90909091, Origin: []float64{-55, 35.2}, Region: []float64{-55, -35.2, 55, 35.2},
			Mapping:   "scene (x, y) is at pixel ((x + 55) * 0.90909091, (35.2 - y) * 0.90909091); scene y points up, image y points down; origin is the scene point at pixel (0, 0), the top-left corner",
			Highlight: "the change added or altered no entity, so nothing is highlighted as changed"}
		if res.View == nil || res.View.Image == nil {
			t.Fatalf("%s: view %+v", res.File, res.View)
		}
		want.Bytes = res.View.Image.Bytes
		if diff := cmp.Diff(want, res.View.Image); diff != "" {
			t.Errorf("%s: image mismatch (-want +got):\n%s", res.File, diff)
		}
		decodePNG(t, res.View.PNG, res.View.Image)
	}
}

// TestPNGRingsOnlyWhenAsked: a highlighted shape too small to see is counted in the image's
// note, and circled only when rings asks: around a quarter-arc a ring reads as a hole.
func TestPNGRingsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": plateMain + "drawArc('corner', 40, 20, 0.4, 0, Math.PI / 2)\n"})
	for _, rings := range []bool{false, true} {
		out := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png", Width: 1024, Highlight: Highlight{"corner", "hole"}, Rings: rings})
		note := "1 highlighted under 6 px: frame them with focus, or circle them with scene png's rings: true"
		if rings {
			note = "1 highlighted under 6 px, each circled"
		}
		want := &ImageInfo{Width: 1024, Height: 652, Bytes: len(out.PNG), Scale: 9.3090909, Origin: []float64{-55, 35.0195}, Region: []float64{-55, -35.0195, 55, 35.0195},
			Mapping:     "scene (x, y) is at pixel ((x + 55) * 9.3090909, (35.0195 - y) * 9.3090909); scene y points up, image y points down; origin is the scene point at pixel (0, 0), the top-left corner",
			Highlighted: 2, Highlight: note}
		if diff := cmp.Diff(want, out.Image); diff != "" {
			t.Errorf("rings %v: image mismatch (-want +got):\n%s", rings, diff)
		}
		// The ring, 9 px around the arc's bounds' centre (40.2, 20.2): highlight pixels 8 to
		// 10 px from it only when asked.
		img := decodePNG(t, out.PNG, out.Image)
		cx, cy := (40.2+55)*out.Image.Scale, (35.0195-20.2)*out.Image.Scale
		ring := 0
		for y := int(cy) - 11; y <= int(cy)+11; y++ {
			for x := int(cx) - 11; x <= int(cx)+11; x++ {
				if d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy); d >= 8 && d <= 10 &&
					isHighlight(color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)) {
					ring++
				}
			}
		}
		if (ring > 0) != rings {
			t.Errorf("rings %v: %d highlight pixels 8-10 px around the arc", rings, ring)
		}
	}
}

// TestPictureWidthReadsTheSmallestText: a picture without a width grows from its default
// (a view's 512 px, scene png's 1024) until the smallest text it shows is LegibleTextPx high,
// up to MaxLegibleWidth; past that, or at a width asked for, its image names the text and
// how to read it. A scene without text keeps the default.
func TestPictureWidthReadsTheSmallestText(t *testing.T) {
	t.Parallel()
	mapping := func(ox, oy, k string) string {
		return "scene (x, y) is at pixel ((x + " + ox + ") * " + k + ", (" + oy + " - y) * " + k + "); scene y points up, image y points down; origin is the scene point at pixel (0, 0), the top-left corner"
	}
	s, _ := newSession(t, nil)
	dimensioned := "drawRect('plate', 0, 0, 200, 100)\ndimLinear('w', [-100, -50], [100, -50], {offset: -8})\n"
	res := mustCall[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: dimensioned, View: ViewIn{On: true}})
	// 220 units across (with the margin): 2.5-unit dimension text needs 968 px for 11.
	want := &ImageInfo{Width: 968, Height: 569, Bytes: len(res.View.PNG), Scale: 4.4, Origin: []float64{-110, 60.0341}, Region: []float64{-110, -69.2841, 110, 60.0341},
		Mapping: mapping("110", "60.0341", "4.4"), Highlighted: 2}
	if diff := cmp.Diff(want, res.View.Image); diff != "" {
		t.Errorf("view of a dimensioned plate: mismatch (-want +got):\n%s", diff)
	}
	out := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png", Width: 300})
	want = &ImageInfo{Width: 300, Height: 176, Bytes: len(out.PNG), Scale: 1.3617021, Origin: []float64{-110.1563, 60}, Region: []float64{-110.1563, -69.25, 110.1563, 60},
		Mapping: mapping("110.1563", "60", "1.3617021"),
		Legible: `the smallest text, dimension "w", is 3.4 px high here, under the 11 px that read; leave width out, or frame it with focus or region`}
	if diff := cmp.Diff(want, out.Image); diff != "" {
		t.Errorf("png 300 px wide: mismatch (-want +got):\n%s", diff)
	}

	write(t, s, "main", "drawRect('plate', 0, 0, 1000, 500)\ndrawText('t', 'HOLE', 0, 0, 2.5)\n")
	out = mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png"})
	want = &ImageInfo{Width: 2048, Height: 1117, Bytes: len(out.PNG), Scale: 1.8616667, Origin: []float64{-550.045, 300}, Region: []float64{-550.045, -300, 550.045, 300},
		Mapping: mapping("550.045", "300", "1.8616667"),
		Legible: `the smallest text, text "t" ("HOLE"), is 4.7 px high here, under the 11 px that read; the picture grows to 2048 px at most (MaxLegibleWidth): frame it with focus or region`}
	if diff := cmp.Diff(want, out.Image); diff != "" {
		t.Errorf("png of a large plate with small text: mismatch (-want +got):\n%s", diff)
	}

	write(t, s, "main", "drawRect('plate', 0, 0, 100, 60)\n")
	out = mustCall[SceneOut](t, s, "scene", SceneIn{Command: "png"})
	want = &ImageInfo{Width: 1024, Height: 652, Bytes: len(out.PNG), Scale: 9.3090909, Origin: []float64{-55, 35.0195}, Region: []float64{-55, -35.0195, 55, 35.0195},
		Mapping: mapping("55", "35.0195", "9.3090909")}
	if diff := cmp.Diff(want, out.Image); diff != "" {
		t.Errorf("png without text: mismatch (-want +got):\n%s", diff)
	}
}
