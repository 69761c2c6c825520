package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestAnglePastAWholeTurn: an angle in radians past a whole turn, most often degrees given
// where radians go, is drawn as asked and noted once per place in the script, naming the
// call, the place and how to write degrees.
func TestAnglePastAWholeTurn(t *testing.T) {
	t.Parallel()
	src := `drawCircle('bore', 0, 0, 10)
dimDiameter('d', 'bore', {angle: 45})
drawRect('r', 0, 0, 10, 4); rotate('r', 90)
for (let i = 0; i < 3; i++) rotate('r', 180)
rotate('r', Math.PI); rotate('r', -2 * Math.PI)
setHatch('r', 'ansi31', {angle: 30})
drawArc('a', 0, 0, 5, 0, 1.5 * Math.PI)`
	res, err := Run(context.Background(), MapSource{MainModule: src}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"dimDiameter (scene.code.js:2:1): option angle 45 is in radians, more than a whole turn (2π is 6.283); for 45° write 45 * Math.PI / 180",
		"rotate (scene.code.js:3:29): angle 90 is in radians, more than a whole turn (2π is 6.283); for 90° write 90 * Math.PI / 180",
		"rotate (scene.code.js:4:29): angle 180 is in radians, more than a whole turn (2π is 6.283); for 180° write 180 * Math.PI / 180",
		"setHatch (scene.code.js:6:1): option angle 30 is in radians, more than a whole turn (2π is 6.283); for 30° write 30 * Math.PI / 180",
	}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	d, _ := res.Scene.Get("d")
	if got := d.Shape.(*scene.Dimension).Angle; got != 45 {
		t.Errorf("the dimension's angle is %v, want 45 as given", got)
	}
}

// TestAngleUnitsInSignatures: every signature that takes an angle says its unit, in the
// argument and in an option, where an error or the reference shows it.
func TestAngleUnitsInSignatures(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"rotate":      "rotate(name: string, angle: number /* radians */, options?: {space?: 'world' | 'local', axis?: 'x' | 'y' | 'z' | [number, number, number]}): boolean",
		"drawArc":     "drawArc(name: string, cx: number, cy: number, radius: number, startAngle: number /* radians */, endAngle: number /* radians */): boolean",
		"dimDiameter": "dimDiameter(name: string, circle: string, options?: {angle?: number /* radians */, outside?: boolean, text?: string, precision?: number, units?: string, size?: number, textAt?: [number, number], color?: number[], layer?: string}): boolean",
		"setHatch":    "setHatch(name: string, pattern: 'solid' | 'ansi31' | 'ansi37' | 'dots' | 'none', options?: {angle?: number /* radians */, scale?: number, color?: number[]}): boolean",
		"revolve":     "revolve(name: string, result: string, options?: {angle?: number /* radians */, segments?: number, tolerance?: number}): boolean",
	}
	for name, sig := range want {
		f, ok := Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		if got := f.Signature(); got != sig {
			t.Errorf("%s:\n got %s\nwant %s", name, got, sig)
		}
	}
	for _, f := range API() {
		for _, p := range f.Params {
			if strings.Contains(strings.ToLower(p.Name), "angle") && p.Unit == "" || strings.Contains(p.Type, "angle?: number,") {
				t.Errorf("%s: parameter %s takes an angle without saying its unit", f.Name, p.Name)
			}
		}
	}
}

// TestDimensionTextAtOption: textAt on a dimension sets its text's middle; a value that is
// not one point is refused naming the option.
func TestDimensionTextAtOption(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), MapSource{MainModule: `drawRect('plate', 20, 10, 40, 20)
dimLinear('width', [0, 20], [40, 20], {direction: 'horizontal', offset: 8, textAt: [50, 28]})`}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := res.Scene.Get("width")
	if got := e.Shape.(*scene.Dimension).TextAt; got == nil || *got != (geom.Vec{X: 50, Y: 28}) {
		t.Errorf("textAt = %v, want [50, 28]", got)
	}
	_, err = Run(context.Background(), MapSource{MainModule: `dimLinear('w', [0, 0], [40, 0], {textAt: [1, 2, 3, 4]})`}, MainModule, Options{})
	if want := "scene.code.js:1:1: TypeError: dimLinear: option textAt must be one point [x, y], got 2 points"; err == nil || err.Error() != want {
		t.Errorf("textAt of two points: got %v, want %s", err, want)
	}
}

// TestAngleNotesCapped: past maxAngleNotes places, one last warning says more were not noted.
func TestAngleNotesCapped(t *testing.T) {
	t.Parallel()
	src := "drawRect('r', 0, 0, 10, 4)\n" + strings.Repeat("rotate('r', 90)\n", maxAngleNotes+2)
	res, err := Run(context.Background(), MapSource{MainModule: src}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Warnings); n != maxAngleNotes+1 {
		t.Fatalf("%d warnings, want %d: %q", n, maxAngleNotes+1, res.Warnings)
	}
	want := "more angles past a whole turn were given at other places, not noted (at most 5 such notes a run, maxAngleNotes): look for degrees given where radians go"
	if got := res.Warnings[maxAngleNotes]; got != want {
		t.Errorf("last warning:\n got %s\nwant %s", got, want)
	}
}
