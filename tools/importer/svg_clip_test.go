package importer

import (
	"math"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestSVGClipPaths imports small files in the manner of resvg's clip-path tests and checks
// what is left of each clipped shape: its world bounds and area (Y up: the file's y negated).
func TestSVGClipPaths(t *testing.T) {
	t.Parallel()
	quarter := math.Pi * 50 * 50 / 2 // half a circle of radius 50
	for _, c := range []struct {
		name, body string
		entity     string
		want       geom.Box
		area       float64 // 0: not checked
		call       string  // in the module, "" not checked
	}{
		{"circle cuts a rect", `<clipPath id="c"><circle cx="100" cy="100" r="50"/></clipPath>
			<rect width="100" height="200" fill="green" clip-path="url(#c)"/>`,
			"rect1", box(50, -150, 100, -50), quarter, "clip('rect1', ['rect1~clip1-1']);"},
		{"on a group", `<clipPath id="c"><rect x="10" y="10" width="30" height="30"/></clipPath>
			<g clip-path="url(#c)"><circle cx="10" cy="10" r="20"/></g>`,
			"circle1", box(10, -30, 30, -10), math.Pi * 400 / 4, ""},
		{"userSpaceOnUse with the element's transform", `<clipPath id="c"><rect width="10" height="10"/></clipPath>
			<rect width="20" height="20" transform="translate(100 0)" clip-path="url(#c)"/>`,
			"rect1", box(100, -10, 110, 0), 100, ""},
		{"objectBoundingBox", `<clipPath id="c" clipPathUnits="objectBoundingBox"><rect x="0.25" y="0" width="0.5" height="0.5"/></clipPath>
			<rect x="100" y="0" width="40" height="20" clip-path="url(#c)"/>`,
			"rect1", box(110, -10, 130, 0), 200, ""},
		{"clipPath transform", `<clipPath id="c" transform="translate(10 0)"><rect width="10" height="10"/></clipPath>
			<rect width="15" height="15" clip-path="url(#c)"/>`,
			"rect1", box(10, -10, 15, 0), 50, ""},
		{"clipPath's own clip-path", `<clipPath id="a"><rect x="5" width="100" height="100"/></clipPath>
			<clipPath id="c" clip-path="url(#a)"><rect width="10" height="10"/></clipPath>
			<rect width="20" height="20" clip-path="url(#c)"/>`,
			"rect1", box(5, -10, 10, 0), 50, ""},
		{"union of the clipPath's shapes", `<clipPath id="c"><rect width="10" height="10"/><rect x="20" width="10" height="10"/></clipPath>
			<rect width="30" height="5" clip-path="url(#c)"/>`,
			"rect1", box(0, -5, 30, 0), 100, ""},
		{"use in a clipPath", `<defs><rect id="r" width="10" height="10"/></defs><clipPath id="c"><use href="#r" x="5"/></clipPath>
			<rect width="12" height="12" clip-path="url(#c)"/>`,
			"rect1", box(5, -10, 12, 0), 70, ""},
		{"clip-rule evenodd", `<clipPath id="c" clip-rule="evenodd"><path d="M0 0 H20 V20 H0 Z M5 5 H15 V15 H5 Z"/></clipPath>
			<rect width="30" height="30" clip-path="url(#c)"/>`,
			"rect1", box(0, -20, 20, 0), 300, ""},
		{"clip-rule evenodd of curves", `<clipPath id="c"><path clip-rule="evenodd" d="M0 10 A10 10 0 0 1 20 10 A10 10 0 0 1 0 10 Z M5 10 A5 5 0 0 1 15 10 A5 5 0 0 1 5 10 Z"/></clipPath>
			<rect width="30" height="30" clip-path="url(#c)"/>`,
			"rect1", box(0, -20, 20, 0), math.Pi * (100 - 25), ""},
		{"text in a clipPath", `<clipPath id="c"><text x="0" y="10" font-size="16">A</text></clipPath>
			<rect width="30" height="30" clip-path="url(#c)"/>`,
			"rect1", box(0.125, -10, 10.8125, 0), 0, "drawText('rect1~clip1-1', 'A', 0, -10, 16);"},
		{"a clip shape's own clip-path", `<clipPath id="half"><rect width="5" height="100"/></clipPath>
			<clipPath id="c"><rect width="10" height="10" clip-path="url(#half)"/><rect x="20" width="10" height="10"/></clipPath>
			<rect width="30" height="30" clip-path="url(#c)"/>`,
			"rect1", box(0, -10, 30, 0), 150, ""},
		{"on the root", `<svg xmlns="http://www.w3.org/2000/svg" clip-path="url(#c)"><clipPath id="c"><rect width="10" height="10"/></clipPath>
			<rect width="30" height="30"/></svg>`,
			"rect1", box(0, -10, 10, 0), 100, ""},
		{"a clip far larger than the shape", `<clipPath id="c"><rect width="1e12" height="1"/></clipPath>
			<rect x="-1" width="3" height="5" clip-path="url(#c)"/>`,
			"rect1", box(0, -1, 2, 0), 2, ""},
		{"a clip holding the shape cuts nothing", `<clipPath id="c"><rect width="100" height="100"/></clipPath>
			<circle cx="50" cy="50" r="10" clip-path="url(#c)"/>`,
			"circle1", box(40, -60, 60, -40), math.Pi * 100, "drawCircle('circle1', 50, -50, 10);\n"},
		{"mask of one white shape", `<mask id="m"><rect x="0" y="0" width="10" height="100" fill="white"/></mask>
			<rect width="40" height="40" mask="url(#m)"/>`,
			"rect1", box(0, -40, 10, 0), 400, ""},
		{"mask of two shapes", `<mask id="m"><rect width="10" height="100" fill="white"/><rect x="20" width="10" height="100" fill="white"/></mask>
			<rect width="40" height="40" mask="url(#m)"/>`,
			"rect1", box(0, -40, 30, 0), 800, ""},
		{"mask's own rectangle", `<mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="5" height="100"><circle r="100" fill="#fff"/></mask>
			<rect width="40" height="40" mask="url(#m)"/>`,
			"rect1", box(0, -40, 5, 0), 200, ""},
		{"stroke cut", `<clipPath id="c"><rect width="50" height="50"/></clipPath>
			<line x1="-20" y1="10" x2="80" y2="10" stroke="black" clip-path="url(#c)"/>`,
			"line1", box(0, -10, 50, -10), 0, "drawLine('line1', [0, -10, 50, -10]);"},
		{"stroke of arcs cut, arcs kept", `<clipPath id="c"><rect x="0" y="-50" width="100" height="100"/></clipPath>
			<circle r="10" fill="none" stroke="black" clip-path="url(#c)"/>`,
			"circle1", box(0, -10, 10, 10), 0, "drawBezier('circle1', 'M 0 10 A 10 10 0 0 0 10 0 A 10 10 0 0 0 0 -10');"},
	} {
		file := doc(c.body)
		if strings.HasPrefix(c.body, "<svg") {
			file = c.body
		}
		s, rep, code := svgRun(t, file, Options{})
		e, err := s.Get(c.entity)
		if err != nil {
			t.Errorf("%s: %v\n%s", c.name, err, code)
			continue
		}
		if got := s.WorldBounds(e); boxOff(got, c.want) > 1e-6*boxSize(c.want) {
			t.Errorf("%s: bounds %v, want %v (skipped %v)\n%s", c.name, got, c.want, rep.Skipped, code)
		}
		if c.area > 0 {
			if got, err := s.Area(c.entity); err != nil || math.Abs(got-c.area) > 1e-3*c.area {
				t.Errorf("%s: area %v (%v), want %v\n%s", c.name, got, err, c.area, code)
			}
		}
		if c.call != "" && !strings.Contains(strings.ReplaceAll(code, "\n  ", "\n"), c.call) {
			t.Errorf("%s: the module lacks %q:\n%s", c.name, c.call, code)
		}
		for _, e := range s.Walk() {
			if strings.Contains(e.Name, "~clip") {
				t.Errorf("%s: the clip shape %q stays in the scene", c.name, e.Name)
			}
		}
		for k := range rep.Skipped {
			if (strings.Contains(k, "clip") || strings.Contains(k, "mask")) && !strings.HasSuffix(k, cutStroke[len("line"):]) {
				t.Errorf("%s: noted %q", c.name, k)
			}
		}
	}
}

const cutStroke = "line: a stroke cut aslant by a clip-path's edge ends square across itself, where SVG ends it along the edge"

// TestSVGClipText: a text is cut as a shape's fill is, its outline the font's glyphs; one
// its clip leaves nothing of is not drawn, one wholly inside is left a text.
func TestSVGClipText(t *testing.T) {
	t.Parallel()
	s, rep, code := svgRun(t, doc(`<clipPath id="c"><rect width="100" height="10"/></clipPath>
		<g font-family="sans-serif"><text id="cut" x="0" y="20" font-size="20" clip-path="url(#c)">H</text>
		<text id="away" x="0" y="40" font-size="20" clip-path="url(#c)">H</text>
		<g clip-path="url(#c)"><text id="inside" x="5" y="5" font-size="4" transform="rotate(10)">HH</text></g></g>`), Options{})
	e, err := s.Get("cut")
	if err != nil {
		t.Fatalf("%v\n%s", err, code)
	}
	// The H's top from its cap height (0.729 em) down to the clip's edge at y = 10.
	if got, want := s.WorldBounds(e), box(1.962890625, -10, 13.076171875, -20+0.7290039*20); boxOff(got, want) > 1e-3 {
		t.Errorf("cut: bounds %v, want %v\n%s", got, want, code)
	}
	if _, err := s.Get("away"); err == nil {
		t.Errorf("away drawn, which its clip leaves nothing of\n%s", code)
	}
	if !strings.Contains(code, "drawText('inside', 'HH',") || strings.Contains(code, "inside~clip") {
		t.Errorf("inside, wholly inside its clip, is not left a text:\n%s", code)
	}
	if len(rep.Skipped) > 0 {
		t.Errorf("noted %v", rep.Skipped)
	}
}

// TestSVGClipShared: a clip that many shapes name is read once for each map of their user
// space, and cuts each where it lies.
func TestSVGClipShared(t *testing.T) {
	t.Parallel()
	s, _, code := svgRun(t, doc(`<clipPath id="c"><rect width="10" height="10"/></clipPath>
		<rect id="a" width="20" height="20" clip-path="url(#c)"/>
		<rect id="b" x="5" width="20" height="20" clip-path="url(#c)"/>
		<rect id="c1" width="20" height="20" transform="translate(100 0)" clip-path="url(#c)"/>
		<g transform="scale(2)"><rect id="d" width="20" height="20" clip-path="url(#c)"/></g>`), Options{})
	for name, want := range map[string]geom.Box{"a": box(0, -10, 10, 0), "b": box(5, -10, 10, 0), "c1": box(100, -10, 110, 0), "d": box(0, -20, 20, 0)} {
		e, err := s.Get(name)
		if err != nil {
			t.Fatalf("%v\n%s", err, code)
		}
		if got := s.WorldBounds(e); boxOff(got, want) > 1e-9 {
			t.Errorf("%s: bounds %v, want %v\n%s", name, got, want, code)
		}
	}
}

// TestSVGClipNotes: a clip that leaves nothing drops the shape; what is not applied is named.
func TestSVGClipNotes(t *testing.T) {
	t.Parallel()
	s, rep, code := svgRun(t, doc(`<clipPath id="c"><rect width="10" height="10"/></clipPath>
		<clipPath id="t"><text x="0" y="10" clip-path="url(#c)">A</text></clipPath>
		<clipPath id="empty"/>
		<mask id="m"><rect width="5" height="5" fill="red"/></mask>
		<circle cx="100" cy="100" r="5" clip-path="url(#c)"/>
		<rect width="20" height="20" clip-path="url(#empty)"/>
		<rect id="t1" width="20" height="20" clip-path="url(#t)"/>
		<rect id="t2" width="20" height="20" clip-path="url(#t)"/>
		<rect id="m1" width="20" height="20" mask="url(#m)"/>
		<rect id="n1" width="20" height="20" clip-path="url(#nothing)"/>
		<line x1="-20" y1="-10" x2="80" y2="30" stroke="black" stroke-width="2" clip-path="url(#c)"/>
		<line x1="-20" y1="5" x2="80" y2="5" stroke="black" stroke-width="2" clip-path="url(#c)"/>
		<line id="dashed" x1="-20" y1="5" x2="80" y2="5" stroke="black" stroke-width="2" stroke-dasharray="2 1" stroke-linecap="round" clip-path="url(#c)"/>`), Options{})
	for _, name := range []string{"circle1", "rect1"} {
		if _, err := s.Get(name); err == nil {
			t.Errorf("%s drawn, which its clip leaves nothing of\n%s", name, code)
		}
	}
	for _, name := range []string{"t1", "m1", "n1"} {
		e, err := s.Get(name)
		if err != nil {
			t.Fatalf("%v\n%s", err, code)
		}
		if got := s.WorldBounds(e); boxOff(got, box(0, -20, 20, 0)) > 1e-9 {
			t.Errorf("%s: bounds %v, want it drawn whole", name, got)
		}
	}
	if k := "rect: clip-path #t has a text with a clip-path of its own: not applied"; rep.Skipped[k] != 2 {
		t.Errorf("skipped %q: %d, want 2, once for each rect (%v)", k, rep.Skipped[k], rep.Skipped)
	}
	for _, k := range []string{
		"rect: mask is not applied: only a mask of opaque white shapes is (it acts as a clip)",
		`rect: clip-path url(#nothing) names no clipPath of this file: not applied, as SVG does`,
		cutStroke, // the aslant line's, not the square one's
		"line: a dashed stroke cut by a clip-path keeps its caps at the cut, where SVG cuts it along the clip's edge",
	} {
		if rep.Skipped[k] != 1 {
			t.Errorf("skipped %q: %d, want 1 (%v)", k, rep.Skipped[k], rep.Skipped)
		}
	}
}

// TestSVGClipsAsSVG compares librsvg's picture of a file of clip paths and a mask with
// cadrun's picture of the imported module.
func TestSVGClipsAsSVG(t *testing.T) {
	t.Parallel()
	rep := matchesLibrsvg(t, "clip-paths.svg")
	for k := range rep.Skipped {
		if !strings.HasSuffix(k, cutStroke[len("line"):]) {
			t.Errorf("noted %q", k)
		}
	}
}

// TestSVGClipOnAnEdge: a clip of two triangles, one's corners on the other's side (found by
// FuzzSVG), which panicked the scene's booleans until they found such crossings exactly, is
// applied; the reader's guard, which notes a clip the booleans fail on, is not needed here.
func TestSVGClipOnAnEdge(t *testing.T) {
	t.Parallel()
	s, rep, code := svgRun(t, `<svg xmlns="http://www.w3.org/2000/svg"><clipPath id="c" clipPathUnits="objectBoundingBox"><path d="M0 0h1v1M.20.2h.5v.5"/></clipPath>
		<g clip-path="url(#c)"><path d="M0 0 5 9" stroke="black"/></g></svg>`, Options{})
	if _, err := s.Get("path1"); err != nil {
		t.Errorf("%v\n%s", err, code)
	}
	for k := range rep.Skipped {
		if strings.Contains(k, "the booleans failed") {
			t.Errorf("noted %q", k)
		}
	}
}

// TestSVGClipCapsAsSVG compares librsvg's picture of thick strokes cut square by clips (round,
// square and butt caps, ends inside the clip and cut ones, an outline and a polyline's
// corners cut, a line through a circle's middle) with cadrun's picture of the imported
// module: each ends along the cut, its own ends keeping their caps, and nothing is noted.
func TestSVGClipCapsAsSVG(t *testing.T) {
	t.Parallel()
	notesNothing(t, matchesLibrsvg(t, "clip_caps.svg"))
}
