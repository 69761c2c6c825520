package runtime

// The JS API is one table (table.go). This file holds its types, the checks that run at
// its first use, and the argument readers every binding uses, so that each function's errors
// name the function, the argument and the value in the same words.

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// Param describes one parameter of an API function.
type Param struct {
	Name     string
	Type     string // TypeScript type, e.g. "number", "string | string[]"
	Unit     string // "scene units", "radians", "" when unitless
	Default  string // JS text of the default; "" for a required parameter
	Optional bool
	Doc      string
}

// Func is one API function: its documentation and its implementation.
type Func struct {
	Name   string
	Domain string
	Params []Param
	// AltParams, when set, is a second accepted argument list (booleanUnion(names, result)).
	AltParams []Param
	Returns   string // TypeScript type
	Doc       string // one line
	Example   string // runnable JS; a test runs every example
	// Replacement, when set, marks a removed name: calling it throws an error naming the
	// replacement.
	Replacement string
	impl        func(c *call) goja.Value
	// transformOnly is set for the calls that change only the transform of what they name,
	// and placesNames for those whose named entities are checked after the call (finite.go).
	transformOnly, placesNames bool
}

// Domains in the order the docs list them.
var Domains = []string{"primitives", "text", "dimensions", "solids", "transforms", "groups", "style", "boolean", "geometry", "query", "data", "console", "testing"}

// DomainAliases are other names for groups of functions, as upstream's tools name them
// (upstream lists duplicate and mirror under "utility"); lsp answers them like domains.
var DomainAliases = map[string][]string{"utility": {"duplicate", "mirror"}}

// Console lists the methods of the console object, the "console" domain. They are not
// globals, so they are documented here rather than in the table; the runtime binds exactly
// these (a test holds the two together).
func Console() []Func { return slices.Clone(consoleMethods()) }

var consoleMethods = sync.OnceValue(func() []Func {
	var out []Func
	for _, m := range []struct{ name, doc string }{
		{"debug", "Write a debug line to the run's logs."},
		{"error", "Write an error line to the run's logs; the run goes on (throw to stop it)."},
		{"info", "Write an information line to the run's logs."},
		{"log", "Write the arguments to the run's logs, separated by spaces; objects as JSON."},
		{"warn", "Write a warning line to the run's logs."},
	} {
		out = append(out, Func{Name: "console." + m.name, Domain: "console", Returns: "void", Doc: m.doc,
			Params:  []Param{{Name: "...args", Type: "unknown[]", Optional: true, Doc: "strings as they are, other values as JSON"}},
			Example: "drawRect('plate', 0, 0, 20, 10); console." + m.name + "('area', getArea('plate'))"})
	}
	return out
})

// API returns the table, sorted by domain order then name. The slice is shared: do not modify.
func API() []Func {
	_, sorted := apiIndex()
	return sorted
}

// Lookup finds an API function by name.
func Lookup(name string) (Func, bool) {
	f, ok := byName()[name]
	return f, ok
}

// apiIndex indexes the table by name, and sorts it by domain order then name, at first use:
// a worker binds the table without them. A malformed table (a name twice, an unknown domain,
// no doc line or example, no implementation, a bad domain alias) panics there, which
// TestAPITableIsWellFormed makes happen in every test run.
var apiIndex = sync.OnceValues(indexTable)

// byName is the table by name.
func byName() map[string]Func {
	m, _ := apiIndex()
	return m
}

func indexTable() (map[string]Func, []Func) {
	byName := map[string]Func{}
	domainRank := map[string]int{}
	for i, d := range Domains {
		domainRank[d] = i
	}
	for _, f := range table() {
		if _, dup := byName[f.Name]; dup {
			panic("runtime: duplicate API name " + f.Name)
		}
		if _, ok := domainRank[f.Domain]; !ok {
			panic(fmt.Sprintf("runtime: %s has unknown domain %q", f.Name, f.Domain))
		}
		if f.Doc == "" || (f.Example == "" && f.Replacement == "") {
			panic("runtime: " + f.Name + " needs a doc line and an example")
		}
		if f.impl == nil && f.Replacement == "" {
			panic("runtime: " + f.Name + " has no implementation")
		}
		byName[f.Name] = f
	}
	for alias, names := range DomainAliases {
		for _, n := range names {
			if _, ok := byName[n]; !ok || slices.Contains(Domains, alias) {
				panic("runtime: domain alias " + alias + " names " + n + ", which is not an API function, or shadows a domain")
			}
		}
	}
	sorted := append([]Func(nil), table()...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Domain != b.Domain {
			return domainRank[a.Domain] < domainRank[b.Domain]
		}
		return a.Name < b.Name
	})
	return byName, sorted
}

// Signature renders f as "name(a: number, b?: string): boolean".
func (f Func) Signature() string { return f.signature(f.Params) }

// Signatures lists the accepted forms: Signature, then the alternative argument list.
func (f Func) Signatures() []string {
	if f.AltParams == nil {
		return []string{f.Signature()}
	}
	return []string{f.Signature(), f.signature(f.AltParams)}
}

func (f Func) signature(params []Param) string {
	var b strings.Builder
	b.WriteString(f.Name)
	b.WriteByte('(')
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.Name)
		if p.Optional {
			b.WriteByte('?')
		}
		b.WriteString(": ")
		b.WriteString(p.Type)
		if p.Unit == "radians" {
			b.WriteString(" /* radians */") // an angle says its unit where it is given
		}
	}
	b.WriteString("): ")
	b.WriteString(f.Returns)
	return b.String()
}

// call is one invocation of an API function from JS.
type call struct {
	r    *run
	fn   *Func
	args []goja.Value
}

// fail throws a JS error naming the function; kind is "TypeError" or "RangeError" or "Error".
func (c *call) fail(kind, format string, args ...any) {
	msg := c.fn.Name + ": " + fmt.Sprintf(format, args...)
	vm := c.r.vm
	var obj *goja.Object
	switch kind {
	case "TypeError":
		obj = vm.NewTypeError(msg)
	case "RangeError":
		ctor := vm.Get("RangeError")
		obj, _ = vm.New(ctor, vm.ToValue(msg))
	default:
		obj = vm.NewGoError(fmt.Errorf("%s", msg))
		_ = obj.Set("name", "Error")
	}
	panic(obj)
}

// check throws a scene error (or any error) as a JS Error naming the function.
func (c *call) check(err error) {
	if err != nil {
		c.fail("Error", "%v", err)
	}
}

func (c *call) param(i int) Param {
	if i < len(c.fn.Params) {
		return c.fn.Params[i]
	}
	return Param{Name: fmt.Sprintf("argument %d", i+1)}
}

func (c *call) arg(i int) goja.Value {
	if i < len(c.args) {
		return c.args[i]
	}
	return goja.Undefined()
}

func (c *call) present(i int) bool {
	v := c.arg(i)
	return !goja.IsUndefined(v) && !goja.IsNull(v)
}

// describe renders a JS value for an error message without running user code: objects
// are named by class only, never exported (exporting reads properties, getters included).
func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		switch className(o) {
		case "Function":
			return "a function"
		case "Array":
			return "an array"
		}
		return "an object"
	}
	if s, ok := asString(v); ok {
		if len(s) > 40 {
			s = s[:40] + "..."
		}
		return fmt.Sprintf("%q", s)
	}
	return v.String()
}

// asString returns v's value if v is a primitive string. (A symbol passes too, as its
// description text: its ExportType is a string's.)
func asString(v goja.Value) (string, bool) {
	if goja.IsNumber(v) { // the most common argument, and the cheapest test
		return "", false
	}
	switch v.(type) {
	case goja.String:
		return v.String(), true
	case nil, *goja.Object:
		return "", false
	}
	if t := v.ExportType(); t == nil || t.Kind() != reflect.String {
		return "", false
	}
	return v.String(), true
}

func (c *call) str(i int) string {
	v := c.arg(i)
	s, ok := asString(v)
	if !ok {
		c.fail("TypeError", "%s must be a string, got %s", c.param(i).Name, describe(v))
	}
	return s
}

func (c *call) name(i int) string {
	s := c.str(i)
	if s == "" {
		c.fail("TypeError", "%s must not be empty", c.param(i).Name)
	}
	return s
}

func (c *call) num(i int) float64 {
	v := c.arg(i)
	f, ok := exportFloat(v)
	if !ok {
		c.fail("TypeError", "%s must be a number, got %s", c.param(i).Name, describe(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		c.fail("RangeError", "%s must be a finite number, got %v", c.param(i).Name, f)
	}
	return f
}

// floats reads an array of finite numbers.
func (c *call) floats(v goja.Value, what string) []float64 {
	o, ok := v.(*goja.Object)
	if !ok || className(o) != "Array" {
		c.fail("TypeError", "%s must be an array of numbers, got %s", what, describe(v))
	}
	n := int(o.Get("length").ToInteger())
	if n > scene.MaxVertices*2 {
		c.fail("RangeError", "%s has %d numbers; the limit is %d (MaxVertices points)", what, n, scene.MaxVertices*2)
	}
	out := make([]float64, n)
	for i := range n {
		e := o.Get(itoa(i))
		f, ok := exportFloat(e)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			c.fail("TypeError", "%s[%d] must be a finite number, got %s", what, i, describe(e))
		}
		out[i] = f
	}
	return out
}

// exportFloat returns v's value if v is a primitive number.
func exportFloat(v goja.Value) (float64, bool) {
	if goja.IsNumber(v) {
		return v.ToFloat(), true
	}
	switch v.(type) {
	case nil, *goja.Object, goja.String:
		return 0, false
	}
	t := v.ExportType()
	if t == nil {
		return 0, false
	}
	switch t.Kind() {
	case reflect.Int64, reflect.Float64:
		return v.ToFloat(), true
	}
	return 0, false
}

// points reads a flat [x1,y1,x2,y2,...] array (the upstream form) or an array of [x,y] pairs.
func (c *call) points(v goja.Value, what string) []geom.Vec {
	if o, ok := v.(*goja.Object); ok && className(o) == "Array" {
		if first, ok := o.Get("0").(*goja.Object); ok && className(first) == "Array" {
			n := int(o.Get("length").ToInteger())
			out := make([]geom.Vec, n)
			for i := range n {
				xy := c.floats(o.Get(itoa(i)), what+"["+itoa(i)+"]")
				if len(xy) != 2 {
					c.fail("TypeError", "%s[%d] must be a pair [x, y], got %d numbers", what, i, len(xy))
				}
				out[i] = geom.Vec{X: xy[0], Y: xy[1]}
			}
			return out
		}
	}
	fs := c.floats(v, what)
	if len(fs)%2 != 0 {
		c.fail("TypeError", "%s must hold x,y pairs: got %d numbers (an odd count)", what, len(fs))
	}
	out := make([]geom.Vec, len(fs)/2)
	for i := range out {
		out[i] = geom.Vec{X: fs[2*i], Y: fs[2*i+1]}
	}
	return out
}

// color reads [r, g, b, a] (a optional) with channels in 0..1; null means none.
func (c *call) color(i int) *scene.Color {
	v := c.arg(i)
	if goja.IsNull(v) {
		return nil
	}
	return c.colorValue(v, c.param(i).Name)
}

func (c *call) colorValue(v goja.Value, what string) *scene.Color {
	fs := c.floats(v, what)
	if len(fs) != 3 && len(fs) != 4 {
		c.fail("TypeError", "%s must be [r, g, b, a] with channels in 0..1, got %d numbers", what, len(fs))
	}
	col := scene.Color{fs[0], fs[1], fs[2], 1}
	if len(fs) == 4 {
		col[3] = fs[3]
	}
	for k, f := range col {
		if f < 0 || f > 1 {
			c.fail("RangeError", "%s channel %d is %v; channels are in 0..1 (divide 0..255 values by 255)", what, k, f)
		}
	}
	return &col
}

// names reads a name or an array of names.
func (c *call) names(i int) []string {
	v := c.arg(i)
	if s, ok := asString(v); ok {
		return []string{s}
	}
	o, ok := v.(*goja.Object)
	if !ok || className(o) != "Array" {
		c.fail("TypeError", "%s must be a name or an array of names, got %s", c.param(i).Name, describe(v))
	}
	n := int(o.Get("length").ToInteger())
	out := make([]string, n)
	for k := range n {
		s, ok := asString(o.Get(itoa(k)))
		if !ok {
			c.fail("TypeError", "%s[%d] must be a string, got %s", c.param(i).Name, k, describe(o.Get(itoa(k))))
		}
		out[k] = s
	}
	return out
}

// opts reads an optional options object; keys not in allowed are an error listing them.
func (c *call) opts(i int, allowed ...string) *goja.Object {
	if !c.present(i) {
		return nil
	}
	o, ok := c.arg(i).(*goja.Object)
	if !ok || className(o) == "Array" {
		c.fail("TypeError", "%s must be an options object, got %s", c.param(i).Name, describe(c.arg(i)))
	}
	for _, k := range o.Keys() {
		found := false
		for _, a := range allowed {
			found = found || a == k
		}
		if !found {
			c.fail("TypeError", "unknown option %q; use %s", k, strings.Join(allowed, ", "))
		}
	}
	return o
}

// optStr reads a string option (def when absent).
func (c *call) optStr(o *goja.Object, key, def string) string {
	if o == nil {
		return def
	}
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	s, ok := asString(v)
	if !ok {
		c.fail("TypeError", "option %s must be a string, got %s", key, describe(v))
	}
	return s
}

// optNum reads a number option (def when absent).
func (c *call) optNum(o *goja.Object, key string, def float64) float64 {
	if o == nil {
		return def
	}
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	f, ok := exportFloat(v)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		c.fail("TypeError", "option %s must be a finite number, got %s", key, describe(v))
	}
	return f
}

// optBool reads a true-or-false option (def when absent).
func (c *call) optBool(o *goja.Object, key string, def bool) bool {
	if o == nil {
		return def
	}
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	b, ok := v.Export().(bool)
	if !ok {
		c.fail("TypeError", "option %s must be true or false, got %s", key, describe(v))
	}
	return b
}

// optIndices reads an option that lists whole numbers (nil when absent); an empty list is an
// error, since leaving the option out is how a script asks for every one.
func (c *call) optIndices(o *goja.Object, key string) []int {
	if o == nil {
		return nil
	}
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	fs := c.floats(v, "option "+key)
	if len(fs) == 0 {
		c.fail("RangeError", "option %s is empty; leave it out to take every one", key)
	}
	out := make([]int, len(fs))
	for i, f := range fs {
		if f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
			c.fail("TypeError", "option %s[%d] must be a whole number, got %v", key, i, f)
		}
		out[i] = int(f)
	}
	return out
}

// space reads the {space} option of a transform.
func (c *call) space(o *goja.Object) scene.Space {
	sp, err := scene.ParseSpace(c.optStr(o, "space", ""))
	c.check(err)
	return sp
}

// value converts a Go value (maps, slices, numbers, strings) into a plain JS value.
func (c *call) value(v any) goja.Value { return c.r.vm.ToValue(v) }

// ok is what drawing and editing functions return, as upstream scripts expect.
func (c *call) ok() goja.Value { return c.r.valueTrue }
