package tools

// Pictures with answers. An agent fixes a drawing well when it sees it, so a change (write,
// edit, move, delete, and scene undo, redo and reset) takes view: the answer then carries a
// small picture of the scene the change landed, with what it added or altered highlighted.
// scene png takes the same marks (focus, highlight, grid). Every picture says in words how
// its pixels map to scene units, and whether it is blank, because an agent that sees only
// the pixels cannot tell an empty frame from a wrong one.
//
// The view is drawn from the scenes the change itself landed (lastChange.of), not from
// the server's current scene, so a change landing from another client in between cannot slip
// into the picture. Its parameters are checked before the change runs; what can only be
// checked after (a focus naming an entity the change was to create) is reported in the view,
// since the change has landed by then.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
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

// changedKeyword is the highlight name that stands for what the last change added or altered.
const changedKeyword = "changed"

// viewCommands are the scene commands that take view: the ones that change the scene.
var viewCommands = []string{"undo", "redo", "reset"}

// ViewIn asks for a picture with a change's answer: true, the side solids are seen from (a
// view's name or [x, y, z], render.Camera), or {width, focus, highlight, grid} (seen from the
// default side, iso). A side and marks together are scene png's: the object has no key for
// the side, since five tools' schemas would each carry it (MaxModelToolList).
type ViewIn struct {
	On        bool          `json:"-"`
	Width     int           `json:"width,omitempty"`
	Focus     Focus         `json:"focus,omitzero"`
	Highlight Highlight     `json:"highlight,omitempty"`
	Grid      bool          `json:"grid,omitempty"`
	From      render.Camera `json:"-"`
}

// UnmarshalJSON implements json.Unmarshaler: true or false, a side (a name or [x, y, z]), or
// an object; a side or an object turns the view on.
func (v *ViewIn) UnmarshalJSON(b []byte) error {
	var on bool
	if err := json.Unmarshal(b, &on); err == nil {
		*v = ViewIn{On: on}
		return nil
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && (t[0] == '"' || t[0] == '[') {
		var c render.Camera
		if err := json.Unmarshal(t, &c); err != nil {
			return fmt.Errorf("view: %w", err)
		}
		*v = ViewIn{On: true, From: c}
		return nil
	}
	type plain ViewIn
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("view: give true, a side such as \"front\", or {width, focus, highlight, grid}: %v", err)
	}
	*v = ViewIn(p)
	v.On = true
	return nil
}

// MarshalJSON implements json.Marshaler: the inverse of UnmarshalJSON.
func (v ViewIn) MarshalJSON() ([]byte, error) {
	type plain ViewIn
	if v.On && v.hasSide() {
		return json.Marshal(v.From) // the side alone: the object has no key for it
	}
	if !v.On || v.marksOnly() {
		return json.Marshal(v.On)
	}
	return json.Marshal(plain(v))
}

// sides are the sides a view may name, for messages.
var sides = fmt.Sprintf("%s, %s, or [x, y, z], the direction the camera looks from", strings.Join(render.StandardViews(), ", "), render.SheetView)

// hasSide reports a view given as a side, "iso" too.
func (v ViewIn) hasSide() bool { return v.From != (render.Camera{}) }

// marksOnly reports a view that asks for no width, focus, highlight or grid: at most a side.
func (v ViewIn) marksOnly() bool {
	return v.Width == 0 && v.Focus.IsZero() && len(v.Highlight) == 0 && !v.Grid
}

// IsZero reports a view not asked for.
func (v ViewIn) IsZero() bool { return !v.On }

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
		return fmt.Errorf("highlight: give entity names, or %q: %v", changedKeyword, err)
	}
	*h = many
	return nil
}

// viewSchemas are the input schemas of the picture parameters, which inference cannot see
// through their JSON methods (typeSchemas takes them in). Widths and regions are checked in
// code, where the error can say what to do.
func viewSchemas() map[reflect.Type]*jsonschema.Schema {
	focus := &jsonschema.Schema{
		Types:       []string{"string", "array"},
		Items:       &jsonschema.Schema{Type: "number"},
		Description: "png: a name or region to frame",
	}
	highlight := &jsonschema.Schema{
		Types:       []string{"string", "array"},
		Items:       &jsonschema.Schema{Type: "string"},
		Description: fmt.Sprintf("png: names in orange (%q: the last change's)", changedKeyword),
	}
	side := []string{"string", "array"}
	view := &jsonschema.Schema{
		Types:       []string{"boolean", "string", "array", "object"},
		Description: "the picture after (as scene png)",
		// The parts are described once, in the scene tool's focus, highlight and grid and its
		// description's words on a side: five tools take view, and a model reads every copy.
		// An unknown key is refused by checkObject, naming the ones there are, and an unknown
		// side by render.Camera, naming the sides.
		Properties: map[string]*jsonschema.Schema{
			"width":     {Type: "integer"},
			"focus":     {Types: focus.Types},
			"highlight": {Types: highlight.Types},
			"grid":      {Type: "boolean"},
		},
		PropertyOrder: []string{"width", "focus", "highlight", "grid"},
	}
	return map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[Focus]():         focus,
		reflect.TypeFor[Highlight]():     highlight,
		reflect.TypeFor[ViewIn]():        view,
		reflect.TypeFor[render.Camera](): {Types: side, Description: "PNG: as scene png's view"},
	}
}

// check refuses view parameters that no scene could satisfy (at is the parameter's path).
func (v ViewIn) check() error {
	if !v.On {
		return nil
	}
	if v.Width < 0 || v.Width > MaxViewWidth {
		return fmt.Errorf("%w: view.width %d: give 1..%d pixels (MaxViewWidth), or leave it out for %d (wider, up to %d, so that the smallest text reads); scene png draws larger pictures (up to %d px)",
			ErrBadInput, v.Width, MaxViewWidth, DefaultViewWidth, MaxLegibleWidth, render.MaxPNGSide)
	}
	if err := v.Focus.check("view.focus"); err != nil {
		return err
	}
	return checkHighlight("view.highlight", v.Highlight)
}

func (f Focus) check(at string) error {
	if r := f.Region; r != nil && (len(r) != 4 || !finiteAll(r...) || !(r[0] < r[2] && r[1] < r[3])) {
		return fmt.Errorf("%w: %s %v: give an entity or group name, or a region [minX, minY, maxX, maxY] in scene units, finite, min below max", ErrBadInput, at, r)
	}
	return nil
}

func checkHighlight(at string, names Highlight) error {
	if slices.Contains(names, "") {
		return fmt.Errorf("%w: %s has an empty name: give entity or group names, or %q", ErrBadInput, at, changedKeyword)
	}
	return nil
}

// ViewOut is the picture a change's answer carries when view asks for it.
type ViewOut struct {
	// PNG is the picture, base64 in JSON; over MCP it travels once, as image content.
	PNG   []byte     `json:"png,omitempty"`
	Image *ImageInfo `json:"image,omitempty"`
	// Error says why there is no picture; the change itself landed.
	Error string `json:"error,omitempty"`
}

// withView gives a tool whose input has a view field its picture: the view is checked before
// the tool runs, and drawn into the change's answer after it.
func withView[In, Out any](fn func(ctx context.Context, s *Session, in In) (Out, error)) func(ctx context.Context, s *Session, in In) (Out, error) {
	t := reflect.TypeFor[In]()
	field := -1
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if t.Field(i).Type == reflect.TypeFor[ViewIn]() {
				field = i
			}
		}
	}
	if field < 0 {
		return fn
	}
	return func(ctx context.Context, s *Session, in In) (Out, error) {
		var zero Out
		v := reflect.ValueOf(in).Field(field).Interface().(ViewIn)
		if sc, ok := any(in).(SceneIn); ok && v.On && !slices.Contains(viewCommands, sc.Command) && !(sc.Command == "png" && v.marksOnly() && v.hasSide()) {
			if sc.Command == "png" {
				return zero, fmt.Errorf("%w: png's view is the side solids are seen from: %s; give png's width, focus, highlight and grid beside view, not in it",
					ErrBadInput, sides)
			}
			return zero, fmt.Errorf("%w: view is for the scene commands that change the scene (%s), and png's side; for a picture of the scene as it is, use png (with focus, highlight and grid)",
				ErrBadInput, strings.Join(viewCommands, ", "))
		}
		if err := v.check(); err != nil {
			return zero, engine.NotApplied(err)
		}
		out, err := fn(ctx, s, in)
		if err != nil || !v.On {
			return out, err
		}
		if sc, ok := any(in).(SceneIn); ok && sc.Command == "png" {
			return out, nil // the side of png's own picture
		}
		switch o := any(out).(type) {
		case *ChangeResult:
			o.View = s.changeView(ctx, v, o)
		case SceneOut:
			if o.Change != nil {
				o.Change.View = s.changeView(ctx, v, o.Change)
			}
		}
		return out, nil
	}
}

// changeView draws the scene res landed, with what it added or altered highlighted unless
// v names what to highlight.
func (se *Session) changeView(ctx context.Context, v ViewIn, res *ChangeResult) *ViewOut {
	l := se.srv.changes.of(res.ChangeResult)
	if l == nil {
		return &ViewOut{Error: fmt.Sprintf("no picture: more than %d changes landed since this one, so its scene is no longer kept; see the scene as it is now with scene png", keptLandings)}
	}
	width, auto := v.Width, v.Width == 0
	if auto {
		width = DefaultViewWidth
	}
	highlight := v.Highlight
	if highlight == nil {
		highlight = Highlight{changedKeyword}
	}
	p := &picture{base: l.after, shown: l.after, width: width, longer: true, auto: auto, grid: v.Grid, budget: DefaultImageBudget, camera: v.From}
	err := p.frame(l.after, v.Focus, "view.focus")
	if err == nil {
		err = p.mark(l.after, highlight, func() (*landing, string) { return l, "the change" }, "view.highlight")
	}
	var b []byte
	var info *ImageInfo
	if err == nil {
		b, info, _, err = p.draw(ctx)
	}
	if err != nil {
		return &ViewOut{Error: fmt.Sprintf("no picture: %v; the change landed: see it with scene png", err)}
	}
	return &ViewOut{PNG: b, Image: info}
}

// landing is a change that landed: the scenes before and after it, and the answer it got
// (nil for a sync's).
type landing struct {
	before, after *scene.Scene
	res           *engine.ChangeResult
}

// keptLandings is how many landings lastChange keeps, so that a view finds its own change
// even when other clients' changes landed right after it. They share their scenes (one's
// after is the next one's before), so this keeps at most keptLandings+1 scenes alive.
const keptLandings = 4

// lastChange remembers the last landings, tools' changes and syncs', for views and for
// highlight "changed". It is safe for concurrent use.
type lastChange struct {
	mu   sync.Mutex
	kept []*landing // oldest first
}

// Check implements engine.Watcher: the last change has no warnings to give.
func (c *lastChange) Check(_, _ *scene.Scene) []string { return nil }

// Landed records a landing (an engine.Watcher).
func (c *lastChange) Landed(before, after *scene.Scene, res *engine.ChangeResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.kept) == keptLandings {
		c.kept = slices.Delete(c.kept, 0, 1)
	}
	c.kept = append(c.kept, &landing{before: before, after: after, res: res})
}

// last returns the last landing, or nil when none has landed since the server started.
func (c *lastChange) last() *landing {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.kept) == 0 {
		return nil
	}
	return c.kept[len(c.kept)-1]
}

// of returns the landing that answered res, or nil when it is no longer kept.
func (c *lastChange) of(res *engine.ChangeResult) *landing {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.kept {
		if l.res == res {
			return l
		}
	}
	return nil
}

// picture is one picture to draw: what it shows, how it is framed, and its marks.
type picture struct {
	// base is what a blank picture is judged against: the scene, or the entity asked for.
	base *scene.Scene
	// shown is what is drawn: base, or its shapes reaching into a region.
	shown  *scene.Scene
	window *render.View // nil: fit shown
	width  int          // 0: the longer side render.DefaultPNGSide
	longer bool         // width is the longer side rather than the width
	// height, when not 0, is the picture's height (scene png's height); narrowed to fit the
	// budget, it keeps its proportion to the width first drawn (fullWidth).
	height, fullWidth int
	camera            render.Camera // the side solids are seen from
	// auto marks a width not asked for: it grows, up to MaxLegibleWidth, until the smallest
	// text shown is LegibleTextPx high (legibleWidth).
	auto bool
	// highlight names the entities to highlight (nil: no highlight), with a note on it.
	highlight map[string]bool
	note      string
	grid      bool
	rings     bool // circle highlighted shapes under render.MarkBelowPx (scene png's rings)
	budget    int
}

// frame sets the window on focus, looked up in sc.
func (p *picture) frame(sc *scene.Scene, f Focus, at string) error {
	if err := f.check(at); err != nil || f.IsZero() {
		return err
	}
	var b scene.Box
	if f.Name != "" {
		e, err := sc.Get(f.Name)
		if err != nil {
			return noEntity(sc, f.Name)
		}
		if b = sc.WorldBounds(e); !b.NonEmpty {
			return fmt.Errorf("%w: %s %q is an empty group: there is nothing to frame; focus on a shape, or on a region [minX, minY, maxX, maxY]", ErrBadInput, at, f.Name)
		}
	} else {
		r := f.Region
		b = scene.Box{Min: scene.Vec{X: r[0], Y: r[1]}, Max: scene.Vec{X: r[2], Y: r[3]}, NonEmpty: true}
	}
	sz := b.Size()
	long := math.Max(sz.X, sz.Y)
	pad := long * focusMargin
	if long == 0 {
		pad = 1 // a point: a unit around it
	}
	short := long * focusMinAspect
	grow := scene.Vec{X: pad + math.Max(0, short-sz.X)/2, Y: pad + math.Max(0, short-sz.Y)/2}
	p.window = &render.View{Min: b.Min.Sub(grow), Max: b.Max.Add(grow)}
	return nil
}

// mark resolves the names to highlight in sc: each entity with its members, and "changed"
// for what the landing last gives added or altered (nil: none known).
func (p *picture) mark(sc *scene.Scene, names Highlight, last func() (*landing, string), at string) error {
	if err := checkHighlight(at, names); err != nil || len(names) == 0 {
		return err
	}
	var roots []string // each highlighted with its members
	for _, n := range names {
		if n != changedKeyword {
			if !sc.Exists(n) {
				return noEntity(sc, n)
			}
			roots = append(roots, n)
			continue
		}
		l, what := last()
		if l == nil {
			p.note = join(p.note, "no change has landed since this server started, so nothing is highlighted as changed")
			continue
		}
		d := scene.Compare(l.before, l.after, 0)
		changed := altered(d)
		roots = append(roots, changed...)
		if len(changed) == 0 {
			gone := ""
			if len(d.Removed) > 0 {
				gone = fmt.Sprintf(" (it removed %d, which are not drawn)", len(d.Removed))
			}
			p.note = join(p.note, fmt.Sprintf("%s added or altered no entity%s, so nothing is highlighted as changed", what, gone))
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

// draw draws the picture at its width; a picture over the budget is drawn narrower until it
// fits.
func (p *picture) draw(ctx context.Context) ([]byte, *ImageInfo, *Omitted, error) {
	if p.width < 0 {
		return nil, nil, nil, fmt.Errorf("%w: width %d: give a positive width in pixels, or leave it out", ErrBadInput, p.width)
	}
	small := p.smallestText()
	if p.auto && small.e != nil {
		p.legibleWidth(small)
	}
	width := p.width
	pic, firstBytes, firstWidth, err := narrowToFit(width, p.budget, func(width int) (*render.Picture, []byte, int, int, error) {
		pic, err := p.drawAt(ctx, width)
		if err != nil {
			return nil, nil, 0, 0, err
		}
		side := max(pic.Width, pic.Height)
		if !p.longer {
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
			firstWidth, firstBytes, p.budget, pic.Width, MaxAnswerBudget)}
	}
	info := p.info(pic)
	info.Legible = small.note(pic.Scale, p.auto)
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
func (p *picture) smallestText() shownText {
	var out shownText
	for _, e := range p.shown.Walk() {
		var h float64
		switch t := e.Shape.(type) {
		case *scene.Text:
			h = t.Size * math.Sqrt(math.Abs(p.shown.WorldMatrix(e).Det()))
		case *scene.Dimension:
			h = t.Size
		default:
			continue
		}
		if !(h > 0) || out.e != nil && h >= out.height {
			continue
		}
		if w := p.window; w != nil {
			b := p.shown.WorldBounds(e)
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
func (p *picture) legibleWidth(t shownText) {
	win := p.window
	if win == nil {
		fit := render.FitView(p.shown, render.DefaultMargin)
		win = &fit
	}
	sz := win.Size()
	long := math.Max(sz.X, sz.Y)
	base := p.width
	if base == 0 {
		base = render.DefaultPNGSide
	}
	need := int(math.Ceil(LegibleTextPx * long / t.height))
	if !(long > 0) || need <= base {
		return
	}
	p.width, p.longer = min(need, MaxLegibleWidth), true
}

// note says, when t is under LegibleTextPx at scale pixels a unit, which text it is, how
// high, and how to read it; auto marks a picture whose width was not asked for.
func (t shownText) note(scale float64, auto bool) string {
	if t.e == nil || t.height*scale >= LegibleTextPx {
		return ""
	}
	what := fmt.Sprintf("dimension %q", t.e.Name)
	if txt, ok := t.e.Shape.(*scene.Text); ok {
		what = fmt.Sprintf("text %q (%q)", t.e.Name, clip([]byte(txt.Text), 24))
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
			firstBytes, firstWidth = len(b), pngInfo(b).Width
		}
		// A PNG's size grows about with its pixel count: aim a little under the budget, and
		// at most at half the size, so that a few renders find a size that fits.
		aim := int(float64(side) * math.Sqrt(float64(budget)/float64(len(b))) * 0.9)
		width = max(minPNGSide, min(side/2, aim))
	}
}

// drawAt renders the picture width pixels wide (or on the longer side) under the render
// budget.
func (p *picture) drawAt(ctx context.Context, width int) (*render.Picture, error) {
	win := p.window
	if win == nil {
		fit := render.FitView(p.shown, render.DefaultMargin)
		win = &fit
	}
	opt := render.PNGOptions{Width: width, View: win, Context: ctx, Camera: p.camera}
	w, h := float64(width), float64(width)
	if sz := win.Size(); sz.X > 0 && sz.Y > 0 {
		switch {
		case width == 0:
			side := float64(render.DefaultPNGSide)
			w, h = side, side
		case p.longer && sz.Y > sz.X:
			opt.Width, opt.Height = 0, width
			w = math.Round(h * sz.X / sz.Y)
		default:
			h = math.Round(w * sz.Y / sz.X)
		}
	}
	if p.height > 0 {
		opt.Height = p.height
		if p.fullWidth > 0 && width < p.fullWidth {
			opt.Height = max(1, int(math.Round(float64(p.height)*float64(width)/float64(p.fullWidth))))
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
	if p.grid {
		marks.Grid = true
		layers++
	}
	marks.Rings = p.rings
	done, err := reserve(ctx, int64(math.Min(w*h*4*layers, renderMemory))+drawingMemory(p.shown, 0))
	if err != nil {
		return nil, err
	}
	defer done()
	pic, err := render.Draw(p.shown, opt, marks)
	if err == nil && p.fullWidth == 0 {
		p.fullWidth = pic.Width
	}
	return pic, err
}

// info describes a picture: its size, how its pixels map to scene units, and what is
// marked or missing.
func (p *picture) info(pic *render.Picture) *ImageInfo {
	info := pngInfo(pic.PNG) // the size as the bytes sent say it
	if pic.Solids {
		mapSolids(&info, pic)
	} else {
		mapPixels(&info, pic.Visible, pic.Scale)
	}
	info.Grid = pic.GridStep
	info.Blank = blankNote(p.base, pic)
	if p.highlight != nil {
		info.Highlighted = pic.Highlighted
		info.Highlight = join(p.note, p.smallNote(pic.Small))
		if pic.Highlighted == 0 && p.note == "" {
			info.Highlight = "the entities named paint nothing here, so nothing is highlighted"
		}
	}
	return &info
}

// smallNote says how many highlighted shapes are too small to see (under render.MarkBelowPx
// on both sides), and how to find them: rings are drawn only when asked, since around a
// quarter-arc or a short line a ring reads as a hole.
func (p *picture) smallNote(n int) string {
	switch {
	case n == 0:
		return ""
	case p.rings:
		return fmt.Sprintf("%d highlighted under %d px, each circled", n, render.MarkBelowPx)
	}
	return fmt.Sprintf("%d highlighted under %d px: frame them with focus, or circle them with scene png's rings: true", n, render.MarkBelowPx)
}

// mapPixels fills the pixel mapping of info, a picture showing the scene window vis at scale
// pixels per scene unit: the scale, the scene point at the top-left pixel, the visible region,
// and the mapping in words. Every picture answer (scene png, view, scene diff) says it so.
func mapPixels(info *ImageInfo, vis render.View, scale float64) {
	q := engine.Quantum(scene.Box{Min: vis.Min, Max: vis.Max, NonEmpty: true})
	num := func(v float64) float64 { return engine.RoundTo(v, q) }
	ox, oy := num(vis.Min.X), num(vis.Max.Y)
	info.Scale = roundSignificant(scale)
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

// solidsMapping is the mapping, in words, of a picture of solids, after the words on how
// its camera sees them (render.Camera.Describe).
const solidsMapping = ", the 2D shapes as lines in the plane z = 0: " +
	"no pixel stands for one scene point; scale is pixels per scene unit of a length square to the line of sight, and region the window of the plan framed, from the solids' lowest point to their highest"

// mapSolids fills the mapping of info for a picture of solids (render.Picture.Solids), whose
// pixels map to no plan point: the scale, the plan window framed, and the view in words.
func mapSolids(info *ImageInfo, pic *render.Picture) {
	plan := pic.Visible
	q := engine.Quantum(scene.Box{Min: plan.Min, Max: plan.Max, NonEmpty: true})
	num := func(v float64) float64 { return engine.RoundTo(v, q) }
	info.Scale = roundSignificant(pic.Scale)
	info.Region = []float64{num(plan.Min.X), num(plan.Min.Y), num(plan.Max.X), num(plan.Max.Y)}
	info.Mapping = pic.Camera.Describe() + solidsMapping
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// blankNote says why a picture shows nothing of the scene, or "" when it shows something.
func blankNote(base *scene.Scene, pic *render.Picture) string {
	if pic.Painted {
		return ""
	}
	shapes, inside := 0, 0
	var all scene.Box
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

func fmtRegion(lo, hi scene.Vec) string {
	q := engine.Quantum(scene.Box{Min: lo, Max: hi, NonEmpty: true})
	r := func(v float64) string { return fmtNum(engine.RoundTo(v, q)) }
	return "[" + r(lo.X) + ", " + r(lo.Y) + ", " + r(hi.X) + ", " + r(hi.Y) + "]"
}

// lastLanded is the change that landed the server's current scene, for highlight "changed"
// in scene png; nil when the server has not landed one since it started.
func (se *Session) lastLanded() (*landing, string) {
	l := se.srv.changes.last()
	if l != nil && l.after != se.srv.Scene() {
		l = nil // a landing under way: its scene is not the one being drawn
	}
	return l, "the last change"
}

// scenePicturesDescription is the scene tool's description of its pictures.
const scenePicturesDescription = "undo, redo and reset take view as write does. view (png's too) may be the side solids are seen from: " +
	"iso, front, top, right, back, left, bottom, sheet (4 views) or [x,y,z]. A picture's image maps its pixels to the scene."

// altered names what d's newer scene added or altered (not only restacked): the uncapped
// added and changed of a change's answer, what a view highlights as changed.
func altered(d scene.Diff) []string {
	names := slices.Clone(d.Added)
	for _, c := range d.Changed {
		if !c.OnlyZ() {
			names = append(names, c.Name)
		}
	}
	return names
}
