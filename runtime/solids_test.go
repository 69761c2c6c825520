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

// TestSectionAPI: section from a script draws a hatchable polygon in the plane's coordinates,
// moved to at, and refuses planes it cannot read and planes that miss, saying why.
func TestSectionAPI(t *testing.T) {
	src := `
drawRoundedRect('outline', 0, 0, 40, 20, 4); drawCircle('hole', 0, 0, 5);
booleanDifference('outline', 'hole', 'profile'); extrude('profile', 6, 'plate');
section('plate', {z: 3}, 'across', {at: [0, 40]}); setHatch('across', 'ansi31');
console.log(Math.abs(getArea('across') - (800 - (4 - Math.PI) * 16 - Math.PI * 25)) < 1e-9);
section('plate', {y: 0}, 'along', {at: [100, 0]});
console.log(JSON.stringify(getEntity('along').world.bounds));
section('plate', {point: [0, 0, 3], normal: [0, 0, 1]}, 'again');
console.log(Math.abs(getArea('again') - getArea('across')) < 1e-9);
`
	res, err := Run(context.Background(), MapSource{"main": src}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"true", `{"min_x":80,"min_y":0,"max_x":120,"max_y":6}`, "true"}
	if strings.Join(res.Logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("console:\n%s\nwant:\n%s", strings.Join(res.Logs, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ src, want string }{
		{"drawBox('b', 0, 0, 0, 2, 2, 2); section('b', {z: 5}, 's')", "the plane misses the solid: its world bounds are x -1 to 1, y -1 to 1, z -1 to 1"},
		{"drawBox('b', 0, 0, 0, 2, 2, 2); section('b', {z: 0, x: 1}, 's')", "plane must be one of {x: c}"},
		{"drawBox('b', 0, 0, 0, 2, 2, 2); section('b', {point: [0, 0, 0], normal: [0, 0, 0]}, 's')", "normal must be a direction"},
		{"drawCircle('c', 0, 0, 1); section('c', {z: 0}, 's')", "section cuts solids"},
	} {
		_, err := Run(context.Background(), MapSource{"main": tc.src}, MainModule, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.src, err, tc.want)
		}
	}
}

// TestProjectAPI: project from a script draws a group of lines and circles moved to at, a
// hidden group with the hidden linetype on request, and a circle dimDiameter takes.
func TestProjectAPI(t *testing.T) {
	src := `
drawBox('plate', 0, 0, 3, 60, 40, 6); drawCylinder('drill', 10, 5, 3, 5, 20);
booleanDifference('plate', 'drill', 'part'); deleteEntity('plate'); deleteEntity('drill');
project('part', 'top', 'top', {at: [0, 100]});
console.log(JSON.stringify(getEntity('top').children));
dimDiameter('d', 'top_circle1');
project('part', 'front', 'front', {hidden: true});
console.log(getEntity('front_hidden').children.length, getEntity('front_hidden').style.linetype);
console.log(JSON.stringify(getEntity('front').world.bounds));
`
	res, err := Run(context.Background(), MapSource{"main": src}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`["top_line1","top_circle1"]`, "2 hidden", `{"min_x":-30,"min_y":0,"max_x":30,"max_y":6}`}
	if strings.Join(res.Logs, "\n") != strings.Join(want, "\n") {
		t.Errorf("console:\n%s\nwant:\n%s", strings.Join(res.Logs, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ src, want string }{
		{"drawBox('b', 0, 0, 0, 2, 2, 2); project('b', 'iso', 'p')", `no view "iso"; use one of front, top, right, back, left, bottom`},
		{"drawCircle('c', 0, 0, 1); project('c', 'top', 'p')", "project draws solids"},
	} {
		_, err := Run(context.Background(), MapSource{"main": tc.src}, MainModule, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.src, err, tc.want)
		}
	}
}
