package viewer

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/modules"
)

// FuzzPostSelection sends any body to POST /api/selection: the answer is 200 with the saved
// selection, or a refusal that leaves the workspace's selection as it was.
func FuzzPostSelection(f *testing.F) {
	ws, post := fuzzPost(f,
		`{"selected":["a"],"locked":[],"hidden":["b"]}`,
		`{"selected":[""]}`,
		`{"selected":null}`,
		`{"picked":1}`,
		`[]`,
		`{"selected":["a","a","\u00e9"]}`,
		`{"selected":["a"]} trailing`,
		"",
	)
	f.Fuzz(func(t *testing.T, body string) {
		before, err := ws.LoadSelection()
		if err != nil {
			t.Fatal(err)
		}
		w := post("/api/selection", body)
		after, err := ws.LoadSelection()
		if err != nil {
			t.Fatalf("after %q the selection cannot be read: %v", body, err)
		}
		switch w.Code {
		case http.StatusOK:
			if got := strings.TrimSpace(w.Body.String()); got != string(selectionJSON(after)) {
				t.Errorf("answered %s, saved %s", got, selectionJSON(after))
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			if !after.Equal(before) {
				t.Errorf("refused %q (%s) but the selection changed from %v to %v", body, w.Body, before, after)
			}
		default:
			t.Errorf("POST %q: %d %s", body, w.Code, w.Body)
		}
	})
}

// FuzzPostStroke sends any body to POST /api/sketch: the answer is 200 with one more stroke
// saved, or a refusal that leaves the workspace's sketch as it was.
func FuzzPostStroke(f *testing.F) {
	ws, post := fuzzPost(f,
		`{"points":[[0,0],[1,2]]}`,
		`{"points":[[0,0]]}`,
		`{"points":[[0,0,1],[1,2]]}`,
		`{"points":[[0,0],[1e300,2]]}`,
		`{"points":null}`,
		`{"pts":1}`,
		`[]`,
		`{"points":[[0,0],[1,2]]} trailing`,
		"",
	)
	f.Fuzz(func(t *testing.T, body string) {
		before, err := ws.LoadSketch()
		if err != nil {
			t.Fatal(err)
		}
		if len(before.Strokes) >= modules.MaxSketchStrokes-1 {
			if _, err := ws.ClearSketch(t.Context()); err != nil {
				t.Fatal(err)
			}
			before, _ = ws.LoadSketch()
		}
		w := post("/api/sketch", body)
		after, err := ws.LoadSketch()
		if err != nil {
			t.Fatalf("after %q the sketch cannot be read: %v", body, err)
		}
		switch w.Code {
		case http.StatusOK:
			if len(after.Strokes) != len(before.Strokes)+1 {
				t.Errorf("answered %s, but the sketch went from %d to %d strokes", w.Body, len(before.Strokes), len(after.Strokes))
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			if len(after.Strokes) != len(before.Strokes) || after.Points() != before.Points() {
				t.Errorf("refused %q (%s) but the sketch changed", body, w.Body)
			}
		default:
			t.Errorf("POST %q: %d %s", body, w.Code, w.Body)
		}
	})
}

// fuzzPost adds the seeds to f and answers a viewer's workspace (new, empty, closed with f)
// and a function that POSTs a body to one of the viewer's paths from the local host.
func fuzzPost(f *testing.F, seeds ...string) (*modules.Workspace, func(path, body string) *httptest.ResponseRecorder) {
	for _, seed := range seeds {
		f.Add(seed)
	}
	ws, err := modules.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ws.Close() })
	v := New(Options{Selection: ws})
	f.Cleanup(v.Close)
	h := v.Handler()
	return ws, func(path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.RemoteAddr = "127.0.0.1:1"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
}
