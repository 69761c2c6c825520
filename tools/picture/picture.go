// Package picture draws the pictures that tools answer with: a scene, or the difference
// between two, as a PNG within a byte budget, framed on a focus, with highlights and a grid,
// and described in words (ImageInfo: how its pixels map to scene units, whether it is blank,
// which text is too small to read). Everything here is a pure function of scenes and options
// to bytes and info; the tool handlers that know the session (which change landed, which
// history entry to compare with) stay in package tools and call it.
//
// Start with Picture (one picture of a scene: Frame, Mark, Draw) and Diff (the difference of
// two scenes). Every picture is drawn under one memory budget shared by the process
// (Reserve), so that concurrent requests queue rather than add up.
package picture

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
)

// DefaultViewWidth is a view's longer side in pixels unless width says otherwise.
const DefaultViewWidth = 512

// LegibleTextPx is the least text height, in pixels (the em), that reads in a picture: the
// figure the examples' legibility test holds the demo's pictures to.
const LegibleTextPx = 11

// MaxLegibleWidth caps the longer side a picture without a width grows to so that its
// smallest text reads (LegibleTextPx): past it the picture stays at this size, within the
// answer's budget and under what a model's vision takes in without scaling it down much, and
// its image says which text is too small and how to see it.
const MaxLegibleWidth = 2048

// MaxViewWidth caps a view's longer side: a view is a quick look that comes with every change
// asked for; scene png draws up to render.MaxPNGSide.
const MaxViewWidth = 2048

// focusMargin is the margin around a focus, as a fraction of its larger side; focusMinAspect
// is the least ratio of the window's shorter side to its longer one, so that a thin focus (a
// line) still shows what is around it.
const (
	focusMargin    = 0.2
	focusMinAspect = 0.25
)

// ChangedKeyword is the highlight name that stands for what the last change added or altered.
const ChangedKeyword = "changed"

// Focus is what a picture frames: an entity or group (Name), or a region [minX, minY, maxX,
// maxY] in scene units.
type Focus struct {
	Name   string
	Region []float64
}

// UnmarshalJSON implements json.Unmarshaler: a name, or an array of numbers.
func (f *Focus) UnmarshalJSON(b []byte) error {
	*f = Focus{}
	if err := json.Unmarshal(b, &f.Name); err == nil {
		return nil
	}
	if err := json.Unmarshal(b, &f.Region); err != nil {
		return fmt.Errorf("focus: give an entity or group name, or a region [minX, minY, maxX, maxY]: %v", err)
	}
	return nil
}

// MarshalJSON implements json.Marshaler.
func (f Focus) MarshalJSON() ([]byte, error) {
	if f.Region != nil {
		return json.Marshal(f.Region)
	}
	return json.Marshal(f.Name)
}

// IsZero reports no focus.
func (f Focus) IsZero() bool { return f.Name == "" && f.Region == nil }

// Highlight names the entities to highlight; "changed" stands for what the last change added
// or altered. A single name may come as a string.
type Highlight []string

// UnmarshalJSON implements json.Unmarshaler: a name, or an array of names.
func (h *Highlight) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*h = Highlight{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("highlight: give entity names, or %q: %v", ChangedKeyword, err)
	}
	*h = many
	return nil
}

// Check refuses a focus no scene could hold (at is the parameter's path, for the message).
func (f Focus) Check(at string) error {
	if r := f.Region; r != nil && (len(r) != 4 || !engine.Finite(r...) || !(r[0] < r[2] && r[1] < r[3])) {
		return fmt.Errorf("%w: %s %v: give an entity or group name, or a region [minX, minY, maxX, maxY] in scene units, finite, min below max", engine.ErrBadInput, at, r)
	}
	return nil
}

// CheckHighlight refuses an empty name among those to highlight (at is the parameter's path).
func CheckHighlight(at string, names Highlight) error {
	if slices.Contains(names, "") {
		return fmt.Errorf("%w: %s has an empty name: give entity or group names, or %q", engine.ErrBadInput, at, ChangedKeyword)
	}
	return nil
}

// Picture is one picture to draw: what it shows, how it is framed, and its marks.
type Picture struct {
	// Base is what a blank picture is judged against: the scene, or the entity asked for.
	Base *scene.Scene
	// Shown is what is drawn: Base, or its shapes reaching into a region.
	Shown  *scene.Scene
	Window *render.View // nil: fit Shown
	Width  int          // 0: the longer side render.DefaultPNGSide
	Longer bool         // Width is the longer side rather than the width
	// Height, when not 0, is the picture's height (scene png's height); narrowed to fit the
	// budget, it keeps its proportion to the width first drawn.
	Height int
	Camera render.Camera // the side solids are seen from
	// Auto marks a width not asked for: it grows, up to MaxLegibleWidth, until the smallest
	// text shown is LegibleTextPx high.
	Auto  bool
	Grid  bool
	Rings bool // circle highlighted shapes under render.MarkBelowPx (scene png's rings)
	// Budget is the most bytes the PNG may take: over it, the picture is drawn narrower.
	Budget int

	fullWidth int // the width first drawn, which Height is in proportion to
	// highlight names the entities to highlight (nil: no highlight), with a note on it.
	highlight map[string]bool
	note      string
}

// Change is what highlight "changed" stands for: the scenes before and after the change that
// landed, and how a note names it ("the change", "the last change"). A Change with no After
// is none: no change has landed.
type Change struct {
	Before, After *scene.Scene
	What          string
}

// Frame sets the window on focus, looked up in sc.
func (p *Picture) Frame(sc *scene.Scene, f Focus, at string) error {
	if err := f.Check(at); err != nil || f.IsZero() {
		return err
	}
	var b geom.Box
	if f.Name != "" {
		e, err := sc.Get(f.Name)
		if err != nil {
			return NoEntity(sc, f.Name)
		}
		if b = sc.WorldBounds(e); !b.NonEmpty {
			return fmt.Errorf("%w: %s %q is an empty group: there is nothing to frame; focus on a shape, or on a region [minX, minY, maxX, maxY]", engine.ErrBadInput, at, f.Name)
		}
	} else {
		r := f.Region
		b = geom.Box{Min: geom.Vec{X: r[0], Y: r[1]}, Max: geom.Vec{X: r[2], Y: r[3]}, NonEmpty: true}
	}
	sz := b.Size()
	long := math.Max(sz.X, sz.Y)
	pad := long * focusMargin
	if long == 0 {
		pad = 1 // a point: a unit around it
	}
	short := long * focusMinAspect
	grow := geom.Vec{X: pad + math.Max(0, short-sz.X)/2, Y: pad + math.Max(0, short-sz.Y)/2}
	p.Window = &render.View{Min: b.Min.Sub(grow), Max: b.Max.Add(grow)}
	return nil
}

// Mark resolves the names to highlight in sc: each entity with its members, and "changed"
// for what the change last gives added or altered.
func (p *Picture) Mark(sc *scene.Scene, names Highlight, last func() Change, at string) error {
	if err := CheckHighlight(at, names); err != nil || len(names) == 0 {
		return err
	}
	var roots []string // each highlighted with its members
	for _, n := range names {
		if n != ChangedKeyword {
			if !sc.Exists(n) {
				return NoEntity(sc, n)
			}
			roots = append(roots, n)
			continue
		}
		l := last()
		if l.After == nil {
			p.note = Join(p.note, "no change has landed since this server started, so nothing is highlighted as changed")
			continue
		}
		d := scene.Compare(l.Before, l.After, 0)
		changed := Altered(d)
		roots = append(roots, changed...)
		if len(changed) == 0 {
			gone := ""
			if len(d.Removed) > 0 {
				gone = fmt.Sprintf(" (it removed %d, which are not drawn)", len(d.Removed))
			}
			p.note = Join(p.note, fmt.Sprintf("%s added or altered no entity%s, so nothing is highlighted as changed", l.What, gone))
		}
	}
	p.highlight = subtrees(sc, roots)
	return nil
}

// subtrees is the set of roots and every member under them, in one walk of sc (a change
// may alter every entity of a large scene).
func subtrees(sc *scene.Scene, roots []string) map[string]bool {
	set := make(map[string]bool, len(roots))
	for _, n := range roots {
		set[n] = true
	}
	depth := -1 // the depth of the root being walked under; -1: none
	for d, e := range sc.Walk() {
		if depth >= 0 && d <= depth {
			depth = -1 // out of it
		}
		if depth < 0 && set[e.Name] {
			depth = d
		}
		if depth >= 0 {
			set[e.Name] = true
		}
	}
	return set
}

// Draw draws the picture at its width; a picture over the budget is drawn narrower until it
// fits.
func (p *Picture) Draw(ctx context.Context) ([]byte, *ImageInfo, *Omitted, error) {
	if p.Width < 0 {
		return nil, nil, nil, fmt.Errorf("%w: width %d: give a positive width in pixels, or leave it out", engine.ErrBadInput, p.Width)
	}
	small := p.smallestText()
	if p.Auto && small.e != nil {
		p.legibleWidth(small)
	}
	width := p.Width
	pic, firstBytes, firstWidth, err := narrowToFit(width, p.Budget, func(width int) (*render.Picture, []byte, int, int, error) {
		pic, err := p.drawAt(ctx, width)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		side := max(pic.Width, pic.Height)
		if !p.Longer {
			return pic, pic.PNG, pic.Width, side, nil
		}
		return pic, pic.PNG, side, side, nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	var o *Omitted
	if firstBytes > 0 {
		o = &Omitted{Note: fmt.Sprintf("%d px wide the picture was %d bytes, over the budget of %d; this one is %d px wide: ask for a region [minX, minY, maxX, maxY] or one entity or group (name) to see details, or a larger max_bytes (up to %d)",
			firstWidth, firstBytes, p.Budget, pic.Width, MaxAnswerBudget)}
	}
	info := p.info(pic)
	info.Legible = small.note(pic.Scale, p.Auto)
	return pic.PNG, info, o, nil
}

// shownText is the smallest text a picture shows: its entity and its height in scene units.
type shownText struct {
	e      *scene.Entity
	height float64
}

// smallestText finds the text or dimension of the least height the picture shows, in its
// window when it has one. A text's height is its size under its placement's scale; a
// dimension's is its size, laid out in world units whatever its group's scale.
func (p *Picture) smallestText() shownText {
	var out shownText
	for _, e := range p.Shown.Walk() {
		var h float64
		switch t := e.Shape.(type) {
		case *scene.Text:
			h = t.Size * math.Sqrt(math.Abs(p.Shown.WorldMatrix(e).Det()))
		case *scene.Dimension:
			h = t.Size
		default:
			continue
		}
		if !(h > 0) || out.e != nil && h >= out.height {
			continue
		}
		if w := p.Window; w != nil {
			b := p.Shown.WorldBounds(e)
			if !b.NonEmpty || b.Max.X < w.Min.X || b.Min.X > w.Max.X || b.Max.Y < w.Min.Y || b.Min.Y > w.Max.Y {
				continue
			}
		}
		out = shownText{e: e, height: h}
	}
	return out
}

// legibleWidth grows a picture without a width until t, its smallest text, is LegibleTextPx
// high, on its longer side and up to MaxLegibleWidth; a picture wide enough already keeps its
// default.
func (p *Picture) legibleWidth(t shownText) {
	win := p.Window
	if win == nil {
		fit := render.FitView(p.Shown, render.DefaultMargin)
		win = &fit
	}
	sz := win.Size()
	long := math.Max(sz.X, sz.Y)
	base := p.Width
	if base == 0 {
		base = render.DefaultPNGSide
	}
	need := int(math.Ceil(LegibleTextPx * long / t.height))
	if !(long > 0) || need <= base {
		return
	}
	p.Width, p.Longer = min(need, MaxLegibleWidth), true
}

// note says, when t is under LegibleTextPx at scale pixels a unit, which text it is, how
// high, and how to read it; auto marks a picture whose width was not asked for.
func (t shownText) note(scale float64, auto bool) string {
	if t.e == nil || t.height*scale >= LegibleTextPx {
		return ""
	}
	what := fmt.Sprintf("dimension %q", t.e.Name)
	if txt, ok := t.e.Shape.(*scene.Text); ok {
		what = fmt.Sprintf("text %q (%q)", t.e.Name, engine.Clip([]byte(txt.Text), 24))
	}
	how := "leave width out, or frame it with focus or region"
	if auto {
		how = fmt.Sprintf("the picture grows to %d px at most (MaxLegibleWidth): frame it with focus or region", MaxLegibleWidth)
	}
	return fmt.Sprintf("the smallest text, %s, is %.1f px high here, under the %d px that read; %s", what, t.height*scale, LegibleTextPx, how)
}

// narrowToFit draws at width, then narrower until the PNG fits budget or its longest side is
// minPNGSide or less. draw answers the picture, its PNG, the side that width sets (the width,
// or the longer side) and its longest side. When the first drawing was over the budget,
// firstBytes and firstWidth are its size in bytes and its width in pixels (0 otherwise).
func narrowToFit[P any](width, budget int, draw func(width int) (P, []byte, int, int, error)) (pic P, firstBytes, firstWidth int, err error) {
	for {
		pic, b, side, longest, err := draw(width)
		if err != nil {
			return pic, 0, 0, err
		}
		if len(b) <= budget || longest <= minPNGSide {
			return pic, firstBytes, firstWidth, nil
		}
		if firstBytes == 0 {
			firstBytes, firstWidth = len(b), PNGInfo(b).Width
		}
		// A PNG's size grows about with its pixel count: aim a little under the budget, and
		// at most at half the size, so that a few renders find a size that fits.
		aim := int(float64(side) * math.Sqrt(float64(budget)/float64(len(b))) * 0.9)
		width = max(minPNGSide, min(side/2, aim))
	}
}

// drawAt renders the picture width pixels wide (or on the longer side) under the render
// budget.
func (p *Picture) drawAt(ctx context.Context, width int) (*render.Picture, error) {
	win := p.Window
	if win == nil {
		fit := render.FitView(p.Shown, render.DefaultMargin)
		win = &fit
	}
	opt := render.PNGOptions{Width: width, View: win, Context: ctx, Camera: p.Camera}
	w, h := float64(width), float64(width)
	if sz := win.Size(); sz.X > 0 && sz.Y > 0 {
		switch {
		case width == 0:
			side := float64(render.DefaultPNGSide)
			w, h = side, side
		case p.Longer && sz.Y > sz.X:
			opt.Width, opt.Height = 0, width
			w = math.Round(h * sz.X / sz.Y)
		default:
			h = math.Round(w * sz.Y / sz.X)
		}
	}
	if p.Height > 0 {
		opt.Height = p.Height
		if p.fullWidth > 0 && width < p.fullWidth {
			opt.Height = max(1, int(math.Round(float64(p.Height)*float64(width)/float64(p.fullWidth))))
		}
		h = float64(opt.Height)
		if width == 0 {
			w = float64(render.MaxPNGSide) // the estimate's bound: the width follows the height
		}
	}
	var marks render.Marks
	layers := 1.0
	if p.highlight != nil {
		marks.Highlight = func(e *scene.Entity) bool { return p.highlight[e.Name] }
		layers += 2
	}
	if p.Grid {
		marks.Grid = true
		layers++
	}
	marks.Rings = p.Rings
	done, err := Reserve(ctx, int64(math.Min(w*h*4*layers, RenderMemory))+DrawingMemory(p.Shown, 0))
	if err != nil {
		return nil, err
	}
	defer done()
	pic, err := render.Draw(p.Shown, opt, marks)
	if err == nil && p.fullWidth == 0 {
		p.fullWidth = pic.Width
	}
	return pic, err
}

// info describes a picture: its size, how its pixels map to scene units, and what is
// marked or missing.
func (p *Picture) info(pic *render.Picture) *ImageInfo {
	info := PNGInfo(pic.PNG) // the size as the bytes sent say it
	if pic.Solids {
		mapSolids(&info, pic)
	} else {
		mapPixels(&info, pic.Visible, pic.Scale)
	}
	info.Grid = pic.GridStep
	info.Blank = blankNote(p.Base, pic)
	if p.highlight != nil {
		info.Highlighted = pic.Highlighted
		info.Highlight = Join(p.note, p.smallNote(pic.Small))
		if pic.Highlighted == 0 && p.note == "" {
			info.Highlight = "the entities named paint nothing here, so nothing is highlighted"
		}
	}
	return &info
}

// smallNote says how many highlighted shapes are too small to see (under render.MarkBelowPx
// on both sides), and how to find them: rings are drawn only when asked, since around a
// quarter-arc or a short line a ring reads as a hole.
func (p *Picture) smallNote(n int) string {
	switch {
	case n == 0:
		return ""
	case p.Rings:
		return fmt.Sprintf("%d highlighted under %d px, each circled", n, render.MarkBelowPx)
	}
	return fmt.Sprintf("%d highlighted under %d px: frame them with focus, or circle them with scene png's rings: true", n, render.MarkBelowPx)
}

// mapPixels fills the pixel mapping of info, a picture showing the scene window vis at scale
// pixels per scene unit: the scale, the scene point at the top-left pixel, the visible region,
// and the mapping in words. Every picture answer (scene png, view, scene diff) says it so.
func mapPixels(info *ImageInfo, vis render.View, scale float64) {
	q := engine.Quantum(geom.Box{Min: vis.Min, Max: vis.Max, NonEmpty: true})
	num := func(v float64) float64 { return engine.RoundTo(v, q) }
	ox, oy := num(vis.Min.X), num(vis.Max.Y)
	info.Scale = engine.RoundSignificant(scale)
	info.Origin = []float64{ox, oy}
	info.Region = []float64{ox, num(vis.Min.Y), num(vis.Max.X), oy}
	x := "x - " + fmtNum(ox) // without "- -" or "- 0"
	switch {
	case ox == 0:
		x = "x"
	case ox < 0:
		x = "x + " + fmtNum(-ox)
	}
	info.Mapping = fmt.Sprintf("scene (x, y) is at pixel ((%s) * %s, (%s - y) * %s); scene y points up, image y points down; origin is the scene point at pixel (0, 0), the top-left corner",
		x, fmtNum(info.Scale), fmtNum(oy), fmtNum(info.Scale))
}

// SolidsMapping is the mapping, in words, of a picture of solids, after the words on how
// its camera sees them (render.Camera.Describe).
const SolidsMapping = ", the 2D shapes as lines in the plane z = 0: " +
	"no pixel stands for one scene point; scale is pixels per scene unit of a length square to the line of sight, and region the window of the plan framed, from the solids' lowest point to their highest"

// mapSolids fills the mapping of info for a picture of solids (render.Picture.Solids), whose
// pixels map to no plan point: the scale, the plan window framed, and the view in words.
func mapSolids(info *ImageInfo, pic *render.Picture) {
	plan := pic.Visible
	q := engine.Quantum(geom.Box{Min: plan.Min, Max: plan.Max, NonEmpty: true})
	num := func(v float64) float64 { return engine.RoundTo(v, q) }
	info.Scale = engine.RoundSignificant(pic.Scale)
	info.Region = []float64{num(plan.Min.X), num(plan.Min.Y), num(plan.Max.X), num(plan.Max.Y)}
	info.Mapping = pic.Camera.Describe() + SolidsMapping
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// blankNote says why a picture shows nothing of the scene, or "" when it shows something.
func blankNote(base *scene.Scene, pic *render.Picture) string {
	if pic.Painted {
		return ""
	}
	shapes, inside := 0, 0
	var all geom.Box
	vis := pic.Visible
	for _, e := range base.Walk() {
		if e.IsGroup() {
			continue
		}
		shapes++
		b := base.WorldBounds(e)
		all.Union(b)
		if b.NonEmpty && b.Max.X >= vis.Min.X && b.Min.X <= vis.Max.X && b.Max.Y >= vis.Min.Y && b.Min.Y <= vis.Max.Y {
			inside++
		}
	}
	switch {
	case shapes == 0:
		return "blank: nothing is drawn: there are no shapes to draw (main draws nothing, or the group asked for is empty)"
	case inside == 0:
		return fmt.Sprintf("blank: nothing is drawn: all %d shapes lie outside the visible region %s; they lie within %s: leave out focus and region, or choose ones that reach into it",
			shapes, fmtRegion(vis.Min, vis.Max), fmtRegion(all.Min, all.Max))
	}
	return fmt.Sprintf("blank: every pixel is the background: the %d shapes in the visible region paint nothing that shows (no fill or stroke, fully transparent, or the background's colour)", inside)
}

func fmtRegion(lo, hi geom.Vec) string {
	q := engine.Quantum(geom.Box{Min: lo, Max: hi, NonEmpty: true})
	r := func(v float64) string { return fmtNum(engine.RoundTo(v, q)) }
	return "[" + r(lo.X) + ", " + r(lo.Y) + ", " + r(hi.X) + ", " + r(hi.Y) + "]"
}

// Altered names what d's newer scene added or altered (not only restacked): the uncapped
// added and changed of a change's answer, what a view highlights as changed.
func Altered(d scene.Diff) []string {
	names := slices.Clone(d.Added)
	for _, c := range d.Changed {
		if !c.OnlyZ() {
			names = append(names, c.Name)
		}
	}
	return names
}

// NoEntity is the error for an entity the scene does not have, with the nearest name it has.
func NoEntity(sc *scene.Scene, name string) error {
	var names []string
	for _, e := range sc.Walk() {
		names = append(names, e.Name)
	}
	if c := runtime.Closest(name, names); c != "" {
		return fmt.Errorf("%w: %q; did you mean %q? (scene tree lists the names)", scene.ErrNotFound, name, c)
	}
	return fmt.Errorf("%w: %q; scene tree lists the names", scene.ErrNotFound, name)
}
