package runtime

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// Finite arguments that overflow together fail the run, naming the call, even inside a
// try/catch: the scene already holds the infinity, and a scene holding one could not be
// saved, sent from a worker or shown (it used to land and break every later view).
func TestOverflowFailsTheRun(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"scale", "drawCircle('c',0,0,1e15); scale('c',1e300)",
			`scene.code.js:1:27: RangeError: scale: a number overflowed: the world bounds of "c" are [-Inf, -Inf]..[+Inf, +Inf]`},
		{"translate twice", "drawCircle('c',0,0,1)\ntranslate('c',1e308,0); translate('c',1e308,0)",
			`scene.code.js:2:25: RangeError: translate: a number overflowed: the transform of "c" is translate [+Inf, 0], rotate 0, scale [1, 1], pivot [0, 0]`},
		{"caught", "drawCircle('c',0,0,1)\ntry { translate('c',1e308,0); translate('c',1e308,0) } catch (e) {}\nconsole.log('went on')",
			`scene.code.js:2:31: RangeError: translate: a number overflowed: the transform of "c" is translate [+Inf, 0], rotate 0, scale [1, 1], pivot [0, 0]`},
		{"group", "drawRect('r',0,0,1e15,1); createGroup('g',['r']); scale('g',1e300,1)",
			`scene.code.js:1:51: RangeError: scale: a number overflowed: the world bounds of "g" are [-Inf, -0.5]..[+Inf, 0.5]`},
		{"bounds size", "drawRect('r',0,0,1,1); translate('r',9e307,0); drawRect('s',0,0,1,1); translate('s',-9e307,0); createGroup('g',['r','s'])",
			`scene.code.js:1:96: RangeError: createGroup: a number overflowed: the world bounds of "g" are [-9e+307, -0.5]..[9e+307, 0.5], wider or taller than a number can hold`},
		{"member scaled between group moves", "drawCircle('c',0,0,1); createGroup('g',['c']); translate('g',1,0); scale('c',1e300); translate('g',1,0); scale('g',1e10)",
			`scene.code.js:1:106: RangeError: scale: a number overflowed: the world bounds of "g" are [NaN, NaN]..[NaN, NaN]`},
		{"area beyond the coordinate range", "drawRect('r',0,0,1e15,1e15); scale('r',1e150); getArea('r')",
			"scene.code.js:1:48: Error: getArea: rect \"r\": bad geometry: its world coordinate is -5e+164, outside the supported coordinate range -1e+15..1e+15 (MaxCoord); draw in larger units or nearer the origin"},
		{"world point", "drawCircle('c',0,0,1); scale('c',1e300); getWorldPoint('c', 1e10, 0)",
			"scene.code.js:1:42: RangeError: getWorldPoint: a number overflowed: it would return x +Inf"},
		{"scene bounds", "drawRect('r',0,0,1,1); translate('r',9e307,0); drawRect('s',0,0,1,1); translate('s',-9e307,0)",
			"scene.code.js: RangeError: a number overflowed: the scene's bounds are [-9e+307, -0.5]..[9e+307, 0.5], wider or taller than a number can hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := runMain(t, tt.src, Limits{})
			if err == nil {
				t.Fatalf("no error; logs %q", res.Logs)
			}
			got := err.Error()
			if d, ok := err.(*Diagnostic); ok && d.File == "" {
				got = "scene.code.js: " + got
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// CheckFinite finds overflow in a scene made outside a run, such as one read from an old
// scene.json whose finite numbers overflow when combined.
func TestCheckFinite(t *testing.T) {
	t.Parallel()
	doc := `{"format":"cadrun-scene","version":1,"entities":[
{"name":"c","kind":"circle","geometry":{"center":[0,0],"radius":1e15},"transform":{"translate":[0,0],"rotate":0,"scale":[1e300,1e300],"pivot":[0,0]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":0}}
]}`
	s, err := scene.ReadJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	err = CheckFinite(s)
	want := `a number overflowed: the world bounds of "c" are [-Inf, -Inf]..[+Inf, +Inf]`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if err := CheckFinite(scene.New()); err != nil {
		t.Errorf("empty scene: %v", err)
	}
}

// Through a worker the overflow is the same diagnostic (it used to be "the worker process
// stopped unexpectedly", the worker failing to encode the scene).
func TestOverflowThroughWorker(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: "drawCircle('c',0,0,1)\ntranslate('c',1e308,0); translate('c',1e308,0)"}
	_, err := p.Run(context.Background(), src, MainModule, Options{})
	want := `scene.code.js:2:25: RangeError: translate: a number overflowed: the transform of "c" is translate [+Inf, 0], rotate 0, scale [1, 1], pivot [0, 0]`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// Entities placed by numbers up to placeBound skip the matrix in the check after a call and
// in CheckFinite; at and past the bound the answers are those of the full check.
func TestPlaceBound(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"scale at the bound", "drawCircle('c',0,0,1e15); scale('c',1e150); console.log(JSON.stringify(getWorldBounds('c')))",
			`ok: {"min":[-1e+165,-1e+165],"max":[1e+165,1e+165],"min_x":-1e+165,"min_y":-1e+165,"max_x":1e+165,"max_y":1e+165}`},
		{"scale past the bound", "drawCircle('c',0,0,1e15); scale('c',1e150); scale('c',1e150)",
			`scene.code.js:1:45: RangeError: scale: a number overflowed: the world bounds of "c" are [-Inf, -Inf]..[+Inf, +Inf]`},
		{"every number at the bound", "drawRect('r',0,0,1,1); setPivot('r', 1e150, 1e150); scale('r', -1e150); rotate('r', 1e150); translate('r', -1e150, 0); console.log(exists('r'))",
			"ok: true"},
		// Grouping keeps the circle's transform as it is (its determinant, 1e400, would
		// overflow if the transform were worked out again): the group's scale overflows.
		{"group past the bound", "drawCircle('c',0,0,1e15); scale('c',1e200); createGroup('g',['c']); scale('g',1e100)",
			`scene.code.js:1:69: RangeError: scale: a number overflowed: the world bounds of "g" are [-Inf, -Inf]..[+Inf, +Inf]`},
		{"member under a group", "drawCircle('c',0,0,1e15); scale('c',1e140); createGroup('g',['c']); scale('g',1e140); scale('g', 1e10); console.log(exists('c'))",
			"ok: true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, outcome(runMain(t, tt.src, Limits{}))); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// CheckFinite passes a scene of top-level circles, ellipses, rectangles, lines and polygons
// placed within placeBound without computing its bounds; this pins that the bounds it skips
// are finite at the extremes: every number of every transform at ±placeBound and every
// coordinate at ±MaxCoord.
func TestCheckFiniteAtPlaceBound(t *testing.T) {
	t.Parallel()
	const c, p = scene.MaxCoord, placeBound
	shapes := []struct {
		name  string
		shape scene.Shape
	}{
		{"circle", scene.Circle{Center: geom.Vec{X: c, Y: -c}, Radius: c}},
		{"ellipse", scene.Ellipse{Center: geom.Vec{X: -c, Y: c}, RX: c, RY: c / 2}},
		{"rect", scene.Rect{Center: geom.Vec{X: c, Y: c}, Width: c, Height: c}},
		{"line", scene.Line{Points: []geom.Vec{{X: -c, Y: -c}, {X: c, Y: c}}}},
		{"polygon", scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: -c, Y: -c}, {X: c, Y: -c}, {X: c, Y: c}}}}}},
	}
	s := scene.New()
	for i, sh := range shapes {
		sign := float64(1 - 2*(i%2))
		steps := []error{
			func() error { _, err := s.Put(sh.name, sh.shape); return err }(),
			s.SetPivot(sh.name, geom.Vec{X: sign * p, Y: -sign * p}),
			s.Scale(sh.name, sign*p, -sign*p, scene.SpaceLocal, nil),
			s.Rotate(sh.name, sign*p, scene.SpaceLocal),
			s.Translate(sh.name, geom.Vec{X: -sign * p, Y: sign * p}, scene.SpaceLocal),
		}
		for _, err := range steps {
			if err != nil {
				t.Fatalf("%s: %v", sh.name, err)
			}
		}
		e, _ := s.Lookup(sh.name)
		if !smallTransform(e.Transform) || !smallBox(s.LocalBounds(e)) {
			t.Fatalf("%s is not placed within placeBound: %+v", sh.name, e.Transform)
		}
	}
	if err := CheckFinite(s); err != nil {
		t.Errorf("CheckFinite: %v", err)
	}
	if b := s.Bounds(); !b.NonEmpty || !finiteBox(b) {
		t.Errorf("the scene's bounds are %s: the full check would have failed", boxText(b))
	}
}
