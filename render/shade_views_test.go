package render

import (
	"encoding/json"
	"errors"
	"image"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
)

// bracketMesh is an L-bracket: the profile (0,0) (40,0) (40,5) (5,5) (5,30) (0,30) in the XZ
// plane, extruded along Y from 0 to 20; a base 40 long and 5 thick, an upright 30 high at
// x = 0..5. Its views all differ: front and back mirror the L, right shows the base's end
// below a line at z = 5 while left is a plain rectangle, top shows the upright's top beside
// a line at x = 5 while bottom is a plain rectangle.
func bracketMesh() *scene.Mesh {
	prof := [][2]float32{{0, 0}, {40, 0}, {40, 5}, {5, 5}, {5, 30}, {0, 30}}
	m := &scene.Mesh{}
	for _, y := range []float32{0, 20} {
		for _, p := range prof {
			m.Vertices = append(m.Vertices, p[0], y, p[1])
		}
	}
	n := uint32(len(prof))
	// The profile is star-shaped about its inner corner (vertex 3): a fan from it. Seen from
	// -Y the profile runs counter-clockwise in (x, z), so at y = 0 the fan faces -Y as is.
	for _, k := range []uint32{4, 5, 0, 1} {
		m.Triangles = append(m.Triangles, 3, k, (k+1)%n)       // y = 0, facing -Y
		m.Triangles = append(m.Triangles, n+3, n+(k+1)%n, n+k) // y = 20, facing +Y
	}
	for k := range n {
		a, b := k, (k+1)%n
		m.Triangles = append(m.Triangles, a, n+b, b, a, n+a, n+b)
	}
	return m
}

// inkBox is the box of the pixels of img within r that differ from white.
func inkBox(img *image.RGBA, r image.Rectangle) image.Rectangle {
	box := image.Rectangle{}
	first := true
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == pngWhite {
				continue
			}
			p := image.Rect(x, y, x+1, y+1)
			if first {
				box, first = p, false
			} else {
				box = box.Union(p)
			}
		}
	}
	return box
}

// Each standard view of the bracket at 8 px a unit: its ink is the bracket's extent along
// the view's right and up, and what tells it from its opposite is where it should be.
func TestStandardViews(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "bracket", bracketMesh(), scene.Identity3)
	const k = 8.0
	for _, c := range []struct {
		view string
		w, h float64                       // the extent along right and up, scene units
		at   func(x, y float64) [2]float64 // a scene point's (right, up) in the view, for the checks
	}{
		{"front", 40, 30, func(x, z float64) [2]float64 { return [2]float64{x, z} }},
		{"back", 40, 30, func(x, z float64) [2]float64 { return [2]float64{-x, z} }},
		{"top", 40, 20, nil},
		{"bottom", 40, 20, nil},
		{"right", 20, 30, nil},
		{"left", 20, 30, nil},
	} {
		t.Run(c.view, func(t *testing.T) {
			img := shadePNG(t, s, PNGOptions{Scale: k, Camera: Camera{Name: c.view}}, "bracket-"+c.view)
			box := inkBox(img, img.Rect)
			// The margin is 5% of the larger side on each side.
			pad := math.Max(c.w, c.h) * DefaultMargin * k
			want := image.Rect(int(math.Round(pad)), int(math.Round(pad)), int(math.Round(pad+c.w*k)), int(math.Round(pad+c.h*k)))
			if d := 2; iabs(box.Min.X-want.Min.X) > d || iabs(box.Min.Y-want.Min.Y) > d || iabs(box.Max.X-want.Max.X) > d || iabs(box.Max.Y-want.Max.Y) > d {
				t.Errorf("the ink covers %v, want %v (%v x %v units at %v px) within 2 px", box, want, c.w, c.h, k)
			}
			ink := func(u, v float64) bool { // a point in the view's units from the box's lower left
				x, y := want.Min.X+int(u*k), want.Max.Y-int(v*k)
				return img.RGBAAt(x, y) != pngWhite
			}
			lineAt := func(u0, u1, v float64) bool { // a dark line along right at height v
				y := want.Max.Y - int(math.Round(v*k))
				for x := want.Min.X + int(u0*k); x < want.Min.X+int(u1*k); x++ {
					if !lineNear(img, x, y) {
						return false
					}
				}
				return true
			}
			lineUp := func(u, v0, v1 float64) bool { // a dark line along up at u
				x := want.Min.X + int(math.Round(u*k))
				for y := want.Max.Y - int(v1*k); y < want.Max.Y-int(v0*k); y++ {
					if !lineNear(img, x, y) {
						return false
					}
				}
				return true
			}
			switch c.view {
			case "front": // the upright on the left
				if !ink(2, 25) || ink(30, 25) {
					t.Errorf("front: want the upright at the left (ink at u 2: %v, at u 30: %v)", ink(2, 25), ink(30, 25))
				}
			case "back": // the upright on the right
				if ink(2, 25) || !ink(38, 25) {
					t.Errorf("back: want the upright at the right (ink at u 2: %v, at u 38: %v)", ink(2, 25), ink(38, 25))
				}
			case "right": // the base's end below the upright: a line at z = 5
				if !lineAt(3, 17, 5) {
					t.Errorf("right: no line at z = 5 across the view")
				}
			case "left":
				if lineAt(3, 17, 5) {
					t.Errorf("left: a line at z = 5, where the view is the upright's plain back")
				}
			case "top": // the upright's top beside the base's: a line at x = 5
				if !lineUp(5, 3, 17) {
					t.Errorf("top: no line at x = 5 along the view")
				}
			case "bottom":
				if lineUp(5, 3, 17) {
					t.Errorf("bottom: a line at x = 5, where the view is the base's plain underside")
				}
			}
			// The faces square to the line of sight take the light from the viewer's side.
			if px := img.RGBAAt(want.Min.X+int(3*k), want.Max.Y-int(3*k)); float64(px.R) < 0.85*math.Round(scene.SolidColor[0]*255) {
				t.Errorf("a face the camera looks straight at is %v, darker than 85%% of the solids' colour", px)
			}
		})
	}
}

// The same bracket seen from the standard views' directions given as vectors is the same
// picture, and a vector along Z is the top or bottom view.
func TestCameraDirections(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "bracket", bracketMesh(), scene.Identity3)
	for _, c := range []struct {
		name string
		from scene.Vec3
	}{
		{"front", scene.Vec3{0, -2, 0}}, {"right", scene.Vec3{3, 0, 0}}, {"top", scene.Vec3{0, 0, 1}},
		{"bottom", scene.Vec3{0, 0, -5}}, {"iso", scene.Vec3{1, -1, 1}}, {"left", scene.Vec3{-1, 0, 0}},
	} {
		named := shadePNG(t, s, PNGOptions{Width: 200, Camera: Camera{Name: c.name}}, "named-"+c.name)
		vec := shadePNG(t, s, PNGOptions{Width: 200, Camera: Camera{From: c.from}}, "vector-"+c.name)
		if n := pngDiffPixels(named, vec); n > 0 {
			t.Errorf("%s: the view from %v differs in %d pixels", c.name, c.from, n)
		}
	}
}

// The camera's frame for each view: right and up on the screen, as docs/solids.md states them.
func TestCameraBasis(t *testing.T) {
	for _, c := range []struct {
		cam       Camera
		right, up scene.Vec3
	}{
		{Camera{Name: "front"}, scene.Vec3{1, 0, 0}, scene.Vec3{0, 0, 1}},
		{Camera{Name: "back"}, scene.Vec3{-1, 0, 0}, scene.Vec3{0, 0, 1}},
		{Camera{Name: "right"}, scene.Vec3{0, 1, 0}, scene.Vec3{0, 0, 1}},
		{Camera{Name: "left"}, scene.Vec3{0, -1, 0}, scene.Vec3{0, 0, 1}},
		{Camera{Name: "top"}, scene.Vec3{1, 0, 0}, scene.Vec3{0, 1, 0}},
		{Camera{Name: "bottom"}, scene.Vec3{1, 0, 0}, scene.Vec3{0, -1, 0}},
		{Camera{}, scene.Vec3{1 / math.Sqrt2, 1 / math.Sqrt2, 0}, scene.Vec3{-1 / math.Sqrt(6), 1 / math.Sqrt(6), 2 / math.Sqrt(6)}},
		{Camera{From: scene.Vec3{0, 0, 7}}, scene.Vec3{1, 0, 0}, scene.Vec3{0, 1, 0}},
	} {
		b := c.cam.basis()
		near := func(a, b scene.Vec3) bool { return math.Abs(a[0]-b[0])+math.Abs(a[1]-b[1])+math.Abs(a[2]-b[2]) < 1e-12 }
		if !near(b.right, c.right) || !near(b.up, c.up) {
			t.Errorf("%v: right %v, up %v; want %v, %v", c.cam, b.right, b.up, c.right, c.up)
		}
		// The camera looks along fwd, from the side From names.
		if from := c.cam.From; from != (scene.Vec3{}) && dot3(b.fwd, from) >= 0 {
			t.Errorf("%v: forward %v does not point away from the camera", c.cam, b.fwd)
		}
		if d := dot3(cross3(b.right, b.up), scale3(b.fwd, -1)); math.Abs(d-1) > 1e-12 {
			t.Errorf("%v: (right, up, towards the camera) is not a right-handed unit frame (%v)", c.cam, d)
		}
	}
}

func TestCameraRefused(t *testing.T) {
	const choices = "give iso, front, top, right, back, left, bottom, sheet, or a direction [x, y, z] the camera looks from"
	for _, c := range []struct{ flag, json, wantFlag, wantJSON string }{
		{"fromt", `"fromt"`, `bad view "fromt": ` + choices, `bad view "fromt": ` + choices},
		{"", `""`, `bad view "": ` + choices, `bad view "": ` + choices},
		{"0,0,0", `[0,0,0]`, `bad view "0,0,0": a direction must not be zero; ` + choices, `bad view [0, 0, 0]: a direction must not be zero; ` + choices},
		{"1,2", `[1,2]`, `bad view "1,2": ` + choices, `bad view [1,2]: ` + choices},
	} {
		if _, err := ParseCamera(c.flag); !errors.Is(err, ErrCamera) || err.Error() != c.wantFlag {
			t.Errorf("ParseCamera(%q):\n got %v\nwant %s", c.flag, err, c.wantFlag)
		}
		var cam Camera
		if err := json.Unmarshal([]byte(c.json), &cam); !errors.Is(err, ErrCamera) || err.Error() != c.wantJSON {
			t.Errorf("json %s:\n got %v\nwant %s", c.json, err, c.wantJSON)
		}
	}
	// A camera set in code is checked where the picture is drawn.
	s := scene.New()
	putSolid(t, s, "cube", boxMesh(scene.Vec3{}, scene.Vec3{1, 1, 1}), scene.Identity3)
	want := "bad view [NaN, 0, 1]: a direction must be finite and not zero; " + choices
	if _, err := PNG(s, PNGOptions{Camera: Camera{From: scene.Vec3{math.NaN(), 0, 1}}}); err == nil || err.Error() != want {
		t.Errorf("a NaN direction:\n got %v\nwant %s", err, want)
	}
	// Names and directions read back as written.
	for _, in := range []string{`"front"`, `"sheet"`, `[1,-1,0.5]`} {
		var cam Camera
		if err := json.Unmarshal([]byte(in), &cam); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(cam)
		if diff := cmp.Diff(in, string(out)); diff != "" {
			t.Errorf("round trip mismatch (-want +got):\n%s", diff)
		}
	}
}

// A curved face is shaded smooth: a 16-sided cylinder (facets 22.5° apart, under the feature
// angle) seen from the front steps by no more than a few levels from pixel to pixel across
// its side, where flat facets step by tens at each facet's edge.
func TestShadeSmoothCurvedFace(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "cyl", cylinderMesh(10, 20, 16), scene.Identity3)
	img := shadePNG(t, s, PNGOptions{Scale: 20, Camera: Camera{Name: "front"}}, "smooth")
	box := inkBox(img, img.Rect)
	y := (box.Min.Y + box.Max.Y) / 2
	lum := func(x int) int { c := img.RGBAAt(x, y); return int(c.R) + int(c.G) + int(c.B) }
	worst := 0
	// The middle 80%: towards the silhouettes the side turns away, and its shade changes
	// faster across a pixel.
	for x := box.Min.X + box.Dx()/10; x < box.Max.X-box.Dx()/10; x++ {
		worst = max(worst, iabs(lum(x+1)-lum(x)))
	}
	if worst > 6 {
		t.Fatalf("across the side at row %d the picture steps by up to %d (of 765) between neighbouring pixels, want 6 at most: the facets are shaded flat", y, worst)
	}
}

// The sheet: four panels, each labelled and each showing the part; the flat views at one
// scale and lined up (front under top in x, beside right in z).
func TestShadeSheet(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "bracket", bracketMesh(), scene.Identity3)
	img := shadePNG(t, s, PNGOptions{Width: 800, Camera: Camera{Name: SheetView}}, "sheet")
	w, h := img.Rect.Dx(), img.Rect.Dy()
	pw, ph := w/2, h/2
	boxes := map[string]image.Rectangle{}
	for _, sp := range sheetPanels {
		r := image.Rect(sp.col*pw, sp.row*ph, (sp.col+1)*pw, (sp.row+1)*ph)
		// The label: dark text in the panel's strip.
		strip := image.Rect(r.Min.X+2, r.Min.Y+2, r.Min.X+pw/2, r.Min.Y+sheetStripPx-1)
		if b := inkBox(img, strip); b.Empty() {
			t.Errorf("%s: no label in its strip %v", sp.cam.Name, strip)
		}
		pic := image.Rect(r.Min.X+2, r.Min.Y+sheetStripPx+1, r.Max.X-2, r.Max.Y-2)
		boxes[sp.cam.Name] = inkBox(img, pic)
		if boxes[sp.cam.Name].Empty() {
			t.Errorf("%s: an empty panel", sp.cam.Name)
		}
	}
	f, tp, rt := boxes["front"], boxes["top"], boxes["right"]
	t.Logf("front %v, top %v, right %v, iso %v", f, tp, rt, boxes["iso"])
	if iabs(f.Min.X-tp.Min.X) > 1 || iabs(f.Max.X-tp.Max.X) > 1 {
		t.Errorf("the front view's x %v..%v is not the top view's %v..%v", f.Min.X, f.Max.X, tp.Min.X, tp.Max.X)
	}
	if iabs(f.Min.Y-rt.Min.Y) > 1 || iabs(f.Max.Y-rt.Max.Y) > 1 {
		t.Errorf("the front view's y %v..%v is not the right view's %v..%v", f.Min.Y, f.Max.Y, rt.Min.Y, rt.Max.Y)
	}
	// One scale: the bracket is 40 long in front, 20 deep in top and right, 30 high.
	k := float64(f.Dx()) / 40
	for _, c := range []struct {
		name string
		got  int
		want float64
	}{{"front height", f.Dy(), 30}, {"top height", tp.Dy(), 20}, {"right width", rt.Dx(), 20}} {
		if math.Abs(float64(c.got)-c.want*k) > 2 {
			t.Errorf("%s %d px, want %.1f (%v units at the front's %.2f px a unit)", c.name, c.got, c.want*k, c.want, k)
		}
	}
}

// Draw of a sheet says what it is, counts a highlighted solid once, and is painted.
func TestShadeSheetDraw(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "a", bracketMesh(), scene.Identity3)
	pic, err := Draw(s, PNGOptions{Width: 400, Camera: Camera{Name: SheetView}}, Marks{Highlight: func(e *scene.Entity) bool { return e.Name == "a" }})
	if err != nil {
		t.Fatal(err)
	}
	if !pic.Solids || pic.Camera.Name != SheetView || pic.Highlighted != 1 || !pic.Painted {
		t.Fatalf("sheet picture: solids %v, camera %v, highlighted %d, painted %v", pic.Solids, pic.Camera, pic.Highlighted, pic.Painted)
	}
	want := "bad png size: a 40 x 31 px sheet leaves its panels 20 x -5 px under their labels, under 16 (MinSheetPanelPx); a sheet needs at least 32 x 72 px: use a larger width or height"
	if _, err := PNG(s, PNGOptions{Width: 40, Camera: Camera{Name: SheetView}}); !errors.Is(err, ErrPNGSize) || err.Error() != want {
		t.Fatalf("a sheet too small:\n got %v\nwant %s", err, want)
	}
}

// A picture works out each mesh's adjacency once, however many views and passes draw it: a
// sheet's four panels and their highlight, a single view and its highlight. Not parallel: it
// counts every picture the package draws meanwhile.
func TestPictureMakesTopologyOnce(t *testing.T) {
	s := scene.New()
	putSolid(t, s, "a", bracketMesh(), scene.Identity3)
	putSolid(t, s, "b", bracketMesh(), scene.Translation3(scene.Vec3{60, 0, 0}))
	hl := Marks{Highlight: func(e *scene.Entity) bool { return e.Name == "a" }}
	for _, cam := range []Camera{{Name: SheetView}, {Name: "iso"}} {
		before := topologyBuilds.Load()
		if _, err := Draw(s, PNGOptions{Width: 400, Camera: cam}, hl); err != nil {
			t.Fatal(err)
		}
		if got := topologyBuilds.Load() - before; got != 2 {
			t.Errorf("%s: %d adjacencies made for 2 meshes, want 2", cam.Name, got)
		}
	}
}

// lineNear reports a pixel of an edge within a pixel of (x, y): well darker than a face
// (the lightest, lit straight on, is about 495 of 765), as an edge falling between two rows
// leaves both.
func lineNear(img *image.RGBA, x, y int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			c := img.RGBAAt(x+dx, y+dy)
			if int(c.R)+int(c.G)+int(c.B) < 300 {
				return true
			}
		}
	}
	return false
}

func iabs(v int) int { return max(v, -v) }
