package render

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestExportMatchesRender: a Request that crossed as JSON writes the same bytes as the format's
// writer called with the options directly, every option set.
func TestExportMatchesRender(t *testing.T) {
	t.Parallel()
	s := scene.New()
	if _, err := s.Put("plate", scene.RoundedRect{Center: geom.Vec{X: 0, Y: 0}, Width: 80, Height: 40, Radius: 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("hole", scene.Circle{Center: geom.Vec{X: 20, Y: 0}, Radius: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("cube", &scene.Solid{Mesh: unitCube(), Place: scene.Translation3(scene.Vec3{1, 2, 3})}); err != nil {
		t.Fatal(err)
	}
	bg := scene.Color{0.1, 0.2, 0.3, 0.5}
	opts := Options{
		PNG:     PNGOptions{Width: 300, Height: 200, Background: &bg, View: &View{Min: geom.Vec{X: -50, Y: -30}, Max: geom.Vec{X: 50, Y: 30}}, Margin: 3},
		DXF:     DXFOptions{Version: DXF2000, Unit: "in", Tolerance: 0.05},
		PDF:     PDFOptions{Page: "A4", Scale: PDFScale{Paper: 0.5}, Unit: "mm"},
		ThreeMF: ThreeMFOptions{Unit: "in"},
	}
	for _, f := range formats {
		t.Run(f.Ext, func(t *testing.T) {
			want, err := f.Render(s, opts)
			if err != nil {
				t.Fatal(err)
			}
			req, err := json.Marshal(Request{Ext: f.Ext, Options: opts})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			warnings, err := Export(&got, s, req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got.Bytes()); diff != "" {
				t.Errorf("export mismatch (-render +export):\n%s", diff)
			}
			var wantWarnings []string
			if l := f.LeftOut(s); l != "" {
				wantWarnings = []string{l}
			}
			if diff := cmp.Diff(wantWarnings, warnings); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExportErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ request, want string }{
		{`{"Ext": ".dwg"}`, `bad export option: output ".dwg" must end in .svg, .png, .json, .dxf, .pdf, .stl, .3mf, .step or .glb`},
		{`{"Ext": ".svg", "Options": 1}`, "reading the export request: json: cannot unmarshal number into Go struct field Request.Options of type render.Options"},
	} {
		_, err := Export(io.Discard, scene.New(), []byte(c.request))
		if diff := cmp.Diff(c.want, err.Error()); diff != "" {
			t.Errorf("Export(%s) error mismatch (-want +got):\n%s", c.request, diff)
		}
	}
}
