package viewer

// The HTTP API beside the page. Every answer about the scene names the version it shows in
// the X-Cadrun-Version header, so a client can tell which state it got. The scene's SVG and
// JSON are made once per version and shared by every tab.

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/internal/strictjson"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

//go:embed page
var pageFS embed.FS

// MaxPNGWidth caps GET /api/scene.png?width=; a picture that size is 64 MiB of pixels.
const MaxPNGWidth = 4096

// Handler serves the page, the API and the events, behind the checks in guard.go.
func (v *Server) Handler() http.Handler {
	page, err := fs.Sub(pageFS, "page")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	mux := http.NewServeMux()
	files := http.FileServerFS(page)
	mux.Handle("GET /{$}", noStore(files))
	mux.Handle("GET /viewer.js", noStore(files))
	mux.Handle("GET /viewer.css", noStore(files))
	mux.Handle("GET /solids3d.js", noStore(files))
	mux.HandleFunc("GET /events", v.serveEvents)
	mux.HandleFunc("POST /events/ack", v.postAck)
	mux.HandleFunc("GET /api/scene", v.serveSceneJSON)
	mux.HandleFunc("GET /api/scene.svg", v.serveSceneSVG)
	mux.HandleFunc("GET /api/scene.png", v.serveScenePNG)
	mux.HandleFunc("GET /api/solids", v.serveSolids)
	mux.HandleFunc("GET /api/entity", v.serveEntity)
	mux.HandleFunc("GET /api/selection", v.serveSelection)
	mux.HandleFunc("POST /api/selection", v.postSelection)
	v.sketchRoutes(mux, files) // sketch.go
	if v.opt.Journal != nil {
		mux.Handle("/api/save", noStore(v.opt.Journal))
		mux.Handle("/api/search", noStore(v.opt.Journal))
	}
	return v.guard(mux)
}

func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(WriteTimeout))
		h.ServeHTTP(w, r)
	})
}

// answer writes a whole answer with the write deadline and the version header.
func answer(w http.ResponseWriter, s *snapshot, contentType string, body []byte) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(WriteTimeout))
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "no-store")
	if s != nil {
		h.Set("X-Cadrun-Version", strconv.FormatUint(s.version, 10))
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func (v *Server) serveSceneSVG(w http.ResponseWriter, r *http.Request) {
	s := v.current()
	b, err := s.SVG()
	if err != nil {
		front.APIError(w, http.StatusInternalServerError, "rendering the scene: "+err.Error())
		return
	}
	if s.solids > 0 {
		// The SVG leaves solids out: the page shows the shaded picture of scene.png instead.
		w.Header().Set("X-Cadrun-Solids", strconv.Itoa(s.solids))
	}
	answer(w, s, "image/svg+xml", b)
}

func (v *Server) serveSceneJSON(w http.ResponseWriter, r *http.Request) {
	s := v.current()
	b, err := s.JSON()
	if err != nil {
		front.APIError(w, http.StatusInternalServerError, "encoding the scene: "+err.Error())
		return
	}
	answer(w, s, "application/json", b)
}

func (v *Server) serveScenePNG(w http.ResponseWriter, r *http.Request) {
	width := render.DefaultPNGSide
	if q := r.URL.Query().Get("width"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > MaxPNGWidth {
			front.APIError(w, http.StatusBadRequest, fmt.Sprintf("bad width %.40q: give a whole number of pixels from 1 to %d (MaxPNGWidth)", q, MaxPNGWidth))
			return
		}
		width = n
	}
	// The side the solids are seen from, as `scene png` takes it: a standard view's name,
	// "sheet", or a direction x,y,z; iso when not given.
	var cam render.Camera
	if q := r.URL.Query().Get("view"); q != "" {
		c, err := render.ParseCamera(q)
		if err != nil {
			front.APIError(w, http.StatusBadRequest, err.Error()) // names the view and what is accepted
			return
		}
		cam = c
	}
	s := v.current()
	// One PNG is drawn at a time: each can take tens of megabytes while it is drawn. It is
	// sent after the lock is let go, so that a tab that reads slowly, or not at all, holds up
	// no other tab's picture for WriteTimeout.
	v.pngMu.Lock()
	if v.png.data == nil || v.png.version != s.sceneVersion || v.png.width != width || v.png.camera != cam {
		b, err := render.PNG(s.scene, render.PNGOptions{Width: width, Camera: cam, Context: r.Context()})
		if err != nil {
			v.pngMu.Unlock()
			front.APIError(w, http.StatusBadRequest, "rendering the scene: "+err.Error())
			return
		}
		v.png.version, v.png.width, v.png.camera, v.png.data = s.sceneVersion, width, cam, b
	}
	data := v.png.data
	v.pngMu.Unlock()
	answer(w, s, "image/png", data)
}

// EntityInfo is what the page shows about a selected entity.
type EntityInfo struct {
	Name        string      `json:"name"`
	Kind        scene.Kind  `json:"kind"`
	Parent      string      `json:"parent"`
	Children    int         `json:"children,omitempty"`
	ZRank       int         `json:"zRank"`
	WorldBounds geom.Box    `json:"worldBounds"`
	Style       scene.Style `json:"style"`
}

func (v *Server) serveEntity(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	s := v.current()
	d, err := s.scene.Detail(name)
	if errors.Is(err, scene.ErrNotFound) {
		front.APIError(w, http.StatusNotFound, fmt.Sprintf("no entity %.300q in scene version %d", name, s.sceneVersion))
		return
	}
	if err != nil {
		front.APIError(w, http.StatusBadRequest, err.Error())
		return
	}
	b, err := json.Marshal(EntityInfo{Name: d.Name, Kind: d.Kind, Parent: d.Parent, Children: len(d.Children), ZRank: d.ZRank, WorldBounds: d.WorldBounds, Style: d.Style})
	if err != nil {
		front.APIError(w, http.StatusInternalServerError, err.Error())
		return
	}
	answer(w, s, "application/json", b)
}

func (v *Server) serveSelection(w http.ResponseWriter, r *http.Request) {
	sel := v.Selection()
	if v.opt.Selection != nil {
		s, err := v.opt.Selection.LoadSelection()
		if err != nil {
			front.APIError(w, http.StatusInternalServerError, err.Error())
			return
		}
		v.noteSelection(s)
		sel = s
	}
	answer(w, nil, "application/json", selectionJSON(sel))
}

// decodeBody reads a request body (guard caps it at MaxBodyBytes) and decodes it by the one
// rule for JSON input: one object, valid UTF-8, no key twice, keys matching the fields
// exactly, nothing after it. encoding/json alone would store a name that is not UTF-8 as
// U+FFFD, keep the last of a repeated key and take null for an empty selection.
func decodeBody(body io.Reader, v any) error {
	b, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	return strictjson.Decode(b, v)
}

func (v *Server) postSelection(w http.ResponseWriter, r *http.Request) {
	var sel modules.Selection
	if err := decodeBody(r.Body, &sel); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			front.APIError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes (MaxBodyBytes)", MaxBodyBytes))
			return
		}
		front.APIError(w, http.StatusBadRequest, `bad selection: want {"selected":[...],"locked":[...],"hidden":[...]} (entity names): `+err.Error())
		return
	}
	saved, err := v.SetSelection(sel)
	switch {
	case errors.Is(err, modules.ErrBadSelection):
		front.APIError(w, http.StatusBadRequest, err.Error())
		return
	case err != nil:
		front.APIError(w, http.StatusInternalServerError, "saving the selection: "+err.Error())
		return
	}
	answer(w, nil, "application/json", selectionJSON(saved))
}
