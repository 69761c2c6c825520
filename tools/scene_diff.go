package tools

// scene diff compares the scene now with the scene of an earlier history entry. The history
// keeps every entry's scene (modules.History.Scene), so nothing is re-run: the old scene is
// read back from its JSON and compared entity by entity with the same comparison a write
// answer's added/removed/changed lists come from (engine.Compare), so the two never disagree.
// The words say what changed of each entity (geometry, transform, style, z, group); the
// picture shows where: both scenes drawn in one frame, what was added, removed and changed
// in colours of their own over the unchanged shapes dimmed. The picture is three layers
// drawn with the same pixel mapping and laid over each other, so that a removed shape is
// seen above the dimmed ones and an added one above everything.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"maps"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
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

// diffLegend says what the colours of a diff picture mean.
const diffLegend = "added: green; removed: red; changed: blue where it is now, light blue where it was; unchanged: faint grey"

// DiffOut answers scene diff.
type DiffOut struct {
	Against DiffAgainst `json:"against"`
	// Counts are the whole numbers; the lists name at most engine.MaxListed each.
	Counts  DiffCounts     `json:"counts"`
	Added   []string       `json:"added"`
	Removed []string       `json:"removed"`
	Changed []EntityChange `json:"changed"`
	// Legend says what the picture's colours mean.
	Legend string `json:"legend"`
}

// DiffAgainst names the state compared with.
type DiffAgainst struct {
	Entry    int    `json:"entry" jsonschema:"the history entry compared with"`
	Snapshot string `json:"snapshot,omitempty" jsonschema:"its snapshot name, if it has one"`
	// Steps is how many entries back from the current state it is (negative).
	Steps int `json:"steps" jsonschema:"how far back it is: -1 is the entry before the current state"`
	// Current is the entry the workspace is at; 0 when the files changed outside cadrun
	// since (the next change records them).
	Current int `json:"current" jsonschema:"the current state's entry; 0 when it is not recorded yet"`
}

// DiffCounts counts the entities of a diff.
type DiffCounts struct {
	Added     int `json:"added"`
	Removed   int `json:"removed"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
}

// EntityChange is one changed entity of a diff.
type EntityChange struct {
	Name string     `json:"name"`
	Kind scene.Kind `json:"kind"`
	What []string   `json:"what" jsonschema:"what changed: geometry, transform, style, z (its place among its siblings), group (its parent)"`
	// Moved is how far the centre of its world bounds moved, when it did.
	Moved []float64 `json:"moved,omitempty" jsonschema:"how far the centre of its world bounds moved [dx, dy], when it did"`
}

// sceneDiff answers scene diff: the lists, and the picture of the difference.
func (se *Session) sceneDiff(ctx context.Context, v *view, against json.RawMessage) (*DiffOut, []byte, *ImageInfo, *Omitted, error) {
	srv := se.srv
	if v.in.MaxBytes == 0 {
		v.budget = DefaultImageBudget // a picture, as png's
	}
	h, warnings := srv.LoadHistory()
	disk, err := srv.ws.UserFiles()
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("reading the workspace: %w", err)
	}
	ref, err := resolveAgainst(h, against, disk)
	if err != nil && len(warnings) > 0 {
		err = fmt.Errorf("%w (%s)", err, strings.Join(warnings, "; ")) // why there is no history
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	old, err := entryScene(h, h.Entries[ref.index], v.sc.Fonts())
	if errors.Is(err, scene.ErrUnknownFont) { // a font the scene no longer uses
		old, err = entryScene(h, h.Entries[ref.index], workspaceFonts(srv.ws, v.sc.Fonts()))
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cur := v.sc
	d := scene.Compare(old, cur, 0)
	out := &DiffOut{
		Against: ref.DiffAgainst,
		Counts:  DiffCounts{Added: len(d.Added), Removed: len(d.Removed), Changed: len(d.Changed), Unchanged: d.Same},
		Legend:  diffLegend,
	}
	var cut []string
	out.Added, cut = capNamed(d.Added, "added", cut)
	out.Removed, cut = capNamed(d.Removed, "removed", cut)
	changed := d.Changed
	if len(changed) > engine.MaxListed {
		cut = append(cut, fmt.Sprintf("changed lists %d of %d", engine.MaxListed, len(changed)))
		changed = changed[:engine.MaxListed]
	}
	q := sceneQuantum(cur)
	out.Changed = make([]EntityChange, len(changed))
	for i, c := range changed {
		out.Changed[i] = EntityChange{Name: c.Name, Kind: c.Kind, What: c.What, Moved: moved(old, cur, c.Name, q)}
	}
	var omitted *Omitted
	if len(cut) > 0 {
		omitted = &Omitted{Note: strings.Join(cut, "; ") + " (counts has them all; the picture shows every one; scene entity with name shows one as it is now)"}
	}
	png, info, note, err := diffPicture(ctx, old, cur, d, v.in.Width, v.budget)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if note != "" {
		if omitted == nil {
			omitted = &Omitted{}
		}
		omitted.Note = join(omitted.Note, note)
	}
	return out, png, info, omitted, nil
}

func capNamed(names []string, what string, cut []string) ([]string, []string) {
	if names == nil {
		return []string{}, cut
	}
	if len(names) <= engine.MaxListed {
		return names, cut
	}
	return names[:engine.MaxListed], append(cut, fmt.Sprintf("%s lists %d of %d", what, engine.MaxListed, len(names)))
}

// moved is how far the centre of name's world bounds moved between the scenes, rounded to
// the scene's quantum, as [dx, dy]; nil when it did not.
func moved(old, cur *scene.Scene, name string, q float64) []float64 {
	o, err1 := old.Get(name)
	e, err2 := cur.Get(name)
	if err1 != nil || err2 != nil {
		return nil
	}
	a, b := old.WorldBounds(o), cur.WorldBounds(e)
	if !a.NonEmpty || !b.NonEmpty {
		return nil
	}
	dv := b.Center().Sub(a.Center())
	dx, dy := engine.RoundTo(dv.X, q), engine.RoundTo(dv.Y, q)
	if dx == 0 && dy == 0 {
		return nil
	}
	return []float64{dx, dy}
}

// againstRef is the entry a diff compares with.
type againstRef struct {
	DiffAgainst
	index int // in h.Entries
}

// resolveAgainst finds the entry named by against: a snapshot name, or a negative number of
// steps back from the current state ("-1" or -1: the entry before it); none means -1. The
// current state is the current entry when the files are still as it recorded them; else
// (edited outside cadrun since) it is a state after it, so one step back is that entry.
func resolveAgainst(h *modules.History, against json.RawMessage, disk map[string][]byte) (againstRef, error) {
	var ref againstRef
	if len(h.Entries) == 0 {
		return ref, fmt.Errorf("%w: there is no history yet to compare with; every change that lands is recorded, so make one (or take a snapshot) and diff after the next", ErrBadInput)
	}
	here := h.Pos + 1 // the current state's place in the history, counting an unrecorded one
	if cur, ok := h.Current(); ok && h.Matches(cur, disk) {
		here, ref.Current = h.Pos, cur.ID
	}
	steps := -1
	if a := bytes.TrimSpace(against); len(a) > 0 && string(a) != "null" {
		var name string
		var n json.Number
		switch {
		case json.Unmarshal(a, &name) == nil:
			if e, ok := h.Find(name); ok {
				i := h.Index(e.ID)
				ref.DiffAgainst.Entry, ref.Snapshot, ref.Steps, ref.index = e.ID, e.Label, i-here, i
				return ref, nil
			}
			k, err := strconv.Atoi(strings.TrimSpace(name))
			if err != nil {
				return ref, fmt.Errorf("%w: against %q: no snapshot has that name; %s; or give a number of steps back (-1 is the entry before the current state)", ErrBadInput, name, engine.SnapshotNames(h))
			}
			steps = k
		case json.Unmarshal(a, &n) == nil:
			k, err := n.Int64()
			if err != nil || k < math.MinInt32 {
				return ref, fmt.Errorf("%w: against %s: give a whole negative number of steps back (-1 is the entry before the current state) or a snapshot name", ErrBadInput, a)
			}
			steps = int(k)
		default:
			return ref, fmt.Errorf("%w: against %s: give a snapshot name or a negative number of steps back (-1 is the entry before the current state)", ErrBadInput, a)
		}
	}
	if steps >= 0 {
		return ref, fmt.Errorf("%w: against %d: give a negative number of steps back (-1 is the entry before the current state), or a snapshot name", ErrBadInput, steps)
	}
	i := here + steps
	if i < 0 {
		if here == 0 {
			return ref, fmt.Errorf("%w: against %d: the current state is the oldest entry in the history (%d); there is nothing earlier to compare with", ErrBadInput, steps, ref.Current)
		}
		return ref, fmt.Errorf("%w: against %d: the history has %d entries before the current state; give -1..-%d or a snapshot name", ErrBadInput, steps, here, here)
	}
	e := h.Entries[i]
	ref.DiffAgainst.Entry, ref.Snapshot, ref.Steps, ref.index = e.ID, e.Label, steps, i
	return ref, nil
}

// workspaceFonts is have with every other font of the workspace that loads.
func workspaceFonts(ws *modules.Workspace, have map[string]*scene.Font) map[string]*scene.Font {
	out := maps.Clone(have)
	if out == nil {
		out = map[string]*scene.Font{}
	}
	for _, name := range ws.FontNames() {
		if out[name] != nil {
			continue
		}
		if b, _, err := ws.ReadFont(name); err == nil {
			if f, err := scene.LoadFont(name, b); err == nil {
				out[name] = f
			}
		}
	}
	return out
}

// entryScene reads the scene an entry recorded, its texts in fonts (the workspace fonts the
// current scene uses; the JSON names a text's font only) so that an unchanged text compares
// equal.
func entryScene(h *modules.History, e modules.HistoryEntry, fonts map[string]*scene.Font) (*scene.Scene, error) {
	b, err := h.Scene(e)
	if err != nil {
		return nil, err
	}
	s, err := scene.ReadJSONWithFonts(b, fonts)
	if err == nil {
		err = runtime.CheckFinite(s)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the scene of entry %d: %w", e.ID, err)
	}
	return s, nil
}

// diffPicture draws the difference in the frame that holds both scenes, at the asked width
// (0: the longer side render.DefaultPNGSide), narrower until it fits budget, with its pixel
// mapping. note says when it was drawn narrower.
func diffPicture(ctx context.Context, old, cur *scene.Scene, d scene.Diff, width, budget int) ([]byte, *ImageInfo, string, error) {
	win := unionView(old, cur)
	if width < 0 {
		return nil, nil, "", fmt.Errorf("%w: width %d: give a positive width in pixels, or leave it out", ErrBadInput, width)
	}
	if old.HasSolids() || cur.HasSolids() {
		return diffPictureOfSolids(ctx, cur, d, width, budget)
	}
	layers := diffLayers(old, cur, d, math.Max(win.Size().X, win.Size().Y)*diffPenFraction)
	b, first, firstWidth, err := narrowToFit(width, budget, func(width int) ([]byte, []byte, int, int, error) {
		b, err := drawLayers(ctx, layers, win, width)
		w := pngInfo(b).Width
		return b, b, w, w, err
	})
	if err != nil {
		return nil, nil, "", err
	}
	info := pngInfo(b)
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
		Min: scene.Vec{X: math.Min(va.Min.X, vb.Min.X), Y: math.Min(va.Min.Y, vb.Min.Y)},
		Max: scene.Vec{X: math.Max(va.Max.X, vb.Max.X), Y: math.Max(va.Max.Y, vb.Max.Y)},
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
			geometry += drawingMemory(l, 0)
		}
	}
	done, err := reserve(ctx, int64(math.Min(w*h*4*2, renderMemory))+geometry)
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

// sceneDiffDescription is the scene tool's words on diff.
const sceneDiffDescription = "diff: what was added, removed, changed since against, and a picture."

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
		done, err := reserve(ctx, drawingMemory(cur, 0)+int64(math.Min(float64(max(width, render.DefaultPNGSide))*float64(max(width, render.DefaultPNGSide))*4*2, renderMemory)))
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
	info := pngInfo(b)
	note := "a scene of solids: the picture is its shaded view now, added and changed entities highlighted; removed ones are listed, not drawn"
	if first > 0 {
		note += fmt.Sprintf("; %d px wide the picture was %d bytes, over the budget of %d; this one is %d px wide (a larger max_bytes, up to %d, gives a wider one)",
			firstWidth, first, budget, info.Width, MaxAnswerBudget)
	}
	mapSolids(&info, pic)
	return b, &info, note, nil
}
