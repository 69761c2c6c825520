package render

// Pictures for a reader that works from the pixels alone (an agent that sees the PNG and a
// few words with it): the scene as PNG draws it, plus marks that help read it. Highlighted
// shapes are repainted on top of everything in HighlightColor while the rest fades toward
// the background, so a change shows wherever it is and whatever covers it; a grid of labelled
// lines at round steps lets coordinates be read off. The marks are scenes of their own drawn
// over the same view by the same rasterizer, so they line up with the drawing exactly.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// HighlightColor is the colour highlighted shapes are repainted in: orange, the selection
// colour of many CAD and 3D programs, far from the grid's blue (and from the sketch's magenta
// and scene diff's green, red and blue).
var HighlightColor = scene.Color{1, 0.5, 0, 1}

// Highlight paint: fills keep HighlightFillAlpha of the colour so that what lies under a
// large highlighted plate still shows; strokes are opaque and at least highlightStrokePx
// wide. The other shapes fade highlightFade of the way to the background.
const (
	HighlightFillAlpha = 0.5
	highlightStrokePx  = 2
	highlightFade      = 0.7
)

// A highlighted shape smaller than MarkBelowPx on both sides is small (Picture.Small); asked
// for (Marks.Rings), it gets a ring of radius markRingPx around it, so that it can be found
// at all. Rings are not drawn unasked: around a quarter-arc a ring reads as a hole.
const (
	MarkBelowPx = 6
	markRingPx  = 9
)

// Grid geometry, in pixels: lines are at least gridMinPx apart, labels are gridLabelPx high.
const (
	gridMinPx   = 64
	gridLabelPx = 10
)

// Grid colours: faint lines, stronger axes (x = 0, y = 0), labels on a light plate.
var (
	gridLineColor  = scene.Color{0.15, 0.4, 0.85, 0.35}
	gridAxisColor  = scene.Color{0.15, 0.4, 0.85, 0.9}
	gridLabelColor = scene.Color{0.05, 0.2, 0.55, 1}
	gridPlateColor = scene.Color{1, 1, 1, 0.85}
)

// Marks are drawn over a picture to help read it.
type Marks struct {
	// Highlight reports the shapes to highlight (nil: none). A group is highlighted through
	// its members: Highlight must say true for each shape that is to stand out.
	Highlight func(*scene.Entity) bool
	// Grid draws labelled grid lines at a round step in scene units.
	Grid bool
	// Rings circles each highlighted shape smaller than MarkBelowPx on both sides.
	Rings bool
}

// Picture is a PNG and what a reader needs to map its pixels to the scene.
type Picture struct {
	PNG           []byte
	Width, Height int
	// Visible is the scene window the whole picture shows (the view, widened along one
	// axis when the picture's shape differs from it).
	Visible View
	// Scale is pixels per scene unit, the same along both axes. The scene point (x, y) is at
	// pixel ((x-Visible.Min.X)·Scale, (Visible.Max.Y-y)·Scale): image y grows downward.
	Scale float64
	// Painted reports that the scene changed at least one pixel from the background (marks
	// not counted).
	Painted bool
	// Highlighted counts the shapes repainted as highlighted; Small counts those of them
	// smaller than MarkBelowPx on both sides (ringed when Marks.Rings asks).
	Highlighted, Small int
	// GridStep is the grid's step in scene units (0: no grid).
	GridStep float64
	// Solids reports a picture of solids: their view from Camera (see shade.go), in which a
	// pixel stands for no one scene point. Visible is then the window of the plan framed and
	// Scale the pixels per scene unit of a length square to the line of sight (on a sheet,
	// in its three flat views).
	Solids bool
	Camera Camera
}

// drawSolids is Draw for a scene with solids. Highlighted entities are drawn again over the
// picture faded towards the background, all in HighlightColor, on top of the rest, as in a
// plan picture; the grid, whose lines read plan coordinates, is not drawn.
func drawSolids(s *scene.Scene, solids []scene.SolidItem, opt PNGOptions, m Marks) (*Picture, error) {
	out, err := shadeDraw(s, solids, opt, m.Highlight)
	if err != nil {
		return nil, err
	}
	img := out.img
	pic := &Picture{Width: img.Rect.Dx(), Height: img.Rect.Dy(), Visible: out.plan, Scale: out.scale,
		Painted: out.painted, Solids: true, Camera: opt.Camera, Highlighted: out.highlighted}
	if pic.PNG, err = encodePNG(img); err != nil {
		return nil, err
	}
	return pic, nil
}

// Draw renders the scene as PNG with marks over it. Without marks its PNG is PNG's, byte for
// byte.
func Draw(s *scene.Scene, opt PNGOptions, m Marks) (*Picture, error) {
	if s.HasSolids() {
		return drawSolids(s, s.Solids(), opt, m)
	}
	img, v, bg, err := raster(s, opt)
	if err != nil {
		return nil, err
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	vis, k := v.Shown(w, h)
	pic := &Picture{Width: w, Height: h, Visible: vis, Scale: k, Painted: painted(img, bg)}
	if m.Highlight != nil {
		hl, rings, n := highlightScene(s, m.Highlight, k)
		pic.Small = rings.Len()
		if !m.Rings {
			rings = scene.New()
		}
		if pic.Highlighted = n; n > 0 {
			fade(img, bg, highlightFade)
			if err := overlay(opt.Context, img, hl, v); err != nil {
				return nil, err
			}
			if err := overlay(opt.Context, img, rings, v); err != nil {
				return nil, err
			}
		}
	}
	if m.Grid {
		g, step, err := gridScene(pic.Visible, k)
		if err != nil {
			return nil, err
		}
		if err := overlay(opt.Context, img, g, v); err != nil {
			return nil, err
		}
		pic.GridStep = step
	}
	if pic.PNG, err = encodePNG(img); err != nil {
		return nil, err
	}
	return pic, nil
}

// painted reports whether any pixel of img differs from bg.
func painted(img *image.RGBA, bg color.RGBA) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	row := make([]byte, 4*w)
	for x := range w {
		row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = bg.R, bg.G, bg.B, bg.A
	}
	for y := range h {
		if !bytes.Equal(img.Pix[y*img.Stride:y*img.Stride+4*w], row) {
			return true
		}
	}
	return false
}

// fade moves every pixel the fraction f of the way to bg.
func fade(img *image.RGBA, bg color.RGBA, f float64) {
	var lut [4][256]uint8 // by channel, by value: a table is several times faster than the sums
	for c, to := range [4]uint8{bg.R, bg.G, bg.B, bg.A} {
		for v := range 256 {
			lut[c][v] = uint8(math.Round(float64(v)*(1-f) + float64(to)*f))
		}
	}
	for y := range img.Rect.Dy() {
		row := img.Pix[y*img.Stride : y*img.Stride+4*img.Rect.Dx()]
		for i := 0; i+3 < len(row); i += 4 {
			row[i], row[i+1], row[i+2], row[i+3] = lut[0][row[i]], lut[1][row[i+1]], lut[2][row[i+2]], lut[3][row[i+3]]
		}
	}
}

// overlay paints the marks s over img, which shows view v, under a MaxRasterCells of their own
// and until ctx (nil: never) is done.
func overlay(ctx context.Context, img *image.RGBA, s *scene.Scene, v View) error {
	if s.Len() == 0 {
		return nil
	}
	return paintOver(ctx, img, s, v.ToPixels(float64(img.Rect.Dx()), float64(img.Rect.Dy())), nil) // marks have no hatches
}

// highlightScene is the highlighted shapes of s (with their groups, for their placement)
// repainted in HighlightColor, rings around the ones too small to see, and how many shapes
// it holds; k is pixels per scene unit.
func highlightScene(s *scene.Scene, keep func(*scene.Entity) bool, k float64) (hl, rings *scene.Scene, n int) {
	hl = s.Subset(func(e *scene.Entity) bool { return !e.IsGroup() && keep(e) })
	rings = scene.New()
	var gone []string
	for _, e := range hl.Walk() {
		if e.IsGroup() {
			continue
		}
		st := e.Style
		var fill, stroke *scene.Color
		if st.Fill != nil && st.Fill[3] > 0 {
			c := HighlightColor
			if e.Kind() != scene.KindText { // letters stay solid, or they would not read
				c[3] = HighlightFillAlpha
			}
			fill = &c
		}
		width := st.StrokeWidth
		if st.Stroke != nil && st.Stroke[3] > 0 {
			c := HighlightColor
			stroke = &c
			width = math.Max(width, highlightStrokePx/k)
		}
		if fill == nil && stroke == nil {
			gone = append(gone, e.Name) // paints nothing: nothing to highlight
			continue
		}
		// The names come from the scene and the colours are valid: these cannot fail.
		_ = hl.SetFill(e.Name, fill)
		_ = hl.SetStroke(e.Name, stroke, width)
		n++
		b := hl.WorldBounds(e)
		if sz := b.Size(); b.NonEmpty && sz.X*k < MarkBelowPx && sz.Y*k < MarkBelowPx {
			ring, err := rings.Put("r"+strconv.Itoa(rings.Len()), scene.Circle{Center: b.Center(), Radius: markRingPx / k})
			if err == nil {
				c := HighlightColor
				_ = rings.SetStroke(ring.Name, &c, highlightStrokePx/k)
			}
		}
	}
	for _, name := range gone {
		_ = hl.Delete(name)
	}
	return hl, rings, n
}

// gridScene is a grid over the visible window: lines at a round step (1, 2 or 5 times a
// power of ten) at least gridMinPx apart and far enough apart for their labels, the axes
// stronger, and labels in scene units along the bottom and left edges. k is pixels per
// scene unit.
func gridScene(vis View, k float64) (*scene.Scene, float64, error) {
	step := niceStep(gridMinPx / k)
	size := gridLabelPx / k
	for range 8 { // widen the step until the longest label fits between two lines
		widest := 0.0
		for _, x := range []float64{vis.Min.X, vis.Max.X, vis.Min.Y, vis.Max.Y} {
			l, err := text.MeasureString(gridLabel(math.Round(x/step)*step, step), size, "")
			if err != nil {
				return nil, 0, fmt.Errorf("laying out grid labels: %w", err)
			}
			widest = math.Max(widest, l.Width)
		}
		if (widest+8/k) < step || step*k > 4*gridMinPx {
			break
		}
		step = niceStep(step * 1.01)
	}
	g := scene.New()
	n := 0
	put := func(shape scene.Shape, fill, stroke *scene.Color) error {
		e, err := g.Put("g"+strconv.Itoa(n), shape)
		n++
		if err != nil {
			return fmt.Errorf("drawing the grid: %w", err)
		}
		_ = g.SetFill(e.Name, fill)
		_ = g.SetStroke(e.Name, stroke, 0)
		return nil
	}
	line := func(a, b geom.Vec, at float64) error {
		c := gridLineColor
		if math.Abs(at) < step/2 {
			c = gridAxisColor
		}
		return put(scene.Line{Points: []geom.Vec{a, b}}, nil, &c)
	}
	label := func(v float64, at geom.Vec) error {
		str := gridLabel(v, step)
		l, err := text.MeasureString(str, size, "")
		if err != nil {
			return fmt.Errorf("laying out grid labels: %w", err)
		}
		pad := 2 / k
		plate, ink := gridPlateColor, gridLabelColor
		r := scene.Rect{Center: geom.Vec{X: at.X + l.Width/2, Y: at.Y + (l.Ascent-l.Descent)/2}, Width: l.Width + 2*pad, Height: l.Ascent + l.Descent + 2*pad}
		if err := put(r, &plate, nil); err != nil {
			return err
		}
		return put(&scene.Text{Text: str, Pos: at, Size: size}, &ink, nil)
	}
	first := func(lo float64) float64 { return math.Ceil(lo/step) * step }
	for x := first(vis.Min.X); x <= vis.Max.X; x += step {
		if err := line(geom.Vec{X: x, Y: vis.Min.Y}, geom.Vec{X: x, Y: vis.Max.Y}, x); err != nil {
			return nil, 0, err
		}
	}
	for y := first(vis.Min.Y); y <= vis.Max.Y; y += step {
		if err := line(geom.Vec{X: vis.Min.X, Y: y}, geom.Vec{X: vis.Max.X, Y: y}, y); err != nil {
			return nil, 0, err
		}
	}
	// Labels after the lines, so that no line crosses one. The x labels sit on the bottom
	// edge, right of their line; the y labels on the left edge, above theirs, clear of the
	// bottom row.
	edge := 4 / k
	for x := first(vis.Min.X); x <= vis.Max.X-step/2; x += step {
		if err := label(math.Round(x/step)*step, geom.Vec{X: x + 3/k, Y: vis.Min.Y + edge}); err != nil {
			return nil, 0, err
		}
	}
	for y := first(vis.Min.Y + 2*size + edge); y <= vis.Max.Y-size-edge; y += step {
		if err := label(math.Round(y/step)*step, geom.Vec{X: vis.Min.X + 2/k, Y: y + 3/k}); err != nil { // the plate from the edge
			return nil, 0, err
		}
	}
	return g, step, nil
}

// niceStep is the smallest of 1, 2 and 5 times a power of ten that is at least x.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// gridLabel writes a grid value with the digits its step needs ("-20", "2.5", "0.002").
func gridLabel(v, step float64) string {
	if math.Abs(v) < step/2 {
		return "0"
	}
	if a := math.Abs(v); a >= 1e7 || step < 1e-6 {
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	dec := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	return strconv.FormatFloat(v, 'f', dec, 64)
}
