package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// boxMesh is a closed box from lo to hi, oriented outwards.
func boxMesh(lo, hi scene.Vec3) *scene.Mesh {
	m := &scene.Mesh{}
	for i := range 8 {
		c := lo
		for k := range 3 {
			if i>>k&1 != 0 {
				c[k] = hi[k]
			}
		}
		m.Vertices = append(m.Vertices, float32(c[0]), float32(c[1]), float32(c[2]))
	}
	m.Triangles = []uint32{
		0, 2, 1, 1, 2, 3, // z = lo, facing down
		4, 5, 6, 5, 7, 6, // z = hi
		0, 1, 4, 1, 5, 4, // y = lo
		2, 6, 3, 3, 6, 7, // y = hi
		0, 4, 2, 2, 4, 6, // x = lo
		1, 3, 5, 3, 7, 5, // x = hi
	}
	return m
}

// cylinderMesh is a closed n-gon prism of radius r about the Z axis, from z = 0 to h, with a
// centre vertex on each cap.
func cylinderMesh(r, h float64, n int) *scene.Mesh {
	m := &scene.Mesh{}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		x, y := float32(r*math.Cos(a)), float32(r*math.Sin(a))
		m.Vertices = append(m.Vertices, x, y, 0, x, y, float32(h))
	}
	bot, top := uint32(2*n), uint32(2*n+1)
	m.Vertices = append(m.Vertices, 0, 0, 0, 0, 0, float32(h))
	for i := range uint32(n) {
		j := (i + 1) % uint32(n)
		b0, t0, b1, t1 := 2*i, 2*i+1, 2*j, 2*j+1
		m.Triangles = append(m.Triangles,
			b0, b1, t1, b0, t1, t0, // side, counter-clockwise from outside
			bot, b1, b0, // bottom, facing down
			top, t0, t1) // top, facing up
	}
	return m
}

// sphereMesh is a closed UV sphere of radius r at the origin with rings × segments quads
// (fans at the poles): 2·segments·(rings-1) triangles.
func sphereMesh(r float64, rings, segments int) *scene.Mesh {
	m := &scene.Mesh{}
	m.Vertices = append(m.Vertices, 0, 0, float32(r), 0, 0, float32(-r))
	for i := 1; i < rings; i++ {
		th := math.Pi * float64(i) / float64(rings)
		for k := range segments {
			ph := 2 * math.Pi * float64(k) / float64(segments)
			m.Vertices = append(m.Vertices, float32(r*math.Sin(th)*math.Cos(ph)), float32(r*math.Sin(th)*math.Sin(ph)), float32(r*math.Cos(th)))
		}
	}
	at := func(ring, k int) uint32 { return uint32(2 + (ring-1)*segments + k%segments) }
	for k := range segments {
		m.Triangles = append(m.Triangles, 0, at(1, k), at(1, k+1))
		m.Triangles = append(m.Triangles, 1, at(rings-1, k+1), at(rings-1, k))
	}
	for i := 1; i < rings-1; i++ {
		for k := range segments {
			a, b, c, d := at(i, k), at(i, k+1), at(i+1, k), at(i+1, k+1)
			m.Triangles = append(m.Triangles, a, c, d, a, d, b)
		}
	}
	return m
}

func putSolid(t testing.TB, s *scene.Scene, name string, m *scene.Mesh, place scene.Affine3) {
	t.Helper()
	if _, err := s.Put(name, &scene.Solid{Mesh: m, Place: place}); err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
}

// shadePNG renders s as PNG, decodes it with image/png and keeps a copy when SHADE_OUT names
// a folder (to look at it).
func shadePNG(t testing.TB, s *scene.Scene, opt PNGOptions, name string) *image.RGBA {
	t.Helper()
	b, err := PNG(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("SHADE_OUT"); dir != "" {
		_ = os.WriteFile(dir+"/"+name+".png", b, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// isoPixel is where the world point p lands in a picture of solids framed by f, w×h pixels.
func isoPixel(f shadeFrame, w, h int, p scene.Vec3) geom.Vec {
	return f.screen.ToPixels(float64(w), float64(h)).Apply(f.cam.screen(p))
}

func TestShadeCubeHexagonArea(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	const width = 600
	img := shadePNG(t, s, PNGOptions{Width: width}, "cube")
	// The unit cube seen along a diagonal has a regular hexagon of side √(2/3) for its
	// outline: area √3 scene units², k² pixels each. Its width across two corners is √2, so
	// with the default margin (5% of the larger side, the height 4/√6, on each side) the
	// picture's width is √2 + 2·0.05·4/√6 units.
	k := width / (math.Sqrt2 + 2*DefaultMargin*4/math.Sqrt(6))
	want := math.Sqrt(3) * k * k
	got := 0.0
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			if img.RGBAAt(x, y) != pngWhite {
				got++
			}
		}
	}
	if math.Abs(got-want)/want > 0.03 {
		t.Fatalf("the cube covers %.0f pixels, want %.0f (√3·k², k = %.2f) within 3%%", got, want, k)
	}
	t.Logf("the cube covers %.0f pixels, √3·k² is %.0f (%+.2f%%)", got, want, 100*(got-want)/want)
}

func TestShadeBoxFaces(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "box", boxMesh(scene.Vec3{}, scene.Vec3{4, 3, 2}), scene.Identity3)
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	const width = 400
	img := shadePNG(t, s, PNGOptions{Width: width}, "box")
	at := func(p scene.Vec3) color.RGBA {
		q := isoPixel(f, img.Rect.Dx(), img.Rect.Dy(), p)
		return img.RGBAAt(int(q.X), int(q.Y))
	}
	top, front, right := at(scene.Vec3{2, 1.5, 2}), at(scene.Vec3{2, 0, 1}), at(scene.Vec3{4, 1.5, 1})
	lum := func(c color.RGBA) int { return int(c.R) + int(c.G) + int(c.B) }
	if !(lum(top) > lum(front) && lum(front) > lum(right)) {
		t.Fatalf("faces: top %v, front %v, right %v; want three shades, top brightest, then front, then right", top, front, right)
	}
	// Each is the solid's colour times its shade: ambient plus the rest by the cosine.
	for _, c := range []struct {
		name string
		got  color.RGBA
		n    scene.Vec3
	}{{"top", top, scene.Vec3{0, 0, 1}}, {"front", front, scene.Vec3{0, -1, 0}}, {"right", right, scene.Vec3{1, 0, 0}}} {
		k := shadeAmbient + (1-shadeAmbient)*math.Max(0, dot3(c.n, worldLight(Camera{}.basis())))
		want := math.Round(math.Round(scene.SolidColor[0]*255) * k)
		if math.Abs(float64(c.got.R)-want) > 1 {
			t.Errorf("%s face red %d, want %v (shade %.3f)", c.name, c.got.R, want, k)
		}
	}
}

// dark reports a pixel of an edge: darker than any face (the darkest, a box's right face in
// the solids' default colour, is about (83, 89, 97)), as a pixel an edge covers a third of is.
func dark(c color.RGBA) bool { return int(c.R)+int(c.G)+int(c.B) < 3*75 }

// darkNear reports an edge within a pixel of q.
func darkNear(img *image.RGBA, q geom.Vec) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dark(img.RGBAAt(int(q.X)+dx, int(q.Y)+dy)) {
				return true
			}
		}
	}
	return false
}

func TestShadeEdges(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	img := shadePNG(t, s, PNGOptions{Width: 400}, "edges")
	w, h := img.Rect.Dx(), img.Rect.Dy()
	// Seen along the diagonal, the three edges at the hidden corner (0, 1, 0) lie over the
	// faces, from the middle to the corners the visible edges do not reach: they must not
	// show, anywhere along them.
	for _, end := range []scene.Vec3{{1, 1, 0}, {0, 0, 0}, {0, 1, 1}} {
		for i := 1; i < 10; i++ {
			p := scene.Vec3{end[0] * float64(i) / 10, 1 + (end[1]-1)*float64(i)/10, end[2] * float64(i) / 10}
			if q := isoPixel(f, w, h, p); darkNear(img, q) {
				t.Errorf("hidden edge shows at %v (pixel %v)", p, q)
			}
		}
	}
	// The three edges at the nearest corner (1, 0, 1) are feature edges, and the six around
	// the outline the silhouette: all show.
	for _, mid := range []scene.Vec3{{0.5, 0, 1}, {1, 0.5, 1}, {1, 0, 0.5}, {0, 0, 0.5}, {0.5, 0, 0}, {1, 0.5, 0}, {1, 1, 0.5}, {0.5, 1, 1}, {0, 0.5, 1}} {
		if q := isoPixel(f, w, h, mid); !darkNear(img, q) {
			t.Errorf("edge through %v does not show at pixel %v", mid, q)
		}
	}
}

// A box behind another, seen edge-on through it: none of its edges within the front box's
// outline shows.
func TestShadeHiddenBehind(t *testing.T) {
	s, alone := scene.New(), scene.New()
	for _, sc := range []*scene.Scene{s, alone} {
		putSolid(t, sc, "front", boxMesh(scene.Vec3{}, scene.Vec3{2, 2, 2}), scene.Identity3)
		// Far outside the picture, so that both pictures frame the same heights.
		putSolid(t, sc, "anchor", boxMesh(scene.Vec3{1000, 1000, -5}, scene.Vec3{1001, 1001, 5}), scene.Identity3)
	}
	// Straight behind the front box along the line of sight, smaller: wholly hidden.
	putSolid(t, s, "back", boxMesh(scene.Vec3{0.5, 0.5, 0.5}, scene.Vec3{1.5, 1.5, 1.5}), scene.Translation3(scale3(Camera{}.basis().fwd, 2)))
	opt := PNGOptions{Width: 300, Height: 300, View: &View{Min: geom.Vec{X: -1, Y: -1}, Max: geom.Vec{X: 3, Y: 3}}}
	both := shadePNG(t, s, opt, "behind")
	one := shadePNG(t, alone, opt, "alone")
	if n := pngDiffPixels(both, one); n != 0 {
		t.Fatalf("a box hidden behind another changed %d pixels", n)
	}
}

func pngDiffPixels(a, b *image.RGBA) int {
	n := 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		if !bytes.Equal(a.Pix[i:i+4], b.Pix[i:i+4]) {
			n++
		}
	}
	return n
}

func TestShadeCylinderNoFacetLines(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cyl", cylinderMesh(1, 2, 48), scene.Identity3)
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	img := shadePNG(t, s, PNGOptions{Width: 500}, "cylinder")
	w, h := img.Rect.Dx(), img.Rect.Dy()
	// Across the side at mid-height, from the left silhouette to the right one: no edge
	// between facets (7.5° apart) shows. Each facet is one shade, so the row steps from
	// shade to shade, and a line would be a pixel darker than the pixels two either side.
	left := isoPixel(f, w, h, scene.Vec3{-1 / math.Sqrt2, -1 / math.Sqrt2, 1})
	right := isoPixel(f, w, h, scene.Vec3{1 / math.Sqrt2, 1 / math.Sqrt2, 1})
	y := int(left.Y)
	lum := func(x int) int { c := img.RGBAAt(x, y); return int(c.R) + int(c.G) + int(c.B) }
	for x := int(left.X) + 4; x < int(right.X)-4; x++ {
		if lum(x) < min(lum(x-2), lum(x+2))-12 {
			t.Fatalf("pixel (%d, %d) on the side is darker than those beside it (%d, %d, %d): a line between facets", x, y, lum(x-2), lum(x), lum(x+2))
		}
	}
	// The rims are edges: the top rim's front point and the bottom rim's.
	for _, p := range []scene.Vec3{{1 / math.Sqrt2, -1 / math.Sqrt2, 2}, {1 / math.Sqrt2, -1 / math.Sqrt2, 0}} {
		q := isoPixel(f, w, h, p)
		found := false
		for dy := -2; dy <= 2; dy++ {
			found = found || dark(img.RGBAAt(int(q.X), int(q.Y)+dy))
		}
		if !found {
			t.Errorf("no rim drawn near %v (pixel %v)", p, q)
		}
	}
}

func TestShadeRefusedAndCancelled(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	old := maxRasterCells
	maxRasterCells = 1000
	_, err := PNG(s, PNGOptions{Width: 200})
	maxRasterCells = old
	want := "picture too costly to draw: its solids' faces and edges cover 268762 samples (9 a pixel), over 1000 (MaxRasterCells); " +
		"use a smaller width or scale, or show fewer solids or coarser ones (fewer segments)"
	if !errors.Is(err, ErrRasterCells) || err.Error() != want {
		t.Fatalf("over the budget:\n got %v\nwant %s", err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := PNG(s, PNGOptions{Width: 200, Context: ctx}); !errors.Is(err, context.Canceled) || err.Error() != "drawing the picture: context canceled" {
		t.Fatalf("cancelled: %v", err)
	}
}

// A scene's 2D shapes are drawn in the plane z = 0 of the same view, hidden where a solid
// stands in front of them.
func TestShadeShapesInPlane(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	pngPut(t, s, "line", scene.Line{Points: []geom.Vec{{X: 0.5, Y: -2}, {X: 0.5, Y: 3}}}, nil, pngColor(scene.Color{1, 0, 0, 1}), 0.01)
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	img := shadePNG(t, s, PNGOptions{Width: 400}, "plane")
	w, h := img.Rect.Dx(), img.Rect.Dy()
	red := func(p scene.Vec3) bool {
		q := isoPixel(f, w, h, p)
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				c := img.RGBAAt(int(q.X)+dx, int(q.Y)+dy)
				if c.R > 150 && c.G < 120 {
					return true
				}
			}
		}
		return false
	}
	for _, c := range []struct {
		p    scene.Vec3
		seen bool
	}{
		{scene.Vec3{0.5, -0.3, 0}, true}, // in front of the cube
		{scene.Vec3{0.5, 0.5, 0}, false}, // under it
		{scene.Vec3{0.5, 1.3, 0}, false}, // behind it
	} {
		if got := red(c.p); got != c.seen {
			t.Errorf("line at %v: seen %v, want %v", c.p, got, c.seen)
		}
	}
}

// BenchmarkShadeSphere100k draws a sphere of 99,904 triangles 800 px wide.
func BenchmarkShadeSphere100k(b *testing.B) {
	s := scene.New()
	m := sphereMesh(10, 224, 224)
	putSolid(b, s, "ball", m, scene.Identity3)
	b.ReportMetric(float64(m.NumTriangles()), "triangles")
	for b.Loop() {
		if _, err := PNG(s, PNGOptions{Width: 800}); err != nil {
			b.Fatal(err)
		}
	}
}

// A mirrored solid (its map turns it inside out) is shaded as its mirror image: a unit cube
// mirrored in x is a unit cube, drawn the same.
func TestShadeMirrored(t *testing.T) {
	plain, mirrored := scene.New(), scene.New()
	putSolid(t, plain, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	putSolid(t, mirrored, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Affine3{-1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0})
	a := shadePNG(t, plain, PNGOptions{Width: 200}, "plain")
	b := shadePNG(t, mirrored, PNGOptions{Width: 200}, "mirrored")
	if n := pngDiffPixels(a, b); n > a.Rect.Dx()*a.Rect.Dy()/200 {
		t.Fatalf("the mirrored cube differs from the cube in %d pixels", n)
	}
}

// Draw of a scene with solids: the picture says it is isometric, a highlighted solid is
// repainted in HighlightColor over the rest faded, and no grid is drawn (its lines would read
// plan coordinates).
func TestShadeDrawMarks(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "a", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	putSolid(t, s, "b", boxMesh(scene.Vec3{2, 0, 0}, scene.Vec3{3, 1, 1}), scene.Identity3)
	opt := PNGOptions{Width: 300}
	plain, err := Draw(s, opt, Marks{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := PNG(s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.PNG, b) || !plain.Solids || !plain.Painted {
		t.Fatalf("Draw without marks: same bytes as PNG %v, isometric %v, painted %v", bytes.Equal(plain.PNG, b), plain.Solids, plain.Painted)
	}
	pic, err := Draw(s, opt, Marks{Grid: true, Highlight: func(e *scene.Entity) bool { return e.Name == "b" }})
	if err != nil {
		t.Fatal(err)
	}
	if pic.Highlighted != 1 || pic.GridStep != 0 {
		t.Fatalf("highlighted %d, grid step %v; want 1 and no grid", pic.Highlighted, pic.GridStep)
	}
	img, err := png.Decode(bytes.NewReader(pic.PNG))
	if err != nil {
		t.Fatal(err)
	}
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	at := func(p scene.Vec3) color.RGBA {
		q := isoPixel(f, pic.Width, pic.Height, p)
		return color.RGBAModel.Convert(img.At(int(q.X), int(q.Y))).(color.RGBA)
	}
	// b's top is orange, shaded: red over green over blue; a's top is faded towards white.
	if c := at(scene.Vec3{2.5, 0.5, 1}); !(c.R > c.G && c.G > c.B && c.R > 200) {
		t.Errorf("the highlighted box's top is %v, want a shaded orange", c)
	}
	if c := at(scene.Vec3{0.5, 0.5, 1}); !(c.R > 200 && c.G > 200 && c.B > 200) {
		t.Errorf("the other box's top is %v, want faded towards white", c)
	}
}

// A part far from the origin is drawn as the same part at the origin: the depth buffer counts
// from the solids' middle, so float32 keeps its digits for the part. Here a box stands a
// tenth of a unit behind another, which float32 depths counted from the origin would not
// tell apart a million units away.
func TestShadeFarFromOrigin(t *testing.T) {
	var pics []*image.RGBA
	for _, at := range []scene.Vec3{{}, {1e6, -1e6, 1e6}} {
		s := scene.New()
		putSolid(t, s, "front", boxMesh(scene.Vec3{}, scene.Vec3{2, 2, 2}), scene.Translation3(at))
		putSolid(t, s, "back", boxMesh(scene.Vec3{0.5, 0.5, 0.5}, scene.Vec3{2.2, 2.2, 2.2}), scene.Translation3(add3(at, scale3(Camera{}.basis().fwd, 0.1))))
		pics = append(pics, shadePNG(t, s, PNGOptions{Width: 300}, fmt.Sprint("far", at[0])))
	}
	a, b := pics[0], pics[1]
	if a.Rect != b.Rect {
		t.Fatalf("sizes %v and %v", a.Rect, b.Rect)
	}
	if n := pngDiffPixels(a, b); n > a.Rect.Dx()*a.Rect.Dy()/100 {
		t.Fatalf("the part far from the origin differs from the one at it in %d pixels", n)
	}
}

// A solid whose mesh is empty draws nothing and fails nothing.
func TestShadeEmptyMesh(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "none", &scene.Mesh{}, scene.Identity3)
	for _, v := range []*View{nil, {Min: geom.Vec{X: -1, Y: -1}, Max: geom.Vec{X: 1, Y: 1}}} {
		pic, err := Draw(s, PNGOptions{Width: 50, View: v}, Marks{})
		if err != nil {
			t.Fatal(err)
		}
		if pic.Painted || !pic.Solids {
			t.Fatalf("an empty solid: painted %v, isometric %v", pic.Painted, pic.Solids)
		}
	}
}

// The background option holds for a picture of solids: transparent around the part, the
// part opaque.
func TestShadeTransparentBackground(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	img := shadePNG(t, s, PNGOptions{Width: 100, Background: &scene.Color{}}, "transparent")
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if corner, middle := img.RGBAAt(0, 0), img.RGBAAt(w/2, h/2); corner.A != 0 || middle.A != 255 {
		t.Fatalf("corner %v, middle %v: want transparent around an opaque part", corner, middle)
	}
}

// A solid in the background's colour is still shaded: its faces are told apart.
func TestShadeWhiteSolid(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "box", boxMesh(scene.Vec3{}, scene.Vec3{4, 3, 2}), scene.Identity3)
	if err := s.SetFill("box", &scene.Color{1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	img := shadePNG(t, s, PNGOptions{Width: 300}, "white")
	top := isoPixel(f, img.Rect.Dx(), img.Rect.Dy(), scene.Vec3{2, 1.5, 2})
	right := isoPixel(f, img.Rect.Dx(), img.Rect.Dy(), scene.Vec3{4, 1.5, 1})
	if a, b := img.RGBAAt(int(top.X), int(top.Y)), img.RGBAAt(int(right.X), int(right.Y)); a == b || a == pngWhite {
		t.Fatalf("a white box's top %v and right %v: want two shades, neither the background", a, b)
	}
}

// The edges of a dark part are drawn lighter than its faces, where dark edges would not show.
func TestShadeDarkPartEdges(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "box", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	if err := s.SetFill("box", &scene.Color{0.1, 0.1, 0.12, 1}); err != nil {
		t.Fatal(err)
	}
	f, err := frameOf(s.Solids(), Camera{}, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	img := shadePNG(t, s, PNGOptions{Width: 300}, "dark")
	w, h := img.Rect.Dx(), img.Rect.Dy()
	lum := func(c color.RGBA) int { return int(c.R) + int(c.G) + int(c.B) }
	// The edge between the top and the front, and the top beside it.
	q := isoPixel(f, w, h, scene.Vec3{0.5, 0, 1})
	edge := 0
	for dy := -1; dy <= 1; dy++ {
		edge = max(edge, lum(img.RGBAAt(int(q.X), int(q.Y)+dy)))
	}
	face := isoPixel(f, w, h, scene.Vec3{0.5, 0.5, 1})
	if top := lum(img.RGBAAt(int(face.X), int(face.Y))); edge < top+100 {
		t.Fatalf("a dark box's edge is %d bright, its top %d: the edge does not stand out", edge, top)
	}
}

// withCopies is m with each vertex of vs repeated, the copy used in place of the vertex by
// the triangles tris (their numbers): a seam, as a kernel may leave one.
func withCopies(m *scene.Mesh, tris []int, vs ...uint32) *scene.Mesh {
	out := &scene.Mesh{Vertices: slices.Clone(m.Vertices), Triangles: slices.Clone(m.Triangles)}
	for _, v := range vs {
		c := uint32(out.NumVertices())
		out.Vertices = append(out.Vertices, m.Vertices[3*v:3*v+3]...)
		for _, t := range tris {
			for k := range 3 {
				if out.Triangles[3*t+k] == v {
					out.Triangles[3*t+k] = c
				}
			}
		}
	}
	return out
}

// TestShadeSeams: a mesh that repeats vertices along a seam draws as the mesh without the
// copies, pixel for pixel. Paired by vertex number, as the edge pass once did, each side of
// the seam was an edge of one face: a line across the box's top along its diagonal, and one
// down the cylinder's side, which was also shaded as two faces either side of it.
func TestShadeSeams(t *testing.T) {
	box := boxMesh(scene.Vec3{0, 0, 0}, scene.Vec3{2, 1.5, 1})
	// The cylinder's seam is the edge between facets 41 and 42 (at −45°, turned to the
	// camera); facet i is triangles 4i and 4i+1 of its side.
	cyl := cylinderMesh(1, 2, 48)
	tests := []struct {
		name         string
		plain, seamy *scene.Mesh
	}{
		{"box", box, withCopies(box, []int{3}, 5, 6)},
		{"cylinder", cyl, withCopies(cyl, []int{4 * 41, 4*41 + 1}, 2*42, 2*42+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			render := func(m *scene.Mesh, name string) *image.RGBA {
				s := scene.New()
				putSolid(t, s, tt.name, m, scene.Identity3)
				return shadePNG(t, s, PNGOptions{Width: 400}, name)
			}
			want, got := render(tt.plain, "seams-"+tt.name), render(tt.seamy, "seams-"+tt.name+"-copies")
			if n := pngDiffPixels(want, got); n != 0 {
				t.Errorf("the seam changed %d pixels", n)
			}
		})
	}
}
