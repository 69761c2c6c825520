package viewer

// Sketches: a person draws freehand strokes over the scene in the page (the Sketch button, or
// the S key), and each stroke is posted in scene units, so that it means the same at any zoom
// and an agent reads it against the drawing's own coordinates. The strokes are kept by a
// SketchStore (the workspace's .cadrun/sketch.json), apart from the drawing; every tab is told
// of a change by a sketch event and fetches them again. A change made by another process (an
// agent's `scene sketch` with clear) is noticed by reading the store again every
// SelectionPoll while a tab is connected, as the selection is.
//
//	GET  /api/sketch        the strokes: {"strokes":[{"points":[[x,y],...]},...]}
//	POST /api/sketch        add one stroke: {"points":[[x,y],...]} (2..MaxStrokePoints points)
//	POST /api/sketch/clear  remove every stroke

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sync"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/modules"
)

// SketchStore keeps the sketch; *modules.Workspace is one. Implementations are safe for
// concurrent use.
type SketchStore interface {
	LoadSketch() (modules.Sketch, error)
	AddStroke(context.Context, modules.Stroke) (modules.Sketch, error)
	ClearSketch(context.Context) (int, error)
}

// SketchEvent is the data of a sketch event: the page fetches /api/sketch when Version moves.
type SketchEvent struct {
	Version uint64 `json:"version"`
	Strokes int    `json:"strokes"`
}

// sketchState is what the viewer last saw of the sketch.
type sketchState struct {
	sk  modules.Sketch
	ver uint64 // bumped on every change
}

// sketchStore picks the store of opt: Sketch, else the selection store when it keeps
// sketches too (a workspace does), else one in memory.
func sketchStore(opt Options) SketchStore {
	if opt.Sketch != nil {
		return opt.Sketch
	}
	if s, ok := opt.Selection.(SketchStore); ok {
		return s
	}
	return &memorySketch{}
}

func (v *Server) sketchRoutes(mux *http.ServeMux, page http.Handler) {
	mux.Handle("GET /sketch.js", noStore(page))
	mux.HandleFunc("GET /api/sketch", v.serveSketch)
	mux.HandleFunc("POST /api/sketch", v.postStroke)
	mux.HandleFunc("POST /api/sketch/clear", v.postClearSketch)
}

func (v *Server) serveSketch(w http.ResponseWriter, r *http.Request) {
	sk, err := v.sketches.LoadSketch()
	if err != nil {
		front.APIError(w, http.StatusInternalServerError, err.Error())
		return
	}
	v.noteSketch(sk)
	b, err := json.Marshal(sk)
	if err != nil {
		front.APIError(w, http.StatusInternalServerError, err.Error())
		return
	}
	answer(w, nil, "application/json", b)
}

func (v *Server) postStroke(w http.ResponseWriter, r *http.Request) {
	// Points as lists of any length, so that [x, y, z] is refused, not cut to [x, y].
	var in struct {
		Points [][]float64 `json:"points"`
	}
	if err := decodeBody(r.Body, &in); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			front.APIError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes (MaxBodyBytes); send a stroke of fewer points", MaxBodyBytes))
			return
		}
		front.APIError(w, http.StatusBadRequest, `bad stroke: want {"points":[[x,y],...]} in scene units: `+err.Error())
		return
	}
	st := modules.Stroke{Points: make([][2]float64, len(in.Points))}
	for i, p := range in.Points {
		if len(p) != 2 {
			front.APIError(w, http.StatusBadRequest, fmt.Sprintf(`bad stroke: point %d has %d numbers; give [x, y] in scene units`, i, len(p)))
			return
		}
		st.Points[i] = [2]float64{p[0], p[1]}
	}
	sk, err := v.sketches.AddStroke(r.Context(), st)
	switch {
	case errors.Is(err, modules.ErrBadSketch):
		front.APIError(w, http.StatusBadRequest, err.Error())
		return
	case err != nil:
		front.APIError(w, http.StatusInternalServerError, "saving the stroke: "+err.Error())
		return
	}
	v.noteSketch(sk)
	b, _ := json.Marshal(map[string]int{"strokes": len(sk.Strokes), "points": sk.Points()})
	answer(w, nil, "application/json", b)
}

func (v *Server) postClearSketch(w http.ResponseWriter, r *http.Request) {
	n, err := v.sketches.ClearSketch(r.Context())
	if err != nil {
		front.APIError(w, http.StatusInternalServerError, "clearing the sketch: "+err.Error())
		return
	}
	v.noteSketch(modules.Sketch{Strokes: []modules.Stroke{}})
	b, _ := json.Marshal(map[string]int{"cleared": n})
	answer(w, nil, "application/json", b)
}

// noteSketch tells every tab when sk differs from the sketch last seen.
func (v *Server) noteSketch(sk modules.Sketch) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(sk.Strokes) == 0 && len(v.sketch.sk.Strokes) == 0 || reflect.DeepEqual(sk, v.sketch.sk) {
		return
	}
	v.sketch.sk = sk
	v.sketch.ver++
	v.wakeLocked()
}

// pollSketch reads the store again, to notice another process's change.
func (v *Server) pollSketch() {
	if sk, err := v.sketches.LoadSketch(); err == nil {
		v.noteSketch(sk)
	}
}

// memorySketch keeps a sketch in memory, for a viewer without a workspace.
type memorySketch struct {
	mu sync.Mutex
	sk modules.Sketch
}

func (m *memorySketch) LoadSketch() (modules.Sketch, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return modules.Sketch{Strokes: append([]modules.Stroke{}, m.sk.Strokes...)}, nil
}

func (m *memorySketch) AddStroke(_ context.Context, st modules.Stroke) (modules.Sketch, error) {
	if err := st.Check(); err != nil {
		return modules.Sketch{}, err
	}
	st = st.Round() // as a workspace keeps it
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.sk.Strokes) >= modules.MaxSketchStrokes || m.sk.Points()+len(st.Points) > modules.MaxSketchPoints {
		return modules.Sketch{}, fmt.Errorf("%w: the sketch is full (MaxSketchStrokes %d, MaxSketchPoints %d); clear it to draw more", modules.ErrBadSketch, modules.MaxSketchStrokes, modules.MaxSketchPoints)
	}
	m.sk.Strokes = append(m.sk.Strokes[:len(m.sk.Strokes):len(m.sk.Strokes)], st)
	return modules.Sketch{Strokes: m.sk.Strokes}, nil
}

func (m *memorySketch) ClearSketch(context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.sk.Strokes)
	m.sk.Strokes = nil
	return n, nil
}
