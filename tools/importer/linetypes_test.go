package importer

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
)

func TestLinetypeOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in       string
		base     string
		scale    float64
		ok       bool
		unscaled bool
	}{
		{"CONTINUOUS", "", 1, true, false}, {"ByLayer", "", 1, true, false}, {"", "", 1, true, false},
		{"DASHED", "dashed", 1, true, false}, {"hidden2", "hidden", 0.5, true, false}, {"CENTERX2", "center", 2, true, false},
		{"DASHED_X0_5", "dashed", 0.5, true, false}, {"PHANTOM", "phantom", 1, true, false}, {"DOT", "dot", 1, true, false},
		{"ZIGZAG", "", 0, false, false}, {"DASHED_Xabc", "", 0, false, false},
		// A pattern cadrun lacks: its nearest, with the variant's scale.
		{"DASHDOT", "center", 1, true, false}, {"BORDER2", "center", 0.5, true, false}, {"DIVIDEX2", "phantom", 2, true, false},
		{"ACAD_ISO10W100", "center", 1, true, false},
		// A scale that is a number but not a finite positive one: the linetype, unscaled.
		{"DASHED_Xinf", "dashed", 1, true, true}, {"DASHED_XNaN", "dashed", 1, true, true}, {"DASHED_X0", "dashed", 1, true, true},
		{"DASHED_X-2", "dashed", 1, true, true}, {"DASHED_X1e999", "dashed", 1, true, true}, {"DASHED_X1e16", "dashed", 1, true, true},
	} {
		base, scale, ok, unscaled := linetypeOf(c.in)
		if base != c.base || scale != c.scale || ok != c.ok || unscaled != c.unscaled {
			t.Errorf("%q: %q %v %v %v, want %q %v %v %v", c.in, base, scale, ok, unscaled, c.base, c.scale, c.ok, c.unscaled)
		}
	}
}

// linetypeDXF has a layer "axes" whose linetype is CENTER, a line on it, a line of its own
// linetype DASHED2 at entity scale 3, one in ZIGZAG, which cadrun has nothing like, and one
// in DASHDOT, which it draws as center.
const linetypeDXF = "0\nSECTION\n2\nTABLES\n0\nTABLE\n2\nLAYER\n0\nLAYER\n2\naxes\n62\n1\n6\nCENTER\n0\nENDTAB\n0\nENDSEC\n" +
	"0\nSECTION\n2\nENTITIES\n" +
	"0\nLINE\n8\naxes\n10\n0\n20\n0\n11\n50\n21\n0\n" +
	"0\nLINE\n8\n0\n6\nDASHED2\n48\n3\n10\n0\n20\n5\n11\n50\n21\n5\n" +
	"0\nLINE\n8\n0\n6\nZIGZAG\n10\n0\n20\n10\n11\n50\n21\n10\n" +
	"0\nLINE\n8\n0\n6\nDASHDOT\n10\n0\n20\n15\n11\n50\n21\n15\n" +
	"0\nENDSEC\n0\nEOF\n"

// TestLinetypesImported: a layer's linetype goes on the layer, an entity's on the entity with
// the variant's scale times its own, and one cadrun does not have is drawn continuous and
// noted.
func TestLinetypesImported(t *testing.T) {
	t.Parallel()
	code, rep, err := Import("dxf", []byte(linetypeDXF), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := runModule(code)
	if err != nil {
		t.Fatalf("%v\n%s", err, code)
	}
	want := map[string][2]any{"axes-line1": {"center", 0.0}, "0-line1": {"dashed", 1.5}, "0-line2": {"", 0.0}, "0-line3": {"center", 0.0}}
	for name, w := range want {
		e, err := s.Get(name)
		if err != nil {
			t.Fatalf("%v\n%s", err, code)
		}
		st := s.Drawn(e).Style
		if st.Linetype != w[0] || st.LinetypeScale != w[1] {
			t.Errorf("%s: linetype %q at %v, want %q at %v\n%s", name, st.Linetype, st.LinetypeScale, w[0], w[1], code)
		}
	}
	wantNotes := map[string]int{
		"LINE: linetype ZIGZAG is not one of cadrun's (" + strings.Join(drafting.LinetypeNames(), ", ") + "), drawn continuous": 1,
		"LINE: linetype DASHDOT is not one of cadrun's, drawn as its nearest, center":                                           1,
	}
	if diff := cmp.Diff(wantNotes, rep.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
}

// layersDXF has a layer table (walls red and not plotted, axes DIVIDE2, which cadrun lacks),
// a block whose circle is on layer 0 and whose line is on walls, an insert of it on axes, and
// a line on walls.
const layersDXF = "0\nSECTION\n2\nTABLES\n0\nTABLE\n2\nLAYER\n" +
	"0\nLAYER\n2\nwalls\n62\n1\n290\n0\n" +
	"0\nLAYER\n2\naxes\n62\n5\n6\nDIVIDE2\n" +
	"0\nENDTAB\n0\nENDSEC\n" +
	"0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB\n0\nCIRCLE\n8\n0\n40\n1\n0\nLINE\n8\nwalls\n11\n1\n0\nENDBLK\n0\nENDSEC\n" +
	"0\nSECTION\n2\nENTITIES\n0\nINSERT\n8\naxes\n2\nB\n0\nLINE\n8\nwalls\n10\n5\n11\n9\n0\nENDSEC\n0\nEOF\n"

// TestLayersAreLayers: DXF layers become the scene's layers, with their colour, linetype (the
// nearest one for a pattern cadrun lacks, noted) and plot flag, and each entity is on its
// layer; a block's entities on layer 0 take the insert's, as in CAD. Groups are only blocks.
func TestLayersAreLayers(t *testing.T) {
	t.Parallel()
	code, rep, err := Import("dxf", []byte(layersDXF), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := runModule(code)
	if err != nil {
		t.Fatalf("%v\n%s", err, code)
	}
	red, blue := scene.Color{1, 0, 0, 1}, scene.Color{0, 0, 1, 1}
	wantLayers := []scene.Layer{{Name: "axes", Color: &blue, Linetype: "phantom", Plot: true}, {Name: "walls", Color: &red, Plot: false}}
	if diff := cmp.Diff(wantLayers, s.Layers()); diff != "" {
		t.Errorf("layers mismatch (-want +got):\n%s\n%s", diff, code)
	}
	got := map[string]string{}
	for _, e := range s.Walk() {
		kind := "shape"
		if e.IsGroup() {
			kind = "group"
		}
		got[e.Name] = kind + " on " + s.Drawn(e).Style.Layer
	}
	want := map[string]string{"axes-insert1": "group on axes", "axes-insert1-1": "shape on axes", "axes-insert1-2": "shape on walls", "walls-line1": "shape on walls"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entities mismatch (-want +got):\n%s\n%s", diff, code)
	}
	wantNotes := map[string]int{
		"LAYER: linetype DIVIDE2 is not one of cadrun's, drawn as its nearest, phantom":                1,
		"LAYER: linetype DIVIDE2: a layer's linetype has no scale in cadrun, drawn phantom at scale 1": 1,
	}
	if diff := cmp.Diff(wantNotes, rep.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
}

func TestExportName(t *testing.T) {
	t.Parallel()
	got := map[string]string{}
	for _, m := range []string{"logo", "t-part", "Part_1", "0-plate", "drawCircle", "delete", "parseInt", "_", "a__b--c"} {
		got[m] = ExportName(m)
	}
	want := map[string]string{"logo": "logo", "t-part": "tPart", "Part_1": "part1", "0-plate": "imported0Plate",
		"drawCircle": "importedDrawCircle", "delete": "importedDelete", "parseInt": "importedParseInt", "_": "imported", "a__b--c": "aBC"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("export names mismatch (-want +got):\n%s", diff)
	}
}
