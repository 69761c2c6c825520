package render

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// randomScene draws n shapes of every kind with a few shared styles (so that the writer's
// remembered style is used across pieces), nested groups (some empty, some closing several
// at once) and transforms at every level.
func randomScene(t testing.TB, r *rand.Rand, n int) *scene.Scene {
	t.Helper()
	s := scene.New()
	v := func() geom.Vec { return geom.Vec{X: r.Float64()*200 - 100, Y: r.Float64()*200 - 100} }
	colors := []*scene.Color{nil, {1, 0, 0, 1}, {0, 0.5, 1, 0.25}}
	var names []string
	for i := range n {
		name := "s" + strconv.Itoa(i)
		var sh scene.Shape
		switch r.IntN(8) {
		case 0:
			sh = scene.Circle{Center: v(), Radius: 1 + r.Float64()*5}
		case 1:
			sh = scene.Rect{Center: v(), Width: 1 + r.Float64()*9, Height: 1 + r.Float64()*9}
		case 2:
			sh = scene.Ellipse{Center: v(), RX: 1 + r.Float64()*4, RY: 1 + r.Float64()*2}
		case 3:
			sh = scene.RoundedRect{Center: v(), Width: 6, Height: 4, Radius: 1}
		case 4:
			sh = scene.Arc{Center: v(), Radius: 3, Start: r.Float64(), End: 1 + 5*r.Float64()}
		case 5:
			sh = scene.Line{Points: []geom.Vec{v(), v(), v()}}
		case 6:
			a, b := v(), v()
			sh = scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{a, {X: a.X + 5, Y: a.Y}, {X: a.X, Y: a.Y + 5}}}, {Outer: []geom.Vec{b, {X: b.X + 3, Y: b.Y}, {X: b.X + 3, Y: b.Y + 3}, {X: b.X, Y: b.Y + 3}}}}}
		default:
			sh = &scene.PathShape{Data: fmt.Sprintf("M 0 0 C 1 3 4 -2 5 0 Q 6 2 %d 0 A 2 1 30 0 1 9 1 Z", r.IntN(9)+7)}
		}
		put(t, s, name, sh)
		names = append(names, name)
		if k := r.IntN(4); k > 0 {
			if err := s.SetFill(name, colors[k-1]); err != nil {
				t.Fatal(err)
			}
		}
		if r.IntN(5) == 0 {
			if err := s.SetStroke(name, colors[1+r.IntN(2)], float64(r.IntN(3))/2); err != nil {
				t.Fatal(err)
			}
		}
		if r.IntN(3) == 0 {
			if err := s.Rotate(name, r.Float64()*6, scene.SpaceLocal); err != nil {
				t.Fatal(err)
			}
		}
		// Now and then the last few entities (shapes or groups) become a group.
		if r.IntN(6) == 0 {
			k := min(len(names), r.IntN(5))
			group := "g" + strconv.Itoa(i)
			if _, err := s.CreateGroup(group, names[len(names)-k:]); err != nil {
				t.Fatal(err)
			}
			names = append(names[:len(names)-k], group)
			if err := s.Translate(group, v(), scene.SpaceWorld); err != nil {
				t.Fatal(err)
			}
			if err := s.Scale(group, 1+r.Float64(), -1, scene.SpaceLocal, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// TestSVGPiecesMatchOneWriter: a document written in pieces on several goroutines is byte for
// byte the document written in one go, for random scenes, piece sizes and goroutine counts,
// fitted or in a given view, with and without data kinds; WriteSVG writes what SVG returns.
func TestSVGPiecesMatchOneWriter(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(15, 3))
	for i := range 300 {
		s := randomScene(t, r, 1+r.IntN(60))
		opt := SVGOptions{DataKinds: r.IntN(2) == 0, Background: &scene.Color{1, 1, 1, 1}}
		if r.IntN(3) == 0 {
			v := View{Min: geom.Vec{X: -50, Y: -60}, Max: geom.Vec{X: 70, Y: 40}}
			opt.View = &v
		}
		d, err := newSVGDoc(s, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := string(d.piece(d.writer(), nil, 0, len(d.items), nil))
		for _, per := range []int{1, 2, 3, 7, 1 + r.IntN(len(d.items))} {
			for _, procs := range []int{1, 2, 5} {
				var got []byte
				if err := d.write(per, procs, func(p []byte) error { got = append(got, p...); return nil }); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, string(got)); diff != "" {
					t.Fatalf("scene %d, %d entities a piece, %d goroutines: mismatch (-one writer +pieces):\n%s", i, per, procs, diff)
				}
			}
		}
		var w bytes.Buffer
		if err := WriteSVG(&w, s, opt); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, w.String()); diff != "" {
			t.Fatalf("scene %d: mismatch (-one writer +WriteSVG):\n%s", i, diff)
		}
	}
}

// TestWriteSVGStopsAtAFailedWrite: a failed write ends the writing with its error; no piece
// is written after it.
func TestWriteSVGStopsAtAFailedWrite(t *testing.T) {
	t.Parallel()
	s, err := examples.W1Scene()
	if err != nil {
		t.Fatal(err)
	}
	full := errors.New("disk full")
	writes := 0
	err = WriteSVG(writerFunc(func(p []byte) (int, error) {
		if writes++; writes == 3 {
			return 0, full
		}
		return len(p), nil
	}), s, SVGOptions{})
	if err != full || writes != 3 {
		t.Errorf("got %v after %d writes; want %v after 3", err, writes, full)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// BenchmarkSVGW1Pieces writes W1's document in pieces on one goroutine and on GOMAXPROCS,
// to a writer that drops them, as a worker streams it.
func BenchmarkSVGW1Pieces(b *testing.B) {
	s, err := examples.W1Scene()
	if err != nil {
		b.Fatal(err)
	}
	for _, procs := range []int{1, goruntime.GOMAXPROCS(0)} {
		b.Run("procs="+strconv.Itoa(procs), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, err := newSVGDoc(s, SVGOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := d.write(svgPieceEntities, procs, func([]byte) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
