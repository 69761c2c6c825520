package picture

// The picture of a difference shows where two scenes differ: both drawn in one frame, what
// was added, removed and changed in colours of their own over the unchanged shapes dimmed.
// The picture is three layers drawn with the same pixel mapping and laid over each other, so
// that a removed shape is seen above the dimmed ones and an added one above everything.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"reflect"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
)

// The colours of a diff picture, RGBA in 0..1.
var (
	diffAdded     = scene.Color{0, 0.65, 0, 1}    // green
	diffRemoved   = scene.Color{0.9, 0, 0, 1}     // red
	diffChanged   = scene.Color{0, 0.35, 1, 1}    // blue: where a changed shape is now
	diffBefore    = scene.Color{0.5, 0.7, 1, 1}   // light blue: where it was
	diffUnchanged = scene.Color{0.5, 0.5, 0.5, 1} // grey, drawn faint
)

// Alphas of a diff picture: a shape's fill is see-through so that what lies under it shows;
// unchanged shapes are faint.
const (
	diffFillAlpha      = 0.45
	diffUnchangedAlpha = 0.45
)

// diffPenFraction is the pen of a diff picture's coloured hairlines, as a fraction of the
// larger side of the frame: two pixels at the default size, so that a changed outline stands
// out from the faint ones.
const diffPenFraction = 0.002

// DiffLegend says what the colours of a diff picture mean.
const DiffLegend = "added: green; removed: red; changed: blue where it is now, light blue where it was; unchanged: faint grey"

// Diff draws d, the difference between old and cur, in the frame that holds both scenes, at
// the asked width (0: the longer side render.DefaultPNGSide), narrower until it fits budget,
// with its pixel mapping. note says when it was drawn narrower.
func Diff(ctx context.Context, old, cur *scene.Scene, d scene.Diff, width, budget int) ([]byte, *ImageInfo, string, error) {
	win := unionView(old, cur)
	if width < 0 {
		return nil, nil, "", fmt.Errorf("%w: width %d: give a positive width in pixels, or leave it out", engine.ErrBadInput, width)
	}
	if old.HasSolids() || cur.HasSolids() {
		return diffPictureOfSolids(ctx, cur, d, width, budget)
	}
	layers := diffLayers(old, cur, d, math.Max(win.Size().X, win.Size().Y)*diffPenFraction)
	b, first, firstWidth, err := narrowToFit(width, budget, func(width int) ([]byte, []byte, int, int, error) {
		b, err := drawLayers(ctx, layers, win, width)
		w := PNGInfo(b).Width
		return b, b, w, w, err
	})
	if err != nil {
		return nil, nil, "", err
	}
	info := PNGInfo(b)
	note := ""
	if first > 0 {
		note = fmt.Sprintf("%d px wide the picture was %d bytes, over the budget of %d; this one is %d px wide (a larger max_bytes, up to %d, gives a wider one)",
			firstWidth, first, budget, info.Width, MaxAnswerBudget)
	}
	vis, scale := win.Shown(info.Width, info.Height)
	mapPixels(&info, vis, scale)
	return b, &info, note, nil
}

// diffLayers are the three scenes of a diff picture, bottom to top: the unchanged shapes,
// faint; the removed shapes and where the moved or reshaped ones were; the changed shapes
// where they are now and the added ones. A shape counts as changed when it differs itself or when a
// group above it moved it.
func diffLayers(old, cur *scene.Scene, d scene.Diff, pen float64) [3]*scene.Scene {
	changed := make(map[string]bool, len(d.Changed)) // differs itself
	for _, c := range d.Changed {
		changed[c.Name] = true
	}
	added := make(map[string]bool, len(d.Added))
	for _, n := range d.Added {
		added[n] = true
	}
	// displaced reports a shape of cur drawn elsewhere, or in another shape, than in old.
	displaced := func(e *scene.Entity) bool {
		o, err := old.Get(e.Name)
		if err != nil {
			return false
		}
		return old.WorldMatrix(o) != cur.WorldMatrix(e) || o.Kind() != e.Kind() || !reflect.DeepEqual(o.Shape, e.Shape)
	}
	// moves reports a shape in both scenes drawn otherwise now: it differs itself, or a group
	// above it moved it.
	moves := func(e *scene.Entity) bool { return changed[e.Name] || displaced(e) }
	shape := func(keep func(*scene.Entity) bool) func(*scene.Entity) bool {
		return func(e *scene.Entity) bool { return !e.IsGroup() && keep(e) }
	}
	base := cur.Subset(shape(func(e *scene.Entity) bool { return !added[e.Name] && !moves(e) }))
	below := old.Subset(shape(func(e *scene.Entity) bool {
		n, err := cur.Get(e.Name)
		return err != nil || displaced(n) // where it was, when that is not where it is
	}))
	top := cur.Subset(shape(func(e *scene.Entity) bool { return added[e.Name] || moves(e) }))
	recolour(base, 0, func(*scene.Entity) (scene.Color, float64) { return diffUnchanged, diffUnchangedAlpha })
	recolour(below, pen, func(e *scene.Entity) (scene.Color, float64) {
		if cur.Exists(e.Name) {
			return diffBefore, 1
		}
		return diffRemoved, 1
	})
	recolour(top, pen, func(e *scene.Entity) (scene.Color, float64) {
		if added[e.Name] {
			return diffAdded, 1
		}
		return diffChanged, 1
	})
	return [3]*scene.Scene{base, below, top}
}

// recolour paints every shape of s in the colour pick gives, at its alpha: the outline solid,
// the fill (where the shape has one) see-through. Stroke widths are kept; a hairline gets pen
// (scene units) when it is not 0.
func recolour(s *scene.Scene, pen float64, pick func(*scene.Entity) (scene.Color, float64)) {
	for _, e := range s.Walk() {
		if e.IsGroup() {
			continue
		}
		c, alpha := pick(e)
		stroke := c
		stroke[3] = alpha
		e.Style.Stroke = &stroke
		if e.Style.Hairline() {
			e.Style.StrokeWidth = pen
		}
		if e.Style.Fill != nil {
			fill := c
			fill[3] = alpha * diffFillAlpha
			e.Style.Fill = &fill
		}
	}
}

// unionView frames both scenes; an empty one does not count.
func unionView(old, cur *scene.Scene) render.View {
	a, b := old.Bounds(), cur.Bounds()
	va, vb := render.FitView(old, render.DefaultMargin), render.FitView(cur, render.DefaultMargin)
	switch {
	case !a.NonEmpty:
		return vb
	case !b.NonEmpty:
		return va
	}
	return render.View{
		Min: geom.Vec{X: math.Min(va.Min.X, vb.Min.X), Y: math.Min(va.Min.Y, vb.Min.Y)},
		Max: geom.Vec{X: math.Max(va.Max.X, vb.Max.X), Y: math.Max(va.Max.Y, vb.Max.Y)},
	}
}

// drawLayers paints the layers in one frame, bottom to top, on white, under the render budget.
func drawLayers(ctx context.Context, layers [3]*scene.Scene, win render.View, width int) ([]byte, error) {
	sz := win.Size()
	w, h := float64(width), math.Round(float64(width)*sz.Y/sz.X)
	if width == 0 {
		side := float64(render.DefaultPNGSide)
		if sz.X >= sz.Y {
			w, h = side, math.Max(1, math.Round(side*sz.Y/sz.X))
		} else {
			w, h = math.Max(1, math.Round(side*sz.X/sz.Y)), side
		}
	}
	geometry := int64(0)
	for _, l := range layers {
		if l != nil {
			geometry += DrawingMemory(l, 0)
		}
	}
	done, err := Reserve(ctx, int64(math.Min(w*h*4*2, RenderMemory))+geometry)
	if err != nil {
		return nil, err
	}
	defer done()
	clear := scene.Color{0, 0, 0, 0}
	var img *image.RGBA
	for i, l := range layers {
		opt := render.PNGOptions{Width: int(w), Height: int(h), View: &win, Context: ctx}
		if i > 0 {
			if l.Len() == 0 {
				continue
			}
			opt.Background = &clear
		}
		layer, err := render.Raster(l, opt)
		if err != nil {
			return nil, err
		}
		if img == nil {
			img = layer
			continue
		}
		draw.Draw(img, img.Bounds(), layer, image.Point{}, draw.Over)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encoding png: %w", err)
	}
	return buf.Bytes(), nil
}

// diffPictureOfSolids is the diff picture of scenes with solids: the current scene's shaded
// view with what was added or changed highlighted. Three layers drawn apart, as for a plan,
// would not line up: each isometric view is framed on its own solids' heights. What was
// removed is listed in the answer, not drawn.
func diffPictureOfSolids(ctx context.Context, cur *scene.Scene, d scene.Diff, width, budget int) ([]byte, *ImageInfo, string, error) {
	mark := make(map[string]bool, len(d.Added)+len(d.Changed))
	for _, n := range d.Added {
		mark[n] = true
	}
	for _, c := range d.Changed {
		mark[c.Name] = true
	}
	highlight := func(e *scene.Entity) bool {
		for x := e; x != nil; {
			if mark[x.Name] {
				return true
			}
			p := x.Parent()
			if p == "" {
				break
			}
			x, _ = cur.Lookup(p)
		}
		return false
	}
	var pic *render.Picture
	b, first, firstWidth, err := narrowToFit(width, budget, func(width int) ([]byte, []byte, int, int, error) {
		done, err := Reserve(ctx, DrawingMemory(cur, 0)+int64(math.Min(float64(max(width, render.DefaultPNGSide))*float64(max(width, render.DefaultPNGSide))*4*2, RenderMemory)))
		if err != nil {
			return nil, nil, 0, 0, err
		}
		defer done()
		p, err := render.Draw(cur, render.PNGOptions{Width: width, Context: ctx}, render.Marks{Highlight: highlight})
		if err != nil {
			return nil, nil, 0, 0, err
		}
		pic = p
		return p.PNG, p.PNG, p.Width, p.Width, nil
	})
	if err != nil {
		return nil, nil, "", err
	}
	info := PNGInfo(b)
	note := "a scene of solids: the picture is its shaded view now, added and changed entities highlighted; removed ones are listed, not drawn"
	if first > 0 {
		note += fmt.Sprintf("; %d px wide the picture was %d bytes, over the budget of %d; this one is %d px wide (a larger max_bytes, up to %d, gives a wider one)",
			firstWidth, first, budget, info.Width, MaxAnswerBudget)
	}
	mapSolids(&info, pic)
	return b, &info, note, nil
}
