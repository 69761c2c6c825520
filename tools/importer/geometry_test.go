package importer

// Valid geometry that was skipped: each case is drawn, with the box CAD programs give it.

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidGeometryDrawn(t *testing.T) {
	t.Parallel()
	vertex := func(x, y, z float64, more string) string {
		return "0\nVERTEX\n8\nL\n10\n" + fmtNum(x) + "\n20\n" + fmtNum(y) + "\n30\n" + fmtNum(z) + "\n" + more
	}
	for _, c := range []struct {
		name, body string
		entity     string     // the entity drawn
		box        [4]float64 // its world box, the stroke's width left out
		width      float64    // its stroke width
		code       string     // in the module
		notes      map[string]int
	}{
		{name: "spline with a normal of 0,0,0", body: splineDXF(4, 3) + "210\n0\n220\n0\n230\n0\n",
			entity: "L-spline1", box: [4]float64{1, 1000.0 / 3, 2, 2000.0 / 3}}, // a uniform cubic: its middle piece
		{name: "flat 3D polyline", body: "0\nPOLYLINE\n8\nL\n66\n1\n70\n8\n" + vertex(0, 0, 0, "70\n32\n") + vertex(10, 0, 0, "70\n32\n") + vertex(10, 5, 0, "70\n32\n") + "0\nSEQEND\n",
			entity: "L-polyline1", box: [4]float64{0, 0, 10, 5}, code: "drawLine('L-polyline1', [0, 0, 10, 0, 10, 5]);"},
		{name: "ellipse with ratio 2", body: "0\nELLIPSE\n8\nL\n10\n1\n20\n2\n11\n5\n21\n0\n40\n2\n",
			entity: "L-ellipse1", box: [4]float64{-4, -8, 6, 12}},
		{name: "half an ellipse with ratio 2", body: "0\nELLIPSE\n8\nL\n10\n0\n20\n0\n11\n5\n21\n0\n40\n2\n41\n0\n42\n3.141592653589793\n",
			entity: "L-ellipse1", box: [4]float64{-5, 0, 5, 10}},
		{name: "lwpolyline of constant width", body: "0\nLWPOLYLINE\n8\nL\n90\n2\n43\n0.5\n10\n0\n20\n0\n10\n10\n20\n0\n",
			entity: "L-lwpolyline1", box: [4]float64{0, 0, 10, 0}, width: 0.5, code: "setStroke('L-lwpolyline1', [0, 0, 0, 1], 0.5);"},
		{name: "polyline of varying width", body: "0\nPOLYLINE\n8\nL\n66\n1\n40\n1\n41\n1\n" + vertex(0, 0, 0, "40\n1\n41\n3\n") + vertex(10, 0, 0, "") + "0\nSEQEND\n",
			entity: "L-polyline1", box: [4]float64{0, 0, 10, 0}, width: 3,
			notes: map[string]int{"POLYLINE: a width that varies along it, drawn as its widest": 1}},
	} {
		s, rep, code := importRun(t, entitiesDXF(c.body))
		if len(rep.Skipped) != 0 {
			t.Errorf("%s: skipped %v", c.name, rep.Skipped)
			continue
		}
		if diff := cmp.Diff(c.notes, rep.Notes); diff != "" {
			t.Errorf("%s: notes mismatch (-want +got):\n%s", c.name, diff)
		}
		if !strings.Contains(code, c.code) {
			t.Errorf("%s: no %s in\n%s", c.name, c.code, code)
		}
		e, err := s.Get(c.entity)
		if err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, code)
			continue
		}
		b := outline(t, s, c.entity).Bounds()
		got := [4]float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}
		for i := range got {
			if math.Abs(got[i]-c.box[i]) > 1e-6 {
				t.Errorf("%s: box %v, want %v\n%s", c.name, got, c.box, code)
				break
			}
		}
		if e.Style.StrokeWidth != c.width {
			t.Errorf("%s: stroke width %g, want %g", c.name, e.Style.StrokeWidth, c.width)
		}
	}
}

// TestReadPastTheEnd: a file without its 0 EOF and a block without a name import, and the
// report says so.
func TestReadPastTheEnd(t *testing.T) {
	t.Parallel()
	file := "0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n10\n0\n20\n0\n0\nCIRCLE\n40\n1\n0\nENDBLK\n0\nENDSEC\n" +
		"0\nSECTION\n2\nENTITIES\n0\nINSERT\n8\n0\n2\nUNNAMED\n0\nCIRCLE\n8\n0\n40\n2\n0\nENDSEC\n"
	_, rep, _ := importRun(t, []byte(file))
	want := map[string]int{
		"BLOCK: a block without a name (group 2, line 5), named UNNAMED":          1,
		"FILE: ends at line 36 without 0 EOF (is it truncated?): read to its end": 1,
	}
	if diff := cmp.Diff(want, rep.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
	if rep.Kinds["INSERT"] != 1 || rep.Kinds["CIRCLE"] != 2 {
		t.Errorf("report %+v", rep)
	}
}
