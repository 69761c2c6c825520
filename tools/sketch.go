package tools

// What a person draws by hand over the scene in the viewer (modules.Sketch) reaches the agent
// as points in scene units: scene sketch answers them, simplified (Ramer–Douglas–Peucker) at
// a tolerance relative to the size of the scene and the sketch together, so that a wobbly
// stroke of hundreds of points comes as the few corners it means; a sketch too large for the
// budget is simplified more coarsely until it fits, and the answer says so. scene png draws
// the strokes over the scene in a colour of their own. The sketch is never part of the
// drawing: no run sees it, and the history does not keep it.

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// sketchColour is the colour of the sketch in pictures: magenta, which drawings seldom use.
var sketchColour = scene.Color{0.85, 0, 0.85, 1}

// sketchTolerance is the simplification's tolerance as a fraction of the larger side of the
// scene and the sketch together: well under what a hand can mean.
const sketchTolerance = 0.002

// sketchPenFraction is the width of the sketch's pen in pictures, as a fraction of the larger
// side of what they show: about three pixels at the default size.
const sketchPenFraction = 0.003

// sceneSketchDescription is the scene tool's words on sketch.
const sceneSketchDescription = "sketch: the user's strokes in the viewer."

// SketchOut answers scene sketch.
type SketchOut struct {
	Strokes []SketchStroke `json:"strokes"`
	// Count is the number of strokes in the sketch; Points the points drawn, before
	// simplifying; Shown the points in this answer.
	Count  int `json:"count" jsonschema:"strokes in the sketch"`
	Points int `json:"points" jsonschema:"points drawn, before simplifying"`
	Shown  int `json:"shown" jsonschema:"points in this answer"`
	// Tolerance is the largest distance, in scene units, between a stroke as drawn and as
	// answered.
	Tolerance float64  `json:"tolerance" jsonschema:"the largest distance (scene units) between a stroke as drawn and as answered"`
	Bounds    geom.Box `json:"bounds" jsonschema:"the sketch's bounds"`
	// Cleared is the number of strokes clear removed.
	Cleared int `json:"cleared,omitempty" jsonschema:"strokes removed by clear"`
}

// SketchStroke is one stroke of a sketch answer.
type SketchStroke struct {
	Points [][2]float64 `json:"points" jsonschema:"[x, y] in scene units, in the order drawn"`
}

// sceneSketch answers scene sketch: the strokes, simplified to fit the budget; or, with
// clear, removes them.
func (se *Session) sceneSketch(ctx context.Context, v *view, clear bool) (*SketchOut, *Omitted, error) {
	ws := se.srv.ws
	if clear {
		n, err := ws.ClearSketch(ctx)
		if err != nil {
			return nil, nil, err
		}
		se.sawSketch(modules.Sketch{})
		return &SketchOut{Strokes: []SketchStroke{}, Cleared: n}, nil, nil
	}
	sk, err := ws.LoadSketch()
	if err != nil {
		return nil, nil, err
	}
	se.sawSketch(sk)
	box := sketchBounds(sk)
	all := box
	all.Union(v.Scene.Bounds())
	side := 1.0
	if all.NonEmpty {
		side = math.Max(math.Max(all.Size().X, all.Size().Y), 1e-9)
	}
	q := engine.Quantum(all)
	base, _ := strconv.ParseFloat(strconv.FormatFloat(side*sketchTolerance, 'g', 2, 64), 64) // two digits: a round number
	if box.NonEmpty {
		box = geom.Box{Min: geom.Vec{X: engine.RoundTo(box.Min.X, q), Y: engine.RoundTo(box.Min.Y, q)}, Max: geom.Vec{X: engine.RoundTo(box.Max.X, q), Y: engine.RoundTo(box.Max.Y, q)}, NonEmpty: true}
	}
	out := &SketchOut{Count: len(sk.Strokes), Points: sk.Points(), Bounds: box}
	for tol := base; ; tol *= 2 {
		out.Tolerance, out.Strokes, out.Shown = roundSignificant(tol), make([]SketchStroke, 0, len(sk.Strokes)), 0
		for _, st := range sk.Strokes {
			pts := simplify(st.Points, tol)
			for i := range pts {
				pts[i] = [2]float64{engine.RoundTo(pts[i][0], q), engine.RoundTo(pts[i][1], q)}
			}
			out.Strokes = append(out.Strokes, SketchStroke{Points: pts})
			out.Shown += len(pts)
		}
		n := sceneview.Size(out)
		if n <= v.Budget-512 {
			if tol == base {
				return out, nil, nil
			}
			return out, &Omitted{Note: fmt.Sprintf("simplified at %g scene units, %g times the usual %g, to fit the budget of %d bytes; ask with a larger max_bytes (up to %d) for more detail",
				out.Tolerance, math.Round(tol/base), base, v.Budget, MaxAnswerBudget)}, nil
		}
		if tol > side {
			break // every stroke is down to its two ends
		}
	}
	// Still over: as many whole strokes as fit.
	used, kept := 0, 0
	for _, st := range out.Strokes {
		c := sceneview.Size(st) + 1
		if !v.Fits(used, c) {
			break
		}
		used += c
		kept++
	}
	shown := 0
	for _, st := range out.Strokes[:kept] {
		shown += len(st.Points)
	}
	out.Strokes, out.Shown = out.Strokes[:kept], shown
	return out, &Omitted{Shown: kept, Total: len(sk.Strokes), Note: fmt.Sprintf("the first %d of %d strokes fit the budget of %d bytes, each down to its two ends; ask with a larger max_bytes (up to %d), or clear the sketch and draw less",
		kept, len(sk.Strokes), v.Budget, MaxAnswerBudget)}, nil
}

// sketchBounds is the box around every point of the sketch.
func sketchBounds(sk modules.Sketch) geom.Box {
	var b geom.Box
	for _, st := range sk.Strokes {
		for _, p := range st.Points {
			b.Extend(geom.Vec{X: p[0], Y: p[1]})
		}
	}
	return b
}

// simplify is the Ramer–Douglas–Peucker simplification of a polyline: the fewest of its
// points (the ends always) such that no point left out is farther than tol from the line
// kept. Iterative, so that a stroke of MaxStrokePoints cannot recurse that deep.
func simplify(pts [][2]float64, tol float64) [][2]float64 {
	if len(pts) <= 2 {
		return append([][2]float64(nil), pts...)
	}
	keep := make([]bool, len(pts))
	keep[0], keep[len(pts)-1] = true, true
	stack := [][2]int{{0, len(pts) - 1}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, b := pts[s[0]], pts[s[1]]
		far, at := -1.0, -1
		for i := s[0] + 1; i < s[1]; i++ {
			if d := segmentDistance(pts[i], a, b); d > far {
				far, at = d, i
			}
		}
		if at >= 0 && far > tol {
			keep[at] = true
			stack = append(stack, [2]int{s[0], at}, [2]int{at, s[1]})
		}
	}
	out := make([][2]float64, 0, 8)
	for i, k := range keep {
		if k {
			out = append(out, pts[i])
		}
	}
	return out
}

// segmentDistance is the distance from p to the segment ab.
func segmentDistance(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l2))
	}
	return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
}

// sketched is sc with the workspace's sketch drawn over it, for scene png: a copy with one
// line per stroke on top, in sketchColour. sc itself when there is no sketch (or it cannot be
// read: the picture of the scene matters more).
func (srv *Server) sketched(sc *scene.Scene) *scene.Scene {
	sk, err := srv.ws.LoadSketch()
	if err != nil || len(sk.Strokes) == 0 {
		return sc
	}
	all := sketchBounds(sk)
	all.Union(sc.Bounds())
	pen := math.Max(all.Size().X, all.Size().Y) * sketchPenFraction
	out := sc.Clone()
	colour := sketchColour
	for i, st := range sk.Strokes {
		name := fmt.Sprintf("sketch:%d", i+1)
		for out.Exists(name) {
			name = "_" + name
		}
		pts := make([]geom.Vec, len(st.Points))
		for j, p := range st.Points {
			pts[j] = geom.Vec{X: p[0], Y: p[1]}
		}
		e, err := out.Put(name, scene.Line{Points: pts})
		if err != nil {
			continue // checked when stored; a scene at its entity cap draws without it
		}
		e.Style = scene.Style{Stroke: &colour, StrokeWidth: pen}
	}
	return out
}

// LoadSketch reads the workspace's sketch. With AddStroke and ClearSketch it makes the Server
// the viewer's sketch store (viewer.SketchStore), as it is its selection store.
func (srv *Server) LoadSketch() (modules.Sketch, error) { return srv.ws.LoadSketch() }

// AddStroke adds a stroke to the workspace's sketch.
func (srv *Server) AddStroke(ctx context.Context, st modules.Stroke) (modules.Sketch, error) {
	return srv.ws.AddStroke(ctx, st)
}

// ClearSketch removes every stroke of the workspace's sketch.
func (srv *Server) ClearSketch(ctx context.Context) (int, error) { return srv.ws.ClearSketch(ctx) }

// sketchMark is what a session saw of the sketch: enough to tell a change. err is why it
// could not be read, when it could not.
type sketchMark struct {
	strokes, points int
	err             string
}

// sawSketch notes sk as seen by this session: its own reads and clears are not news to it.
func (se *Session) sawSketch(sk modules.Sketch) {
	m := sketchMark{strokes: len(sk.Strokes), points: sk.Points()}
	se.mu.Lock()
	se.heard.sketch = &m
	se.mu.Unlock()
}

// SketchNote is the line for this session's next answer when the user drew or cleared strokes
// in a viewer since the session last looked, or "" when nothing changed. A session that starts
// while there is a sketch is told once.
func (se *Session) SketchNote() string {
	sk, err := se.srv.ws.LoadSketch()
	now := sketchMark{strokes: len(sk.Strokes), points: sk.Points()}
	if err != nil {
		now = sketchMark{err: err.Error()}
	}
	se.mu.Lock()
	prev := se.heard.sketch
	se.heard.sketch = &now
	se.mu.Unlock()
	if prev == nil {
		prev = &sketchMark{}
	}
	switch {
	case now == *prev:
		return ""
	case now.err != "":
		return fmt.Sprintf("the user's sketch could not be read, so scene png draws the scene without it: %s", now.err)
	case now.strokes == 0:
		return "the user cleared the sketch in the viewer"
	case now.strokes == 1:
		return "the user sketched over the scene in the viewer: 1 stroke (scene sketch answers it in scene units)"
	}
	return fmt.Sprintf("the user sketched over the scene in the viewer: %d strokes (scene sketch answers them in scene units)", now.strokes)
}
