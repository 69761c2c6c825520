// Package sceneview answers the scene tool's views of a scene: pages of its tree, groups and
// draw order, one entity's detail, and its SVG and JSON, each within the answer's byte budget.
// The views are built from a scene of any size for an agent that pays for every byte it
// reads: a list is cut to a page that fits and says where the next page starts, an entity too
// large to show whole leaves out its geometry or members and says how to see them, and a
// drawing that does not fit says which smaller view to ask for. Numbers are rounded to what
// they can mean (RoundJSON). Pictures are package picture's.
//
// Start with Page: a scene, the part and page asked for, and the budget.
package sceneview

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/solid"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/picture"
)

// SVGMinBytesPerShape is the least a shape adds to an SVG (a <path> with its style),
// SVGMinBytesPerSegment the least a segment of a text's outline adds to its path data (" Z"),
// and SVGMinBytesPerVertex the least a vertex adds to it ("L0 0").
const (
	SVGMinBytesPerShape   = 48
	SVGMinBytesPerSegment = 2
	SVGMinBytesPerVertex  = 4
)

// maxListedMembers caps the member names listed for one group in groups and entity.
const maxListedMembers = 100

// its paths and its texts' outlines. A shape on a layer not plotted is not written, and a
// dashed hairline writes only its dashes (counted apart, scene.MaxDashSegments), so neither
// counts its points.
func svgLeastBytes(sc *scene.Scene) int {
	least := sc.TextSegments() * SVGMinBytesPerSegment
	for _, e := range sc.Walk() {
		if e.IsGroup() {
			continue
		}
		drawn := sc.Drawn(e)
		if !drawn.Plot {
			continue
		}
		least += SVGMinBytesPerShape
		st := drawn.Style
		if drafting.Dashes(st.Linetype, st.LinetypeScale) != nil && st.Hairline() && st.Stroke != nil && st.Fill == nil {
			continue
		}
		points, segs := picture.ShapeVertices(e.Shape)
		least += points*SVGMinBytesPerVertex + segs*SVGMinBytesPerSegment
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

// Page is one call's view of a scene: which part (Name, Group, Region), which page of a
// list (Offset, Depth), and the answer's byte budget. Its parameters are checked by the
// caller, which knows how they were asked for.
type Page struct {
	Scene *scene.Scene
	// Name is an entity (entity; svg, json: only it), Group a group (tree, draw_order).
	Name, Group string
	// Offset is where a page starts (a list's nextOffset); Depth the tree's levels (0: all).
	Offset, Depth int
	// Region is a world window [minX, minY, maxX, maxY] (svg, json), nil: everything.
	Region []float64
	// Geometry asks entity for every vertex of a shape past maxEntityVertices.
	Geometry bool
	Budget   int
}

// Rounded is v's JSON with its numbers rounded for this scene.
func (v *Page) Rounded(x any) (json.RawMessage, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return RoundJSON(b, Quantum(v.Scene)), nil
}

// Fits reports whether n more bytes stay within the budget, leaving room for the answer's
// frame and its note.
func (v *Page) Fits(used, n int) bool { return used+n <= v.Budget-512 }

// Size is the length of x's JSON.
func Size(x any) int {
	b, _ := json.Marshal(x)
	return len(b)
}

// NextPage fills the picture.Omitted of a page of shown items starting at offset, out of total.
func NextPage(offset, shown, total int, how string) *picture.Omitted {
	if offset == 0 && shown == total {
		return nil
	}
	o := &picture.Omitted{Shown: shown, Total: total}
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

// Tree lists the entities under in.Group (or the whole scene) depth-first, in z order,
// as nested nodes, a page at a time; groups below in.Depth levels show how many members are
// hidden.
func (v *Page) Tree() ([]*TreeNode, *picture.Omitted, error) {
	type item struct {
		node  *TreeNode
		depth int // below the root, from 0
	}
	var items []item
	var path []*TreeNode // the shown ancestors of the current entity, by depth
	root, base, inside := v.Group, 0, v.Group == ""
	if root != "" {
		e, err := v.Scene.Get(root)
		if err != nil {
			return nil, nil, err
		}
		if !e.IsGroup() {
			return nil, nil, fmt.Errorf("%w: %q is a %s, not a group; tree shows a group's members", engine.ErrBadInput, root, e.Kind())
		}
	}
	for d, e := range v.Scene.Walk() {
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
		if v.Depth > 0 && rel >= v.Depth {
			path[v.Depth-1].Hidden++
			continue
		}
		n := &TreeNode{Name: e.Name, Kind: e.Kind()}
		path = append(path[:rel], n)
		items = append(items, item{n, rel})
	}
	total := len(items)
	offset := min(v.Offset, total)
	out := []*TreeNode{}
	// open[d] is the page's last node at depth d: the parent of the next node at depth d+1
	// when set (items are contiguous in walk order).
	var open []*TreeNode
	used, shown := 0, 0
	for _, it := range items[offset:] {
		n := it.node
		cost := Size(TreeNode{Name: n.Name, Kind: n.Kind, Hidden: n.Hidden}) + len(`,"children":[],"parent":""`) + len(n.Name)
		if shown > 0 && !v.Fits(used, cost) {
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
			if e, err := v.Scene.Get(n.Name); err == nil && e.Parent() != root {
				n.Parent = e.Parent()
			}
			out = append(out, n)
		}
		open = append(open, n)
	}
	return out, NextPage(offset, shown, total, ", a group alone (group), or fewer levels (depth)"), nil
}

// Groups lists the groups in tree order, a page at a time, each with at most
// maxListedMembers member names.
func (v *Page) Groups() ([]GroupView, *picture.Omitted) {
	var all []*scene.Entity
	for _, e := range v.Scene.Walk() {
		if e.IsGroup() {
			all = append(all, e)
		}
	}
	total := len(all)
	offset := min(v.Offset, total)
	out := []GroupView{}
	used, cut := 0, false
	for _, e := range all[offset:] {
		members := e.Children()
		g := GroupView{Name: e.Name, Parent: e.Parent(), Children: members, Count: len(members)}
		if len(members) > maxListedMembers {
			g.Children, cut = members[:maxListedMembers], true
		}
		n := Size(g) + 1
		if len(out) > 0 && !v.Fits(used, n) {
			break
		}
		used += n
		out = append(out, g)
	}
	o := NextPage(offset, len(out), total, "")
	if cut {
		if o == nil {
			o = &picture.Omitted{Shown: len(out), Total: total}
		}
		o.Note = picture.Join(o.Note, fmt.Sprintf("groups with more than %d members list the first %d (count has them all); draw_order with group pages through all of a group's members", maxListedMembers, maxListedMembers))
	}
	return out, o
}

// DrawOrder lists a group's members (or the top level) back to front, a page at a time.
func (v *Page) DrawOrder() ([]string, *picture.Omitted, error) {
	names, err := v.Scene.DrawOrderOf(v.Group)
	if err != nil {
		return nil, nil, err
	}
	total := len(names)
	offset := min(v.Offset, total)
	used, shown := 0, 0
	for _, n := range names[offset:] {
		c := Size(n) + 1
		if shown > 0 && !v.Fits(used, c) {
			break
		}
		used += c
		shown++
	}
	return names[offset : offset+shown], NextPage(offset, shown, total, ""), nil
}

// Entity describes one entity; over the budget, a group's member list is cut, then the
// geometry is left out.
func (v *Page) Entity() (json.RawMessage, *picture.Omitted, error) {
	d, err := solid.Detail(v.Scene, v.Name)
	if err != nil {
		return nil, nil, err
	}
	a := entityAnswer{Detail: d, Summary: summarize(v.Scene, d)}
	var notes []string
	// A shape of many vertices (a cut panel) is answered by its summary: its vertices cost
	// kilobytes an agent rarely reads. They come on request.
	if n := a.Summary.Vertices; n > maxEntityVertices && !v.Geometry {
		notes = append(notes, fmt.Sprintf("the geometry's %d vertices are left out (the summary says what the shape is); ask again with geometry: true for them", n))
		a.Geometry, a.Local.Geometry = nil, nil
	}
	b, err := v.Rounded(a)
	if err != nil || len(b) <= v.Budget {
		return b, omittedNote(notes), err
	}
	if len(a.Children) > maxListedMembers {
		notes = append(notes, fmt.Sprintf("children lists the first %d of %d members; draw_order with group %q pages through them", maxListedMembers, len(a.Children), d.Name))
		a.Children = a.Children[:maxListedMembers]
		if b, err = v.Rounded(a); err != nil || len(b) <= v.Budget {
			return b, omittedNote(notes), err
		}
	}
	if a.Geometry != nil {
		notes = append(notes, fmt.Sprintf("the geometry (%d bytes) is left out: see it with png or svg and name %q, or ask again with a larger max_bytes (up to %d)", len(b), d.Name, picture.MaxAnswerBudget))
		a.Geometry = nil
		a.Local.Geometry = nil // upstream's copy of the same geometry
		a.Text = nil
		b, err = v.Rounded(a)
	}
	return b, omittedNote(notes), err
}

func omittedNote(notes []string) *picture.Omitted {
	if len(notes) == 0 {
		return nil
	}
	return &picture.Omitted{Note: picture.Join(notes...)}
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

// Selection is the part of the scene a drawing shows: one entity (with its groups, for its
// placement), the shapes reaching into a region, or everything; and the window to show (nil:
// fit what is selected).
func (v *Page) Selection() (*scene.Scene, *render.View, error) {
	sc := v.Scene
	if v.Name != "" {
		if _, err := sc.Get(v.Name); err != nil {
			return nil, nil, err
		}
		sc = sc.Subset(func(e *scene.Entity) bool { return Under(v.Scene, e, v.Name) })
	}
	if v.Region == nil {
		return sc, nil, nil
	}
	r := v.Region
	win := render.View{Min: geom.Vec{X: r[0], Y: r[1]}, Max: geom.Vec{X: r[2], Y: r[3]}}
	sub := sc.Subset(func(e *scene.Entity) bool {
		if e.IsGroup() {
			return false
		}
		b := sc.WorldBounds(e)
		return b.NonEmpty && b.Max.X >= r[0] && b.Min.X <= r[2] && b.Max.Y >= r[1] && b.Min.Y <= r[3]
	})
	return sub, &win, nil
}

// Under reports whether e is the entity named name or one of its members, at any depth.
func Under(sc *scene.Scene, e *scene.Entity, name string) bool {
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
func (v *Page) SVG(ctx context.Context) (string, *picture.Omitted, error) {
	sc, win, err := v.Selection()
	if err != nil {
		return "", nil, err
	}
	ways := fmt.Sprintf("ask for one entity or group (name), a region [minX, minY, maxX, maxY], a png, or a larger max_bytes (up to %d)", picture.MaxAnswerBudget)
	if least := svgLeastBytes(sc); least > v.Budget {
		// Certainly over: not worth drawing only to say so.
		return "", &picture.Omitted{Total: sc.Len(), Note: fmt.Sprintf("the SVG of %d entities would be at least %d bytes, over the budget of %d: %s",
			sc.Len(), least, v.Budget, ways)}, nil
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
	if len(b) <= v.Budget {
		return string(b), SolidsLeftOut(sc, ".svg"), nil
	}
	return "", &picture.Omitted{Total: sc.Len(), Note: fmt.Sprintf("the SVG of %d entities is %d bytes, over the budget of %d: %s",
		sc.Len(), len(b), v.Budget, ways)}, nil
}

// SolidsLeftOut is the picture.Omitted of a drawing (svg, dxf) of sc that leaves out its solids,
// naming them (render.Format.LeftOut); nil when sc has none.
func SolidsLeftOut(sc *scene.Scene, ext string) *picture.Omitted {
	f, err := render.ByExt(ext)
	if err != nil {
		return nil
	}
	note := f.LeftOut(sc)
	if note == "" {
		return nil
	}
	n := len(sc.Solids())
	return &picture.Omitted{Shown: sc.Len() - n, Total: sc.Len(), Note: note}
}

// JSON writes the selection's entities in scene.json's form, a page at a time: a page is
// itself a scene document, holding the groups its entities belong to.
func (v *Page) JSON(ctx context.Context) (json.RawMessage, *picture.Omitted, error) {
	sc, _, err := v.Selection()
	if err != nil {
		return nil, nil, err
	}
	var order []*scene.Entity
	for _, e := range sc.Walk() {
		order = append(order, e)
	}
	total := len(order)
	offset := min(v.Offset, total)
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
		return b, NextPage(offset, 0, total, ""), err
	}
	// Grow the page while it fits, or halve it until it does: a few marshals of at most
	// twice the budget.
	n := min(rest, max(1, v.Budget/picture.JSONBytesPerEntity))
	var best []byte
	shown := 0
	for {
		b, err := page(n)
		if err != nil {
			return nil, nil, err
		}
		if len(b) <= v.Budget {
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
		return nil, &picture.Omitted{Total: total, NextOffset: offset + 1, Note: fmt.Sprintf("entity %q alone is over the budget of %d bytes: see it with entity or png and name, or ask again with a larger max_bytes (up to %d); offset %d goes on past it", order[offset].Name, v.Budget, picture.MaxAnswerBudget, offset+1)}, nil
	}
	o := NextPage(offset, shown, total, ", or one group (name) or a region")
	if o != nil {
		o.Note += "; each page is a scene document that also holds the groups of its entities"
	}
	return best, o, nil
}
