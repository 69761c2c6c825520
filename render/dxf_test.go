package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// dxfCase is a scene with one kind of entity and the DXF entities it must become.
type dxfCase struct {
	name  string
	build func(t *testing.T, s *scene.Scene)
	want  [][2]string // kind and layer of each DXF entity, in order
}

var dxfCases = []dxfCase{
	{"layer_names", func(t *testing.T, s *scene.Scene) {
		// A group named defpoints must not land on AutoCAD's non-plotting layer, and a name
		// in letters a layer cannot hold loses one character to '_' for each, not each byte.
		put(t, s, "a", scene.Circle{Radius: 2})
		put(t, s, "b", scene.Circle{Center: geom.Vec{X: 10}, Radius: 2})
		_, err := s.CreateGroup("defpoints", []string{"a"})
		do(t, err)
		_, err = s.CreateGroup("ÄÖÜ-engrave", []string{"b"})
		do(t, err)
	}, [][2]string{{"CIRCLE", "defpoints_2"}, {"CIRCLE", "___-engrave"}}},
	{"line", func(t *testing.T, s *scene.Scene) {
		put(t, s, "l", scene.Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 5}, {X: 20, Y: 0}}})
	}, [][2]string{{"POLYLINE", "0"}}},
	{"circle", func(t *testing.T, s *scene.Scene) {
		put(t, s, "c", scene.Circle{Center: geom.Vec{X: 3, Y: 4}, Radius: 5})
		do(t, s.Scale("c", 2, 2, scene.SpaceLocal, nil))
		do(t, s.SetStroke("c", &scene.Color{1, 0, 0, 1}, 0.5))
	}, [][2]string{{"CIRCLE", "0"}}},
	{"circle_stretched", func(t *testing.T, s *scene.Scene) {
		// An unevenly scaled circle is an ellipse: a flattened closed polyline.
		put(t, s, "c", scene.Circle{Radius: 5})
		do(t, s.Scale("c", 2, 1, scene.SpaceLocal, nil))
	}, [][2]string{{"POLYLINE", "0"}}},
	{"rect", func(t *testing.T, s *scene.Scene) {
		put(t, s, "r", scene.Rect{Center: geom.Vec{X: 10, Y: 5}, Width: 20, Height: 10})
		do(t, s.Rotate("r", math.Pi/6, scene.SpaceWorld))
	}, [][2]string{{"POLYLINE", "0"}}},
	{"ellipse", func(t *testing.T, s *scene.Scene) {
		put(t, s, "e", scene.Ellipse{RX: 10, RY: 4})
	}, [][2]string{{"POLYLINE", "0"}}},
	{"rounded_rect", func(t *testing.T, s *scene.Scene) {
		put(t, s, "r", scene.RoundedRect{Width: 30, Height: 20, Radius: 4})
	}, [][2]string{{"POLYLINE", "0"}}},
	{"filleted_rect", func(t *testing.T, s *scene.Scene) {
		// Fillets are bulges: one closed polyline, its corners exact quarter circles.
		put(t, s, "r", scene.Rect{Center: geom.Vec{X: 5, Y: 2}, Width: 30, Height: 20})
		_, err := s.Fillet("r", 4, scene.CornerOptions{})
		do(t, err)
	}, [][2]string{{"POLYLINE", "0"}}},
	{"arc", func(t *testing.T, s *scene.Scene) {
		put(t, s, "a", scene.Arc{Center: geom.Vec{X: 1, Y: 1}, Radius: 10, Start: 0, End: 3 * math.Pi / 2})
	}, [][2]string{{"ARC", "0"}}},
	{"arc_mirrored", func(t *testing.T, s *scene.Scene) {
		// Mirrored, the arc turns clockwise; DXF arcs run counter-clockwise, so the ends swap.
		put(t, s, "a", scene.Arc{Radius: 10, Start: 0, End: math.Pi / 2})
		do(t, s.Scale("a", -1, 1, scene.SpaceWorld, &geom.Vec{}))
	}, [][2]string{{"ARC", "0"}}},
	{"polygon", func(t *testing.T, s *scene.Scene) {
		put(t, s, "p", scene.Polygon{Parts: []scene.PolygonPart{{
			Outer: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}, {X: 40, Y: 30}, {X: 0, Y: 30}},
			Holes: [][]geom.Vec{{{X: 10, Y: 10}, {X: 10, Y: 20}, {X: 20, Y: 20}, {X: 20, Y: 10}}},
		}}})
	}, [][2]string{{"POLYLINE", "0"}, {"POLYLINE", "0"}}},
	{"path", func(t *testing.T, s *scene.Scene) {
		put(t, s, "b", &scene.PathShape{Data: "M 0 0 C 5 10 15 10 20 0 Q 25 -5 30 0 A 5 5 0 0 1 40 0 L 40 -10 Z"})
	}, [][2]string{{"POLYLINE", "0"}}},
	{"text", func(t *testing.T, s *scene.Scene) {
		put(t, s, "t", &scene.Text{Text: "LT", Pos: geom.Vec{X: 0, Y: 0}, Size: 10})
	}, [][2]string{{"POLYLINE", "0"}, {"POLYLINE", "0"}}},
	{"layers", func(t *testing.T, s *scene.Scene) {
		// Layers are top-level groups, nested groups included; top-level shapes are on 0.
		put(t, s, "outline", scene.Rect{Width: 100, Height: 60})
		put(t, s, "hole", scene.Circle{Center: geom.Vec{X: -30}, Radius: 5})
		put(t, s, "slot", scene.RoundedRect{Center: geom.Vec{X: 20}, Width: 30, Height: 8, Radius: 4})
		put(t, s, "mark", scene.Line{Points: []geom.Vec{{X: -5, Y: 20}, {X: 5, Y: 20}}})
		do(t, s.SetStroke("hole", &scene.Color{1, 0, 0, 1}, 0.1))
		do(t, s.SetStroke("slot", &scene.Color{1, 0, 0, 1}, 0.1))
		do(t, s.SetStroke("mark", &scene.Color{0, 0, 1, 1}, 0.1))
		_, err := s.CreateGroup("holes", []string{"hole", "slot"})
		do(t, err)
		_, err = s.CreateGroup("cut line", []string{"holes"})
		do(t, err)
		_, err = s.CreateGroup("Engrave", []string{"mark"})
		do(t, err)
		do(t, s.Rotate("cut line", 0.3, scene.SpaceWorld))
	}, [][2]string{{"POLYLINE", "0"}, {"CIRCLE", "cut_line"}, {"POLYLINE", "cut_line"}, {"POLYLINE", "Engrave"}}},
}

func do(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// dxfChecked is what testdata/dxfcheck.py reports of a file.
type dxfChecked struct {
	Version  string      `json:"version"`
	Errors   []string    `json:"errors"`
	Fixes    []string    `json:"fixes"`
	Layers   []string    `json:"layers"`
	Entities [][2]string `json:"entities"`
	InsUnits *int        `json:"insunits"`
	BBox     []float64   `json:"bbox"`
}

// dxfCheck audits the files with ezdxf and reads them back.
func dxfCheck(t *testing.T, files ...string) []dxfChecked {
	t.Helper()
	got := ezdxfReport[dxfChecked](t, "dxfcheck.py", files...)
	for i := range got {
		// ezdxf adds its own Defpoints layer on loading; it is not in the file.
		got[i].Layers = strings.Fields(strings.ReplaceAll(" "+strings.Join(got[i].Layers, " ")+" ", " Defpoints ", " "))
	}
	return got
}

// TestDXFGolden writes every case in R12 and R2000, compares each with its golden file, then
// has ezdxf audit all of them (0 errors) and read back the entity kinds, the layers and the
// bounding box, which must be the scene's world bounds.
func TestDXFGolden(t *testing.T) {
	t.Parallel()
	type written struct {
		c       dxfCase
		version DXFVersion
		scene   *scene.Scene
		path    string
	}
	var files []written
	dir := t.TempDir()
	for _, c := range dxfCases {
		s := scene.New()
		c.build(t, s)
		for _, v := range []DXFVersion{DXF12, DXF2000} {
			b, err := DXF(s, DXFOptions{Version: v})
			if err != nil {
				t.Fatalf("%s R%d: %v", c.name, v, err)
			}
			golden.Check(t, filepath.Join("testdata", "dxf", fmt.Sprintf("%s.r%d.dxf", c.name, v)), b)
			again, _ := DXF(s, DXFOptions{Version: v})
			if string(again) != string(b) {
				t.Errorf("%s R%d: two writes of the same scene differ", c.name, v)
			}
			path := filepath.Join(dir, fmt.Sprintf("%s.r%d.dxf", c.name, v))
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, written{c, v, s, path})
		}
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	for i, got := range dxfCheck(t, paths...) {
		f := files[i]
		name := fmt.Sprintf("%s R%d", f.c.name, f.version)
		wantVersion, kinds := "AC1009", f.c.want
		if f.version == DXF2000 {
			wantVersion = "AC1015"
			kinds = make([][2]string, len(f.c.want))
			for j, k := range f.c.want {
				kinds[j] = k
				if k[0] == "POLYLINE" {
					kinds[j][0] = "LWPOLYLINE"
				}
			}
		}
		layers := []string{"0"}
		taken := dxfReservedLayers()
		for _, root := range f.scene.Roots() {
			if e, _ := f.scene.Get(root); e.IsGroup() {
				layers = append(layers, dxfLayerName(root, 255, taken))
			}
		}
		if diff := cmp.Diff(dxfChecked{Version: wantVersion, Errors: []string{}, Fixes: []string{}, Layers: layers, Entities: kinds},
			dxfChecked{Version: got.Version, Errors: got.Errors, Fixes: got.Fixes, Layers: got.Layers, Entities: got.Entities}); diff != "" {
			t.Errorf("%s: ezdxf read back mismatch (-want +got):\n%s", name, diff)
		}
		// Flattened curves lie within the tolerance inside their true extent.
		b := f.scene.Bounds()
		want := []float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}
		if len(got.BBox) != 4 {
			t.Errorf("%s: bounding box %v, want %v", name, got.BBox, want)
			continue
		}
		for j := range want {
			if math.Abs(got.BBox[j]-want[j]) > DefaultDXFTolerance+1e-6 {
				t.Errorf("%s: bounding box %v, want the world bounds %v", name, got.BBox, want)
				break
			}
		}
	}
}

// dxfTransformedScene draws curved shapes under seeded random rotations, uneven and negative
// scales and nested groups, so that bulge signs, mirrored arcs and flattening are checked
// against the exact world bounds.
func dxfTransformedScene(t *testing.T) *scene.Scene {
	s := scene.New()
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []func(c geom.Vec) scene.Shape{
		func(c geom.Vec) scene.Shape { return scene.Arc{Center: c, Radius: 4, Start: 0.4, End: 2.9} },
		func(c geom.Vec) scene.Shape { return scene.Arc{Center: c, Radius: 3, Start: 5, End: 1} },
		func(c geom.Vec) scene.Shape {
			return scene.RoundedRect{Center: c, Width: 9, Height: 5, Radius: 1.5}
		},
		func(c geom.Vec) scene.Shape { return scene.Circle{Center: c, Radius: 2.5} },
		func(c geom.Vec) scene.Shape { return scene.Ellipse{Center: c, RX: 4, RY: 2} },
		func(c geom.Vec) scene.Shape {
			return &scene.PathShape{Data: fmt.Sprintf("M %g %g a 3 3 0 1 0 6 0 q 2 4 -3 5 Z", c.X, c.Y)}
		},
	}
	var names []string
	for i := range 36 {
		name := fmt.Sprint("s", i)
		put(t, s, name, shapes[i%len(shapes)](geom.Vec{X: float64(i%6) * 15, Y: float64(i/6) * 15}))
		do(t, s.Rotate(name, rng.Float64()*2*math.Pi, scene.SpaceLocal))
		sx, sy := 0.5+rng.Float64(), 0.5+rng.Float64()
		if i%3 == 0 {
			sy = sx // keeps circles circular
		}
		if i%4 == 1 {
			sx = -sx
		}
		do(t, s.Scale(name, sx, sy, scene.SpaceLocal, nil))
		names = append(names, name)
	}
	_, err := s.CreateGroup("inner", names[:12])
	do(t, err)
	_, err = s.CreateGroup("outer", []string{"inner", names[12]})
	do(t, err)
	do(t, s.Rotate("outer", 0.7, scene.SpaceWorld))
	do(t, s.Scale("outer", -1, 1, scene.SpaceWorld, nil))
	return s
}

// TestDXFEveryKindScene checks the renderers' shared scene of every kind, a scene of
// transformed curves, and the units.
func TestDXFEveryKindScene(t *testing.T) {
	t.Parallel()
	kinds, err := examples.KindsScene()
	if err != nil {
		t.Fatal(err)
	}
	transformed := dxfTransformedScene(t)
	dir := t.TempDir()
	var paths []string
	var scenes []*scene.Scene
	for i, o := range []DXFOptions{{}, {Version: DXF2000}, {Version: DXF2000, Unit: UnitIn}, {Version: DXF2000, Unit: UnitM, Tolerance: 0.001}, {}, {Version: DXF2000}} {
		s := kinds
		if i >= 4 {
			s = transformed
		}
		scenes = append(scenes, s)
		b, err := DXF(s, o)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("kinds%d.dxf", len(paths)))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got := dxfCheck(t, paths...)
	units := []any{nil, 4, 1, 6, nil, 4}
	for i, g := range got {
		b := scenes[i].Bounds()
		if len(g.Errors) > 0 || len(g.Fixes) > 0 {
			t.Errorf("file %d: audit errors %q, fixes %q", i, g.Errors, g.Fixes)
		}
		var u any
		if g.InsUnits != nil {
			u = *g.InsUnits
		}
		if u != units[i] {
			t.Errorf("file %d: $INSUNITS %v, want %v", i, u, units[i])
		}
		want := []float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}
		for j := range want {
			if len(g.BBox) != 4 || math.Abs(g.BBox[j]-want[j]) > DefaultDXFTolerance+1e-6 {
				t.Errorf("file %d: bounding box %v, want the world bounds %v", i, g.BBox, want)
				break
			}
		}
	}
}

func TestDXFLayerNames(t *testing.T) {
	t.Parallel()
	taken := dxfReservedLayers()
	var got []string
	for _, g := range []string{"cut", "CUT", "en grave/1", "0", strings.Repeat("x", 40), strings.Repeat("x", 40), "Ø", "ÄÖÜ-engrave", "defpoints", "Defpoints"} {
		got = append(got, dxfLayerName(g, 31, taken))
	}
	// One '_' per character, not per byte; DEFPOINTS never plots in AutoCAD, so a group of
	// that name gets another.
	want := []string{"cut", "CUT_2", "en_grave_1", "0_2", strings.Repeat("x", 31), strings.Repeat("x", 29) + "_2", "_", "___-engrave", "defpoints_2", "Defpoints_3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestNearestACI(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		c    scene.Color
		want int
	}{
		"black":       {scene.Color{0, 0, 0, 1}, 7},
		"red":         {scene.Color{1, 0, 0, 1}, 1},
		"yellow":      {scene.Color{1, 1, 0, 1}, 2},
		"green":       {scene.Color{0, 1, 0, 1}, 3},
		"cyan":        {scene.Color{0, 1, 1, 1}, 4},
		"blue":        {scene.Color{0, 0, 1, 1}, 5},
		"magenta":     {scene.Color{1, 0, 1, 1}, 6},
		"grey":        {scene.Color{0.5, 0.5, 0.5, 1}, 8},
		"white":       {scene.Color{1, 1, 1, 1}, 255},
		"orange":      {scene.Color{1, 0.5, 0, 1}, 30},
		"dark red":    {scene.Color{0.3, 0, 0, 0.5}, 16},
		"sky blue":    {scene.Color{0.5, 0.75, 1, 1}, 151},
		"translucent": {scene.Color{1, 0, 0, 0.1}, 1},
	}
	got := map[string]int{}
	want := map[string]int{}
	for name, c := range cases {
		got[name] = nearestACI(c.c)
		want[name] = c.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestDXFBadOptions(t *testing.T) {
	t.Parallel()
	s := scene.New()
	for _, c := range []struct {
		opt  DXFOptions
		want string
	}{
		{DXFOptions{Version: 14}, "bad export option: DXF version 14: use 12 or 2000"},
		{DXFOptions{Unit: "yd"}, `bad export option: unit "yd": use mm, cm, m, in or ft`},
		{DXFOptions{Tolerance: -1}, "bad export option: tolerance -1 must be a number > 0"},
		{DXFOptions{Tolerance: math.NaN()}, "bad export option: tolerance NaN must be a number > 0"},
	} {
		_, err := DXF(s, c.opt)
		if err == nil || err.Error() != c.want {
			t.Errorf("DXF(%+v) = %v, want %q", c.opt, err, c.want)
		}
	}
}

// TestDXFEmpty writes an empty scene: no extents, no entities, still a valid file.
func TestDXFEmpty(t *testing.T) {
	t.Parallel()
	b, err := DXF(scene.New(), DXFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `  0
SECTION
  2
HEADER
  9
$ACADVER
  1
AC1009
  9
$INSBASE
 10
0.0
 20
0.0
 30
0.0
  0
ENDSEC
  0
SECTION
  2
TABLES
  0
TABLE
  2
LTYPE
 70
1
  0
LTYPE
  2
CONTINUOUS
 70
0
  3
Solid line
 72
65
 73
0
 40
0.0
  0
ENDTAB
  0
TABLE
  2
LAYER
 70
1
  0
LAYER
  2
0
 70
0
 62
7
  6
CONTINUOUS
  0
ENDTAB
  0
ENDSEC
  0
SECTION
  2
BLOCKS
  0
ENDSEC
  0
SECTION
  2
ENTITIES
  0
ENDSEC
  0
EOF
`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestDXFExamples audits the DXF kept beside each fabrication example (examples/*/
// expected.dxf) and checks its bounding box against the example's scene (expected.json).
func TestDXFExamples(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob(filepath.Join("..", "examples", "*", "expected.dxf"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples/*/expected.dxf (%v)", err)
	}
	for i, got := range dxfCheck(t, paths...) {
		js, err := os.ReadFile(filepath.Join(filepath.Dir(paths[i]), "expected.json"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := scene.ReadJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Errors) > 0 || len(got.Fixes) > 0 {
			t.Errorf("%s: audit errors %q, fixes %q", paths[i], got.Errors, got.Fixes)
		}
		b := s.Bounds()
		want := []float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y}
		for j := range want {
			if len(got.BBox) != 4 || math.Abs(got.BBox[j]-want[j]) > DefaultDXFTolerance+1e-6 {
				t.Errorf("%s: bounding box %v, want the world bounds %v", paths[i], got.BBox, want)
				break
			}
		}
	}
}
