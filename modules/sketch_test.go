package modules

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func line(n int) Stroke {
	st := Stroke{}
	for i := range n {
		st.Points = append(st.Points, [2]float64{float64(i), float64(-i)})
	}
	return st
}

// Strokes are appended to .cadrun/sketch.json, read back (by another Workspace value, as
// another process would), and cleared; the sketch is not one of the user's files.
func TestSketchAddLoadClear(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := w.AddStroke(ctx, line(2)); err != nil {
		t.Fatal(err)
	}
	got, err := w.AddStroke(ctx, Stroke{Points: [][2]float64{{0.5, 1}, {2, 3}, {4, 5}}})
	if err != nil {
		t.Fatal(err)
	}
	want := Sketch{Strokes: []Stroke{line(2), {Points: [][2]float64{{0.5, 1}, {2, 3}, {4, 5}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	b, err := os.ReadFile(filepath.Join(dir, SketchFile))
	if err != nil {
		t.Fatal(err)
	}
	if wantFile := `{"strokes":[{"points":[[0,0],[1,-1]]},{"points":[[0.5,1],[2,3],[4,5]]}]}` + "\n"; string(b) != wantFile {
		t.Errorf("%s holds %s, want %s", SketchFile, b, wantFile)
	}
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := other.LoadSketch(); err != nil || !cmp.Equal(want, got) {
		t.Errorf("another workspace value reads %v, %v; want %v", got, err, want)
	}
	files, err := w.UserFiles()
	if err != nil || len(files) != 0 {
		t.Errorf("user files %v, %v; want none", files, err)
	}
	if n, err := other.ClearSketch(ctx); n != 2 || err != nil {
		t.Errorf("clear: %d, %v; want 2 strokes", n, err)
	}
	if got, err := w.LoadSketch(); err != nil || len(got.Strokes) != 0 || got.Strokes == nil {
		t.Errorf("after clear: %#v, %v; want no strokes", got, err)
	}
}

// Every bad stroke is refused with the rule it broke, and the sketch is left as it was.
func TestSketchRules(t *testing.T) {
	t.Parallel()
	w, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		st   Stroke
		want string
	}{
		{line(1), "bad sketch: a stroke has 1 points; give 2 to 10000 (MaxStrokePoints)"},
		{line(MaxStrokePoints + 1), "bad sketch: a stroke has 10001 points; give 2 to 10000 (MaxStrokePoints)"},
		{Stroke{Points: [][2]float64{{0, 0}, {math.NaN(), 1}}}, "bad sketch: point 1 is [NaN 1]; give finite scene coordinates within ±1e+15 (MaxCoord)"},
		{Stroke{Points: [][2]float64{{0, 0}, {2e15, 1}}}, "bad sketch: point 1 is [2e+15 1]; give finite scene coordinates within ±1e+15 (MaxCoord)"},
	} {
		if _, err := w.AddStroke(ctx, tc.st); err == nil || err.Error() != tc.want || !errors.Is(err, ErrBadSketch) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	for range MaxSketchPoints / MaxStrokePoints {
		if _, err := w.AddStroke(ctx, line(MaxStrokePoints)); err != nil {
			t.Fatal(err)
		}
	}
	_, err = w.AddStroke(ctx, line(2))
	if want := "bad sketch: the sketch has 100000 points and this stroke 2, over 100000 (MaxSketchPoints); clear it to draw more"; err == nil || err.Error() != want {
		t.Errorf("over the points: %v, want %q", err, want)
	}
	if s, err := w.LoadSketch(); err != nil || s.Points() != MaxSketchPoints {
		t.Errorf("after the refusal: %d points, %v", s.Points(), err)
	}
}

// A damaged file is an error that says how to clear it, and clearing works.
func TestSketchDamagedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".cadrun"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SketchFile), []byte(`{"strokes":[{"points":[[0,0]]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = w.LoadSketch()
	want := "reading .cadrun/sketch.json: stroke 0: bad sketch: a stroke has 1 points; give 2 to 10000 (MaxStrokePoints); clear the sketch (scene sketch with clear, or the viewer's Clear sketch)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if n, err := w.ClearSketch(context.Background()); n != 0 || err != nil {
		t.Errorf("clear: %d, %v", n, err)
	}
	if s, err := w.LoadSketch(); err != nil || len(s.Strokes) != 0 {
		t.Errorf("after clear: %v, %v", s, err)
	}
	if _, err := w.AddStroke(context.Background(), line(3)); err != nil || !strings.Contains(mustRead(t, filepath.Join(dir, SketchFile)), "[2,-2]") {
		t.Errorf("add after clear: %v", err)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSketchAndSelectionFilesAreCheckedAsEveryFile: the sketch and the selection are opened as
// every workspace file is: a FIFO or a second hard link in their place is refused, with what it
// is, rather than read (or, for the link, read through to a file outside the workspace).
func TestSketchAndSelectionFilesAreCheckedAsEveryFile(t *testing.T) {
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "outside.json")
	if err := os.WriteFile(outside, []byte(`{"strokes":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{SketchFile, SelectionFile} {
		for kind, put := range map[string]func(p string){
			" is a named pipe (FIFO)": func(p string) { mkfifo(t, p) },
			" hard links, so it may be a file outside the workspace": func(p string) {
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Link(outside, p); err != nil {
					t.Fatal(err)
				}
			},
		} {
			w, dir := workspace(t, nil)
			put(filepath.Join(dir, filepath.FromSlash(file)))
			var err error
			if file == SketchFile {
				_, err = w.LoadSketch()
			} else {
				_, err = w.LoadSelection()
			}
			if err == nil || !strings.Contains(err.Error(), kind) {
				t.Errorf("%s as %s: %v; want a refusal naming it", file, kind, err)
			}
		}
	}
}

// longStroke is a stroke of n points whose coordinates are as long as JSON numbers get.
func longStroke(n int) Stroke {
	st := Stroke{}
	for i := range n {
		x := -1.2345678901234567e-06 - float64(i)*1e-22
		st.Points = append(st.Points, [2]float64{x, -1.2345678901234567e-300})
	}
	return st
}

// TestSketchFullOfLongNumbersStaysReadable: a sketch filled to MaxSketchPoints with the longest
// numbers, every stroke accepted, is read back; before, the tenth such stroke was accepted and
// left a sketch.json over MaxSketchBytes that every read then refused.
func TestSketchFullOfLongNumbersStaysReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxSketchPoints / MaxStrokePoints {
		if _, err := w.AddStroke(context.Background(), longStroke(MaxStrokePoints)); err != nil {
			t.Fatalf("stroke %d: %v", i, err)
		}
	}
	other, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := other.LoadSketch()
	if err != nil {
		t.Fatalf("reading back what was accepted: %v", err)
	}
	if s.Points() != MaxSketchPoints {
		t.Errorf("%d points read back, want %d", s.Points(), MaxSketchPoints)
	}
	if got, want := s.Strokes[0].Points[1], [2]float64{-1.23456789012e-06, -1.23456789012e-300}; got != want {
		t.Errorf("a point is kept as %v, want %v (SketchDigits)", got, want)
	}
	if fi, err := os.Stat(filepath.Join(dir, SketchFile)); err != nil || fi.Size() > MaxSketchBytes {
		t.Errorf("%s: %v, %v; want at most %d bytes", SketchFile, fi.Size(), err, MaxSketchBytes)
	}
}

// TestSketchClearOverCap: a sketch.json over MaxSketchBytes (an older version wrote numbers
// of every digit) is cleared, and the clear counts its strokes.
func TestSketchClearOverCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"strokes":[`)
	for i := range 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"points":[`)
		for j := range MaxStrokePoints {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString("[-0.0000012345678901234567,-0.0000012345678901234567]")
		}
		b.WriteString(`]}`)
	}
	b.WriteString("]}\n")
	if b.Len() <= MaxSketchBytes {
		t.Fatalf("the file is %d bytes, not over %d", b.Len(), MaxSketchBytes)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".cadrun"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SketchFile), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.LoadSketch(); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "(MaxSketchBytes); clear the sketch") {
		t.Errorf("load: %v; want file too large naming MaxSketchBytes", err)
	}
	if n, err := w.ClearSketch(context.Background()); n != 10 || err != nil {
		t.Errorf("clear: %d, %v; want 10 strokes", n, err)
	}
	if s, err := w.LoadSketch(); err != nil || len(s.Strokes) != 0 {
		t.Errorf("after clear: %d strokes, %v", len(s.Strokes), err)
	}
}

// TestStrokeRoundLength: a coordinate kept to SketchDigits is at most 20 bytes of JSON, the
// figure MaxSketchBytes is reasoned from.
func TestStrokeRoundLength(t *testing.T) {
	t.Parallel()
	longest := 0
	for _, f := range []float64{
		-1.2345678901234567e-06, -9.999999999999999e-07, -1.2345678901234567e-300, -4.9e-324,
		-math.MaxFloat64, -1e15, -999999999999999.9, -123456789012.34567, math.Pi * -1e-5, -0.1234567890123456,
	} {
		st := Stroke{Points: [][2]float64{{f, f}}}.Round()
		b, err := json.Marshal(st.Points[0][0])
		if err != nil {
			t.Fatal(err)
		}
		longest = max(longest, len(b))
	}
	if longest > 20 {
		t.Errorf("a rounded coordinate takes %d bytes of JSON, over 20", longest)
	}
}
