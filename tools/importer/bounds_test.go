package importer

// Hostile files: what a file makes the importer compute is bounded like a run. Counts read
// from the file are never trusted, flattening is bounded by its output, the module is held to
// its budgets while it is written, the conversion to the import's MaxTime, and every number
// written into code is finite and within the scene's range.

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/google/go-cmp/cmp"
)

// entitiesDXF is a DXF file of the ENTITIES given (and a block B holding a circle).
func entitiesDXF(body string) []byte {
	return []byte("0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB\n0\nCIRCLE\n40\n1\n0\nENDBLK\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n" + body + "0\nENDSEC\n0\nEOF\n")
}

// TestHostileCounts: a count the file declares that sizes a loop or an allocation is refused
// when below 0, naming the line of the value and the cap, never trusted (a HATCH with -5
// vertices made a slice of negative capacity and the process died).
func TestHostileCounts(t *testing.T) {
	t.Parallel()
	// The ENTITIES section's first entity opens on line 21.
	hatch := "0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n91\n"
	for _, c := range []struct{ name, body, want string }{
		{"polyline vertices", hatch + "1\n92\n2\n72\n0\n73\n1\n93\n-5\n",
			"cannot import: line 38: a HATCH with -5 vertices in a boundary path (group 93); a count must be 0 to 100000 (MaxHatchEdges)"},
		{"edges", hatch + "1\n92\n0\n93\n-1\n",
			"cannot import: line 34: a HATCH with -1 edges in a boundary path (group 93); a count must be 0 to 100000 (MaxHatchEdges)"},
		{"paths", hatch + "-2\n",
			"cannot import: line 30: a HATCH with -2 boundary paths (group 91); a count must be 0 to 10000 (MaxHatchPaths)"},
		{"spline knots", hatch + "1\n92\n0\n93\n1\n72\n4\n94\n3\n73\n0\n74\n0\n95\n-4\n96\n4\n",
			"cannot import: line 44: a HATCH with -4 knots in a spline edge (group 95); a count must be 0 to 5011 (MaxSplineKnots)"},
		{"spline control points", hatch + "1\n92\n0\n93\n1\n72\n4\n94\n3\n73\n0\n74\n0\n95\n4\n96\n-4\n",
			"cannot import: line 46: a HATCH with -4 control points in a spline edge (group 96); a count must be 0 to 5000 (MaxSplineControlPoints)"},
		{"array columns", "0\nINSERT\n2\nB\n70\n-3\n71\n2\n",
			"cannot import: line 26: an INSERT with -3 columns (group 70); a count must be 0 or more (0 and 1 are one), and every copy counts against MaxDrawnEntities"},
		{"array rows", "0\nINSERT\n2\nB\n70\n2\n71\n-9223372036854775808\n",
			"cannot import: line 28: an INSERT with -9223372036854775808 rows (group 71); a count must be 0 or more (0 and 1 are one), and every copy counts against MaxDrawnEntities"},
	} {
		_, _, err := DXF(entitiesDXF(c.body), Options{})
		if err == nil || !errors.Is(err, ErrRefused) || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// TestHatchCountOverTheData: a count larger than the groups that follow is bad layout,
// skipped, and reads no further than the data.
func TestHatchCountOverTheData(t *testing.T) {
	t.Parallel()
	_, rep, err := DXF(entitiesDXF("0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n91\n10000\n92\n2\n72\n0\n93\n100000\n10\n0\n20\n0\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"HATCH: its boundary data is not laid out as DXF lays it out": 1}, rep.Skipped); diff != "" {
		t.Errorf("skipped mismatch (-want +got):\n%s", diff)
	}
}

// splineDXF is a SPLINE of the degree through n control points that zigzag by 1000.
func splineDXF(n, degree int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "0\nSPLINE\n8\nL\n70\n0\n71\n%d\n72\n%d\n73\n%d\n", degree, n+degree+1, n)
	for i := range n + degree + 1 {
		fmt.Fprintf(&b, "40\n%d\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "10\n%d\n20\n%d\n", i, i%2*1000)
	}
	return b.String()
}

// TestSplineFlatteningBounded: a spline of degree over 3 is flattened to at most
// MaxSplineLines lines (one per piece at least), so its code grows with its control points:
// a 5,000-point zigzag of degree 4 (110 KB) made 1.28 million lines, 10 MB of code.
func TestSplineFlatteningBounded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n, degree, maxLines int
		note                string
	}{
		{200, 4, MaxSplineLines, "SPLINE: rational or of degree over 3: flattened to at most 4096 lines (MaxSplineLines), coarser than SplineTolerance"},
		{5000, 4, 4996, "SPLINE: rational or of degree over 3: flattened to at most 4096 lines (MaxSplineLines), coarser than SplineTolerance"},
		{8, 4, MaxSplineLines, "SPLINE: rational or of degree over 3: flattened to lines within 1e-05 of its size (SplineTolerance)"},
	} {
		code, rep, err := DXF(entitiesDXF(splineDXF(c.n, c.degree)), Options{})
		if err != nil {
			t.Fatalf("%d points: %v", c.n, err)
		}
		if lines := strings.Count(code, " L "); lines > c.maxLines {
			t.Errorf("%d points: %d lines, want at most %d", c.n, lines, c.maxLines)
		}
		if diff := cmp.Diff(map[string]int{c.note: 1}, rep.Notes); diff != "" {
			t.Errorf("%d points: notes mismatch (-want +got):\n%s", c.n, diff)
		}
	}
}

// TestCodeWriterRefusesWhileWriting: the writer holds no more than its budget, and says which.
func TestCodeWriterRefusesWhileWriting(t *testing.T) {
	t.Parallel()
	w := newCodeWriter(100, " before folding", "MaxUnfoldedBytes", "import a few layers at a time (-layers)", nil)
	for range 1000 {
		fmt.Fprintf(w, "drawLine('a', [0, 0, 1, 1]);\n")
	}
	if w.Len() > 100 {
		t.Errorf("the writer holds %d bytes, over its budget of 100", w.Len())
	}
	want := "cannot import: the module would be over 100 bytes before folding (MaxUnfoldedBytes); import a few layers at a time (-layers)"
	if err := w.Err(); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestUnfoldedBudget: a file whose module passes MaxUnfoldedBytes is refused naming it, as
// the text is written (before, the whole module was built and folded first).
func TestUnfoldedBudget(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 50_000 {
		fmt.Fprintf(&b, "0\nLINE\n8\nL%d\n10\n%d\n20\n0\n11\n%d\n21\n1\n", i%2, i, i)
	}
	// MaxTime is not under test: time enough for the race detector on a busy machine.
	_, _, err := DXF(entitiesDXF(b.String()), Options{Limits: dxf.Limits{MaxTime: 2 * time.Minute}})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "before folding (MaxUnfoldedBytes)") {
		t.Errorf("got %v, want a refusal naming MaxUnfoldedBytes", err)
	}
}

// TestConversionUnderMaxTime: MaxTime bounds the whole conversion, not just the reading: a
// file read within it whose code takes longer to write is refused naming it.
func TestConversionUnderMaxTime(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 300 { // 3,600 groups: fewer than the reader's 4,096 between two looks at the clock
		fmt.Fprintf(&b, "0\nLINE\n10\n%d\n20\n0\n11\n%d\n21\n1\n", i, i)
	}
	_, _, err := DXF(entitiesDXF(b.String()), Options{Limits: dxf.Limits{MaxTime: time.Nanosecond}})
	want := "cannot import: converting the file took over 1ns (MaxTime); import a few layers at a time (-layers) or simplify the drawing"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestOrientNearLinear: a HATCH of rings side by side tests each ring's first point against
// the few rings whose box holds it, not against every ring (10,000 rings took 23 s), and
// turns them as the test against every ring does.
func TestOrientNearLinear(t *testing.T) {
	t.Parallel()
	w := &pathWriter{eps: 1e-9}
	const side = 40
	ring := func(cx, cy, r float64, n int) {
		for i := range n {
			a := 2 * math.Pi * float64(i) / float64(n)
			p := vec{cx + r*math.Cos(a), cy + r*math.Sin(a)}
			if i == 0 {
				w.moveTo(p, true)
			} else {
				w.lineTo(p, true)
			}
		}
		w.close()
	}
	for k := range side * side {
		cx, cy := float64(k%side)*10, float64(k/side)*10
		ring(cx, cy, 4, 12)
		if k%7 == 0 { // a hole in it, and an island in the hole
			ring(cx, cy, 2, 8)
			ring(cx, cy, 1, 6)
		}
	}
	ring(195, 195, 300, 4) // one ring around them all
	// The reference: every ring's first point against every other ring.
	rings := make([][]vec, len(w.subs))
	for i, sub := range w.subs {
		rings[i] = ringOf(sub)
	}
	want := make([]bool, len(w.subs))
	for i, r := range rings {
		depth := 0
		for j, o := range rings {
			if j != i && inside(o, r[0]) {
				depth++
			}
		}
		want[i] = signedArea(r) > 0 == (depth%2 == 0)
	}
	if err := w.orient(); err != nil {
		t.Fatal(err)
	}
	for i, sub := range w.subs {
		if got := signedArea(ringOf(sub)) > 0; got != want[i] {
			t.Errorf("ring %d: counter-clockwise %v, want %v", i, got, want[i])
		}
	}
	if n := len(w.subs); w.tests > 4*n {
		t.Errorf("%d point-in-ring tests for %d rings, want at most %d", w.tests, n, 4*n)
	}
}

func ringOf(sub []pseg) []vec {
	var r []vec
	for _, s := range sub {
		r = append(r, s.samples...)
		r = append(r, s.pts[len(s.pts)-1])
	}
	return r
}

// TestNumbersInRange: every number written into code is finite and, as a coordinate, size or
// scale, within MaxCoord; otherwise the file is refused naming the value, what it is, the line
// and the limit (a DXF linetype DASHED_Xinf wrote {scale: +Inf}, an SVG of nested scales
// drawEllipse('circle1', +Inf, NaN, NaN, NaN)).
func TestNumbersInRange(t *testing.T) {
	t.Parallel()
	const outside = "is outside the scene's range -1e+15..1e+15 (MaxCoord); save the drawing in larger units, or nearer the origin"
	for _, c := range []struct{ name, body, want string }{
		{"line", "0\nLINE\n10\n0\n20\n0\n11\n1e20\n21\n1\n", "line 21: LINE: a coordinate of 1e+20 " + outside},
		{"circle", "0\nCIRCLE\n10\n0\n20\n0\n40\n2e15\n", "line 21: CIRCLE: a radius of 2e+15 " + outside},
		{"bulge", "0\nLWPOLYLINE\n70\n0\n10\n0\n20\n0\n42\n1e-300\n10\n1\n20\n0\n", "line 21: LWPOLYLINE: an arc's radius (from a bulge) of 2.4999999999999998e+299 " + outside},
		{"insert scale", "0\nINSERT\n2\nB\n41\n1e200\n", "line 21: INSERT: a scale of 1e+200 " + outside},
		{"text height", "0\nTEXT\n1\nx\n40\n1e100\n", "line 21: TEXT: a text height of 1e+100 " + outside},
		{"linetype scale", "0\nLINE\n6\nDASHED_X2\n48\n1e300\n11\n1\n", "line 21: LINE: a linetype scale (DASHED_X2 times group 48) of 2e+300 " + outside},
		{"hatch arc edge", "0\nHATCH\n2\nSOLID\n70\n1\n91\n1\n92\n0\n93\n1\n72\n2\n10\n9e14\n20\n0\n40\n9e14\n50\n0\n51\n360\n73\n1\n",
			"line 21: HATCH: a point (1.8e+15, 0) " + outside},
		{"spline", "0\nSPLINE\n71\n1\n40\n0\n40\n0\n40\n1\n40\n1\n10\n0\n20\n0\n10\n-3e15\n20\n0\n", "line 21: SPLINE: a point (-3e+15, 0) " + outside},
	} {
		_, _, err := DXF(entitiesDXF(c.body), Options{})
		if want := "cannot import: " + c.want; err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, want)
		}
	}
	svgFile := `<svg xmlns="http://www.w3.org/2000/svg"><g transform="scale(1e300)"><g transform="scale(1e300)"><circle r="1" cx="1" cy="0"/></g></g></svg>`
	_, _, err := SVG([]byte(svgFile), Options{})
	if want := "cannot import: line 1: <circle>: a coordinate of +Inf " + outside; err == nil || err.Error() != want {
		t.Errorf("svg:\n got %v\nwant %s", err, want)
	}
}

// TestLinetypeScaleNotANumber: a linetype of cadrun's own form whose scale is not a finite
// positive number is drawn as that linetype, unscaled, and noted.
func TestLinetypeScaleNotANumber(t *testing.T) {
	t.Parallel()
	code, rep, err := DXF(entitiesDXF("0\nLINE\n8\n0\n6\nDASHED_Xinf\n11\n1\n21\n1\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(code, "setLinetype('0-line1', 'dashed');") {
		t.Errorf("the line is not dashed unscaled:\n%s", code)
	}
	want := map[string]int{"LINE: linetype DASHED_Xinf: its scale is not a finite positive number, drawn dashed unscaled": 1}
	if diff := cmp.Diff(want, rep.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
	if _, err := runModule(code); err != nil {
		t.Error(err)
	}
}

// TestPercentCodes: TEXT's %%nnn is a decimal character code (a leading 0 is not octal), and
// a code that is a control character is dropped and noted, never a failed import.
func TestPercentCodes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"X%%065Y", "XAY"}, {"it%%039s", "it's"}, {"%%037", "%"}, {"%%0659", "A9"}, {"%%c10 %%d %%p%%%", "Ø10 ° ±%"},
		{"%%65", "A"}, {"%%x", "%%x"},
	} {
		if got := plainText(c.in); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	code, rep, err := DXF(entitiesDXF("0\nTEXT\n40\n2.5\n1\na%%009b%%000c\n0\nMTEXT\n40\n2.5\n1\nd\\U+0003e\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"'abc'", "'de'"} {
		if !strings.Contains(code, want) {
			t.Errorf("the module has no %s:\n%s", want, code)
		}
	}
	note := "control characters (from %%nnn, \\U+nnnn or the file) dropped: no font draws them"
	if diff := cmp.Diff(map[string]int{"TEXT: " + note: 1, "MTEXT: " + note: 1}, rep.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
	if _, err := runModule(code); err != nil {
		t.Error(err)
	}
}

// TestLayersOverMaxLayers: a drawing whose entities are on more layers than a scene holds is
// refused naming the limit, before the module is written, not when main runs it.
func TestLayersOverMaxLayers(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range scene.MaxLayers + 1 {
		fmt.Fprintf(&b, "0\nCIRCLE\n8\nL%d\n40\n1\n", i)
	}
	_, _, err := DXF(entitiesDXF(b.String()), Options{})
	want := "cannot import: the drawing puts entities on 1001 layers, over the scene's 1000 (MaxLayers); import a few layers at a time (-layers)"
	if err == nil || !errors.Is(err, ErrRefused) || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
