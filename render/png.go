package render

// The PNG writer paints with golang.org/x/image/vector, a fast coverage rasterizer that has no
// stroker and only the nonzero rule (it sums signed coverage and takes |sum| clamped to 1), so
// this file supplies both: fills are the flattened outline as is (holes are wound opposite to
// their outers, as in SVG's default nonzero fill), and a stroke is the union of one quad per
// segment plus round pieces at joins and caps, all wound the same way so that nonzero gives
// their union and a translucent stroke is blended once.
//
// A rasterizer clears width×height cells on every Reset, so one sized to the whole picture
// would cost a megapixel per entity; each fill and stroke instead gets a rasterizer sized to
// its own clipped pixel box and is drawn into the matching sub-rectangle. Contours reaching
// past that box are clipped to it first: the rasterizer walks every row from a contour's top,
// visible or not, and its fixed-point mode overflows on far-away coordinates.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"golang.org/x/image/vector"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// MaxPNGSide caps each side of a PNG, in pixels; a 8192×8192 RGBA picture is 256 MiB.
const MaxPNGSide = 8192

// DefaultPNGSide is the longer side of a PNG when neither a size nor a scale is given.
const DefaultPNGSide = 1024

// MaxRasterCells caps the rasterizer cells one picture's fills and strokes cover in all: each
// is cleared, accumulated and blended over its own pixel box (strip by strip), so a picture's
// time follows this sum, not its entity count or its size alone. 2^29 is 512 shapes each
// covering a whole 1,024-px picture, or 8 covering an 8,192-px one: a few seconds of drawing.
const MaxRasterCells = 1 << 29

// maxRasterCells is MaxRasterCells; a test lowers it.
var maxRasterCells int64 = MaxRasterCells

// ErrRasterCells is returned when drawing a picture would rasterize more than
// MaxRasterCells cells; the message says what to change.
var ErrRasterCells = errors.New("picture too costly to draw")

// pngTolerance is the largest distance, in pixels, between a curve (or a round join or cap)
// and the chords that stand for it: below what anti-aliasing can show.
const pngTolerance = 0.1

// ErrPNGSize is returned when the requested picture size is negative, ambiguous, or has a
// side outside 1..MaxPNGSide pixels; the message gives the size and what to change.
var ErrPNGSize = errors.New("bad png size")

// PNGOptions frame and size a PNG. The zero value fits the scene with DefaultMargin, makes
// the longer side DefaultPNGSide pixels and paints on opaque white.
type PNGOptions struct {
	// Width and Height are the picture's size in pixels. Give both, or one and the other
	// follows the view's aspect ratio, or neither. The view is centred, aspect preserved, if
	// the picture's shape differs from it.
	Width, Height int
	// Scale is pixels per world unit, used when Width and Height are 0.
	Scale float64
	// Background is painted first; nil is opaque white, a colour with alpha 0 leaves the
	// picture transparent.
	Background *scene.Color
	// View is the world window shown; nil fits the scene.
	View *View
	// Margin is used when View is nil; 0 means DefaultMargin.
	Margin float64
	// Camera is the side solids are seen from (zero: iso); a scene without solids is drawn
	// as its plan whatever it says.
	Camera Camera `json:",omitzero"`
	// Context, when not nil, is checked between shapes: once it is done, drawing stops and
	// its error is returned. A picture may take seconds, and its caller may have gone.
	Context context.Context
}

// PNG renders the scene as PNG bytes. The same scene and options give the same bytes.
func PNG(s *scene.Scene, opt PNGOptions) ([]byte, error) {
	img, err := Raster(s, opt)
	if err != nil {
		return nil, err
	}
	return encodePNG(img)
}

// encodePNG writes a picture as PNG bytes.
func encodePNG(img *image.RGBA) ([]byte, error) {
	var buf bytes.Buffer
	// BestSpeed: default compression makes the file only a little smaller and takes longer
	// than rasterizing the whole scene.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if img.Rect.Dx()*img.Rect.Dy() <= pngPooledPixels {
		enc.BufferPool = pngEncoderBuffers{}
	}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encoding png: %w", err)
	}
	return buf.Bytes(), nil
}

// Raster paints the scene into a new RGBA picture (premultiplied alpha). It only reads the
// scene, which must not change until it returns; renders may run concurrently. A scene with
// solids is drawn as their shaded view from opt.Camera (see shade.go); opt.View is then a
// window of the plan, framed from the solids' lowest point to their highest.
func Raster(s *scene.Scene, opt PNGOptions) (*image.RGBA, error) {
	img, _, _, err := raster(s, opt)
	return img, err
}

// raster is Raster; it also returns the view drawn and the background painted.
func raster(s *scene.Scene, opt PNGOptions) (*image.RGBA, View, color.RGBA, error) {
	if s.HasSolids() {
		out, err := shadeDraw(s, s.Solids(), opt, nil)
		return out.img, out.plan, out.bg, err
	}
	bg := color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
	// A plan is drawn whatever the camera, as the solids' pictures draw 2D shapes in the
	// plane z = 0; a camera no picture could take is refused all the same.
	if err := opt.Camera.Check(); err != nil {
		return nil, View{}, bg, err
	}
	v, err := resolveView(s, opt.View, opt.Margin)
	if err != nil {
		return nil, v, bg, err
	}
	w, h, err := pngSize(v.Size(), opt)
	if err != nil {
		return nil, v, bg, err
	}
	if opt.Background != nil {
		bg = pngColor8(*opt.Background)
	}
	// Checked before the pixels are made, so that a scene over a budget costs none of them.
	hatches, err := budgeted(s)
	if err != nil {
		return nil, v, bg, err
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	pngFill(img, bg)
	if err := paintOver(opt.Context, img, s, v.ToPixels(float64(w), float64(h)), hatches); err != nil {
		return nil, v, bg, err
	}
	return img, v, bg, nil
}

// paintOver paints the scene over img, mapped to pixels by tr, with the hatches of
// scene.Scene.Hatches. It stops at the first shape that would take the cells rasterized past
// maxRasterCells, or once ctx (nil: never) is done, and returns why.
func paintOver(ctx context.Context, img *image.RGBA, s *scene.Scene, tr geom.Affine, hatches map[*scene.Entity]scene.Hatching) error {
	if ctx == nil {
		ctx = context.Background()
	}
	p := pngPainters.Get().(*pngPainter)
	defer pngPainters.Put(p)
	p.img, p.scale, p.cells = img, tr.MaxScale(), 0 // the same scale along both axes
	defer func() { p.img = nil }()

	// Two stages on two goroutines: walking the scene and flattening runs ahead of outlining
	// and rasterizing. Items stay in z order, so the picture is the same as a serial render's.
	batches := make(chan []pngItem, 8)
	stop := make(chan struct{}) // closed if painting fails or panics, so that the walk ends too
	stopped := false
	halt := func() {
		if !stopped {
			stopped = true
			close(stop)
		}
	}
	defer halt()
	var failed any
	go func() {
		defer close(batches)
		defer func() { failed = recover() }() // re-raised below, on the caller's goroutine
		preparePNG(s, tr, p.scale, img.Rect.Size(), hatches, batches, stop)
	}()
	var err error
	for batch := range batches {
		for i := range batch {
			if err = ctx.Err(); err != nil {
				err = fmt.Errorf("drawing the picture: %w", err)
				break
			}
			if err = p.paint(&batch[i]); err != nil {
				break
			}
		}
		if err != nil {
			// End the walk and wait for it, so that failed is read after it is written.
			halt()
			for range batches {
			}
			break
		}
	}
	if failed != nil {
		panic(failed)
	}
	return err
}

// pngSize resolves the picture size from the options and the view's size in world units.
func pngSize(view geom.Vec, opt PNGOptions) (int, int, error) {
	if opt.Width < 0 || opt.Height < 0 || !(opt.Scale >= 0) || math.IsInf(opt.Scale, 0) {
		return 0, 0, fmt.Errorf("%w: width %d, height %d, scale %v: give positive values, or 0 to derive them from the view",
			ErrPNGSize, opt.Width, opt.Height, opt.Scale)
	}
	if opt.Scale > 0 && (opt.Width > 0 || opt.Height > 0) {
		return 0, 0, fmt.Errorf("%w: scale %v and width %d, height %d: give either a scale or a width/height, not both",
			ErrPNGSize, opt.Scale, opt.Width, opt.Height)
	}
	aspect := view.X / view.Y
	var w, h float64
	switch {
	case opt.Width > 0 && opt.Height > 0:
		w, h = float64(opt.Width), float64(opt.Height)
	case opt.Width > 0:
		w = float64(opt.Width)
		h = math.Max(1, math.Round(w/aspect))
	case opt.Height > 0:
		h = float64(opt.Height)
		w = math.Max(1, math.Round(h*aspect))
	case opt.Scale > 0:
		w, h = math.Round(view.X*opt.Scale), math.Round(view.Y*opt.Scale)
	case aspect >= 1:
		w = DefaultPNGSide
		h = math.Max(1, math.Round(w/aspect))
	default:
		h = DefaultPNGSide
		w = math.Max(1, math.Round(h*aspect))
	}
	if w > MaxPNGSide || h > MaxPNGSide {
		return 0, 0, fmt.Errorf("%w: %.0f x %.0f px requested; each side must be at most %d px (MaxPNGSide): use a smaller scale or width",
			ErrPNGSize, w, h, MaxPNGSide)
	}
	if w < 1 || h < 1 {
		return 0, 0, fmt.Errorf("%w: %.0f x %.0f px requested; each side must be at least 1 px: use a larger scale or width",
			ErrPNGSize, w, h)
	}
	return int(w), int(h), nil
}

// pngColor16 converts a non-premultiplied 0..1 colour to image/color's premultiplied
// form, at 16 bits so that a faint alpha keeps its hue.
func pngColor16(c scene.Color) color.RGBA64 {
	a := pngClamp01(c[3])
	ch := func(v float64) uint16 { return uint16(math.Round(v * 0xffff)) }
	return color.RGBA64{R: ch(pngClamp01(c[0]) * a), G: ch(pngClamp01(c[1]) * a), B: ch(pngClamp01(c[2]) * a), A: ch(a)}
}

func pngColor8(c scene.Color) color.RGBA {
	a := pngClamp01(c[3])
	ch := func(v float64) uint8 { return uint8(math.Round(v * 0xff)) }
	return color.RGBA{R: ch(pngClamp01(c[0]) * a), G: ch(pngClamp01(c[1]) * a), B: ch(pngClamp01(c[2]) * a), A: ch(a)}
}

// pngClamp01 clamps v to 0..1 (NaN to 0); the scene validates colours, this only keeps the integer
// conversions defined.
func pngClamp01(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return math.Min(v, 1)
}

// pngFill sets every pixel: one row by hand, the rest copied from it.
func pngFill(img *image.RGBA, c color.RGBA) {
	if c == (color.RGBA{}) {
		return // NewRGBA is already transparent
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	row := img.Pix[:4*w]
	for x := 0; x < w; x++ {
		row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
	}
	for y := 1; y < h; y++ {
		copy(img.Pix[y*img.Stride:y*img.Stride+4*w], row)
	}
}

// pngPainters recycles rasterizers and scratch buffers across renders; a pngPainter serves one
// Raster call at a time.
var pngPainters = sync.Pool{New: func() any { return new(pngPainter) }}

// pngPainter draws items into img. Coordinates are in image pixels until contour translates
// them to the current rasterizer's box.
type pngPainter struct {
	img   *image.RGBA
	scale float64 // pixels per world unit

	// cells counts the rasterizer cells covered so far in this picture (maxRasterCells).
	cells int64
	// measuring makes contour widen ext, in rasterizer space, instead of adding to z.
	measuring bool
	ext       geom.Box

	z   vector.Rasterizer
	src image.Uniform
	off geom.Vec // image position of the rasterizer's (0, 0)
	lim geom.Vec // contours are clipped to [-1, lim.X] × [-1, lim.Y] in rasterizer space

	pts  []geom.Vec // one stroked polyline without repeated points
	arc  []geom.Vec // one round piece
	loc  []geom.Vec // one contour in rasterizer space
	tmp  []geom.Vec // clipping scratch
	quad [4]geom.Vec
	tri  [3]geom.Vec
	// capStyle, joinStyle and miterLimit are the current stroke's (pngItem's cap, join and
	// miter).
	capStyle, joinStyle pngCorner
	miterLimit          float64
	// step is the angle between the chords of round joins and caps, cosStep its cosine.
	step, cosStep float64
}

// pngItem is one shape ready to rasterize.
type pngItem struct {
	lines        []geom.Polyline // the outline flattened, in pixels
	dashes       []geom.Polyline // the dashes of a stroke with a linetype, in pixels; nil: lines
	box          geom.Box        // pixel bounds of the outline
	fill, stroke *scene.Color    // nil when not painted
	half         float64         // half the stroke width, in pixels
	// cap, join and miter are the stroke's ends and corners (miter the limit), small so that
	// a picture's thousands of items stay as small as they were.
	cap, join pngCorner
	miter     float32
}

// pngCorner is a stroke's cap or join, as scene.Style names it.
type pngCorner uint8

const (
	pngRound pngCorner = iota
	pngButt
	pngSquare
	pngMiter
	pngBevel
)

// pngCorners are the codes of the style's cap and join.
func pngCorners(st scene.Style) (cp, jn pngCorner) {
	switch st.Cap {
	case scene.CapButt:
		cp = pngButt
	case scene.CapSquare:
		cp = pngSquare
	}
	switch st.Join {
	case scene.StrokeMiter:
		jn = pngMiter
	case scene.StrokeBevel:
		jn = pngBevel
	}
	return cp, jn
}

// pngNarrow narrows the strips of a large box to what they cover (pngPainter.layer); a test
// turns it off to compare the pixels.
var pngNarrow = true

// pngMaxCells caps the cells of one rasterizer (see pngPainter.layer).
const pngMaxCells = 1 << 20

// pngBatch is how many items travel together between the two stages, so that the channel
// costs little per item.
const pngBatch = 128

// preparePNG sends the scene's visible items in z order, flattened and mapped by tr, each
// shape followed by its hatch, until done or stop is closed.
func preparePNG(s *scene.Scene, tr geom.Affine, scale float64, size image.Point, hatches map[*scene.Entity]scene.Hatching, out chan<- []pngItem, stop <-chan struct{}) {
	batch := make([]pngItem, 0, pngBatch+1)
	for it := range s.Paint() {
		drawn := s.Drawn(it.Entity)
		if !drawn.Plot {
			continue // on a layer that is not plotted
		}
		if item, ok := preparePNGShape(it, drawn, tr, scale, size); ok {
			batch = append(batch, item)
		}
		if h, ok := hatches[it.Entity]; ok {
			batch = appendPNGHatch(batch, it, h, tr, scale, size)
		}
		if len(batch) >= pngBatch {
			select {
			case out <- batch:
			case <-stop:
				return
			}
			batch = make([]pngItem, 0, pngBatch+1)
		}
	}
	if len(batch) > 0 {
		select {
		case out <- batch:
		case <-stop:
		}
	}
}

// preparePNGShape is one shape's item, flattened and mapped by tr; false when it paints
// nothing in the picture.
func preparePNGShape(it scene.Item, drawn scene.Drawn, tr geom.Affine, scale float64, size image.Point) (pngItem, bool) {
	st := drawn.Style
	item := pngItem{half: st.StrokeWidth * scale / 2, miter: float32(st.Miter())}
	item.cap, item.join = pngCorners(st)
	if st.Hairline() {
		item.half = 0.5 // one pixel, whatever the drawing's units
	}
	if st.Fill != nil && st.Fill[3] > 0 {
		item.fill = st.Fill
	}
	if st.Stroke != nil && st.Stroke[3] > 0 && item.half > 0 {
		item.stroke = st.Stroke
	}
	if item.fill == nil && item.stroke == nil {
		return item, false
	}
	// Bounds and flattening work on the world path, and only the flattened points are
	// mapped to pixels, in place: mapping the path first would copy it for nothing.
	if wb := it.Path.Bounds(); wb.NonEmpty {
		for _, c := range [4]geom.Vec{wb.Min, wb.Max, {X: wb.Min.X, Y: wb.Max.Y}, {X: wb.Max.X, Y: wb.Min.Y}} {
			item.box.Extend(tr.Apply(c))
		}
	}
	if _, ok := pixelBox(item.box, item.pad(), size); !ok {
		return item, false // entirely outside the picture: skip the flattening too
	}
	item.lines = it.Path.Flatten(pngTolerance / scale)
	for _, l := range item.lines {
		for i, q := range l.Points {
			l.Points[i] = tr.Apply(q)
		}
	}
	if d := strokeDashes(drawn.Style); d != nil && item.stroke != nil {
		for i := range d {
			d[i] *= scale
		}
		item.dashes = dashPolylines(item.lines, d)
	}
	return item, true
}

// pngDot is the length, in pixels, of the dash drawn for a dot (a dash of length 0): its
// round caps make it a dot of the stroke's width.
const pngDot = 1e-3

// dashPolylines cuts polylines into their dashes (geom.Path.Dash): pattern is dash, gap,
// dash, ... lengths in the polylines' units, starting afresh at each polyline as SVG and PDF
// start it at each subpath. A dot becomes a dash pngDot long.
func dashPolylines(lines []geom.Polyline, pattern []float64) []geom.Polyline {
	var p geom.Path
	for _, l := range lines {
		p.Polyline(l.Points, l.Closed)
	}
	out := p.Dash(pattern, 1).Flatten(1)
	for i, l := range out {
		if len(l.Points) == 1 {
			out[i].Points = append(l.Points, l.Points[0].Add(geom.Vec{X: pngDot}))
		}
	}
	return out
}

// pad is how far the item's paint reaches beyond its outline, in pixels: anti-aliasing
// reaches into the next pixel, and a stroke half its width further, or as far as a miter
// join or a square cap's corner reaches.
func (it *pngItem) pad() float64 {
	if it.stroke == nil {
		return 1
	}
	reach := 1.0
	if it.join == pngMiter {
		reach = float64(it.miter)
	}
	if it.cap == pngSquare {
		reach = max(reach, math.Sqrt2)
	}
	return 1 + it.half*reach
}

// paint fills and then strokes one item.
func (p *pngPainter) paint(it *pngItem) error {
	if it.fill != nil {
		if err := p.layer(it, 1, *it.fill, false); err != nil {
			return err
		}
	}
	if it.stroke != nil {
		return p.layer(it, it.pad(), *it.stroke, true)
	}
	return nil
}

// spend counts the cells of r against maxRasterCells before they are rasterized.
func (p *pngPainter) spend(r image.Rectangle) error {
	p.cells += int64(r.Dx()) * int64(r.Dy())
	if p.cells > maxRasterCells {
		return fmt.Errorf("%w: its fills and strokes cover more than %d pixels in all, counting each shape over its pixel box (MaxRasterCells); "+
			"use a smaller width or scale, or a region that shows fewer large shapes, or draw fewer shapes over each other",
			ErrRasterCells, maxRasterCells)
	}
	return nil
}

// layer rasterizes the fill or the stroke of it and blends it in colour c. A large box is
// done in horizontal strips so that the rasterizer's buffers (8 bytes a cell once a side
// passes 512) stay within pngMaxCells however big the picture.
func (p *pngPainter) layer(it *pngItem, pad float64, c scene.Color, stroke bool) error {
	r, ok := pixelBox(it.box, pad, p.img.Rect.Size())
	if !ok {
		return nil
	}
	lines := it.lines
	if stroke && it.dashes != nil {
		lines = it.dashes
	}
	p.capStyle, p.joinStyle, p.miterLimit = it.cap, it.join, float64(it.miter)
	rows := max(1, pngMaxCells/r.Dx())
	for y := r.Min.Y; y < r.Max.Y; y += rows {
		strip := image.Rect(r.Min.X, y, r.Max.X, min(y+rows, r.Max.Y))
		if strip != r && pngNarrow {
			// A box drawn in strips is narrowed, strip by strip, to what the outline covers
			// in its rows, so that a long thin stroke (a diagonal line, the rim of a large
			// circle) costs about its own area rather than its box's. A box drawn whole is
			// left as it is, and so are its pixels.
			p.measuring = true
			p.outline(lines, stroke, it.half, strip)
			p.measuring = false
			if strip = p.covered(strip); strip.Empty() {
				continue
			}
		}
		if err := p.spend(strip); err != nil {
			return err
		}
		p.begin(strip)
		p.outline(lines, stroke, it.half, strip)
		p.draw(strip, c)
	}
	return nil
}

// outline adds the fill or the stroke of lines to the rasterizer, readied for the pixels in r
// (or, while measuring, only widens p.ext).
func (p *pngPainter) outline(lines []geom.Polyline, stroke bool, half float64, r image.Rectangle) {
	if p.measuring {
		p.off = geom.Vec{X: float64(r.Min.X), Y: float64(r.Min.Y)}
		p.lim = geom.Vec{X: float64(r.Dx() + 1), Y: float64(r.Dy() + 1)}
		p.ext = geom.Box{}
	}
	for _, l := range lines {
		if stroke {
			p.strokeLine(l, half)
		} else {
			p.contour(l.Points)
		}
	}
}

// covered is the part of r, which p.ext was measured in, that the measured contours can
// paint: the columns they reach, a pixel more on each side, and all of r's rows.
func (p *pngPainter) covered(r image.Rectangle) image.Rectangle {
	if !p.ext.NonEmpty {
		return image.Rectangle{}
	}
	x0 := max(r.Min.X, r.Min.X+int(math.Floor(p.ext.Min.X))-1)
	x1 := min(r.Max.X, r.Min.X+int(math.Ceil(p.ext.Max.X))+1)
	// At most 512 cells a side the rasterizer switches to fixed-point sums, which round
	// thin strokes otherwise: keep the strip as wide as that, within r.
	if short := pngFloatSide - (x1 - x0); short > 0 {
		x0 = max(r.Min.X, x0-short/2-1)
		x1 = min(r.Max.X, x0+pngFloatSide)
		x0 = max(r.Min.X, x1-pngFloatSide)
	}
	return image.Rect(x0, r.Min.Y, x1, r.Max.Y)
}

// pngFloatSide is the narrowest side that keeps golang.org/x/image/vector in floating point.
const pngFloatSide = 513

// pixelBox is b grown by pad and clipped to a picture of the given size, in whole pixels;
// false when empty.
func pixelBox(b geom.Box, pad float64, size image.Point) (image.Rectangle, bool) {
	if !b.NonEmpty {
		return image.Rectangle{}, false
	}
	x0 := math.Max(math.Floor(b.Min.X-pad), 0)
	y0 := math.Max(math.Floor(b.Min.Y-pad), 0)
	x1 := math.Min(math.Ceil(b.Max.X+pad), float64(size.X))
	y1 := math.Min(math.Ceil(b.Max.Y+pad), float64(size.Y))
	if !(x0 < x1 && y0 < y1) { // also false for NaN
		return image.Rectangle{}, false
	}
	return image.Rect(int(x0), int(y0), int(x1), int(y1)), true
}

// begin readies the rasterizer for the pixels in r.
func (p *pngPainter) begin(r image.Rectangle) {
	p.z.Reset(r.Dx(), r.Dy())
	p.off = geom.Vec{X: float64(r.Min.X), Y: float64(r.Min.Y)}
	p.lim = geom.Vec{X: float64(r.Dx() + 1), Y: float64(r.Dy() + 1)}
}

// draw blends the accumulated coverage in colour c over the picture in r.
func (p *pngPainter) draw(r image.Rectangle, c scene.Color) {
	p.src.C = pngColor16(c)
	// A *image.Uniform over an *image.RGBA takes vector's fast path.
	p.z.Draw(p.img, r, &p.src, image.Point{})
}

// contour adds the closed polygon pts (image pixels) to the rasterizer.
func (p *pngPainter) contour(pts []geom.Vec) {
	if len(pts) < 3 {
		return // no area
	}
	loc := p.loc[:0]
	lo, hi := pts[0].Sub(p.off), pts[0].Sub(p.off) // plain compares: Box.Extend's math.Min is slower
	for _, q := range pts {
		q = q.Sub(p.off)
		lo.X, lo.Y = min(lo.X, q.X), min(lo.Y, q.Y)
		hi.X, hi.Y = max(hi.X, q.X), max(hi.Y, q.Y)
		loc = append(loc, q)
	}
	p.loc = loc
	if hi.X < -1 || hi.Y < -1 || lo.X > p.lim.X || lo.Y > p.lim.Y {
		return // winds around no point of the box
	}
	if lo.X < -1 || lo.Y < -1 || hi.X > p.lim.X || hi.Y > p.lim.Y {
		// Sutherland–Hodgman: the parts outside a half-plane are replaced by runs along its
		// edge, which keeps every winding number inside the box, so nonzero still holds.
		// The edges lie a pixel outside the box, where they cover nothing themselves.
		p.tmp = pngClipHalf(p.tmp[:0], loc, 0, -1, false)
		loc = pngClipHalf(loc[:0], p.tmp, 0, p.lim.X, true)
		p.tmp = pngClipHalf(p.tmp[:0], loc, 1, -1, false)
		loc = pngClipHalf(loc[:0], p.tmp, 1, p.lim.Y, true)
		p.loc = loc
		if len(loc) < 3 {
			return
		}
	}
	if p.measuring {
		for _, q := range loc {
			p.ext.Extend(q)
		}
		return
	}
	p.z.MoveTo(float32(loc[0].X), float32(loc[0].Y))
	for _, q := range loc[1:] {
		p.z.LineTo(float32(q.X), float32(q.Y))
	}
	p.z.ClosePath()
}

// pngClipHalf appends to dst the closed polygon src clipped to the half-plane coordinate
// axis <= bound (below) or >= bound.
func pngClipHalf(dst, src []geom.Vec, axis int, bound float64, below bool) []geom.Vec {
	if len(src) == 0 {
		return dst
	}
	c := func(v geom.Vec) float64 {
		if axis == 0 {
			return v.X
		}
		return v.Y
	}
	in := func(v geom.Vec) bool {
		if below {
			return c(v) <= bound
		}
		return c(v) >= bound
	}
	prev := src[len(src)-1]
	prevIn := in(prev)
	for _, cur := range src {
		curIn := in(cur)
		if curIn != prevIn {
			t := (bound - c(prev)) / (c(cur) - c(prev))
			x := prev.Add(cur.Sub(prev).Mul(t))
			if axis == 0 {
				x.X = bound
			} else {
				x.Y = bound
			}
			dst = append(dst, x)
		}
		if curIn {
			dst = append(dst, cur)
		}
		prev, prevIn = cur, curIn
	}
	return dst
}

// strokeLine adds the outline of a stroke of half-width half along l (image pixels), capped
// and joined as p.capStyle and p.joinStyle say. Every piece is wound clockwise in the maths sense
// (negative shoelace area), so overlaps add up and nonzero paints the union.
func (p *pngPainter) strokeLine(l geom.Polyline, half float64) {
	q := p.pts[:0]
	for _, v := range l.Points {
		if len(q) == 0 || !pngSame(v, q[len(q)-1]) {
			q = append(q, v)
		}
	}
	if l.Closed {
		for len(q) > 1 && pngSame(q[len(q)-1], q[0]) {
			q = q[:len(q)-1]
		}
	}
	p.pts = q
	n := len(q)
	if n == 0 {
		return
	}
	p.step = pngArcStep(half)
	p.cosStep = math.Cos(p.step)
	if n == 1 {
		// A zero-length subpath with round caps is a dot, as in SVG; with square ones a
		// square along the x axis, and with butt ones nothing.
		switch p.capStyle {
		case pngButt:
		case pngSquare:
			p.piece(q[0].Sub(geom.Vec{X: half}), q[0].Add(geom.Vec{X: half}), geom.Vec{Y: half})
		default:
			p.round(q[0], geom.Vec{X: half}, -2*math.Pi, false)
		}
		return
	}
	segs := n - 1
	if l.Closed {
		segs = n
	}
	for i := range segs {
		a, b := q[i], q[(i+1)%n]
		d := pngDirection(a, b).Mul(half)
		p.piece(a, b, geom.Vec{X: -d.Y, Y: d.X})
	}
	if l.Closed {
		for i := range n {
			p.join(q[(i+n-1)%n], q[i], q[(i+1)%n], half)
		}
		return
	}
	for i := 1; i < n-1; i++ {
		p.join(q[i-1], q[i], q[i+1], half)
	}
	d0, d1 := pngDirection(q[0], q[1]), pngDirection(q[n-2], q[n-1])
	switch p.capStyle {
	case pngButt: // the stroke ends at its end points
	case pngSquare:
		// Half a width beyond each end, the segment's own rectangle carried on.
		p.piece(q[0].Sub(d0.Mul(half)), q[0], geom.Vec{X: -d0.Y, Y: d0.X}.Mul(half))
		p.piece(q[n-1], q[n-1].Add(d1.Mul(half)), geom.Vec{X: -d1.Y, Y: d1.X}.Mul(half))
	default:
		// Half discs turning counter-clockwise from the left normal at the start (through
		// the backward direction) and from the right normal at the end (through the forward
		// one).
		p.round(q[0], geom.Vec{X: -d0.Y, Y: d0.X}.Mul(half), math.Pi, true)
		p.round(q[n-1], geom.Vec{X: d1.Y, Y: -d1.X}.Mul(half), math.Pi, true)
	}
}

// piece adds the rectangle along a→b reaching nl (the left normal, of length half) to either
// side, wound clockwise.
func (p *pngPainter) piece(a, b, nl geom.Vec) {
	p.quad = [4]geom.Vec{a.Add(nl), b.Add(nl), b.Sub(nl), a.Sub(nl)}
	p.contour(p.quad[:])
}

// join adds the join at v between segments a→v and v→b on the outer side of the turn, from
// the first segment's normal to the second's; the inner side is already covered by the two
// quads. A round join is the wedge of the circle, which any point nearest to v lies in; a
// bevel the triangle between the normals' ends; a miter that triangle carried on to where the
// segments' edges meet, or the bevel where that lies further from v than the limit allows, as
// in SVG.
func (p *pngPainter) join(a, v, b geom.Vec, half float64) {
	d1, d2 := pngDirection(a, v), pngDirection(v, b)
	cross, dot := d1.X*d2.Y-d1.Y*d2.X, d1.X*d2.X+d1.Y*d2.Y
	if cross == 0 && dot > 0 {
		return // straight on
	}
	if p.joinStyle != pngRound {
		p.sharpJoin(v, d1, d2, cross, dot, half)
		return
	}
	if dot >= p.cosStep {
		// One chord is close enough (the usual case along a flattened curve): the wedge is a
		// triangle between the two normals, and needs no trigonometry.
		if cross > 0 {
			p.tri = [3]geom.Vec{v.Add(geom.Vec{X: d2.Y, Y: -d2.X}.Mul(half)), v.Add(geom.Vec{X: d1.Y, Y: -d1.X}.Mul(half)), v}
		} else {
			p.tri = [3]geom.Vec{v, v.Add(geom.Vec{X: -d1.Y, Y: d1.X}.Mul(half)), v.Add(geom.Vec{X: -d2.Y, Y: d2.X}.Mul(half))}
		}
		p.contour(p.tri[:])
		return
	}
	turn := math.Atan2(cross, dot)
	start := geom.Vec{X: -d1.Y, Y: d1.X} // left normal: a right turn sweeps it clockwise
	if turn > 0 {
		start = geom.Vec{X: d1.Y, Y: -d1.X}
	}
	p.round(v, start.Mul(half), turn, true)
}

// sharpJoin adds a miter or bevel join (see join); the miter's length over the stroke's width
// is 1/cos(turn/2), bevelled past p.miterLimit.
func (p *pngPainter) sharpJoin(v, d1, d2 geom.Vec, cross, dot, half float64) {
	// The outer normals, of length half: right of the path on a left turn, left of it on a
	// right one.
	n1, n2 := geom.Vec{X: d1.Y, Y: -d1.X}.Mul(half), geom.Vec{X: d2.Y, Y: -d2.X}.Mul(half)
	if cross <= 0 {
		n1, n2 = n1.Mul(-1), n2.Mul(-1)
	}
	miter := p.joinStyle == pngMiter && (1+dot)/2*p.miterLimit*p.miterLimit >= 1
	var pts []geom.Vec
	switch {
	case miter && cross > 0:
		tip := v.Add(n1.Add(n2).Mul(1 / (1 + dot)))
		p.quad = [4]geom.Vec{v.Add(n2), tip, v.Add(n1), v}
		pts = p.quad[:]
	case miter:
		tip := v.Add(n1.Add(n2).Mul(1 / (1 + dot)))
		p.quad = [4]geom.Vec{v, v.Add(n1), tip, v.Add(n2)}
		pts = p.quad[:]
	case cross > 0:
		p.tri = [3]geom.Vec{v.Add(n2), v.Add(n1), v}
		pts = p.tri[:]
	default:
		p.tri = [3]geom.Vec{v, v.Add(n1), v.Add(n2)}
		pts = p.tri[:]
	}
	p.contour(pts)
}

// round adds the sector of the circle around c that starts at c+start and turns by sweep
// radians (counter-clockwise in the maths sense when positive), in steps of p.step; with fan
// false the contour is the arc alone (for a full circle).
func (p *pngPainter) round(c, start geom.Vec, sweep float64, fan bool) {
	n := int(math.Max(1, math.Ceil(math.Abs(sweep)/p.step-1e-9)))
	sn, cs := math.Sincos(sweep / float64(n))
	pts := p.arc[:0]
	if fan {
		pts = append(pts, c)
	}
	v := start
	for range n {
		pts = append(pts, c.Add(v))
		v = geom.Vec{X: v.X*cs - v.Y*sn, Y: v.X*sn + v.Y*cs}
	}
	if fan {
		pts = append(pts, c.Add(v))
	}
	if sweep > 0 { // keep every piece clockwise
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	p.arc = pts
	p.contour(pts)
}

// pngArcStep is the angle whose chord on a circle of radius r stays within pngTolerance of the
// arc, as geom.ArcSegments computes it; it is worked out once per stroke because a stroke
// has a round piece at every vertex.
func pngArcStep(r float64) float64 {
	step := math.Pi / 2
	if pngTolerance < r {
		step = 2 * math.Acos(1-pngTolerance/r)
	}
	return math.Max(step, 2*math.Pi/geom.MaxCurveSegments)
}

// pngDirection is the unit vector from a to b (the callers never pass pngSame points).
func pngDirection(a, b geom.Vec) geom.Vec {
	d := b.Sub(a)
	return d.Mul(1 / math.Sqrt(d.X*d.X+d.Y*d.Y)) // no overflow to guard against: Hypot is slower
}

// pngSame reports whether a and b are too close (in pixels) to give a stroke a direction.
func pngSame(a, b geom.Vec) bool {
	d := b.Sub(a)
	return d.X*d.X+d.Y*d.Y <= 1e-18
}

// pngPooledPixels is the largest picture whose encoder state is pooled: a pooled
// png.EncoderBuffer keeps the last image it encoded alive until the pool lets it go, two
// garbage collections later, which for a large picture is hundreds of megabytes held for
// nothing.
const pngPooledPixels = 2048 * 2048

// pngEncoderBuffers lets png.Encoder reuse its compressor state across calls.
type pngEncoderBuffers struct{}

var pngEncoderPool sync.Pool

func (pngEncoderBuffers) Get() *png.EncoderBuffer {
	b, _ := pngEncoderPool.Get().(*png.EncoderBuffer)
	return b
}

func (pngEncoderBuffers) Put(b *png.EncoderBuffer) { pngEncoderPool.Put(b) }
