package render

// Pictures of solids from a camera (camera.go), and the four-view sheet. Each view is one
// panel drawn by shade.go's rasterizer: a frame (what the panel shows, seen from where), a
// size, and the highlighted entities drawn again over the rest faded. The sheet is four
// panels laid out as third-angle drafting lays out views (top over front, right beside it),
// so that the three flat views share one scale and line up, with the iso view in the corner
// left free; all four are counted against MaxRasterCells together before any is drawn.

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// shaded is a picture of solids: the pixels, the plan window framed, the pixels per scene
// unit (square to the line of sight), and how many entities were highlighted.
type shaded struct {
	img         *image.RGBA
	plan        View
	scale       float64
	highlighted int
	bg          color.RGBA
	painted     bool // a solid or a shape changed a pixel from the background (marks not counted)
}

// shadePanel is one view to draw: the picture of the scene, and the highlighted entities
// over it (hl nil: none).
type shadePanel struct {
	f     shadeFrame
	w, h  int
	base  *shadeJob
	hl    *shadeJob
	count int // entities hl draws
}

// newPanel lays out a view of s framed by f, w×h pixels, with the entities highlight says
// (nil: none) drawn again in HighlightColor. The meshes' topology is taken from topo, and
// put there the first time.
func newPanel(s *scene.Scene, solids []scene.SolidItem, f shadeFrame, w, h int, bg color.RGBA, highlight func(*scene.Entity) bool, topo topologies) *shadePanel {
	p := &shadePanel{f: f, w: w, h: h, base: newShadeJob(w, h, bg, topo)}
	toPx := f.screen.ToPixels(float64(w), float64(h))
	p.base.addScene(s, solids, f, toPx, nil, nil, shadeLinePx)
	if highlight != nil {
		keep := func(e *scene.Entity) bool { return !e.IsGroup() && highlight(e) }
		c := HighlightColor
		p.hl = newShadeJob(w, h, color.RGBA{}, topo)
		if p.count = p.hl.addScene(s, solids, f, toPx, keep, &c, highlightStrokePx); p.count == 0 {
			p.hl = nil
		}
	}
	return p
}

// cost is the samples the panel's triangles and lines cover.
func (p *shadePanel) cost() int64 {
	c := p.base.cost
	if p.hl != nil {
		c += p.hl.cost
	}
	return c
}

// draw paints the panel, and reports whether the scene changed a pixel of it; highlighted
// entities are drawn over the rest faded towards the background, on top of everything, as in
// a plan picture.
func (p *shadePanel) draw(ctx context.Context) (*image.RGBA, bool, error) {
	img := image.NewRGBA(image.Rect(0, 0, p.w, p.h))
	if err := p.base.draw(ctx, img); err != nil {
		return nil, false, err
	}
	bg := color.RGBA{p.base.bg[0], p.base.bg[1], p.base.bg[2], p.base.bg[3]}
	seen := painted(img, bg)
	if p.hl != nil {
		layer := image.NewRGBA(img.Rect)
		if err := p.hl.draw(ctx, layer); err != nil {
			return nil, false, err
		}
		fade(img, bg, highlightFade)
		draw.Draw(img, img.Rect, layer, image.Point{}, draw.Over)
	}
	return img, seen, nil
}

// checkCost refuses panels whose triangles and lines cover more than maxRasterCells samples
// in all.
func checkCost(panels ...*shadePanel) error {
	var c int64
	for _, p := range panels {
		c += p.cost()
	}
	if c > maxRasterCells {
		ss := panels[0].base.ss
		return fmt.Errorf("%w: its solids' faces and edges cover %d samples (%d a pixel), over %d (MaxRasterCells); "+
			"use a smaller width or scale, or show fewer solids or coarser ones (fewer segments)",
			ErrRasterCells, c, ss*ss, maxRasterCells)
	}
	return nil
}

// shadeDraw draws the picture of solids opt asks for, highlighting what highlight says (nil:
// nothing).
func shadeDraw(s *scene.Scene, solids []scene.SolidItem, opt PNGOptions, highlight func(*scene.Entity) bool) (shaded, error) {
	out := shaded{bg: color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}}
	if opt.Background != nil {
		out.bg = pngColor8(*opt.Background)
	}
	if err := opt.Camera.Check(); err != nil {
		return out, err
	}
	if opt.Camera.Name == SheetView {
		return shadeSheet(s, solids, opt, highlight, out)
	}
	f, err := frameOf(solids, opt.Camera, opt.View, opt.Margin)
	if err != nil {
		return out, err
	}
	w, h, err := pngSize(f.screen.Size(), opt)
	if err != nil {
		return out, err
	}
	// The same budgets as every writer, though the picture draws neither dashes nor hatches.
	if _, err := budgeted(s); err != nil {
		return out, err
	}
	p := newPanel(s, solids, f, w, h, out.bg, highlight, topologies{})
	if err := checkCost(p); err != nil {
		return out, err
	}
	if out.img, out.painted, err = p.draw(opt.Context); err != nil {
		return out, err
	}
	out.plan, out.scale, out.highlighted = f.plan, f.screen.ToPixels(float64(w), float64(h)).A, p.count
	return out, nil
}

// The sheet's panels, by the camera each shows and where it sits (column, row).
var sheetPanels = []struct {
	cam      Camera
	col, row int
}{
	{Camera{Name: "top"}, 0, 0},
	{Camera{Name: "iso"}, 1, 0},
	{Camera{Name: "front"}, 0, 1},
	{Camera{Name: "right"}, 1, 1},
}

// The sheet's labels: sheetLabelPx high, on a strip sheetStripPx high at the top of each
// panel; the panels are parted by lines of sheetRuleColor.
const (
	sheetLabelPx     = 13
	sheetStripPx     = 20
	sheetLabelIndent = 6
)

// MinSheetPanelPx is the least picture, in pixels on each side, a sheet's panel has under its
// label: a sheet is at least 32 × 72 px.
const MinSheetPanelPx = 16

var (
	sheetLabelColor = scene.Color{0.2, 0.22, 0.25, 1}
	sheetRuleColor  = scene.Color{0.6, 0.62, 0.65, 1}
)

// shadeSheet draws the four-view sheet (SheetView).
func shadeSheet(s *scene.Scene, solids []scene.SolidItem, opt PNGOptions, highlight func(*scene.Entity) bool, out shaded) (shaded, error) {
	frames := make([]shadeFrame, len(sheetPanels))
	var cell geom.Vec // the largest flat view, in scene units
	for i, sp := range sheetPanels {
		f, err := frameOf(solids, sp.cam, opt.View, opt.Margin)
		if err != nil {
			return out, err
		}
		frames[i] = f
		if sp.cam.Name != "iso" {
			sz := f.screen.Size()
			cell = geom.Vec{X: math.Max(cell.X, sz.X), Y: math.Max(cell.Y, sz.Y)}
		}
	}
	w, h, err := pngSize(geom.Vec{X: 2 * cell.X, Y: 2 * cell.Y}, opt)
	if err != nil {
		return out, err
	}
	pw, ph := w/2, h/2-sheetStripPx
	if pw < MinSheetPanelPx || ph < MinSheetPanelPx {
		return out, fmt.Errorf("%w: a %d x %d px sheet leaves its panels %d x %d px under their labels, under %d (MinSheetPanelPx); a sheet needs at least %d x %d px: use a larger width or height",
			ErrPNGSize, w, h, pw, ph, MinSheetPanelPx, 2*MinSheetPanelPx, 2*(MinSheetPanelPx+sheetStripPx))
	}
	if _, err := budgeted(s); err != nil {
		return out, err
	}
	// The flat views at one scale, each centred on what it shows: since each frames the
	// same box, the front and top views share their x and the front and right their z.
	k := math.Inf(1)
	for i, sp := range sheetPanels {
		if sp.cam.Name != "iso" {
			sz := frames[i].screen.Size()
			k = math.Min(k, math.Min(float64(pw)/sz.X, float64(ph)/sz.Y))
		}
	}
	panels := make([]*shadePanel, len(sheetPanels))
	topo := topologies{} // each mesh's adjacency made once for the four panels
	for i, sp := range sheetPanels {
		f := frames[i]
		if sp.cam.Name != "iso" {
			c := f.screen.Min.Add(f.screen.Max).Mul(0.5)
			half := geom.Vec{X: float64(pw) / k / 2, Y: float64(ph) / k / 2}
			f.screen = View{Min: c.Sub(half), Max: c.Add(half)}
		}
		panels[i] = newPanel(s, solids, f, pw, ph, out.bg, highlight, topo)
		out.highlighted = max(out.highlighted, panels[i].count)
	}
	if err := checkCost(panels...); err != nil {
		return out, err
	}
	out.img = image.NewRGBA(image.Rect(0, 0, w, h))
	pngFill(out.img, out.bg)
	for i, sp := range sheetPanels {
		img, seen, err := panels[i].draw(opt.Context)
		if err != nil {
			return out, err
		}
		out.painted = out.painted || seen
		at := image.Pt(sp.col*pw, sp.row*(ph+sheetStripPx)+sheetStripPx)
		draw.Draw(out.img, img.Rect.Add(at), img, image.Point{}, draw.Src)
	}
	labels, err := sheetLabels(w, h, pw, ph)
	if err != nil {
		return out, err
	}
	if err := overlay(opt.Context, out.img, labels, View{Max: geom.Vec{X: float64(w), Y: float64(h)}}); err != nil {
		return out, err
	}
	out.plan, out.scale = frames[0].plan, k
	return out, nil
}

// sheetLabels is the sheet's labels and the rules between its panels, in pixels with y up
// (as a View of the whole picture maps them).
func sheetLabels(w, h, pw, ph int) (*scene.Scene, error) {
	g := scene.New()
	n := 0
	put := func(shape scene.Shape, fill, stroke *scene.Color) error {
		e, err := g.Put(fmt.Sprint("l", n), shape)
		n++
		if err != nil {
			return fmt.Errorf("labelling the sheet: %w", err)
		}
		_ = g.SetFill(e.Name, fill)
		_ = g.SetStroke(e.Name, stroke, 1)
		return nil
	}
	rule, ink := sheetRuleColor, sheetLabelColor
	mid := float64(h - (ph + sheetStripPx)) // the rule between the rows, y up
	for _, l := range [][2]geom.Vec{
		{{X: float64(pw), Y: 0}, {X: float64(pw), Y: float64(h)}},
		{{X: 0, Y: mid}, {X: float64(w), Y: mid}},
	} {
		if err := put(scene.Line{Points: l[:]}, nil, &rule); err != nil {
			return nil, err
		}
	}
	for _, sp := range sheetPanels {
		top := float64(h - sp.row*(ph+sheetStripPx)) // the panel's top, y up
		at := geom.Vec{X: float64(sp.col*pw + sheetLabelIndent), Y: top - (sheetStripPx+sheetLabelPx*0.7)/2}
		if err := put(&scene.Text{Text: sp.cam.Name, Pos: at, Size: sheetLabelPx}, &ink, nil); err != nil {
			return nil, err
		}
	}
	return g, nil
}
