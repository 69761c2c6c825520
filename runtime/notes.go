package runtime

// What a run says about the drawing beside what it drew: warnings for what is legal, kept as
// upstream does it, and most often a mistake.
//
// Drawing a name that exists replaces that entity in place, as upstream does, and scripts
// rely on it. But a loop that draws one name (`for (...) drawCircle('h', x, 0, 1)`) leaves one
// hole of four and says nothing. The run notes every name a draw call gave again and answers
// a warning naming it, how often and where, without changing what is drawn.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// Booleans keep their inputs, as upstream's do: a panel cut from a blank still draws the
// blank and every hole under the result, and its DXF has each outline twice. The run notes
// each boolean's inputs, and at the end names the results whose inputs are still there and
// still draw where the result is.

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

// maxKeptResults caps the boolean results the kept-inputs warning names.
const maxKeptResults = 5

// booleanCall is a boolean operation the run made: its function, inputs and result.
type booleanCall struct {
	fn     string
	inputs []string
	result string
}

// noteBoolean records a boolean operation that succeeded.
func (c *call) noteBoolean(inputs []string, result string) {
	c.r.booleans = append(c.r.booleans, booleanCall{c.fn.Name, slices.Clone(inputs), result})
}

// noteKeptInputs adds one warning naming the boolean results whose inputs are still in the
// scene and overlap them. A result made again from itself (an accumulator,
// booleanUnion('acc', 'r', 'acc')) has the inputs of every operation that made it.
func (r *run) noteKeptInputs() {
	last := map[string]int{}
	inputs := map[string][]string{}
	for i, b := range r.booleans {
		last[b.result] = i
		inputs[b.result] = append(inputs[b.result], b.inputs...)
	}
	var kept []string
	n := 0
	for i, b := range r.booleans {
		if last[b.result] != i {
			continue
		}
		res, ok := r.scene.Lookup(b.result)
		if !ok {
			continue
		}
		rb := r.scene.WorldBounds(res)
		var still []string
		for _, in := range inputs[b.result] {
			e, ok := r.scene.Lookup(in)
			if !ok || in == b.result || slices.Contains(still, in) {
				continue
			}
			if ib := r.scene.WorldBounds(e); draws(e) && boxesOverlap(rb, ib) {
				still = append(still, fmt.Sprintf("%q", in))
			}
		}
		if len(still) == 0 {
			continue
		}
		n++
		if len(kept) < maxKeptResults {
			kept = append(kept, fmt.Sprintf("%q (%s of %s)", b.result, b.fn, strings.Join(still, ", ")))
		}
	}
	if n == 0 {
		return
	}
	list := strings.Join(kept, ", ")
	if n > len(kept) {
		list += fmt.Sprintf(" and %d more", n-len(kept))
	}
	r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("booleans keep their inputs, as upstream's do: the inputs of %s still draw where the result is, so the picture and every export (DXF, PDF) show both; deleteEntity the inputs if only the result should stay", list))
}

// draws reports whether an entity shows: a group, or a shape with a visible fill or stroke
// (an input styled with neither is kept on purpose, for its area).
func draws(e *scene.Entity) bool {
	if e.IsGroup() {
		return true
	}
	st := e.Style
	return st.Fill != nil && st.Fill[3] > 0 || st.Stroke != nil && st.Stroke[3] > 0
}

// boxesOverlap reports whether two non-empty boxes share a point.
func boxesOverlap(a, b scene.Box) bool {
	return a.NonEmpty && b.NonEmpty && a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}
