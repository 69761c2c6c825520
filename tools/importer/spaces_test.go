package importer

// What of a DXF file is the drawing: model space, not the layouts' sheets drawn over it, and
// layers that are off or frozen kept out of the plot as the CAD program keeps them out.

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// layoutsScript writes a drawing with a LINE in model space, a CIRCLE on the active layout
// (Layout1) and an ARC on a second layout (Sheet2), in VERSION.
const layoutsScript = `
import ezdxf, sys
doc = ezdxf.new('VERSION')
doc.modelspace().add_line((0, 0), (100, 0))
doc.layout('Layout1').add_circle((50, 50), 10)
if 'VERSION' != 'R12':
    doc.layouts.new('Sheet2').add_arc((0, 0), 20, 0, 90)
doc.saveas(sys.argv[1])
`

// TestLayouts: a file's layouts (paper space) are left out of the import, with a note each,
// and imported on request, alone; a layout the file lacks is refused naming those it has.
func TestLayouts(t *testing.T) {
	t.Parallel()
	r2010 := ezdxf(t, strings.ReplaceAll(layoutsScript, "VERSION", "R2010"))
	r12 := ezdxf(t, strings.ReplaceAll(layoutsScript, "VERSION", "R12"))
	for _, c := range []struct {
		name, layout string
		file         []byte
		kinds        map[string]int
		notes        map[string]int
		err          string
	}{
		{"model", "", r2010, map[string]int{"LINE": 1}, map[string]int{
			"LAYOUT Layout1: paper space, left out (import it with layout Layout1)": 1,
			"LAYOUT Sheet2: paper space, left out (import it with layout Sheet2)":   1}, ""},
		{"model by name", "model", r2010, map[string]int{"LINE": 1}, map[string]int{
			"LAYOUT Layout1: paper space, left out (import it with layout Layout1)": 1,
			"LAYOUT Sheet2: paper space, left out (import it with layout Sheet2)":   1}, ""},
		{"active layout", "Layout1", r2010, map[string]int{"CIRCLE": 1}, map[string]int{
			"LAYOUT Model: model space, left out (the import is of layout Layout1)": 1,
			"LAYOUT Sheet2: paper space, left out (import it with layout Sheet2)":   1}, ""},
		{"other layout", "sheet2", r2010, map[string]int{"ARC": 1}, map[string]int{
			"LAYOUT Model: model space, left out (the import is of layout sheet2)":  1,
			"LAYOUT Layout1: paper space, left out (import it with layout Layout1)": 1}, ""},
		{"R12 model", "", r12, map[string]int{"LINE": 1}, map[string]int{
			"LAYOUT Layout1: paper space, left out (import it with layout Layout1)": 1}, ""},
		{"R12 layout", "Layout1", r12, map[string]int{"CIRCLE": 1}, map[string]int{
			"LAYOUT Model: model space, left out (the import is of layout Layout1)": 1}, ""},
		{"no such layout", "Sheet9", r2010, nil, nil, `no such layout "Sheet9": the file's layouts are Model, Layout1, Sheet2`},
	} {
		_, rep, err := DXF(c.file, Options{Source: "test.dxf", Layout: c.layout})
		if c.err != "" {
			if err == nil || err.Error() != c.err || !errors.Is(err, ErrLayout) {
				t.Errorf("%s: got %v, want %q (ErrLayout)", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if diff := cmp.Diff(c.kinds, rep.Kinds); diff != "" {
			t.Errorf("%s: kinds mismatch (-want +got):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(c.notes, rep.Notes); diff != "" {
			t.Errorf("%s: notes mismatch (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestHiddenLayers: a layer that is off or frozen comes in as a layer that does not plot,
// with a note naming it and why; a shown layer plots, and a layer the file does not plot stays
// so without a note.
func TestHiddenLayers(t *testing.T) {
	t.Parallel()
	data := ezdxf(t, `
import ezdxf, sys
doc = ezdxf.new('R2010')
msp = doc.modelspace()
doc.layers.add('shown')
doc.layers.add('off').off()
doc.layers.add('frozen').freeze()
l = doc.layers.add('both'); l.off(); l.freeze()
doc.layers.add('noplot').dxf.plot = 0
for i, name in enumerate(['shown', 'off', 'frozen', 'both', 'noplot']):
    msp.add_circle((i * 10, 0), 2, dxfattribs={'layer': name})
doc.saveas(sys.argv[1])
`)
	s, rep, _ := importRun(t, data)
	plots := map[string]bool{}
	for _, l := range s.Layers() {
		plots[l.Name] = l.Plot
	}
	want := map[string]bool{"shown": true, "off": false, "frozen": false, "both": false, "noplot": false}
	if diff := cmp.Diff(want, plots); diff != "" {
		t.Errorf("layers' plot mismatch (-want +got):\n%s", diff)
	}
	notes := map[string]int{
		"LAYER off: off in the file, imported with plot: false (kept, not drawn in pictures)":             1,
		"LAYER frozen: frozen in the file, imported with plot: false (kept, not drawn in pictures)":       1,
		"LAYER both: off and frozen in the file, imported with plot: false (kept, not drawn in pictures)": 1,
	}
	if diff := cmp.Diff(notes, rep.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
}

// TestMTextEmbeddedObject: an MTEXT with columns (an embedded object, group 101 and after)
// stands as its own groups say; the columns' 11 and 21 (here straight up) turned it.
func TestMTextEmbeddedObject(t *testing.T) {
	t.Parallel()
	data := "0\nSECTION\n2\nENTITIES\n0\nMTEXT\n8\n0\n10\n1\n20\n2\n40\n3\n71\n1\n1\nNotes\n" +
		"101\nEmbedded Object\n70\n1\n10\n0\n20\n1\n11\n0\n21\n1\n40\n50\n41\n10\n0\nENDSEC\n0\nEOF\n"
	_, rep, code := importRun(t, []byte(data))
	if strings.Contains(code, "rotate(") {
		t.Errorf("the MTEXT is turned:\n%s", code)
	}
	if diff := cmp.Diff(map[string]int{"MTEXT": 1}, rep.Kinds); diff != "" {
		t.Errorf("kinds mismatch (-want +got):\n%s", diff)
	}
}
