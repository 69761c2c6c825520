package importer

// What an SVG drawing becomes: tools/importer/svg has already composed every transform into
// the coordinates (Y up, in the chosen units), so this writes one call per shape with its
// fill and stroke, a group per <g>, and a function per symbol that <use> places, as a DXF
// block is.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/text"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// SVG reads an SVG file and returns the module's source and the report.
func SVG(data []byte, opt Options) (string, *Report, error) {
	// One clock from the start of reading: MaxTime bounds the whole conversion.
	maxTime := opt.SVGLimits.MaxTime
	if maxTime <= 0 {
		maxTime = svg.DefaultLimits.MaxTime
	}
	clock := newBudget(maxTime)
	d, err := svg.Read(data, svg.Options{Units: opt.Units, Limits: opt.SVGLimits})
	if err != nil {
		return "", nil, err
	}
	if d.Drawn > MaxDrawnEntities {
		return "", nil, fmt.Errorf("%w: the drawing has over %d entities once its <use> elements are expanded (MaxDrawnEntities)", ErrRefused, MaxDrawnEntities)
	}
	g := newSVGGen(d, opt, clock)
	if err := g.module(); err != nil {
		return "", nil, err
	}
	g.noteMissing()
	var helpers []string
	if len(d.Symbols) > 0 {
		helpers = append(helpers, "// place puts a symbol's group where a <use> puts it: scaled by (sx, sy), turned by angle\n"+
			"// and moved to (x, y), all about the symbol's origin.\n"+
			"function place(name, x, y, sx, sy, angle) {\n"+
			"  setPivot(name, 0, 0);\n  if (sx !== 1 || sy !== 1) scale(name, sx, sy, {space: 'local'});\n"+
			"  if (angle !== 0) rotate(name, angle, {space: 'local'});\n  translate(name, x, y, {space: 'local'});\n}\n")
	}
	if g.clipped {
		helpers = append(helpers, "// clip keeps of a shape what lies inside each region in turn (SVG's clip-path), a region\n"+
			"// being the union of the shapes it lists, which are then deleted.\n"+
			"function clip(name, ...regions) {\n"+
			"  for (const r of regions) {\n    booleanIntersect(name, r, name);\n    r.forEach((n) => deleteEntity(n));\n  }\n}\n")
	}
	code, err := g.foldData(g.wrap(helpers), "split the drawing into a few files")
	if err != nil {
		return "", nil, err
	}
	return code, g.rep, nil
}

type svgGen struct {
	*gen
	d     *svg.Drawing
	funcs map[*svg.Symbol]string
	k     string // "k" in a symbol function whose stroke widths its placement multiplies
	bad   error  // the first number out of range (checkItem), which refuses the file
	// clipped tells that a shape is cut by a clip, which the module's clip function does.
	clipped bool
}

func newSVGGen(d *svg.Drawing, opt Options, clock *budget) *svgGen {
	rep := &Report{Format: "svg", Units: d.Units, Kinds: d.Kinds, Layers: map[string]int{}, Skipped: d.Skipped, Expanded: d.Drawn}
	out := newCodeWriter(MaxUnfoldedBytes, " before folding", "MaxUnfoldedBytes", "split the drawing into a few files", clock)
	g := &svgGen{gen: &gen{opt: opt, rep: rep, clock: clock, out: out, names: map[string]bool{}, funcs: map[string]string{}}, d: d, funcs: map[*svg.Symbol]string{}}
	g.naming()
	return g
}

// module writes the header, the helper and symbol functions, then the items.
func (g *svgGen) module() error {
	src := g.opt.Source
	if src == "" {
		src = "an SVG file"
	}
	scale := ""
	if g.d.Units != "user units" {
		scale = fmt.Sprintf(" (one SVG user unit is %s %s)", svg.Num(g.d.Scale), g.d.Units)
	}
	g.head = fmt.Sprintf("// Imported from %s by `cadrun import`. Units: %s%s.\n", jsComment(src), g.d.Units, scale) +
		"// Y points up: the file's y is negated, and its transforms are worked into the coordinates.\n"
	for _, s := range g.d.Symbols {
		g.funcs[s] = g.funcName(s.ID)
	}
	for _, s := range g.d.Symbols {
		g.rep.Blocks++
		params := "name"
		if g.k = ""; s.Widths {
			// Stroke widths are not scaled by the group's transform: k, the placement's
			// scale over the symbol's, scales them.
			params, g.k = "name, k", "k"
		}
		fmt.Fprintf(g.out, "\n// symbol #%s (line %d)\nfunction %s(%s) {\n", jsComment(s.ID), s.Line, strings.Replace(g.funcs[s], "block", "symbol", 1), params)
		members := g.inner(s.Items, "name", "  ")
		fmt.Fprintf(g.out, "  createGroup(name, [%s]);\n  return name;\n}\n", strings.Join(members, ", "))
	}
	g.k = ""
	g.out.WriteString("\n")
	counts := map[string]int{}
	for _, it := range g.d.Items {
		if g.bad != nil {
			return g.bad
		}
		if err := g.out.Err(); err != nil {
			return err
		}
		name := g.topName(it, counts)
		g.item(it, jsString(name), "", func(child *svg.Item) string { return jsString(g.topName(child, counts)) })
		g.drawn0 = append(g.drawn0, jsString(name))
		if it.Kind == svg.Group {
			g.rep.Layers[name] = len(it.Children)
		} else {
			g.rep.Layers[topLevel]++
		}
	}
	if g.rep.Layers[topLevel] == 0 {
		delete(g.rep.Layers, topLevel)
	}
	if g.bad != nil {
		return g.bad
	}
	return g.out.Err()
}

// topName is a top-level item's scene name: its label or id, else its element and a count.
func (g *svgGen) topName(it *svg.Item, counts map[string]int) string {
	if it.ID != "" {
		return g.unique(g.prefix+it.ID, it.Element)
	}
	counts[it.Element]++
	return g.unique(g.prefix+it.Element+strconv.Itoa(counts[it.Element]), it.Element)
}

// inner writes the items of a symbol function, named base + '-1', '-2', ...; it returns
// their names.
func (g *svgGen) inner(items []*svg.Item, base, indent string) []string {
	var names []string
	for i, it := range items {
		name := base + " + '-" + strconv.Itoa(i+1) + "'"
		if base != "name" {
			name = strings.TrimSuffix(base, "'") + "-" + strconv.Itoa(i+1) + "'"
		}
		g.item(it, name, indent, nil)
		names = append(names, name)
	}
	return names
}

// item writes one item named by the JS expression name; child names the members of a
// group (nil inside a symbol function, where they are derived from name).
func (g *svgGen) item(it *svg.Item, name, indent string, child func(*svg.Item) string) {
	if g.bad == nil {
		if err := checkItem(it); err != nil {
			g.bad = fmt.Errorf("%w: line %d: <%s>: %v", ErrRefused, it.Line, it.Element, err)
		}
	}
	w := func(format string, args ...any) { fmt.Fprintf(g.out, indent+format+"\n", args...) }
	switch it.Kind {
	case svg.Group:
		var members []string
		if child == nil {
			members = g.inner(it.Children, name, indent)
		} else {
			for _, c := range it.Children {
				n := child(c)
				g.item(c, n, indent, child)
				members = append(members, n)
			}
		}
		w("createGroup(%s, [%s]);", name, strings.Join(members, ", "))
	case svg.Use:
		p := it.Place
		k := ""
		if it.Symbol.Widths {
			k = ", " + g.width(p.K)
		}
		w("%s(%s%s);", strings.Replace(g.funcs[it.Symbol], "block", "symbol", 1), name, k)
		w("place(%s, %s, %s, %s, %s, %s);", name, svg.Num(p.X), svg.Num(p.Y), svg.Num(p.SX), svg.Num(p.SY), angle(p.Angle))
	case svg.Shape:
		p := it.Prim
		if p.Call == "drawText" {
			font, kept := p.Font, ""
			if font == "" {
				font = text.DefaultFont
			}
			if p.Text, kept = g.drawable("text", it.Line, p.Text, font); kept != "" {
				w("%s", strings.TrimSuffix(kept, "\n"))
			}
		}
		w("%s", g.call(p, name, it.Fill != nil))
		g.clip(it, name, w)
		g.style(it, name, w)
	}
}

// clip writes the shapes of a shape's clip regions, named after it, and the call that cuts
// it to them.
func (g *svgGen) clip(it *svg.Item, name string, w func(string, ...any)) {
	if len(it.Clips) == 0 {
		return
	}
	g.clipped = true
	var regions []string
	for i, r := range it.Clips {
		var names []string
		for j, p := range r.Shapes {
			n := strings.TrimSuffix(name, "'") + "~clip" + strconv.Itoa(i+1) + "-" + strconv.Itoa(j+1) + "'"
			w("%s", g.call(p, n, true))
			names = append(names, n)
		}
		regions = append(regions, "["+strings.Join(names, ", ")+"]")
	}
	w("clip(%s, %s);", name, strings.Join(regions, ", "))
}

// call is the draw call for a shape; filled says whether the file fills it.
func (g *svgGen) call(p svg.Prim, name string, filled bool) string {
	n := svg.Num
	switch p.Call {
	case "drawCircle":
		return fmt.Sprintf("drawCircle(%s, %s, %s, %s);", name, n(p.X), n(p.Y), n(p.R))
	case "drawEllipse":
		return fmt.Sprintf("drawEllipse(%s, %s, %s, %s, %s);", name, n(p.X), n(p.Y), n(p.W), n(p.H))
	case "drawRect":
		return fmt.Sprintf("drawRect(%s, %s, %s, %s, %s);", name, n(p.X), n(p.Y), n(p.W), n(p.H))
	case "drawRoundedRect":
		return fmt.Sprintf("drawRoundedRect(%s, %s, %s, %s, %s, %s);", name, n(p.X), n(p.Y), n(p.W), n(p.H), n(p.R))
	case "drawLine", "drawPolygon":
		pts := make([]string, 0, 2*len(p.Points))
		for _, q := range p.Points {
			pts = append(pts, n(q.X), n(q.Y))
		}
		return fmt.Sprintf("%s(%s, [%s]);", p.Call, name, strings.Join(pts, ", "))
	case "drawText":
		var opts []string
		if p.Align != "" {
			opts = append(opts, "align: '"+p.Align+"'")
		}
		if p.Font != "" {
			opts = append(opts, "font: '"+p.Font+"'")
		}
		o := ""
		if len(opts) > 0 {
			o = ", {" + strings.Join(opts, ", ") + "}"
		}
		s := fmt.Sprintf("drawText(%s, %s, %s, %s, %s%s);", name, jsString(p.Text), n(p.X), n(p.Y), n(p.Size), o)
		if p.Angle != 0 {
			s += fmt.Sprintf("\nsetPivot(%s, %s, %s);\nrotate(%s, %s);", name, n(p.X), n(p.Y), name, angle(p.Angle))
		}
		return s
	}
	if fn, pts, ok := straight(p.Path, filled); ok {
		return fmt.Sprintf("%s(%s, [%s]);", fn, name, strings.Join(pts, ", "))
	}
	return fmt.Sprintf("drawBezier(%s, %s);", name, jsString(p.Path))
}

// straight reads path data of one subpath of straight lines as the call a person would write:
// drawPolygon when it closes, drawLine when it does not (and is not filled: SVG fills an open
// path as if closed, which a line is not), with its points as the path writes them.
func straight(d string, filled bool) (fn string, pts []string, ok bool) {
	f := strings.Fields(d)
	closed := len(f) > 0 && f[len(f)-1] == "Z"
	if closed {
		f = f[:len(f)-1]
	}
	if len(f) < 6 || len(f)%3 != 0 || f[0] != "M" {
		return "", nil, false
	}
	for i := 0; i < len(f); i += 3 {
		if i > 0 && f[i] != "L" {
			return "", nil, false
		}
		pts = append(pts, f[i+1], f[i+2])
	}
	if closed && len(pts) > 4 && pts[0] == pts[len(pts)-2] && pts[1] == pts[len(pts)-1] {
		pts = pts[:len(pts)-2] // the last point repeats the first, which drawPolygon closes on
	}
	switch {
	case closed && len(pts) >= 6:
		return "drawPolygon", pts, true
	case !closed && !filled:
		return "drawLine", pts, true
	}
	return "", nil, false
}

// style writes the calls that give a shape the file's fill and stroke where they differ from
// a new shape's (a black hairline and no fill; text filled black with no stroke).
func (g *svgGen) style(it *svg.Item, name string, w func(string, ...any)) {
	black := svg.Color{0, 0, 0, 1}
	if it.Prim.Call == "drawText" && len(it.Clips) == 0 { // cut, a text is a polygon of its outlines
		switch {
		case it.Fill == nil:
			w("setFill(%s, null);", name)
		case *it.Fill != black:
			w("setFill(%s, %s);", name, color(*it.Fill))
		}
		if it.Stroke != nil {
			w("setStroke(%s, %s, %s%s);", name, color(*it.Stroke), g.width(it.Width), strokeOptions(it))
		}
		return
	}
	if it.Fill != nil {
		w("setFill(%s, %s);", name, color(*it.Fill))
	}
	switch {
	case it.Stroke == nil:
		w("setStroke(%s, null);", name)
	case *it.Stroke != black || it.Width != 0:
		w("setStroke(%s, %s, %s%s);", name, color(*it.Stroke), g.width(it.Width), strokeOptions(it))
	}
	if it.Stroke != nil && it.Linetype != "" {
		if n := g.width(it.LinetypeScale); n == "1" {
			w("setLinetype(%s, '%s');", name, it.Linetype)
		} else {
			w("setLinetype(%s, '%s', {scale: %s});", name, it.Linetype, n)
		}
	}
}

// strokeOptions is setStroke's options for the item's cap, join and miter limit, with the comma
// before them; "" when round.
func strokeOptions(it *svg.Item) string {
	var opts []string
	if it.Cap != "" {
		opts = append(opts, "cap: '"+it.Cap+"'")
	}
	if it.Join != "" {
		opts = append(opts, "join: '"+it.Join+"'")
	}
	if it.MiterLimit != 0 {
		opts = append(opts, "miterLimit: "+strconv.FormatFloat(it.MiterLimit, 'g', -1, 64))
	}
	if len(opts) == 0 {
		return ""
	}
	return ", {" + strings.Join(opts, ", ") + "}"
}

// width is a stroke width (or a placement's factor of them), times k in a symbol function
// that takes it.
func (g *svgGen) width(v float64) string {
	switch n := svg.Num(v); {
	case g.k == "" || n == "0":
		return n
	case n == "1":
		return g.k
	default:
		return n + " * " + g.k
	}
}

// color is an RGBA array with channels to three decimals.
func color(c svg.Color) string {
	ch := func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }
	return "[" + ch(c[0]) + ", " + ch(c[1]) + ", " + ch(c[2]) + ", " + ch(c[3]) + "]"
}

// angle writes radians as degrees times deg, or 0.
func angle(rad float64) string {
	d := svg.Num(rad * 180 / math.Pi)
	if d == "0" {
		return "0"
	}
	return d + " * deg"
}

// topLevel is the Report.Layers key of the shapes outside any top-level group.
const topLevel = "(top level)"

// checkItem refuses an item whose numbers the module cannot hold: the reader composes every
// transform into them, so nested scales can carry a shape past MaxCoord or overflow to +Inf.
func checkItem(it *svg.Item) error {
	switch it.Kind {
	case svg.Use:
		p := it.Place
		if err := checkNums("a coordinate", p.X, p.Y); err != nil {
			return err
		}
		if err := checkNums("an angle", p.Angle); err != nil {
			return err
		}
		return checkNums("a scale", p.SX, p.SY)
	case svg.Shape:
		p := it.Prim
		if err := checkNums("a coordinate", p.X, p.Y); err != nil {
			return err
		}
		if err := checkNums("a size", p.W, p.H, p.R, p.Size); err != nil {
			return err
		}
		if err := checkNums("an angle", p.Angle); err != nil {
			return err
		}
		if err := checkNums("a stroke width", it.Width); err != nil {
			return err
		}
		if err := checkNums("a linetype scale", it.LinetypeScale); err != nil {
			return err
		}
		if err := checkPrim(p); err != nil {
			return err
		}
		for _, r := range it.Clips {
			for _, q := range r.Shapes {
				if err := checkNums("a clip's coordinate", q.X, q.Y, q.W, q.H, q.R); err != nil {
					return err
				}
				if err := checkPrim(q); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// checkPrim refuses a call's points or path data out of range.
func checkPrim(p svg.Prim) error {
	for _, q := range p.Points {
		if err := checkNums("a coordinate", q.X, q.Y); err != nil {
			return err
		}
	}
	return checkPathData(p.Path)
}

// checkPathData refuses path data that holds a number out of range (+Inf and NaN included).
func checkPathData(d string) error {
	for _, f := range strings.FieldsFunc(d, func(r rune) bool { return r == ' ' || r == ',' }) {
		if v, err := strconv.ParseFloat(f, 64); err == nil || strings.ContainsAny(f, "0123456789") {
			if err := checkNums("a coordinate", v); err != nil {
				return err
			}
		}
	}
	return nil
}
