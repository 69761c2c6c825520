package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const measureMain = `drawCircle('c1', 0, 0, 2); drawCircle('c2', 10, 0, 3)
drawRect('outer', 100, 0, 40, 20); drawRect('inner', 105, 0, 10, 4)
drawRect('sq1', 0, 100, 10, 10); drawRect('sq2', 6, 103, 10, 10)
drawRect('a', 5, 0, 2, 2); drawCircle('b', 10, 0, 1); createGroup('g', ['a', 'b']); rotate('g', Math.PI / 2)
drawLine('wire', [-5, 50, 5, 50])
`

func TestMeasureTool(t *testing.T) {
	s, _ := newSession(t, map[string]string{"scene.code.js": measureMain})
	tests := []struct {
		in   string
		want string
	}{
		{`{"op":"distance","name":"c1","to":"c2"}`, `{"op":"distance","gap":{"distance":5,"a":[2,0],"b":[7,0]}}`},
		{`{"op":"distance","name":"inner","to":"outer"}`, `{"op":"distance","gap":{"distance":0,"a":[100,-2],"b":[100,-2]}}`},
		{`{"op":"distance","name":"c1","point":[0,5]}`, `{"op":"distance","gap":{"distance":3,"a":[0,2],"b":[0,5]}}`},
		{`{"op":"distance","point":[0,0,3,4]}`, `{"op":"distance","gap":{"distance":5,"a":[0,0],"b":[3,4]}}`},
		// The group turned a quarter: b is now at (0, 10), radius 1.
		{`{"op":"distance","name":"wire","to":"g"}`, `{"op":"distance","gap":{"distance":39,"a":[0,50],"b":[0,11]}}`},
		{`{"op":"clearance","name":"c1","limit":2}`, `{"op":"clearance","gaps":[{"name":"a","distance":2,"a":[0,2],"b":[0,4]},{"name":"c2","distance":5,"a":[2,0],"b":[7,0]}],"count":8,"note":"the 2 nearest of 8 shapes; limit lists more (at most 100)"}`},
		{`{"op":"clearance","name":"c1","others":["wire"]}`, `{"op":"clearance","gaps":[{"name":"wire","distance":48,"a":[0,2],"b":[0,50]}],"count":1}`},
		{`{"op":"overlaps","name":"sq1"}`, `{"op":"overlaps","overlaps":[{"name":"sq2","area":28}],"count":1}`},
		{`{"op":"overlaps","name":"c2"}`, `{"op":"overlaps","count":0}`},
		{`{"op":"bounds","name":"g"}`, `{"op":"bounds","bounds":[-1,4,1,11]}`},
		{`{"op":"area","name":"outer"}`, `{"op":"area","area":800}`},
		{`{"op":"perimeter","name":"sq1"}`, `{"op":"perimeter","perimeter":40}`},
		{`{"op":"perimeter","name":"c2"}`, `{"op":"perimeter","perimeter":18.849556}`},
		{`{"op":"centroid","name":"a"}`, `{"op":"centroid","centroid":[0,5]}`},
	}
	for _, tt := range tests {
		out, err := s.Call(t.Context(), "measure", json.RawMessage(tt.in))
		if err != nil {
			t.Errorf("measure %s: %v", tt.in, err)
			continue
		}
		got, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("measure %s mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestMeasureRoundsToWhatItMeasures: in a scene 2e6 wide, the figures of small parts keep
// their own digits; rounded to a millionth of the scene, every one of them came out 0, 1 or 6.
func TestMeasureRoundsToWhatItMeasures(t *testing.T) {
	s, _ := newSession(t, map[string]string{"scene.code.js": `drawRect('big', 0, 0, 2e6, 10)
drawCircle('p', 0, 100, 1); drawCircle('q', 2.4, 100, 1)
drawRect('r', 0, 200, 1, 1); drawRect('t', 1.3, 200, 1, 1)
`})
	tests := []struct{ in, want string }{
		{`{"op":"distance","name":"p","to":"q"}`, `{"op":"distance","gap":{"distance":0.4,"a":[1,100],"b":[1.4,100]}}`},
		{`{"op":"distance","name":"r","to":"t"}`, `{"op":"distance","gap":{"distance":0.3,"a":[0.5,199.5],"b":[0.8,199.5]}}`},
		{`{"op":"perimeter","name":"p"}`, `{"op":"perimeter","perimeter":6.283185}`},
		{`{"op":"centroid","name":"t"}`, `{"op":"centroid","centroid":[1.3,200]}`},
		{`{"op":"distance","point":[0,0,0.3,0.4]}`, `{"op":"distance","gap":{"distance":0.5,"a":[0,0],"b":[0.3,0.4]}}`},
		{`{"op":"bounds","name":"big"}`, `{"op":"bounds","bounds":[-1000000,-5,1000000,5]}`},
	}
	for _, tt := range tests {
		out, err := s.Call(t.Context(), "measure", json.RawMessage(tt.in))
		if err != nil {
			t.Errorf("measure %s: %v", tt.in, err)
			continue
		}
		got, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("measure %s mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestMeasureToolErrors(t *testing.T) {
	s, _ := newSession(t, map[string]string{"scene.code.js": measureMain})
	tests := []struct{ in, want string }{
		{`{"op":"mass","name":"c1"}`, `bad input: unknown measure op "mass"; use distance, clearance, overlaps, bounds, area, perimeter, centroid, volume, surfaceArea`},
		{`{"op":"area"}`, `bad input: measure area needs name, the entity to measure`},
		{`{"op":"distance","name":"c1"}`, `bad input: measure distance takes name and to (two entities), name and point [x, y], or point [x1, y1, x2, y2] alone`},
		{`{"op":"distance","name":"c1","to":"c9"}`, `no such entity: "c9"`},
		{`{"op":"clearance","name":"c1","limit":500}`, `bad input: limit 500 is out of range; give 1 to 100`},
		{`{"op":"distance","point":[0,0,1e16,0]}`, `bad input: point coordinate 1e+16 is outside the supported range -1e+15..1e+15 (MaxCoord); measure in larger units`},
		{`{"op":"overlaps","name":"wire"}`, `overlaps of "wire": the result would be empty: it encloses no area; use clearance for open shapes`},
	}
	for _, tt := range tests {
		_, err := s.Call(t.Context(), "measure", json.RawMessage(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("measure %s: got %v, want %q", tt.in, err, tt.want)
		}
	}
}

// Clearance on a large scene answers the capped list, and small.
func TestMeasureToolLargeScene(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "drawRect('r%d', %d, %d, 1, 1)\n", i, (i%50)*3, (i/50)*3)
	}
	s, _ := newSession(t, map[string]string{"scene.code.js": b.String()})
	out, err := s.Call(t.Context(), "measure", json.RawMessage(`{"op":"clearance","name":"r0"}`))
	if err != nil {
		t.Fatal(err)
	}
	m := out.(MeasureOut)
	if len(m.Gaps) != 10 || *m.Count != 1999 || m.Gaps[0].Distance != 2 {
		t.Errorf("clearance on 2000 shapes: %d gaps of %d, nearest %v", len(m.Gaps), *m.Count, m.Gaps[0])
	}
	raw, _ := json.Marshal(out)
	if len(raw) > 1500 {
		t.Errorf("clearance answer is %d bytes, want at most 1500", len(raw))
	}
}

// TestMeasureSolids: the measure tool on solids, over the last good scene: closed-form
// volumes, a boolean's measured on its mesh and said so, gaps and shared volumes by the kernel.
func TestMeasureSolids(t *testing.T) {
	s, _ := newSession(t, map[string]string{"scene.code.js": `drawBox('a', 0, 0, 0, 10, 10, 10)
drawBox('b', 8, 0, 0, 10, 10, 10)
drawBox('far', 0, 0, 30, 10, 10, 10)
booleanDifference('a', 'b', 'cut')
drawCircle('disc', 50, 0, 1)
`})
	tests := []struct {
		in   string
		want string
	}{
		{`{"op":"volume","name":"a"}`, `{"op":"volume","volume":1000}`},
		{`{"op":"surfaceArea","name":"a"}`, `{"op":"surfaceArea","surfaceArea":600}`},
		{`{"op":"volume","name":"cut"}`, `{"op":"volume","volume":800,"note":"measured on the mesh (a 3D boolean's result, or a placement that is not a similarity): the facets' volume, not the curved solid's"}`},
		{`{"op":"bounds","name":"far"}`, `{"op":"bounds","bounds":[-5,-5,5,5],"bounds3":[-5,-5,25,5,5,35]}`},
		{`{"op":"distance","name":"a","to":"far"}`, `{"op":"distance","gap":{"distance":20,"a":[-5,-5,5],"b":[-5,-5,25]}}`},
		{`{"op":"overlaps","name":"a"}`, `{"op":"overlaps","overlaps":[{"name":"cut","volume":800},{"name":"b","volume":200}],"count":2}`},
		{`{"op":"clearance","name":"far","others":["a"]}`, `{"op":"clearance","gaps":[{"name":"a","distance":20,"a":null,"b":null}],"count":1}`},
	}
	for _, tt := range tests {
		out, err := s.Call(t.Context(), "measure", json.RawMessage(tt.in))
		if err != nil {
			t.Errorf("measure %s: %v", tt.in, err)
			continue
		}
		got, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("measure %s mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
	for in, want := range map[string]string{
		`{"op":"volume","name":"disc"}`:            "not a solid",
		`{"op":"distance","name":"disc","to":"a"}`: "two solids or two 2D shapes",
		`{"op":"area","name":"a"}`:                 "is a solid",
	} {
		if _, err := s.Call(t.Context(), "measure", json.RawMessage(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("measure %s: %v, want %q", in, err, want)
		}
	}
}

// TestMeasureBoundary: a hole inside a panel is at 0 from it as regions meet; boundary
// measures the material between their edges, and from center the hole's centre to the edge.
func TestMeasureBoundary(t *testing.T) {
	s, _ := newSession(t, map[string]string{"scene.code.js": `drawRect('panel', 50, 30, 100, 60); drawCircle('hole', 10, 12, 5)
drawCircle('ring', 200, 0, 60); drawCircle('bore', 203, 4, 5)
`})
	tests := []struct{ in, want string }{
		{`{"op":"distance","name":"hole","to":"panel"}`, `{"op":"distance","gap":{"distance":0,"a":[15,12],"b":[15,12]}}`},
		{`{"op":"distance","name":"hole","to":"panel","boundary":true}`, `{"op":"distance","gap":{"distance":5,"a":[5,12],"b":[0,12]}}`},
		{`{"op":"distance","name":"hole","to":"panel","from":"center"}`, `{"op":"distance","gap":{"distance":10,"a":[10,12],"b":[0,12]}}`},
		{`{"op":"distance","name":"bore","to":"ring","boundary":true}`, `{"op":"distance","gap":{"distance":50,"a":[206,8],"b":[236,48]}}`},
		{`{"op":"distance","name":"panel","point":[20,10],"boundary":true}`, `{"op":"distance","gap":{"distance":10,"a":[20,0],"b":[20,10]}}`},
	}
	for _, tt := range tests {
		out, err := s.Call(t.Context(), "measure", json.RawMessage(tt.in))
		if err != nil {
			t.Errorf("measure %s: %v", tt.in, err)
			continue
		}
		got, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(got)); diff != "" {
			t.Errorf("measure %s mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
	errs := []struct{ in, want string }{
		{`{"op":"distance","name":"hole","to":"panel","from":"middle"}`, `bad option: unknown distance from "middle"; use "edge" (the outline) or "center" (the centre)`},
		{`{"op":"clearance","name":"hole","boundary":true}`, `bad input: boundary and from are options of distance between an entity and another or a point; leave them out of clearance`},
	}
	for _, tt := range errs {
		_, err := s.Call(t.Context(), "measure", json.RawMessage(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("measure %s: got %v, want %q", tt.in, err, tt.want)
		}
	}
}
