package importer

// What each DXF entity becomes. Points are in the entity's object coordinate system (OCS);
// a drawing seen from below (extrusion 0,0,-1, which CAD programs write for mirrored
// shapes) is mirrored in x, and any other extrusion is skipped as not in the XY plane.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/cadrun/cadrun/scene/text"
	"github.com/cadrun/cadrun/tools/importer/dxf"
)

// entity writes the calls for one entity named by the JS expression name, and reports whether
// it drew anything.
func (g *gen) entity(e *dxf.Entity, name, indent string) (bool, error) {
	// The writer refuses once the module passes its budget, and the clock once the import
	// passes its MaxTime: either ends the import at the next entity.
	if err := g.out.Err(); err != nil {
		return false, err
	}
	if err := g.clock.step(); err != nil {
		return false, err
	}
	flip, ok, err := g.planar(e)
	if err != nil || !ok {
		return false, err
	}
	var call string
	g.band = 0
	switch e.Kind {
	case "LINE":
		call, err = g.line(e, name)
	case "CIRCLE":
		call, err = g.circle(e, name, flip)
	case "ARC":
		call, err = g.arc(e, name, flip)
	case "LWPOLYLINE":
		call, err = g.lwpolyline(e, name, flip)
	case "POLYLINE":
		call, err = g.polyline(e, name, flip)
	case "TEXT", "MTEXT":
		call, err = g.text(e, name, flip)
	case "INSERT":
		call, err = g.insert(e, name, flip)
	case "DIMENSION":
		call, err = g.dimension(e, name, flip)
	case "ELLIPSE":
		call, err = g.ellipse(e, name, flip)
	case "SPLINE":
		call, err = g.splineCall(e, name, flip)
	case "SOLID", "TRACE":
		call, err = g.solid(e, name, flip)
	case "3DFACE":
		call, err = g.face(e, name)
	case "HATCH":
		call, err = g.hatch(e, name, flip)
	case "POINT":
		g.skip(e.Kind, "a point has no size; cadrun draws no dots")
	default:
		g.skip(e.Kind, "not supported yet")
	}
	if err != nil || call == "" {
		return false, refuseEntity(e.Kind, e.Line, err)
	}
	g.rep.Kinds[e.Kind]++
	for _, l := range strings.Split(strings.TrimSuffix(call, "\n"), "\n") {
		g.out.WriteString(indent + l + "\n")
	}
	if c, ok, err := entityColor(e); err != nil {
		return false, err
	} else if w := g.band; w > 0 {
		// A polyline with a width is drawn as its band: a stroke that wide, in its own colour
		// or its layer's.
		if !ok {
			c = g.layerOrBlack(e.Str(8, "0"))
		}
		g.band = 0
		g.after = append(g.after, fmt.Sprintf("%ssetStroke(%s, %s, %s);\n", indent, name, c, num(w)))
	} else if ok && e.Kind != "INSERT" && !(indent == "" && c == g.layerOrBlack(e.Str(8, "0"))) {
		// The colour a top-level entity takes from its layer (black on a layer of none) is
		// not set again; in a block, the insert's layer may give another.
		g.after = append(g.after, fmt.Sprintf("%ssetStroke(%s, %s);\n", indent, name, c))
	}
	if e.Kind != "INSERT" && e.Kind != "DIMENSION" {
		scale, err := e.Num(48, 1)
		if err != nil {
			return false, err
		}
		if columnGroup(e, 48) { // the columns' width
			scale = 1
		}
		c, err := g.linetypeCall(e.Kind, e.Str(6, ""), name, scale)
		if err != nil {
			return false, refuseEntity(e.Kind, e.Line, err)
		}
		if c != "" {
			g.after = append(g.after, indent+c)
		}
	}
	return true, nil
}

// black is the default stroke as rgba writes it.
var black = rgba([3]uint8{0, 0, 0})

// layerOrBlack is the colour the entities of layer l are drawn in when they set none.
func (g *gen) layerOrBlack(l string) string {
	if c := g.layerC[l]; c != "" {
		return c
	}
	return black
}

// entityColor is an entity's own colour: true colour (420), else an ACI (62) other than
// BYLAYER (256) and BYBLOCK (0).
func entityColor(e *dxf.Entity) (string, bool, error) {
	if p, ok := e.First(420); ok {
		c, err := dxf.Int(p)
		return rgba(trueColor(c)), err == nil, err
	}
	aci, err := e.IntOr(62, 256)
	if err != nil || aci <= 0 || aci >= 256 {
		return "", false, err
	}
	return rgba(dxf.ACI(aci)), true, nil
}

// planar reads the extrusion: flip when it is (0, 0, -1); not ok (skipped) when it leaves
// the XY plane.
func (g *gen) planar(e *dxf.Entity) (flip, ok bool, err error) {
	var n [3]float64
	for i, code := range []int{210, 220, 230} {
		def := 0.0
		if i == 2 {
			def = 1
		}
		if n[i], err = e.Num(code, def); err != nil {
			return false, false, err
		}
	}
	if e.Kind == "SPLINE" && n == [3]float64{} {
		// A SPLINE's normal is only a hint (its points are in world coordinates), and some
		// writers leave it 0,0,0: ezdxf and CAD programs draw it.
		return false, true, nil
	}
	if math.Abs(n[0]) > 1e-9 || math.Abs(n[1]) > 1e-9 || n[2] == 0 {
		g.skip(e.Kind, "not in the XY plane (its extrusion direction is tilted)")
		return false, false, nil
	}
	return n[2] < 0, true, nil
}

// nums reads the groups' numbers, with defaults.
func nums(e *dxf.Entity, codes []int, defs []float64) ([]float64, error) {
	out := make([]float64, len(codes))
	for i, c := range codes {
		var err error
		if out[i], err = e.Num(c, defs[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (g *gen) line(e *dxf.Entity, name string) (string, error) {
	v, err := nums(e, []int{10, 20, 11, 21}, []float64{0, 0, 0, 0})
	if err != nil {
		return "", err
	}
	if err := checkNums("a coordinate", v...); err != nil {
		return "", err
	}
	if v[0] == v[2] && v[1] == v[3] {
		g.skip(e.Kind, "zero length")
		return "", nil
	}
	return fmt.Sprintf("drawLine(%s, [%s, %s, %s, %s]);", name, num(v[0]), num(v[1]), num(v[2]), num(v[3])), nil
}

// mirrorX negates x for a flipped entity.
func mirrorX(x float64, flip bool) float64 {
	if flip {
		return -x
	}
	return x
}

func (g *gen) circle(e *dxf.Entity, name string, flip bool) (string, error) {
	v, err := nums(e, []int{10, 20, 40}, []float64{0, 0, 0})
	if err != nil {
		return "", err
	}
	if err := checkNums("a coordinate", v[0], v[1]); err != nil {
		return "", err
	}
	if err := checkNums("a radius", v[2]); err != nil {
		return "", err
	}
	if !(v[2] > 0) {
		g.skip(e.Kind, "radius not positive")
		return "", nil
	}
	return fmt.Sprintf("drawCircle(%s, %s, %s, %s);", name, num(mirrorX(v[0], flip)), num(v[1]), num(v[2])), nil
}

func (g *gen) arc(e *dxf.Entity, name string, flip bool) (string, error) {
	v, err := nums(e, []int{10, 20, 40, 50, 51}, []float64{0, 0, 0, 0, 360})
	if err != nil {
		return "", err
	}
	if err := checkNums("a coordinate", v[0], v[1]); err != nil {
		return "", err
	}
	if err := checkNums("a radius", v[2]); err != nil {
		return "", err
	}
	if !(v[2] > 0) {
		g.skip(e.Kind, "radius not positive")
		return "", nil
	}
	start, end := degrees(num(v[3])), degrees(num(v[4]))
	if flip { // seen from below: a → 180° - a, and the sweep runs the other way
		start, end = "(180 - "+num(v[4])+") * deg", "(180 - "+num(v[3])+") * deg" // exact in the code, not pre-computed
	}
	return fmt.Sprintf("drawArc(%s, %s, %s, %s, %s, %s);", name, num(mirrorX(v[0], flip)), num(v[1]), num(v[2]), start, end), nil
}

// vertex is a polyline vertex with the bulge of the edge after it.
type vertex struct{ x, y, bulge float64 }

func (g *gen) lwpolyline(e *dxf.Entity, name string, flip bool) (string, error) {
	var vs []vertex
	for _, p := range e.Pairs {
		var err error
		switch {
		case p.Code == 10:
			var x float64
			x, err = dxf.Float(p)
			vs = append(vs, vertex{x: x})
		case len(vs) == 0:
		case p.Code == 20:
			vs[len(vs)-1].y, err = dxf.Float(p)
		case p.Code == 42:
			vs[len(vs)-1].bulge, err = dxf.Float(p)
		}
		if err != nil {
			return "", err
		}
	}
	flags, err := e.IntOr(70, 0)
	if err != nil {
		return "", err
	}
	if err := g.widths(e, e); err != nil {
		return "", err
	}
	return g.poly(e, name, vs, flags&1 != 0, flip)
}

// widths reads a polyline's widths (LWPOLYLINE: 43 for all, 40 and 41 at each vertex;
// POLYLINE: 40 and 41 on it and on its vertices) into g.band, which the entity's stroke is
// drawn with. A width that varies along it is drawn as its widest, and noted.
func (g *gen) widths(e *dxf.Entity, parts ...*dxf.Entity) error {
	g.band = 0
	var seen []float64
	for _, part := range parts {
		for _, p := range part.Pairs {
			if p.Code != 40 && p.Code != 41 && p.Code != 43 {
				continue
			}
			w, err := dxf.Float(p)
			if err != nil {
				return err
			}
			if err := checkNums("a width", w); err != nil {
				return err
			}
			seen = append(seen, math.Abs(w))
			g.band = max(g.band, math.Abs(w))
		}
	}
	if g.band > 0 && slices.Min(seen) != g.band {
		g.note(e.Kind, "a width that varies along it, drawn as its widest")
	}
	return nil
}

func (g *gen) polyline(e *dxf.Entity, name string, flip bool) (string, error) {
	flags, err := e.IntOr(70, 0)
	if err != nil {
		return "", err
	}
	if flags&(16|64) != 0 {
		g.skip(e.Kind, "a mesh")
		return "", nil
	}
	if flags&8 != 0 {
		// A 3D polyline's vertices are in world coordinates: one whose every z is 0 lies in
		// the XY plane and is drawn as the 2D polyline it is.
		for _, v := range e.Vertices {
			if z, err := v.Num(30, 0); err != nil {
				return "", err
			} else if z != 0 {
				g.skip(e.Kind, "a 3D polyline out of the XY plane")
				return "", nil
			}
		}
		flip = false
	}
	parts := append([]*dxf.Entity{e}, e.Vertices...)
	if err := g.widths(e, parts...); err != nil {
		return "", err
	}
	var vs []vertex
	for _, v := range e.Vertices {
		f, err := v.IntOr(70, 0)
		if err != nil {
			return "", err
		}
		if f&16 != 0 { // a spline frame's control point, not on the curve
			continue
		}
		xyb, err := nums(v, []int{10, 20, 42}, []float64{0, 0, 0})
		if err != nil {
			return "", err
		}
		vs = append(vs, vertex{xyb[0], xyb[1], xyb[2]})
	}
	if flags&4 != 0 {
		g.skip(e.Kind, "a spline-fit polyline, imported by its fit points")
	}
	return g.poly(e, name, vs, flags&1 != 0, flip)
}

// poly draws a polyline: drawLine or drawPolygon when straight, else a path whose arcs are
// SVG A commands (exact circular arcs).
func (g *gen) poly(e *dxf.Entity, name string, vs []vertex, closed, flip bool) (string, error) {
	for _, v := range vs {
		if err := checkNums("a vertex's coordinate", v.x, v.y); err != nil {
			return "", err
		}
	}
	// A closing vertex that repeats the first is dropped.
	if closed && len(vs) > 1 && vs[0].x == vs[len(vs)-1].x && vs[0].y == vs[len(vs)-1].y {
		vs = vs[:len(vs)-1]
	}
	// A closed straight polyline of two vertices runs there and back: CAD programs draw the line.
	if closed && len(vs) == 2 && !anyBulge(vs) {
		closed = false
	}
	if len(vs) < 2 {
		g.skip(e.Kind, "fewer than 2 distinct vertices")
		return "", nil
	}
	for i := range vs {
		vs[i].x = mirrorX(vs[i].x, flip)
		if flip {
			vs[i].bulge = -vs[i].bulge
		}
	}
	edges := len(vs) - 1
	if closed {
		edges = len(vs)
	}
	if !anyBulge(vs[:edges]) {
		pts := make([]string, 0, 2*len(vs))
		for _, v := range vs {
			pts = append(pts, num(v.x), num(v.y))
		}
		fn := "drawLine"
		if closed {
			fn = "drawPolygon"
		}
		return fmt.Sprintf("%s(%s, [%s]);", fn, name, strings.Join(pts, ", ")), nil
	}
	var d strings.Builder
	fmt.Fprintf(&d, "M %s %s", num(vs[0].x), num(vs[0].y))
	for i := range edges {
		p, q := vs[i], vs[(i+1)%len(vs)]
		if p.bulge == 0 || p.x == q.x && p.y == q.y {
			if closed && i == edges-1 {
				break // Z draws the closing line
			}
			fmt.Fprintf(&d, " L %s %s", num(q.x), num(q.y))
			continue
		}
		// bulge = tan(sweep/4); the radius is chord (1 + b²) / (4 |b|).
		b := math.Abs(p.bulge)
		r := math.Hypot(q.x-p.x, q.y-p.y) * (1 + b*b) / (4 * b)
		if err := checkNums("an arc's radius (from a bulge)", r); err != nil {
			return "", err
		}
		large, sweep := 0, 0
		if b > 1 {
			large = 1
		}
		if p.bulge > 0 {
			sweep = 1 // counter-clockwise, Y up
		}
		rs := bulgeRadius(r, p, q)
		fmt.Fprintf(&d, " A %s %s 0 %d %d %s %s", rs, rs, large, sweep, num(q.x), num(q.y))
	}
	if closed {
		d.WriteString(" Z")
	}
	return fmt.Sprintf("drawBezier(%s, %s);", name, jsString(d.String())), nil
}

func anyBulge(vs []vertex) bool {
	for _, v := range vs {
		if v.bulge != 0 {
			return true
		}
	}
	return false
}

// text draws TEXT and MTEXT as plain text: the height is the font size, the text sits on its
// point as its alignment says (textplace.go), and the rotation turns it about that point;
// MTEXT's formatting codes are stripped and its box width (41) wraps it.
func (g *gen) text(e *dxf.Entity, name string, flip bool) (string, error) {
	v, err := nums(e, []int{10, 20, 40, 50, 11, 21, 41}, []float64{0, 0, 0, 0, 0, 0, 0})
	if err != nil {
		return "", err
	}
	x, y, h, rot := v[0], v[1], v[2], v[3]
	_, has11 := e.First(11)
	var s, kept string // kept: the file's text in a comment, when a character is drawn as a box
	var al textAlign
	span := 0.0 // ALIGNED and FIT: the length from the first point to the second
	fit := false
	flow := mtextFlow{spacing: 1} // MTEXT's line spacing and columns
	if e.Kind == "TEXT" {
		s, kept = g.drawable(e.Kind, e.Line, plainText(e.Str(1, "")), text.DefaultFont)
		h72, _ := e.IntOr(72, 0)
		v73, _ := e.IntOr(73, 0)
		al = textAlignment(e.Kind, h72, v73, 0)
		switch {
		case (h72 == 3 || h72 == 5) && has11 && (v[4] != x || v[5] != y):
			// The text runs from the first point to the second along its baseline.
			span = math.Hypot(v[4]-x, v[5]-y)
			rot = math.Atan2(v[5]-y, v[4]-x) * 180 / math.Pi
			al, fit = textAlign{}, h72 == 5
		case (h72 != 0 || v73 != 0) && has11:
			x, y = v[4], v[5]
		}
	} else {
		var chunks []string
		for _, p := range e.Pairs {
			if p.Code == 3 {
				chunks = append(chunks, p.Value)
			}
		}
		s, kept = g.drawable(e.Kind, e.Line, plainMText(strings.Join(chunks, "")+e.Str(1, "")), text.DefaultFont)
		if columnGroup(e, 50) { // the 50s are the columns' heights, not an angle
			rot = 0
		}
		if has11 && (e.Str(50, "") == "" || columnGroup(e, 50)) { // direction vector instead of an angle
			rot = math.Atan2(v[5], v[4]) * 180 / math.Pi
		}
		att, _ := e.IntOr(71, 1)
		al = textAlignment(e.Kind, 0, 0, att)
		flow = readMTextFlow(e)
		width := v[6]
		if flow.columns {
			width = flow.width
		}
		if width > 0 && h > 0 {
			s = wrapLines(s, width, h)
		}
	}
	s, dropped := dropControls(s)
	if dropped > 0 {
		g.note(e.Kind, "control characters (from %%nnn, \\U+nnnn or the file) dropped: no font draws them")
	}
	if strings.TrimSpace(s) == "" {
		g.skip(e.Kind, "no text")
		return "", nil
	}
	if !(h > 0) {
		g.skip(e.Kind, "height not positive")
		return "", nil
	}
	if err := checkNums("a coordinate", x, y); err != nil {
		return "", err
	}
	if err := checkNums("a text height", h); err != nil {
		return "", err
	}
	size, sx := num(h), 1.0
	if span > 0 {
		if l, err := text.MeasureString(s, h, text.DefaultFont); err == nil && l.Width > 0 {
			if fit { // FIT keeps the height and stretches the width
				sx = span / l.Width
			} else { // ALIGNED scales both
				h = h * span / l.Width
				size = placed(h, h, v[2])
			}
		}
	}
	x = mirrorX(x, flip)
	opts := ""
	if a := al.option(); a != "" {
		opts = fmt.Sprintf(", {align: '%s'}", a)
	}
	var call string
	if cols := flow.columnsOf(strings.Split(s, "\n"), h); len(cols) > 1 || flow.spacing != 1 && len(cols[0]) > 1 {
		flowed, err := flowedText(name, cols, flow, al, x, y, h, size, opts)
		if err != nil {
			return "", err
		}
		call = kept + flowed
	} else {
		ty := num(y)
		if dy := al.baselineShift(h, strings.Count(s, "\n")+1, 1); dy != 0 {
			ty = placed(y+dy, h, y, h)
		}
		call = kept + fmt.Sprintf("drawText(%s, %s, %s, %s, %s%s);", name, jsString(s), num(x), ty, size, opts)
	}
	if sx != 1 || rot != 0 {
		call += fmt.Sprintf("\nsetPivot(%s, %s, %s);", name, num(x), num(y))
	}
	if sx != 1 {
		call += fmt.Sprintf("\nscale(%s, %s, 1);", name, placed(sx, 1))
	}
	if rot != 0 {
		call += fmt.Sprintf("\nrotate(%s, %s);", name, degrees(derived(rot)))
	}
	return call, nil
}

// plainText replaces TEXT's codes: \U+XXXX the character of hex code XXXX, and the %% codes
// (percentCode).
func plainText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if r, ok := unicodeCode(s[i:]); ok {
			b.WriteRune(r)
			i += len(`\U+XXXX`) - 1
			continue
		}
		if i+2 >= len(s) || s[i] != '%' || s[i+1] != '%' {
			b.WriteByte(s[i])
			continue
		}
		out, n := percentCode(s[i:])
		b.WriteString(out)
		i += n - 1
	}
	return b.String()
}

// unicodeCode reads a \U+XXXX code at the start of s: the character of hex code XXXX.
func unicodeCode(s string) (rune, bool) {
	if len(s) < len(`\U+XXXX`) || !strings.HasPrefix(s, `\U+`) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[3:7], 16, 32)
	return rune(v), err == nil
}

// percentCode reads the %% code at the start of s (which starts with %% and a character):
// %%c Ø, %%d °, %%p ±, %%% %, %%nnn the character of decimal code nnn (%%065 is A: a leading
// 0 is not octal); %%u, %%o and %%k (underline, overline, strike-through) are dropped; any
// other %%x stays as it is. It returns what the code stands for and its length in bytes.
func percentCode(s string) (string, int) {
	c := s[2]
	switch c | 0x20 {
	case 'c':
		return "Ø", 3
	case 'd':
		return "°", 3
	case 'p':
		return "±", 3
	case 'u', 'o', 'k':
		return "", 3
	case '%':
		return "%", 3
	}
	j := 2
	for j < len(s) && j < 5 && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > 2 {
		n, _ := strconv.Atoi(s[2:j]) // at most three digits
		return string(rune(n)), j
	}
	return s[:3], 3
}

// dropControls takes out the control characters a text may hold (a %%nnn or \U+nnnn code
// below 32, or the file's own bytes), which no font draws and drawText refuses; a line break
// stays. It returns how many it dropped.
func dropControls(s string) (string, int) {
	dropped := 0
	out := strings.Map(func(r rune) rune {
		if r != '\n' && unicode.IsControl(r) {
			dropped++
			return -1
		}
		return r
	}, s)
	return out, dropped
}

// plainMText strips MTEXT's formatting: \P is a new line, \~ a space, \\ \{ \} the
// characters; {} groups, \f...; \H...; \C...; and the other codes go; \S stacks (stacked).
func plainMText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' || c == '}':
			continue
		case c == '%' && i+2 < len(s) && s[i+1] == '%':
			// An MTEXT holds the %% codes too (cadrun writes Ø, ° and ± so, as CAD does).
			out, n := percentCode(s[i:])
			b.WriteString(out)
			i += n - 1
			continue
		case c != '\\' || i+1 >= len(s):
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'P', 'n':
			b.WriteByte('\n')
		case '~':
			b.WriteByte(' ')
		case '\\', '{', '}':
			b.WriteByte(s[i])
		case 'S':
			end := strings.IndexByte(s[i:], ';')
			if end < 0 {
				end = len(s) - i
			}
			b.WriteString(stacked(s[i+1 : i+end]))
			i += end
		case 'L', 'l', 'O', 'o', 'K', 'k':
		case 'U':
			if i+1 < len(s) && s[i+1] == '+' && i+6 <= len(s) {
				var r rune
				if _, err := fmt.Sscanf(s[i+2:i+6], "%04x", &r); err == nil {
					b.WriteRune(r)
					i += 5
				}
			}
		default: // \f...; \H...; \C...; \A...; \T...; \Q...; \W...; and the rest end with ;
			if end := strings.IndexByte(s[i:], ';'); end >= 0 {
				i += end
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// insert calls the block's function and places its group; an array insert (MINSERT: column
// and row counts in 70 and 71) calls it once per copy through array.
func (g *gen) insert(e *dxf.Entity, name string, flip bool) (string, error) {
	block := e.Str(2, "")
	b, ok := g.d.Blocks[block]
	switch {
	case !ok:
		g.skip(e.Kind, "its block is not defined in the file")
		return "", nil
	case b.Xref():
		g.skip(e.Kind, "its block is an external reference")
		return "", nil
	}
	v, err := nums(e, []int{10, 20, 41, 42, 50, 44, 45}, []float64{0, 0, 1, 1, 0, 0, 0})
	if err != nil {
		return "", err
	}
	pl := placement{x: v[0], y: v[1], sx: v[2], sy: v[3], rot: v[4], dx: v[5], dy: v[6]}
	if flip { // seen from below: mirror the whole placement in x
		pl.x, pl.sx, pl.rot, pl.dx = -pl.x, -pl.sx, -pl.rot, -pl.dx
	}
	if v[2] == 0 || v[3] == 0 {
		g.skip(e.Kind, "scaled by zero")
		return "", nil
	}
	if err := checkNums("a coordinate", v[0], v[1]); err != nil {
		return "", err
	}
	if err := checkNums("a scale", v[2], v[3]); err != nil {
		return "", err
	}
	if err := checkNums("an array spacing", v[5], v[6]); err != nil {
		return "", err
	}
	if err := checkNums(fmt.Sprintf("block %s's base point coordinate", b.Name), b.BaseX, b.BaseY); err != nil {
		return "", err
	}
	if pl.cols, pl.rows, err = arrayCounts(e); err != nil {
		return "", err
	}
	return g.callBlock(b, name, pl), nil
}

// dimension draws a DIMENSION as its block (the anonymous *D block named in group 2), which
// holds the lines, arrows and text a CAD program drew for it, placed as the file has it.
func (g *gen) dimension(e *dxf.Entity, name string, _ bool) (string, error) {
	b, ok := g.d.Blocks[e.Str(2, "")]
	if !ok || b.Xref() {
		g.skip(e.Kind, "its block (group 2) is not in the file")
		return "", nil
	}
	if err := checkNums(fmt.Sprintf("block %s's base point coordinate", b.Name), b.BaseX, b.BaseY); err != nil {
		return "", err
	}
	g.note(e.Kind, "imported as its block's geometry (lines, arrows, text), not as a cadrun dimension")
	return g.callBlock(b, name, placement{sx: 1, sy: 1, cols: 1, rows: 1}), nil
}

// placement is where an INSERT puts its block: at (x, y), scaled by (sx, sy), turned by rot
// degrees, in cols × rows copies dx and dy apart (turned with it).
type placement struct {
	x, y, sx, sy, rot, dx, dy float64
	cols, rows                int
}

// arrayCounts reads an INSERT's column and row counts (70, 71); 0 counts as 1. A count
// below 0 is refused: the counts size the array, so they are never trusted.
func arrayCounts(e *dxf.Entity) (cols, rows int, err error) {
	counts := [2]int{1, 1}
	for i, what := range [2]string{"columns", "rows"} {
		p, ok := e.First(70 + i)
		if !ok {
			continue
		}
		if counts[i], err = dxf.Int(p); err != nil {
			return 0, 0, err
		}
		if counts[i] < 0 {
			return 0, 0, fmt.Errorf("%w: line %d: an %s with %d %s (group %d); a count must be 0 or more (0 and 1 are one), and every copy counts against MaxDrawnEntities",
				ErrRefused, p.Line+1, e.Kind, counts[i], what, p.Code)
		}
	}
	return max(counts[0], 1), max(counts[1], 1), nil
}

// callBlock writes the call of b's function for an insert named by the JS expression name.
func (g *gen) callBlock(b *dxf.Block, name string, pl placement) string {
	fn := g.funcs[b.Name]
	inBlock := strings.HasPrefix(name, "name + ")
	target := name
	if inBlock { // inside a block: the insert's group needs a name of its own
		target = "g" + strings.Trim(strings.TrimPrefix(name, "name + '-"), "'")
		name = "unique('" + g.prefix + strings.TrimPrefix(fn, "block") + "')"
		g.nested = true
	}
	at := fmt.Sprintf("%s, %s, %s, %s, %s, %s, %s", num(pl.x), num(pl.y), num(pl.sx), num(pl.sy), degrees(num(pl.rot)), num(b.BaseX), num(b.BaseY))
	if pl.cols > 1 || pl.rows > 1 {
		call := fmt.Sprintf("array(%s, %s, %d, %d, %s, %s, %s);", name, fn, pl.cols, pl.rows, num(pl.dx), num(pl.dy), at)
		if inBlock {
			call = fmt.Sprintf("const %s = %s", target, call)
		}
		return call
	}
	g.placed = true
	call := fmt.Sprintf("%s(%s);", fn, name)
	if inBlock {
		call = fmt.Sprintf("const %s = %s", target, call)
	}
	return fmt.Sprintf("%s\nplace(%s, %s);", call, target, at)
}

// degrees writes an angle the file gives in degrees as radians in the code.
func degrees(d string) string {
	if d == "0" {
		return "0"
	}
	return d + " * deg"
}
