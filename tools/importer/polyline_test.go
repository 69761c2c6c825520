package importer

import (
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestClosedTwoVertexPolyline: a closed straight LWPOLYLINE or POLYLINE of two vertices (as
// LibreCAD's parts library has, e.g. elektro/power/pe7.dxf) runs there and back along one
// segment; it is drawn as that line, as CAD programs and ezdxf draw it, not skipped.
func TestClosedTwoVertexPolyline(t *testing.T) {
	t.Parallel()
	lw := "0\nLWPOLYLINE\n8\nA\n90\n2\n70\n1\n10\n0\n20\n0\n10\n0\n20\n5\n"
	pl := "0\nPOLYLINE\n8\nB\n66\n1\n70\n1\n0\nVERTEX\n10\n1\n20\n0\n0\nVERTEX\n10\n1\n20\n7\n0\nSEQEND\n"
	file := "0\nSECTION\n2\nENTITIES\n" + lw + pl + "0\nENDSEC\n0\nEOF\n"
	s, rep, code := importRun(t, []byte(file))
	if len(rep.Skipped) != 0 || !strings.Contains(code, "drawLine('A-lwpolyline1', [0, 0, 0, 5]);") {
		t.Errorf("skipped %v\n%s", rep.Skipped, code)
	}
	layers := layerBounds(s)
	for name, want := range map[string]geom.Box{
		"A": {Min: geom.Vec{X: 0, Y: 0}, Max: geom.Vec{X: 0, Y: 5}, NonEmpty: true},
		"B": {Min: geom.Vec{X: 1, Y: 0}, Max: geom.Vec{X: 1, Y: 7}, NonEmpty: true},
	} {
		if got := layers[name]; boxOff(got, want) > 1e-12 {
			t.Errorf("%s: bounds %v, want %v", name, got, want)
		}
	}
}
