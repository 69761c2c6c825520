package render

// The DXF writer is written by hand: a DXF file is tagged text, and a laser cutter or CNC
// needs only outlines. Every shape is taken in world coordinates (transforms baked in, Y up
// as in the scene) and written as the simplest entity that is exact for it: a full circle as
// CIRCLE, an open circular arc as ARC, everything else as a polyline whose circular arcs are
// bulges (R12 POLYLINE/VERTEX, R2000 LWPOLYLINE). Béziers and non-circular (scaled) arcs are
// flattened at the tolerance; text is its outlines, so it cuts the same everywhere, or on
// request TEXT and MTEXT entities (dxf_text.go). A hatched shape is followed by its HATCH
// (R2000) or its pattern's lines (R12) (dxf_hatch.go). R2000 writes a dimension as a
// DIMENSION whose block holds its drawing (dxf_dimension.go).
//
// Layers are the scene's layers (createLayer) and the top-level groups: a shape put on a layer
// goes on it; otherwise a shape inside a top-level group "cut" goes on layer "cut", and a
// shape at the top level on layer "0". Linetypes are written to the LTYPE table as the
// scene's dash patterns, one entry per linetype and scale used (DASHED, DASHED_X0_5); a
// shape whose linetype is its layer's says nothing and so is BYLAYER. Colours are the nearest AutoCAD Color
// Index (ACI) to the stroke (else the fill). Numbers are rounded to a quantum derived from
// the drawing's size and nothing depends on map order, so the same scene gives the same bytes.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/internal/aci"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// DXFVersion is the DXF release a file is written for.
type DXFVersion int

// The DXF versions cadrun writes.
const (
	DXF12   DXFVersion = 12   // AC1009, the most widely read
	DXF2000 DXFVersion = 2000 // AC1015: LWPOLYLINE, $INSUNITS
)

// DefaultDXFTolerance is the default largest distance, in scene units, between a curve the
// DXF cannot hold exactly (a Bézier, an ellipse) and the polyline written for it.
const DefaultDXFTolerance = geom.DefaultTolerance

// ParseDXFVersion reads "12" (or "R12") and "2000" (or "R2000").
func ParseDXFVersion(s string) (DXFVersion, error) {
	switch strings.TrimPrefix(strings.ToUpper(s), "R") {
	case "12":
		return DXF12, nil
	case "2000":
		return DXF2000, nil
	}
	return 0, fmt.Errorf("%w: DXF version %q: use 12 or 2000", ErrExportOption, s)
}

// DXFOptions configure the DXF writer. The zero value writes R12 in millimetres at
// DefaultDXFTolerance, text as outlines.
type DXFOptions struct {
	Version   DXFVersion // 0 means DXF12
	Unit      Unit       // what one scene unit is; "" means mm. R2000 records it as $INSUNITS
	Tolerance float64    // flattening tolerance in scene units; 0 means DefaultDXFTolerance
	Text      DXFText    // how text is written; "" means DXFTextOutlines
}

// DXF writes the scene as a DXF document.
func DXF(s *scene.Scene, opt DXFOptions) ([]byte, error) {
	if opt.Version == 0 {
		opt.Version = DXF12
	}
	if opt.Version != DXF12 && opt.Version != DXF2000 {
		return nil, fmt.Errorf("%w: DXF version %d: use 12 or 2000", ErrExportOption, opt.Version)
	}
	insUnits, mm, err := unitInfo(opt.Unit)
	if err != nil {
		return nil, err
	}
	if opt.Tolerance == 0 {
		opt.Tolerance = DefaultDXFTolerance
	}
	if !(opt.Tolerance > 0) || math.IsInf(opt.Tolerance, 0) {
		return nil, fmt.Errorf("%w: tolerance %v must be a number > 0", ErrExportOption, opt.Tolerance)
	}
	switch opt.Text {
	case "", DXFTextOutlines, DXFTextEntities:
	default:
		return nil, fmt.Errorf("%w: DXF text %q: use outlines or entities", ErrExportOption, opt.Text)
	}

	// One layout of each dimension for the whole file: its bounds here, its drawing and its
	// text's place in collect.
	d := &dxfDoc{version: opt.Version, tol: opt.Tolerance, mm: mm, textEntities: opt.Text == DXFTextEntities}
	bounds := s.FrameWith(false, &d.layouts).Bounds
	d.quantum, d.decimals = dxfQuantum(bounds)
	if d.hatches, err = budgeted(s); err != nil {
		return nil, err
	}
	d.collect(s)
	if d.points > MaxDXFPoints {
		return nil, fmt.Errorf("%w: the DXF passes %d polyline vertices (MaxDXFPoints) at tolerance %g; raise the tolerance, simplify the curves, or export a part of the scene",
			ErrDXFPoints, MaxDXFPoints, d.tol)
	}

	w := &dxfWriter{quantum: d.quantum, decimals: d.decimals, r2000: opt.Version == DXF2000, dims: &d.dims}
	size := 2048
	for i := range d.shapes {
		size += 100 + 50*len(d.shapes[i].pts)
	}
	w.buf = make([]byte, 0, size)
	// Handles are given out while the body is written; the header needs the next free one
	// ($HANDSEED), so it is written last and put in front.
	w.tables(d.layers, d.linetypes, d.styles)
	w.blocks(d.layers, d.styles)
	w.section("ENTITIES")
	for i := range d.shapes {
		w.shape(&d.shapes[i], d.layers, d.styles)
	}
	w.endsec()
	if w.r2000 {
		w.objects()
	}
	w.tag(0, "EOF")
	body := w.buf

	w.buf = make([]byte, 0, 512+len(body))
	w.header(bounds, insUnits)
	return append(w.buf, body...), nil
}

// dxfQuantum is the rounding step of coordinates: a millionth of the drawing's larger side,
// as a power of ten (as in the SVG), and the digits after the point it needs.
func dxfQuantum(b geom.Box) (float64, int) {
	side := 1.0
	if b.NonEmpty {
		if sz := b.Size(); math.Max(sz.X, sz.Y) > 0 {
			side = math.Max(sz.X, sz.Y)
		}
	}
	q := math.Pow(10, math.Floor(math.Log10(side))-6)
	return q, max(0, int(-math.Floor(math.Log10(q))))
}

// dxfLayer is a layer: a top-level group, or "0" for shapes at the top level.
type dxfLayer struct {
	name       string // as written: see dxfLayerName
	color      int    // ACI of the first shape on it, 7 when it has none
	linetype   string // LTYPE name; "" is continuous
	noPlot     bool
	lineweight int // R2000's lineweight in hundredths of a millimetre; -3 is the default
}

// dxfLinetype is an LTYPE table entry: a scene linetype at a scale.
type dxfLinetype struct {
	name, doc string
	pattern   []float64 // DXF's signed lengths in scene units: dashes > 0, gaps < 0, dots 0
}

const (
	dxfByLayer = 256 // ACI meaning "the layer's colour"
	dxfBlack   = 7   // ACI 7 draws black on paper and on a white background
)

type dxfShapeKind uint8

const (
	dxfCircle dxfShapeKind = iota
	dxfArc
	dxfPolyline
	dxfTextLine  // TEXT
	dxfMText     // MTEXT
	dxfHatch     // HATCH, or R12's LINEs and POINTs (dxf_hatch.go)
	dxfDimension // DIMENSION (R2000, dxf_dimension.go)
)

// dxfShape is one entity to write, in world coordinates.
type dxfShape struct {
	kind     dxfShapeKind
	layer    int    // index into the layers
	color    int    // ACI, or dxfByLayer
	linetype string // LTYPE name; "" is BYLAYER
	center   geom.Vec
	radius   float64
	a0, a1   float64 // ARC: start and end angle in degrees, counter-clockwise
	pts      []dxfVertex
	closed   bool
	text     *dxfTextShape // TEXT and MTEXT
	hatch    *dxfHatchShape
	dim      int // DIMENSION: index into the document's dimensions
}

// dxfVertex is a polyline vertex; bulge is tan(θ/4) of the arc to the next vertex (θ > 0
// counter-clockwise), 0 for a straight segment.
type dxfVertex struct {
	p     geom.Vec
	bulge float64
}

type dxfDoc struct {
	layouts   scene.Layouts // the dimensions', each laid out once for the file
	version   DXFVersion
	tol       float64
	mm        float64 // millimetres in a scene unit
	linetypes []dxfLinetype
	quantum   float64
	decimals  int
	layers    []dxfLayer
	shapes    []dxfShape
	// textEntities writes texts as TEXT and MTEXT on the styles (dxf_text.go).
	textEntities bool
	styles       []dxfStyle
	styleNames   map[string]bool // the style names taken, upper-cased
	hatches      map[*scene.Entity]scene.Hatching
	dims         dxfDims // R2000's DIMENSION entities (dxf_dimension.go)
	// points counts the polyline vertices made, against MaxDXFPoints: past it nothing more
	// is flattened, and DXF refuses the scene.
	points int
}

// MaxDXFPoints caps the polyline vertices of one DXF, counted as the curves are flattened
// (about 50 bytes of DXF each): each curve segment is bounded by geom.MaxCurveSegments, but
// not the whole, and a fine tolerance, a long Bézier path or a huge text would otherwise
// build gigabytes before the file's size could be checked.
const MaxDXFPoints = 2_000_000

// ErrDXFPoints is a DXF refused for passing MaxDXFPoints.
var ErrDXFPoints = errors.New("DXF over its vertex budget")

// collect turns the scene's shapes, back to front, into DXF entities on their layers.
func (d *dxfDoc) collect(s *scene.Scene) {
	maxLen := 31 // R12's limit on a layer name
	if d.version == DXF2000 {
		maxLen = 255
	}
	d.layers = []dxfLayer{{name: "0", color: -1}}
	layerOf := map[string]int{} // top-level group name -> layer index
	taken := dxfReservedLayers()
	aciOf := map[scene.Color]int{} // a scene has few colours; the palette search is slow
	sceneLayer := map[string]int{} // scene layer name -> layer index
	for _, l := range s.Layers() {
		sceneLayer[l.Name] = len(d.layers)
		dl := dxfLayer{name: dxfLayerName(l.Name, maxLen, taken), color: -1, noPlot: !l.Plot, lineweight: -3}
		if l.Color != nil {
			dl.color = nearestACI(*l.Color)
		}
		if l.Linetype != "" {
			dl.linetype = d.linetype(l.Linetype, 0)
		}
		if l.Lineweight > 0 {
			dl.lineweight = dxfLineweight(l.Lineweight * d.mm)
		}
		d.layers = append(d.layers, dl)
	}
	for _, name := range s.Roots() {
		e, _ := s.Get(name)
		if !e.IsGroup() {
			continue
		}
		n := dxfLayerName(name, maxLen, taken)
		layerOf[name] = len(d.layers)
		d.layers = append(d.layers, dxfLayer{name: n, color: -1, lineweight: -3})
	}
	d.layers[0].lineweight = -3
	for it := range s.PaintWith(&d.layouts) {
		drawn := s.Drawn(it.Entity)
		st := drawn.Style
		layer := 0
		if st.Layer != "" {
			layer = sceneLayer[st.Layer]
		} else if top := topLevel(s, it.Entity); top != it.Entity {
			layer = layerOf[top.Name]
		}
		linetype := ""
		if !drawn.ByLayer && st.Linetype != "" {
			linetype = d.linetype(st.Linetype, st.LinetypeScale)
		}
		color := dxfByLayer
		c, _ := strokeOf(st)
		if c == nil {
			c = fillOf(st)
		}
		if l, ok := s.Layer(st.Layer); ok && l.Color != nil && !st.ColorSet {
			c = nil // the layer's colour: BYLAYER
		}
		if c != nil {
			aci, ok := aciOf[*c]
			if !ok {
				aci = nearestACI(*c)
				aciOf[*c] = aci
			}
			color = aci
		}
		if d.layers[layer].color < 0 && color != dxfByLayer {
			d.layers[layer].color = color
		}
		dim, isDim := it.Entity.Shape.(*scene.Dimension)
		switch t, isText := it.Entity.Shape.(*scene.Text); {
		case isText && d.textEntities && d.addText(t, it.World, layer, color):
		case isDim && d.version == DXF2000:
			d.addDimension(dim, it, layer, color, linetype)
		default:
			first := len(d.shapes)
			d.addPath(it.Path, layer, color)
			for i := first; i < len(d.shapes); i++ {
				d.shapes[i].linetype = linetype
			}
		}
		d.addHatch(it, st, layer, color)
	}
	for i := range d.layers {
		if d.layers[i].color < 0 {
			d.layers[i].color = dxfBlack
		}
	}
}

// linetype is the LTYPE name of a scene linetype at a scale (0 means 1), added to the table
// on first use: the linetype's name in capitals, with _X and the scale for a scale other
// than 1 (R12 has no entity linetype scale, so each scale is a linetype of its own).
func (d *dxfDoc) linetype(name string, scale float64) string {
	if scale == 0 {
		scale = 1
	}
	lt, err := drafting.LookupLinetype(name)
	if err != nil || len(lt.Pattern) == 0 {
		return "CONTINUOUS"
	}
	n := strings.ToUpper(name)
	if scale != 1 {
		n += "_X" + strings.ReplaceAll(strconv.FormatFloat(scale, 'f', -1, 64), ".", "_")
	}
	for _, e := range d.linetypes {
		if e.name == n {
			return n
		}
	}
	pattern := make([]float64, len(lt.Pattern))
	for i, v := range lt.Pattern {
		pattern[i] = v * scale
	}
	d.linetypes = append(d.linetypes, dxfLinetype{name: n, doc: lt.Doc, pattern: pattern})
	return n
}

// dxfLineweights are the lineweights DXF allows, in hundredths of a millimetre.
var dxfLineweights = []int{0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211}

// dxfLineweight is the allowed lineweight nearest to a width in millimetres.
func dxfLineweight(mm float64) int {
	best := 0
	for _, v := range dxfLineweights {
		if math.Abs(float64(v)-mm*100) < math.Abs(float64(best)-mm*100) {
			best = v
		}
	}
	return best
}

// topLevel is the top-level ancestor of e (e itself at the top level).
func topLevel(s *scene.Scene, e *scene.Entity) *scene.Entity {
	for e.Parent() != "" {
		p, err := s.Get(e.Parent())
		if err != nil {
			break
		}
		e = p
	}
	return e
}

// dxfReservedLayers are the layer names no group may take, upper-cased: 0, the layer of
// shapes at the top level, and DEFPOINTS, AutoCAD's layer that never plots (a group of that
// name gets defpoints_2, so that what it holds is cut and printed like the rest).
func dxfReservedLayers() map[string]bool { return map[string]bool{"0": true, "DEFPOINTS": true} }

// dxfLayerName makes a layer name every DXF reader accepts from a group name: letters,
// digits, '_', '-' and '$' are kept, anything else becomes '_', the length is capped, and a
// name already taken (compared without case, as AutoCAD does) gets a suffix _2, _3, ...
func dxfLayerName(group string, maxLen int, taken map[string]bool) string {
	// One '_' for each character a layer name cannot hold (ÄÖÜ-engrave is ___-engrave, not
	// one per byte of UTF-8).
	b := make([]byte, 0, len(group))
	for _, c := range group {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '$') {
			c = '_'
		}
		b = append(b, byte(c))
	}
	base := string(b[:min(len(b), maxLen)])
	name := base
	for k := 2; taken[strings.ToUpper(name)]; k++ {
		suffix := "_" + strconv.Itoa(k)
		name = base[:min(len(base), maxLen-len(suffix))] + suffix
	}
	taken[strings.ToUpper(name)] = true
	return name
}

// addPath splits a world path into subpaths and adds one entity for each.
func (d *dxfDoc) addPath(p geom.Path, layer, color int) {
	start := 0
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i].Kind == geom.SegMove {
			if i > start {
				d.addSubpath(p[start:i], layer, color)
			}
			start = i
		}
	}
}

func (d *dxfDoc) near(a, b geom.Vec) bool {
	return math.Abs(a.X-b.X) <= d.quantum/2 && math.Abs(a.Y-b.Y) <= d.quantum/2
}

func (d *dxfDoc) addSubpath(p geom.Path, layer, color int) {
	// A lone circular arc is a CIRCLE (a full turn) or an ARC (open).
	if len(p) >= 2 && p[0].Kind == geom.SegMove && p[1].Kind == geom.SegArc &&
		(len(p) == 2 || len(p) == 3 && p[2].Kind == geom.SegClose) {
		a := p[1]
		if sweep, ok := a.CircularSweep(); ok && d.near(p[0].P[0], a.ArcPoint(a.T0)) {
			r := a.P[1].Len()
			switch {
			case math.Abs(sweep) >= 2*math.Pi-1e-9:
				d.shapes = append(d.shapes, dxfShape{kind: dxfCircle, layer: layer, color: color, center: a.P[0], radius: r})
				return
			case len(p) == 2:
				start := a.ArcPoint(a.T0).Sub(a.P[0])
				a0 := math.Atan2(start.Y, start.X) * 180 / math.Pi
				a1 := a0 + sweep*180/math.Pi
				if sweep < 0 {
					a0, a1 = a1, a0
				}
				d.shapes = append(d.shapes, dxfShape{kind: dxfArc, layer: layer, color: color, center: a.P[0], radius: r,
					a0: normDegrees(a0), a1: normDegrees(a1)})
				return
			}
		}
	}

	pts, closed := d.vertices(p)
	if len(pts) < 2 {
		return // a point: nothing to cut
	}
	d.shapes = append(d.shapes, dxfShape{kind: dxfPolyline, layer: layer, color: color, pts: pts, closed: closed})
}

// vertices is a world subpath as polyline vertices, circular arcs as bulges of at most half
// a turn, other curves flattened at the tolerance, and whether it is closed (its closing
// segment is then the last vertex's to the first).
func (d *dxfDoc) vertices(p geom.Path) (pts []dxfVertex, closed bool) {
	var here geom.Vec
	add := func(q geom.Vec, bulge float64) {
		if d.points++; d.points > MaxDXFPoints {
			return // refused by DXF; the rest is not worth making
		}
		here = q
		if n := len(pts); n > 0 && d.near(pts[n-1].p, q) {
			return
		}
		if n := len(pts); n > 0 {
			pts[n-1].bulge = bulge
		}
		pts = append(pts, dxfVertex{p: q})
	}
	flat := func(seg geom.Seg) {
		if d.points > MaxDXFPoints {
			return
		}
		for _, pl := range (geom.Path{{Kind: geom.SegMove, P: [3]geom.Vec{here}}, seg}).Flatten(d.tol) {
			for _, q := range pl.Points[1:] {
				add(q, 0)
			}
		}
	}
	for _, seg := range p {
		switch seg.Kind {
		case geom.SegMove, geom.SegLine:
			add(seg.P[0], 0)
		case geom.SegQuad, geom.SegCubic:
			flat(seg)
		case geom.SegArc:
			add(seg.ArcPoint(seg.T0), 0)
			sweep, ok := seg.CircularSweep()
			if !ok {
				flat(seg)
				continue
			}
			// Pieces of at most half a turn keep every bulge within ±1.
			for q, bulge := range seg.HalfTurnPoints(sweep) {
				add(q, bulge)
			}
		case geom.SegClose:
			closed = true
		}
	}
	if closed && len(pts) > 1 && d.near(pts[len(pts)-1].p, pts[0].p) {
		// The last segment already ends at the start; the closing segment takes its bulge.
		pts = pts[:len(pts)-1]
	}
	return pts, closed
}

// normDegrees maps an angle to [0, 360).
func normDegrees(a float64) float64 {
	a = math.Mod(a, 360)
	if a < 0 {
		a += 360
	}
	if a >= 360-1e-9 {
		a = 0
	}
	return a
}

// nearestACI is the AutoCAD Color Index closest to c (by RGB distance, alpha ignored). ACI 7
// stands for black: it prints black on paper.
func nearestACI(c scene.Color) int {
	r, g, b := float64(channel(c[0])), float64(channel(c[1])), float64(channel(c[2]))
	best, bestD := dxfBlack, math.Inf(1)
	for i := 1; i <= 255; i++ {
		p := aci.RGB(i)
		if i == dxfBlack {
			p = [3]uint8{0, 0, 0}
		}
		dr, dg, db := r-float64(p[0]), g-float64(p[1]), b-float64(p[2])
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// dxfWriter appends group code / value pairs.
type dxfWriter struct {
	buf      []byte
	quantum  float64
	decimals int
	r2000    bool
	handle   int // the last handle given out (R2000)
	modelBR  int // handle of *Model_Space's BLOCK_RECORD, the owner of every entity
	block    int // handle of the BLOCK_RECORD whose block is being written; 0 in the ENTITIES
	dims     *dxfDims
}

// tag writes a group code, right-aligned in three columns as AutoCAD writes it, and a value.
func (w *dxfWriter) tag(code int, value string) {
	w.code(code)
	w.buf = append(w.buf, value...)
	w.buf = append(w.buf, '\n')
}

func (w *dxfWriter) code(code int) {
	if code < 10 {
		w.buf = append(w.buf, ' ', ' ')
	} else if code < 100 {
		w.buf = append(w.buf, ' ')
	}
	w.buf = strconv.AppendInt(w.buf, int64(code), 10)
	w.buf = append(w.buf, '\n')
}

func (w *dxfWriter) int(code, v int) {
	w.code(code)
	w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	w.buf = append(w.buf, '\n')
}

// coord writes a coordinate rounded to the quantum, without trailing zeros or a negative
// zero (at least one decimal, as DXF readers expect of reals).
func (w *dxfWriter) coord(code int, v float64) { w.real(code, v, w.quantum, w.decimals) }

// angle writes an angle in degrees or a bulge, to 1e-9.
func (w *dxfWriter) angle(code int, v float64) { w.real(code, v, 1e-9, 9) }

func (w *dxfWriter) real(code int, v, quantum float64, decimals int) {
	w.code(code)
	r := math.Round(v/quantum) * quantum
	if r == 0 {
		w.buf = append(w.buf, "0.0\n"...)
		return
	}
	w.buf = strconv.AppendFloat(w.buf, r, 'f', decimals, 64)
	if decimals == 0 {
		w.buf = append(w.buf, ".0\n"...)
		return
	}
	for w.buf[len(w.buf)-1] == '0' {
		w.buf = w.buf[:len(w.buf)-1]
	}
	if w.buf[len(w.buf)-1] == '.' {
		w.buf = append(w.buf, '0')
	}
	w.buf = append(w.buf, '\n')
}

// next gives out the next handle (R2000), as the hex string DXF uses.
func (w *dxfWriter) next() string {
	w.handle++
	return strconv.FormatInt(int64(w.handle), 16)
}

func hexHandle(h int) string { return strconv.FormatInt(int64(h), 16) }

func (w *dxfWriter) section(name string) {
	w.tag(0, "SECTION")
	w.tag(2, name)
}

func (w *dxfWriter) endsec() { w.tag(0, "ENDSEC") }

func (w *dxfWriter) header(b geom.Box, insUnits int) {
	w.section("HEADER")
	w.tag(9, "$ACADVER")
	if w.r2000 {
		w.tag(1, "AC1015")
		w.tag(9, "$HANDSEED")
		w.tag(5, hexHandle(w.handle+1))
		w.tag(9, "$INSUNITS")
		w.int(70, insUnits)
		w.tag(9, "$MEASUREMENT")
		if insUnits == 1 || insUnits == 2 {
			w.int(70, 0) // imperial
		} else {
			w.int(70, 1)
		}
		w.dimHeader()
	} else {
		w.tag(1, "AC1009")
	}
	w.tag(9, "$INSBASE")
	w.point(geom.Vec{})
	if b.NonEmpty {
		w.tag(9, "$EXTMIN")
		w.point(b.Min)
		w.tag(9, "$EXTMAX")
		w.point(b.Max)
	}
	w.endsec()
	if w.r2000 {
		w.section("CLASSES")
		w.endsec()
	}
}

// point writes a 3D point with z = 0 (codes 10, 20, 30).
func (w *dxfWriter) point(p geom.Vec) { w.pointAt(10, p) }

// pointAt writes a 3D point with z = 0 under codes code, code+10 and code+20.
func (w *dxfWriter) pointAt(code int, p geom.Vec) {
	w.coord(code, p.X)
	w.coord(code+10, p.Y)
	w.tag(code+20, "0.0")
}

// table opens a symbol table; R2000 gives it a handle, returned for its entries' owner.
func (w *dxfWriter) table(name string, count int) string {
	w.tag(0, "TABLE")
	w.tag(2, name)
	h := ""
	if w.r2000 {
		h = w.next()
		w.tag(5, h)
		w.tag(330, "0")
		w.tag(100, "AcDbSymbolTable")
	}
	w.int(70, count)
	return h
}

// record opens a table entry: R2000 adds its handle, owner and subclass markers.
func (w *dxfWriter) record(kind, owner, subclass, name string) {
	w.tag(0, kind)
	if w.r2000 {
		code := 5
		if kind == "DIMSTYLE" {
			code = 105 // DIMSTYLE alone keeps its handle under 105
		}
		w.tag(code, w.next())
		w.tag(330, owner)
		w.tag(100, "AcDbSymbolTableRecord")
		w.tag(100, subclass)
	}
	w.tag(2, name)
	w.int(70, 0)
}

func (w *dxfWriter) tables(layers []dxfLayer, used []dxfLinetype, styles []dxfStyle) {
	w.section("TABLES")
	if w.r2000 {
		t := w.table("VPORT", 1)
		w.record("VPORT", t, "AcDbViewportTableRecord", "*ACTIVE")
		w.tag(0, "ENDTAB")
	}

	linetypes := []string{"CONTINUOUS"}
	if w.r2000 {
		linetypes = []string{"ByBlock", "ByLayer", "Continuous"}
	}
	t := w.table("LTYPE", len(linetypes)+len(used))
	for _, lt := range linetypes {
		w.record("LTYPE", t, "AcDbLinetypeTableRecord", lt)
		desc := ""
		if strings.EqualFold(lt, "continuous") {
			desc = "Solid line"
		}
		w.tag(3, desc)
		w.int(72, 65)
		w.int(73, 0)
		w.tag(40, "0.0")
	}
	for _, lt := range used {
		w.record("LTYPE", t, "AcDbLinetypeTableRecord", lt.name)
		w.tag(3, lt.doc)
		w.int(72, 65)
		w.int(73, len(lt.pattern))
		total := 0.0
		for _, v := range lt.pattern {
			total += math.Abs(v)
		}
		w.real(40, total, 1e-9, 9)
		for _, v := range lt.pattern {
			w.real(49, v, 1e-9, 9)
			if w.r2000 {
				w.int(74, 0) // a plain dash: no shape or text in it
			}
		}
	}
	w.tag(0, "ENDTAB")

	t = w.table("LAYER", len(layers))
	for _, l := range layers {
		w.record("LAYER", t, "AcDbLayerTableRecord", l.name)
		w.int(62, l.color)
		lt := linetypes[len(linetypes)-1]
		if l.linetype != "" {
			lt = l.linetype
		}
		w.tag(6, lt)
		if w.r2000 {
			if l.noPlot {
				w.int(290, 0)
			}
			if l.lineweight != -3 {
				w.int(370, l.lineweight)
			}
		}
	}
	w.tag(0, "ENDTAB")

	// R2000 always has the Standard style; R12 has a STYLE table only for text entities.
	if w.r2000 || len(styles) > 0 {
		t = w.table("STYLE", 1+len(styles))
		standard := "STANDARD"
		if w.r2000 {
			standard = "Standard"
		}
		w.styleRecord(t, standard, "txt")
		for _, s := range styles {
			w.styleRecord(t, s.name, s.file)
		}
		w.tag(0, "ENDTAB")
	}

	if w.r2000 {

		w.table("VIEW", 0)
		w.tag(0, "ENDTAB")
		w.table("UCS", 0)
		w.tag(0, "ENDTAB")

		t = w.table("APPID", 1)
		w.record("APPID", t, "AcDbRegAppTableRecord", "ACAD")
		w.tag(0, "ENDTAB")

		w.dimStyles()

		t = w.table("BLOCK_RECORD", 2+len(w.dims.list))
		w.record("BLOCK_RECORD", t, "AcDbBlockTableRecord", "*Model_Space")
		w.modelBR = w.handle
		w.record("BLOCK_RECORD", t, "AcDbBlockTableRecord", "*Paper_Space")
		w.dimBlockRecords(t)
		w.tag(0, "ENDTAB")
	}
	w.endsec()
}

// blocks writes the BLOCKS section: empty in R12; R2000 needs the two layout blocks, and
// has a block for each dimension.
func (w *dxfWriter) blocks(layers []dxfLayer, styles []dxfStyle) {
	w.section("BLOCKS")
	if w.r2000 {
		for i, name := range []string{"*Model_Space", "*Paper_Space"} {
			owner, paper := hexHandle(w.modelBR+i), i == 1
			w.blockEntity("BLOCK", owner, paper, "AcDbBlockBegin")
			w.tag(2, name)
			w.int(70, 0)
			w.point(geom.Vec{})
			w.tag(3, name)
			w.tag(1, "")
			w.blockEntity("ENDBLK", owner, paper, "AcDbBlockEnd")
		}
		w.dimBlocks(layers, styles)
	}
	w.endsec()
}

// blockEntity writes the head a BLOCK and its ENDBLK share: a new handle, the owning block
// record, the paper-space flag for the paper layout, layer 0 and the entity's subclass.
func (w *dxfWriter) blockEntity(kind, owner string, paper bool, subclass string) {
	w.tag(0, kind)
	w.tag(5, w.next())
	w.tag(330, owner)
	w.tag(100, "AcDbEntity")
	if paper {
		w.int(67, 1)
	}
	w.tag(8, "0")
	w.tag(100, subclass)
}

// objects writes R2000's OBJECTS section: the root dictionary and its ACAD_GROUP entry.
func (w *dxfWriter) objects() {
	w.section("OBJECTS")
	root := w.next()
	group := w.next()
	w.tag(0, "DICTIONARY")
	w.tag(5, root)
	w.tag(330, "0")
	w.tag(100, "AcDbDictionary")
	w.int(281, 1)
	w.tag(3, "ACAD_GROUP")
	w.tag(350, group)
	w.tag(0, "DICTIONARY")
	w.tag(5, group)
	w.tag(330, root)
	w.tag(100, "AcDbDictionary")
	w.int(281, 1)
	w.endsec()
}

// entity opens an entity: kind, R2000 handle and owner (the model space or the block being
// written), layer, colour, R2000 subclass.
func (w *dxfWriter) entity(kind, layer string, color int, linetype, subclass string) {
	w.tag(0, kind)
	if w.r2000 {
		owner := w.modelBR
		if w.block != 0 {
			owner = w.block
		}
		w.tag(5, w.next())
		w.tag(330, hexHandle(owner))
		w.tag(100, "AcDbEntity")
	}
	w.tag(8, layer)
	if linetype != "" {
		w.tag(6, linetype)
	}
	if color != dxfByLayer {
		w.int(62, color)
	}
	if w.r2000 {
		w.tag(100, subclass)
	}
}

func (w *dxfWriter) shape(sh *dxfShape, layers []dxfLayer, styles []dxfStyle) {
	layer := layers[sh.layer].name
	switch sh.kind {
	case dxfTextLine, dxfMText:
		w.text(sh, layer, styles)
	case dxfHatch:
		w.hatch(sh, layer)
	case dxfDimension:
		w.dimension(sh, layers)
	case dxfCircle, dxfArc:
		kind := "CIRCLE"
		if sh.kind == dxfArc {
			kind = "ARC"
		}
		w.entity(kind, layer, sh.color, sh.linetype, "AcDbCircle")
		w.point(sh.center)
		w.coord(40, sh.radius)
		if sh.kind == dxfArc {
			if w.r2000 {
				w.tag(100, "AcDbArc")
			}
			w.angle(50, sh.a0)
			w.angle(51, sh.a1)
		}
	case dxfPolyline:
		flags := 0
		if sh.closed {
			flags = 1
		}
		if w.r2000 {
			w.entity("LWPOLYLINE", layer, sh.color, sh.linetype, "AcDbPolyline")
			w.int(90, len(sh.pts))
			w.int(70, flags)
			w.tag(43, "0.0")
			for _, v := range sh.pts {
				w.coord(10, v.p.X)
				w.coord(20, v.p.Y)
				if v.bulge != 0 {
					w.angle(42, v.bulge)
				}
			}
			return
		}
		w.entity("POLYLINE", layer, sh.color, sh.linetype, "")
		w.int(66, 1)
		w.point(geom.Vec{})
		w.int(70, flags)
		for _, v := range sh.pts {
			w.tag(0, "VERTEX")
			w.tag(8, layer)
			w.point(v.p)
			if v.bulge != 0 {
				w.angle(42, v.bulge)
			}
		}
		w.tag(0, "SEQEND")
		w.tag(8, layer)
	}
}
