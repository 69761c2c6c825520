package tools

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

func TestSceneDXF(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": "drawCircle('hole', 0, 0, 5)\ncreateGroup('cut', ['hole'])\n"})
	for _, c := range []struct{ version, want string }{
		{"", "AC1009"}, {"12", "AC1009"}, {"2000", "AC1015"},
	} {
		out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "dxf", DXFVersion: c.version})
		if err != nil {
			t.Fatalf("dxf_version %q: %v", c.version, err)
		}
		want, err := render.DXF(s.srv.Scene(), render.DXFOptions{Version: map[string]render.DXFVersion{"2000": render.DXF2000}[c.version]})
		if err != nil {
			t.Fatal(err)
		}
		if out.DXF != string(want) || !strings.Contains(out.DXF, c.want) || !strings.Contains(out.DXF, "CIRCLE\n") {
			t.Errorf("dxf_version %q: the answer is not the scene's %s DXF: %.120q", c.version, c.want, out.DXF)
		}
	}
	_, err := call[SceneOut](t, s, "scene", SceneIn{Command: "dxf", DXFVersion: "2013"})
	want := `bad input: dxf_version "2013": use 12 or 2000`
	if err == nil || err.Error() != want {
		t.Errorf("dxf_version 2013: %v, want %q", err, want)
	}
}

// TestSceneDXFCap builds a scene whose DXF is over MaxDXFText: the answer is an error that
// names the limit and the way to get the file.
func TestSceneDXFCap(t *testing.T) {
	t.Parallel()
	sc := scene.New()
	for i := range 20000 {
		if _, err := sc.Put(fmt.Sprint("c", i), scene.Circle{Center: geom.Vec{X: float64(i)}, Radius: 1}); err != nil {
			t.Fatal(err)
		}
	}
	b, err := render.DXF(sc, render.DXFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = sceneDXF(sc, "")
	want := fmt.Sprintf("dxf too large: the scene's DXF is %d bytes, over the 1048576-byte limit of an answer (MaxDXFText); write it to a file instead: export {\"path\":\"out/part.dxf\"}", len(b))
	if err == nil || err.Error() != want || !errors.Is(err, ErrDXFTooLarge) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestSceneDXFOverMCP(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, map[string]string{"scene.code.js": "drawRoundedRect('plate', 0, 0, 80, 40, 5)\n"}))
	got := text(t, callMCP(t, cs, "scene", map[string]any{"command": "dxf", "dxf_version": "2000"}))
	if !strings.Contains(got, "AC1015") || !strings.Contains(got, "LWPOLYLINE") {
		t.Errorf("scene dxf over MCP: %.200q", got)
	}
	if got := readResource(t, cs, ResourceSceneDXF); !strings.Contains(got, "AC1009") || !strings.Contains(got, "POLYLINE") {
		t.Errorf("%s: %.200q", ResourceSceneDXF, got)
	}
}
