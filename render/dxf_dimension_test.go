package render

import (
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// dimensionScene has a plate and a hole with one dimension of every kind about them at the
// top level, the same set in a group "g" that is rotated and scaled unevenly, and an angle
// and a horizontal dimension in a mirrored group "m". The diameter's text is "<> H7", the
// radius has units, one set is 3.5 high with 3 decimals.
func dimensionScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := scene.New()
	put := func(name string, sh scene.Shape) {
		t.Helper()
		if _, err := s.Put(name, sh); err != nil {
			t.Fatalf("Put(%q): %v", name, err)
		}
	}
	put("plate", scene.Rect{Center: geom.Vec{X: 20, Y: 10}, Width: 40, Height: 20})
	put("hole", scene.Circle{Center: geom.Vec{X: 10, Y: 5}, Radius: 5})
	set := func(prefix string, size float64, precision int) []string {
		dims := []struct {
			name string
			d    scene.Dimension
		}{
			{"aligned", scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 30, Y: 40}}, Offset: 5}},
			{"h", scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 20}}, Offset: 8}},
			{"v", scene.Dimension{Type: scene.DimVertical, Points: []geom.Vec{{X: 40, Y: 0}, {X: 40, Y: 20}}, Offset: -8}},
			{"r", scene.Dimension{Type: scene.DimRadius, Points: []geom.Vec{{X: 10, Y: 5}}, Radius: 5, Angle: math.Pi / 4, Units: " mm"}},
			{"dia", scene.Dimension{Type: scene.DimDiameter, Points: []geom.Vec{{X: 10, Y: 5}}, Radius: 5, Angle: 0.3, Text: "<> H7"}},
			{"ang", scene.Dimension{Type: scene.DimAngle, Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}}, Radius: 8}},
		}
		var names []string
		for _, d := range dims {
			d.d.Size, d.d.Precision = size, precision
			put(prefix+d.name, &d.d)
			names = append(names, prefix+d.name)
		}
		return names
	}
	set("", scene.DefaultDimSize, scene.DefaultDimPrecision)
	g := set("g_", 3.5, 3)
	if _, err := s.CreateGroup("g", g); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{s.Rotate("g", 0.7, scene.SpaceWorld), s.Scale("g", 2, 1.5, scene.SpaceWorld, nil),
		s.Translate("g", geom.Vec{X: 100}, scene.SpaceWorld)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	put("m_ang", &scene.Dimension{Type: scene.DimAngle, Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 0, Y: 10}}, Radius: 6,
		Size: scene.DefaultDimSize, Precision: 1})
	put("m_h", &scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 25, Y: 5}}, Offset: 6,
		Size: scene.DefaultDimSize, Precision: 1})
	if _, err := s.CreateGroup("m", []string{"m_ang", "m_h"}); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{s.Scale("m", -1, 1, scene.SpaceWorld, nil), s.Translate("m", geom.Vec{Y: -60}, scene.SpaceWorld)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// dimWant is what a DIMENSION must hold for a dimension of the scene, in drawing order.
type dimWant struct {
	name      string
	layer     string
	dimtype   int
	measured  float64 // degrees for an angle
	text      *string
	size      float64
	precision int
}

func dimensionsOf(s *scene.Scene) []dimWant {
	var out []dimWant
	for it := range s.Paint() {
		d, ok := it.Entity.Shape.(*scene.Dimension)
		if !ok {
			continue
		}
		w := dimWant{name: it.Entity.Name, layer: "0", dimtype: dxfDimType(d), measured: d.Measured(it.World),
			size: d.Size, precision: d.Precision}
		if top := topLevel(s, it.Entity); top != it.Entity {
			w.layer = top.Name
		}
		switch {
		case d.Text != "":
			w.text = &d.Text
		case d.Units != "":
			t := "<>" + d.Units
			w.text = &t
		}
		out = append(out, w)
	}
	return out
}

type ezdxfDim struct {
	Layer         string   `json:"layer"`
	Color         int      `json:"color"`
	Dimtype       int      `json:"dimtype"`
	Flags         int      `json:"flags"`
	Measurement   float64  `json:"measurement"`
	Actual        *float64 `json:"actual"`
	Text          *string  `json:"text"`
	Style         string   `json:"style"`
	Dimtxt        float64  `json:"dimtxt"`
	Dimasz        float64  `json:"dimasz"`
	Dimdec        int      `json:"dimdec"`
	Block         string   `json:"block"`
	Anonymous     bool     `json:"anonymous"`
	BlockEntities []string `json:"block_entities"`
}

type ezdxfDimReport struct {
	Errors []string   `json:"errors"`
	Fixes  []string   `json:"fixes"`
	Loose  []string   `json:"loose"`
	Dims   []ezdxfDim `json:"dims"`
}

// readDimensions writes the scene's DXF under each option set and reads it with ezdxf
// (testdata/dxfdimension.py).
func readDimensions(t *testing.T, s *scene.Scene, opts ...DXFOptions) []ezdxfDimReport {
	t.Helper()
	ezdxf(t) // skip before the files are written
	dir := t.TempDir()
	var files []string
	for i, opt := range opts {
		b, err := DXF(s, opt)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, fmt.Sprintf("dims%d.dxf", i))
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	got := ezdxfReport[ezdxfDimReport](t, "dxfdimension.py", files...)
	return got
}

// TestDimensionDXFThroughEzdxf writes every kind of dimension, at the top level, in a
// rotated, unevenly scaled group and in a mirrored one, as R2000 (text as outlines and as
// TEXT) and R12, and reads the files with ezdxf. R2000: the audit finds nothing to report or
// fix; each dimension is a DIMENSION, in drawing order, of the right type with the flag 32,
// on its group's layer in black; ezdxf's get_measurement(), which measures the defining
// points again, and group 42 (radians for an angle) equal cadrun's value within 1e-9; the
// text override is the script's, "<>" kept; its DIMSTYLE has the text height as DIMTXT and
// DIMASZ and the precision as DIMDEC; its block is anonymous and holds the drawing, with
// TEXT when asked for; and the only loose entities are the plate and the hole. R12 has no
// DIMENSION: the dimensions are loose polylines, as before.
func TestDimensionDXFThroughEzdxf(t *testing.T) {
	t.Parallel()
	s := dimensionScene(t)
	want := dimensionsOf(s)
	got := readDimensions(t, s, DXFOptions{Version: DXF2000}, DXFOptions{Version: DXF2000, Text: DXFTextEntities},
		DXFOptions{Version: DXF12})
	for i, g := range got[:2] {
		name := []string{"R2000", "R2000 text entities"}[i]
		if len(g.Errors)+len(g.Fixes) > 0 {
			t.Errorf("%s: audit errors %q, fixes %q", name, g.Errors, g.Fixes)
		}
		if !slices.Equal(g.Loose, []string{"LWPOLYLINE", "CIRCLE"}) {
			t.Errorf("%s: loose entities %v, want the plate and the hole alone", name, g.Loose)
		}
		if len(g.Dims) != len(want) {
			t.Fatalf("%s: %d DIMENSIONs, want %d", name, len(g.Dims), len(want))
		}
		for j, w := range want {
			checkDimension(t, fmt.Sprintf("%s %s", name, w.name), g.Dims[j], w, j, i == 1)
		}
	}
	r12 := got[2]
	if len(r12.Errors) > 0 || len(r12.Dims) > 0 {
		t.Errorf("R12: audit errors %q, %d DIMENSIONs; want none", r12.Errors, len(r12.Dims))
	}
	if n := len(r12.Loose); n < 2+3*len(want) {
		t.Errorf("R12: %d loose entities, want the dimensions' geometry too", n)
	}
}

func checkDimension(t *testing.T, name string, g ezdxfDim, w dimWant, index int, textEntities bool) {
	t.Helper()
	if g.Dimtype != w.dimtype || g.Flags != w.dimtype|dxfDimUnique {
		t.Errorf("%s: dimtype %d (group 70 %d), want %d (%d)", name, g.Dimtype, g.Flags, w.dimtype, w.dimtype|dxfDimUnique)
	}
	if g.Layer != w.layer || g.Color != dxfBlack {
		t.Errorf("%s: layer %q colour %d, want %q %d", name, g.Layer, g.Color, w.layer, dxfBlack)
	}
	if math.Abs(g.Measurement-w.measured) > 1e-9 {
		t.Errorf("%s: ezdxf measures %.12g, cadrun %.12g", name, g.Measurement, w.measured)
	}
	actual := w.measured
	if w.dimtype == dxfDimAngular {
		actual *= math.Pi / 180
	}
	if g.Actual == nil || math.Abs(*g.Actual-actual) > 1e-9 {
		t.Errorf("%s: group 42 %v, want %.12g", name, g.Actual, actual)
	}
	switch {
	case (g.Text == nil) != (w.text == nil):
		t.Errorf("%s: text override %v, want %v", name, g.Text, w.text)
	case g.Text != nil && *g.Text != *w.text:
		t.Errorf("%s: text override %q, want %q", name, *g.Text, *w.text)
	}
	if g.Dimtxt != w.size || g.Dimasz != w.size*drafting.DimArrowLength || g.Dimdec != w.precision {
		t.Errorf("%s: DIMSTYLE %s has DIMTXT %v DIMASZ %v DIMDEC %d, want %v %v %d", name, g.Style, g.Dimtxt, g.Dimasz, g.Dimdec,
			w.size, w.size*drafting.DimArrowLength, w.precision)
	}
	if g.Block != dxfDimBlock(index) || !g.Anonymous || len(g.BlockEntities) < 3 {
		t.Errorf("%s: block %q (anonymous %v) holds %v, want the anonymous %s with the drawing", name, g.Block, g.Anonymous,
			g.BlockEntities, dxfDimBlock(index))
	}
	if hasText := slices.Contains(g.BlockEntities, "TEXT"); hasText != textEntities {
		t.Errorf("%s: block entities %s, TEXT wanted: %v", name, strings.Join(g.BlockEntities, " "), textEntities)
	}
}

// TestDimensionDXFThroughLibreCAD prints a drawing of one horizontal dimension, 40 long with
// its line 10 above the measured points, as R2000 (a DIMENSION, which LibreCAD draws again
// from its defining points and the header's dimension variables) and as R12 (the geometry),
// with LibreCAD's dxf2pdf, which must finish, and poppler. The check is loose, since LibreCAD
// draws in its own font: a row of ink spans most of the drawing's width (the dimension line
// between the extension lines), and above it there is ink in the middle (the text) and
// none half way between the middle and either end.
func TestDimensionDXFThroughLibreCAD(t *testing.T) {
	t.Parallel()
	s := scene.New()
	if _, err := s.Put("w", &scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}},
		Offset: 10, Size: scene.DefaultDimSize, Precision: scene.DefaultDimPrecision}); err != nil {
		t.Fatal(err)
	}
	for i, pic := range librecadPictures(t, s, librecadPixelWidth, DXF2000, DXF12) {
		t.Run([]string{"R2000", "R12"}[i], func(t *testing.T) { checkDimensionInk(t, pic) })
	}
}

// checkDimensionInk looks for a horizontal dimension's line and text in a picture (see
// TestDimensionDXFThroughLibreCAD).
func checkDimensionInk(t *testing.T, pic *image.RGBA) {
	t.Helper()
	dark := func(x, y int) bool {
		px := pic.RGBAAt(x, y)
		return int(px.R)+int(px.G)+int(px.B) < 3*128
	}
	ink := image.Rectangle{}
	for y := pic.Rect.Min.Y; y < pic.Rect.Max.Y; y++ {
		for x := pic.Rect.Min.X; x < pic.Rect.Max.X; x++ {
			if dark(x, y) {
				ink = ink.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if ink.Empty() {
		t.Fatal("LibreCAD's picture is blank")
	}
	line := -1
	for y := ink.Min.Y; y < ink.Max.Y && line < 0; y++ {
		n := 0
		for x := ink.Min.X; x < ink.Max.X; x++ {
			if dark(x, y) {
				n++
			}
		}
		if n >= ink.Dx()*8/10 {
			line = y
		}
	}
	if line < 0 {
		t.Fatalf("no row of ink across %v: no dimension line", ink)
	}
	count := func(x0, x1 int) int {
		n := 0
		for y := ink.Min.Y; y < line-1; y++ {
			for x := x0; x < x1; x++ {
				if dark(x, y) {
					n++
				}
			}
		}
		return n
	}
	w := ink.Dx()
	mid := ink.Min.X + w/2
	if n := count(mid-w/10, mid+w/10); n < 10 {
		t.Errorf("%d dark pixels above the dimension line (row %d) in the middle of %v: no text", n, line, ink)
	}
	for _, x := range []int{ink.Min.X + w/4, ink.Min.X + 3*w/4} {
		if n := count(x-w/20, x+w/20); n > 0 {
			t.Errorf("%d dark pixels above the dimension line (row %d) about x = %d of %v, where there is nothing to draw", n, line, x, ink)
		}
	}
	t.Logf("ink %v, dimension line at row %d", ink, line)
}
