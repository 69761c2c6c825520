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
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/picture"
)

// The picture parameters, their answers and their limits are package picture's; the names
// here are the tools' words for them, in schemas, answers and messages.
type (
	Focus     = picture.Focus
	Highlight = picture.Highlight
	ImageInfo = picture.ImageInfo
	Omitted   = picture.Omitted
)

// The limits of a picture (package picture says why each is what it is).
const (
	DefaultViewWidth = picture.DefaultViewWidth
	LegibleTextPx    = picture.LegibleTextPx
	MaxLegibleWidth  = picture.MaxLegibleWidth
	MaxViewWidth     = picture.MaxViewWidth
)

// changedKeyword is the highlight name that stands for what the last change added or altered.
const changedKeyword = picture.ChangedKeyword

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
	if err := v.Focus.Check("view.focus"); err != nil {
		return err
	}
	return picture.CheckHighlight("view.highlight", v.Highlight)
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
	p := &picture.Picture{Base: l.after, Shown: l.after, Width: width, Longer: true, Auto: auto, Grid: v.Grid, Budget: DefaultImageBudget, Camera: v.From}
	err := p.Frame(l.after, v.Focus, "view.focus")
	if err == nil {
		err = p.Mark(l.after, highlight, func() picture.Change { return l.change("the change") }, "view.highlight")
	}
	var b []byte
	var info *ImageInfo
	if err == nil {
		b, info, _, err = p.Draw(ctx)
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

// change is the landing as highlight "changed" sees it, named what in its notes.
func (l *landing) change(what string) picture.Change {
	return picture.Change{Before: l.before, After: l.after, What: what}
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

// lastLanded is the change that landed the server's current scene, for highlight "changed"
// in scene png; none (no After) when the server has not landed one since it started.
func (se *Session) lastLanded() picture.Change {
	l := se.srv.changes.last()
	if l == nil || l.after != se.srv.Scene() {
		return picture.Change{} // none, or a landing under way: its scene is not the one being drawn
	}
	return l.change("the last change")
}

// scenePicturesDescription is the scene tool's description of its pictures.
const scenePicturesDescription = "undo, redo and reset take view as write does. view (png's too) may be the side solids are seen from: " +
	"iso, front, top, right, back, left, bottom, sheet (4 views) or [x,y,z]. A picture's image maps its pixels to the scene."
