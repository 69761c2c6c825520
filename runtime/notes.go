package runtime

// What a run says about the drawing beside what it drew: warnings for what is legal, kept as
// upstream does it, and most often a mistake. What the finished drawing itself shows (boolean
// inputs left under their results, among others) is the drawing lint's, lint.Check.
//
// Drawing a name that exists replaces that entity in place, as upstream does, and scripts
// rely on it. But a loop that draws one name (`for (...) drawCircle('h', x, 0, 1)`) leaves one
// hole of four and says nothing. The run notes every name a draw call gave again and answers
// a warning naming it, how often and where, without changing what is drawn.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene/lint"
)

// Caps on what the redraw warnings list: names, and places per name.
const (
	maxRedrawNames  = 10
	maxRedrawPlaces = 3
)

// redraw is what the run knows of a name drawn more than once.
type redraw struct {
	times  int            // drawings in all, the first included
	places []string       // where it was drawn again, file:line:col, first seen first
	count  map[string]int // drawings again at each place
}

// noteRedraw records that the current call draws name, which exists already.
func (c *call) noteRedraw(name string) {
	r := c.r
	if r.redrawn == nil {
		r.redrawn = map[string]*redraw{}
	}
	rd := r.redrawn[name]
	if rd == nil {
		rd = &redraw{times: 1, count: map[string]int{}}
		r.redrawn[name] = rd
		r.redrawOrder = append(r.redrawOrder, name)
	}
	rd.times++
	var d Diagnostic
	r.placeAtStack(&d, r.vm.CaptureCallStack(0, nil))
	if d.File == "" {
		return
	}
	at := fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
	if rd.count[at] == 0 {
		rd.places = append(rd.places, at)
	}
	rd.count[at]++
}

// noteRedraws adds a warning per name drawn more than once, in the order they were first
// drawn again, at most maxRedrawNames of them.
func (r *run) noteRedraws() {
	for i, name := range r.redrawOrder {
		if i == maxRedrawNames {
			r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%d more names were drawn more than once", len(r.redrawOrder)-i))
			break
		}
		rd := r.redrawn[name]
		var at []string
		for _, p := range rd.places[:min(len(rd.places), maxRedrawPlaces)] {
			if n := rd.count[p]; n > 1 {
				p = fmt.Sprintf("%s (%d times)", p, n)
			}
			at = append(at, p)
		}
		if more := len(rd.places) - len(at); more > 0 {
			at = append(at, fmt.Sprintf("%d more places", more))
		}
		where := ""
		if len(at) > 0 {
			where = " again at " + strings.Join(at, ", ")
		}
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%q was drawn %d times in this run (drawn%s); each drawing replaced the one before, so only the last is in the scene: give each its own name (`name + i` in a loop) to keep them all",
			name, rd.times, where))
	}
}

// maxAngleNotes caps the warnings about angles past a whole turn, one per place in the
// script.
const maxAngleNotes = 5

// noteAngle warns, once per place in the script, of an angle in radians past a whole turn:
// dimDiameter(..., {angle: 45}) meant degrees, and was drawn at 45 radians without a word.
// A turn of more than 2π is legal, and drawn as asked.
func (c *call) noteAngle(what string, v float64) {
	if !(math.Abs(v) > 2*math.Pi*(1+1e-9)) {
		return
	}
	r := c.r
	var d Diagnostic
	r.placeAtStack(&d, r.vm.CaptureCallStack(0, nil))
	at := ""
	if d.File != "" {
		at = fmt.Sprintf(" (%s:%d:%d)", d.File, d.Line, d.Column)
	}
	key := c.fn.Name + at + "\x00" + what
	if slices.Contains(r.angleNotes, key) {
		return
	}
	r.angleNotes = append(r.angleNotes, key)
	switch n := len(r.angleNotes); {
	case n == maxAngleNotes+1:
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("more angles past a whole turn were given at other places, not noted (at most %d such notes a run, maxAngleNotes): look for degrees given where radians go", maxAngleNotes))
		return
	case n > maxAngleNotes:
		return
	}
	num := strconv.FormatFloat(v, 'g', -1, 64)
	r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%s%s: %s %s is in radians, more than a whole turn (2π is 6.283); for %s° write %s * Math.PI / 180",
		c.fn.Name, at, what, num, num, num))
}

// noteAngleArgs notes the arguments of the call that are angles in radians (Param.Unit).
func (c *call) noteAngleArgs() {
	for i, p := range c.fn.Params {
		if p.Unit != "radians" || i >= len(c.args) {
			continue
		}
		if v, ok := exportFloat(c.args[i]); ok {
			c.noteAngle(p.Name, v)
		}
	}
}

// optAngle reads an option that is an angle in radians (def when absent), noting one past a
// whole turn.
func (c *call) optAngle(o *goja.Object, key string, def float64) float64 {
	v := c.optNum(o, key, def)
	if o != nil && v != def {
		c.noteAngle("option "+key, v)
	}
	return v
}

// noteBoolean records a boolean operation that succeeded, for the result's Booleans: the
// scene keeps no record of how a shape was made, and the drawing lint (lint.Check) names the
// results whose inputs still draw under them.
func (c *call) noteBoolean(inputs []string, result string) {
	c.r.res.Booleans = append(c.r.res.Booleans, lint.BooleanOp{Fn: c.fn.Name, Inputs: slices.Clone(inputs), Result: result})
}

// MaxLintTime is how long a run's lint (Options.Lint) may take after its script: the lint
// stops there, saying so in its last finding, if lint.MaxLintChecks has not stopped it
// before (about half a second of checks on an idle machine). The caller's wait for the run
// (Limits.Timeout and a second) grows by as much once the script is done, so that the lint
// never takes time the script's scene needs to come back, and never makes a good run fail.
const MaxLintTime = 2 * time.Second

// lintHold, when set, is called as a lint starts: a test's seam to make the lint take time.
var lintHold func()

// lintRun lints a good run's scene into res.Lint (Options.Lint), texts held to their height
// on paper at opt.PaperMM millimetres a scene unit (0: 1:1 in millimetres), and stops at
// MaxLintTime from now.
func lintRun(res *Result, opt Options) {
	if lintHold != nil {
		lintHold()
	}
	res.Lint = lint.Check(res.Scene, lint.Options{Booleans: res.Booleans, UnitMM: opt.PaperMM, Deadline: time.Now().Add(MaxLintTime)})
}

// AllWarnings are the run's warnings and then its lint findings (Options.Lint), one line
// each, as `cadrun run` and `cadrun watch` print them.
func (res *Result) AllWarnings() []string {
	out := slices.Clip(res.Warnings)
	for _, f := range res.Lint {
		out = append(out, "lint: "+f.String())
	}
	return out
}
