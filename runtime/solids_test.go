package runtime

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestSolidAPI runs the solid functions from a script: closed forms through extrude, revolve
// and the primitives, a boolean measured on its mesh, the transforms with a z, and the
// refusals that name what to do.
func TestSolidAPI(t *testing.T) {
	src := `
drawRoundedRect('outline', 0, 0, 60, 30, 5);
drawCircle('hole', 0, 0, 6);
booleanDifference('outline', 'hole', 'plate');
extrude('plate', 8, 'block');
console.log(volume('block') - 8 * (60 * 30 - (4 - Math.PI) * 25 - Math.PI * 36));
drawRect('section', 12, 0, 4, 10); revolve('section', 'ring');
console.log(volume('ring') - 40 * 2 * Math.PI * 12);
drawBox('box', 0, 0, 0, 2, 3, 4); console.log(volume('box'), surfaceArea('box'));
drawCylinder('pin', 20, 0, 4, 3, 20, {segments: 16});
booleanDifference('block', 'pin', 'part');
const e = getEntity('part');
console.log(e.kind, e.solid.volumeExact, e.solid.triangles > 0);
translate('box', 1, 2, 3);
console.log(JSON.stringify(getEntity('box').solid.bounds));
rotate('box', Math.PI / 2, {axis: 'x'});
console.log(JSON.stringify(getEntity('box').solid.bounds.max.map(v => Math.round(v * 1e6) / 1e6)));
scale('box', 1, 1, 2);
console.log(volume('box'));
mirror('box', 'box2', 'z');
console.log(volume('box2'));
console.log(distance('box', 'ring').distance >= 0);
`
	res, err := Run(context.Background(), MapSource{"main": src}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := res.Logs
	want := []string{"0", "0", "24 52", "solid false true",
		`{"min":[0,0.5,1],"max":[2,3.5,5]}`, "[2,4,4.5]", "48", "48", "true"}
	if len(lines) != len(want) {
		t.Fatalf("console:\n%s", strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if i < 2 {
			if f, err := strconv.ParseFloat(lines[i], 64); err != nil || math.Abs(f) > 1e-9 {
				t.Errorf("line %d: closed form off by %s", i, lines[i])
			}
			continue
		}
		if lines[i] != w {
			t.Errorf("line %d: %s, want %s", i, lines[i], w)
		}
	}
}

func TestSolidRefusals(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"drawBox('b', 0, 0, 0, 1, 1, 1); drawCircle('c', 0, 0, 1); booleanUnion('b', 'c', 'u')", "extrude the 2D shapes first"},
		{"drawCircle('c', 0, 0, 1); revolve('c', 'r')", "x >= 0"},
		{"drawSphere('s', 0, 0, 0, 1, {segments: 1e9})", "MaxSegments"},
		{"drawLine('l', [0, 0, 1, 1]); extrude('l', 1, 's')", "closed"},
		{"drawCircle('c', 0, 0, 1); translate('c', 0, 0, 1)", "plane z = 0"},
		{"drawBox('b', 0, 0, 0, 1, 1, 1); getArea('b')", "solid"},
		{"drawCircle('c', 0, 0, 1); volume('c')", "not a solid"},
		{"drawRect('r', 0, 0, 1, 1); extrude('r', -1, 's')", "height must be"},
	} {
		_, err := Run(context.Background(), MapSource{"main": tc.src}, MainModule, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.src, err, tc.want)
		}
	}
}
