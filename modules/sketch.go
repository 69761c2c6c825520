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
	"strconv"
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

// SketchDigits is the significant digits a sketch's coordinates are kept to: far finer than
// a hand draws, and it bounds every number in sketch.json to 20 bytes
// ("-0.0000012345678901" and "-1.23456789012e-308" are the longest), so that the caps on
// points keep the file under MaxSketchBytes by construction.
const SketchDigits = 12

// MaxSketchBytes caps sketch.json, when written and when read. A sketch within the points and
// strokes caps, at SketchDigits, is at most 4.42 MB (44 bytes a point, 14 a stroke); the cap
// is a little over that, so a file an older version wrote with longer numbers is still read
// when it fits. A stroke that would make the file larger is refused naming it.
const MaxSketchBytes = MaxSketchPoints*2*26 + MaxSketchStrokes*16 + 64

// maxSketchCountBytes bounds how much of a sketch.json over MaxSketchBytes is read to count
// its strokes when it is cleared: more than any version could write within the caps.
const maxSketchCountBytes = 4 * MaxSketchBytes

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

// Round returns the stroke with every coordinate kept to SketchDigits significant digits, as
// it is stored.
func (st Stroke) Round() Stroke {
	out := Stroke{Points: make([][2]float64, len(st.Points))}
	for i, p := range st.Points {
		out.Points[i] = [2]float64{roundDigits(p[0]), roundDigits(p[1])}
	}
	return out
}

// roundDigits rounds f to SketchDigits significant digits; a value that is not finite is left
// for Check to refuse.
func roundDigits(f float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', SketchDigits, 64), 64)
	if err != nil {
		return f
	}
	return r
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
	b, err := io.ReadAll(io.LimitReader(f, MaxSketchBytes+1))
	if err != nil {
		return Sketch{}, fmt.Errorf("reading %s: %w", SketchFile, err)
	}
	if len(b) > MaxSketchBytes {
		return Sketch{}, fmt.Errorf("reading %s: %w: over %d bytes (MaxSketchBytes); clear the sketch (scene sketch with clear, or the viewer's Clear sketch)", SketchFile, ErrTooLarge, MaxSketchBytes)
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

// AddStroke checks st and appends it to the sketch, under the workspace lock, its coordinates
// kept to SketchDigits. It returns the sketch as saved.
func (w *Workspace) AddStroke(ctx context.Context, st Stroke) (Sketch, error) {
	if err := st.Check(); err != nil {
		return Sketch{}, err
	}
	st = st.Round()
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
	b, err := encodeSketch(next)
	if err != nil {
		return Sketch{}, err
	}
	if len(b) > MaxSketchBytes {
		// Unreachable at SketchDigits within the caps; kept so that what is stored can always
		// be read back, whatever an older file holds.
		return Sketch{}, fmt.Errorf("%w: with this stroke %s would be %d bytes, over %d (MaxSketchBytes); clear the sketch to draw more", ErrBadSketch, SketchFile, len(b), MaxSketchBytes)
	}
	return next, w.writeSketch(b)
}

// ClearSketch removes every stroke, under the workspace lock, and says how many there were.
func (w *Workspace) ClearSketch(ctx context.Context) (int, error) {
	unlock, err := w.Lock(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	s, err := w.LoadSketch()
	n := len(s.Strokes)
	switch {
	case errors.Is(err, ErrTooLarge):
		n = w.countStrokes() // a file over the cap (an older version's) still has its strokes
	case err != nil && !errors.Is(err, ErrBadSketch):
		return 0, err // a damaged file is cleared; an unreadable one is reported
	case err == nil && n == 0:
		return 0, nil
	}
	b, err := encodeSketch(Sketch{Strokes: []Stroke{}})
	if err != nil {
		return 0, err
	}
	return n, w.writeSketch(b)
}

// countStrokes counts the strokes of a sketch.json too large to load, reading at most
// maxSketchCountBytes of it a token at a time; it counts the whole strokes before anything it
// cannot read.
func (w *Workspace) countStrokes() int {
	f, _, err := w.openFileStat(SketchFile)
	if err != nil {
		return 0
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, maxSketchCountBytes))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0
		}
		if key != "strokes" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return 0
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return 0
		}
		n := 0
		for dec.More() {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
			n++
		}
		return n
	}
	return 0
}

func encodeSketch(s Sketch) ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func (w *Workspace) writeSketch(b []byte) error {
	if err := w.writeDerived(SketchFile, b, newFileMode); err != nil {
		return fmt.Errorf("writing %s: %w", SketchFile, err)
	}
	return nil
}
