package viewer

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
)

// boxSolid is a closed box from lo to hi, oriented outwards.
func boxSolid(lo, hi scene.Vec3) *scene.Solid {
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
	m.Triangles = []uint32{0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5}
	return &scene.Solid{Mesh: m, Place: scene.Identity3}
}

// TestPageShowsSolids: the SVG leaves solids out, so a scene with solids is shown in 3D
// (WebGL, page/solids3d.js). Its iso view is cadrun's own shaded picture of the same camera:
// the same faces in the same shades, the same outline, compared by the pixel comparison the
// snapshot tests use. The 3D button turns it off to show the plan, and a scene without
// solids shows neither.
func TestPageShowsSolids(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	alone := scene.New()
	if _, err := alone.Put("box", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})); err != nil {
		t.Fatal(err)
	}
	v.Publish(State{Scene: alone})
	wait, eval, tab := page(t, ts.URL)
	wait("the scene", `document.body.dataset.version === '1'`)
	wait("the 3D view", `document.body.dataset.view3d === '1' && +document.body.dataset.view3dFrame > 0 && document.getElementById('shaded').hidden`)
	canvas := canvasShot(t, eval, tab)
	// cadrun's picture at the canvas's size: both frame the box with the same margin.
	b, err := render.PNG(alone, render.PNGOptions{Width: canvas.Bounds().Dx()})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range topColors(ours, 3) {
		if n, area := countNear(canvas, f, 4), canvas.Bounds().Dx()*canvas.Bounds().Dy(); n < area/100 {
			t.Errorf("the 3D view shows %d pixels of the face colour %v, under 1%% of its %v", n, f, canvas.Bounds().Size())
		}
	}
	// The canvas frames the box to its height, the picture to its width: draw the picture
	// again at the canvas's scale, then compare the two where the box is.
	a, c := cropTo(ours), cropTo(canvas)
	b, err = render.PNG(alone, render.PNGOptions{Width: int(math.Round(float64(canvas.Bounds().Dx()) * float64(c.Bounds().Dy()) / float64(a.Bounds().Dy())))})
	if err != nil {
		t.Fatal(err)
	}
	if ours, err = png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	a = cropTo(ours)
	if dx, dy := a.Bounds().Dx()-c.Bounds().Dx(), a.Bounds().Dy()-c.Bounds().Dy(); dx*dx > 9 || dy*dy > 9 {
		t.Errorf("the box is %v in the picture and %v in the 3D view", a.Bounds().Size(), c.Bounds().Size())
	} else {
		a, c = sameSize(a, c)
		d, err := render.PixelDiff(a, c, render.DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if n := a.Bounds().Dx() * a.Bounds().Dy(); d.Different > n/50 {
			t.Errorf("the 3D view differs from cadrun's picture in %d of %d pixels (%d anti-aliased)", d.Different, n, d.AntiAliased)
		} else {
			t.Logf("the 3D view differs from cadrun's picture in %d of %d pixels (%d anti-aliased)", d.Different, n, d.AntiAliased)
		}
	}

	// The standard views frame the box's sides: 8 by 4 from the front, 8 by 6 from the top.
	for _, c := range []struct {
		view string
		w, h float64
	}{{"front", 8, 4}, {"top", 8, 6}, {"right", 6, 4}} {
		click(t, tab, `#views3d button[data-view="`+c.view+`"]`)
		wait(c.view, `window.cadrun3d.state().cam.pitch === `+map[string]string{"front": "0", "top": "90", "right": "0"}[c.view])
		box := cropTo(canvasShot(t, eval, tab)).Bounds()
		if got, want := float64(box.Dx())/float64(box.Dy()), c.w/c.h; math.Abs(got/want-1) > 0.03 {
			t.Errorf("the %s view shows the box %v, an aspect of %.3f; want %.3f", c.view, box.Size(), got, want)
		}
	}

	// Hover names the solid under the pointer; a click selects it, as in the plan.
	click(t, tab, `#views3d button[data-view="iso"]`)
	var mid struct{ X, Y float64 }
	if err := json.Unmarshal([]byte(eval(`JSON.stringify((() => { const r = document.getElementById('gl').getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2} })())`)), &mid); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, mid.X, mid.Y)); err != nil {
		t.Fatal(err)
	}
	wait("the hover", `document.getElementById('gl').dataset.hover === 'box' && document.getElementById('tip').textContent.startsWith('box')`)
	if err := chromedp.Do(tab, chromedp.MouseClickXY(mid.X, mid.Y)); err != nil {
		t.Fatal(err)
	}
	wait("the selection", `window.cadrunState().selection.selected.join() === 'box'`)
	if got := v.Selection().Selected; !slices.Equal(got, []string{"box"}) {
		t.Errorf("the server's selection is %v, want [box]", got)
	}
	// A drag orbits.
	before := eval(`String(window.cadrun3d.state().cam.yaw)`)
	if err := chromedp.Do(tab,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, mid.X, mid.Y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, mid.X+60, mid.Y+10, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, mid.X+60, mid.Y+10, chromedp.ButtonLeft, chromedp.ClickCount(1))); err != nil {
		t.Fatal(err)
	}
	if after := eval(`String(window.cadrun3d.state().cam.yaw)`); after == before {
		t.Errorf("a drag left the camera at yaw %s", after)
	}

	// With a 2D shape beside it, the 3D view draws it in the plane z = 0, as the picture does.
	s := circles(t, "c")
	if _, err := s.Put("box", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})); err != nil {
		t.Fatal(err)
	}
	v.Publish(State{Scene: s})
	wait("the scene with a circle", `document.body.dataset.version === '2' && window.cadrun3d.state().version === 2`)
	if got := eval(`window.cadrun3d.state().shapes.join()`); got != "c" {
		t.Errorf("the 3D view draws the 2D shapes %q in the plane z = 0; want c", got)
	}
	click(t, tab, "#solid3d")
	wait("the plan", `document.getElementById('gl').hidden && document.getElementById('shaded').hidden && document.getElementById('solid3d').getAttribute('aria-pressed') === 'false'`)
	// The plan is seen and picked again: the point at the circle's centre is the stage's.
	if got := eval(`(() => { const r = document.querySelector('#world [data-name="c"]').getBoundingClientRect(), el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
		return el ? el.id || el.tagName : 'nothing' })()`); got == "gl" || got == "nothing" {
		t.Errorf("with 3D off, the plan is under the 3D view still: %s", got)
	}
	click(t, tab, "#solid3d")
	wait("3D again", `!document.getElementById('gl').hidden`)

	v.Publish(State{Scene: circles(t, "c")})
	wait("a scene without solids", `document.body.dataset.version === '3'`)
	if got := eval(`[document.body.dataset.solids, document.getElementById('gl').hidden, document.getElementById('shaded').hidden, document.getElementById('solid3d').hidden].join(' ')`); got != "0 true true true" {
		t.Errorf("without solids: solids, 3D hidden, picture hidden, button hidden = %s; want 0 true true true", got)
	}
}

// TestPageSolidsOverTheCap: a scene over the viewer's triangle cap is not sent to the page,
// which shows the server's shaded picture instead and says why.
func TestPageSolidsOverTheCap(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{MaxTriangles: 11})
	s := scene.New()
	if _, err := s.Put("box", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})); err != nil {
		t.Fatal(err)
	}
	v.Publish(State{Scene: s})
	wait, eval, _ := page(t, ts.URL)
	wait("the picture", `document.body.dataset.solids === '1' && !document.getElementById('shaded').hidden && document.getElementById('gl').hidden`)
	if got := eval(`document.getElementById('st-run').textContent`); !strings.Contains(got, "MaxTriangles") {
		t.Errorf("the status says %q; want the cap named", got)
	}
	// The view buttons turn the picture: from the front the box is 8:4, wider than the iso
	// picture it replaces, and the button says it is the one shown.
	wait("the view buttons", `!document.getElementById('views3d').hidden && document.getElementById('shaded').complete && document.getElementById('shaded').naturalWidth > 0`)
	iso := eval(`String(document.getElementById('shaded').naturalWidth / document.getElementById('shaded').naturalHeight)`)
	eval(`document.querySelector('#views3d button[data-view=front]').click(), ''`)
	wait("the front picture", `(() => { const p = document.getElementById('shaded'); return p.src.includes('view=front') && p.complete && p.naturalWidth > 0 })()`)
	front := eval(`String(document.getElementById('shaded').naturalWidth / document.getElementById('shaded').naturalHeight)`)
	if f, i := atof(t, front), atof(t, iso); !(f > 1.6 && f > i) {
		t.Errorf("width:height of the front picture %.2f, of the iso one %.2f: want the box's 8:4 (with its margin), wider than iso", f, i)
	}
	if got := eval(`document.querySelector('#views3d button[data-view=front]').getAttribute('aria-pressed')`); got != "true" {
		t.Errorf("the Front button's aria-pressed is %q; want true", got)
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// canvasShot is the page's screenshot cut to the 3D view's canvas.
func canvasShot(t *testing.T, eval func(string) string, tab context.Context) image.Image {
	t.Helper()
	var geo struct{ X, Y, W, H float64 }
	js := eval(`JSON.stringify((() => { const r = document.getElementById('gl').getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} })())`)
	if err := json.Unmarshal([]byte(js), &geo); err != nil {
		t.Fatalf("%v (%s)", err, js)
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	r := image.Rect(int(math.Ceil(geo.X)), int(math.Ceil(geo.Y)), int(geo.X+geo.W), int(geo.Y+geo.H))
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), img, r.Min, draw.Src)
	return out
}

// countNear counts the pixels of img within tol of c in each channel.
func countNear(img image.Image, c color.RGBA, tol int) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if near(color.RGBAModel.Convert(img.At(x, y)).(color.RGBA), c, tol) {
				n++
			}
		}
	}
	return n
}

// cropTo is img cut to the box of its pixels that are not near white, moved to the origin.
func cropTo(img image.Image) *image.RGBA {
	b := img.Bounds()
	box := image.Rectangle{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !near(color.RGBAModel.Convert(img.At(x, y)).(color.RGBA), color.RGBA{255, 255, 255, 255}, 24) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	out := image.NewRGBA(image.Rect(0, 0, box.Dx(), box.Dy()))
	draw.Draw(out, out.Bounds(), img, box.Min, draw.Src)
	return out
}

// sameSize cuts two pictures to the size they share.
func sameSize(a, b *image.RGBA) (*image.RGBA, *image.RGBA) {
	r := image.Rect(0, 0, min(a.Bounds().Dx(), b.Bounds().Dx()), min(a.Bounds().Dy(), b.Bounds().Dy()))
	return a.SubImage(r).(*image.RGBA), b.SubImage(r).(*image.RGBA)
}

// topColors is the n most frequent colours of img other than white.
func topColors(img image.Image, n int) []color.RGBA {
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c != (color.RGBA{255, 255, 255, 255}) {
				count[c]++
			}
		}
	}
	var cs []color.RGBA
	for c := range count {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b color.RGBA) int { return count[b] - count[a] })
	return cs[:min(n, len(cs))]
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}
