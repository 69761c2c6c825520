package render

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/cadrun/cadrun/internal/browsertest"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// hairlineDashScene is dashedScene with the dashed line drawn as a hairline: its dashes are
// in scene units whatever the zoom, as a hairline's width is not.
func hairlineDashScene(t *testing.T) *scene.Scene {
	t.Helper()
	s := dashedScene(t)
	if err := s.SetStroke("dashed", &scene.Color{0, 0, 0, 1}, 0); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDashedHairlineThroughChromium shows a dashed hairline's SVG in Chromium, as the viewer
// does, and wants its dashes 6 units on and 3 off at a zoom of 10 pixels a unit, not 6 and 3
// pixels: under vector-effect="non-scaling-stroke" Chromium lays the dash array out on the
// screen, so the writer must not leave it in scene units there.
func TestDashedHairlineThroughChromium(t *testing.T) {
	t.Parallel()
	// The line falls on a pixel's middle row, so that a hairline is one dark row, not two grey.
	v := View{Min: geom.Vec{X: -5, Y: -8.05}, Max: geom.Vec{X: 95, Y: 7.95}}
	svg, err := SVG(hairlineDashScene(t), SVGOptions{View: &v, Width: 1000, Height: 160})
	if err != nil {
		t.Fatal(err)
	}
	page := []byte(`<!doctype html><html><body style="margin:0;background:#fff;overflow:hidden">` + string(svg) + `</body></html>`)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
	defer ts.Close()
	tab := browsertest.Tab(t, 1000, 160)
	if err := chromedp.Do(tab, chromedp.Navigate(ts.URL)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	checkDashRuns(t, "chromium", decodeRGBA(t, "dashed hairline", shot), 0)
}

// TestDashedHairlineFilled writes a filled shape with a dashed hairline as one <g> of its name
// on one line (the viewer's unit), holding the whole outline filled and the dashes stroked,
// and a dashed line of width > 0 with a stroke-dasharray, which every reader keeps in user
// units.
func TestDashedHairlineFilled(t *testing.T) {
	s := scene.New()
	put(t, s, "plate", scene.Rect{Width: 40, Height: 20})
	if err := s.SetFill("plate", &scene.Color{0.8, 0.8, 0.8, 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLinetype("plate", "hidden", 1); err != nil {
		t.Fatal(err)
	}
	put(t, s, "wide", scene.Line{Points: []geom.Vec{{X: -20, Y: 15}, {X: 20, Y: 15}}})
	if err := s.SetStroke("wide", &scene.Color{0, 0, 0, 1}, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLinetype("wide", "dashed", 1); err != nil {
		t.Fatal(err)
	}
	svg, err := SVG(s, SVGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var plate, wide string
	for _, l := range strings.Split(string(svg), "\n") {
		switch {
		case strings.Contains(l, `data-name="plate"`):
			plate = l
		case strings.Contains(l, `data-name="wide"`):
			wide = l
		}
	}
	if !strings.HasPrefix(plate, `<g data-name="plate"><path d=`) || strings.Count(plate, "<path") != 2 ||
		!strings.Contains(plate, `fill="#cccccc" stroke="none"`) || strings.Contains(plate, "dasharray") {
		t.Errorf("the filled dashed hairline is written as %s", plate)
	}
	if !strings.Contains(wide, `stroke-dasharray="6 3"`) {
		t.Errorf("the wide dashed line is written as %s", wide)
	}
}
