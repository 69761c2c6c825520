package render

// Dimensions as DXF DIMENSION entities (R2000). A CAD program edits a DIMENSION as one
// object: it keeps the defining points, measures them again when they move and draws the
// dimension from its DIMSTYLE. So each of cadrun's dimensions is written as
//
//   - a DIMENSION entity on the dimension's layer in its colour: its type, its defining
//     points and the value it measures at full precision (not rounded to the drawing's
//     quantum, so that a reader measuring the points again finds the same value), the
//     script's text override with "<>" for the measured text, and its DIMSTYLE;
//   - a DIMSTYLE per text height and precision used, holding the proportions cadrun draws
//     with (arrow, gaps, overshoot, decimals, trailing zeros dropped, a decimal point);
//   - an anonymous block *D<n> holding what cadrun draws, in world coordinates: the lines
//     and filled arrows as polylines and the text as outlines, or as TEXT with
//     DXFOptions.Text "entities". A reader that does not compute dimensions shows the block,
//     and the geometry is not written again as loose entities.
//
// R12 gets the geometry alone, as for any shape.

import (
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// DXF dimension types (group 70), before the flag 32 that says the block is this
// dimension's own, as AutoCAD writes it.
const (
	dxfDimRotated  = 0 // horizontal, vertical or rotated linear
	dxfDimAligned  = 1
	dxfDimAngular  = 2 // angle between two lines
	dxfDimDiameter = 3
	dxfDimRadius   = 4
	dxfDimUnique   = 32
)

// dxfDims are the dimensions of a document and the DIMSTYLEs they use.
type dxfDims struct {
	list   []dxfDim
	styles []dxfDimStyle
}

// dxfDim is one DIMENSION, in world coordinates, and the geometry of its block.
type dxfDim struct {
	typ      int // group 70 without flags
	pts      scene.DimPoints
	mid      geom.Vec // the middle of the text
	measured float64  // as group 42 holds it: a length, or an angle in radians
	text     string   // the text override, escaped; "" for none
	style    int      // index into the styles
	shapes   []dxfShape
	record   int // the handle of the block's BLOCK_RECORD, given out with the tables
}

// dxfDimStyle is a DIMSTYLE: a text height and a precision.
type dxfDimStyle struct {
	name      string
	size      float64
	precision int
}

// addDimension adds a dimension, drawn as the world path it.Path under the world map
// it.World, as a DIMENSION whose block holds the path (its text as TEXT, at it.Label, when text
// entities are asked for), and a placeholder in the shapes so that it is written in its place
// in the drawing order.
func (d *dxfDoc) addDimension(dim *scene.Dimension, it scene.Item, layer, color int, linetype string) {
	m, p := it.World, it.Path
	label := p[:0:0]
	display := dim.DisplayText(m)
	if n := it.Label.Segs; n > 0 && n <= len(p) {
		label = p[len(p)-n:]
	}
	dm := dxfDim{
		typ:      dxfDimType(dim),
		pts:      dim.Defining(m),
		mid:      label.Bounds().Center(),
		measured: dim.Measured(m),
		style:    d.dims.style(dim),
	}
	if dim.Type == scene.DimAngle {
		dm.measured *= math.Pi / 180 // AutoCAD keeps an angle's measurement in radians
	}
	switch {
	case dim.Text != "":
		dm.text = dxfEscape(dim.Text, false)
	case dim.Units != "":
		dm.text = dxfEscape("<>"+dim.Units, false)
	}
	if len(label) == 0 {
		dm.mid = p.Bounds().Center()
	}

	start := len(d.shapes)
	lines := p[:len(p)-len(label)]
	d.addPath(lines, layer, color)
	for i := start; i < len(d.shapes); i++ {
		d.shapes[i].linetype = linetype
	}
	text := &scene.Text{Text: display, Size: dim.Size, Align: text.AlignCenter}
	if len(label) > 0 && !(d.textEntities && d.addText(text, it.Label.Place, layer, color)) {
		d.addPath(label, layer, color)
	}
	dm.shapes = append([]dxfShape(nil), d.shapes[start:]...)
	d.shapes = append(d.shapes[:start], dxfShape{kind: dxfDimension, layer: layer, color: color, dim: len(d.dims.list)})
	d.dims.list = append(d.dims.list, dm)
}

// dxfDimType is the DXF type of a dimension.
func dxfDimType(dim *scene.Dimension) int {
	switch dim.Type {
	case scene.DimAligned:
		return dxfDimAligned
	case scene.DimRadius:
		return dxfDimRadius
	case scene.DimDiameter:
		return dxfDimDiameter
	case scene.DimAngle:
		return dxfDimAngular
	}
	return dxfDimRotated
}

// style is the index of the DIMSTYLE for a dimension's text height and precision, added on
// first use and named after both: CADRUN_2_5_P2 is 2.5 high with 2 decimals.
func (ds *dxfDims) style(dim *scene.Dimension) int {
	for i, s := range ds.styles {
		if s.size == dim.Size && s.precision == dim.Precision {
			return i
		}
	}
	size := strings.ReplaceAll(strconv.FormatFloat(dim.Size, 'f', -1, 64), ".", "_")
	name := "CADRUN_" + size + "_P" + strconv.Itoa(dim.Precision)
	ds.styles = append(ds.styles, dxfDimStyle{name: name, size: dim.Size, precision: dim.Precision})
	return len(ds.styles) - 1
}

// dimStyles writes the DIMSTYLE table: Standard, then one record per style the dimensions
// use.
func (w *dxfWriter) dimStyles() {
	t := w.table("DIMSTYLE", 1+len(w.dims.styles))
	w.tag(100, "AcDbDimStyleTable")
	w.record("DIMSTYLE", t, "AcDbDimStyleTableRecord", "Standard")
	for _, s := range w.dims.styles {
		w.record("DIMSTYLE", t, "AcDbDimStyleTableRecord", s.name)
		w.exact(40, 1)                              // DIMSCALE
		w.exact(41, s.size*drafting.DimArrowLength) // DIMASZ
		w.exact(42, s.size*drafting.DimExtensionGap)
		w.exact(44, s.size*drafting.DimExtensionOver)
		w.int(73, 0) // DIMTIH, DIMTOH: the text along the line
		w.int(74, 0)
		w.int(77, 1) // DIMTAD: above the line
		w.int(78, 8) // DIMZIN: trailing zeros dropped
		w.int(79, 2) // DIMAZIN: the same for angles
		w.exact(140, s.size)
		w.exact(144, 1) // DIMLFAC
		w.exact(147, s.size*drafting.DimTextGap)
		w.int(179, s.precision) // DIMADEC
		w.int(271, s.precision) // DIMDEC
		w.int(275, 0)           // DIMAUNIT: decimal degrees
		w.int(277, 2)           // DIMLUNIT: decimal
		w.int(278, '.')         // DIMDSEP
	}
	w.tag(0, "ENDTAB")
}

// dimHeader writes the drawing's current dimension style and its variables as the first
// dimension's DIMSTYLE has them, for readers that draw every DIMENSION from the header's
// variables rather than from its style (LibreCAD). A drawing without dimensions has none.
func (w *dxfWriter) dimHeader() {
	if len(w.dims.list) == 0 {
		return
	}
	s := w.dims.styles[w.dims.list[0].style]
	w.tag(9, "$DIMSTYLE")
	w.tag(2, s.name)
	for _, v := range []struct {
		name  string
		code  int
		value float64
	}{
		{"$DIMSCALE", 40, 1}, {"$DIMASZ", 40, s.size * drafting.DimArrowLength},
		{"$DIMEXO", 40, s.size * drafting.DimExtensionGap}, {"$DIMEXE", 40, s.size * drafting.DimExtensionOver},
		{"$DIMTXT", 40, s.size}, {"$DIMGAP", 40, s.size * drafting.DimTextGap},
	} {
		w.tag(9, v.name)
		w.exact(v.code, v.value)
	}
	for _, v := range []struct {
		name        string
		code, value int
	}{
		{"$DIMTIH", 70, 0}, {"$DIMTOH", 70, 0}, {"$DIMTAD", 70, 1}, {"$DIMZIN", 70, 8}, {"$DIMAZIN", 70, 2},
		{"$DIMDEC", 70, s.precision}, {"$DIMADEC", 70, s.precision}, {"$DIMLUNIT", 70, 2}, {"$DIMAUNIT", 70, 0},
		{"$DIMDSEP", 70, '.'},
	} {
		w.tag(9, v.name)
		w.int(v.code, v.value)
	}
}

// dimBlockRecords writes a BLOCK_RECORD for each dimension's block into the table t.
func (w *dxfWriter) dimBlockRecords(t string) {
	for i := range w.dims.list {
		w.record("BLOCK_RECORD", t, "AcDbBlockTableRecord", dxfDimBlock(i))
		w.dims.list[i].record = w.handle
	}
}

// dxfDimBlock is the name of the i-th dimension's anonymous block.
func dxfDimBlock(i int) string { return "*D" + strconv.Itoa(i+1) }

// dimBlocks writes each dimension's block: anonymous (flag 1), based at the origin, its
// geometry in world coordinates on the dimension's layer in its colour.
func (w *dxfWriter) dimBlocks(layers []dxfLayer, styles []dxfStyle) {
	for i := range w.dims.list {
		dm := &w.dims.list[i]
		owner := hexHandle(dm.record)
		w.blockEntity("BLOCK", owner, false, "AcDbBlockBegin")
		w.tag(2, dxfDimBlock(i))
		w.int(70, 1)
		w.point(geom.Vec{})
		w.tag(3, dxfDimBlock(i))
		w.tag(1, "")
		w.block = dm.record
		for j := range dm.shapes {
			w.shape(&dm.shapes[j], layers, styles)
		}
		w.block = 0
		w.blockEntity("ENDBLK", owner, false, "AcDbBlockEnd")
	}
}

// dimension writes a DIMENSION entity.
func (w *dxfWriter) dimension(sh *dxfShape, layers []dxfLayer) {
	dm := &w.dims.list[sh.dim]
	w.entity("DIMENSION", layers[sh.layer].name, sh.color, "", "AcDbDimension")
	w.tag(2, dxfDimBlock(sh.dim))
	def := dm.pts.Line // linear and angle: on the dimension line
	switch dm.typ {
	case dxfDimRadius:
		def = dm.pts.Centre
	case dxfDimDiameter:
		def = dm.pts.A
	}
	if dm.typ == dxfDimAngular {
		def = dm.pts.B
	}
	w.exactPoint(10, def)
	w.exactPoint(11, dm.mid)
	w.int(70, dm.typ|dxfDimUnique)
	w.int(71, 5) // the text's middle is its attachment point
	w.exact(42, dm.measured)
	if dm.text != "" {
		w.tag(1, dm.text)
	}
	w.tag(3, w.dims.styles[dm.style].name)
	switch dm.typ {
	case dxfDimRotated, dxfDimAligned:
		w.tag(100, "AcDbAlignedDimension")
		w.exactPoint(13, dm.pts.A)
		w.exactPoint(14, dm.pts.B)
		// Also for an aligned dimension: readers such as ezdxf measure along group 50.
		w.exact(50, normDegrees(math.Atan2(dm.pts.Dir.Y, dm.pts.Dir.X)*180/math.Pi))
		if dm.typ == dxfDimRotated {
			w.tag(100, "AcDbRotatedDimension")
		}
	case dxfDimRadius, dxfDimDiameter:
		sub := "AcDbRadialDimension"
		if dm.typ == dxfDimDiameter {
			sub = "AcDbDiametricDimension"
		}
		w.tag(100, sub)
		w.exactPoint(15, dm.pts.B)
		w.exact(40, dm.leader())
	case dxfDimAngular:
		// Two lines from the vertex: the first through A (13 to 14), the second through B
		// (15 to 10); the angle runs counter-clockwise from the first; 16 is on the arc.
		w.tag(100, "AcDb2LineAngularDimension")
		w.exactPoint(13, dm.pts.Centre)
		w.exactPoint(14, dm.pts.A)
		w.exactPoint(15, dm.pts.Centre)
		w.exactPoint(16, dm.pts.Line)
	}
}

// leader is a radius's or diameter's leader length: how far the text's middle stands out
// past the circle, 0 for text inside it.
func (dm *dxfDim) leader() float64 {
	out := dm.pts.B.Sub(dm.pts.A)
	if v := dm.mid.Sub(dm.pts.B); v.X*out.X+v.Y*out.Y > 0 {
		return v.Len()
	}
	return 0
}

// exact writes a real as the shortest decimal that reads back as the same float64: the
// defining points and the measurement, which readers measure again, are not rounded.
func (w *dxfWriter) exact(code int, v float64) {
	w.code(code)
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		w.buf = append(w.buf, "0.0\n"...)
		return
	}
	n := len(w.buf)
	w.buf = strconv.AppendFloat(w.buf, v, 'f', -1, 64)
	if !strings.Contains(string(w.buf[n:]), ".") {
		w.buf = append(w.buf, ".0"...)
	}
	w.buf = append(w.buf, '\n')
}

// exactPoint writes a point with z = 0 at full precision under code, code+10 and code+20.
func (w *dxfWriter) exactPoint(code int, p geom.Vec) {
	w.exact(code, p.X)
	w.exact(code+10, p.Y)
	w.tag(code+20, "0.0")
}
