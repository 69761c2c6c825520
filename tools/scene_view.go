package tools

// The scene views are built in the server from a scene of any size, for an agent that pays
// for every byte it reads. So every view has a byte budget (SceneIn.MaxBytes): a list is cut
// to a page that fits and says where the next page starts, an entity too large to show whole
// leaves out its geometry or members and says how to see them, a drawing that does not fit
// says which smaller view to ask for, and a picture too large is drawn smaller. Drawings and
// pictures are built under one memory budget shared by all clients (renderMemory), so that
// concurrent requests queue rather than add up, and the memory of a large picture is given
// back to the system as soon as it is encoded.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime/debug"

	"golang.org/x/sync/semaphore"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/solid"
)

// Answer budgets, in bytes.
const (
	// DefaultTextBudget is the default budget of a text view (everything but png).
	DefaultTextBudget = 64 << 10
	// DefaultImageBudget is the default budget of a png.
	DefaultImageBudget = 1 << 20
	// MaxAnswerBudget is the largest budget a call may ask for (max_bytes).
	MaxAnswerBudget = 4 << 20
)

// maxListedMembers caps the member names listed for one group in groups and entity.
const maxListedMembers = 100

// minPNGSide is the narrowest picture a png over its budget is redrawn at.
const minPNGSide = 64

// renderMemory is the memory the server lets drawings and pictures take at once: one
// picture of the largest size (MaxPNGSide² pixels, 4 bytes each). Each render holds its
// estimated size until it is done.
const renderMemory = render.MaxPNGSide * render.MaxPNGSide * 4

// freeAfter is the size of a render after which its memory is given back to the system at
// once, rather than kept by the Go runtime for later allocations.
const freeAfter = 32 << 20

// renders is the memory budget of the renders in progress, shared by every server in the
// process.
var renders = semaphore.NewWeighted(renderMemory)

// svgBytesPerEntity and jsonBytesPerEntity estimate a render's memory before it is made;
// svgMinBytesPerShape is the least a shape adds to an SVG (a <path> with its style), and
// svgMinBytesPerSegment the least a segment of a text's outline adds to its path data (" Z").
const (
	svgMinBytesPerShape   = 48
	svgMinBytesPerSegment = 2
	svgBytesPerEntity     = 400
	jsonBytesPerEntity    = 600
)

// textBytesPerSegment is what a picture takes for each outline segment of its texts, over
// the bytes of its entity: a text is one entity of any number of segments (up to
// scene.MaxTextSegments), each drawn from a world outline of its own (72 bytes), flattened,
// and written out or rasterised: SVG allocates about 260 bytes a segment, PNG 280, and the
// estimate leaves room above both.
const textBytesPerSegment = 350

// vertexBytes is what a picture takes for each vertex of its lines, polygons and paths (a
// path's segment counts as one), over the bytes of its entity: a polyline of a million
// vertices is one entity drawn from a world outline of 72 bytes a segment, written out or
// rasterised: SVG and PDF allocate about 180 bytes a vertex, PNG 260 to 280, DXF 380, and the
// estimate leaves room above them all. svgMinBytesPerVertex is the least a vertex adds to an
// SVG's path data ("L0 0").
const (
	vertexBytes          = 400
	svgMinBytesPerVertex = 4
)

// dashBytes is what a picture takes for each dash or dot of its linetypes
// (scene.MaxDashSegments), which the SVG writer cuts as geometry for hairlines and the PNG
// writer for every dashed stroke: about 1,000 bytes allocated a dash in SVG, 1,100 in PNG.
const dashBytes = 1100

// drawingMemory estimates the memory of drawing sc, perEntity bytes an entity, vertexBytes a
// vertex of its shapes, textBytesPerSegment a segment of its texts' outlines, dashBytes a
// dash and triangleBytes a triangle of its solids, so that a scene of a few polylines of a
// million vertices, of few texts in a font of 11,000-point letters, of a few long dotted lines
// or of a few large solids, waits for as much of the render budget as it takes.
func drawingMemory(sc *scene.Scene, perEntity int64) int64 {
	return int64(sc.Len())*perEntity + int64(vertices(sc))*vertexBytes +
		int64(sc.TextSegments())*textBytesPerSegment + int64(sc.DashSegments())*dashBytes +
		int64(sc.SceneTriangles())*triangleBytes
}

// triangleBytes is what a picture takes for each triangle of the scene's solids: their
// shaded view allocates about 60 bytes a triangle while it is drawn (a sphere of a million
// triangles, 63 MB at 800 px), scene.json holds 24, and a solid is one entity of up to
// scene.MaxSolidTriangles.
const triangleBytes = 64

// vertices counts the points the shapes of sc are drawn through: a line's points, a polygon's
// rings, a path's segments. Shapes of a fixed size (circles, rectangles, arcs) count none, as
// their entity's bytes cover them; texts and dimensions are counted by their outline segments
// (scene.Scene.TextSegments).
func vertices(sc *scene.Scene) int {
	n := 0
	for _, e := range sc.Walk() {
		points, segs := shapeVertices(e.Shape)
		n += points + segs
	}
	return n
}

// shapeVertices counts the points of a line or a polygon, and the segments of a path.
func shapeVertices(sh scene.Shape) (points, segs int) {
	polygon := func(g scene.Polygon) int {
		n := 0
		for _, p := range g.Parts {
			n += len(p.Outer)
			for _, h := range p.Holes {
				n += len(h)
			}
		}
		return n
	}
	switch sh := sh.(type) {
	case scene.Line:
		return len(sh.Points), 0
	case *scene.Line:
		return len(sh.Points), 0
	case scene.Polygon:
		return polygon(sh), 0
	case *scene.Polygon:
		return polygon(*sh), 0
	case *scene.PathShape:
		return 0, len(sh.Outline()) // the path held, not a copy
	}
	return 0, 0
}

// svgLeastBytes is the least the SVG of sc can be: svgMinBytesPerShape a shape drawn,
// svgMinBytesPerVertex a point of its lines and polygons, svgMinBytesPerSegment a segment of
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
		points, segs := shapeVertices(e.Shape)
		least += points*svgMinBytesPerVertex + segs*svgMinBytesPerSegment
	}
	return least
}

// Omitted says what an answer left out, and how to get it.
type Omitted struct {
	Shown int `json:"shown" jsonschema:"items in this answer (entities, groups or names)"`
	Total int `json:"total" jsonschema:"items there are"`
	// NextOffset is where the next page starts (0: no next page).
	NextOffset int    `json:"nextOffset,omitempty" jsonschema:"the offset of the next page"`
	Note       string `json:"note" jsonschema:"what was left out and how to get it"`
}

// ImageInfo describes a picture sent as an image.
type ImageInfo struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	Bytes  int `json:"bytes"`
	// Scale is pixels per scene unit, along both axes.
	Scale float64 `json:"scale,omitempty" jsonschema:"pixels per scene unit, along both axes"`
	// Origin is the scene point at pixel (0, 0), the picture's top-left corner.
	Origin []float64 `json:"origin,omitempty" jsonschema:"the scene point [x, y] at pixel (0, 0), the top-left corner"`
	// Region is the scene window the whole picture shows.
	Region []float64 `json:"region,omitempty" jsonschema:"the visible region [minX, minY, maxX, maxY] in scene units"`
	// Mapping is the pixel of a scene point, in words.
	Mapping string `json:"mapping,omitempty" jsonschema:"how a scene point maps to a pixel"`
	// Grid is the grid's step in scene units, when a grid is drawn.
	Grid float64 `json:"grid,omitempty" jsonschema:"the grid step in scene units"`
	// Highlighted counts the shapes highlighted; Highlight says why none are, when so.
	Highlighted int    `json:"highlighted,omitempty" jsonschema:"how many shapes are highlighted"`
	Highlight   string `json:"highlight,omitempty" jsonschema:"a note on what is highlighted"`
	// Blank says, in words, that the picture shows nothing of the scene, and why.
	Blank string `json:"blank,omitempty" jsonschema:"set when the picture shows nothing of the scene: why"`
	// Legible names the smallest text when it is under LegibleTextPx high, and how to read it.
	Legible string `json:"legible,omitempty" jsonschema:"set when the smallest text is too small to read: which, and how to read it"`
}

// TreeNode is one entity of a tree answer.
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
		o.Note = join(o.Note, fmt.Sprintf("groups with more than %d members list the first %d (count has them all); draw_order with group pages through all of a group's members", maxListedMembers, maxListedMembers))
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
	return &Omitted{Note: join(notes...)}
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

// reserve waits for n bytes of the render budget (at most all of it).
func reserve(ctx context.Context, n int64) (func(), error) {
	n = max(1, min(n, renderMemory))
	if err := renders.Acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() {
		// Give the memory back before the next render may take it, so that it is reused
		// rather than added to.
		if n >= freeAfter {
			debug.FreeOSMemory()
		}
		renders.Release(n)
	}, nil
}

// svg draws the selection; a drawing over the budget is left out with the ways to a smaller
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
	done, err := reserve(ctx, drawingMemory(sc, svgBytesPerEntity))
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
		done, err := reserve(ctx, int64(n)*jsonBytesPerEntity)
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
	n := min(rest, max(1, v.budget/jsonBytesPerEntity))
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
func (v *view) png(ctx context.Context, last func() (*landing, string)) ([]byte, *ImageInfo, *Omitted, error) {
	base := v.sc
	if v.in.Name != "" {
		base = v.sc.Subset(func(e *scene.Entity) bool { return under(v.sc, e, v.in.Name) })
	}
	sc, win, err := v.selection()
	if err != nil {
		return nil, nil, nil, err
	}
	p := &picture{base: base, shown: sc, window: win, width: v.in.Width, height: v.in.Height, auto: v.in.Width == 0 && v.in.Height == 0,
		grid: v.in.Grid, rings: v.in.Rings, budget: v.budget, camera: v.in.View.From}
	if err := p.frame(v.sc, v.in.Focus, "focus"); err != nil {
		return nil, nil, nil, err
	}
	if err := p.mark(v.sc, v.in.Highlight, last, "highlight"); err != nil {
		return nil, nil, nil, err
	}
	return p.draw(ctx)
}

// pngInfo reads a PNG's size from its header.
func pngInfo(b []byte) ImageInfo {
	info := ImageInfo{Bytes: len(b)}
	if len(b) >= 24 {
		be := func(p []byte) int { return int(p[0])<<24 | int(p[1])<<16 | int(p[2])<<8 | int(p[3]) }
		info.Width, info.Height = be(b[16:20]), be(b[20:24])
	}
	return info
}

// join joins notes with "; ", skipping empty ones.
func join(notes ...string) string {
	out := ""
	for _, n := range notes {
		if n == "" {
			continue
		}
		if out != "" {
			out += "; "
		}
		out += n
	}
	return out
}
