package tools

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/picture"
)

const exportMain = `drawRect('plate', 0, 0, 80, 50); drawCircle('h', 10, 0, 4)
booleanDifference('plate', 'h', 'cut'); deleteEntity('plate'); deleteEntity('h')
drawText('t', 'A1', 0, 20, 5); createGroup('engrave', ['t'])`

// TestExport writes each format into out/ and checks it with a reader cadrun did not write
// where there is one: the DXF's entities counted by ezdxf are those the answer gives.
func TestExport(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": exportMain})
	magic := map[string]string{"svg": "<svg", "png": "\x89PNG", "pdf": "%PDF-", "dxf": "  0\nSECTION", "json": "{"}
	for ext, want := range magic {
		out, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/part." + ext})
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "out", "part."+ext))
		if err != nil {
			t.Fatal(err)
		}
		if out.Path != "out/part."+ext || out.Bytes != len(b) || out.Format != ext || !strings.HasPrefix(string(b), want) {
			t.Errorf("%s: answer %+v, file of %d bytes starting %.10q", ext, out, len(b), b)
		}
	}
	out, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/r2000", Format: "dxf", DXFVersion: "2000"})
	if err != nil {
		t.Fatal(err)
	}
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import ezdxf").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatal("python3 with ezdxf is missing; make deps installs it (.ci/debian-packages)")
		}
		t.Skip("python3 with ezdxf is not installed; run make deps")
	}
	script := `import ezdxf, json, sys, collections
d = ezdxf.readfile(sys.argv[1])
k, l = collections.Counter(), collections.Counter()
for e in d.modelspace():
    k[e.dxftype()] += 1
    l[e.dxf.layer] += 1
print(json.dumps({"entities": sum(k.values()), "by_kind": k, "by_layer": l}))`
	got, err := exec.Command(py, "-c", script, filepath.Join(dir, "out", "r2000.dxf")).Output()
	if err != nil {
		t.Fatalf("ezdxf: %v", err)
	}
	var theirs DXFCounts
	if err := json.Unmarshal(got, &theirs); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&theirs, out.DXF); diff != "" {
		t.Errorf("the answer's counts and ezdxf's differ (-ezdxf +answer):\n%s", diff)
	}
	if theirs.ByLayer["engrave"] == 0 || theirs.ByLayer["0"] != 2 {
		t.Errorf("ezdxf finds the layers %v; want the text on engrave and the cut's two rings on 0", theirs.ByLayer)
	}
	if out.DXF.ByKind["TEXT"] != 0 {
		t.Errorf("the default DXF has text entities: %v", out.DXF.ByKind)
	}
	out, err = call[*ExportOut](t, s, "export", ExportIn{Path: "out/text.dxf", DXFText: "entities"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"TEXT": 1, "POLYLINE": 1, "CIRCLE": 1}; !maps.Equal(out.DXF.ByKind, want) || out.DXF.ByLayer["engrave"] != 1 {
		t.Errorf("dxf_text entities: %+v, want %v and the TEXT on engrave", out.DXF, want)
	}
}

// TestExportRefusals: nothing is written outside out/, and bad options are named.
func TestExportRefusals(t *testing.T) {
	t.Parallel()
	s, dir := newSession(t, map[string]string{"scene.code.js": exportMain, "data/d.json": `{"a": 1}`})
	for _, tt := range []struct {
		in   ExportIn
		want string
	}{
		{ExportIn{Path: "data/d.json"}, `bad output name: "data/d.json": give out/NAME.EXT, NAME 1-64 letters, digits, '_' or '-' starting with a letter or digit, EXT svg, png, pdf, dxf, json, stl, 3mf, step or glb (exports go to the workspace's out/ folder only)`},
		{ExportIn{Path: "out/../scene.code.js"}, `bad input: export: bad export option: output "out/../scene.code.js" must end in .svg, .png, .json, .dxf, .pdf, .stl, .3mf, .step or .glb`},
		{ExportIn{Path: "out/../main.svg"}, `bad output name: "../main.svg": give out/NAME.EXT, NAME 1-64 letters, digits, '_' or '-' starting with a letter or digit, EXT svg, png, pdf, dxf, json, stl, 3mf, step or glb (exports go to the workspace's out/ folder only)`},
		{ExportIn{Path: "/etc/x.svg"}, `bad output name: "/etc/x.svg": give out/NAME.EXT, NAME 1-64 letters, digits, '_' or '-' starting with a letter or digit, EXT svg, png, pdf, dxf, json, stl, 3mf, step or glb (exports go to the workspace's out/ folder only)`},
		{ExportIn{Path: "out/p.svg", Format: "pdf"}, `bad input: export: format "pdf" and path "out/p.svg" disagree; give one, or make them the same`},
		{ExportIn{Path: "out/p.pdf", Units: "furlong"}, `bad input: export: units: bad export option: unit "furlong": use mm, cm, m, in or ft`},
		{ExportIn{Path: "out/p.dxf", DXFText: "glyphs"}, `bad input: export: dxf_text: bad export option: DXF text "glyphs": use outlines or entities`},
		{ExportIn{Path: "out/p.png", Width: 9000}, `bad input: export: width 9000 is out of range; give 1 to 8192 (MaxPNGSide)`},
	} {
		_, err := call[*ExportOut](t, s, "export", tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%+v: got %v\nwant %s", tt.in, err, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("out/ exists after refusals only: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "data", "d.json")); string(b) != `{"a": 1}` {
		t.Errorf("data/d.json changed: %q", b)
	}
	// A link in place of out/ cannot lead outside the workspace.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, modules.OutputDir)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(context.Background(), "export", json.RawMessage(`{"path":"out/x.svg"}`)); err == nil {
		t.Error("an export through a link to outside the workspace landed")
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Errorf("files written outside: %v", names)
	}
}

// TestExportLintsTextOnItsPaper: a 5-unit text reads at 1:1 in millimetres, so writes raise
// nothing, but a PDF at 1:4 puts it 1.25 mm high, under the 2.5 mm minimum, and the export's
// answer says so; a PNG has no paper and says nothing.
func TestExportLintsTextOnItsPaper(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": exportMain})
	out, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/quarter.pdf", Scale: "1:4"})
	if err != nil {
		t.Fatal(err)
	}
	const want = `text-small: text "t" is 1.25 mm high on paper, under the 2.5 mm minimum`
	if len(out.Lint) != 1 || !strings.HasPrefix(out.Lint[0], want) {
		t.Errorf("PDF at 1:4: lint %q, want one finding %q", out.Lint, want)
	}
	for _, in := range []ExportIn{{Path: "out/full.pdf"}, {Path: "out/part.png"}, {Path: "out/part.dxf", Units: "cm"}} {
		out, err := call[*ExportOut](t, s, "export", in)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Lint) != 0 {
			t.Errorf("%s: lint %q, want none", in.Path, out.Lint)
		}
	}
}

// TestExportWaitsForRenderMemory holds an export to the render budget every picture of the
// server shares: with all of it taken, an export of any format waits for its share, and one
// whose call ends while it waits answers the call's end and writes nothing, where it used to
// draw an 8,192-px PNG's 256 MiB of pixels beside every other picture.
func TestExportWaitsForRenderMemory(t *testing.T) {
	s, dir := newSession(t, map[string]string{"scene.code.js": exportMain})
	done, err := picture.Reserve(context.Background(), picture.RenderMemory)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, in := range []ExportIn{
		{Path: "out/big.png", Width: 8192},
		{Path: "out/part.svg"},
		{Path: "out/part.pdf"},
		{Path: "out/part.dxf"},
	} {
		out, err := exportTool(ctx, s, in)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %+v, %v; want it to wait and answer %v", in.Path, out, err, context.Canceled)
		}
		if _, err := os.Stat(filepath.Join(dir, in.Path)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: written (%v); want nothing", in.Path, err)
		}
	}
}

// TestExportMemory estimates a PNG export by its pixels at the height the scene's frame gives
// it, an STL or a 3MF by its triangles, a GLB by its triangles, a STEP by its faceted solids' triangles, and any
// export by its drawing.
func TestExportMemory(t *testing.T) {
	t.Parallel()
	sc := solidScene(t) // 24 triangles
	if _, err := sc.Put("wide", scene.Rect{Width: 200, Height: 100}); err != nil {
		t.Fatal(err)
	}
	mesh := 24*meshFileBytesPerTriangle + int64(sc.Len())*picture.SVGBytesPerEntity
	draw := picture.DrawingMemory(sc, picture.SVGBytesPerEntity)
	fit := render.FitView(sc, render.DefaultMargin).Size()
	for _, tt := range []struct {
		ext   string
		width int
		want  int64
	}{
		{".svg", 1024, draw},
		{".dxf", 1024, draw},
		{".png", 1000, draw + 4*1000*int64(math.Round(1000*fit.Y/fit.X))},
		{".png", 8192, draw + 4*8192*int64(math.Round(8192*fit.Y/fit.X))},
		{".stl", 1024, mesh},
		{".3mf", 1024, mesh},
		{".glb", 1024, 24*glbBytesPerTriangle + int64(sc.Len())*picture.SVGBytesPerEntity},
		{".step", 1024, 24*stepBytesPerFacet + 24*meshFileBytesPerTriangle/4 + int64(sc.Len())*picture.SVGBytesPerEntity}, // the cubes are faceted
	} {
		if got := exportMemory(sc, tt.ext, tt.width); got != tt.want {
			t.Errorf("%s %d px: %d bytes, want %d", tt.ext, tt.width, got, tt.want)
		}
	}
}

// layeredMain is a panel cut on one layer, dimensioned on another, its label on none.
const layeredMain = `createLayer('cut', {color: [1, 0, 0, 1]}); createLayer('dims', {color: [0, 0, 1, 1]})
drawRect('panel', 0, 0, 80, 50); drawCircle('hole', 20, 0, 4); createGroup('outline', ['panel', 'hole']); setLayer('outline', 'cut')
dimLinear('width', [-40, 25], [40, 25], {direction: 'horizontal', offset: 8}); setLayer('width', 'dims')
drawText('label', 'P1', 0, -10, 5)`

// TestExportByLayer: layers keeps the shapes on those layers (a group's members by its
// layer), so that one scene gives a cut-only DXF; a layer the scene lacks is refused naming
// those it has.
func TestExportByLayer(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": layeredMain})
	tests := []struct {
		in   ExportIn
		want string
	}{
		{ExportIn{Path: "out/cut.dxf", Layers: []string{"cut"}},
			`{"path":"out/cut.dxf","format":"dxf","bytes":921,"dxf":{"entities":2,"by_kind":{"CIRCLE":1,"POLYLINE":1},"by_layer":{"cut":2}}}`},
		{ExportIn{Path: "out/both.dxf", Layers: []string{"dims", "cut"}, DXFVersion: "2000"},
			`{"path":"out/both.dxf","format":"dxf","bytes":8638,"dxf":{"entities":3,"by_kind":{"CIRCLE":1,"DIMENSION":1,"LWPOLYLINE":1},"by_layer":{"cut":2,"dims":1}}}`},
	}
	for _, tt := range tests {
		out, err := call[*ExportOut](t, s, "export", tt.in)
		if err != nil {
			t.Errorf("export %+v: %v", tt.in, err)
			continue
		}
		got, _ := json.Marshal(out)
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("export %+v mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
	for _, tt := range []struct {
		layers []string
		want   string
	}{
		{[]string{"cut", "engrave"}, `bad input: export: bad export option: layer "engrave" is not in the scene; its layers are cut, dims`},
		{[]string{""}, `bad input: export: layers holds an empty name; give the names of the scene's layers`},
	} {
		_, err := call[*ExportOut](t, s, "export", ExportIn{Path: "out/x.dxf", Layers: tt.layers})
		if err == nil || err.Error() != tt.want {
			t.Errorf("export layers %q: got %v, want %q", tt.layers, err, tt.want)
		}
	}
	plain, _ := newSession(t, map[string]string{"scene.code.js": exportMain})
	_, err := call[*ExportOut](t, plain, "export", ExportIn{Path: "out/x.dxf", Layers: []string{"cut"}})
	if want := `bad input: export: bad export option: layer "cut" is not in the scene; the scene has no layers: createLayer makes one and setLayer puts shapes on it`; err == nil || err.Error() != want {
		t.Errorf("export layers of a scene without: got %v, want %q", err, want)
	}
}
