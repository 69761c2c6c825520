// Package lint is the drawing lint: it reads a finished scene as a checker in a drawing
// office reads a sheet, and says what it noticed (Finding), never blocking anything. Start
// with Check; the rules and their thresholds are in docs/lint.md.
//
// What it checks: size labels against the shapes they label, texts over each other or over
// outlines, text too small to read on paper, outlines a laser would cut twice or that end in
// mid-air, zero-length lines, boolean inputs left under their results, and dimension texts
// that state another value than the one measured. It is a pure function of a scene (and of
// the boolean operations the run that made it reported, which the scene does not keep), so
// that every entry point (the write answers, `scene lint`, `cadrun run`) says the same thing.
//
// It sits above the model, as a writer does: it reads a scene through scene's exported API
// and the few measures scene exports for it (scene/lintview.go), and nothing in scene calls
// it, so a newcomer finds the model without reading the lint.
//
// How rules are added: each rule visits every entity once and looks at neighbours through a
// grid of world boxes (lintGrid), never at every pair, so a 10,000-entity scene lints in
// milliseconds. Rules are listed in lintRules; a new one is one more entry, with what it
// reads, so that a scene without it (no texts: no text rule) does not run it, and a Rule
// constant naming it.
//
// Its budgets: a drawing can still put every shape next to every other (12,000 texts drawn
// over each other). The rules that compare shapes count what they compare (a pair looked at,
// an edge or a point compared) against one budget, MaxLintChecks, and stop where it runs out,
// and the lint keeps at most MaxLintFindings findings, each naming at most maxLintNamed
// others; a caller may give it a deadline too (Options.Deadline; a run's is runtime's
// MaxLintTime). So the lint is bounded in time and memory wherever it runs, and it says where
// it stopped, as a last finding of rule lint-limit, rather than block or fail anything.
package lint

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/kernel"
)

// DefaultMinTextMM is the smallest text height on paper, in millimetres, that the lint lets
// pass when Options.MinTextMM is not set: 2.5 mm, the smallest lettering ISO 3098 uses
// on drawings.
const DefaultMinTextMM = 2.5

// MaxLintChecks bounds the work of one lint: the grid cells, the pairs of shapes, the outline
// edges and the points the rules that compare shapes with each other (size-label,
// text-overlap, duplicate, open-cut, boolean-inputs) look at, together. An ordinary drawing
// makes a few dozen per entity (BenchmarkLint's 10,000 entities make about 400,000); texts
// drawn over each other make one per pair (12,000 of them, 72 million). Past it those rules
// stop, in about half a second, and a last finding says so (RuleLintLimit).
const MaxLintChecks = 20_000_000

// MaxLintFindings caps the findings one lint keeps; the rest are counted in a last finding
// (RuleLintLimit).
const MaxLintFindings = 10_000

// maxLintNamed caps the other entities one finding names (the texts a text overlaps, the
// outlines that cross it); the rest are counted in its message.
const maxLintNamed = 10

// Options tune the lint.
type Options struct {
	// MinTextMM is the smallest text height on paper, in mm; 0 means DefaultMinTextMM.
	MinTextMM float64
	// UnitMM is the length of one scene unit in millimetres (10 for a drawing in cm); 0
	// means 1, the exporters' default unit. Labels in mm ("12 mm") are read through it.
	UnitMM float64
	// Scale is the export scale, paper over real (0.5 for 1:2); 0 means 1:1. A text's
	// height on paper is its height in scene units times UnitMM times Scale.
	Scale float64
	// Booleans are the boolean operations of the run that made the scene, in order; the
	// scene keeps no record of them, so without them the boolean rule finds nothing.
	Booleans []BooleanOp
	// Rules, when set, are the only rules run (RuleTextSmall, ...); nil runs them all.
	Rules []string
	// MaxChecks is the budget of comparisons; 0 means MaxLintChecks.
	MaxChecks int
	// MaxFindings caps the findings kept; 0 means MaxLintFindings.
	MaxFindings int
	// Deadline, when set, stops the rules that compare shapes at that time, as the budget
	// does: a run's lint has its own time after the script (runtime's MaxLintTime), which the
	// note names. Findings then depend on the machine's speed; the budget alone does not.
	Deadline time.Time
}

// BooleanOp is one boolean operation a run made: its function, its inputs and its result.
type BooleanOp struct {
	Fn     string   `json:"fn"`
	Inputs []string `json:"inputs"`
	Result string   `json:"result"`
}

// Finding is one thing the lint noticed: the rule, the entities it concerns and where.
type Finding struct {
	Rule     string   `json:"rule"`
	Entities []string `json:"entities"`
	At       geom.Vec `json:"at"` // a world point on or near the entities, to look at
	Message  string   `json:"message"`
}

// String is the finding on one line: `rule: message (at x, y)`; a note of the lint about
// itself (RuleLintLimit), which concerns no entity, has no place.
func (f Finding) String() string {
	if f.Rule == RuleLintLimit {
		return f.Rule + ": " + f.Message
	}
	return fmt.Sprintf("%s: %s (at %s, %s)", f.Rule, f.Message, lintNum(f.At.X), lintNum(f.At.Y))
}

// lintNum prints a coordinate with at most 4 decimals, no trailing zeros.
func lintNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// Lint rule names, in the order findings come.
const (
	RuleSizeLabel     = "size-label"
	RuleTextOverlap   = "text-overlap"
	RuleTextSmall     = "text-small"
	RuleDuplicate     = "duplicate"
	RuleZeroLength    = "zero-length"
	RuleOpenCut       = "open-cut"
	RuleBooleanInputs = "boolean-inputs"
	RuleDimensionText = "dimension-text"
	// RuleLintLimit is the lint's note about itself, last: it stopped at MaxLintChecks or
	// its deadline, or kept only MaxLintFindings findings.
	RuleLintLimit = "lint-limit"
)

// lintRules are the rules, run in this order. A rule runs only where it has something to
// read (reads, from what the linter counted as it read the scene): a drawing without texts
// runs no text rule, and builds no grid for them.
var lintRules = []struct {
	name  string
	run   func(*linter)
	reads func(*linter) bool
}{
	{RuleSizeLabel, (*linter).sizeLabels, func(l *linter) bool { return l.labels > 0 }},
	{RuleTextOverlap, (*linter).textOverlaps, func(l *linter) bool { return len(l.texts) > 0 }},
	{RuleTextSmall, (*linter).smallText, func(l *linter) bool { return len(l.texts) > 0 }},
	{RuleDuplicate, (*linter).duplicates, func(l *linter) bool { return len(l.shapes) > 1 }},
	{RuleZeroLength, (*linter).zeroLength, func(l *linter) bool { return l.lines > 0 }},
	{RuleOpenCut, (*linter).openCuts, func(l *linter) bool { return l.cuts > 0 }},
	{RuleBooleanInputs, (*linter).keptInputs, func(l *linter) bool { return len(l.opts.Booleans) > 0 }},
	{RuleDimensionText, (*linter).dimensionTexts, func(l *linter) bool { return l.dims > 0 }},
}

// Check lints the drawing and answers what it found, rule by rule, each rule's findings in
// paint order, at most Options.MaxFindings of them, and then a finding of rule
// RuleLintLimit for each bound the lint met.
func Check(s *scene.Scene, opts Options) []Finding {
	l := newLinter(s, opts)
	for _, rule := range lintRules {
		if (opts.Rules == nil || slices.Contains(opts.Rules, rule.name)) && rule.reads(l) {
			l.rule = rule.name
			rule.run(l)
		}
	}
	l.notes()
	return l.found
}

// IsNote reports whether f is the lint's note about itself (RuleLintLimit), which a list
// cut short still shows.
func IsNote(f Finding) bool { return f.Rule == RuleLintLimit }

// lintShape is a shape entity as the rules see it, in world coordinates.
type lintShape struct {
	e      *scene.Entity
	world  geom.Affine
	box    geom.Box
	layer  string // the top-level group it is in, "" at the top level
	cut    bool   // layer is a cut layer (IsCutLayer)
	draws  bool   // it has a visible fill or stroke
	closed bool   // it encloses an area (an arc does not: it is cut as an arc)
	outln  []geom.Polyline
	text   int     // its place among the texts (linter.texts, linter.frames), for a text or a dimension
	size   float64 // a text's or a dimension text's height in world units
}

// linter holds the scene read once for all rules.
type linter struct {
	s      *scene.Scene
	opts   Options
	shapes []*lintShape
	texts  []*lintShape
	// frames are where the texts' letters stand: their box in the text's own frame (turned
	// with it) and the map from that frame to the world; a text's is its world box, unturned.
	// They are kept beside the texts rather than in every shape, which a scene of 10,000
	// shapes and no text would clear and fill for nothing.
	frames []drafting.DimText
	// layouts lays each dimension out once: its bounds, its text's frame, its outline.
	layouts scene.Layouts
	all     geom.Box  // the bounds of every shape
	grid    *lintGrid // made by the first rule that looks near a shape (near)
	tol     float64   // what counts as the same point: a millionth of the drawing's size
	// What the rules read, counted as the scene is: texts that may state a size, lines, shapes
	// on cut layers, dimensions.
	labels, lines, cuts, dims int
	says                      []string // checkClaim's, kept between claims

	found []Finding
	more  int // findings past opts.MaxFindings, counted and not kept

	rule      string // the rule running, for the note of where the lint stopped
	checks    int    // comparisons made (spend)
	clock     int    // checks at which the deadline is looked at next
	stopped   string // the rule in which the budget or the deadline ran out; "" while neither has
	stoppedBy string // "budget" or "deadline"
}

// lintClockChecks is how many checks pass between two looks at the deadline.
const lintClockChecks = 4096

// spend counts n comparisons against the budget and reports whether the rules that compare
// shapes may go on; once the budget or the deadline runs out they stop, for good.
func (l *linter) spend(n int) bool {
	if l.stopped != "" {
		return false
	}
	l.checks += n
	switch {
	case l.checks > l.opts.MaxChecks:
		l.stopped, l.stoppedBy = l.rule, "budget"
	case l.checks >= l.clock && !l.opts.Deadline.IsZero():
		l.clock = l.checks + lintClockChecks
		if !time.Now().Before(l.opts.Deadline) {
			l.stopped, l.stoppedBy = l.rule, "deadline"
		}
	}
	return l.stopped == ""
}

// comparing are the rules that compare shapes with each other, which share the budget.
const comparing = "size-label, text-overlap, duplicate, open-cut, boolean-inputs"

// notes adds the lint's notes about itself, last: where it stopped, and how many findings it
// did not keep.
func (l *linter) notes() {
	if l.more > 0 {
		l.found = append(l.found, Finding{Rule: RuleLintLimit, Message: fmt.Sprintf(
			"%d more findings were not kept (MaxLintFindings): these are the first %d; fix them and run again to see the rest",
			l.more, l.opts.MaxFindings)})
	}
	switch l.stoppedBy {
	case "budget":
		l.found = append(l.found, Finding{Rule: RuleLintLimit, Message: fmt.Sprintf(
			"the lint stopped after %d checks (MaxLintChecks) in rule %s, so the rules that compare shapes (%s) looked at only part of the drawing; "+
				"texts or outlines drawn over each other by the thousand make the most checks: spread them out or draw fewer",
			l.opts.MaxChecks, l.stopped, comparing)})
	case "deadline":
		l.found = append(l.found, Finding{Rule: RuleLintLimit, Message: fmt.Sprintf(
			"the lint stopped at its time limit (MaxLintTime) after %d checks in rule %s, so the rules that compare shapes (%s) looked at only part of the drawing; "+
				"the machine is busy, or texts or outlines are drawn over each other by the thousand: spread them out or draw fewer",
			l.checks, l.stopped, comparing)})
	}
}

func newLinter(s *scene.Scene, opts Options) *linter {
	if opts.MinTextMM <= 0 {
		opts.MinTextMM = DefaultMinTextMM
	}
	if !(opts.UnitMM > 0) {
		opts.UnitMM = 1
	}
	if !(opts.Scale > 0) {
		opts.Scale = 1
	}
	if opts.MaxChecks <= 0 {
		opts.MaxChecks = MaxLintChecks
	}
	if opts.MaxFindings <= 0 {
		opts.MaxFindings = MaxLintFindings
	}
	l := &linter{s: s, opts: opts}
	// Every shape in one allocation: a scene has at most Len shapes, so the slab never grows
	// and the pointers into it stay put.
	slab := make([]lintShape, 0, s.Len())
	l.shapes = make([]*lintShape, 0, s.Len())
	world := make([]geom.Affine, 0, 8)
	layers := make([]string, 0, 8)
	cut := false // layers[0] is a cut layer
	for depth, e := range s.Walk() {
		m := e.Transform.Matrix()
		if depth > 0 {
			m = world[depth-1].Mul(m)
		}
		layer := ""
		if depth > 0 {
			layer = layers[0]
		}
		if e.IsGroup() {
			world = append(world[:depth], m)
			if depth == 0 {
				layers = append(layers[:0], e.Name)
				cut = IsCutLayer(e.Name)
			} else {
				layers = append(layers[:depth], layers[0])
			}
			continue
		}
		if e.Kind() == scene.KindSolid {
			continue // the lint reads the sheet; a solid is not drawn on it
		}
		slab = append(slab, lintShape{e: e, world: m, box: l.bounds(e.Shape, m), layer: layer, cut: depth > 0 && cut, draws: draws(e), closed: encloses(e.Shape)})
		sh := &slab[len(slab)-1]
		l.all.Union(sh.box)
		l.shapes = append(l.shapes, sh)
		if sh.cut {
			l.cuts++
		}
		switch g := e.Shape.(type) {
		case scene.Line:
			l.lines++
		case *scene.Text:
			sh.text, sh.size = len(l.texts), g.Size*scaleOf(m)
			l.texts, l.frames = append(l.texts, sh), append(l.frames, drafting.DimText{Box: sh.box, Place: geom.Identity})
			if !g.NoLint {
				l.labels++
			}
		case *scene.Dimension:
			sh.text, sh.size = len(l.texts), g.Size
			_, t := l.layouts.Of(g, m)
			l.texts, l.frames = append(l.texts, sh), append(l.frames, t)
			l.dims++
		}
	}
	size := max(l.all.Size().X, l.all.Size().Y)
	l.tol = max(size*1e-6, 1e-9)
	return l
}

// bounds is scene.ShapeBounds, found for a text that is not turned from its glyphs' own box
// instead of from every glyph moved (the bulk of the lint's time on a scene of labels), and
// for a dimension from the layout the lint keeps.
func (l *linter) bounds(sh scene.Shape, m geom.Affine) geom.Box {
	if d, ok := sh.(*scene.Dimension); ok {
		p, _ := l.layouts.Of(d, m)
		return p.Bounds()
	}
	t, ok := sh.(*scene.Text)
	if !ok || m.B != 0 || m.C != 0 {
		return scene.ShapeBounds(sh, m)
	}
	b := t.GlyphBox()
	if !b.NonEmpty {
		return b
	}
	var out geom.Box
	out.Extend(m.Apply(b.Min.Add(t.Pos)))
	out.Extend(m.Apply(b.Max.Add(t.Pos)))
	return out
}

// encloses reports whether a shape's outline is closed: a line's or an arc's is not (an arc
// is cut as an arc, though its region is the pie slice), nor a path's with an open subpath.
func encloses(sh scene.Shape) bool {
	switch sh.(type) {
	case scene.Line, scene.Arc, *scene.Dimension:
		return false
	case *scene.PathShape:
		_, err := sh.Region()
		return err == nil
	}
	return true
}

// draws reports whether an entity shows: a group, or a shape with a visible fill or stroke
// (a shape styled with neither is kept on purpose, for its area, and is never seen).
func draws(e *scene.Entity) bool {
	if e.IsGroup() {
		return true
	}
	st := e.Style
	return st.Fill != nil && st.Fill[3] > 0 || st.Stroke != nil && st.Stroke[3] > 0
}

// add keeps a finding, or counts it past the cap.
func (l *linter) add(rule string, at geom.Vec, msg string, entities ...string) {
	if len(l.found) >= l.opts.MaxFindings {
		l.more++
		return
	}
	l.found = append(l.found, Finding{Rule: rule, Entities: entities, At: at, Message: msg})
}

// outline is sh's world outline as polylines, flattened once. The points it makes are
// checks too, counted before they are made: a long Bézier path is a million points
// (geom.MaxFlattenPoints) that no comparison counted; none once the budget is spent.
func (l *linter) outline(sh *lintShape) []geom.Polyline {
	if sh.outln == nil {
		if l.stopped != "" {
			return nil
		}
		var p geom.Path
		if d, ok := sh.e.Shape.(*scene.Dimension); ok {
			p, _ = l.layouts.Of(d, sh.world)
		} else {
			p = scene.AppendOutline(nil, sh.e.Shape, sh.world)
		}
		tol := p.BudgetTolerance(scene.CurveTolerance(sh.box), geom.MaxFlattenPoints)
		n := p.FlattenPoints(tol)
		if !l.spend(n) {
			return nil
		}
		if n <= geom.MaxFlattenPoints {
			sh.outln = p.FlattenAt(tol, n) // within the budget at tol: Flatten would count again
		} else {
			sh.outln = p.Flatten(tol)
		}
	}
	return sh.outln
}

// scaleOf is how much m enlarges lengths, on average over directions of area: sqrt|det|.
func scaleOf(m geom.Affine) float64 { return math.Sqrt(math.Abs(m.Det())) }

// boxesOverlap reports whether two non-empty boxes share a point.
func boxesOverlap(a, b geom.Box) bool {
	return a.NonEmpty && b.NonEmpty && a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}

// grow is b with margin d on every side.
func grow(b geom.Box, d float64) geom.Box {
	return geom.Box{Min: geom.Vec{X: b.Min.X - d, Y: b.Min.Y - d}, Max: geom.Vec{X: b.Max.X + d, Y: b.Max.Y + d}, NonEmpty: b.NonEmpty}
}

// --- rule: size labels ---------------------------------------------------------------

// labelReach is how far from a label's bounds, in heights of its text, the shape it labels
// may lie.
const labelReach = 3

// claim is one size a text states.
type claim struct {
	kind   byte // 'D' diameter, 'R' radius, 'B' bounds a x b, 'L' length (mm)
	a, b   float64
	tolA   float64
	tolB   float64
	phrase string
}

// The lint's patterns are compiled at first use, as the package's other values: a process
// that never lints (cadrun version, a server before its first call) does not pay for them.
var (
	reDiameter = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[Ø⌀∅]\s?(\d+(?:\.\d+)?)`) })
	reRadius   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[^\pL\d])R\s?(\d+(?:\.\d+)?)`) })
	reBounds   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\d+(?:\.\d+)?)\s?[x×X]\s?(\d+(?:\.\d+)?)(\s?mm\b)?`)
	})
	reLength = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\d+(?:\.\d+)?)\s?mm\b`) })
	// reGeneralNote finds a note about several shapes, or the whole sheet, rather than a
	// label beside one: "6 HOLES Ø10 EQ SP", "4x Ø6", "R2 TYP", "ALL FILLETS R1".
	reGeneralNote = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b\d+\s?[x×]\s?[Ø⌀∅R]|\b\d+\s?(?:holes?|slots?|places|pl|off)\b|\beq\.?\s?sp|\btyp(?:ical)?\b|\ball\b`)
	})
)

// halfDigit is half a unit of the number's last digit: the tolerance of a stated value.
func halfDigit(num string) float64 {
	if i := strings.IndexByte(num, '.'); i >= 0 {
		return 0.5 * math.Pow(10, -float64(len(num)-i-1))
	}
	return 0.5
}

// claims reads the sizes a text states; mm is the length of a millimetre in scene units.
func claims(text string, mm float64) []claim {
	var out []claim
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	for _, m := range reDiameter().FindAllStringSubmatch(text, -1) {
		out = append(out, claim{kind: 'D', a: num(m[1]), tolA: halfDigit(m[1]), phrase: m[0]})
	}
	for _, m := range reRadius().FindAllStringSubmatch(text, -1) {
		out = append(out, claim{kind: 'R', a: num(m[1]), tolA: halfDigit(m[1]), phrase: strings.TrimSpace(strings.TrimLeft(m[0], " ([,;:"))})
	}
	rest := text
	for _, m := range reBounds().FindAllStringSubmatch(text, -1) {
		k := 1.0
		if m[3] != "" {
			k = mm
		}
		out = append(out, claim{kind: 'B', a: num(m[1]) * k, b: num(m[2]) * k, tolA: halfDigit(m[1]) * k, tolB: halfDigit(m[2]) * k, phrase: m[0]})
		rest = strings.Replace(rest, m[0], " ", 1)
	}
	for _, m := range reLength().FindAllStringSubmatch(rest, -1) {
		out = append(out, claim{kind: 'L', a: num(m[1]) * mm, tolA: halfDigit(m[1]) * mm, phrase: m[0]})
	}
	return out
}

// nearValue reports whether v is the stated value within its tolerance.
func nearValue(v, want, tol float64) bool { return math.Abs(v-want) <= tol*(1+1e-9) }

// sizeLabels checks each text that states a size against the shapes near it: it passes when
// one of them measures what it says, and otherwise names the nearest that could. A general
// note ("6 HOLES Ø10 EQ SP") speaks of shapes anywhere on the sheet, and is checked against
// them all; a text drawn with lint: false (scene.Text.NoLint) is not read.
func (l *linter) sizeLabels() {
	mm := 1 / l.opts.UnitMM // a millimetre in scene units
	var sheet []*lintShape  // every shape a general note may speak of, gathered once
	for _, t := range l.texts {
		tx, ok := t.e.Shape.(*scene.Text)
		if !ok || tx.NoLint {
			continue // a dimension's text is its own rule's (dimensionTexts)
		}
		cs := claims(tx.Text, mm)
		if len(cs) == 0 {
			continue
		}
		general := reGeneralNote().MatchString(tx.Text)
		var cands []*lintShape
		if general {
			if sheet == nil {
				sheet = make([]*lintShape, 0, len(l.shapes))
				for _, o := range l.shapes {
					if o.size == 0 {
						sheet = append(sheet, o)
					}
				}
			}
			cands = sheet
		} else {
			h := tx.Size * scaleOf(t.world)
			reach := grow(t.box, labelReach*h)
			l.near(reach, func(o *lintShape) bool {
				if o != t && o.size == 0 && boxesOverlap(reach, o.box) {
					cands = append(cands, o)
				}
				return true
			})
		}
		for _, c := range cs {
			if l.stopped != "" {
				return
			}
			l.checkClaim(t, c, cands, general)
		}
	}
}

// checkClaim checks one claim against the shapes near its text (of a general note, against
// every shape). The nearest is found by the distance to its outline, not to its box: a label
// beside a hole inside a ring lies in the ring's box, and far from the ring.
func (l *linter) checkClaim(t *lintShape, c claim, cands []*lintShape, general bool) {
	// Every candidate is measured before any gap is: a label that one of them measures (most)
	// is then done without flattening the outlines of the others.
	// says[i] is what cands[i] measures, "" for a shape c cannot be about (measures says
	// something of every shape it fits); kept in the linter, as a general note's candidates
	// are every shape.
	says := l.says[:0]
	fitting := false
	for _, o := range cands {
		if !l.spend(1) {
			return
		}
		ok, fits, said := l.measures(o, c)
		if ok {
			return
		}
		if !fits {
			said = ""
		}
		says, fitting = append(says, said), fitting || fits
	}
	l.says = says
	if !fitting {
		return
	}
	var best *lintShape
	var bestGap, bestCentre float64
	var bestSays string
	for i, o := range cands {
		if says[i] == "" {
			continue
		}
		g, cd := l.labelGap(t.box, o), t.box.Center().Sub(o.box.Center()).Len()
		if best == nil || g < bestGap || g == bestGap && cd < bestCentre {
			best, bestGap, bestCentre, bestSays = o, g, cd, says[i]
		}
	}
	if best == nil || l.stopped != "" {
		return // nothing could be meant, or what was measured is not all there is
	}
	but := "but the nearest"
	if general {
		but = "but no shape in the drawing measures that; the nearest"
	}
	l.add(RuleSizeLabel, t.box.Center(), fmt.Sprintf("text %q says %s, %s %s %q measures %s", t.e.Name, clipRunes(c.phrase, maxQuotedRunes), but, best.e.Kind(), best.e.Name, bestSays), t.e.Name, best.e.Name)
}

// labelGap is how far the box b of a label lies from o's outline: 0 where the outline passes
// through it. A circle is measured in closed form; other shapes on their flattened outline
// (outline, counted against the budget), or on their box once the budget is spent.
func (l *linter) labelGap(b geom.Box, o *lintShape) float64 {
	if c, ok := o.e.Shape.(scene.Circle); ok {
		if k, ok := kernel.SimilarityScale(o.world); ok {
			cen, r := o.world.Apply(c.Center), c.Radius*k
			near, far := kernel.BoxGap(b, geom.Box{Min: cen, Max: cen, NonEmpty: true}), 0.0
			for _, p := range boxCorners(b) {
				far = max(far, p.Sub(cen).Len())
			}
			if near <= r && r <= far {
				return 0
			}
			return min(math.Abs(near-r), math.Abs(far-r))
		}
	}
	best := math.Inf(1)
	for _, pl := range l.outline(o) {
		pts := pl.Points
		n := len(pts)
		if !l.spend(n) {
			break
		}
		if n == 1 {
			best = min(best, kernel.BoxGap(b, geom.Box{Min: pts[0], Max: pts[0], NonEmpty: true}))
		}
		for i := 0; i+1 < n || pl.Closed && i < n && n > 1; i++ {
			p, q := pts[i], pts[(i+1)%n]
			if segmentInBox(p, q, b) {
				return 0
			}
			best = min(best, kernel.BoxGap(b, geom.Box{Min: p, Max: p, NonEmpty: true}), kernel.BoxGap(b, geom.Box{Min: q, Max: q, NonEmpty: true}))
			for _, corner := range boxCorners(b) {
				best = min(best, kernel.ClosestOnSegment(corner, p, q).Sub(corner).Len())
			}
		}
	}
	if math.IsInf(best, 1) {
		return kernel.BoxGap(b, o.box)
	}
	return best
}

// measures reports whether shape o measures what c states (ok), whether o is a shape c could
// be about (fits), and what o measures in c's terms (says).
func (l *linter) measures(o *lintShape, c claim) (ok, fits bool, says string) {
	sz := o.box.Size()
	switch c.kind {
	case 'D', 'R':
		radii := l.radii(o)
		if len(radii) == 0 {
			return false, false, ""
		}
		k, sign := 1.0, "R"
		if c.kind == 'D' {
			k, sign = 2, "Ø"
		}
		var list []string
		for _, r := range radii {
			if nearValue(k*r, c.a, c.tolA) {
				return true, true, ""
			}
			if len(list) < 3 {
				list = append(list, sign+lintNum(k*r))
			}
		}
		return false, true, strings.Join(list, ", ")
	case 'B':
		if !o.closed {
			return false, false, ""
		}
		ok := nearValue(sz.X, c.a, c.tolA) && nearValue(sz.Y, c.b, c.tolB) || nearValue(sz.X, c.b, c.tolB) && nearValue(sz.Y, c.a, c.tolA)
		return ok, true, lintNum(sz.X) + " x " + lintNum(sz.Y)
	default: // 'L'
		lengths := []float64{sz.X, sz.Y}
		if ln, isLine := o.e.Shape.(scene.Line); isLine && l.spend(len(ln.Points)) {
			lengths = append(lengths, kernel.PolylineLength(worldPoints(ln.Points, o.world)))
		}
		for _, v := range lengths {
			if nearValue(v, c.a, c.tolA) {
				return true, true, ""
			}
		}
		says := "width " + lintNum(sz.X) + ", height " + lintNum(sz.Y)
		if len(lengths) > 2 {
			says = "length " + lintNum(lengths[2])
		}
		if l.opts.UnitMM != 1 {
			says += " scene units"
		}
		return false, true, says
	}
}

// radii lists the world radii of o's circular parts: a circle's, an arc's, a rounded
// rectangle's corners, a polygon's arc edges. A shape stretched unevenly has none.
func (l *linter) radii(o *lintShape) []float64 {
	k, ok := kernel.SimilarityScale(o.world)
	if !ok {
		return nil
	}
	switch sh := o.e.Shape.(type) {
	case scene.Circle:
		return []float64{sh.Radius * k}
	case scene.Arc:
		return []float64{sh.Radius * k}
	case scene.Ellipse:
		if sh.RX == sh.RY {
			return []float64{sh.RX * k}
		}
	case scene.RoundedRect:
		if sh.Radius > 0 {
			return []float64{sh.Radius * k}
		}
	case scene.Polygon:
		n := 0
		for _, p := range sh.Parts {
			n += len(p.Outer)
			for _, h := range p.Holes {
				n += len(h)
			}
		}
		if !l.spend(n) {
			return nil
		}
		var out []float64
		addRing := func(ring []geom.Vec, bulges []float64) {
			for i := range ring {
				if b := geom.BulgeOf(bulges, i); b != 0 && len(out) < 64 {
					r := geom.EdgeArc(ring[i], ring[(i+1)%len(ring)], b).R * k
					if !slices.ContainsFunc(out, func(x float64) bool { return math.Abs(x-r) <= 1e-9*r }) {
						out = append(out, r)
					}
				}
			}
		}
		for _, p := range sh.Parts {
			addRing(p.Outer, p.OuterBulges)
			for j, h := range p.Holes {
				var bulges []float64 // a hole's, nil when straight
				if j < len(p.HoleBulges) {
					bulges = p.HoleBulges[j]
				}
				addRing(h, bulges)
			}
		}
		return out
	}
	return nil
}

func worldPoints(pts []geom.Vec, m geom.Affine) []geom.Vec {
	out := make([]geom.Vec, len(pts))
	for i, p := range pts {
		out[i] = m.Apply(p)
	}
	return out
}

// --- rule: overlapping text ----------------------------------------------------------

// textOverlaps finds texts (and dimension texts) whose letters' box overlaps another text's,
// and texts an outline crosses. A text inside a filled shape is a label on a part and passes;
// an outline line through the letters is what makes them hard to read. Touching does not
// count: each text's box is shrunk by a twentieth of its height first. A dimension's text is
// held to the box its letters stand in, turned with them, and its own lines do not count.
func (l *linter) textOverlaps() {
	for _, t := range l.texts {
		if !t.draws {
			continue
		}
		frame := &l.frames[t.text]
		inner := grow(frame.Box, -t.size/20)
		if inner.Min.X >= inner.Max.X || inner.Min.Y >= inner.Max.Y {
			continue
		}
		toLocal, ok := frame.Place.Invert()
		if !ok {
			continue
		}
		var texts, crossed named
		reach := worldBox(inner, frame.Place)
		l.near(reach, func(o *lintShape) bool {
			if o == t || !o.draws || !boxesOverlap(reach, o.box) {
				return true
			}
			if o.size > 0 {
				// Each pair of texts once: the later text in paint order reports it, so a
				// later text is not looked at (a dimension is, for its lines).
				isText := o.e.Kind() == scene.KindText
				if isText && o.text > t.text {
					return true
				}
				if framesOverlap(inner, toLocal, l.frames[o.text]) {
					if o.text < t.text {
						texts.add(o.e.Name)
					}
					return true
				}
				if isText {
					return true
				}
				// a dimension whose text is clear of t: its lines may still cross t
			}
			if l.crosses(o, inner, toLocal) {
				crossed.add(o.e.Name)
			}
			return true
		})
		if l.stopped != "" {
			return // t was not compared with everything near it
		}
		at := worldBox(frame.Box, frame.Place).Center()
		if texts.n > 0 {
			l.add(RuleTextOverlap, at, fmt.Sprintf("text %q overlaps text %s", t.e.Name, texts), append([]string{t.e.Name}, texts.names...)...)
		}
		if crossed.n > 0 {
			l.add(RuleTextOverlap, at, fmt.Sprintf("the outline of %s crosses text %q", crossed, t.e.Name), append([]string{t.e.Name}, crossed.names...)...)
		}
	}
}

// maxQuotedRunes caps what a finding quotes of a text (a dimension's, a label's size), so
// that a finding stays a line: a text may be 10,000 runes (text.MaxTextRunes).
const maxQuotedRunes = 100

// clipRunes is s cut to n runes, an ellipsis marking the cut.
func clipRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// named is the entities a finding names, at most maxLintNamed of them, and how many in all.
type named struct {
	names []string
	n     int
}

func (nm *named) add(name string) {
	if nm.n < maxLintNamed {
		nm.names = append(nm.names, name)
	}
	nm.n++
}

// String is the names quoted, then how many more there are: `"a", "b" and 3 more`.
func (nm named) String() string {
	var b strings.Builder
	for i, n := range nm.names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	if more := nm.n - len(nm.names); more > 0 {
		fmt.Fprintf(&b, " and %d more", more)
	}
	return b.String()
}

// worldBox is the world bounds of box b in a frame placed by m.
func worldBox(b geom.Box, m geom.Affine) geom.Box {
	var out geom.Box
	for _, q := range boxCorners(b) {
		out.Extend(m.Apply(q))
	}
	return out
}

// boxCorners are b's corners in order round it.
func boxCorners(b geom.Box) [4]geom.Vec {
	return [4]geom.Vec{b.Min, {X: b.Max.X, Y: b.Min.Y}, b.Max, {X: b.Min.X, Y: b.Max.Y}}
}

// framesOverlap reports whether the letters' box of a text standing in frame o meets the
// inside of box in, in the frame toLocal maps the world to: an edge of o's box crosses it, or
// one box holds the other.
func framesOverlap(in geom.Box, toLocal geom.Affine, o drafting.DimText) bool {
	m := toLocal.Mul(o.Place)
	c := boxCorners(o.Box)
	for i := range c {
		if segmentInBox(m.Apply(c[i]), m.Apply(c[(i+1)%4]), in) {
			return true
		}
	}
	back, ok := m.Invert()
	if !ok {
		return false
	}
	q, b := back.Apply(in.Center()), o.Box // o holds all of in
	return b.Min.X < q.X && q.X < b.Max.X && b.Min.Y < q.Y && q.Y < b.Max.Y
}

// crosses reports whether o's outline passes through the inside of box b, in the frame
// toLocal maps the world to.
func (l *linter) crosses(o *lintShape, b geom.Box, toLocal geom.Affine) bool {
	for _, pl := range l.outline(o) {
		pts := pl.Points
		n := len(pts)
		if !l.spend(n) {
			return false
		}
		for i := 0; i+1 < n || pl.Closed && i < n && n > 1; i++ {
			if segmentInBox(toLocal.Apply(pts[i]), toLocal.Apply(pts[(i+1)%n]), b) {
				return true
			}
		}
	}
	return false
}

// segmentInBox reports whether the segment pq meets the inside of b (Liang–Barsky clipping).
func segmentInBox(p, q geom.Vec, b geom.Box) bool {
	t0, t1 := 0.0, 1.0
	d := q.Sub(p)
	clip := func(den, num float64) bool { // the segment's part with den·t <= num
		if den == 0 {
			return num > 0
		}
		t := num / den
		if den > 0 {
			t1 = min(t1, t)
		} else {
			t0 = max(t0, t)
		}
		return t0 < t1
	}
	return clip(-d.X, p.X-b.Min.X) && clip(d.X, b.Max.X-p.X) && clip(-d.Y, p.Y-b.Min.Y) && clip(d.Y, b.Max.Y-p.Y)
}

// --- rule: small text ----------------------------------------------------------------

// smallText finds texts whose height on paper, at the export scale, is under the minimum.
func (l *linter) smallText() {
	for _, t := range l.texts {
		if !t.draws {
			continue
		}
		paper := t.size * l.opts.UnitMM * l.opts.Scale
		if paper < l.opts.MinTextMM*(1-1e-9) {
			l.add(RuleTextSmall, t.box.Center(), fmt.Sprintf("text %q is %s mm high on paper, under the %s mm minimum", t.e.Name, lintNum(paper), lintNum(l.opts.MinTextMM)), t.e.Name)
		}
	}
}

// --- rules: double cuts, zero-length lines, open outlines on cut layers -----------------

// duplicates finds shapes of the same kind with the same world outline (within the
// linter's tolerance): drawn twice, they are cut twice. Candidates share a cell of a hash of
// their boxes' corners, so the rule costs a few looks per shape (twinTable); a shape with no
// other of its kind and size near it (twinPlaces), most of them, costs fewer.
func (l *linter) duplicates() {
	q := 4 * l.tol
	cell := func(v float64) int64 { return int64(math.Floor(v / q)) }
	var kinds []scene.Kind // a kind's place here stands for it in the keys
	kindOf := func(k scene.Kind) int64 {
		for i, x := range kinds {
			if x == k {
				return int64(i)
			}
		}
		kinds = append(kinds, k)
		return int64(len(kinds) - 1)
	}
	keyOf := func(sh *lintShape) twinKey {
		return twinKey{kindOf(sh.e.Kind()), cell(sh.box.Min.X), cell(sh.box.Min.Y), cell(sh.box.Max.X), cell(sh.box.Max.Y)}
	}
	places := newTwinPlaces(len(l.shapes))
	for _, sh := range l.shapes {
		if sh.box.NonEmpty && sh.draws {
			places.add(keyOf(sh))
		}
	}
	var seen *twinTable // made for the first shape that is not alone
	for _, sh := range l.shapes {
		if !sh.box.NonEmpty || !sh.draws {
			continue
		}
		k := keyOf(sh)
		if places.alone(k) {
			continue // no shape is its twin, and it is no shape's
		}
		if seen == nil {
			seen = newTwinTable(len(l.shapes))
		}
		var twin *lintShape
		for dx := int64(-1); dx <= 1 && twin == nil; dx++ {
			for dy := int64(-1); dy <= 1 && twin == nil; dy++ {
				for i := seen.first(k, dx, dy); i >= 0; i = seen.next[i] {
					if !l.spend(1) {
						return
					}
					if o := seen.shapes[i]; l.sameOutline(o, sh) {
						twin = o
						break
					}
				}
			}
		}
		if l.stopped != "" {
			return
		}
		if twin != nil {
			l.add(RuleDuplicate, sh.box.Center(), fmt.Sprintf("%s %q lies exactly on %s %q: drawn twice, it is cut twice", sh.e.Kind(), sh.e.Name, twin.e.Kind(), twin.e.Name), twin.e.Name, sh.e.Name)
			continue
		}
		seen.add(k, sh)
	}
}

// twinKey is a shape's kind and the cells of its box's corners. A shape's twin candidates
// are the shapes before it whose key is its own moved by at most a cell each way, both
// corners together: of its kind and size in cells, and at most a cell from it.
type twinKey struct{ kind, x0, y0, x1, y1 int64 }

const (
	twinK0 uint64 = 0x9e3779b97f4a7c15
	twinK1 uint64 = 0xc2b2ae3d27d4eb4f
	twinK2 uint64 = 0x165667b19e3779f9
	twinK3 uint64 = 0xd6e8feb86659fd93
	twinK4 uint64 = 0xff51afd7ed558ccd
)

// twinHash mixes a sum of a key's numbers by the constants above: murmur3's finaliser, as the
// sums of a grid's keys are far from random.
func twinHash(sum uint64) uint64 {
	h := sum ^ sum>>33
	h *= twinK4
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// twinPlaces tells the shapes that have no twin candidate anywhere in the drawing, before
// or after them, from their kind, their size in cells and their place in cells of four: the
// keys a shape looks at are in at most four such places (two or three on average), which
// hold only it. Most shapes are alone, and are then done after a few bits in these
// kilobytes, without the table's slots and keys (a cache miss each), or its memory.
type twinPlaces struct {
	one, two []uint64 // by a place's hash: a shape is there; two are (or hashes met)
	mask     uint64
}

func newTwinPlaces(n int) *twinPlaces {
	bits := uint64(64)
	for bits < 32*uint64(n) {
		bits <<= 1
	}
	return &twinPlaces{one: make([]uint64, bits/64), two: make([]uint64, bits/64), mask: bits - 1}
}

// place is the bit of k's kind and size at (cx, cy), in cells of four.
func (p *twinPlaces) place(k twinKey, cx, cy int64) uint64 {
	return twinHash(uint64(k.kind)*twinK0+uint64(k.x1-k.x0)*twinK1+uint64(k.y1-k.y0)*twinK2+uint64(cx)*twinK3+uint64(cy)*twinK4) & p.mask
}

func (p *twinPlaces) add(k twinKey) {
	b := p.place(k, k.x0>>2, k.y0>>2) // >> 2 is a division by 4 that floors
	if p.one[b/64]&(1<<(b%64)) != 0 {
		p.two[b/64] |= 1 << (b % 64)
	}
	p.one[b/64] |= 1 << (b % 64)
}

// alone reports whether no other shape's key is k moved by at most a cell each way: its own
// place holds only it, and the places around it that its moves reach hold nothing.
func (p *twinPlaces) alone(k twinKey) bool {
	ox, oy := k.x0>>2, k.y0>>2
	for cx := (k.x0 - 1) >> 2; cx <= (k.x0+1)>>2; cx++ {
		for cy := (k.y0 - 1) >> 2; cy <= (k.y0+1)>>2; cy++ {
			set := p.one
			if cx == ox && cy == oy {
				set = p.two
			}
			if b := p.place(k, cx, cy); set[b/64]&(1<<(b%64)) != 0 {
				return false
			}
		}
	}
	return true
}

// twinTable holds the shapes duplicates has kept, by key, those of one key chained in paint
// order. It is an open-addressed table of chains rather than a map of slices: a shape looks
// at nine keys and most find nothing, and a map's look-up of a 40-byte key (40 ns among
// 10,000) and a slice per key were the rule's whole time on W1's 10,000 shapes.
type twinTable struct {
	slots  []int32 // the first shape of each key, by the key's hash; -1 where empty
	keys   []twinKey
	shapes []*lintShape
	next   []int32 // the next shape of the same key, -1 at the last
	last   []int32 // of a chain's first shape: the chain's last
}

func newTwinTable(n int) *twinTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t := &twinTable{slots: make([]int32, size)}
	for i := range t.slots {
		t.slots[i] = -1
	}
	return t
}

func (k twinKey) hash() uint64 {
	return twinHash(uint64(k.kind)*twinK0 + uint64(k.x0)*twinK1 + uint64(k.y0)*twinK2 + uint64(k.x1)*twinK3 + uint64(k.y1)*twinK4)
}

// slot is where key k's chain starts or would start: its hash's place or the first empty
// one after it.
func (t *twinTable) slot(k twinKey) int {
	mask := len(t.slots) - 1
	i := int(k.hash()) & mask
	for t.slots[i] >= 0 && t.keys[t.slots[i]] != k {
		i = (i + 1) & mask
	}
	return i
}

// first is the first shape kept of key k moved by (dx, dy) on both corners, or -1.
func (t *twinTable) first(k twinKey, dx, dy int64) int32 {
	return t.slots[t.slot(twinKey{k.kind, k.x0 + dx, k.y0 + dy, k.x1 + dx, k.y1 + dy})]
}

// add keeps sh under key k, last of its chain.
func (t *twinTable) add(k twinKey, sh *lintShape) {
	i := int32(len(t.shapes))
	t.keys, t.shapes, t.next, t.last = append(t.keys, k), append(t.shapes, sh), append(t.next, -1), append(t.last, i)
	s := t.slot(k)
	if f := t.slots[s]; f >= 0 {
		t.next[t.last[f]], t.last[f] = i, i
		return
	}
	t.slots[s] = i
}

// sameOutline reports whether a and b have the same world outline within the tolerance:
// the same polylines, point for point, whatever point each closed one starts at and
// whichever way it runs.
func (l *linter) sameOutline(a, b *lintShape) bool {
	if math.Abs(a.box.Min.X-b.box.Min.X) > l.tol || math.Abs(a.box.Min.Y-b.box.Min.Y) > l.tol ||
		math.Abs(a.box.Max.X-b.box.Max.X) > l.tol || math.Abs(a.box.Max.Y-b.box.Max.Y) > l.tol {
		return false
	}
	pa, pb := l.outline(a), l.outline(b)
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		if !l.samePolyline(pa[i], pb[i]) {
			return false
		}
	}
	return true
}

func (l *linter) samePolyline(a, b geom.Polyline) bool {
	x, y := a.Points, b.Points
	if a.Closed != b.Closed || len(x) != len(y) || len(x) == 0 {
		return false
	}
	n := len(x)
	same := func(i geom.Vec, j geom.Vec) bool { return i.Sub(j).Len() <= l.tol }
	try := func(shift int, dir int) bool {
		if !l.spend(n) {
			return false
		}
		for i := range n {
			if !same(x[i], y[((shift+dir*i)%n+n)%n]) {
				return false
			}
		}
		return true
	}
	if !a.Closed {
		return try(0, 1) || try(n-1, -1)
	}
	if !l.spend(n) {
		return false
	}
	for s := range n {
		if same(x[0], y[s]) && (try(s, 1) || try(s, -1)) {
			return true
		}
	}
	return false
}

// zeroLength finds lines whose points all lie on one spot: nothing to see, and a cutter
// plunges there.
func (l *linter) zeroLength() {
	for _, sh := range l.shapes {
		ln, ok := sh.e.Shape.(scene.Line)
		if !ok {
			continue
		}
		if kernel.PolylineLength(worldPoints(ln.Points, sh.world)) <= l.tol {
			l.add(RuleZeroLength, sh.box.Center(), fmt.Sprintf("line %q has zero length", sh.e.Name), sh.e.Name)
		}
	}
}

// cutLayer matches the layer names meant for cutting: a top-level group whose name has a word
// starting with "cut" (cut, cuts, cutting, laser_cut, Cut-Outer).
var cutLayer = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(^|[^a-z])cut`) })

// IsCutLayer reports whether a layer (a top-level group's name) is meant for cutting.
func IsCutLayer(name string) bool { return cutLayer().MatchString(name) }

// openCuts finds open outlines on a cut layer that end in mid-air: a line or arc (or open
// path) with an end that meets no end of another open outline on that layer. Outlines that
// chain end to end into a closed loop, the way a profile is often drawn, pass.
func (l *linter) openCuts() {
	type end struct {
		sh *lintShape
		p  geom.Vec
	}
	var ends []end
	for _, sh := range l.shapes {
		if !sh.cut || sh.closed || !sh.draws || sh.size > 0 {
			continue
		}
		for _, pl := range l.outline(sh) {
			if !pl.Closed && len(pl.Points) > 0 {
				ends = append(ends, end{sh, pl.Points[0]}, end{sh, pl.Points[len(pl.Points)-1]})
			}
		}
	}
	q := 4 * l.tol
	cell := func(p geom.Vec) [2]int64 { return [2]int64{int64(math.Floor(p.X / q)), int64(math.Floor(p.Y / q))} }
	at := map[[2]int64][]int{}
	for i, e := range ends {
		c := cell(e.p)
		at[c] = append(at[c], i)
	}
	reported := map[*lintShape]bool{}
	for i, e := range ends {
		if reported[e.sh] || l.endMeets(i, e.p, func(j int) geom.Vec { return ends[j].p }, at, cell(e.p)) {
			continue
		}
		if l.stopped != "" {
			return // the end met nothing it was compared with, but it was not compared with all
		}
		reported[e.sh] = true
		l.add(RuleOpenCut, e.p, fmt.Sprintf("%s %q on cut layer %q is open and its end meets nothing: the cut stops there", e.sh.e.Kind(), e.sh.e.Name, e.sh.layer), e.sh.e.Name)
	}
}

// endMeets reports whether end i at p meets another end (the other end of its own outline
// too: then the outline closes on itself) within the tolerance, looking in p's cell and its
// neighbours.
func (l *linter) endMeets(i int, p geom.Vec, pos func(int) geom.Vec, at map[[2]int64][]int, c [2]int64) bool {
	for dx := int64(-1); dx <= 1; dx++ {
		for dy := int64(-1); dy <= 1; dy++ {
			for _, j := range at[[2]int64{c[0] + dx, c[1] + dy}] {
				if !l.spend(1) {
					return false
				}
				if j != i && pos(j).Sub(p).Len() <= l.tol {
					return true
				}
			}
		}
	}
	return false
}

// --- rule: boolean inputs kept ---------------------------------------------------------

// keptInputs finds boolean results whose inputs are still in the scene, still drawn, and
// overlap them: booleans keep their inputs, as upstream's do, so the picture and every export
// show both. A result made again from itself (an accumulator, booleanUnion('acc', 'r', 'acc'))
// has the inputs of every operation that made it.
func (l *linter) keptInputs() {
	ops := l.opts.Booleans
	last := map[string]int{}
	inputs := map[string][]string{}
	for i, b := range ops {
		last[b.Result] = i
		inputs[b.Result] = append(inputs[b.Result], b.Inputs...)
	}
	for i, b := range ops {
		if last[b.Result] != i {
			continue
		}
		res, ok := l.s.Lookup(b.Result)
		if !ok {
			continue
		}
		rb := l.s.WorldBounds(res)
		var still named
		looked := map[string]bool{b.Result: true}
		for _, in := range inputs[b.Result] {
			if looked[in] {
				continue
			}
			looked[in] = true
			if !l.spend(1) {
				return
			}
			if e, ok := l.s.Lookup(in); ok && draws(e) && boxesOverlap(rb, l.s.WorldBounds(e)) {
				still.add(in)
			}
		}
		if still.n == 0 {
			continue
		}
		l.add(RuleBooleanInputs, rb.Center(), fmt.Sprintf("booleans keep their inputs, as upstream's do: the inputs of %q (%s of %s) still draw where the result is, so the picture and every export (DXF, PDF) show both; deleteEntity the inputs if only the result should stay",
			b.Result, b.Fn, still), append([]string{b.Result}, still.names...)...)
	}
}

// --- the grid -------------------------------------------------------------------------

// lintGrid finds the shapes whose boxes may meet a box: a uniform grid over the scene with
// about one shape per cell. A shape spanning more than maxLintCells cells is kept in a list
// of large ones that every query also visits, so that one huge plate does not fill the grid.
type lintGrid struct {
	box   geom.Box
	n     int      // cells per side
	cw    geom.Vec // a cell's size
	cells [][]int
	large []int
	all   []*lintShape
	mark  []int // the query that last visited each shape, against visiting it twice
	query int
}

const maxLintCells = 64

func newLintGrid(box geom.Box, shapes []*lintShape) *lintGrid {
	g := &lintGrid{box: box, all: shapes, mark: make([]int, len(shapes))}
	g.n = max(1, int(math.Sqrt(float64(len(shapes)))))
	sz := box.Size()
	g.cw = geom.Vec{X: max(sz.X/float64(g.n), 1e-300), Y: max(sz.Y/float64(g.n), 1e-300)}
	g.cells = make([][]int, g.n*g.n)
	for i, sh := range shapes {
		if !sh.box.NonEmpty {
			continue
		}
		x0, y0, x1, y1 := g.span(sh.box)
		if (x1-x0+1)*(y1-y0+1) > maxLintCells {
			g.large = append(g.large, i)
			continue
		}
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				g.cells[y*g.n+x] = append(g.cells[y*g.n+x], i)
			}
		}
	}
	return g
}

// span is the range of cells b covers, clamped to the grid.
func (g *lintGrid) span(b geom.Box) (x0, y0, x1, y1 int) {
	c := func(v, lo, w float64) int {
		i := math.Floor((v - lo) / w)
		return int(min(max(i, 0), float64(g.n-1)))
	}
	return c(b.Min.X, g.box.Min.X, g.cw.X), c(b.Min.Y, g.box.Min.Y, g.cw.Y), c(b.Max.X, g.box.Min.X, g.cw.X), c(b.Max.Y, g.box.Min.Y, g.cw.Y)
}

// near calls f once for every shape that may meet b (callers test the boxes), until f
// returns false or the budget runs out: each cell looked in and each shape found is a check.
func (l *linter) near(b geom.Box, f func(*lintShape) bool) {
	if l.grid == nil {
		l.grid = newLintGrid(l.all, l.shapes)
	}
	g := l.grid
	if !b.NonEmpty || len(g.all) == 0 {
		return
	}
	g.query++
	visit := func(i int) bool {
		if g.mark[i] != g.query {
			g.mark[i] = g.query
			return l.spend(1) && f(g.all[i])
		}
		return true
	}
	for _, i := range g.large {
		if !visit(i) {
			return
		}
	}
	x0, y0, x1, y1 := g.span(b)
	if !l.spend((x1 - x0 + 1) * (y1 - y0 + 1)) {
		return
	}
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, i := range g.cells[y*g.n+x] {
				if !visit(i) {
					return
				}
			}
		}
	}
}

// dimNumber finds the numbers a dimension's text states: digits with an optional decimal part
// (a point or a comma).
var dimNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+(?:[.,]\d+)?`) })

// dimensionTexts finds dimensions whose text override states a number and none of its numbers
// is the measured value at the dimension's precision. A text with "<>" shows the measured
// value and passes; so does one with no number ("see note").
func (l *linter) dimensionTexts() {
	for _, sh := range l.shapes {
		d, ok := sh.e.Shape.(*scene.Dimension)
		if !ok || d.Text == "" || strings.Contains(d.Text, "<>") {
			continue
		}
		nums := dimNumber().FindAllString(d.Text, -1)
		if len(nums) == 0 {
			continue
		}
		says := drafting.FormatDimValue(d.Measured(sh.world), d.Precision)
		matches := false
		for _, n := range nums {
			v, err := strconv.ParseFloat(strings.ReplaceAll(n, ",", "."), 64)
			matches = matches || err == nil && drafting.FormatDimValue(v, d.Precision) == says
		}
		if !matches {
			l.add(RuleDimensionText, sh.box.Center(), fmt.Sprintf("dimension %q says %q, but it measures %s; use '<>' in its text to show the measured value", sh.e.Name, clipRunes(d.Text, maxQuotedRunes), says), sh.e.Name)
		}
	}
}
