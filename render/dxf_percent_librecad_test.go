package render

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// TestDXFSymbolsThroughLibreCAD writes Ø, ° and ± as TEXT entities, each alone in a square,
// in R12 and R2000, has LibreCAD print them and poppler rasterise the page, and wants ink in
// every square: the %%c, %%d and %%p they are written as are drawn, not dropped.
func TestDXFSymbolsThroughLibreCAD(t *testing.T) {
	t.Parallel()
	bin := librecad(t)
	ppm := pdftoppm(t)
	symbols := []string{"Ø", "°", "±"}
	s := scene.New()
	for i, sym := range symbols {
		x := float64(20*i + 10)
		put(t, s, fmt.Sprintf("cell%d", i), scene.Rect{Center: geom.Vec{X: x, Y: 10}, Width: 18, Height: 18})
		put(t, s, fmt.Sprintf("sym%d", i), &scene.Text{Text: sym, Pos: geom.Vec{X: x, Y: 6}, Size: 10, Align: text.AlignCenter})
	}
	dir := t.TempDir()
	versions := []DXFVersion{DXF12, DXF2000}
	var dxfs []string
	for _, v := range versions {
		b, err := DXF(s, DXFOptions{Version: v, Text: DXFTextEntities})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("symbols.r%d.dxf", v))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		dxfs = append(dxfs, f)
	}
	librecadPrint(t, bin, dir, dxfs)
	for i, f := range dxfs {
		base := strings.TrimSuffix(f, ".dxf")
		out, err := exec.Command(ppm, "-png", "-singlefile", "-aa", "no", "-aaVector", "no",
			"-scale-to-x", fmt.Sprint(librecadPixelWidth), "-scale-to-y", "-1", base+".pdf", base).CombinedOutput()
		if err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, out)
		}
		png, err := os.ReadFile(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		pic := decodeRGBA(t, filepath.Base(base), png)
		dark := darkPixel(pic)
		// The squares' outer edges are the drawing's extents, which LibreCAD fits to the page.
		x0, y0, x1, y1 := pic.Rect.Max.X, pic.Rect.Max.Y, -1, -1
		for y := pic.Rect.Min.Y; y < pic.Rect.Max.Y; y++ {
			for x := pic.Rect.Min.X; x < pic.Rect.Max.X; x++ {
				if dark(x, y) {
					x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
				}
			}
		}
		if x1 < 0 {
			t.Fatalf("R%d: LibreCAD's picture is blank", versions[i])
		}
		cell := float64(x1-x0) / 60 * 20 // pixels a square spans
		for j, sym := range symbols {
			// Inside the square, clear of its edges by a fifth of it.
			ink := 0
			for y := y0 + int(cell/5); y <= y1-int(cell/5); y++ {
				for x := x0 + int(float64(j)*cell+cell/5); x <= x0+int(float64(j+1)*cell-cell/5); x++ {
					if dark(x, y) {
						ink++
					}
				}
			}
			if ink == 0 {
				t.Errorf("R%d: LibreCAD drew nothing of %q", versions[i], sym)
			}
		}
	}
}
