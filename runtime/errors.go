package runtime

// Turning goja's failures into Diagnostics. Formatting a thrown value must never run user
// code: the describer reads only data properties, and a value with a Proxy anywhere on its
// prototype chain (whose traps are user code) is not inspected at all. A generous deadline
// stays as a second line of defence.

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
)

// describeBudget bounds formatting a thrown value; it is never reached unless the Proxy
// check below misses a way for user code to run.
const describeBudget = 2 * time.Second

func (r *run) diagnose(err error) *Diagnostic {
	// A type switch, not errors.As: unwrapping a goja.Exception runs an instanceof check
	// that can call a user's Proxy trap, outside any deadline.
	switch e := err.(type) {
	case *goja.CompilerSyntaxError:
		d := &Diagnostic{Kind: KindSyntax, Message: e.Message}
		if e.File != nil {
			pos := e.File.Position(e.Offset)
			r.locate(d, pos.Filename, pos.Line, pos.Column)
		}
		return d
	case *goja.InterruptedError:
		d := &Diagnostic{Kind: KindTimeout,
			Message: fmt.Sprintf("the run took longer than %v (Limits.Timeout) and was stopped", r.limits.Timeout),
			Hint:    "look for a loop that never ends, or draw less per run"}
		timeout := false
		switch e.Value() {
		case errTimeout:
			timeout = true
		case errMemory:
			d.Kind, d.Hint = KindLimit, "build less at once, or reuse arrays instead of growing new ones"
			d.Message = fmt.Sprintf("the run used more than %d MB of memory (Limits.MaxMemory) and was stopped", r.limits.MaxMemory>>20)
		default:
			d.Kind, d.Message, d.Hint = KindUncaught, "the run was cancelled", ""
		}
		r.placeAtStack(d, e.Stack())
		if timeout {
			r.pointAtStuckLoop(d)
		}
		return d
	case *goja.StackOverflowError:
		d := &Diagnostic{Kind: KindStack,
			Message: fmt.Sprintf("call stack deeper than %d calls (Limits.MaxCallStack)", r.limits.MaxCallStack),
			Hint:    "a function calls itself without end; check the recursion's base case"}
		r.placeAtStack(d, e.Stack())
		return d
	case *goja.Exception:
		kind, msg := r.describeValue(e.Value())
		d := &Diagnostic{Kind: kind, Message: msg}
		r.placeAtStack(d, e.Stack())
		d.Hint = r.hint(d)
		return d
	}
	return &Diagnostic{Kind: KindUncaught, Message: err.Error()}
}

// describeValue names a thrown value: an Error's name and message, else a description.
func (r *run) describeValue(v goja.Value) (kind, msg string) {
	if hasProxy(v, r.isDataTarget) {
		return KindUncaught, "uncaught exception: a Proxy (not inspected)"
	}
	r.vm.ClearInterrupt()
	t := time.AfterFunc(describeBudget, func() { r.vm.Interrupt(errTimeout) })
	defer func() {
		t.Stop()
		r.vm.ClearInterrupt()
	}()
	out, err := r.describe(goja.Undefined(), v)
	if err != nil {
		return KindUncaught, "uncaught exception (its value could not be described)"
	}
	pair, ok := out.Export().([]any)
	if !ok || len(pair) != 2 {
		return KindUncaught, "uncaught exception"
	}
	kind, _ = pair[0].(string)
	msg, _ = pair[1].(string)
	if kind == "uncaught" {
		return KindUncaught, "uncaught exception: " + truncate(msg, 200)
	}
	return kind, truncate(msg, 2000)
}

// proxyType is the type a Proxy's ExportType reports.
var proxyType = reflect.TypeOf(goja.Proxy{})

// hasProxy reports whether v is a Proxy or has one on its prototype chain, but for the Proxies
// whose target plain accepts (readJSON's data, whose traps run no script code: they count as
// their targets). Only non-proxy objects are asked for their prototype, so the walk itself
// runs no trap.
func hasProxy(v goja.Value, plain func(target *goja.Object) bool) bool {
	o, ok := v.(*goja.Object)
	for i := 0; ok && o != nil && i < 64; i++ {
		// ExportType, not Export: exporting an object reads its properties, getters included.
		if o.ExportType() == proxyType {
			t := o.Export().(goja.Proxy).Target()
			if t == nil || !plain(t) {
				return true
			}
			o = t
		}
		o = o.Prototype()
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// placeAtStack fills the location from the innermost frame in a workspace file, and the
// stack from all script frames.
func (r *run) placeAtStack(d *Diagnostic, frames []goja.StackFrame) {
	located := false
	for i, f := range frames {
		pos := f.Position()
		if pos.Filename == "" || pos.Line == 0 {
			continue
		}
		fr := Frame{Function: f.FuncName(), File: pos.Filename, Line: pos.Line, Column: pos.Column}
		if i == len(frames)-1 && fr.Function == "<anonymous>" {
			fr.Function = "<top level>"
		}
		if src := r.sourceOf(pos.Filename); src != nil {
			line := lineOf(src, pos.Line)
			fr.Column = charColumn(line, calleeColumn(line, pos.Column))
		}
		d.Stack = append(d.Stack, fr)
		if !located {
			located = true
			r.locate(d, pos.Filename, pos.Line, pos.Column)
		}
	}
}

// locate sets file, line, character column and source line from a byte position.
func (r *run) locate(d *Diagnostic, file string, line, byteCol int) {
	d.File, d.Line, d.Column = file, line, byteCol
	if src := r.sourceOf(file); src != nil {
		d.Source = lineOf(src, line)
		d.Column = charColumn(d.Source, calleeColumn(d.Source, byteCol))
	}
}

// sourceOf returns the bytes of a file of this run by its path.
func (r *run) sourceOf(path string) []byte {
	for name, m := range r.modules {
		if m.path == path {
			src, _, err := r.src.Read(name)
			if err == nil {
				return src
			}
		}
	}
	return nil
}

// otherNames are names other CAD tools and libraries have, which cadrun does another way:
// spelling alone would offer whatever API name is nearest (drawHole got drawBox). Each says
// how, with the function to call; none is an API name (TestOtherNamesAreNotAPINames).
var otherNames = map[string]struct{ how, fn string }{
	"drawHole":     {"draw the hole with drawCircle, then cut it from the part with booleanDifference", "booleanDifference"},
	"drawSquare":   {"drawRect draws one, with width and height equal", "drawRect"},
	"drawSlot":     {"drawRoundedRect draws one, with radius half its height", "drawRoundedRect"},
	"drawPolyline": {"drawLine draws an open polyline, drawPolygon a closed one", "drawLine"},
	"drawPoint":    {"mark a point with a small drawCircle", "drawCircle"},
}

// hint suggests the next step for common mistakes.
func (r *run) hint(d *Diagnostic) string {
	switch {
	case d.Kind == "ReferenceError" && strings.HasSuffix(d.Message, " is not defined"):
		name := strings.TrimSuffix(d.Message, " is not defined")
		var names []string
		for _, f := range table() {
			if f.Replacement == "" {
				names = append(names, f.Name)
			}
		}
		own := declarations(r.sourceOf(d.File))
		for n := range own {
			if _, api := byName()[n]; !api {
				names = append(names, n)
			}
		}
		c := Closest(name, names)
		if use, ok := otherNames[name]; ok && own[name] == "" {
			return fmt.Sprintf("cadrun has no %s: %s (%s)", name, use.how, byName()[use.fn].Signature())
		}
		if where, ok := own[c]; ok {
			return fmt.Sprintf("did you mean %s? (%s)", c, where)
		}
		if c != "" {
			return fmt.Sprintf("did you mean %s? (%s)", c, byName()[c].Signature())
		}
		return "declare it, or import the module that defines it (import 'name')"
	case d.Kind == "TypeError" && strings.HasPrefix(d.Message, "Cannot read property '"):
		prop, of, _ := strings.Cut(strings.TrimPrefix(d.Message, "Cannot read property '"), "' of ")
		if expr := readFrom(d.Source, d.Column); expr != "" {
			return fmt.Sprintf("%s is %s here, so it has no .%s; check that %s is set, and spelt, as you expect", expr, of, prop, expr)
		}
		return ""
	case strings.Contains(d.Message, "no such entity"):
		const h = "draw it before using it, and check the spelling; exists(name) tells whether it is there"
		_, quoted, _ := strings.Cut(d.Message, "no such entity: ")
		name, err := strconv.Unquote(quoted)
		if err != nil || r.scene == nil {
			return h
		}
		var names []string
		for _, e := range r.scene.Walk() {
			names = append(names, e.Name)
		}
		if c := Closest(name, names); c != "" {
			return fmt.Sprintf("did you mean %q? %s", c, h)
		}
		return h
	case strings.Contains(d.Message, ": "+scene.ErrNotGroup.Error()+": "):
		// The entity and the group swapped, most often: say the call's order.
		fn, _, _ := strings.Cut(d.Message, ":")
		f, ok := byName()[fn]
		if !ok {
			return "createGroup makes a group"
		}
		if len(f.Params) > 1 && f.Params[0].Name == "group" {
			return fmt.Sprintf("the group comes first: %s; createGroup makes a group", f.Signature())
		}
		return f.Signature() + "; createGroup makes a group"
	case strings.Contains(d.Message, "is not a function"):
		return "check the name and that the module defining it is imported"
	}
	return ""
}

// calleeColumn moves a call's position from its "(" (where goja reports calls) back to the
// start of the callee, "drawCircle" in "drawCircle(...)" or "h.draw" in "h.draw(...)", which
// is where a reader looks. Other positions are returned unchanged. Columns are 1-based bytes.
func calleeColumn(line string, col int) int {
	i := col - 1
	if i <= 0 || i >= len(line) || line[i] != '(' {
		return col
	}
	j := i
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && isCalleeByte(line[k-1]) {
		k--
	}
	if k == j {
		return col
	}
	return k + 1
}

func isCalleeByte(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= 0x80 ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// declRE finds a file's own top-level names: declarations (function, class, const, let, var)
// and the names an import brings in ({a, b as c} and default imports).
// It is compiled on first use: most runs never fail, and a worker's start should not pay for it.
var declRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:\b(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*))|(?:^\s*import\s+([A-Za-z_$][\w$]*)?\s*,?\s*(?:\{([^}]*)\})?\s*from\s*['"]([^'"]+)['"])`)
})

// declarations maps the names a file declares or imports to where they come from ("declared
// at line 3", "imported from 'gear_lib'"), for did-you-mean hints on the program's own names.
func declarations(src []byte) map[string]string {
	out := map[string]string{}
	for _, m := range declRE().FindAllSubmatchIndex(src, -1) {
		line := 1 + bytes.Count(src[:m[0]], []byte("\n"))
		if m[2] >= 0 {
			n := string(src[m[2]:m[3]])
			if _, seen := out[n]; !seen {
				out[n] = fmt.Sprintf("declared at line %d", line)
			}
			continue
		}
		from := fmt.Sprintf("imported from '%s'", src[m[8]:m[9]])
		if m[4] >= 0 {
			out[string(src[m[4]:m[5]])] = from
		}
		if m[6] >= 0 {
			for _, spec := range strings.Split(string(src[m[6]:m[7]]), ",") {
				f := strings.Fields(spec)
				if len(f) > 0 {
					out[f[len(f)-1]] = from // a, or a as b
				}
			}
		}
	}
	return out
}

// readFrom is the expression whose property a failed read reached for: in line, the text
// before the ".prop" at character column col ("p.size" in "p.size.width", "parts[0]" in
// "parts[0].x"), or "" when it cannot be told.
func readFrom(line string, col int) string {
	runes := []rune(line)
	end := col - 2 // the '.' before the property
	if col < 3 || end >= len(runes) || runes[end] != '.' {
		return ""
	}
	start := end
	for start > 0 {
		c := runes[start-1]
		switch {
		case c == ']' || c == ')':
			open, depth := map[rune]rune{']': '[', ')': '('}[c], 0
			i := start - 1
			for ; i >= 0; i-- {
				if runes[i] == c {
					depth++
				} else if runes[i] == open {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if i < 0 {
				return ""
			}
			start = i
		case c >= 0x80 || isCalleeByte(byte(c)):
			start--
		default:
			return strings.TrimPrefix(string(runes[start:end]), ".")
		}
	}
	return strings.TrimPrefix(string(runes[start:end]), ".")
}
