package viewer

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"testing"

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

// TestPageShowsSolids: the SVG leaves solids out, so a scene with solids is shown as the
// server's shaded picture, whose three shades of a box's faces the page shows; the 3D button
// turns it off to show the plan, and a scene without solids shows no picture and no button.
func TestPageShowsSolids(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	s := circles(t, "c")
	if _, err := s.Put("box", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})); err != nil {
		t.Fatal(err)
	}
	v.Publish(State{Scene: s})
	wait, eval, tab := page(t, ts.URL)
	wait("the scene", `document.body.dataset.version === '1'`)
	wait("the shaded picture", `document.body.dataset.solids === '1' && !document.getElementById('shaded').hidden &&
		document.getElementById('shaded').complete && document.getElementById('shaded').naturalWidth > 0`)
	var geo struct{ X, Y, W, H, NW float64 }
	js := eval(`JSON.stringify((() => { const el = document.getElementById('shaded'), r = el.getBoundingClientRect();
		return {x: r.x, y: r.y, w: r.width, h: r.height, nw: el.naturalWidth} })())`)
	if err := json.Unmarshal([]byte(js), &geo); err != nil {
		t.Fatalf("%v (%s)", err, js)
	}
	// The three faces cadrun shades, the most frequent colours of its own picture.
	b, err := render.PNG(s, render.PNGOptions{Width: int(geo.NW)})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	faces := topColors(ours, 3)
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	area := image.Rect(int(math.Ceil(geo.X)), int(math.Ceil(geo.Y)), int(geo.X+geo.W), int(geo.Y+geo.H))
	for _, f := range faces {
		n := 0
		for y := area.Min.Y; y < area.Max.Y; y++ {
			for x := area.Min.X; x < area.Max.X; x++ {
				if near(color.RGBAModel.Convert(theirs.At(x, y)).(color.RGBA), f, 3) {
					n++
				}
			}
		}
		if n < area.Dx()*area.Dy()/100 {
			t.Errorf("the page shows %d pixels of the face colour %v, under 1%% of the picture's %v", n, f, area.Size())
		}
	}

	click(t, tab, "#solid3d")
	wait("the plan", `document.getElementById('shaded').hidden && document.getElementById('solid3d').getAttribute('aria-pressed') === 'false'`)
	// The plan is seen and picked again: the point at the circle's centre is the stage's.
	if got := eval(`(() => { const r = document.querySelector('#world [data-name="c"]').getBoundingClientRect(), el = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
		return el ? el.id || el.tagName : 'nothing' })()`); got == "shaded" || got == "nothing" {
		t.Errorf("with the 3D picture off, the plan is under the picture still: %s", got)
	}
	click(t, tab, "#solid3d")
	wait("the picture again", `!document.getElementById('shaded').hidden`)

	v.Publish(State{Scene: circles(t, "c")})
	wait("a scene without solids", `document.body.dataset.version === '2'`)
	if got := eval(`[document.body.dataset.solids, document.getElementById('shaded').hidden, document.getElementById('solid3d').hidden].join(' ')`); got != "0 true true" {
		t.Errorf("without solids: solids, picture hidden, button hidden = %s; want 0 true true", got)
	}
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
