package render

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/cadrun/cadrun/internal/browsertest"
	"github.com/cadrun/cadrun/internal/inkcheck"
)

func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Close()
	os.Exit(code)
}

// TestSVGMatchesPNGThroughChromium shows every reader scene's SVG in Chromium, as the viewer
// and a browser opening an exported file do (vector-effect included: hairlines stay one
// pixel), takes a screenshot, and wants it to agree with cadrun's PNG within two pixels.
func TestSVGMatchesPNGThroughChromium(t *testing.T) {
	t.Parallel()
	scenes := readerScenes(t)
	pages := map[string][]byte{}
	sizes := map[string][2]int{}
	for name, s := range scenes {
		w, h, _ := readerSize(s)
		svg, err := SVG(s, SVGOptions{Width: float64(w), Height: float64(h)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		key := "/" + strings.ReplaceAll(name, " ", "-")
		pages[key] = []byte(`<!doctype html><html><body style="margin:0;background:#fff;overflow:hidden">` + string(svg) + `</body></html>`)
		sizes[name] = [2]int{w, h}
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(b)
	}))
	defer ts.Close()
	for _, name := range sortedNames(scenes) {
		wh := sizes[name]
		tab := browsertest.Tab(t, wh[0], wh[1])
		url := ts.URL + "/" + strings.ReplaceAll(name, " ", "-")
		if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		theirs := decodeRGBA(t, name, shot)
		ours, err := Raster(scenes[name], PNGOptions{Width: wh[0], Height: wh[1]})
		if err != nil {
			t.Fatal(err)
		}
		if theirs.Rect != ours.Rect {
			t.Fatalf("%s: Chromium's screenshot is %v, cadrun's picture %v (a device scale other than 1?); the page asked for %s x %s",
				name, theirs.Rect, ours.Rect, strconv.Itoa(wh[0]), strconv.Itoa(wh[1]))
		}
		if err := inkcheck.Agrees(ours, theirs, 2, false); err != nil {
			t.Errorf("%s: Chromium's picture of the SVG and cadrun's PNG disagree: %v", name, err)
			saveForReview(t, name, "chromium", theirs, ours)
		}
	}
}
