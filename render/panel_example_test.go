package render

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/runtime"
)

// TestPanelExampleDXFThroughEzdxf runs the panel example (a blank chamfered, joined to a tab,
// filleted, and cut in one difference) and has ezdxf read its DXF: the outline is one closed
// polyline whose ten bulges are fillets of radius 3, each mounting hole and the hanging hole
// is a CIRCLE, the window a polyline with four fillets of radius 6, and the vent slots
// straight octagons; its area is the closed form's.
func TestPanelExampleDXFThroughEzdxf(t *testing.T) {
	t.Parallel()
	src, err := examples.Workspace("panel")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The blank less its chamfers, plus the tab, the fillets of radius 3 at four right-angled
	// corners, two concave ones and four of 135°, less the cut-outs.
	r := 3.0
	c90 := r * r * (1 - math.Pi/4)
	c135 := r * r * (1/math.Tan(67.5*math.Pi/180) - math.Pi/8)
	want := 160*90 - 2*50 + 40*15 - 4*c90 + 2*c90 - 4*c135
	want -= 4*math.Pi*9 + math.Pi*16 + (70*34 - 4*36*(1-math.Pi/4)) + 7*(8*16-4*2)
	if got, err := res.Scene.Area("panel"); err != nil || math.Abs(got-want) > 1e-12*want {
		t.Errorf("area %v (%v), want %v", got, err, want)
	}
	dir := t.TempDir()
	var files []string
	for _, v := range []DXFVersion{DXF12, DXF2000} {
		b, err := DXF(res.Scene, DXFOptions{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "panel"+string(rune('a'+len(files)))+".dxf")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for i, g := range dxfGeometryOf(t, files...) {
		if len(g.Errors) > 0 {
			t.Errorf("file %d: ezdxf's audit: %q", i, g.Errors)
		}
		var radii []float64
		for _, e := range g.Entities {
			if e.Kind == "CIRCLE" {
				radii = append(radii, e.Radius)
			}
		}
		if len(radii) != 5 {
			t.Errorf("file %d: %d CIRCLEs (radii %v), want the four mounting holes and the hanging hole", i, len(radii), radii)
		}
		arcs := map[int]int{} // bulged edges of each polyline, by radius
		for _, p := range g.polylines() {
			for _, piece := range p.Pieces {
				if piece.Kind == "ARC" {
					arcs[int(math.Round(piece.Radius))]++
				}
			}
		}
		if arcs[3] != 10 || arcs[6] != 4 || len(arcs) != 2 || len(g.polylines()) != 9 {
			t.Errorf("file %d: %d polylines with arcs by radius %v; want 9 polylines, ten arcs of radius 3 and four of 6", i, len(g.polylines()), arcs)
		}
	}
}
