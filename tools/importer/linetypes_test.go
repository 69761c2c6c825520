package importer

import (
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
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
		{"BORDER", "", 0, false, false}, {"DASHED_Xabc", "", 0, false, false},
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
// linetype DASHED2 at entity scale 3, and one in BORDER, which cadrun does not have.
const linetypeDXF = "0\nSECTION\n2\nTABLES\n0\nTABLE\n2\nLAYER\n0\nLAYER\n2\naxes\n62\n1\n6\nCENTER\n0\nENDTAB\n0\nENDSEC\n" +
	"0\nSECTION\n2\nENTITIES\n" +
	"0\nLINE\n8\naxes\n10\n0\n20\n0\n11\n50\n21\n0\n" +
	"0\nLINE\n8\n0\n6\nDASHED2\n48\n3\n10\n0\n20\n5\n11\n50\n21\n5\n" +
	"0\nLINE\n8\n0\n6\nBORDER\n10\n0\n20\n10\n11\n50\n21\n10\n" +
	"0\nENDSEC\n0\nEOF\n"

// TestLinetypesImported: a layer's linetype goes on its group, an entity's on the entity with
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
	want := map[string][2]any{"axes-line1": {"center", 0.0}, "0-line1": {"dashed", 1.5}, "0-line2": {"", 0.0}}
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
	if n := rep.Notes["LINE: linetype BORDER is not one of cadrun's ("+strings.Join(scene.LinetypeNames(), ", ")+"), drawn continuous"]; n != 1 {
		t.Errorf("notes %v", rep.Notes)
	}
}
