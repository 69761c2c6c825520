package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFilletAndChamfer runs fillet and chamfer from a script: in place and to a result, with
// the corners listed, and the refusals a script sees.
func TestFilletAndChamfer(t *testing.T) {
	t.Parallel()
	src := `drawRect('sq', 0, 0, 10, 10); fillet('sq', 2)
console.log(getEntity('sq').kind, (getArea('sq') - (100 - (4 - Math.PI) * 4)).toFixed(12), (perimeter('sq') - (24 + 4 * Math.PI)).toFixed(12))
drawRect('r', 0, 0, 10, 10); chamfer('r', 1, {corners: [0, 2], result: 'r_cut'})
console.log(getEntity('r').kind, getEntity('r_cut').kind, getArea('r_cut'))`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"polygon 0.000000000000 0.000000000000", "rect polygon 99"}
	if diff := cmp.Diff(want, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	for _, c := range []struct{ src, want string }{
		{"drawRect('p', 0, 0, 10, 4); fillet('p', 3)",
			`scene.code.js:1:29: Error: fillet: bad geometry: fillet radius 3 is too large for corner 0 of "p": the largest that fits there is 2 (a cut may use half of an edge it shares with another, all of one it has to itself); use a smaller radius or fewer corners`},
		{"drawRect('p', 0, 0, 10, 4); chamfer('p', 1, {corners: [4]})",
			`scene.code.js:1:29: Error: chamfer: bad option: "p" has no corner 4; its corners are 0..3, numbered across its rings (outer ring, its holes, then the next part)`},
		{"drawRect('p', 0, 0, 10, 4); fillet('p', 1, {corners: [1.5]})",
			"scene.code.js:1:29: TypeError: fillet: option corners[0] must be a whole number, got 1.5"},
		{"drawRect('p', 0, 0, 10, 4); fillet('p', 1, {corners: []})",
			"scene.code.js:1:29: RangeError: fillet: option corners is empty; leave it out to take every one"},
		{"drawRect('p', 0, 0, 10, 4); fillet('p', 1, {radius: 2})",
			`scene.code.js:1:29: TypeError: fillet: unknown option "radius"; use corners, result`},
	} {
		_, err := runMain(t, c.src, Limits{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.src, err, c.want)
		}
	}
}
