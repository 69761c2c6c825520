package render

import (
	"context"
	"math"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// plateScene runs the plate example: a shop drawing with dimensions, centre lines on a
// layer and a hatched section.
func plateScene(t *testing.T) *scene.Scene {
	t.Helper()
	src, err := examples.Workspace("plate")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Scene
}

// TestPlateExampleDXFThroughEzdxf has ezdxf read the plate's R2000 DXF: the audit is clean,
// and each of its twelve dimensions is a DIMENSION, editable in a CAD program, that measures
// (get_measurement, from its defining points) what cadrun measured, with its anonymous
// block holding the drawing.
func TestPlateExampleDXFThroughEzdxf(t *testing.T) {
	t.Parallel()
	s := plateScene(t)
	var want []float64
	for it := range s.Paint() {
		if d, ok := it.Entity.Shape.(*scene.Dimension); ok {
			v := d.Measured(it.World)
			want = append(want, v)
		}
	}
	if len(want) != 12 {
		t.Fatalf("the plate has %d dimensions, want 12", len(want))
	}
	reports := readDimensions(t, s, DXFOptions{Version: DXF2000})
	r := reports[0]
	if len(r.Errors) > 0 || len(r.Fixes) > 0 {
		t.Errorf("ezdxf's audit: errors %q, fixes %q", r.Errors, r.Fixes)
	}
	if len(r.Dims) != len(want) {
		t.Fatalf("ezdxf reads %d DIMENSIONs, want %d", len(r.Dims), len(want))
	}
	for i, d := range r.Dims {
		if math.Abs(d.Measurement-want[i]) > 1e-9*math.Max(1, want[i]) {
			t.Errorf("dimension %d: ezdxf measures %v, cadrun %v", i, d.Measurement, want[i])
		}
		if !d.Anonymous || len(d.BlockEntities) == 0 || d.Layer != "dims" {
			t.Errorf("dimension %d: block %q (anonymous %v, %d entities) on layer %q", i, d.Block, d.Anonymous, len(d.BlockEntities), d.Layer)
		}
	}
}

// TestPlateExampleDXFThroughLibreCAD has LibreCAD print the plate's DXF, R12 and R2000, and
// wants dxf2pdf to finish with a page that has the drawing on it: LibreCAD reads the
// DIMENSION, HATCH, LTYPE and LAYER entries cadrun wrote without an error dialog.
func TestPlateExampleDXFThroughLibreCAD(t *testing.T) {
	t.Parallel()
	s := plateScene(t)
	for i, pic := range librecadPictures(t, s, 600, DXF2000, DXF12) {
		dark := darkPixel(pic)
		ink := 0
		b := pic.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if dark(x, y) {
					ink++
				}
			}
		}
		if ink < b.Dx()*b.Dy()/200 {
			t.Errorf("R%d: LibreCAD's page has %d dark pixels of %d: the drawing is missing", []int{2000, 12}[i], ink, b.Dx()*b.Dy())
		}
	}
}
