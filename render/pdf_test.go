package render

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/internal/inkcheck"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// pdfScenes are the scenes the PDF is checked on against cadrun's own PNG.
func pdfScenes(t *testing.T) map[string]*scene.Scene {
	t.Helper()
	kinds, err := examples.KindsScene()
	if err != nil {
		t.Fatal(err)
	}
	// Translucent fills over each other, a thick translucent stroke, a mirrored group.
	over := scene.New()
	put(t, over, "back", scene.Rect{Width: 40, Height: 30})
	do(t, over.SetFill("back", &scene.Color{0.1, 0.3, 0.9, 1}))
	put(t, over, "a", scene.Circle{Center: geom.Vec{X: -8}, Radius: 12})
	do(t, over.SetFill("a", &scene.Color{1, 0, 0, 0.5}))
	do(t, over.SetStroke("a", nil, 0))
	put(t, over, "b", scene.Ellipse{Center: geom.Vec{X: 8, Y: 4}, RX: 14, RY: 7})
	do(t, over.SetFill("b", &scene.Color{0, 0.8, 0.2, 0.6}))
	do(t, over.SetStroke("b", &scene.Color{0, 0, 0, 0.5}, 3))
	put(t, over, "arc", scene.Arc{Center: geom.Vec{Y: -10}, Radius: 8, Start: 0.3, End: 2.5})
	do(t, over.SetStroke("arc", &scene.Color{0.9, 0.6, 0, 1}, 2))
	put(t, over, "t", &scene.Text{Text: "Ab", Pos: geom.Vec{X: 12, Y: -12}, Size: 8})
	_, err = over.CreateGroup("g", []string{"arc", "t"})
	do(t, err)
	do(t, over.Scale("g", -1, 1, scene.SpaceWorld, &geom.Vec{}))
	do(t, over.Rotate("g", 0.2, scene.SpaceWorld))
	return map[string]*scene.Scene{"kinds": kinds, "overlaps": over}
}

// TestPDFMatchesPNG rasterises the PDF with poppler's pdftoppm at the size of cadrun's own
// PNG of the same scene, and wants the two pictures to agree but for anti-aliasing: few
// pixels differ by more than a quarter of the range, and those lie on edges.
func TestPDFMatchesPNG(t *testing.T) {
	t.Parallel()
	bin := pdftoppm(t)
	dir := t.TempDir()
	for name, s := range pdfScenes(t) {
		b, err := PDF(s, PDFOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pdfPath := filepath.Join(dir, name+".pdf")
		if err := os.WriteFile(pdfPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		sz := FitView(s, DefaultMargin).Size()
		w := 400
		h := int(math.Round(float64(w) * sz.Y / sz.X))
		out, err := exec.Command(bin, "-png", "-singlefile", "-scale-to-x", strconv.Itoa(w), "-scale-to-y", strconv.Itoa(h),
			pdfPath, filepath.Join(dir, name)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: pdftoppm: %v\n%s", name, err, out)
		}
		f, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := png.Decode(bytes.NewReader(f))
		if err != nil {
			t.Fatalf("%s: decoding pdftoppm's picture: %v", name, err)
		}
		theirs := image.NewRGBA(decoded.Bounds())
		draw.Draw(theirs, theirs.Rect, decoded, decoded.Bounds().Min, draw.Src)
		ours, err := Raster(s, PNGOptions{Width: w, Height: h})
		if err != nil {
			t.Fatal(err)
		}
		if ours.Rect != theirs.Rect {
			t.Fatalf("%s: pdftoppm made %v, cadrun %v", name, theirs.Rect, ours.Rect)
		}
		far, sum := 0, 0.0
		for i := 0; i < len(ours.Pix); i += 4 {
			d := 0
			for k := range 3 {
				d = max(d, absInt(int(ours.Pix[i+k])-int(theirs.Pix[i+k])))
			}
			sum += float64(d)
			if d > 64 {
				far++
			}
		}
		pixels := len(ours.Pix) / 4
		mean := sum / float64(pixels)
		t.Logf("%s: %d of %d pixels differ by more than 64; mean difference %.2f", name, far, pixels, mean)
		// Hairlines (strokes with no width of their own) are one device pixel in both, but
		// poppler and cadrun place and shade that pixel differently along slanted and curved
		// edges: about 1-1.5% of the pixels of these scenes differ by more than 64.
		if float64(far) > 0.02*float64(pixels) || mean > 3 {
			t.Errorf("%s: the PDF and the PNG disagree: %d of %d pixels differ by more than 64 (at most 2%% may), mean difference %.2f (at most 3)",
				name, far, pixels, mean)
		}
	}
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

var mediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]`)

// TestPDFPageAndScale checks the page size for each page and scale: a 100 x 50 rectangle
// (a hairline, which adds nothing to the bounds) fits a view of 110 x 60 units (5% margin).
func TestPDFPageAndScale(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Width: 100, Height: 50})
	tall := scene.New()
	put(t, tall, "r", scene.Rect{Width: 50, Height: 100})
	mm := func(v float64) string { return pdfNum(v * ptPerMM) }
	cases := []struct {
		name string
		s    *scene.Scene
		opt  PDFOptions
		want [2]string
	}{
		{"fit page 1:1 mm", s, PDFOptions{}, [2]string{mm(110), mm(60)}},
		{"fit page 1:2", s, PDFOptions{Scale: PDFScale{Paper: 0.5}}, [2]string{mm(55), mm(30)}},
		{"fit page in cm", s, PDFOptions{Unit: UnitCM, Scale: PDFScale{Paper: 0.1}}, [2]string{mm(110), mm(60)}},
		{"fit page in inches", s, PDFOptions{Unit: UnitIn}, [2]string{"7920", "4320"}},
		{"A4 landscape 1:1", s, PDFOptions{Page: "A4"}, [2]string{mm(297), mm(210)}},
		{"A4 portrait 1:1", tall, PDFOptions{Page: "A4"}, [2]string{mm(210), mm(297)}},
		{"A3 fit", s, PDFOptions{Page: "A3", Scale: PDFScale{Fit: true}}, [2]string{mm(420), mm(297)}},
		{"Letter", s, PDFOptions{Page: "Letter"}, [2]string{"792", "612"}},
	}
	for _, c := range cases {
		b, err := PDF(c.s, c.opt)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		m := mediaBox.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s: no MediaBox", c.name)
			continue
		}
		if diff := cmp.Diff(c.want, [2]string{string(m[1]), string(m[2])}); diff != "" {
			t.Errorf("%s: page size mismatch (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestPDFToScale checks that at 1:1 a 100 mm edge is 100 mm on the page: the rectangle's
// corners, in points, in the uncompressed content.
func TestPDFToScale(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Width: 100, Height: 50})
	l, err := pdfPlace(s, PDFOptions{Page: "A4"})
	if err != nil {
		t.Fatal(err)
	}
	left, right := -50*l.k+l.ox, 50*l.k+l.ox
	if got := (right - left) / ptPerMM; math.Abs(got-100) > 1e-9 {
		t.Errorf("a 100 mm edge is %v mm on paper", got)
	}
	if centre := (left + right) / 2; math.Abs(centre-l.w/2) > 1e-9 {
		t.Errorf("the drawing's centre is at %v pt, the page's at %v", centre, l.w/2)
	}
}

func TestPDFBadOptions(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Width: 400, Height: 100})
	big := scene.New()
	put(t, big, "r", scene.Rect{Width: 10000, Height: 100})
	for _, c := range []struct {
		s    *scene.Scene
		opt  PDFOptions
		want string
	}{
		{s, PDFOptions{Page: "A4"}, "bad export option: at 1:1 the drawing is 400.0 x 100.0 mm and does not fit on A4 (297.0 x 210.0 mm): use scale fit, a smaller scale (1:N) or a larger page"},
		{s, PDFOptions{Scale: PDFScale{Fit: true}}, "bad export option: scale fit needs a named page (A4, A3 or Letter); with page fit, give a scale such as 1:1"},
		{big, PDFOptions{}, "bad export option: at 1:1 the page would be 11000 x 1100 mm; a PDF page side is at most 5080 mm (MaxPDFPageSide): use a smaller scale (1:N) or a named page with scale fit"},
		{s, PDFOptions{Scale: PDFScale{Paper: 1e-4}}, "bad export option: at 1:10000 the page would be 0.04 x 0.01 mm; a PDF page side is at least 1.06 mm: use a larger scale (N:1)"},
		{s, PDFOptions{Page: "B5"}, `bad export option: page "B5": use fit, A4, A3 or Letter`},
		{s, PDFOptions{Unit: "pt"}, `bad export option: unit "pt": use mm, cm, m, in or ft`},
		{s, PDFOptions{Scale: PDFScale{Paper: -2}}, "bad export option: scale -2 must be a number > 0"},
	} {
		_, err := PDF(c.s, c.opt)
		if err == nil || err.Error() != c.want {
			t.Errorf("PDF(%+v) = %v, want %q", c.opt, err, c.want)
		}
	}
}

// TestPDFStable wants the same bytes for the same scene, and nothing that changes by itself
// (dates, IDs) in the file.
func TestPDFStable(t *testing.T) {
	t.Parallel()
	s, err := examples.KindsScene()
	if err != nil {
		t.Fatal(err)
	}
	a, err := PDF(s, PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PDF(s, PDFOptions{})
	if !bytes.Equal(a, b) {
		t.Error("two PDFs of the same scene differ")
	}
	for _, key := range []string{"/CreationDate", "/ModDate", "/ID"} {
		if bytes.Contains(a, []byte(key)) {
			t.Errorf("the PDF holds %s", key)
		}
	}
}

func TestPDFNum(t *testing.T) {
	t.Parallel()
	got := []string{}
	for _, v := range []float64{0, -0.0004, 0.0005, 1, -1, 12.5, 0.1 + 0.2, -3.14159, 1234567.8901, 595.2755905511812, -0.02} {
		got = append(got, pdfNum(v))
	}
	want := []string{"0", "0", "0.001", "1", "-1", "12.5", "0.3", "-3.142", "1234567.89", "595.276", "-0.02"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestPDFMatchesPNGThroughMuPDF rasterises the PDF of every reader scene and of the PDF's own
// scenes with MuPDF, a second reader that, unlike poppler, paints a fill and a translucent
// stroke given in one B operator as the knockout group the PDF specification makes of it, and
// wants each picture to agree with cadrun's PNG within two pixels.
func TestPDFMatchesPNGThroughMuPDF(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("mutool")
	if err != nil {
		needTool(t, "mutool (Debian package mupdf-tools)")
	}
	dir := t.TempDir()
	scenes := readerScenes(t)
	for name, s := range pdfScenes(t) {
		scenes["pdf "+name] = s
	}
	for _, name := range sortedNames(scenes) {
		s := scenes[name]
		b, err := PDF(s, PDFOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		file := strings.ReplaceAll(name, " ", "-")
		in, out := filepath.Join(dir, file+".pdf"), filepath.Join(dir, file+".png")
		if err := os.WriteFile(in, b, 0o644); err != nil {
			t.Fatal(err)
		}
		w, h, _ := readerSize(s)
		if msg, err := exec.Command(bin, "draw", "-q", "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), "-r", "600", "-l", "1", "-o", out, in).CombinedOutput(); err != nil {
			t.Fatalf("%s: mutool draw: %v\n%s", name, err, msg)
		}
		png, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		theirs := decodeRGBA(t, name, png)
		ours, err := Raster(s, PNGOptions{Width: theirs.Rect.Dx(), Height: theirs.Rect.Dy()})
		if err != nil {
			t.Fatal(err)
		}
		if err := inkcheck.Agrees(ours, theirs, 2, true); err != nil {
			t.Errorf("%s: MuPDF's picture of the PDF and cadrun's PNG disagree: %v", name, err)
			saveForReview(t, name, "mupdf", theirs, ours)
		}
	}
}

func TestPaperMM(t *testing.T) {
	s := scene.New()
	if _, err := s.Put("r", scene.Rect{Width: 400, Height: 100}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ext  string
		o    Options
		s    *scene.Scene
		want float64
		ok   bool
	}{
		{".pdf", Options{}, nil, 1, true},
		{".pdf", Options{PDF: PDFOptions{Scale: PDFScale{Paper: 0.5}, Unit: UnitCM}}, nil, 5, true},
		{".pdf", Options{PDF: PDFOptions{Page: "A4", Scale: PDFScale{Fit: true}}}, nil, 0, false},
		{".dxf", Options{DXF: DXFOptions{Unit: UnitIn}}, nil, 25.4, true},
		{".svg", Options{}, nil, 0, false},
		{".png", Options{}, nil, 0, false},
	} {
		got, ok := PaperMM(c.s, c.ext, c.o)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s %+v: %v %v, want %v %v", c.ext, c.o, got, ok, c.want, c.ok)
		}
	}
	// Fitted to A4 landscape's 297 mm less its margins, the 400-unit drawing and its margin
	// take under a millimetre a unit: what the page's own layout says.
	o := Options{PDF: PDFOptions{Page: "A4", Scale: PDFScale{Fit: true}}}
	got, ok := PaperMM(s, ".pdf", o)
	l, err := pdfPlace(s, o.PDF)
	if err != nil || !ok || got != l.k/ptPerMM || !(got > 0.5 && got < 0.75) {
		t.Errorf("A4 fit: %v %v, the layout's %v (%v)", got, ok, l.k/ptPerMM, err)
	}
}

func TestPaperMMOverflow(t *testing.T) {
	if mm, ok := PaperMM(nil, ".pdf", Options{PDF: PDFOptions{Scale: PDFScale{Paper: math.Inf(1)}}}); ok {
		t.Errorf("an infinite scale gives paper %v", mm)
	}
}
