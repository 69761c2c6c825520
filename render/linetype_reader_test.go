package render

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// dashedScene is a dashed line 87 units long and 0.5 wide (10 dashes of 6 on, 3 off), a
// center line on a blue "axes" layer, and a continuous line on a "notes" layer that is not
// plotted, 5 units below.
func dashedScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	put(t, s, "dashed", scene.Line{Points: []geom.Vec{{X: 0}, {X: 87}}})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.SetStroke("dashed", &scene.Color{0, 0, 0, 1}, 0.5))
	must(s.SetLinetype("dashed", "dashed", 1))
	must(s.CreateLayer(scene.Layer{Name: "axes", Color: &scene.Color{0, 0, 1, 1}, Linetype: "center", Plot: true}))
	must(s.CreateLayer(scene.Layer{Name: "notes", Plot: false}))
	put(t, s, "axis", scene.Line{Points: []geom.Vec{{X: 0, Y: 5}, {X: 90, Y: 5}}})
	must(s.SetLayer("axis", "axes"))
	put(t, s, "note", scene.Line{Points: []geom.Vec{{X: 0, Y: -5}, {X: 90, Y: -5}}})
	must(s.SetStroke("note", &scene.Color{0, 0, 0, 1}, 0.5))
	must(s.SetLayer("note", "notes"))
	return s
}

// checkDashRuns finds the dashed line in a picture (the row with the most dark pixels, the
// "note" line being left out) and holds its runs to the pattern: 10 dashes, each 6 units plus
// the round caps (caps: the line's width, 0.5, or 0 for a hairline, whose one-pixel caps are
// within the tolerance), with gaps of 3 less the caps, to within 0.35 units. The scale comes
// from the ink's own extent, 87 units plus the caps, so the check needs no knowledge of the
// reader's placement. It also checks that no row holds a line of ink longer than a dash,
// which the not-plotted "note" line would be.
func checkDashRuns(t *testing.T, reader string, img interface {
	Bounds() image.Rectangle
	At(x, y int) color.Color
}, caps float64) {
	t.Helper()
	b := img.Bounds()
	dark := darkPixel(img)
	bestRow, best := -1, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		n, run, longest := 0, 0, 0
		for x := b.Min.X; x < b.Max.X; x++ {
			if dark(x, y) {
				n++
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		if longest > b.Dx()/5 {
			t.Errorf("%s: row %d has a line %d pixels long: the not-plotted layer is drawn", reader, y, longest)
			return
		}
		if n > best {
			bestRow, best = y, n
		}
	}
	x0, x1 := -1, -1 // the first and last ink
	for x := b.Min.X; x < b.Max.X; x++ {
		if dark(x, bestRow) {
			if x0 < 0 {
				x0 = x
			}
			x1 = x
		}
	}
	var runs []int // on, off, on, ... from the first ink to the last
	for x := x0; x0 >= 0 && x <= x1; x++ {
		if on := dark(x, bestRow); len(runs) > 0 && (len(runs)%2 == 1) == on {
			runs[len(runs)-1]++
		} else {
			runs = append(runs, 1)
		}
	}
	if len(runs) != 19 {
		t.Errorf("%s: row %d has %d runs %v, want 10 dashes and 9 gaps", reader, bestRow, len(runs), runs)
		return
	}
	k := float64(x1-x0+1) / (87 + caps) // pixels a unit
	for i, r := range runs {
		want := 6 + caps
		if i%2 == 1 {
			want = 3 - caps
		}
		if got := float64(r) / k; math.Abs(got-want) > 0.35 {
			t.Errorf("%s: run %d is %.2f units, want %v (runs in pixels %v, %.2f pixels a unit)", reader, i, got, want, runs, k)
		}
	}
}

// darkPixel reports whether a pixel of img is dark in every channel: ink, not a light
// colour or the paper.
func darkPixel(img interface{ At(x, y int) color.Color }) func(x, y int) bool {
	return func(x, y int) bool {
		r, g, bl, _ := img.At(x, y).RGBA()
		return r < 0x6000 && g < 0x6000 && bl < 0x6000
	}
}

var dashedView = View{Min: geom.Vec{X: -5, Y: -8}, Max: geom.Vec{X: 95, Y: 8}}

func TestDashesThroughLibrsvg(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	v := dashedView
	svg, err := SVG(dashedScene(t), SVGOptions{View: &v})
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "dashed.svg")
	if err := os.WriteFile(in, svg, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-w", "1000", "-h", "160", "-b", "white", in).Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	checkDashRuns(t, "librsvg", decodeRGBA(t, "dashed", out), 0.5)
}

func TestDashesThroughPoppler(t *testing.T) {
	t.Parallel()
	bin := pdftoppm(t)
	b, err := PDF(dashedScene(t), PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(t.TempDir(), "dashed")
	if err := os.WriteFile(base+".pdf", b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-png", "-singlefile", "-r", "254", base+".pdf", base).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	f, err := os.ReadFile(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	checkDashRuns(t, "poppler", decodeRGBA(t, "dashed", f), 0.5)
}

func TestDashesInPNG(t *testing.T) {
	t.Parallel()
	v := dashedView
	b, err := PNG(dashedScene(t), PNGOptions{Width: 1000, Height: 160, View: &v})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	checkDashRuns(t, "image/png", img, 0.5)
}

// TestDraftingDXFThroughEzdxf reads the DXF of the dashed scene, R12 and R2000, with ezdxf:
// the audit is clean, the LTYPE entries carry the scene's pattern lengths, the layers their
// colour, linetype and plot flag (R2000; R12 has none), and the entities their linetype:
// their own, or none (BYLAYER) when it is their layer's.
func TestDraftingDXFThroughEzdxf(t *testing.T) {
	t.Parallel()
	py := ezdxf(t)
	dir := t.TempDir()
	var files []string
	for _, v := range []DXFVersion{DXF12, DXF2000} {
		b, err := DXF(dashedScene(t), DXFOptions{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "r"+strconv.Itoa(int(v))+".dxf")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out, err := exec.Command(py, append([]string{filepath.Join("testdata", "dxfdrafting.py")}, files...)...).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("ezdxf: %v\n%s", err, msg)
	}
	type layer struct {
		Color    int    `json:"color"`
		Linetype string `json:"linetype"`
		Plot     bool   `json:"plot"`
	}
	type entity struct{ Type, Layer, Linetype string }
	var got []struct {
		Errors   []string             `json:"errors"`
		Ltypes   map[string][]float64 `json:"ltypes"`
		Layers   map[string]layer     `json:"layers"`
		Entities []entity             `json:"entities"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("reading ezdxf's report: %v\n%s", err, out)
	}
	for i, g := range got {
		name := []string{"R12", "R2000"}[i]
		if len(g.Errors) > 0 {
			t.Errorf("%s: audit errors %v", name, g.Errors)
		}
		for lt, want := range map[string][]float64{"DASHED": {6, -3}, "CENTER": {15, -3, 3, -3}} {
			if diff := cmp.Diff(want, g.Ltypes[lt]); diff != "" {
				t.Errorf("%s: LTYPE %s pattern mismatch (-want +got):\n%s", name, lt, diff)
			}
		}
		wantLayers := map[string]layer{"axes": {5, "CENTER", true}, "notes": {7, "Continuous", i == 0}}
		if i == 0 {
			wantLayers["notes"] = layer{7, "CONTINUOUS", true} // R12 has no plot flag
		}
		for n, want := range wantLayers {
			if diff := cmp.Diff(want, g.Layers[n]); diff != "" {
				t.Errorf("%s: layer %s mismatch (-want +got):\n%s", name, n, diff)
			}
		}
		kind := []string{"POLYLINE", "LWPOLYLINE"}[i]
		wantEnts := []entity{{kind, "0", "DASHED"}, {kind, "axes", "BYLAYER"}, {kind, "notes", "BYLAYER"}}
		if diff := cmp.Diff(wantEnts, g.Entities); diff != "" {
			t.Errorf("%s: entities mismatch (-want +got):\n%s", name, diff)
		}
	}
}
