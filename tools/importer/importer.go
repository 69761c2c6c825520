// Package importer turns drawings made elsewhere into cadrun modules: a module of readable
// draw* calls that an agent or a person edits like any other code. A DXF file is read by
// tools/importer/dxf; this package decides what each entity becomes:
//
//   - the module exports one function, named after the module, that draws the drawing and
//     returns the names it drew at the top level; everything else (helpers, block functions,
//     layer lists) is declared inside it, so that any number of imported modules run together
//     in one main, and every name it draws starts with the prefix (the tools give the
//     module's name), so that two imports never draw the same name;
//   - a layer is a layer (createLayer with its colour, linetype and plot flag; setLayer on its
//     entities), not a group: groups are for blocks, and an agent regroups freely;
//   - a block is one JS function that draws its entities into a group, and each INSERT calls
//     it and places the group (base point, scale, rotation) with setPivot, scale, rotate and
//     translate;
//   - coordinates are written as the file writes them (the shortest decimal that reads back as
//     the same number), angles in the file's degrees times `deg`, so the module holds the
//     file's own precision and exports back to the same geometry.
//
// Whatever it cannot bring in is skipped and counted with the reason, in the Report.
package importer

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// MaxBlockDepth is how deeply blocks may insert blocks.
const MaxBlockDepth = 16

// MaxDrawnEntities is how many entities the module may draw once every INSERT is expanded:
// the sandbox's own entity limit, checked before the module is written.
var MaxDrawnEntities = runtime.DefaultLimits.MaxEntities

// ErrRefused is returned for a file that is read but cannot be imported (a block that inserts
// itself, nesting or expansion over the limits).
var ErrRefused = errors.New("cannot import")

// Options say what to import.
type Options struct {
	Source string   // the file's name, for the module's header comment
	Layers []string // import only these layers (all when empty)
	// Layout is the DXF layout to import: a paper-space layout's name, or "" (and "Model")
	// for model space, the drawing.
	Layout string
	// Module is the module's name: the function it exports is named after it (ExportName).
	// Empty: ModuleName of Source, or "imported".
	Module string
	// Prefix starts every name the module draws, joined with '-' (tools default it to the
	// module's name); empty: no prefix.
	Prefix string
	// Units are the drawing's units. A DXF keeps its own numbers: Units names them when the
	// file names none or the wrong ones (UnitName's names), without converting. An SVG file
	// with a size (width and height) is drawn in them: mm (the default), cm, in, pt or px.
	Units     string
	Limits    dxf.Limits // the DXF reader's limits; zero fields take dxf.DefaultLimits
	SVGLimits svg.Limits // the SVG reader's limits; zero fields take svg.DefaultLimits
}

// Report says what an import made and what it skipped.
type Report struct {
	Format   string         `json:"format"`            // "dxf" or "svg"
	Export   string         `json:"export"`            // the function the module exports, which draws the drawing
	Prefix   string         `json:"prefix,omitempty"`  // what every name it draws starts with
	Use      string         `json:"use"`               // the lines that draw it from main
	Units    string         `json:"units"`             // DXF: Options.Units, else from $INSUNITS, e.g. "mm", "unitless" when absent; SVG: the unit it is drawn in, or "user units" for a drawing without a size
	InsUnits int            `json:"insunits"`          // the raw $INSUNITS code
	Kinds    map[string]int `json:"kinds"`             // imported entities by DXF kind (block contents counted once)
	Layers   map[string]int `json:"layers"`            // imported top-level entities by layer (SVG: by top-level group, "(top level)" for shapes outside any)
	Blocks   int            `json:"blocks"`            // block (SVG: symbol) functions written
	Expanded int            `json:"expanded"`          // the file's entities with every INSERT expanded, skipped ones included: what MaxDrawnEntities bounds
	Skipped  map[string]int `json:"skipped,omitempty"` // "KIND: why" -> count
	// Notes are entities imported as something other than themselves: "KIND: how" -> count
	// (a DIMENSION as its block's geometry, a rational SPLINE flattened to lines).
	Notes map[string]int `json:"notes,omitempty"`
	// DataFiles name the data files the module reads its longest point lists and paths from
	// (NAME/1.json, ...), when with them it would pass MaxSourceBytes (data.go); Data holds
	// them, by name, for the caller to write beside the module.
	DataFiles []string          `json:"data_files,omitempty"`
	Data      map[string]string `json:"-"`
}

// ErrUnits is returned for Options.Units that name no unit (the SVG reader's error, so that
// both formats refuse alike).
var ErrUnits = svg.ErrUnits

// DXF reads a DXF file and returns the module's source and the report.
func DXF(data []byte, opt Options) (string, *Report, error) {
	if err := checkUnits(opt.Units); err != nil {
		return "", nil, err
	}
	// One clock from the start of reading: MaxTime bounds the whole conversion.
	maxTime := opt.Limits.MaxTime
	if maxTime <= 0 {
		maxTime = dxf.DefaultLimits.MaxTime
	}
	clock := newBudget(maxTime)
	d, err := dxf.Read(data, opt.Limits)
	if err != nil {
		return "", nil, err
	}
	left, err := chooseLayout(d, opt.Layout)
	if err != nil {
		return "", nil, err
	}
	g := newGen(d, opt, clock)
	for what, n := range left {
		if g.rep.Notes == nil {
			g.rep.Notes = map[string]int{}
		}
		g.rep.Notes[what] += n
	}
	if err := g.checkBlocks(); err != nil {
		return "", nil, err
	}
	if err := g.module(); err != nil {
		return "", nil, err
	}
	g.noteMissing()
	if err := g.out.Err(); err != nil {
		return "", nil, err
	}
	code, err := g.foldData(g.wrap(g.dxfHelpers()), "import a few layers at a time (-layers)")
	if err != nil {
		return "", nil, err
	}
	return code, g.rep, nil
}

// ErrLayout is returned for Options.Layout naming no layout of the file.
var ErrLayout = dxf.ErrLayout

// chooseLayout makes the layout named (model space for "") the drawing's entities, and
// returns the notes of the spaces left out, each with its entity count: a layout is a sheet
// (title block, viewports onto the model) drawn over the model's coordinates, not part of it.
func chooseLayout(d *dxf.Drawing, name string) (map[string]int, error) {
	left := map[string]int{}
	model := "Model"
	if name != "" && !strings.EqualFold(name, model) {
		es, err := d.LayoutEntities(name)
		if err != nil {
			return nil, err
		}
		if n := len(d.Entities); n > 0 {
			left["LAYOUT Model: model space, left out (the import is of layout "+name+")"] = n
		}
		d.Entities = es
		model = name
	}
	for _, l := range d.Layouts {
		if n := d.PaperCount(l); n > 0 && !strings.EqualFold(l.Name, model) {
			left["LAYOUT "+l.Name+": paper space, left out (import it with layout "+l.Name+")"] = n
		}
	}
	return left, nil
}

// units names the $INSUNITS codes.
var units = map[int]string{0: "unitless", 1: "in", 2: "ft", 3: "mi", 4: "mm", 5: "cm", 6: "m", 7: "km",
	8: "microinch", 9: "mil", 10: "yd", 11: "angstrom", 12: "nm", 13: "micron", 14: "dm", 15: "dam",
	16: "hm", 17: "Gm", 18: "au", 19: "ly", 20: "pc"}

// checkUnits refuses a units option that names no unit.
func checkUnits(u string) error {
	if u == "" || slices.Contains(slices.Collect(maps.Values(units)), u) {
		return nil
	}
	names := slices.Sorted(maps.Values(units))
	return fmt.Errorf("%w %q: give one of %s", ErrUnits, u, strings.Join(names, ", "))
}

// UnitName is the name of a $INSUNITS code.
func UnitName(code int) string {
	if u, ok := units[code]; ok {
		return u
	}
	return fmt.Sprintf("unknown ($INSUNITS %d)", code)
}

// gen writes the module.
type gen struct {
	d      *dxf.Drawing
	opt    Options
	rep    *Report
	out    *codeWriter       // the module as written, before folding
	band   float64           // the width of the polyline being written (widths), 0 for none
	clock  *budget           // the import's MaxTime
	funcs  map[string]string // block name -> JS function name
	names  map[string]bool   // entity and group names used, lower-cased
	used   map[string]bool   // blocks some INSERT reaches
	drawn  map[string]int    // block -> entities it draws, expanded
	keep   map[string]bool   // layers to import; nil for all
	after  []string          // style calls held back so that a run of draw calls stays a run
	arrays bool              // some INSERT is an array (MINSERT): the module needs array
	placed bool              // some INSERT calls place
	nested bool              // some INSERT inside a block calls unique
	export string            // the exported function's name
	mod    string            // the module's name, which its data files are named after
	prefix string            // the names' prefix with its '-', or ""
	head   string            // the module's header comment
	drawn0 []string          // the JS expressions of the names drawn at the top level
	layerN map[string]string // DXF layer -> the scene layer's name
	layerC map[string]string // DXF layer -> its colour as rgba writes it, "" for none (black)
	// missing are the characters no font draws, drawn as boxes, by kind (glyphs.go).
	missing map[string]*missingChars
}

func newGen(d *dxf.Drawing, opt Options, clock *budget) *gen {
	u := opt.Units
	if u == "" {
		u = UnitName(d.InsUnits)
	}
	g := &gen{d: d, opt: opt, clock: clock, out: newCodeWriter(MaxUnfoldedBytes, " before folding", "MaxUnfoldedBytes", "import a few layers at a time (-layers)", clock), funcs: map[string]string{}, names: map[string]bool{}, used: map[string]bool{}, drawn: map[string]int{},
		rep: &Report{Format: "dxf", Units: u, InsUnits: d.InsUnits, Kinds: map[string]int{}, Layers: map[string]int{}, Skipped: map[string]int{}}}
	for what, n := range d.Notes {
		if g.rep.Notes == nil {
			g.rep.Notes = map[string]int{}
		}
		g.rep.Notes[what] += n
	}
	g.naming()
	if len(opt.Layers) > 0 {
		g.keep = map[string]bool{}
		for _, l := range opt.Layers {
			g.keep[l] = true
		}
	}
	return g
}

func (g *gen) skip(kind, why string) { g.rep.Skipped[kind+": "+why]++ }

// note counts an entity imported as something other than itself, with how.
func (g *gen) note(kind, how string) {
	if g.rep.Notes == nil {
		g.rep.Notes = map[string]int{}
	}
	g.rep.Notes[kind+": "+how]++
}

// checkBlocks refuses a block that inserts itself, nesting deeper than MaxBlockDepth, and a
// drawing that expands to over MaxDrawnEntities; it finds the blocks in use.
func (g *gen) checkBlocks() error {
	var visit func(name string, path []string) (int, error)
	visit = func(name string, path []string) (int, error) {
		if n, ok := g.drawn[name]; ok {
			return n, nil
		}
		if i := slices.Index(path, name); i >= 0 {
			return 0, fmt.Errorf("%w: block %q inserts itself (%s)", ErrRefused, name, strings.Join(append(path[i:], name), " -> "))
		}
		if len(path) >= MaxBlockDepth {
			return 0, fmt.Errorf("%w: blocks nest over %d deep (MaxBlockDepth): %s", ErrRefused, MaxBlockDepth, strings.Join(append(path, name), " -> "))
		}
		g.used[name] = true
		n := 0
		for _, e := range g.d.Blocks[name].Entities {
			k, err := g.countEntity(e, append(path, name), visit)
			if err != nil {
				return 0, err
			}
			n = min(n+k, MaxDrawnEntities+1)
		}
		g.drawn[name] = n
		return n, nil
	}
	total := 0
	for _, e := range g.d.Entities {
		if !g.layerKept(e) {
			continue
		}
		k, err := g.countEntity(e, nil, visit)
		if err != nil {
			return err
		}
		total = min(total+k, MaxDrawnEntities+1)
	}
	if total > MaxDrawnEntities {
		return fmt.Errorf("%w: the drawing has over %d entities once its blocks are expanded (MaxDrawnEntities)", ErrRefused, MaxDrawnEntities)
	}
	g.rep.Expanded = total
	return nil
}

// countEntity is how many entities e draws (an INSERT: its block's, plus its group).
func (g *gen) countEntity(e *dxf.Entity, path []string, visit func(string, []string) (int, error)) (int, error) {
	if e.Kind != "INSERT" && e.Kind != "DIMENSION" {
		return 1, nil
	}
	b, ok := g.d.Blocks[e.Str(2, "")]
	if !ok || b.Xref() {
		return 0, nil
	}
	n, err := visit(b.Name, path)
	if err != nil {
		return 0, fmt.Errorf("%w (the %s on line %d)", err, e.Kind, e.Line)
	}
	if e.Kind == "DIMENSION" {
		return n + 1, nil
	}
	cols, rows, err := arrayCounts(e)
	if err != nil {
		return 0, err
	}
	if cols == 1 && rows == 1 {
		return n + 1, nil
	}
	// An array insert: a group per copy and one around them.
	g.arrays = true
	limit := MaxDrawnEntities + 1
	copies := min(cols, limit) * min(rows, limit)
	return min(copies, limit)*(n+1) + 1, nil
}

func (g *gen) layerKept(e *dxf.Entity) bool {
	return g.keep == nil || g.keep[e.Str(8, "0")]
}

// module writes the header comment and the body of the exported function: block functions,
// the layers, then each layer's entities. The helpers the body calls go before it (wrap).
func (g *gen) module() error {
	src := g.opt.Source
	if src == "" {
		src = "a DXF file"
	}
	g.head = fmt.Sprintf("// Imported from %s by `cadrun import`. Units: %s.\n", jsComment(src), g.rep.Units) +
		"// Coordinates are the file's own numbers; angles are the file's degrees times deg.\n"
	for _, name := range g.d.BlockOrder {
		if g.used[name] {
			g.funcs[name] = g.funcName(name)
		}
	}
	// The layers' names first: the block functions put their entities on them.
	byLayer, order := g.byLayer()
	layers, err := g.layerOrder(order)
	if err != nil {
		return err
	}
	for _, name := range g.d.BlockOrder {
		if g.used[name] {
			if err := g.block(g.d.Blocks[name]); err != nil {
				return err
			}
		}
	}
	return g.layers(byLayer, order, layers)
}

// byLayer is the top-level entities imported by layer, and the layers in the order they first
// appear.
func (g *gen) byLayer() (map[string][]*dxf.Entity, []string) {
	byLayer := map[string][]*dxf.Entity{}
	var order []string
	for _, e := range g.d.Entities {
		if !g.layerKept(e) {
			continue
		}
		l := e.Str(8, "0")
		if _, ok := byLayer[l]; !ok {
			order = append(order, l)
		}
		byLayer[l] = append(byLayer[l], e)
	}
	return byLayer, order
}

// dxfHelpers are the helpers the body calls, in the order a reader meets them.
func (g *gen) dxfHelpers() []string {
	var hs []string
	if g.nested {
		hs = append(hs, "let serial = 0;\n\n// unique is a fresh name for one insert of a block.\nfunction unique(base) {\n  serial += 1;\n  return base + '-' + serial;\n}\n")
	}
	if g.placed || g.arrays {
		hs = append(hs, "// place puts a block's group where an INSERT puts it: the block's base point (bx, by) at\n"+
			"// (x, y), scaled by (sx, sy) and turned by angle about it.\n"+
			"function place(name, x, y, sx, sy, angle, bx, by) {\n"+
			"  setPivot(name, bx, by);\n  if (sx !== 1 || sy !== 1) scale(name, sx, sy, {space: 'local'});\n"+
			"  if (angle !== 0) rotate(name, angle, {space: 'local'});\n  translate(name, x - bx, y - by, {space: 'local'});\n}\n")
	}
	if g.arrays {
		hs = append(hs, "// array draws an array insert (MINSERT): cols × rows copies of a block, each placed as\n"+
			"// place places one and moved by the column and row spacings (dx, dy) turned with the insert.\n"+
			"function array(name, block, cols, rows, dx, dy, x, y, sx, sy, angle, bx, by) {\n"+
			"  const copies = [];\n  const c = Math.cos(angle), s = Math.sin(angle);\n"+
			"  for (let r = 0; r < rows; r++) {\n    for (let k = 0; k < cols; k++) {\n"+
			"      const copy = block(name + '-' + (r * cols + k + 1));\n"+
			"      place(copy, x + k * dx * c - r * dy * s, y + k * dx * s + r * dy * c, sx, sy, angle, bx, by);\n"+
			"      copies.push(copy);\n    }\n  }\n  createGroup(name, copies);\n  return name;\n}\n")
	}
	return hs
}

// block writes one block's function. Its entities on a layer other than 0 are put on theirs;
// the rest take the layer of the insert's group, as in CAD.
func (g *gen) block(b *dxf.Block) error {
	g.rep.Blocks++
	fmt.Fprintf(g.out, "\n// block %s\nfunction %s(name) {\n", jsComment(b.Name), g.funcs[b.Name])
	var members []string
	for i, e := range b.Entities {
		member := "name + '-" + strconv.Itoa(i+1) + "'"
		ok, err := g.entity(e, member, "  ")
		if err != nil {
			return err
		}
		if ok && (e.Kind == "INSERT" || e.Kind == "DIMENSION") {
			member = "g" + strconv.Itoa(i+1) // the insert's own group (insert)
		}
		if !ok {
			continue
		}
		members = append(members, member)
		if l := e.Str(8, "0"); l != "0" {
			g.after = append(g.after, fmt.Sprintf("  setLayer(%s, %s);\n", member, jsString(g.layerN[l])))
		}
	}
	g.flush()
	fmt.Fprintf(g.out, "  createGroup(name, [%s]);\n  return name;\n}\n", strings.Join(members, ", "))
	return nil
}

// layers writes the layer table (every layer in all), then the top-level entities layer by
// layer (in order), each layer's names listed in a constant and put on the layer.
func (g *gen) layers(byLayer map[string][]*dxf.Entity, order, all []string) error {
	g.out.WriteString("\n")
	for _, l := range all {
		g.out.WriteString(g.createLayer(l))
	}
	for _, l := range order {
		part := g.unique(g.prefix+l, "layer") // the entities' names: prefix-layer-kindN
		list := g.ident("layer", l)           // layerWalls: the layer's names
		fmt.Fprintf(g.out, "\n// layer %s\n", jsComment(l))
		var members []string
		counts := map[string]int{}
		for _, e := range byLayer[l] {
			counts[e.Kind]++
			name := g.unique(part+"-"+strings.ToLower(e.Kind)+strconv.Itoa(counts[e.Kind]), "e")
			ok, err := g.entity(e, jsString(name), "")
			if err != nil {
				return err
			}
			if ok {
				members = append(members, jsString(name))
				g.rep.Layers[l]++
			}
		}
		g.flush()
		if len(members) == 0 {
			continue
		}
		fmt.Fprintf(g.out, "const %s = [%s];\nfor (const name of %s) setLayer(name, %s);\n", list, strings.Join(members, ", "), list, jsString(g.layerN[l]))
		g.drawn0 = append(g.drawn0, "..."+list)
	}
	return nil
}

// layerOrder is every layer the module puts an entity on: the top-level entities' in order,
// then those of the blocks' entities on a layer other than 0.
func (g *gen) layerOrder(top []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, l := range top {
		add(l)
	}
	for _, name := range g.d.BlockOrder {
		if !g.used[name] {
			continue
		}
		for _, e := range g.d.Blocks[name].Entities {
			if l := e.Str(8, "0"); l != "0" {
				add(l)
			}
		}
	}
	// The scene holds MaxLayers: refused here, naming the layers, rather than when main runs.
	if len(out) > scene.MaxLayers {
		return nil, fmt.Errorf("%w: the drawing puts entities on %d layers, over the scene's %d (MaxLayers); import a few layers at a time (-layers)", ErrRefused, len(out), scene.MaxLayers)
	}
	for _, l := range out {
		g.layerN[l] = g.layerName(l)
	}
	return out, nil
}

// createLayer is the createLayer call of a DXF layer: its colour (none for black, ACI 7,
// cadrun's default), its linetype (its nearest when cadrun lacks it, noted), and plot: false
// for a layer the file does not plot.
func (g *gen) createLayer(l string) string {
	var opts []string
	if c, ok := g.layerColor(l); ok {
		opts = append(opts, "color: "+c)
		g.layerC[l] = c
	}
	layer := g.d.Layers[l]
	if base, k := g.linetype("LAYER", layer.Linetype); base != "" {
		opts = append(opts, "linetype: '"+base+"'")
		if k != 1 {
			g.note("LAYER", fmt.Sprintf("linetype %s: a layer's linetype has no scale in cadrun, drawn %s at scale 1", layer.Linetype, base))
		}
	}
	if state := layerHidden(layer); state != "" && layer.Name != "" {
		// Drawn as visible, a layer the file hides (construction lines, a second view, notes
		// to self) made a picture that was not the file's; left out, it would be lost to the
		// module. Not plotted, it is kept and out of every picture and print, as in CAD.
		opts = append(opts, "plot: false")
		g.note("LAYER "+l, state+" in the file, imported with plot: false (kept, not drawn in pictures)")
	} else if !layer.Plot && layer.Name != "" {
		opts = append(opts, "plot: false")
	}
	if len(opts) == 0 {
		return fmt.Sprintf("createLayer(%s);\n", jsString(g.layerN[l]))
	}
	return fmt.Sprintf("createLayer(%s, {%s});\n", jsString(g.layerN[l]), strings.Join(opts, ", "))
}

// layerHidden says how a layer is hidden in the file: "off", "frozen", "off and frozen", or ""
// when it is shown.
func layerHidden(l dxf.Layer) string {
	switch {
	case l.Off() && l.Frozen:
		return "off and frozen"
	case l.Off():
		return "off"
	case l.Frozen:
		return "frozen"
	}
	return ""
}

// layerColor is the layer's colour as a JS RGBA array; black (ACI 7, the default) is left
// to cadrun's default stroke.
func (g *gen) layerColor(l string) (string, bool) {
	layer, ok := g.d.Layers[l]
	if !ok {
		return "", false
	}
	if layer.TrueColor >= 0 {
		return rgba(trueColor(layer.TrueColor)), true
	}
	aci := layer.Color
	if aci < 0 {
		aci = -aci // a layer that is off keeps its colour with the sign flipped
	}
	if aci == 7 || aci < 1 || aci > 255 {
		return "", false
	}
	return rgba(dxf.ACI(aci)), true
}

func trueColor(c int) [3]uint8 { return [3]uint8{uint8(c >> 16), uint8(c >> 8), uint8(c)} }

func rgba(c [3]uint8) string {
	ch := func(v uint8) string { return strconv.FormatFloat(math.Round(float64(v)/255*1000)/1000, 'f', -1, 64) }
	return "[" + ch(c[0]) + ", " + ch(c[1]) + ", " + ch(c[2]) + ", 1]"
}

// funcName is a JS function name for a block, unique among the module's names.
func (g *gen) funcName(block string) string { return g.ident("block", block) }

// unique makes s a valid scene name (^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$) not used before,
// case-insensitively; fallback stands for a name with no usable character.
func (g *gen) unique(s, fallback string) string { return g.uniqueIn("", s, fallback) }

// uniqueIn is unique within the namespace ns of the module's names ("" for the entities',
// "layer:" for the layers').
func (g *gen) uniqueIn(ns, s, fallback string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := strings.TrimLeft(b.String(), "_-")
	if name == "" {
		name = fallback
	}
	if len(name) > 56 {
		name = name[:56]
	}
	base := name
	for i := 2; g.names[ns+strings.ToLower(name)]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	g.names[ns+strings.ToLower(name)] = true
	return name
}

// jsString quotes s as a JS string literal.
func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x2028 || r == 0x2029 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// jsComment makes s safe inside a line comment.
func jsComment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x2028 || r == 0x2029 {
			return ' '
		}
		return r
	}, s)
}

// num writes a number the file gave: the shortest decimal that reads back as the same value.
func num(v float64) string {
	if v == 0 {
		return "0" // no -0 in the code
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// derived writes a number cadrun worked out (an arc's radius from a bulge): 12 significant
// digits, far below any drawing's precision and free of float noise.
func derived(v float64) string {
	s := strconv.FormatFloat(v, 'g', 12, 64)
	f, _ := strconv.ParseFloat(s, 64)
	return num(f)
}

// flush writes the colour calls held back.
func (g *gen) flush() {
	for _, l := range g.after {
		g.out.WriteString(l)
	}
	g.after = nil
}

// ModuleName is the module name a file imports as by default: its base name without the
// extension, made a valid name (letters, digits, _ and -).
func ModuleName(file string) string {
	base := file[strings.LastIndexAny(file, `/\`)+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return (&gen{names: map[string]bool{}}).unique(base, "imported")
}
