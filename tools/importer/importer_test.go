package importer

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/importer/dxf"
)

func needTool(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
		t.Fatalf("%s is missing; make deps installs it (.ci/debian-packages)", what)
	}
	t.Skipf("%s is not installed; run make deps", what)
}

// ezdxf runs a Python script with ezdxf that writes a DXF file to the path in argv[1] and
// returns the file.
func ezdxf(t *testing.T, script string) []byte {
	t.Helper()
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import ezdxf").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		needTool(t, "python3 with ezdxf (Debian package python3-ezdxf)")
	}
	f := filepath.Join(t.TempDir(), "a.dxf")
	if out, err := exec.Command(py, "-c", script, f).CombinedOutput(); err != nil {
		t.Fatalf("ezdxf: %v\n%s", err, out)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// importRun imports a DXF file and runs the module as main.
func importRun(t *testing.T, data []byte) (*scene.Scene, *Report, string) {
	t.Helper()
	code, rep, err := DXF(data, Options{Source: "test.dxf"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := runtime.Run(context.Background(), importedSource(code), runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatalf("running the imported module: %v\n%s", err, code)
	}
	return res.Scene, rep, code
}

const everyKind = `
import ezdxf, sys
doc = ezdxf.new('R2010'); doc.header['$INSUNITS'] = 4
msp = doc.modelspace()
doc.layers.add('walls', color=1)
doc.layers.add('holes', color=5)
msp.add_line((0, 0), (100, 0), dxfattribs={'layer': 'walls'})
msp.add_circle((50, 50), 10, dxfattribs={'layer': 'holes'})
msp.add_arc((0, 0), 20, 0, 90, dxfattribs={'layer': 'arcs', 'color': 3})
msp.add_lwpolyline([(0, 0, 0, 0, 0), (10, 0, 0, 0, 1), (10, 10, 0, 0, 0), (0, 10, 0, 0, 0)], format='xyseb', close=True, dxfattribs={'layer': 'slot', 'true_color': 0x336699})
p = msp.add_polyline2d([(200, 0), (210, 0), (210, 10)], dxfattribs={'layer': 'open'})
p.vertices[0].dxf.bulge = 1
msp.add_text('Hello %%c5', dxfattribs={'height': 5, 'rotation': 30, 'insert': (0, -20), 'layer': 'notes'})
msp.add_mtext('{\\fArial|b1;Bold}\\Pline2', dxfattribs={'char_height': 3, 'insert': (0, -40), 'layer': 'notes'})
msp.add_point((1, 1))
b = doc.blocks.new('Bolt head', base_point=(1, 1))
b.add_circle((1, 1), 2)
b.add_line((0, 1), (2, 1))
b2 = doc.blocks.new('Pair')
b2.add_blockref('Bolt head', (0, 0))
b2.add_blockref('Bolt head', (10, 0), dxfattribs={'rotation': 90, 'xscale': 2, 'yscale': 2})
msp.add_blockref('Pair', (300, 300), dxfattribs={'rotation': 45, 'layer': 'parts'})
msp.add_ellipse((0, 0), (10, 0), 0.5)
doc.saveas(sys.argv[1])
`

// TestEveryKindFromEzdxf imports a file ezdxf wrote with every supported kind and checks
// each one's world bounds (and the bulged outline's area) against the closed forms.
func TestEveryKindFromEzdxf(t *testing.T) {
	t.Parallel()
	s, rep, code := importRun(t, ezdxf(t, everyKind))
	box := func(x0, y0, x1, y1 float64) geom.Box {
		return geom.Box{Min: geom.Vec{X: x0, Y: y0}, Max: geom.Vec{X: x1, Y: y1}, NonEmpty: true}
	}
	c45 := 10 * math.Sqrt2 / 2
	layers := layerBounds(s)
	for name, want := range map[string]geom.Box{
		"walls": box(0, 0, 100, 0),
		"holes": box(40, 40, 60, 60),
		"arcs":  box(0, 0, 20, 20),
		"slot":  box(0, 0, 15, 10),     // a square with a half disc of radius 5 on its right
		"open":  box(200, -5, 210, 10), // bulge 1: a half circle right of (below) the first edge
		"parts": box(298, 298, 300+c45+4, 300+c45+4),
	} {
		got, ok := layers[name]
		if !ok {
			t.Errorf("layer %s: nothing on it\n%s", name, code)
			continue
		}
		if d := math.Max(math.Max(math.Abs(got.Min.X-want.Min.X), math.Abs(got.Min.Y-want.Min.Y)), math.Max(math.Abs(got.Max.X-want.Max.X), math.Abs(got.Max.Y-want.Max.Y))); d > 1e-9 {
			t.Errorf("%s: world bounds %v, want %v", name, got, want)
		}
	}
	// The arc is exact (the bounds above); getArea measures a path on its flattening.
	if a, err := s.Area("slot-lwpolyline1"); err != nil || math.Abs(a-(100+math.Pi*25/2)) > 1e-3*a {
		t.Errorf("slot area %v (%v), want %v", a, err, 100+math.Pi*25/2)
	}
	for _, n := range []string{"notes-text1", "notes-mtext1"} {
		if _, err := s.Get(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if !strings.Contains(code, "'Hello Ø5'") || !strings.Contains(code, "'Bold\\nline2'") {
		t.Errorf("text not plain:\n%s", code)
	}
	if rep.Units != "mm" || rep.Blocks != 2 || rep.Kinds["INSERT"] != 3 || rep.Skipped["POINT: a point has no size; cadrun draws no dots"] != 1 || rep.Kinds["ELLIPSE"] != 1 {
		t.Errorf("report %+v", rep)
	}
	e, _ := s.Get("arcs-arc1")
	if e.Style.Stroke == nil || *e.Style.Stroke != (scene.Color{0, 1, 0, 1}) {
		t.Errorf("arc stroke %v, want green (ACI 3)", e.Style.Stroke)
	}
}

// TestExamplesRoundTrip exports example workspaces to DXF (R12 and R2000), imports them, and
// compares the world bounds.
func TestExamplesRoundTrip(t *testing.T) {
	t.Parallel()
	// Only examples whose DXF is exact: the writer rounds a Bézier's flattening (text outlines,
	// curves) to its quantum, which the import cannot undo.
	for _, name := range []string{"laser", "panel"} {
		src, err := examples.Workspace(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := res.Scene.Bounds()
		size := math.Max(want.Max.X-want.Min.X, want.Max.Y-want.Min.Y)
		for _, v := range []render.DXFVersion{render.DXF12, render.DXF2000} {
			b, err := render.DXF(res.Scene, render.DXFOptions{Version: v})
			if err != nil {
				t.Fatal(err)
			}
			s, _, _ := importRun(t, b)
			got := s.Bounds()
			d := math.Max(math.Max(math.Abs(got.Min.X-want.Min.X), math.Abs(got.Min.Y-want.Min.Y)), math.Max(math.Abs(got.Max.X-want.Max.X), math.Abs(got.Max.Y-want.Max.Y)))
			if d > 1e-9*size {
				t.Errorf("%s R%d: bounds %v, want %v (off by %g)", name, v, got, want, d)
			}
		}
	}
}

// TestRefusals: malformed and hostile files are refused with the line or the limit.
func TestRefusals(t *testing.T) {
	t.Parallel()
	head := "0\nSECTION\n2\nENTITIES\n"
	blocks := func(body string) string {
		return "0\nSECTION\n2\nBLOCKS\n" + body + "0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nINSERT\n8\n0\n2\nA\n0\nENDSEC\n0\nEOF\n"
	}
	for _, c := range []struct{ name, file, want string }{
		{"binary", "AutoCAD Binary DXF\r\n\x1a\x00rest", "binary DXF is not supported: save the drawing as ASCII DXF"},
		{"truncated", head + "0\nLINE\n10\n", "line 8: the file ends after group code 10, before its value (is it truncated?)"},
		{"empty", "", "line 1: the file ends before its first section (is it a DXF file?)"},
		{"bad code", head + "0\nLINE\nten\n1\n", `line 7: expected a group code (an integer 0-1071), got "ten"`},
		{"bad number", head + "0\nLINE\n10\nabc\n0\nENDSEC\n0\nEOF\n", `line 8: group 10 needs a finite number, got "abc"`},
		{"no section", "0\nLINE\n0\nEOF\n", "line 1: expected 0 SECTION or 0 EOF, got 0 LINE"},
		{"self insert", blocks("0\nBLOCK\n2\nA\n0\nINSERT\n2\nA\n0\nENDBLK\n"), `block "A" inserts itself (A -> A)`},
		{"cycle", blocks("0\nBLOCK\n2\nA\n0\nINSERT\n2\nB\n0\nENDBLK\n0\nBLOCK\n2\nB\n0\nINSERT\n2\nA\n0\nENDBLK\n"), `block "A" inserts itself (A -> B -> A)`},
		{"huge count", head + strings.Repeat("0\nPOINT\n", 10) + "0\nENDSEC\n0\nEOF\n", "line 15: the file has over 5 entities (MaxEntities)"},
	} {
		_, _, err := DXF([]byte(c.file), Options{Limits: dxf.Limits{MaxEntities: 5}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// A block tree that expands past the sandbox's entity limit is refused before it is written.
	var b strings.Builder
	b.WriteString("0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB0\n0\nPOINT\n0\nENDBLK\n")
	for i := 1; i < 8; i++ {
		b.WriteString("0\nBLOCK\n2\nB" + string(rune('0'+i)) + "\n")
		for range 10 {
			b.WriteString("0\nINSERT\n2\nB" + string(rune('0'+i-1)) + "\n")
		}
		b.WriteString("0\nENDBLK\n")
	}
	b.WriteString("0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nINSERT\n2\nB7\n0\nENDSEC\n0\nEOF\n")
	if _, _, err := DXF([]byte(b.String()), Options{}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "MaxDrawnEntities") {
		t.Errorf("block bomb: %v", err)
	}
	if _, _, err := DXF(make([]byte, 100), Options{Limits: dxf.Limits{MaxBytes: 10}}); !errors.Is(err, dxf.ErrLimit) {
		t.Errorf("size: %v", err)
	}
}
