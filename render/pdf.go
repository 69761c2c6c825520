package render

// The PDF writer is written by hand (see docs/decisions.md): one page, one content stream of
// path operators, colours, widths and transparency states, nothing else. Shapes are painted
// back to front as in the SVG and PNG, fills with the nonzero rule, strokes with round joins
// and caps; text is its outlines. Curves stay curves: Béziers as PDF cubics, arcs as cubic
// pieces of at most a twelfth of a turn (arcCubics). There is no date, no random ID, and numbers are rounded
// to a thousandth of a point, so the same scene gives the same bytes.

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// Page sizes and limits, in PDF points (1/72 inch).
const (
	ptPerMM = 72 / 25.4
	// MaxPDFPageSide is the largest page side PDF readers accept: 14,400 points (200 inches,
	// 5,080 mm), the limit of Acrobat and of the PDF 1.4 reference.
	MaxPDFPageSide = 14400
	// minPDFPageSide is the smallest page side the PDF reference allows: 3 points.
	minPDFPageSide = 3
)

// pdfPages are the named page sizes in millimetres, portrait.
var pdfPages = []struct {
	name string
	w, h float64
}{
	{"A4", 210, 297},
	{"A3", 297, 420},
	{"Letter", 215.9, 279.4},
}

// ParsePage reads a page size: fit (or ""), A4, A3 or Letter, case-insensitive. Fit is
// returned as "".
func ParsePage(s string) (string, error) {
	if s == "" || strings.EqualFold(s, "fit") {
		return "", nil
	}
	for _, p := range pdfPages {
		if strings.EqualFold(s, p.name) {
			return p.name, nil
		}
	}
	return "", fmt.Errorf("%w: page %q: use fit, A4, A3 or Letter", ErrExportOption, s)
}

// PDFScale is how drawing lengths become paper lengths.
type PDFScale struct {
	// Paper is the paper length per drawing length, both in the drawing's unit: 1 is 1:1,
	// 0.5 is 1:2, 2 is 2:1. 0 means 1:1.
	Paper float64
	// Fit scales the drawing to fill a named page instead; Paper is then ignored.
	Fit bool
}

// ParseScale reads a scale: "fit", or "A:B" (1:1, 1:50, 2:1) with positive numbers.
func ParseScale(s string) (PDFScale, error) {
	if strings.EqualFold(s, "fit") {
		return PDFScale{Fit: true}, nil
	}
	bad := fmt.Errorf("%w: scale %q: use 1:1, 1:N, N:1 or fit", ErrExportOption, s)
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return PDFScale{}, bad
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || !(x > 0) || !(y > 0) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return PDFScale{}, bad
	}
	return PDFScale{Paper: x / y}, nil
}

// PDFOptions configure the PDF writer. The zero value fits the page to the drawing at 1:1,
// one scene unit being one millimetre.
type PDFOptions struct {
	Page  string   // "" (fit the page to the drawing), "A4", "A3" or "Letter"
	Scale PDFScale // 1:1 by default; Fit needs a named page
	Unit  Unit     // what one scene unit is on paper; "" means mm
}

// pdfLayout places the drawing on the page: a point (x, y) of the scene is at
// (x·k + ox, y·k + oy) points, Y up as in PDF.
type pdfLayout struct {
	w, h, k, ox, oy float64
}

func pdfPlace(s *scene.Scene, opt PDFOptions) (pdfLayout, error) {
	_, unitMM, err := unitInfo(opt.Unit)
	if err != nil {
		return pdfLayout{}, err
	}
	page, err := ParsePage(opt.Page)
	if err != nil {
		return pdfLayout{}, err
	}
	paper := opt.Scale.Paper
	if paper == 0 {
		paper = 1
	}
	if !(paper > 0) || math.IsInf(paper, 0) {
		return pdfLayout{}, fmt.Errorf("%w: scale %v must be a number > 0", ErrExportOption, paper)
	}
	view := FitView(s, DefaultMargin)
	sz := view.Size()
	var l pdfLayout
	scaleName := pdfScaleName(paper)
	if page == "" {
		if opt.Scale.Fit {
			return pdfLayout{}, fmt.Errorf("%w: scale fit needs a named page (A4, A3 or Letter); with page fit, give a scale such as 1:1", ErrExportOption)
		}
		l.k = unitMM * paper * ptPerMM
		l.w, l.h = sz.X*l.k, sz.Y*l.k
		if l.w > MaxPDFPageSide || l.h > MaxPDFPageSide {
			return pdfLayout{}, fmt.Errorf("%w: at %s the page would be %.0f x %.0f mm; a PDF page side is at most %.0f mm (MaxPDFPageSide): use a smaller scale (1:N) or a named page with scale fit",
				ErrExportOption, scaleName, l.w/ptPerMM, l.h/ptPerMM, MaxPDFPageSide/ptPerMM)
		}
		if l.w < minPDFPageSide || l.h < minPDFPageSide {
			return pdfLayout{}, fmt.Errorf("%w: at %s the page would be %.2f x %.2f mm; a PDF page side is at least %.2f mm: use a larger scale (N:1)",
				ErrExportOption, scaleName, l.w/ptPerMM, l.h/ptPerMM, minPDFPageSide/ptPerMM)
		}
	} else {
		for _, p := range pdfPages {
			if p.name == page {
				l.w, l.h = p.w*ptPerMM, p.h*ptPerMM
			}
		}
		if sz.X > sz.Y {
			l.w, l.h = l.h, l.w // landscape for a wide drawing
		}
		if opt.Scale.Fit {
			l.k = math.Min(l.w/sz.X, l.h/sz.Y)
		} else {
			l.k = unitMM * paper * ptPerMM
			// The drawing must fit; the margin around it may be cut.
			content := s.Bounds().Size()
			stroke := 2 * maxHalfStroke(s)
			cw, ch := (content.X+stroke)*l.k, (content.Y+stroke)*l.k
			if cw > l.w+1e-9 || ch > l.h+1e-9 {
				return pdfLayout{}, fmt.Errorf("%w: at %s the drawing is %.1f x %.1f mm and does not fit on %s (%.1f x %.1f mm): use scale fit, a smaller scale (1:N) or a larger page",
					ErrExportOption, scaleName, cw/ptPerMM, ch/ptPerMM, page, l.w/ptPerMM, l.h/ptPerMM)
			}
		}
	}
	l.ox = (l.w-sz.X*l.k)/2 - view.Min.X*l.k
	l.oy = (l.h-sz.Y*l.k)/2 - view.Min.Y*l.k
	return l, nil
}

func pdfScaleName(paper float64) string {
	if paper >= 1 {
		return strconv.FormatFloat(paper, 'g', 6, 64) + ":1"
	}
	return "1:" + strconv.FormatFloat(1/paper, 'g', 6, 64)
}

// maxHalfStroke is half the widest stroke in the scene, which reaches past the bounds.
func maxHalfStroke(s *scene.Scene) float64 {
	half := 0.0
	for _, e := range s.Walk() {
		if e.IsGroup() {
			continue
		}
		if _, w := strokeOf(e.Style); w > 0 {
			reach := 1.0 // a miter or a square cap's corner reaches further
			if e.Style.Join == scene.StrokeMiter {
				reach = e.Style.Miter()
			}
			if e.Style.Cap == scene.CapSquare {
				reach = math.Max(reach, math.Sqrt2)
			}
			half = math.Max(half, reach*w/2)
		}
	}
	return half
}

// PDF writes the scene as a one-page vector PDF.
func PDF(s *scene.Scene, opt PDFOptions) ([]byte, error) {
	l, err := pdfPlace(s, opt)
	if err != nil {
		return nil, err
	}
	hatches, err := budgeted(s)
	if err != nil {
		return nil, err
	}
	// The content goes to the compressor in chunks as it is written, so that a large scene
	// never holds its whole uncompressed stream.
	const chunk = 64 << 10
	var stream bytes.Buffer
	zw, err := zlib.NewWriterLevel(&stream, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	c := &pdfContent{l: l, gs: map[[2]int]int{}}
	c.buf = make([]byte, 0, chunk+4096)
	c.buf = append(c.buf, pdfRound+"\n"...)
	c.corners = pdfRound
	for it := range s.Paint() {
		drawn := s.Drawn(it.Entity)
		if !drawn.Plot {
			continue // on a layer that is not plotted
		}
		c.item(it, drawn.Style)
		if h, ok := hatches[it.Entity]; ok {
			c.hatch(it, h)
		}
		if len(c.buf) >= chunk {
			zw.Write(c.buf) // a bytes.Buffer never fails; Close reports for the whole stream
			c.buf = c.buf[:0]
		}
	}
	zw.Write(c.buf)
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("compressing the PDF content: %w", err)
	}

	var out []byte
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, len(out))
		out = fmt.Appendf(out, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	out = append(out, "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"...)
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	var res strings.Builder
	if len(c.gsList) > 0 {
		res.WriteString(" /Resources << /ExtGState <<")
		for i, a := range c.gsList {
			fmt.Fprintf(&res, " /G%d << /ca %s /CA %s >>", i, pdfNum(float64(a[0])/1000), pdfNum(float64(a[1])/1000))
		}
		res.WriteString(" >> >>")
	} else {
		res.WriteString(" /Resources << >>")
	}
	obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s]%s /Contents 4 0 R >>", pdfNum(l.w), pdfNum(l.h), res.String()))
	offsets = append(offsets, len(out))
	out = fmt.Appendf(out, "4 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n", stream.Len())
	out = append(out, stream.Bytes()...)
	out = append(out, "\nendstream\nendobj\n"...)
	obj("<< /Producer (cadrun) >>")
	xref := len(out)
	out = fmt.Appendf(out, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, off := range offsets {
		out = fmt.Appendf(out, "%010d 00000 n \n", off)
	}
	out = fmt.Appendf(out, "trailer\n<< /Size %d /Root 1 0 R /Info 5 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return out, nil
}

// pdfContent builds the page's content stream, setting a colour, width or transparency
// state only when it changes.
type pdfContent struct {
	l      pdfLayout
	buf    []byte
	gs     map[[2]int]int // (fill alpha, stroke alpha) in thousandths -> ExtGState index
	gsList [][2]int
	curGS  int // index+1 of the current state; 0 is the initial, opaque one

	fill, stroke string // current colour operands
	width        float64
	widthSet     bool
	dash         string // the current dash operator's operands; "" is the initial solid line
	corners      string // the current cap, join and miter limit operators (pdfCorners)
}

// pdfRound is the cap and join every page starts with, cadrun's round.
const pdfRound = "1 J 1 j"

// pdfCorners is the operators that set a stroke's cap (J: 0 butt, 1 round, 2 square), join
// (j: 0 miter, 1 round, 2 bevel) and, for a miter, its limit (M, the same ratio as SVG's).
func pdfCorners(st scene.Style) string {
	if st.Cap == "" && st.Join == "" {
		return pdfRound
	}
	cp, jn := 1, 1
	switch st.Cap {
	case scene.CapButt:
		cp = 0
	case scene.CapSquare:
		cp = 2
	}
	switch st.Join {
	case scene.StrokeMiter:
		return fmt.Sprintf("%d J 0 j %s M", cp, pdfNum(st.Miter()))
	case scene.StrokeBevel:
		jn = 2
	}
	return fmt.Sprintf("%d J %d j", cp, jn)
}

// item paints one shape with its drawn style (scene.Scene.Drawn).
func (c *pdfContent) item(it scene.Item, st scene.Style) {
	fill := fillOf(st)
	stroke, width := strokeOf(st)
	if fill == nil && stroke == nil {
		return
	}
	alpha := [2]int{1000, 1000}
	if fill != nil {
		alpha[0] = int(math.Round(pngClamp01(fill[3]) * 1000))
	}
	if stroke != nil {
		alpha[1] = int(math.Round(pngClamp01(stroke[3]) * 1000))
	}
	want := 0
	if alpha != [2]int{1000, 1000} || c.curGS != 0 {
		i, ok := c.gs[alpha]
		if !ok {
			i = len(c.gsList)
			c.gs[alpha] = i
			c.gsList = append(c.gsList, alpha)
		}
		want = i + 1
	}
	if want != c.curGS {
		c.buf = fmt.Appendf(c.buf, "/G%d gs\n", want-1)
		c.curGS = want
	}
	if fill != nil {
		if col := pdfColor(*fill); col != c.fill {
			c.fill = col
			c.buf = append(c.buf, col...)
			c.buf = append(c.buf, " rg\n"...)
		}
	}
	if stroke != nil {
		if col := pdfColor(*stroke); col != c.stroke {
			c.stroke = col
			c.buf = append(c.buf, col...)
			c.buf = append(c.buf, " RG\n"...)
		}
		if w := width * c.l.k; !c.widthSet || w != c.width {
			c.width, c.widthSet = w, true
			c.buf = append(c.buf, pdfNum(w)...)
			c.buf = append(c.buf, " w\n"...)
		}
		if corners := pdfCorners(st); corners != c.corners {
			c.corners = corners
			c.buf = append(c.buf, corners...)
			c.buf = append(c.buf, '\n')
		}
		if dash := c.dashOperands(strokeDashes(st)); dash != c.dash {
			c.dash = dash
			if dash == "" {
				dash = "[] 0"
			}
			c.buf = append(c.buf, dash...)
			c.buf = append(c.buf, " d\n"...)
		}
	}
	c.path(it.Path)
	switch {
	case fill != nil && stroke != nil && alpha[1] == 1000:
		c.buf = append(c.buf, "B\n"...)
	case fill != nil && stroke != nil:
		// The PDF specification paints B as a knockout group: a translucent stroke would
		// replace the fill under it instead of blending with it (MuPDF shows exactly that).
		// Fill, then stroke the same path again, as the PNG and the SVG paint.
		c.buf = append(c.buf, "f\n"...)
		c.path(it.Path)
		c.buf = append(c.buf, "S\n"...)
	case fill != nil:
		c.buf = append(c.buf, "f\n"...)
	default:
		c.buf = append(c.buf, "S\n"...)
	}
}

// dashOperands is the operands of the d operator for a dash pattern in scene units, in
// points on the page; "" for a solid line.
func (c *pdfContent) dashOperands(dashes []float64) string {
	if dashes == nil {
		return ""
	}
	b := []byte{'['}
	for i, v := range dashes {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, pdfNum(v*c.l.k)...)
	}
	return string(append(b, "] 0"...))
}

// pdfColor is the operands of an rg/RG operator: three channels rounded to 1/255, as in the
// SVG's hex colours.
func pdfColor(c scene.Color) string {
	return pdfNum(float64(channel(c[0]))/255) + " " + pdfNum(float64(channel(c[1]))/255) + " " + pdfNum(float64(channel(c[2]))/255)
}

func (c *pdfContent) pt(p geom.Vec) {
	c.buf = appendPDFNum(c.buf, p.X*c.l.k+c.l.ox)
	c.buf = append(c.buf, ' ')
	c.buf = appendPDFNum(c.buf, p.Y*c.l.k+c.l.oy)
	c.buf = append(c.buf, ' ')
}

func (c *pdfContent) op(o string) {
	c.buf = append(c.buf, o...)
	c.buf = append(c.buf, '\n')
}

// path writes the world path; quadratics become cubics and arcs cubic pieces (arcCubics).
func (c *pdfContent) path(p geom.Path) {
	var cur geom.Vec
	for _, s := range p {
		switch s.Kind {
		case geom.SegMove:
			c.pt(s.P[0])
			c.op("m")
		case geom.SegLine:
			c.pt(s.P[0])
			c.op("l")
		case geom.SegQuad:
			c.pt(cur.Add(s.P[0].Sub(cur).Mul(2.0 / 3)))
			c.pt(s.P[1].Add(s.P[0].Sub(s.P[1]).Mul(2.0 / 3)))
			c.pt(s.P[1])
			c.op("c")
		case geom.SegCubic:
			c.pt(s.P[0])
			c.pt(s.P[1])
			c.pt(s.P[2])
			c.op("c")
		case geom.SegArc:
			if start := s.ArcPoint(s.T0); start != cur {
				c.pt(start)
				c.op("l")
			}
			arcCubics(s, func(c1, c2, end geom.Vec) {
				c.pt(c1)
				c.pt(c2)
				c.pt(end)
				c.op("c")
			})
		case geom.SegClose:
			c.op("h")
		}
		if s.Kind != geom.SegClose {
			cur = s.End()
		}
	}
}

// maxArcCubicSweep is the largest sweep, in radians, of one cubic standing for a piece of an
// arc: a twelfth of a turn. The cubic with control arms 4/3·tan(θ/4) strays from a circle of
// radius r by about 2/27·sin⁶(θ/4)/cos²(θ/4)·r: 2.7e-4·r for a quarter turn, which is
// 27 µm on a 100 mm radius, and 3.7e-7·r for a twelfth, below the 1e-6·r held for every
// arc written (TestPDFArcCubicsOnTheCircle).
const maxArcCubicSweep = math.Pi / 6

// arcCubics gives the cubic Béziers that stand for an arc segment, in order: each piece's two
// control points and its end (the start is where the previous piece, or the arc, begins).
// An elliptical arc is the same construction mapped by its axes, so it keeps the same error
// relative to its larger radius.
func arcCubics(s geom.Seg, emit func(c1, c2, end geom.Vec)) {
	n := int(math.Max(1, math.Ceil(math.Abs(s.T1-s.T0)/maxArcCubicSweep-1e-9)))
	step := (s.T1 - s.T0) / float64(n)
	h := 4.0 / 3 * math.Tan(step/4)
	tangent := func(t float64) geom.Vec {
		sn, cs := math.Sincos(t)
		return s.P[2].Mul(cs).Sub(s.P[1].Mul(sn))
	}
	for i := range n {
		a, b := s.T0+step*float64(i), s.T0+step*float64(i+1)
		pa, pb := s.ArcPoint(a), s.ArcPoint(b)
		emit(pa.Add(tangent(a).Mul(h)), pb.Sub(tangent(b).Mul(h)), pb)
	}
}

// pdfNum formats v rounded to a thousandth, without trailing zeros or a negative zero.
func pdfNum(v float64) string { return string(appendPDFNum(nil, v)) }

// appendPDFNum appends pdfNum(v). Coordinates are written as integers of thousandths, which
// is several times faster than formatting floats and gives the same digits.
func appendPDFNum(b []byte, v float64) []byte {
	r := math.Round(v * 1000)
	if r == 0 || !(math.Abs(r) < 1<<53) {
		return append(b, '0') // zero, or not a number a page can hold (pdfPlace keeps pages small)
	}
	n := int64(r)
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/1000, 10)
	if f := n % 1000; f != 0 {
		d := [3]byte{byte('0' + f/100), byte('0' + f/10%10), byte('0' + f%10)}
		k := 3
		for d[k-1] == '0' {
			k--
		}
		b = append(b, '.')
		b = append(b, d[:k]...)
	}
	return b
}
