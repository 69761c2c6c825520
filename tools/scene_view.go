package tools

// The scene views are built in the server from a scene of any size, for an agent that pays
// for every byte it reads. So every view has a byte budget (SceneIn.MaxBytes): a list is cut
// to a page that fits and says where the next page starts, an entity too large to show whole
// leaves out its geometry or members and says how to see them, a drawing that does not fit
// says which smaller view to ask for, and a picture too large is drawn smaller. Drawings and
// pictures are built under one memory budget shared by all clients (picture.Reserve), so that
// concurrent requests queue rather than add up, and the memory of a large picture is given
// back to the system as soon as it is encoded.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/solid"
	"github.com/cadrun/cadrun/tools/picture"
)

// Answer budgets, in bytes (package picture's, which draws within them).
const (
	DefaultTextBudget  = picture.DefaultTextBudget
	DefaultImageBudget = picture.DefaultImageBudget
	MaxAnswerBudget    = picture.MaxAnswerBudget
)

// svgMinBytesPerShape is the least a shape adds to an SVG (a <path> with its style),
// svgMinBytesPerSegment the least a segment of a text's outline adds to its path data (" Z"),
// and svgMinBytesPerVertex the least a vertex adds to it ("L0 0").
const (
	svgMinBytesPerShape   = 48
	svgMinBytesPerSegment = 2
	svgMinBytesPerVertex  = 4
)

// maxListedMembers caps the member names listed for one group in groups and entity.
const maxListedMembers = 100

// its paths and its texts' outlines. A shape on a layer not plotted is not written, and a
// dashed hairline writes only its dashes (counted apart, scene.MaxDashSegments), so neither
// counts its points.
func svgLeastBytes(sc *scene.Scene) int {
	least := sc.TextSegments() * svgMinBytesPerSegment
	for _, e := range sc.Walk() {
		if e.IsGroup() {
			continue
		}
		drawn := sc.Drawn(e)
		if !drawn.Plot {
			continue
		}
		least += svgMinBytesPerShape
		st := drawn.Style
		if scene.Dashes(st.Linetype, st.LinetypeScale) != nil && st.Hairline() && st.Stroke != nil && st.Fill == nil {
			continue
		}
		points, segs := picture.ShapeVertices(e.Shape)
		least += points*svgMinBytesPerVertex + segs*svgMinBytesPerSegment
	}
	return least
}

type TreeNode struct {
	Name string     `json:"name"`
	Kind scene.Kind `json:"kind"`
	// Parent is set on a node whose parent is not in the answer (an earlier page).
	Parent   string      `json:"parent,omitempty"`
	Children []*TreeNode `json:"children,omitempty"`
	// Hidden counts the members below the depth asked for.
	Hidden int `json:"hidden,omitempty"`
}

// GroupView is one group of a groups answer.
type GroupView struct {
	Name     string   `json:"name"`
	Parent   string   `json:"parent"`
	Children []string `json:"children"`
	// Count is the number of members; more than are listed when the group is large.
	Count int `json:"count"`
}

// view holds what every view of one call needs.
type view struct {
	sc     *scene.Scene
	in     SceneIn
	budget int
}

// newView checks the paging and budget parameters of in.
func newView(sc *scene.Scene, in SceneIn) (*view, error) {
	if in.Offset < 0 || in.Depth < 0 {
		return nil, fmt.Errorf("%w: offset %d, depth %d: give 0 or more", ErrBadInput, in.Offset, in.Depth)
	}
	budget := DefaultTextBudget
	if in.Command == "png" {
		budget = DefaultImageBudget
	}
	switch {
	case in.MaxBytes < 0 || in.MaxBytes > MaxAnswerBudget:
		return nil, fmt.Errorf("%w: max_bytes %d: give 1..%d (MaxAnswerBudget), or leave it out for the default %d",
			ErrBadInput, in.MaxBytes, MaxAnswerBudget, budget)
	case in.MaxBytes > 0:
		budget = in.MaxBytes
	}
	if in.Height < 0 || in.Height > render.MaxPNGSide || in.Height > 0 && in.Command != "png" {
		return nil, fmt.Errorf("%w: height %d: give 1..%d pixels (MaxPNGSide) for png, or leave it out for the width's proportion", ErrBadInput, in.Height, render.MaxPNGSide)
	}
	if in.Command != "png" && (!in.Focus.IsZero() || in.Highlight != nil || in.Grid) {
		return nil, fmt.Errorf("%w: focus, highlight and grid are for png (and for view with a change); %s draws no picture", ErrBadInput, in.Command)
	}
	if !in.Focus.IsZero() && in.Region != nil {
		return nil, fmt.Errorf("%w: give focus or region, not both: region shows only the shapes reaching into it, focus frames one place with everything around it", ErrBadInput)
	}
	if in.Region != nil {
		r := in.Region
		if len(r) != 4 || !finiteAll(r...) || !(r[0] < r[2] && r[1] < r[3]) {
			return nil, fmt.Errorf("%w: region %v: give [minX, minY, maxX, maxY] in world units, finite, min below max", ErrBadInput, r)
		}
	}
	return &view{sc: sc, in: in, budget: budget}, nil
}

func finiteAll(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// rounded is v's JSON with its numbers rounded for this scene.
func (v *view) rounded(x any) (json.RawMessage, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return roundJSON(b, sceneQuantum(v.sc)), nil
}

// fits reports whether n more bytes stay within the budget, leaving room for the answer's
// frame and its note.
func (v *view) fits(used, n int) bool { return used+n <= v.budget-512 }

// size is the length of x's JSON.
func size(x any) int {
	b, _ := json.Marshal(x)
	return len(b)
}

// nextPage fills the Omitted of a page of shown items starting at offset, out of total.
func nextPage(offset, shown, total int, how string) *Omitted {
	if offset == 0 && shown == total {
		return nil
	}
	o := &Omitted{Shown: shown, Total: total}
	if offset+shown < total {
		o.NextOffset = offset + shown
		o.Note = fmt.Sprintf("items %d..%d of %d fit the budget; ask again with offset %d for the next page%s", offset, offset+shown-1, total, o.NextOffset, how)
	} else {
		o.Note = fmt.Sprintf("items %d..%d of %d; this is the last page", offset, offset+shown-1, total)
	}
	if shown == 0 {
		o.Note = fmt.Sprintf("offset %d is past the %d items", offset, total)
	}
	return o
}

// tree lists the entities under in.Group (or the whole scene) depth-first, in z order,
// as nested nodes, a page at a time; groups below in.Depth levels show how many members are
// hidden.
func (v *view) tree() ([]*TreeNode, *Omitted, error) {
	type item struct {
		node  *TreeNode
		depth int // below the root, from 0
	}
	var items []item
	var path []*TreeNode // the shown ancestors of the current entity, by depth
	root, base, inside := v.in.Group, 0, v.in.Group == ""
	if root != "" {
		e, err := v.sc.Get(root)
		if err != nil {
			return nil, nil, err
		}
		if !e.IsGroup() {
			return nil, nil, fmt.Errorf("%w: %q is a %s, not a group; tree shows a group's members", ErrBadInput, root, e.Kind())
		}
	}
	for d, e := range v.sc.Walk() {
		if !inside {
			if e.Name == root {
				inside, base = true, d+1
			}
			continue
		}
		if d < base {
			break
		}
		rel := d - base
		if v.in.Depth > 0 && rel >= v.in.Depth {
			path[v.in.Depth-1].Hidden++
			continue
		}
		n := &TreeNode{Name: e.Name, Kind: e.Kind()}
		path = append(path[:rel], n)
		items = append(items, item{n, rel})
	}
	total := len(items)
	offset := min(v.in.Offset, total)
	out := []*TreeNode{}
	// open[d] is the page's last node at depth d: the parent of the next node at depth d+1
	// when set (items are contiguous in walk order).
	var open []*TreeNode
	used, shown := 0, 0
	for _, it := range items[offset:] {
		n := it.node
		cost := size(TreeNode{Name: n.Name, Kind: n.Kind, Hidden: n.Hidden}) + len(`,"children":[],"parent":""`) + len(n.Name)
		if shown > 0 && !v.fits(used, cost) {
			break
		}
		used += cost
		shown++
		for len(open) < it.depth {
			open = append(open, nil)
		}
		open = open[:it.depth]
		if it.depth > 0 && open[it.depth-1] != nil {
			p := open[it.depth-1]
			p.Children = append(p.Children, n)
		} else {
			if e, err := v.sc.Get(n.Name); err == nil && e.Parent() != root {
				n.Parent = e.Parent()
			}
			out = append(out, n)
		}
		open = append(open, n)
	}
	return out, nextPage(offset, shown, total, ", a group alone (group), or fewer levels (depth)"), nil
}

// groups lists the groups in tree order, a page at a time, each with at most
// maxListedMembers member names.
func (v *view) groups() ([]GroupView, *Omitted) {
	var all []*scene.Entity
	for _, e := range v.sc.Walk() {
		if e.IsGroup() {
			all = append(all, e)
		}
	}
	total := len(all)
	offset := min(v.in.Offset, total)
	out := []GroupView{}
	used, cut := 0, false
	for _, e := range all[offset:] {
		members := e.Children()
		g := GroupView{Name: e.Name, Parent: e.Parent(), Children: members, Count: len(members)}
		if len(members) > maxListedMembers {
			g.Children, cut = members[:maxListedMembers], true
		}
		n := size(g) + 1
		if len(out) > 0 && !v.fits(used, n) {
			break
		}
		used += n
		out = append(out, g)
	}
	o := nextPage(offset, len(out), total, "")
	if cut {
		if o == nil {
			o = &Omitted{Shown: len(out), Total: total}
		}
		o.Note = picture.Join(o.Note, fmt.Sprintf("groups with more than %d members list the first %d (count has them all); draw_order with group pages through all of a group's members", maxListedMembers, maxListedMembers))
	}
	return out, o
}

// drawOrder lists a group's members (or the top level) back to front, a page at a time.
func (v *view) drawOrder() ([]string, *Omitted, error) {
	names, err := v.sc.DrawOrderOf(v.in.Group)
	if err != nil {
		return nil, nil, err
	}
	total := len(names)
	offset := min(v.in.Offset, total)
	used, shown := 0, 0
	for _, n := range names[offset:] {
		c := size(n) + 1
		if shown > 0 && !v.fits(used, c) {
			break
		}
		used += c
		shown++
	}
	return names[offset : offset+shown], nextPage(offset, shown, total, ""), nil
}

// entity describes one entity; over the budget, a group's member list is cut, then the
// geometry is left out.
func (v *view) entity() (json.RawMessage, *Omitted, error) {
	d, err := solid.Detail(v.sc, v.in.Name)
	if err != nil {
		return nil, nil, err
	}
	a := entityAnswer{Detail: d, Summary: summarize(v.sc, d)}
	var notes []string
	// A shape of many vertices (a cut panel) is answered by its summary: its vertices cost
	// kilobytes an agent rarely reads. They come on request.
	if n := a.Summary.Vertices; n > maxEntityVertices && !v.in.Geometry {
		notes = append(notes, fmt.Sprintf("the geometry's %d vertices are left out (the summary says what the shape is); ask again with geometry: true for them", n))
		a.Geometry, a.Local.Geometry = nil, nil
	}
	b, err := v.rounded(a)
	if err != nil || len(b) <= v.budget {
		return b, omittedNote(notes), err
	}
	if len(a.Children) > maxListedMembers {
		notes = append(notes, fmt.Sprintf("children lists the first %d of %d members; draw_order with group %q pages through them", maxListedMembers, len(a.Children), d.Name))
		a.Children = a.Children[:maxListedMembers]
		if b, err = v.rounded(a); err != nil || len(b) <= v.budget {
			return b, omittedNote(notes), err
		}
	}
	if a.Geometry != nil {
		notes = append(notes, fmt.Sprintf("the geometry (%d bytes) is left out: see it with png or svg and name %q, or ask again with a larger max_bytes (up to %d)", len(b), d.Name, MaxAnswerBudget))
		a.Geometry = nil
		a.Local.Geometry = nil // upstream's copy of the same geometry
		a.Text = nil
		b, err = v.rounded(a)
	}
	return b, omittedNote(notes), err
}

func omittedNote(notes []string) *Omitted {
	if len(notes) == 0 {
		return nil
	}
	return &Omitted{Note: picture.Join(notes...)}
}

// maxEntityVertices is the most vertices scene entity answers without geometry: true.
const maxEntityVertices = 64

// entityAnswer is scene entity's answer: the entity's detail (upstream's shape of it, as
// getEntity gives) and a summary of what it is.
type entityAnswer struct {
	scene.Detail
	Summary entitySummary `json:"summary"`
}

// entitySummary says what a shape is in a few numbers beside its kind and bounds (in the
// detail): area and perimeter (for what encloses area), parts, holes and vertices (for
// polygons, lines and paths), or a group's members.
type entitySummary struct {
	Area      *float64 `json:"area,omitempty"`
	Perimeter *float64 `json:"perimeter,omitempty"`
	Parts     int      `json:"parts,omitempty"`
	Holes     int      `json:"holes,omitempty"`
	Vertices  int      `json:"vertices,omitempty"`
	Members   int      `json:"members,omitempty"`
}

func summarize(sc *scene.Scene, d scene.Detail) entitySummary {
	sum := entitySummary{Members: len(d.Children)}
	switch g := d.Geometry.(type) {
	case scene.Polygon:
		sum.Parts = len(g.Parts)
		for _, p := range g.Parts {
			sum.Holes += len(p.Holes)
			sum.Vertices += len(p.Outer)
			for _, h := range p.Holes {
				sum.Vertices += len(h)
			}
		}
	case scene.Line:
		sum.Vertices = len(g.Points)
	case *scene.PathShape:
		sum.Vertices = len(g.Outline())
	}
	if a, err := sc.Area(d.Name); err == nil {
		sum.Area = &a
	}
	if p, err := sc.Perimeter(d.Name); err == nil {
		sum.Perimeter = &p
	}
	return sum
}

// selection is the part of the scene a drawing shows: one entity (with its groups, for its
// placement), the shapes reaching into a region, or everything; and the window to show (nil:
// fit what is selected).
func (v *view) selection() (*scene.Scene, *render.View, error) {
	sc := v.sc
	if v.in.Name != "" {
		if _, err := sc.Get(v.in.Name); err != nil {
			return nil, nil, err
		}
		sc = sc.Subset(func(e *scene.Entity) bool { return under(v.sc, e, v.in.Name) })
	}
	if v.in.Region == nil {
		return sc, nil, nil
	}
	r := v.in.Region
	win := render.View{Min: scene.Vec{X: r[0], Y: r[1]}, Max: scene.Vec{X: r[2], Y: r[3]}}
	sub := sc.Subset(func(e *scene.Entity) bool {
		if e.IsGroup() {
			return false
		}
		b := sc.WorldBounds(e)
		return b.NonEmpty && b.Max.X >= r[0] && b.Min.X <= r[2] && b.Max.Y >= r[1] && b.Min.Y <= r[3]
	})
	return sub, &win, nil
}

// under reports whether e is the entity named name or one of its members, at any depth.
func under(sc *scene.Scene, e *scene.Entity, name string) bool {
	for e.Name != name {
		p, err := sc.Get(e.Parent())
		if err != nil {
			return false
		}
		e = p
	}
	return true
}

// one.
func (v *view) svg(ctx context.Context) (string, *Omitted, error) {
	sc, win, err := v.selection()
	if err != nil {
		return "", nil, err
	}
	ways := fmt.Sprintf("ask for one entity or group (name), a region [minX, minY, maxX, maxY], a png, or a larger max_bytes (up to %d)", MaxAnswerBudget)
	if least := svgLeastBytes(sc); least > v.budget {
		// Certainly over: not worth drawing only to say so.
		return "", &Omitted{Total: sc.Len(), Note: fmt.Sprintf("the SVG of %d entities would be at least %d bytes, over the budget of %d: %s",
			sc.Len(), least, v.budget, ways)}, nil
	}
	done, err := picture.Reserve(ctx, picture.DrawingMemory(sc, picture.SVGBytesPerEntity))
	if err != nil {
		return "", nil, err
	}
	b, err := render.SVG(sc, render.SVGOptions{View: win})
	done()
	if err != nil {
		return "", nil, err
	}
	if len(b) <= v.budget {
		return string(b), solidsLeftOut(sc, ".svg"), nil
	}
	return "", &Omitted{Total: sc.Len(), Note: fmt.Sprintf("the SVG of %d entities is %d bytes, over the budget of %d: %s",
		sc.Len(), len(b), v.budget, ways)}, nil
}

// solidsLeftOut is the Omitted of a drawing (svg, dxf) of sc that leaves out its solids,
// naming them (render.Format.LeftOut); nil when sc has none.
func solidsLeftOut(sc *scene.Scene, ext string) *Omitted {
	f, err := render.ByExt(ext)
	if err != nil {
		return nil
	}
	note := f.LeftOut(sc)
	if note == "" {
		return nil
	}
	n := len(sc.Solids())
	return &Omitted{Shown: sc.Len() - n, Total: sc.Len(), Note: note}
}

// sceneJSON writes the selection's entities in scene.json's form, a page at a time: a page is
// itself a scene document, holding the groups its entities belong to.
func (v *view) sceneJSON(ctx context.Context) (json.RawMessage, *Omitted, error) {
	sc, _, err := v.selection()
	if err != nil {
		return nil, nil, err
	}
	var order []*scene.Entity
	for _, e := range sc.Walk() {
		order = append(order, e)
	}
	total := len(order)
	offset := min(v.in.Offset, total)
	page := func(n int) ([]byte, error) {
		keep := make(map[*scene.Entity]bool, n)
		for _, e := range order[offset : offset+n] {
			keep[e] = true
		}
		sub := sc
		if n < total {
			sub = sc.Subset(func(e *scene.Entity) bool { return keep[e] })
		}
		done, err := picture.Reserve(ctx, int64(n)*picture.JSONBytesPerEntity)
		if err != nil {
			return nil, err
		}
		defer done()
		return sub.MarshalJSON()
	}
	rest := total - offset
	if rest == 0 {
		b, err := page(0)
		return b, nextPage(offset, 0, total, ""), err
	}
	// Grow the page while it fits, or halve it until it does: a few marshals of at most
	// twice the budget.
	n := min(rest, max(1, v.budget/picture.JSONBytesPerEntity))
	var best []byte
	shown := 0
	for {
		b, err := page(n)
		if err != nil {
			return nil, nil, err
		}
		if len(b) <= v.budget {
			best, shown = b, n
			if n == rest {
				break
			}
			n = min(rest, 2*n)
			continue
		}
		if shown > 0 || n == 1 {
			break
		}
		n /= 2
	}
	if shown == 0 {
		return nil, &Omitted{Total: total, NextOffset: offset + 1, Note: fmt.Sprintf("entity %q alone is over the budget of %d bytes: see it with entity or png and name, or ask again with a larger max_bytes (up to %d); offset %d goes on past it", order[offset].Name, v.budget, MaxAnswerBudget, offset+1)}, nil
	}
	o := nextPage(offset, shown, total, ", or one group (name) or a region")
	if o != nil {
		o.Note += "; each page is a scene document that also holds the groups of its entities"
	}
	return best, o, nil
}

// png draws the selection as a picture of the asked width (default: the longer side
// DefaultPNGSide), framed on focus and marked with highlight and grid; a picture over the
// budget is drawn narrower until it fits.
func (v *view) png(ctx context.Context, last func() picture.Change) ([]byte, *ImageInfo, *Omitted, error) {
	base := v.sc
	if v.in.Name != "" {
		base = v.sc.Subset(func(e *scene.Entity) bool { return under(v.sc, e, v.in.Name) })
	}
	sc, win, err := v.selection()
	if err != nil {
		return nil, nil, nil, err
	}
	p := &picture.Picture{Base: base, Shown: sc, Window: win, Width: v.in.Width, Height: v.in.Height, Auto: v.in.Width == 0 && v.in.Height == 0,
		Grid: v.in.Grid, Rings: v.in.Rings, Budget: v.budget, Camera: v.in.View.From}
	if err := p.Frame(v.sc, v.in.Focus, "focus"); err != nil {
		return nil, nil, nil, err
	}
	if err := p.Mark(v.sc, v.in.Highlight, last, "highlight"); err != nil {
		return nil, nil, nil, err
	}
	return p.Draw(ctx)
}
