package runtime

// Every number a run produces must stay finite. Arguments are checked as they are read, but
// finite arguments can still overflow together (a radius of 1e300 scaled by 1e300, two
// translations by 1e308), and a scene holding an infinity has no JSON form: it could not be
// saved, sent from a worker or shown. So after every API call the entities it named are
// checked in world space (their transform, world matrix and world bounds), and so are the
// numbers it returns; a value that overflowed fails the run naming the call. The failure
// cannot be caught by the script, because the scene already holds the value.

import (
	"errors"
	"fmt"
	"math"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// errNonFinite interrupts a run whose scene holds a number that overflowed; run.fatal holds
// the diagnostic.
var errNonFinite = errors.New("non-finite number")

// nonFiniteHint is the hint of every overflow diagnostic.
const nonFiniteHint = "numbers beyond about 1.8e308 overflow to Infinity; keep coordinates, sizes and scale factors small enough that their products and sums stay finite"

// transformCall reports the calls that change only the transform of the entity they name,
// never its geometry or its members: its local bounds stay what they were.
func transformCall(name string) bool {
	switch name {
	case "translate", "rotate", "scale", "setPivot":
		return true
	}
	return false
}

// withCallFlags returns t with each entry told once whether it only transforms and whether
// it places what it names, so that a call does not ask transformCall or compare domains.
func withCallFlags(t []Func) []Func {
	for i := range t {
		f := &t[i]
		f.transformOnly = transformCall(f.Name)
		f.placesNames = f.Domain != "query" && f.Domain != "console"
	}
	return t
}

// localCache keeps one entity's local bounds between calls that only transform it, so that
// moving a large group or polygon in a loop costs its bounds once, not at every step.
type localCache struct {
	e   *scene.Entity
	box geom.Box
}

// checkCall checks what a call left behind: every entity named by a string argument or
// returned (or by an array of names), and the number it returns.
func (c *call) checkCall(v goja.Value) {
	if c.fn.placesNames {
		if !c.fn.transformOnly {
			c.r.local = localCache{}
		}
		// The names it was given, and those it returns (decompose's parts).
		for _, a := range c.args {
			if !goja.IsNumber(a) { // most arguments, and never a name
				c.checkNamed(a)
			}
		}
		if v == c.r.valueTrue { // what drawing and editing calls return: no name, no number
			return
		}
		c.checkNamed(v)
	}
	if f, ok := exportFloat(v); ok && !finite(f) {
		c.overflow("it returns %v", f)
	}
}

// checkNamed checks the entity a value names: a string, or each string in an array.
func (c *call) checkNamed(a goja.Value) {
	if s, ok := asString(a); ok {
		c.checkEntity(s)
		return
	}
	if o, ok := a.(*goja.Object); ok && className(o) == "Array" {
		n := o.Get("length").ToInteger()
		for i := range n {
			if s, ok := asString(o.Get(itoa(int(i)))); ok {
				c.checkEntity(s)
			}
		}
	}
}

// checkEntity fails the call when the named entity's placement is no longer finite; a name
// that is not an entity is skipped. Its world bounds are checked through its local bounds:
// their corners mapped to the world bound every point of it.
func (c *call) checkEntity(name string) {
	s := c.r.scene
	e, ok := s.Lookup(name)
	if !ok {
		return
	}
	// A top-level entity placed by small numbers needs no matrix: see placeBound.
	small := e.Parent() == "" && smallTransform(e.Transform)
	var m geom.Affine
	if !small {
		m = s.WorldMatrix(e)
		if what := nonFinitePlaced(s, e, m, false); what != "" {
			c.overflow("%s", what)
		}
	}
	if c.r.local.e != e {
		c.r.local = localCache{e: e, box: s.LocalBounds(e)}
	}
	lb := c.r.local.box
	if !lb.NonEmpty {
		return
	}
	if small {
		if placedBox(lb) {
			return
		}
		m = s.WorldMatrix(e)
	}
	if finiteSpan(m.Apply(lb.Min), m.Apply(lb.Max), m.Apply(geom.Vec{X: lb.Min.X, Y: lb.Max.Y}), m.Apply(geom.Vec{X: lb.Max.X, Y: lb.Min.Y})) {
		return
	}
	// Not finite: the exact bounds say how.
	if what := nonFinitePlaced(s, e, m, true); what != "" {
		c.overflow("%s", what)
	}
}

// placeBound bounds the numbers of a placement that cannot overflow. When a top-level
// entity's translate, rotate, scale and pivot and its local bounds are all within ±placeBound
// (1e150), its matrix's linear entries are within ±1e150 (cos and sin times a scale), its
// offset within ±(2e150 + 2e300) (translate + pivot - linear·pivot), and so its world matrix
// and each corner of its world bounds (linear·corner + offset) are within ±5e300, their
// spans within ±1e301: finite (a float holds 1.8e308), however the sums are rounded. The
// check after a call then needs no matrix, and CheckFinite none for such an entity.
const placeBound = 1e150

// smallTransform reports whether every number of t is within ±placeBound (NaN is not).
func smallTransform(t scene.Transform) bool {
	return placed(t.Translate.X) && placed(t.Translate.Y) && placed(t.Rotate) && placed(t.Scale.X) &&
		placed(t.Scale.Y) && placed(t.Pivot.X) && placed(t.Pivot.Y)
}

// plainShape reports whether e is a shape whose world bounds are its points (or its centre
// and radii) mapped by its matrix, with no products of coordinates: circles, ellipses,
// rectangles, lines and polygons. Curves and text are bounded through their outlines, whose
// control points can lie outside their bounds.
func plainShape(e *scene.Entity) bool {
	switch e.Kind() {
	case scene.KindCircle, scene.KindEllipse, scene.KindRect, scene.KindLine, scene.KindPolygon:
		return true
	}
	return false
}

// smallBox reports whether b is empty or within ±placeBound.
func smallBox(b geom.Box) bool {
	return !b.NonEmpty || placedBox(b)
}

// placed reports whether f is in [-placeBound, placeBound]; NaN is not. (Written out at each
// use rather than looped over a slice: the check after every call runs it eleven times.)
func placed(f float64) bool { return f >= -placeBound && f <= placeBound }

// placedBox reports whether b's corners are within ±placeBound.
func placedBox(b geom.Box) bool {
	return placed(b.Min.X) && placed(b.Min.Y) && placed(b.Max.X) && placed(b.Max.Y)
}

// finiteSpan reports whether the box around the points has finite corners and a finite size:
// finiteBox of the box the points extend, without building it.
func finiteSpan(ps ...geom.Vec) bool {
	lo, hi := ps[0], ps[0]
	for _, p := range ps {
		if !finite(p.X, p.Y) {
			return false
		}
		// Plain comparisons: every number is finite here, and the sign of a zero does not
		// change whether the size is.
		if p.X < lo.X {
			lo.X = p.X
		}
		if p.X > hi.X {
			hi.X = p.X
		}
		if p.Y < lo.Y {
			lo.Y = p.Y
		}
		if p.Y > hi.Y {
			hi.Y = p.Y
		}
	}
	return finite(hi.X-lo.X, hi.Y-lo.Y)
}

// nonFiniteEntity says what of e is not finite, or "". The world bounds (of the whole subtree,
// for a group) are checked when bounds is set.
func nonFiniteEntity(s *scene.Scene, e *scene.Entity, bounds bool) string {
	return nonFinitePlaced(s, e, s.WorldMatrix(e), bounds)
}

// nonFinitePlaced is nonFiniteEntity with e's world matrix m already computed.
func nonFinitePlaced(s *scene.Scene, e *scene.Entity, m geom.Affine, bounds bool) string {
	t := e.Transform
	if !finite(t.Translate.X, t.Translate.Y, t.Scale.X, t.Scale.Y, t.Pivot.X, t.Pivot.Y, t.Rotate) {
		return fmt.Sprintf("the transform of %q is translate [%v, %v], rotate %v, scale [%v, %v], pivot [%v, %v]",
			e.Name, t.Translate.X, t.Translate.Y, t.Rotate, t.Scale.X, t.Scale.Y, t.Pivot.X, t.Pivot.Y)
	}
	if !finite(m.A, m.B, m.C, m.D, m.E, m.F) {
		return fmt.Sprintf("the world transform of %q is [%v, %v, %v, %v, %v, %v]", e.Name, m.A, m.B, m.C, m.D, m.E, m.F)
	}
	if !bounds {
		return ""
	}
	if b := s.WorldBounds(e); b.NonEmpty && !finiteBox(b) {
		return fmt.Sprintf("the world bounds of %q are %s", e.Name, boxText(b))
	}
	return ""
}

// boxText shows a box whose corners or size overflowed.
func boxText(b geom.Box) string {
	s := fmt.Sprintf("[%v, %v]..[%v, %v]", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y)
	if finite(b.Min.X, b.Min.Y, b.Max.X, b.Max.Y) {
		s += ", wider or taller than a number can hold"
	}
	return s
}

// finiteBox reports whether a box's corners and its size are finite.
func finiteBox(b geom.Box) bool {
	sz := b.Size()
	return finite(b.Min.X, b.Min.Y, b.Max.X, b.Max.Y, sz.X, sz.Y)
}

// overflow fails the run: the diagnostic is kept and the run interrupted, so that a try/catch
// around the call cannot let the run go on and land a scene holding an infinity.
func (c *call) overflow(format string, args ...any) {
	msg := "a number overflowed: " + fmt.Sprintf(format, args...)
	r := c.r
	if r.fatal == nil {
		d := &Diagnostic{Kind: "RangeError", Message: c.fn.Name + ": " + msg, Hint: nonFiniteHint}
		r.placeAtStack(d, r.vm.CaptureCallStack(0, nil))
		r.fatal = d
		r.vm.Interrupt(errNonFinite)
	}
	c.fail("RangeError", "%s", msg)
}

// finiteValue returns the JS form of v (numbers, maps and slices of them, strings) after
// checking that every number in it is finite.
func (c *call) finiteValue(v any) goja.Value {
	if what := nonFiniteIn(v); what != "" {
		c.overflow("it would return %s", what)
	}
	return c.value(v)
}

// nonFiniteIn names the first non-finite number in v, or "".
func nonFiniteIn(v any) string {
	switch x := v.(type) {
	case float64:
		if !finite(x) {
			return fmt.Sprint(x)
		}
	case []float64:
		for _, f := range x {
			if !finite(f) {
				return fmt.Sprint(f)
			}
		}
	case [][]float64:
		for _, row := range x {
			if s := nonFiniteIn(row); s != "" {
				return s
			}
		}
	case map[string]any:
		for k, e := range x {
			if s := nonFiniteIn(e); s != "" {
				return k + " " + s
			}
		}
	}
	return ""
}

// CheckFinite reports the first entity of s whose placement is not finite (a transform, a
// world matrix or world bounds that overflowed), or whose drawing spans more than a float
// can hold; nil when every number is finite. Runs check each call; this checks a whole
// scene, once at the end of every run and on scenes read from scene.json.
func CheckFinite(s *scene.Scene) error {
	boxed := true // every entity a top-level plain shape placed within placeBound
	for depth, e := range s.Walk() {
		if depth == 0 && smallTransform(e.Transform) {
			boxed = boxed && plainShape(e) && smallBox(s.LocalBounds(e))
			continue // finite: see placeBound
		}
		boxed = false
		if what := nonFiniteEntity(s, e, false); what != "" {
			return fmt.Errorf("%w: %s", errOverflowScene, what)
		}
	}
	if boxed {
		// Each entity's world bounds are its shape's numbers (within placeBound) mapped by its
		// matrix, as for the check after a call: within ±6e300 (an ellipse adds its hypot
		// to its centre's), and so is their union, whose size is then finite too.
		return nil
	}
	// With every world matrix finite, only the bounds are left; they are computed once for
	// the scene, and per entity only to name the one that overflowed.
	b := s.Bounds()
	if !b.NonEmpty || finiteBox(b) {
		return nil
	}
	for _, e := range s.Walk() {
		if what := nonFiniteEntity(s, e, !e.IsGroup()); what != "" {
			return fmt.Errorf("%w: %s", errOverflowScene, what)
		}
	}
	return fmt.Errorf("%w: the scene's bounds are %s", errOverflowScene, boxText(b))
}

// errOverflowScene wraps the errors of CheckFinite.
var errOverflowScene = errors.New("a number overflowed")

func finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}
