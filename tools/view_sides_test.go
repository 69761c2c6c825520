package tools

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/render"
)

// bracketJS is an L-bracket of two boxes: a base 40 × 20 × 5 and an upright 5 × 20 × 30 at
// its left end.
const bracketJS = "drawBox('base', 20, 10, 2.5, 40, 20, 5)\ndrawBox('upright', 2.5, 10, 15, 5, 20, 30)\n"

// TestViewSides: a change's view, scene png and export take the side solids are seen from,
// and each picture says in words which side it shows.
func TestViewSides(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", bracketJS)
	for _, c := range []struct {
		side   render.Camera
		prefix string
	}{
		{render.Camera{Name: "front"}, "the front view of the solids (seen from -Y: X right, Z up), the 2D shapes as lines in the plane z = 0"},
		{render.Camera{Name: render.SheetView}, "four views of the solids, each labelled: top (top left) over front"},
		{render.Camera{From: [3]float64{0, -1, 0}}, "the solids seen from (0, -1, 0) towards the origin, Z up, the 2D shapes"},
		{render.Camera{}, "an isometric view of the solids"},
	} {
		res := mustCall[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: bracketJS + "// " + c.side.String() + "\n", View: ViewIn{On: true, From: c.side}})
		if res.View == nil || res.View.Error != "" || res.View.Image == nil {
			t.Fatalf("view %v: %+v", c.side, res.View)
		}
		if m := res.View.Image.Mapping; !strings.HasPrefix(m, c.prefix) {
			t.Errorf("view %v: mapping %q, want it to begin %q", c.side, m, c.prefix)
		}
		decodePNG(t, res.View.PNG, res.View.Image)
	}
	// scene png: the side as view, the size as width and height.
	out, err := call[SceneOut](t, s, "scene", json.RawMessage(`{"command":"png","view":"top","width":300,"height":200}`))
	if err != nil {
		t.Fatal(err)
	}
	if out.Image.Width != 300 || out.Image.Height != 200 || !strings.HasPrefix(out.Image.Mapping, "the top view of the solids") {
		t.Errorf("scene png top 300 x 200: %+v", out.Image)
	}
	isoPNG, err := call[SceneOut](t, s, "scene", json.RawMessage(`{"command":"png","view":"iso","width":200}`))
	if err != nil || !strings.HasPrefix(isoPNG.Image.Mapping, "an isometric view of the solids") {
		t.Errorf("scene png view iso: %v, %+v", err, isoPNG.Image)
	}
	front, err := call[SceneOut](t, s, "scene", json.RawMessage(`{"command":"png","view":[0,-1,0],"height":150}`))
	if err != nil {
		t.Fatal(err)
	}
	if front.Image.Height != 150 || front.Image.Width <= 150 {
		t.Errorf("scene png from -Y, 150 high: %+v, want wider than high (the bracket is 40 by 30 from the front)", front.Image)
	}
	// export writes a PNG from the side asked, the same picture as run -o -view draws.
	for _, side := range []string{"iso", "front"} {
		if _, err := call[*ExportOut](t, s, "export", json.RawMessage(`{"path":"out/`+side+`.png","width":200,"view":"`+side+`"}`)); err != nil {
			t.Fatalf("export %s: %v", side, err)
		}
	}
	iso, _ := os.ReadFile(filepath.Join(dir, "out/iso.png"))
	fr, _ := os.ReadFile(filepath.Join(dir, "out/front.png"))
	want, err := render.PNG(s.srv.Scene(), render.PNGOptions{Width: 200, Camera: render.Camera{Name: "front"}})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(iso, fr) || !bytes.Equal(fr, want) {
		t.Errorf("export view front: the same bytes as iso %v, as render.PNG from the front %v", bytes.Equal(iso, fr), bytes.Equal(fr, want))
	}
}

// TestViewSidesRefused: a side no picture has is refused wherever it is given, naming the
// sides there are; png's view is a side only.
func TestViewSidesRefused(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, nil)
	write(t, s, "main", bracketJS)
	const sides = "give iso, front, top, right, back, left, bottom, sheet, or a direction [x, y, z] the camera looks from"
	for _, c := range []struct {
		tool, params, want string
	}{
		{"write", `{"file":"main","code":"x","view":"fromt"}`, `bad input: write: view: bad view "fromt": ` + sides},
		{"write", `{"file":"main","code":"x","view":[0,0,0]}`, `bad input: write: view: bad view [0, 0, 0]: a direction must not be zero; ` + sides},
		{"write", `{"file":"main","code":"x","view":{"from":"top"}}`,
			`bad input: write: unknown parameter "view.from" (did you mean "view.grid"?); the parameters are width, focus, highlight, grid`},
		{"scene", `{"command":"png","view":"sid"}`, `bad input: scene: view: bad view "sid": ` + sides},
		{"scene", `{"command":"png","view":{"width":30}}`,
			"bad input: png's view is the side solids are seen from: iso, front, top, right, back, left, bottom, sheet, or [x, y, z], the direction the camera looks from; give png's width, focus, highlight and grid beside view, not in it"},
		{"scene", `{"command":"png","height":9000}`, "bad input: height 9000: give 1..8192 pixels (MaxPNGSide) for png, or leave it out for the width's proportion"},
		{"scene", `{"command":"svg","height":100}`, "bad input: height 100: give 1..8192 pixels (MaxPNGSide) for png, or leave it out for the width's proportion"},
		{"export", `{"path":"out/a.png","view":"isometric"}`, `bad input: export: bad view "isometric": ` + sides},
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
	if got := fileBytes(t, dir, "scene.code.js"); got != bracketJS {
		t.Errorf("a refused view changed main: %q", got)
	}
}

// TestViewInJSON: a view reads and writes back as given: a side alone as the side.
func TestViewInJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`true`, `false`, `"front"`, `"iso"`, `[1,-1,0.5]`, `{"width":300,"grid":true}`} {
		var v ViewIn
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(in, string(out)); diff != "" {
			t.Errorf("view mismatch (-want +got):\n%s", diff)
		}
	}
}
