package render

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// dxfTextRead is what testdata/dxftext.py reports of a file.
type dxfTextRead struct {
	Errors []string `json:"errors"`
	Fixes  []string `json:"fixes"`
	Kinds  []string `json:"kinds"`
	Texts  []struct {
		Type       string     `json:"type"`
		Layer      string     `json:"layer"`
		Color      int        `json:"color"`
		Style      string     `json:"style"`
		Font       string     `json:"font"`
		Text       string     `json:"text"`
		Insert     [2]float64 `json:"insert"`
		AlignPoint []float64  `json:"align_point"`
		Align      int        `json:"align"`
		Height     float64    `json:"height"`
		Rotation   float64    `json:"rotation"`
	} `json:"texts"`
}

func dxfTextCheck(t *testing.T, files ...string) []dxfTextRead {
	t.Helper()
	got := ezdxfReport[dxfTextRead](t, "dxftext.py", files...)
	return got
}

// dxfTextScene has a right-aligned two-line text in another font, a one-line centred red
// text in a group that is turned by 30° and scaled by 2 (drawn last, as the group is made
// last), and two texts a TEXT cannot hold: one
// mirrored and one scaled unevenly.
func dxfTextScene(t *testing.T) *scene.Scene {
	s := scene.New()
	put(t, s, "one", &scene.Text{Text: "Ø8 ^ 50% {a}\\b\tend", Pos: geom.Vec{X: 10, Y: 20}, Size: 2.5, Align: text.AlignCenter})
	put(t, s, "two", &scene.Text{Text: "first line\nsecond {x} \\P", Pos: geom.Vec{X: -30, Y: 5}, Size: 4, Align: text.AlignRight, Font: "mono"})
	put(t, s, "mirrored", &scene.Text{Text: "M", Pos: geom.Vec{X: 0, Y: -20}, Size: 3})
	put(t, s, "stretched", &scene.Text{Text: "S", Pos: geom.Vec{X: 20, Y: -20}, Size: 3})
	do(t, s.Scale("mirrored", -1, 1, scene.SpaceLocal, nil))
	do(t, s.Scale("stretched", 2, 1, scene.SpaceLocal, nil))
	_, err := s.CreateGroup("labels", []string{"one"})
	do(t, err)
	do(t, s.SetFill("one", &scene.Color{1, 0, 0, 1}))
	do(t, s.Rotate("labels", math.Pi/6, scene.SpaceWorld))
	do(t, s.Scale("labels", 2, 2, scene.SpaceWorld, nil))
	return s
}

// TestDXFTextEntities: with Text set to entities, ezdxf reads the texts back as TEXT (R12,
// and R2000 for one line) and MTEXT (R2000, several lines) with their plain text, insertion
// point, justification, height and rotation, on a STYLE naming the font file; the audit is
// clean; a mirrored or unevenly scaled text stays outlines; the default writes no text entity.
func TestDXFTextEntities(t *testing.T) {
	t.Parallel()
	s := dxfTextScene(t)
	dir := t.TempDir()
	var paths []string
	opts := []DXFOptions{
		{Text: DXFTextEntities}, {Version: DXF2000, Text: DXFTextEntities}, {}, {Version: DXF2000, Text: DXFTextOutlines},
	}
	for i, o := range opts {
		b, err := DXF(s, o)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("text%d.dxf", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	got := dxfTextCheck(t, paths...)

	world := func(name string, local geom.Vec) geom.Vec {
		e, err := s.Get(name)
		do(t, err)
		return s.WorldMatrix(e).Apply(local)
	}
	quantum, _ := dxfQuantum(s.Bounds())
	q := quantum/2 + 1e-12 // coordinates are rounded to the quantum
	near := func(a, b geom.Vec) bool { return math.Abs(a.X-b.X) <= q && math.Abs(a.Y-b.Y) <= q }
	type want struct {
		typ, layer, font, text string
		color, align           int
		insert                 geom.Vec
		height, rotation       float64
	}
	one := want{"TEXT", "labels", "DejaVuSans.ttf", "Ø8 ^ 50% {a}\\b\tend", 1, 1, world("one", geom.Vec{X: 10, Y: 20}), 5, 30}
	line := func(str string, i int) want {
		return want{"TEXT", "0", "Go-Mono.ttf", str, dxfBlack, 2, world("two", geom.Vec{X: -30, Y: 5 - float64(i)*4*text.LineSpacing}), 4, 0}
	}
	wants := [][]want{
		{line("first line", 0), line("second {x} \\P", 1), one},
		{{"MTEXT", "0", "Go-Mono.ttf", "first line\nsecond {x} \\P", dxfBlack, 3, world("two", geom.Vec{X: -30, Y: 9}), 4, 0}, one},
		nil, nil,
	}
	for i, g := range got {
		name := fmt.Sprintf("file %d (%+v)", i, opts[i])
		if len(g.Errors) > 0 || len(g.Fixes) > 0 {
			t.Errorf("%s: audit: errors %v, fixes %v", name, g.Errors, g.Fixes)
		}
		if len(g.Texts) != len(wants[i]) {
			t.Fatalf("%s: %d text entities, want %d: %+v", name, len(g.Texts), len(wants[i]), g.Texts)
		}
		// The mirrored and the stretched text are outlines: polylines, in every file.
		if n := len(g.Kinds) - len(g.Texts); n < 2 || slices.ContainsFunc(g.Kinds, func(k string) bool {
			return !strings.Contains(k, "POLYLINE") && k != "TEXT" && k != "MTEXT" && k != "VERTEX" && k != "SEQEND"
		}) {
			t.Errorf("%s: entities %v, want polylines for the mirrored and stretched texts", name, g.Kinds)
		}
		for j, w := range wants[i] {
			e := g.Texts[j]
			at := geom.Vec{X: e.Insert[0], Y: e.Insert[1]}
			if e.Type == "TEXT" && w.align != 0 {
				if len(e.AlignPoint) != 2 {
					t.Errorf("%s: %s has no alignment point", name, w.text)
					continue
				}
				at = geom.Vec{X: e.AlignPoint[0], Y: e.AlignPoint[1]}
			}
			if e.Type != w.typ || e.Layer != w.layer || e.Font != w.font || e.Text != w.text || e.Color != w.color || e.Align != w.align {
				t.Errorf("%s: entity %d is %s %q on %s, colour %d, font %s, align %d; want %s %q on %s, colour %d, font %s, align %d",
					name, j, e.Type, e.Text, e.Layer, e.Color, e.Font, e.Align, w.typ, w.text, w.layer, w.color, w.font, w.align)
			}
			if !near(at, w.insert) || math.Abs(e.Height-w.height) > 1e-9 || math.Abs(e.Rotation-w.rotation) > 1e-9 {
				t.Errorf("%s: %q at %v, height %v, rotation %v; want at %v, height %v, rotation %v",
					name, w.text, at, e.Height, e.Rotation, w.insert, w.height, w.rotation)
			}
		}
	}
}

// TestDXFTextOption: only outlines and entities are accepted, by ParseDXFText (any case) and
// by DXF, and the refusal names both.
func TestDXFTextOption(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"outlines", "ENTITIES"} {
		if _, err := ParseDXFText(s); err != nil {
			t.Errorf("ParseDXFText(%q): %v", s, err)
		}
	}
	const msg = `bad export option: DXF text "glyphs": use outlines or entities`
	if _, err := ParseDXFText("glyphs"); err == nil || err.Error() != msg || !errors.Is(err, ErrExportOption) {
		t.Errorf("ParseDXFText(glyphs) = %v, want %s", err, msg)
	}
	if _, err := DXF(scene.New(), DXFOptions{Text: "glyphs"}); err == nil || err.Error() != msg {
		t.Errorf("DXF(Text: glyphs) = %v, want %s", err, msg)
	}
}

// TestDXFEscape: what DXF would read as a code is escaped, in TEXT and in MTEXT.
func TestDXFEscape(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in          string
		text, mtext string
	}{
		{"plain 12", "plain 12", "plain 12"},
		{"a^b", "a^ b", "a^ b"},
		{"a\tb", "a^Ib", "a^Ib"},
		{"Ø8 ±0.1 µ 30°", `%%c8 %%p0.1 \U+00B5 30%%d`, `%%c8 %%p0.1 \U+00B5 30%%d`},
		{"⌀8", `\U+23008`, `\U+23008`},
		{"%%c 50%", "%%%%c 50%", "%%%%c 50%"},
		{"5%Ø 5%°", "5%%%%%c 5%%%%%d", "5%%%%%c 5%%%%%d"},
		{`a\b {c}`, `a\b {c}`, `a\\b \{c\}`},
		{`\U+0041`, `\U+005CU+0041`, `\\U+0041`},
		{"a\nb", "a^Jb", `a\Pb`},
	} {
		if got := dxfEscape(c.in, false); got != c.text {
			t.Errorf("TEXT %q: %q, want %q", c.in, got, c.text)
		}
		if got := dxfEscape(c.in, true); got != c.mtext {
			t.Errorf("MTEXT %q: %q, want %q", c.in, got, c.mtext)
		}
	}
}
