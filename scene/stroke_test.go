package scene

import (
	"errors"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// A stroke's cap, join and miter limit survive scene.json, are left out when round, and a
// document naming a cap or join cadrun does not draw is refused with the allowed values.
func TestStrokeCornersJSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := New()
	must(t, putShape(s, "v", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 5, Y: 10}, {X: 10, Y: 0}}}))
	must(t, putShape(s, "round", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 5, Y: 10}}}))
	must(t, s.SetStrokeCorners("v", "butt", "miter", 2.5))
	must(t, s.SetStrokeCorners("round", "round", "round", 0))
	first, err := s.MarshalJSON()
	must(t, err)
	if !strings.Contains(string(first), `"version":6,`) || !strings.Contains(string(first), `"strokeWidth":0,"cap":"butt","join":"miter","miterLimit":2.5}`) {
		t.Fatalf("a version 6 document with cap, join and miter limit after the stroke width expected, got\n%s", first)
	}
	if strings.Count(string(first), `"cap"`) != 1 {
		t.Fatalf("a round stroke must not name its cap, got\n%s", first)
	}
	back, err := ReadJSON(first)
	must(t, err)
	second, err := back.MarshalJSON()
	must(t, err)
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Fatalf("scene -> JSON -> scene -> JSON changed (-first +second):\n%s", diff)
	}
	checkWriterMatchesReflect(t, s)
	checkReadersAgree(t, first)
	big := strings.Replace(string(first), `"miterLimit":2.5`, `"miterLimit":1000`, 1)
	if _, err := ReadJSON([]byte(big)); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "miter limit 1000 is over 100 (MaxMiterLimit)") {
		t.Errorf("a miter limit of 1000: got %v, want ErrLimit naming MaxMiterLimit", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"cap":"butt"`, `"cap":"flat"`, `stroke cap "flat" is not butt, round or square`},
		{`"join":"miter"`, `"join":"arcs"`, `stroke join "arcs" is not miter, round or bevel`},
		{`"miterLimit":2.5`, `"miterLimit":0.5`, `miter limit must be a number >= 1, got 0.5`},
	} {
		bad := strings.Replace(string(first), tc.from, tc.to, 1)
		_, err := ReadJSON([]byte(bad))
		if !errors.Is(err, ErrBadGeometry) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrBadGeometry saying %q", tc.to, err, tc.want)
		}
	}
}
