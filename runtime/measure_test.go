package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMeasureFunctions(t *testing.T) {
	t.Parallel()
	src := `drawCircle('a', 0, 0, 2); drawCircle('b', 10, 0, 3)
drawRect('s1', 0, 100, 10, 10); drawRect('s2', 6, 103, 10, 10)
drawLine('wire', [-5, 50, 5, 50])
console.log(JSON.stringify(distance('a', 'b')))
console.log(JSON.stringify(clearance('a', ['wire', 'b'])))
console.log(JSON.stringify(clearance('a').map(g => g.name)))
console.log(JSON.stringify(overlaps('s1')))
console.log(perimeter('s1'), perimeter('wire'))
console.log(JSON.stringify(centroid('s1')), JSON.stringify(centroid('wire')))
console.log(JSON.stringify(overlaps('a')), overlaps('a').length, JSON.stringify(clearance('a', [])))`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"distance":5,"a":[2,0],"b":[7,0]}`,
		`[{"name":"b","distance":5,"a":[2,0],"b":[7,0]},{"name":"wire","distance":48,"a":[0,2],"b":[0,50]}]`,
		`["b","wire","s1","s2"]`,
		`[{"name":"s2","area":28}]`,
		"40 10",
		"[0,100] [0,50]",
		// Nothing overlaps: an empty list, not null (whose .length threw); an empty list of
		// others measures against none, not against everything.
		"[] 0 []",
	}
	if diff := cmp.Diff(want, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	_, err = runMain(t, "drawLine('w', [0, 0, 1, 0]); overlaps('w')", Limits{})
	if err == nil {
		t.Fatal("overlaps of a line: no error")
	}
	if got, want := err.Error(), `scene.code.js:1:30: Error: overlaps: overlaps of "w": the result would be empty: it encloses no area; use clearance for open shapes`; got != want {
		t.Errorf("overlaps of a line:\n got %s\nwant %s", got, want)
	}
}

// TestBoundaryDistanceOption: distance's options measure a hole inside a panel by its edge
// and by its centre, where the regions alone answer 0.
func TestBoundaryDistanceOption(t *testing.T) {
	t.Parallel()
	src := `drawRect('panel', 50, 30, 100, 60); drawCircle('hole', 10, 12, 5)
console.log(JSON.stringify(distance('hole', 'panel')))
console.log(JSON.stringify(distance('hole', 'panel', {boundary: true})))
console.log(JSON.stringify(distance('hole', 'panel', {from: 'center'})))
console.log(JSON.stringify(distance('hole', 'panel', {boundary: true, from: 'edge'})))`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"distance":0,"a":[15,12],"b":[15,12]}`,
		`{"distance":5,"a":[5,12],"b":[0,12]}`,
		`{"distance":10,"a":[10,12],"b":[0,12]}`,
		`{"distance":5,"a":[5,12],"b":[0,12]}`,
	}
	if diff := cmp.Diff(want, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	for _, tt := range []struct{ src, want string }{
		{`drawRect('p', 0, 0, 10, 10); drawCircle('h', 0, 0, 1); distance('h', 'p', {from: 'middle'})`,
			`scene.code.js:1:56: Error: distance: bad option: unknown distance from "middle"; use "edge" (the outline) or "center" (the centre)`},
		{`drawRect('p', 0, 0, 10, 10); drawCircle('h', 0, 0, 1); distance('h', 'p', {boundry: true})`,
			`scene.code.js:1:56: TypeError: distance: unknown option "boundry"; use boundary, from`},
	} {
		_, err := runMain(t, tt.src, Limits{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}
