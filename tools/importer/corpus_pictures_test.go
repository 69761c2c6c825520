package importer

// The import corpus: public test suites and example drawings nobody here wrote (Debian's
// librsvg2-tests and inkscape's examples for SVG; the DXF files that Debian packages ship),
// each imported, its module run, and its picture compared with a reader cadrun did not write:
// the suite's reference PNG or rsvg-convert for an SVG, ezdxf's drawing add-on for a DXF.
// `make corpus` fetches the packages and runs TestImportCorpus on them (minutes);
// TestImportCorpusSample runs the same check on a few files in the ordinary tests, so that the
// check itself is tested. docs/import-corpus.md has the counts and how to read them.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/inkcheck"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// How pictures are compared. A pixel is matched when the other picture has one of about its
// colour (an SVG: inkcheck's rule) or any ink (a DXF, whose readers choose their own line
// widths and ACI shades) within pictureRadius pixels; a picture matches when the unmatched
// pixels of both are at most the share stated of both pictures' pixels that are not white (an
// SVG) or of their ink (a DXF), so that a small drawing on a large page is held to its drawing,
// not to its page. Anti-aliasing and a pixel's placement leave well under it; a shape missing,
// moved or bent the wrong way leaves more.
const (
	pictureRadius = 2
	svgMatchShare = 0.05 // unmatched pixels, of both pictures' pixels that are not white
	dxfMatchShare = 0.05 // unmatched ink, of both pictures' ink
	svgSide       = 512  // an SVG drawn by rsvg-convert is this long on its longer side
	dxfW, dxfH    = 800, 600
)

// Outcomes of one file.
const (
	outMatch     = "picture matches"
	outMismatch  = "picture differs"
	outNoRef     = "imported, no reference picture"
	outRefused   = "refused"
	outFails     = "module fails"
	outUnreadble = "unreadable"
)

// corpusResult is what one file came to.
type corpusResult struct {
	File    string
	Format  string
	Outcome string
	Reason  string  // why refused, failing or without a reference; what differs
	Share   float64 // the unmatched share of a compared picture
	Skipped int     // entities the import skipped or noted
	Text    bool    // the drawing has text, which each reader draws in its own font
}

// corpusCheck imports files and compares their pictures.
type corpusCheck struct {
	rsvg   string     // rsvg-convert
	dxf    *dxfDrawer // ezdxf's drawing add-on, in one python process
	review string     // where the pictures of files that differ go; "" for nowhere
	tmp    string
}

func newCorpusCheck(t *testing.T, review string) *corpusCheck {
	t.Helper()
	c := &corpusCheck{review: review, tmp: t.TempDir()}
	var err error
	if c.rsvg, err = exec.LookPath("rsvg-convert"); err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	c.dxf = startDXFDrawer(t)
	return c
}

// check imports one file and compares its picture.
func (c *corpusCheck) check(path string) corpusResult {
	res := corpusResult{File: path}
	data, err := os.ReadFile(path)
	if err != nil {
		res.Outcome, res.Reason = outUnreadble, err.Error()
		return res
	}
	if strings.HasSuffix(path, ".svgz") { // the importer asks for it decompressed: so be it
		if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			if b, err := io.ReadAll(io.LimitReader(zr, 64<<20)); err == nil {
				data = b
			}
		}
	}
	res.Format, err = Format("", strings.TrimSuffix(path, "z"), data)
	if err != nil {
		res.Outcome, res.Reason = outRefused, reasonOf(err)
		return res
	}
	opt := Options{Source: filepath.Base(path)}
	if res.Format == "svg" {
		opt.Units = "px" // a pixel a scene unit, as the reference pictures are drawn
	}
	code, rep, err := Import(res.Format, data, opt)
	if err != nil {
		res.Outcome, res.Reason = outRefused, reasonOf(err)
		return res
	}
	for _, m := range []map[string]int{rep.Skipped, rep.Notes} {
		for _, n := range m {
			res.Skipped += n
		}
	}
	res.Text = rep.Kinds["text"]+rep.Kinds["TEXT"]+rep.Kinds["MTEXT"] > 0
	src := importedSource(code)
	maps.Copy(src, rep.Data)
	run, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
	if err != nil {
		res.Outcome, res.Reason = outFails, reasonOf(err)
		return res
	}
	var ours, theirs *image.RGBA
	var why string
	if res.Format == "dxf" {
		ours, theirs, why = c.dxfPictures(path, run.Scene)
	} else {
		ours, theirs, why = c.svgPictures(path, data, run.Scene)
	}
	if why != "" {
		res.Outcome, res.Reason = outNoRef, why
		return res
	}
	if res.Format == "dxf" {
		far, ink := inkUnmatched(ours, theirs, pictureRadius)
		res.Share = float64(far) / float64(max(ink, 1))
		res.Outcome = outcomeOf(res.Share <= dxfMatchShare)
	} else {
		far, _ := inkcheck.Unmatched(ours, theirs, pictureRadius, false)
		res.Share = float64(far) / float64(max(inked(ours, theirs), 1))
		res.Outcome = outcomeOf(res.Share <= svgMatchShare)
	}
	if res.Outcome == outMismatch && c.review != "" {
		base := strings.NewReplacer("/", "_", " ", "_").Replace(strings.TrimPrefix(path, "/"))
		for name, img := range map[string]*image.RGBA{"-cadrun.png": ours, "-reader.png": theirs} {
			var b bytes.Buffer
			if png.Encode(&b, img) == nil {
				_ = os.WriteFile(filepath.Join(c.review, base+name), b.Bytes(), 0o644)
			}
		}
	}
	return res
}

func outcomeOf(match bool) string {
	if match {
		return outMatch
	}
	return outMismatch
}

// reasonOf is an error as a reason to count: its first clause without line numbers, numbers
// or quoted names, so that files refused for one reason count together.
func reasonOf(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = regexp.MustCompile(`^(line \d+: |[\w.-]+\.js:\d+:\d+: )`).ReplaceAllString(s, "")
	s = regexp.MustCompile(`"[^"]*"|'[^']*'|<[^>]*>`).ReplaceAllString(s, "Q")
	s = regexp.MustCompile(`[-+]?\d[\d.e+-]*`).ReplaceAllString(s, "N")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}

// dxfPictures draws the file with ezdxf and the scene over the window ezdxf framed.
func (c *corpusCheck) dxfPictures(path string, s *scene.Scene) (ours, theirs *image.RGBA, why string) {
	out := filepath.Join(c.tmp, "ezdxf.png")
	box, err := c.dxf.draw(path, out)
	if err != nil {
		return nil, nil, "ezdxf: " + err.Error()
	}
	if theirs, err = readPNG(out); err != nil {
		return nil, nil, "ezdxf's picture: " + err.Error()
	}
	view := &render.View{Min: geom.Vec{X: box[0], Y: box[1]}, Max: geom.Vec{X: box[2], Y: box[3]}}
	if ours, err = render.Raster(s, render.PNGOptions{Width: dxfW, Height: dxfH, View: view}); err != nil {
		return nil, nil, "cadrun's picture: " + err.Error()
	}
	return ours, theirs, ""
}

// svgPictures draws the file as the suite's reference PNG has it (NAME-ref.png beside it),
// else with rsvg-convert, and the scene over the file's viewport.
func (c *corpusCheck) svgPictures(path string, data []byte, s *scene.Scene) (ours, theirs *image.RGBA, why string) {
	vp, ok := svgViewport(data)
	if !ok { // no size and no viewBox: user units are pixels, from the origin, at librsvg's size
		out, err := exec.Command(c.rsvg, "-b", "white", path).Output()
		if err != nil {
			return nil, nil, "rsvg-convert: " + strings.TrimSpace(err.Error())
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(out))
		if err != nil {
			return nil, nil, "rsvg-convert's picture: " + err.Error()
		}
		w, h := float64(cfg.Width), float64(cfg.Height)
		vp = viewport{w: w, h: h, vw: w, vh: h, sx: 1, sy: 1}
	}
	ref := strings.TrimSuffix(strings.TrimSuffix(path, "z"), ".svg") + "-ref.png"
	var err error
	if theirs, err = readPNG(ref); err != nil {
		k := svgSide / max(vp.w, vp.h)
		w, h := max(1, int(math.Round(vp.w*k))), max(1, int(math.Round(vp.h*k)))
		cmd := exec.Command(c.rsvg, "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), "-b", "white")
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			return nil, nil, "rsvg-convert: " + strings.TrimSpace(err.Error())
		}
		img, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			return nil, nil, "rsvg-convert's picture: " + err.Error()
		}
		theirs = onWhite(img)
	}
	view := &render.View{Min: geom.Vec{X: vp.x * vp.sx, Y: -(vp.y + vp.vh) * vp.sy}, Max: geom.Vec{X: (vp.x + vp.vw) * vp.sx, Y: -vp.y * vp.sy}}
	ours, err = render.Raster(s, render.PNGOptions{Width: theirs.Rect.Dx(), Height: theirs.Rect.Dy(), View: view})
	if err != nil {
		return nil, nil, "cadrun's picture: " + err.Error()
	}
	return ours, theirs, ""
}

// viewport is an SVG root's: its size in pixels (w, h), its viewBox (x, y, vw, vh, in user
// units) and the pixels a user unit makes (sx, sy), which with the import's -units px are
// the scene units a user unit makes.
type viewport struct{ w, h, x, y, vw, vh, sx, sy float64 }

// svgViewport reads the root's width, height, viewBox and preserveAspectRatio as librsvg
// sizes the picture: the viewBox's size when the root gives no absolute size.
func svgViewport(data []byte) (viewport, bool) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	for {
		tok, err := dec.Token()
		if err != nil {
			return viewport{}, false
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := func(name string) string {
			for _, a := range el.Attr {
				if a.Name.Local == name {
					return strings.TrimSpace(a.Value)
				}
			}
			return ""
		}
		w, okw := pixels(attr("width"))
		h, okh := pixels(attr("height"))
		vb := strings.FieldsFunc(attr("viewBox"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
		var v [4]float64
		hasVB := len(vb) == 4
		for i := range vb {
			if f, err := strconv.ParseFloat(vb[i], 64); err != nil || i < 4 && i >= 2 && f <= 0 {
				hasVB = false
			} else if i < 4 {
				v[i] = f
			}
		}
		switch {
		case hasVB && !okw && !okh:
			w, h = v[2], v[3]
		case hasVB && !okh:
			h = w * v[3] / v[2]
		case hasVB && !okw:
			w = h * v[2] / v[3]
		case !hasVB && okw && okh:
			v = [4]float64{0, 0, w, h}
		default:
			if !hasVB {
				return viewport{}, false
			}
		}
		vp := viewport{w: w, h: h, x: v[0], y: v[1], vw: v[2], vh: v[3], sx: w / v[2], sy: h / v[3]}
		if !strings.HasPrefix(attr("preserveAspectRatio"), "none") {
			vp.sx = min(vp.sx, vp.sy)
			vp.sy = vp.sx
		}
		return vp, w > 0 && h > 0
	}
}

// pixels reads an absolute length in CSS pixels; a percentage is not one.
func pixels(s string) (float64, bool) {
	units := map[string]float64{"": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96.0 / 72, "pc": 16, "em": 16, "ex": 8}
	for u, k := range units {
		if n, ok := strings.CutSuffix(s, u); ok && (u != "" || s != "") {
			if f, err := strconv.ParseFloat(strings.TrimSpace(n), 64); err == nil && f > 0 {
				return f * k, true
			}
		}
	}
	return 0, false
}

func readPNG(path string) (*image.RGBA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, err
	}
	return onWhite(img), nil
}

// onWhite is img over white, as the pictures are compared.
func onWhite(img image.Image) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(out, out.Rect, image.White, image.Point{}, draw.Src)
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Over)
	return out
}

// inked counts the pixels of a and of b that are not white.
func inked(a, b *image.RGBA) int {
	n := 0
	for _, p := range []*image.RGBA{a, b} {
		for i := 0; i+2 < len(p.Pix); i += 4 {
			if min(p.Pix[i], p.Pix[i+1], p.Pix[i+2]) < 255-inkcheck.Tolerance {
				n++
			}
		}
	}
	return n
}

// inkUnmatched counts the ink pixels of each picture with no ink of the other within r
// pixels, and all the ink of both: a pixel is ink when a channel is a tenth away from white
// (a light grey line, ACI 9, is ink).
func inkUnmatched(a, b *image.RGBA, r int) (unmatched, ink int) {
	if a.Rect != b.Rect {
		return 1, 1
	}
	w, h := a.Rect.Dx(), a.Rect.Dy()
	mask := func(p *image.RGBA) []bool {
		m := make([]bool, w*h)
		for y := range h {
			for x := range w {
				i := p.PixOffset(x, y)
				m[y*w+x] = min(p.Pix[i], p.Pix[i+1], p.Pix[i+2]) < 230
			}
		}
		return m
	}
	// sums is the summed-area table of m, so that a box's ink is four reads.
	sums := func(m []bool) []int {
		s := make([]int, (w+1)*(h+1))
		for y := range h {
			row := 0
			for x := range w {
				if m[y*w+x] {
					row++
				}
				s[(y+1)*(w+1)+x+1] = s[y*(w+1)+x+1] + row
			}
		}
		return s
	}
	ma, mb := mask(a), mask(b)
	for _, pair := range [2][2][]bool{{ma, mb}, {mb, ma}} {
		p, s := pair[0], sums(pair[1])
		for y := range h {
			for x := range w {
				if !p[y*w+x] {
					continue
				}
				ink++
				x0, y0, x1, y1 := max(x-r, 0), max(y-r, 0), min(x+r+1, w), min(y+r+1, h)
				if s[y1*(w+1)+x1]-s[y0*(w+1)+x1]-s[y1*(w+1)+x0]+s[y0*(w+1)+x0] == 0 {
					unmatched++
				}
			}
		}
	}
	return unmatched, ink
}

// dxfDrawer is testdata/dxfdraw.py in one python process for a whole run.
type dxfDrawer struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startDXFDrawer(t *testing.T) *dxfDrawer {
	t.Helper()
	py := "/usr/bin/python3" // Debian's, with ezdxf and matplotlib
	if exec.Command(py, "-c", "import ezdxf, matplotlib").Run() != nil {
		needTool(t, "python3 with ezdxf and matplotlib (Debian python3-ezdxf, python3-matplotlib)")
	}
	d := &dxfDrawer{t: t}
	d.start(py)
	t.Cleanup(d.stop)
	return d
}

func (d *dxfDrawer) start(py string) {
	d.cmd = exec.Command(py, filepath.Join("testdata", "dxfdraw.py"), strconv.Itoa(dxfW), strconv.Itoa(dxfH))
	d.cmd.Stderr = io.Discard
	var err error
	if d.in, err = d.cmd.StdinPipe(); err != nil {
		d.t.Fatal(err)
	}
	out, err := d.cmd.StdoutPipe()
	if err != nil {
		d.t.Fatal(err)
	}
	if err := d.cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.lines = make(chan string)
	go func(r *bufio.Reader, lines chan<- string) {
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}(bufio.NewReaderSize(out, 1<<16), d.lines)
}

func (d *dxfDrawer) stop() {
	d.in.Close()
	d.cmd.Process.Kill()
	d.cmd.Wait()
}

// maxDrawTime bounds ezdxf's drawing of one file; past it the process is replaced.
const maxDrawTime = 2 * time.Minute

// draw has ezdxf draw src into the PNG out and returns the window it shows.
func (d *dxfDrawer) draw(src, out string) ([4]float64, error) {
	var box [4]float64
	if _, err := fmt.Fprintf(d.in, "%s\t%s\n", src, out); err != nil {
		return box, err
	}
	select {
	case l, ok := <-d.lines:
		if !ok {
			d.stop()
			d.start(d.cmd.Path)
			return box, fmt.Errorf("the drawing process ended")
		}
		var ans struct {
			Box []float64
			Err string
		}
		if err := json.Unmarshal([]byte(l), &ans); err != nil || ans.Err != "" || len(ans.Box) != 4 {
			return box, fmt.Errorf("%s", cmpOr(ans.Err, "no window"))
		}
		copy(box[:], ans.Box)
		return box, nil
	case <-time.After(maxDrawTime):
		d.stop()
		d.start(d.cmd.Path)
		return box, fmt.Errorf("drawing took over %v", maxDrawTime)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// drawingsUnder lists the DXF, SVG and SVGZ files under dirs, sorted.
func drawingsUnder(dirs []string) []string {
	var files []string
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			ext := strings.ToLower(filepath.Ext(p))
			if err == nil && !d.IsDir() && (ext == ".dxf" || ext == ".svg" || ext == ".svgz") {
				files = append(files, p)
			}
			return nil
		})
	}
	slices.Sort(files)
	return files
}

// corpusSummary counts the results by format and outcome, and the refusals and failures by
// reason.
func corpusSummary(results []corpusResult) string {
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Format+"\t"+r.Outcome]++
		if r.Outcome == outRefused || r.Outcome == outFails || r.Outcome == outNoRef {
			counts[r.Format+"\t"+r.Outcome+": "+r.Reason]++
		}
		if (r.Outcome == outMatch || r.Outcome == outMismatch) && r.Skipped == 0 && !r.Text {
			counts[r.Format+"\tcompared, nothing skipped or noted, no text: "+r.Outcome]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d files; a picture matches within %d px when at most %g%% of an SVG's pixels that are not white, or %g%% of a DXF's ink, both pictures' counted, is unmatched\n",
		len(results), pictureRadius, svgMatchShare*100, dxfMatchShare*100)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		indent := ""
		if strings.Contains(k, ": ") {
			indent = "  "
		}
		fmt.Fprintf(&b, "%s%s\t%d\n", indent, k, counts[k])
	}
	return b.String()
}

// corpusReport is the per-file report: one tab-separated line a file.
func corpusReport(results []corpusResult) string {
	var b strings.Builder
	b.WriteString("file\tformat\toutcome\tunmatched share\tskipped or noted\ttext\treason\n")
	for _, r := range results {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%.4f\t%d\t%t\t%s\n", r.File, r.Format, r.Outcome, r.Share, r.Skipped, r.Text, r.Reason)
	}
	return b.String()
}

// TestImportCorpus imports every file under the folders CADRUN_CORPUS names (separated by
// colons; `make corpus` fetches them) and compares each picture with its reader's. It
// writes report.tsv and summary.txt, and the pictures of the files that differ, to
// CADRUN_CORPUS_OUT (default out/corpus). It fails only for what must never happen: a module
// the importer wrote that does not run.
func TestImportCorpus(t *testing.T) {
	dirs := os.Getenv("CADRUN_CORPUS")
	if dirs == "" {
		t.Skip("CADRUN_CORPUS names no folders; make corpus runs this")
	}
	out := cmpOr(os.Getenv("CADRUN_CORPUS_OUT"), filepath.Join("..", "..", "out", "corpus"))
	review := filepath.Join(out, "differs")
	if err := os.MkdirAll(review, 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCorpusCheck(t, review)
	files := drawingsUnder(strings.Split(dirs, ":"))
	if len(files) == 0 {
		t.Fatalf("no DXF or SVG files under %s", dirs)
	}
	var results []corpusResult
	for i, f := range files {
		r := c.check(f)
		results = append(results, r)
		if r.Outcome == outFails {
			t.Errorf("%s: the module does not run: %s", f, r.Reason)
		}
		if (i+1)%100 == 0 {
			t.Logf("%d of %d files", i+1, len(files))
		}
	}
	summary := corpusSummary(results)
	if err := os.WriteFile(filepath.Join(out, "report.tsv"), []byte(corpusReport(results)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "summary.txt"), []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s\nper file: %s", summary, filepath.Join(out, "report.tsv"))
}

// TestImportCorpusSample runs the corpus check on a few files of testdata/corpus, so that the
// check itself is tested: files drawn alike match, a file with what the import skips (an
// <image>, a 3DFACE out of the plane) differs, a file the importer refuses is counted with its
// reason, and a reference PNG beside a file is taken over rsvg-convert.
func TestImportCorpusSample(t *testing.T) {
	t.Parallel()
	c := newCorpusCheck(t, "")
	dir := t.TempDir()
	files := drawingsUnder([]string{filepath.Join("testdata", "corpus")})
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The suite's reference, as librsvg2-tests ships them: the picture at the file's own size.
	ref := filepath.Join(dir, "reference-ref.png")
	if out, err := exec.Command(c.rsvg, "-b", "white", "-o", ref, filepath.Join(dir, "reference.svg")).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, out)
	}
	want := map[string]string{
		"comma.dxf":     outRefused + ": group N needs a finite number, got Q",
		"face3d.dxf":    outMismatch,
		"image.svg":     outMismatch,
		"lines.dxf":     outMatch,
		"reference.svg": outMatch,
		"shapes.svg":    outMatch,
	}
	var results []corpusResult
	for _, f := range drawingsUnder([]string{dir}) {
		r := c.check(f)
		results = append(results, r)
		got := r.Outcome
		if r.Outcome == outRefused {
			got += ": " + r.Reason
		}
		if name := filepath.Base(f); got != want[name] {
			t.Errorf("%s: %s (%.4f unmatched, %s), want %s", name, got, r.Share, r.Reason, want[name])
		}
	}
	if len(results) != len(want) {
		t.Errorf("%d files checked, want %d", len(results), len(want))
	}
	// The reference PNG was read: moved off, the file is drawn by rsvg-convert at another size.
	if err := os.Remove(ref); err != nil {
		t.Fatal(err)
	}
	if r := c.check(filepath.Join(dir, "reference.svg")); r.Outcome != outMatch {
		t.Errorf("reference.svg through rsvg-convert: %s (%.4f)", r.Outcome, r.Share)
	}
	t.Logf("%s", corpusSummary(results))
}
