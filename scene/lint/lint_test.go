package lint

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

func mustPut(t *testing.T, s *scene.Scene, name string, sh scene.Shape) *scene.Entity {
	t.Helper()
	e, err := s.Put(name, sh)
	if err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
	return e
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// lintCase is a drawing and the findings one rule should make of it.
type lintCase struct {
	name string
	rule string
	opts Options
	draw func(t *testing.T, s *scene.Scene)
	want [][]string // the entities of each finding of rule, in order
}

func TestLintRules(t *testing.T) {
	t.Parallel()
	text := func(s string, x, y, size float64) *scene.Text {
		return &scene.Text{Text: s, Pos: geom.Vec{X: x, Y: y}, Size: size}
	}
	group := func(t *testing.T, s *scene.Scene, name string, members ...string) {
		t.Helper()
		if _, err := s.CreateGroup(name, members); err != nil {
			t.Fatal(err)
		}
	}
	square := func(t *testing.T, s *scene.Scene, prefix string, x0, y0, side float64) []string {
		var names []string
		pts := []geom.Vec{{X: x0, Y: y0}, {X: x0 + side, Y: y0}, {X: x0 + side, Y: y0 + side}, {X: x0, Y: y0 + side}}
		for i := range pts {
			n := fmt.Sprintf("%s%d", prefix, i)
			mustPut(t, s, n, scene.Line{Points: []geom.Vec{pts[i], pts[(i+1)%4]}})
			names = append(names, n)
		}
		return names
	}
	unionOf := []BooleanOp{{Fn: "booleanUnion", Inputs: []string{"a", "b"}, Result: "r"}}
	cases := []lintCase{
		{name: "diameter label on a smaller hole", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "hole", scene.Circle{Radius: 5})
			mustPut(t, s, "label", text("Ø8", 7, 0, 3))
		}, want: [][]string{{"label", "hole"}}},
		{name: "diameter label on its hole", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "hole", scene.Circle{Radius: 4})
			mustPut(t, s, "label", text("⌀8", 6, 0, 3))
		}},
		{name: "diameter label beside a plate and its hole", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "plate", scene.Rect{Width: 100, Height: 60})
			mustPut(t, s, "hole", scene.Circle{Center: geom.Vec{X: 20, Y: 0}, Radius: 3})
			mustPut(t, s, "label", text("Ø6", 25, 0, 3))
		}},
		{name: "radius label on a rounded corner", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "plate", scene.RoundedRect{Width: 40, Height: 20, Radius: 2})
			mustPut(t, s, "label", text("R3", 15, 5, 3))
		}, want: [][]string{{"label", "plate"}}},
		{name: "radius label on its arc", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "bend", scene.Arc{Radius: 5, Start: 0, End: math.Pi / 2})
			mustPut(t, s, "label", text("R5", 4, 4, 2.5))
		}},
		{name: "bounds label on a rectangle measuring otherwise", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "blank", scene.Rect{Width: 40, Height: 20})
			mustPut(t, s, "label", text("40×25", -10, 0, 3))
		}, want: [][]string{{"label", "blank"}}},
		{name: "bounds label on its rectangle, either order", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "blank", scene.Rect{Width: 40, Height: 20})
			mustPut(t, s, "label", text("20 x 40", -10, 0, 3))
		}},
		{name: "mm label against every length of a shape", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "blank", scene.Rect{Width: 40, Height: 20})
			mustPut(t, s, "label", text("12 mm", -10, 0, 3))
		}, want: [][]string{{"label", "blank"}}},
		{name: "mm label on a height, in cm", rule: RuleSizeLabel, opts: Options{UnitMM: 10}, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "blank", scene.Rect{Width: 4, Height: 2})
			mustPut(t, s, "label", text("20 mm", -1, 0, 0.3))
		}},
		{name: "text that states no size", rule: RuleSizeLabel, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "hole", scene.Circle{Radius: 5})
			mustPut(t, s, "label", text("Rev B, 2 holes", 7, 0, 3))
		}},

		{name: "texts on each other", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "a", text("PART A", 0, 0, 5))
			mustPut(t, s, "b", text("PART B", 3, 1, 5))
		}, want: [][]string{{"b", "a"}}},
		{name: "texts apart", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "a", text("PART A", 0, 0, 5))
			mustPut(t, s, "b", text("PART B", 0, 20, 5))
		}},
		{name: "an outline through a text", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "a", text("PART A", 0, 0, 5))
			mustPut(t, s, "edge", scene.Line{Points: []geom.Vec{{X: -5, Y: 1.5}, {X: 50, Y: 1.5}}})
		}, want: [][]string{{"a", "edge"}}},
		{name: "a line through a dimension's text", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "w", &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 5, Precision: 2, Size: 2.5})
			mustPut(t, s, "edge", scene.Line{Points: []geom.Vec{{X: 20, Y: -10}, {X: 20, Y: 20}}})
		}, want: [][]string{{"w", "edge"}}},
		{name: "a dimension's text on a text", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "a", text("NOTE", 17, 5.5, 2.5))
			mustPut(t, s, "w", &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 5, Precision: 2, Size: 2.5})
		}, want: [][]string{{"w", "a"}}},
		{name: "dimensions clear of each other and of the lines", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "plate", scene.Rect{Center: geom.Vec{X: 20, Y: 10}, Width: 40, Height: 20})
			mustPut(t, s, "w", &scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 0, Y: 20}, {X: 40, Y: 20}}, Offset: 8, Precision: 2, Size: 2.5})
			mustPut(t, s, "h", &scene.Dimension{Type: scene.DimVertical, Points: []geom.Vec{{X: 40, Y: 0}, {X: 40, Y: 20}}, Offset: -8, Precision: 2, Size: 2.5})
			mustPut(t, s, "d", &scene.Dimension{Type: scene.DimDiameter, Points: []geom.Vec{{X: 10, Y: 10}}, Radius: 4, Angle: math.Pi / 4, Precision: 2, Size: 2.5})
			// a line that passes the box of the turned diameter's text, but not its letters
			mustPut(t, s, "near", scene.Line{Points: []geom.Vec{{X: 15.3, Y: 14.4}, {X: 15.7, Y: 14.4}}})
		}},
		{name: "a label on a filled part", rule: RuleTextOverlap, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "part", scene.Rect{Center: geom.Vec{X: 10, Y: 2}, Width: 60, Height: 30})
			must(t, s.SetFill("part", &scene.Color{0.8, 0.8, 0.8, 1}))
			mustPut(t, s, "a", text("PART A", 0, 0, 5))
		}},

		{name: "text under 2.5 mm at 1:1", rule: RuleTextSmall, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "note", text("note", 0, 0, 2))
		}, want: [][]string{{"note"}}},
		{name: "text of 2.5 mm", rule: RuleTextSmall, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "note", text("note", 0, 0, 2.5))
		}},
		{name: "text shrunk by its group", rule: RuleTextSmall, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "note", text("note", 0, 0, 3))
			group(t, s, "g", "note")
			must(t, s.Scale("g", 0.5, 0.5, scene.SpaceLocal, nil))
		}, want: [][]string{{"note"}}},
		{name: "text at a scale of 1:2", rule: RuleTextSmall, opts: Options{Scale: 0.5}, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "note", text("note", 0, 0, 4))
		}, want: [][]string{{"note"}}},
		{name: "text in cm", rule: RuleTextSmall, opts: Options{UnitMM: 10}, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "note", text("note", 0, 0, 0.3))
		}},
		{name: "a minimum set", rule: RuleTextSmall, opts: Options{MinTextMM: 5}, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "note", text("note", 0, 0, 3))
		}, want: [][]string{{"note"}}},

		{name: "a hole drawn twice", rule: RuleDuplicate, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "h1", scene.Circle{Center: geom.Vec{X: 10, Y: 10}, Radius: 3})
			mustPut(t, s, "h2", scene.Circle{Center: geom.Vec{X: 0, Y: 0}, Radius: 3})
			must(t, s.Translate("h2", geom.Vec{X: 10, Y: 10}, scene.SpaceWorld))
		}, want: [][]string{{"h1", "h2"}}},
		{name: "a rectangle drawn again as a polygon from another corner", rule: RuleDuplicate, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "r", scene.Rect{Width: 4, Height: 2})
			mustPut(t, s, "p", scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: 2, Y: 1}, {X: -2, Y: 1}, {X: -2, Y: -1}, {X: 2, Y: -1}}}}})
			mustPut(t, s, "q", scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: -2, Y: 1}, {X: -2, Y: -1}, {X: 2, Y: -1}, {X: 2, Y: 1}}}}})
		}, want: [][]string{{"p", "q"}}},
		{name: "holes apart", rule: RuleDuplicate, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "h1", scene.Circle{Center: geom.Vec{X: 10, Y: 10}, Radius: 3})
			mustPut(t, s, "h2", scene.Circle{Center: geom.Vec{X: 10, Y: 10}, Radius: 3.1})
			mustPut(t, s, "h3", scene.Circle{Center: geom.Vec{X: 10, Y: 20}, Radius: 3})
		}},

		{name: "a line of no length", rule: RuleZeroLength, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "dot", scene.Line{Points: []geom.Vec{{X: 1, Y: 1}, {X: 1, Y: 1}}})
		}, want: [][]string{{"dot"}}},
		{name: "a short line", rule: RuleZeroLength, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "tick", scene.Line{Points: []geom.Vec{{X: 1, Y: 1}, {X: 1, Y: 1.1}}})
		}},

		{name: "an open line on a cut layer", rule: RuleOpenCut, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "slot", scene.Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 5}}})
			group(t, s, "laser_cut", "slot")
		}, want: [][]string{{"slot"}}},
		{name: "lines that close a square on a cut layer", rule: RuleOpenCut, draw: func(t *testing.T, s *scene.Scene) {
			group(t, s, "cut", square(t, s, "e", 0, 0, 10)...)
		}},
		{name: "an open line on an engraving layer", rule: RuleOpenCut, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "slot", scene.Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}}})
			group(t, s, "engrave", "slot")
		}},
		{name: "a polyline that closes on itself", rule: RuleOpenCut, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "tri", scene.Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 5, Y: 5}, {X: 0, Y: 0}}})
			group(t, s, "Cut", "tri")
		}},

		{name: "a boolean's inputs under its result", rule: RuleBooleanInputs, opts: Options{Booleans: unionOf}, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "a", scene.Circle{Radius: 5})
			mustPut(t, s, "b", scene.Circle{Center: geom.Vec{X: 5, Y: 0}, Radius: 5})
			mustPut(t, s, "r", scene.Rect{Center: geom.Vec{X: 2.5, Y: 0}, Width: 20, Height: 10})
		}, want: [][]string{{"r", "a", "b"}}},
		{name: "a boolean's inputs deleted or hidden", rule: RuleBooleanInputs, opts: Options{Booleans: unionOf}, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "a", scene.Circle{Radius: 5})
			must(t, s.SetStroke("a", nil, 0))
			mustPut(t, s, "r", scene.Rect{Center: geom.Vec{X: 2.5, Y: 0}, Width: 20, Height: 10})
		}},
		{name: "a dimension whose text states another length", rule: RuleDimensionText, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "w", &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 5, Text: "45", Precision: 2, Size: 2.5})
		}, want: [][]string{{"w"}}},
		{name: "a dimension scaled away from its text", rule: RuleDimensionText, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "w", &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 5, Text: "40", Precision: 2, Size: 2.5})
			group(t, s, "g", "w")
			must(t, s.Scale("g", 2, 2, scene.SpaceWorld, nil))
		}, want: [][]string{{"w"}}},
		{name: "dimensions whose texts state what they measure", rule: RuleDimensionText, draw: func(t *testing.T, s *scene.Scene) {
			mustPut(t, s, "w", &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 0}, {X: 40, Y: 0}}, Offset: 5, Text: "40.0 mm", Precision: 2, Size: 2.5})
			mustPut(t, s, "d", &scene.Dimension{Type: scene.DimDiameter, Points: []geom.Vec{{X: 0, Y: 0}}, Radius: 4, Text: "4x Ø8 H7", Precision: 2, Size: 2.5})
			mustPut(t, s, "kept", &scene.Dimension{Type: scene.DimRadius, Points: []geom.Vec{{X: 0, Y: 0}}, Radius: 4, Text: "<> typ.", Precision: 2, Size: 2.5})
			mustPut(t, s, "note", &scene.Dimension{Type: scene.DimRadius, Points: []geom.Vec{{X: 0, Y: 0}}, Radius: 4, Text: "see note", Precision: 2, Size: 2.5})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := scene.New()
			c.draw(t, s)
			var got [][]string
			for _, f := range Check(s, c.opts) {
				if f.Rule == c.rule {
					got = append(got, f.Entities)
				}
				if !strings.HasPrefix(f.String(), f.Rule+": ") || strings.Contains(f.String(), "\n") {
					t.Errorf("finding %q is not one line starting with its rule", f)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%s findings mismatch (-want +got):\n%s\nall: %q", c.rule, diff, Check(s, c.opts))
			}
		})
	}
}

// TestLintFindingText pins how a finding reads.
func TestLintFindingText(t *testing.T) {
	t.Parallel()
	s := scene.New()
	mustPut(t, s, "hole", scene.Circle{Radius: 5})
	mustPut(t, s, "label", &scene.Text{Text: "Ø8", Pos: geom.Vec{X: 7, Y: 0}, Size: 3})
	got := Check(s, Options{})
	if len(got) != 1 {
		t.Fatalf("Lint = %q, want one finding", got)
	}
	want := `size-label: text "label" says Ø8, but the nearest circle "hole" measures Ø10 (at `
	if !strings.HasPrefix(got[0].String(), want) {
		t.Errorf("finding = %q, want it to start %q", got[0], want)
	}
}

// overlappingTexts draws n texts over each other, as a one-line loop of a script can: every
// text overlaps every other, n·(n-1)/2 pairs.
func overlappingTexts(t *testing.T, n int) *scene.Scene {
	s := scene.New()
	for i := range n {
		mustPut(t, s, fmt.Sprintf("t%d", i), &scene.Text{Text: "WWWWWWWWWW", Pos: geom.Vec{X: float64(i%100) * 0.1, Y: float64(i/100) * 0.1}, Size: 5})
	}
	return s
}

// TestLintOverlappingTextsBounded: texts drawn over each other make a finding each, naming
// at most maxLintNamed of the others and counting the rest, so that the findings grow with
// the texts, not with their pairs (a finding naming every earlier text made 12,000 texts
// take 2 GB).
func TestLintOverlappingTextsBounded(t *testing.T) {
	t.Parallel()
	const n = 2000
	found := Check(overlappingTexts(t, n), Options{})
	names, bytes := 0, 0
	for _, f := range found {
		names += len(f.Entities)
		bytes += len(f.Message)
	}
	if names > 11*n || bytes > 200*n {
		t.Errorf("the findings of %d overlapping texts name %d entities in %d bytes; want at most %d names, %d bytes", n, names, bytes, 11*n, 200*n)
	}
	want := `text-overlap: text "t11" overlaps text "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9" and 1 more (at `
	if len(found) < 11 || !strings.HasPrefix(found[10].String(), want) || len(found[10].Entities) != 11 {
		t.Errorf("the 11th finding is %v; want it to start %q and name 11 entities", found[min(10, len(found)-1)], want)
	}
}

// TestLintBounds: the lint stops at its budget of checks, its deadline and its cap on
// findings, whichever comes first, and says so in a last finding naming the limit.
func TestLintBounds(t *testing.T) {
	t.Parallel()
	texts := overlappingTexts(t, 300) // 44,850 pairs
	tests := []struct {
		name     string
		opts     Options
		findings int      // before the notes
		notes    []string // what each note says, in part
	}{
		{"whole", Options{}, 299, nil},
		{"budget", Options{MaxChecks: 10_000}, 18, []string{"the lint stopped after 10000 checks (MaxLintChecks) in rule text-overlap"}},
		{"findings", Options{MaxFindings: 5}, 5, []string{"294 more findings were not kept (MaxLintFindings): these are the first 5"}},
		{"both", Options{MaxChecks: 10_000, MaxFindings: 5}, 5, []string{"13 more findings were not kept (MaxLintFindings)", "(MaxLintChecks)"}},
		{"deadline", Options{Deadline: time.Now().Add(-time.Second)}, 0, []string{"the lint stopped at its time limit (MaxLintTime) after 1 checks in rule text-overlap"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found := Check(texts, tt.opts)
			var notes []string
			for _, f := range found {
				if IsNote(f) {
					notes = append(notes, f.String())
				} else if len(notes) > 0 {
					t.Errorf("finding %q comes after a note; notes come last", f)
				}
			}
			if got := len(found) - len(notes); got != tt.findings {
				t.Errorf("%d findings, want %d", got, tt.findings)
			}
			if len(notes) != len(tt.notes) {
				t.Fatalf("notes %q; want %d", notes, len(tt.notes))
			}
			for i, want := range tt.notes {
				if !strings.Contains(notes[i], want) || !strings.HasPrefix(notes[i], RuleLintLimit+": ") {
					t.Errorf("note %q; want it to say %q", notes[i], want)
				}
			}
			if again := Check(texts, tt.opts); tt.opts.Deadline.IsZero() && !cmp.Equal(found, again) {
				t.Errorf("a second lint found otherwise: the budget must make it the same every time")
			}
		})
	}
}

// TestLintCountsOutlinePoints lints an open Bézier path of 1,000 cusps on a cut layer, a
// quarter of a million points of outline that the open-cut rule flattens and no comparison
// counts: the points are checks, so a budget of 10,000 stops the lint there, naming it.
func TestLintCountsOutlinePoints(t *testing.T) {
	t.Parallel()
	s := scene.New()
	mustPut(t, s, "w0", &scene.PathShape{Data: "M 0 0" + strings.Repeat(" c 0 350 0 -350 0 0", 1000)})
	if _, err := s.CreateGroup("cut", []string{"w0"}); err != nil {
		t.Fatal(err)
	}
	found := Check(s, Options{MaxChecks: 10_000})
	if len(found) == 0 || !strings.Contains(found[len(found)-1].String(), "stopped after 10000 checks (MaxLintChecks) in rule open-cut") {
		t.Errorf("lint = %v, want it stopped by MaxLintChecks in open-cut", found)
	}
}

// TestLintQuotesLittle: a finding quotes at most maxQuotedRunes of a dimension's text, so
// that it stays a line whatever the text.
func TestLintQuotesLittle(t *testing.T) {
	t.Parallel()
	s := scene.New()
	mustPut(t, s, "d", &scene.Dimension{Type: scene.DimRadius, Points: []geom.Vec{{X: 0, Y: 0}}, Radius: 4, Text: "R5 " + strings.Repeat("é", 5000), Precision: 2, Size: 2.5})
	found := Check(s, Options{Rules: []string{RuleDimensionText}})
	want := `dimension "d" says "R5 ` + strings.Repeat("é", 97) + `…", but it measures`
	if len(found) != 1 || !strings.HasPrefix(found[0].Message, want) {
		t.Errorf("findings %q; want one starting %q", found, want)
	}
	if got, want := clipRunes("abc", 3), "abc"; got != want {
		t.Errorf("clipRunes(abc, 3) = %q, want %q", got, want)
	}
}

// TestLintRulesOnly: Options.Rules runs only the rules named.
func TestLintRulesOnly(t *testing.T) {
	t.Parallel()
	s := overlappingTexts(t, 3)
	mustPut(t, s, "small", &scene.Text{Text: "x", Pos: geom.Vec{X: 100, Y: 100}, Size: 1})
	var got []string
	for _, f := range Check(s, Options{Rules: []string{RuleTextSmall}}) {
		got = append(got, f.Rule)
	}
	if diff := cmp.Diff([]string{RuleTextSmall}, got); diff != "" {
		t.Errorf("rules mismatch (-want +got):\n%s", diff)
	}
}

// BenchmarkLint lints a 10,000-entity scene: a grid of plates, each with a hole, a size label
// (right or wrong) and every tenth hole drawn twice.
func BenchmarkLint(b *testing.B) {
	s := scene.New()
	n := 0
	put := func(name string, sh scene.Shape) {
		if _, err := s.Put(name, sh); err != nil {
			b.Fatal(err)
		}
		n++
	}
	for i := 0; n < 10_000; i++ {
		x, y := float64(i%50)*40, float64(i/50)*40
		put(fmt.Sprintf("plate%d", i), scene.RoundedRect{Center: geom.Vec{X: x, Y: y}, Width: 30, Height: 30, Radius: 2})
		put(fmt.Sprintf("hole%d", i), scene.Circle{Center: geom.Vec{X: x, Y: y}, Radius: 4})
		put(fmt.Sprintf("label%d", i), &scene.Text{Text: fmt.Sprintf("Ø%d", 8+i%2), Pos: geom.Vec{X: x + 5, Y: y + 5}, Size: 3})
		if i%10 == 0 {
			put(fmt.Sprintf("again%d", i), scene.Circle{Center: geom.Vec{X: x, Y: y}, Radius: 4})
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if len(Check(s, Options{})) == 0 {
			b.Fatal("no findings")
		}
	}
}

// BenchmarkLintW1 lints W1's scene (bench/w1.js): 10,000 circles and turned rectangles on a
// grid, no texts, no cut layers and no booleans, the lint a run of many shapes pays.
func BenchmarkLintW1(b *testing.B) {
	s := scene.New()
	for k := range 10_000 {
		name, x, y := fmt.Sprintf("e%d", k), float64(10*(k%100)), float64(10*(k/100))
		if k%2 == 0 {
			if _, err := s.Put(name, scene.Circle{Center: geom.Vec{X: x, Y: y}, Radius: 4}); err != nil {
				b.Fatal(err)
			}
			continue
		}
		if _, err := s.Put(name, scene.Rect{Width: 6, Height: 4}); err != nil {
			b.Fatal(err)
		}
		if err := s.Rotate(name, float64(k%90)*math.Pi/180, scene.SpaceWorld); err != nil {
			b.Fatal(err)
		}
		if err := s.Translate(name, geom.Vec{X: x, Y: y}, scene.SpaceWorld); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if found := Check(s, Options{}); len(found) != 0 {
			b.Fatalf("findings %q; W1 has none", found)
		}
	}
}
