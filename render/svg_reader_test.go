package render

// The SVG is checked by readers cadrun did not write: librsvg (rsvg-convert) and Chromium
// rasterise it, and the picture must show what cadrun's own PNG shows. A golden file compares
// the writer with its own earlier output and cannot tell a wrong picture from a right one (the
// sweep flags of every arc were inverted for a long time and every golden passed); these tests
// can.

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
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/internal/inkcheck"
	"github.com/cadrun/cadrun/scene"
)

// readerScenes are the scenes every independent reader is run on (examples.ReaderScenes).
func readerScenes(t *testing.T) map[string]*scene.Scene {
	t.Helper()
	scenes, err := examples.ReaderScenes(os.DirFS(filepath.Join("..", "examples")))
	if err != nil {
		t.Fatal(err)
	}
	return scenes
}

// readerWidth is the width in pixels at which the readers' pictures and cadrun's are compared.
const readerWidth = 480

// hairlinesAsPixels rewrites the strokes of an SVG sized in screen pixels (hairlines, one
// pixel whatever the zoom, and hatch dots, through vector-effect, which librsvg ignores) as
// strokes of that many pixels in user units at the given pixels per unit, so that a reader
// without vector-effect draws what a browser does.
func hairlinesAsPixels(svg []byte, pxPerUnit float64) []byte {
	return screenStroke.ReplaceAllFunc(svg, func(m []byte) []byte {
		px, _ := strconv.ParseFloat(string(screenStroke.FindSubmatch(m)[1]), 64)
		return []byte(`stroke-width="` + strconv.FormatFloat(px/pxPerUnit, 'g', 6, 64) + `"`)
	})
}

var screenStroke = regexp.MustCompile(`stroke-width="([0-9.]+)" vector-effect="non-scaling-stroke"`)

// readerSize is the picture size the readers and cadrun's PNG are compared at, and the
// pixels per world unit.
func readerSize(s *scene.Scene) (w, h int, pxPerUnit float64) {
	sz := FitView(s, DefaultMargin).Size()
	w = readerWidth
	h = int(math.Round(float64(w) * sz.Y / sz.X))
	return w, h, float64(w) / sz.X
}

// TestSVGMatchesPNGThroughLibrsvg rasterises every reader scene's SVG with rsvg-convert and
// wants each ink pixel of either picture to be matched in the other within two pixels.
func TestSVGMatchesPNGThroughLibrsvg(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		needTool(t, "rsvg-convert (Debian librsvg2-bin)")
	}
	dir := t.TempDir()
	scenes := readerScenes(t)
	for _, name := range sortedNames(scenes) {
		s := scenes[name]
		w, h, ppu := readerSize(s)
		svg, err := SVG(s, SVGOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		in := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".svg")
		if err := os.WriteFile(in, hairlinesAsPixels(svg, ppu), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-w", strconv.Itoa(w), "-h", strconv.Itoa(h), "-b", "white", in).Output()
		if err != nil {
			t.Fatalf("%s: rsvg-convert: %v", name, err)
		}
		theirs := decodeRGBA(t, name, out)
		ours, err := Raster(s, PNGOptions{Width: w, Height: h})
		if err != nil {
			t.Fatal(err)
		}
		if err := inkcheck.Agrees(ours, theirs, 2, false); err != nil {
			t.Errorf("%s: librsvg's picture of the SVG and cadrun's PNG disagree: %v", name, err)
			saveForReview(t, name, "librsvg", theirs, ours)
		}
	}
}

func sortedNames(m map[string]*scene.Scene) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// decodeRGBA decodes a reader's PNG with Go's decoder.
func decodeRGBA(t *testing.T, name string, b []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: decoding the reader's picture: %v", name, err)
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	return rgba
}

// saveForReview writes both pictures under CADRUN_READER_OUT, when set, so that a
// disagreement can be looked at.
func saveForReview(t *testing.T, name, reader string, theirs, ours *image.RGBA) {
	dir := os.Getenv("CADRUN_READER_OUT")
	if dir == "" {
		t.Logf("set CADRUN_READER_OUT=DIR to keep both pictures")
		return
	}
	for who, img := range map[string]*image.RGBA{reader: theirs, "cadrun": ours} {
		b, err := encodePNG(img)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+"."+who+".png"), b, 0o644)
		}
		if err != nil {
			t.Log(err)
		}
	}
}
