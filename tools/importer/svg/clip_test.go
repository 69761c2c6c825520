package svg

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestSubSeg: the part of a segment between two parameters is the segment itself there,
// point for point, for every kind a path holds.
func TestSubSeg(t *testing.T) {
	t.Parallel()
	from := geom.Vec{X: 1, Y: 2}
	for _, s := range []geom.Seg{
		{Kind: geom.SegLine, P: [3]geom.Vec{{X: 7, Y: -3}}},
		{Kind: geom.SegQuad, P: [3]geom.Vec{{X: 4, Y: 9}, {X: 8, Y: 1}}},
		{Kind: geom.SegCubic, P: [3]geom.Vec{{X: 0, Y: 10}, {X: 10, Y: 10}, {X: 12, Y: -4}}},
		{Kind: geom.SegArc, P: [3]geom.Vec{{X: 1, Y: 1}, {X: 3, Y: 1}, {X: -1, Y: 2}}, T0: 0.3, T1: 4},
	} {
		for _, span := range [][2]float64{{0, 1}, {0, 0.4}, {0.25, 0.75}, {0.6, 1}} {
			part := subSeg(s, from, span[0], span[1])
			start := segPoint(s, from, span[0])
			for _, v := range []float64{0, 0.3, 0.5, 1} {
				got := segPoint(part, start, v)
				want := segPoint(s, from, span[0]+(span[1]-span[0])*v)
				if d := got.Sub(want).Len(); d > 1e-12 || math.IsNaN(d) {
					t.Errorf("kind %d, %v at %v: %v, want %v", s.Kind, span, v, got, want)
				}
			}
		}
	}
}

// TestCutCaps: a solid stroke cut by a clip is stroked butt where it is cut and keeps its own
// caps at its own ends, as SVG, which clips what the stroke paints, ends it at a cut: a round
// end kept on the piece, whose last half-width before the cut is stroked butt apart; a square
// end drawn as the path run on by half the width, butt; a closed outline's pieces butt; a
// subpath the clip leaves whole round; a piece shorter than half the width round. Only a cut
// aslant the clip's edge is noted. (Y is up: the box is 0..10 across and -10..0 up.)
func TestCutCaps(t *testing.T) {
	t.Parallel()
	const box = `<clipPath id="c"><rect width="10" height="10"/></clipPath>`
	type stroke struct{ Cap, Path string }
	for _, c := range []struct {
		name, body string
		want       []stroke
		aslant     bool
	}{
		{"round, across", `<line x1="-5" y1="5" x2="15" y2="5" stroke-linecap="round"/>`, []stroke{{"butt", "M 0 -5 L 10 -5"}}, false},
		{"round, cut at its start", `<line x1="-5" y1="5" x2="5" y2="5" stroke-linecap="round"/>`,
			[]stroke{{"", "M 1 -5 L 5 -5"}, {"butt", "M 0 -5 L 1 -5"}}, false},
		{"round, cut at its end", `<line x1="5" y1="5" x2="15" y2="5" stroke-linecap="round"/>`,
			[]stroke{{"", "M 5 -5 L 9 -5"}, {"butt", "M 9 -5 L 10 -5"}}, false},
		{"square: run on, butt", `<line x1="5" y1="5" x2="15" y2="5" stroke-linecap="square"/>`, []stroke{{"butt", "M 4 -5 L 5 -5 L 10 -5"}}, false},
		{"butt", `<line x1="5" y1="5" x2="15" y2="5"/>`, []stroke{{"butt", "M 5 -5 L 10 -5"}}, false},
		{"a closed outline's pieces", `<path d="M5 2 H15 V8 H5 Z" fill="none"/>`, []stroke{{"butt", "M 10 -8 L 5 -8 L 5 -2 L 10 -2"}}, false},
		{"a subpath left whole keeps its caps", `<path d="M2 3 H4 M5 6 H15" stroke-linecap="round"/>`,
			[]stroke{{"", "M 2 -3 L 4 -3 M 5 -6 L 9 -6"}, {"butt", "M 9 -6 L 10 -6"}}, false},
		{"shorter than half the width: round", `<line x1="9.5" y1="5" x2="15" y2="5" stroke-linecap="round"/>`, []stroke{{"", "M 9.5 -5 L 10 -5"}}, false},
		{"a closed subpath left whole stays closed", `<path d="M2 2 H4 V4 H2 Z M5 6 H15" stroke-linecap="round" fill="none"/>`,
			[]stroke{{"", "M 2 -2 L 4 -2 L 4 -4 L 2 -4 L 2 -2 Z M 5 -6 L 9 -6"}, {"butt", "M 9 -6 L 10 -6"}}, false},
		{"aslant: noted", `<line x1="-5" y1="0" x2="5" y2="5"/>`, []stroke{{"butt", "M 0 -2.5 L 5 -5"}}, true},
	} {
		body := strings.Replace(c.body, "/>", ` stroke="red" stroke-width="2" clip-path="url(#c)"/>`, 1)
		d, err := Read(markerDoc(box+body), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []stroke
		var walk func([]*Item)
		walk = func(items []*Item) {
			for _, it := range items {
				if it.Kind == Shape && it.Stroke != nil {
					got = append(got, stroke{it.Cap, it.Prim.Path})
				}
				walk(it.Children)
			}
		}
		walk(d.Items)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: the strokes (-want +got):\n%s", c.name, diff)
		}
		const note = "a stroke cut aslant by a clip-path's edge ends square across itself, where SVG ends it along the edge"
		noted := false
		for k := range d.Skipped {
			noted = noted || strings.HasSuffix(k, note)
			if !strings.HasSuffix(k, note) {
				t.Errorf("%s: noted %q", c.name, k)
			}
		}
		if noted != c.aslant {
			t.Errorf("%s: noted aslant %v, want %v", c.name, noted, c.aslant)
		}
	}
}

// TestSplitAt: a path is split where its length from the start, or back from the end, is
// the distance asked, along a curve too; not where it is no longer than that.
func TestSplitAt(t *testing.T) {
	t.Parallel()
	arc, err := geom.ParsePathData("M10 0 A10 10 0 0 1 0 10")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []float64{2, -2} {
		head, tail, ok := splitAt(arc, d)
		if !ok {
			t.Fatalf("%g: not split", d)
		}
		a := math.Abs(d) / 10 // the angle from the end it is split at
		want := geom.Vec{X: 10 * math.Cos(a), Y: 10 * math.Sin(a)}
		if d < 0 {
			want = geom.Vec{X: 10 * math.Sin(a), Y: 10 * math.Cos(a)}
		}
		if at := tail[0].P[0]; at.Sub(want).Len() > 1e-3 || head[len(head)-1].End().Sub(at).Len() > 1e-9 {
			t.Errorf("%g: split at %v (the head ends at %v), want %v", d, at, head[len(head)-1].End(), want)
		}
		if end := tail[len(tail)-1].End(); end.Sub(geom.Vec{X: 0, Y: 10}).Len() > 1e-9 {
			t.Errorf("%g: the tail ends at %v", d, end)
		}
	}
	if _, _, ok := splitAt(arc, 16); ok {
		t.Error("a path 5π long split 16 along")
	}
}
