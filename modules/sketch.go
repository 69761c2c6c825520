package modules

// A sketch is what a person draws by hand over the scene in a viewer: freehand strokes, in
// scene units, for an agent to read back and turn into geometry. It is kept in the workspace
// (so a viewer of `cadrun watch -serve` and an agent's `cadrun mcp` share it) apart from the
// drawing: it is never in scene.json nor in the history, and no run sees it. Like the
// selection it is derived state, replaced atomically; adding a stroke reads, appends and
// writes under the workspace lock, so that two writers (a viewer and a clear from another
// process) never lose each other's change. Readers poll it, so a load whose file has not
// changed (same size and time) answers from memory.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"sync"

	"github.com/cadrun/cadrun/scene"
)

// SketchFile is where the sketch is kept, inside the workspace.
const SketchFile = ".cadrun/sketch.json"

// Caps on a sketch; docs/limits.md lists them.
const (
	// MaxSketchStrokes caps the strokes of a sketch.
	MaxSketchStrokes = 1000
	// MaxStrokePoints caps the points of one stroke.
	MaxStrokePoints = 10_000
	// MaxSketchPoints caps the points of all strokes together.
	MaxSketchPoints = 100_000
)

// maxSketchBytes caps sketch.json when read: MaxSketchPoints points of two long numbers.
const maxSketchBytes = MaxSketchPoints*2*26 + MaxSketchStrokes*16 + 64

// ErrBadSketch is returned for a stroke or a sketch that breaks a rule: too few or too many
// points, a coordinate that is not finite or out of range, too many strokes.
var ErrBadSketch = errors.New("bad sketch")

// Sketch is the strokes drawn over the scene, oldest first.
type Sketch struct {
	Strokes []Stroke `json:"strokes"`
}

// Stroke is one freehand line: the points the pointer went through, in scene units.
type Stroke struct {
	Points [][2]float64 `json:"points"`
}

// Points counts the points of every stroke.
func (s Sketch) Points() int {
	n := 0
	for _, st := range s.Strokes {
		n += len(st.Points)
	}
	return n
}

// Check checks one stroke.
func (st Stroke) Check() error {
	if n := len(st.Points); n < 2 || n > MaxStrokePoints {
		return fmt.Errorf("%w: a stroke has %d points; give 2 to %d (MaxStrokePoints)", ErrBadSketch, n, MaxStrokePoints)
	}
	for i, p := range st.Points {
		for _, f := range p {
			if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > scene.MaxCoord {
				return fmt.Errorf("%w: point %d is %v; give finite scene coordinates within ±%g (MaxCoord)", ErrBadSketch, i, p, scene.MaxCoord)
			}
		}
	}
	return nil
}

// check checks every stroke and the sketch's caps.
func (s Sketch) check() error {
	if len(s.Strokes) > MaxSketchStrokes {
		return fmt.Errorf("%w: %d strokes, over %d (MaxSketchStrokes)", ErrBadSketch, len(s.Strokes), MaxSketchStrokes)
	}
	if n := s.Points(); n > MaxSketchPoints {
		return fmt.Errorf("%w: %d points, over %d (MaxSketchPoints)", ErrBadSketch, n, MaxSketchPoints)
	}
	for i, st := range s.Strokes {
		if err := st.Check(); err != nil {
			return fmt.Errorf("stroke %d: %w", i, err)
		}
	}
	return nil
}

// sketchCache is the sketch last read, with the file's key then.
type sketchCache struct {
	mu  sync.Mutex
	key fileKey
	ok  bool
	s   Sketch
}

// LoadSketch reads the workspace's sketch. A workspace without one has no strokes; a file
// that cannot be decoded is an error naming it and how to clear it.
func (w *Workspace) LoadSketch() (Sketch, error) {
	f, st, err := w.openFileStat(SketchFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Sketch{Strokes: []Stroke{}}, nil
	}
	if err != nil {
		return Sketch{}, fmt.Errorf("reading %s: %w", SketchFile, err)
	}
	defer f.Close()
	c := &w.sketch
	c.mu.Lock()
	defer c.mu.Unlock()
	key := keyOf(st)
	if c.ok && c.key == key {
		return c.s, nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSketchBytes+1))
	if err != nil {
		return Sketch{}, fmt.Errorf("reading %s: %w", SketchFile, err)
	}
	if len(b) > maxSketchBytes {
		return Sketch{}, fmt.Errorf("reading %s: %w: over %d bytes; clear the sketch (scene sketch with clear, or the viewer's Clear sketch)", SketchFile, ErrTooLarge, maxSketchBytes)
	}
	s := Sketch{Strokes: []Stroke{}}
	if len(b) > 0 { // empty: a power cut after the rename of a write without fsync
		if err := json.Unmarshal(b, &s); err != nil {
			return Sketch{}, fmt.Errorf("reading %s: %w: %v; clear the sketch (scene sketch with clear, or the viewer's Clear sketch)", SketchFile, ErrBadSketch, err)
		}
		if err := s.check(); err != nil {
			return Sketch{}, fmt.Errorf("reading %s: %w; clear the sketch (scene sketch with clear, or the viewer's Clear sketch)", SketchFile, err)
		}
		if s.Strokes == nil {
			s.Strokes = []Stroke{}
		}
	}
	c.key, c.ok, c.s = key, true, s
	return s, nil
}

// AddStroke checks st and appends it to the sketch, under the workspace lock. It returns the
// sketch as saved.
func (w *Workspace) AddStroke(ctx context.Context, st Stroke) (Sketch, error) {
	if err := st.Check(); err != nil {
		return Sketch{}, err
	}
	unlock, err := w.Lock(ctx)
	if err != nil {
		return Sketch{}, err
	}
	defer unlock()
	s, err := w.LoadSketch()
	if err != nil {
		return Sketch{}, err
	}
	switch {
	case len(s.Strokes) >= MaxSketchStrokes:
		return Sketch{}, fmt.Errorf("%w: the sketch has %d strokes (MaxSketchStrokes); clear it to draw more", ErrBadSketch, len(s.Strokes))
	case s.Points()+len(st.Points) > MaxSketchPoints:
		return Sketch{}, fmt.Errorf("%w: the sketch has %d points and this stroke %d, over %d (MaxSketchPoints); clear it to draw more", ErrBadSketch, s.Points(), len(st.Points), MaxSketchPoints)
	}
	next := Sketch{Strokes: append(s.Strokes[:len(s.Strokes):len(s.Strokes)], st)}
	return next, w.saveSketch(next)
}

// ClearSketch removes every stroke, under the workspace lock, and says how many there were.
func (w *Workspace) ClearSketch(ctx context.Context) (int, error) {
	unlock, err := w.Lock(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	s, err := w.LoadSketch()
	if err != nil && !errors.Is(err, ErrBadSketch) && !errors.Is(err, ErrTooLarge) {
		return 0, err // a damaged file is cleared; an unreadable one is reported
	}
	if err == nil && len(s.Strokes) == 0 {
		return 0, nil
	}
	return len(s.Strokes), w.saveSketch(Sketch{Strokes: []Stroke{}})
}

func (w *Workspace) saveSketch(s Sketch) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := w.writeDerived(SketchFile, b, newFileMode); err != nil {
		return fmt.Errorf("writing %s: %w", SketchFile, err)
	}
	return nil
}
