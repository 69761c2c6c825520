package importer

// Folding runs of similar calls into data and a loop, so that an imported module reads as a
// person would write it: ten holes of one size along a row are a table of their centres and
// one drawCircle, not ten drawCircle lines. A run is at least minRun consecutive lines that
// call the same function on names of one prefix and consecutive numbers (as the generator
// names a layer's entities: holes-circle1, holes-circle2, ...) and differ only in the numbers
// outside strings. The numbers that vary become the loop's variables, named after the API's
// parameters (cx, cy) or, in a point list, after what they are (x1, y1, x2, y2); the ones that
// do not stay in the call, and a run where nothing but the serial varies is a counted loop. A
// createGroup, a constant or a return that lists such a run of names lists them with
// names(prefix, from, to), a helper the module then defines inside its exported function.
// Folding changes no value: each number is written as it was.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cadrun/cadrun/runtime"
)

// minRun is the fewest similar calls folded into a loop.
const minRun = 4

// call is one generated line `indent fn('prefixN', rest);` taken apart: rest's numbers outside
// strings, and its shape with each number replaced by a placeholder.
type call struct {
	indent, fn, prefix string
	serial             int
	nums               []string
	shape              []string // the text around the numbers: len(nums)+1 pieces
	args               []int    // for each number, the argument it is in (0 is the name's)
	nested             []bool   // for each number, whether it is inside brackets
}

// callLine matches a generated call on a name that ends in a serial number. It and the
// package's other patterns are compiled at first use: every process of the binary initialises
// this package, and only an import folds.
var callLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*)([A-Za-z]\w*)\('([A-Za-z0-9_-]*?)([0-9]+)'(.*)\);$`)
})

// dataRef is a reference to a literal in data (data.go): each call reads its own, and a table
// of the indexes would say nothing the calls do not.
var dataRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bdata\[[0-9]+\]`) })

// parseCall takes a line apart, or reports that it is not a call a run is made of.
func parseCall(line string) (call, bool) {
	m := callLine().FindStringSubmatch(line)
	if m == nil || strings.HasPrefix(m[4], "0") && m[4] != "0" || dataRef().MatchString(m[5]) {
		return call{}, false
	}
	n, err := strconv.Atoi(m[4])
	if err != nil {
		return call{}, false
	}
	c := call{indent: m[1], fn: m[2], prefix: m[3], serial: n}
	rest := m[5]
	piece := strings.Builder{}
	arg, depth := 0, 0
	for i := 0; i < len(rest); {
		ch := rest[i]
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			end := strings.IndexByte(rest[i+1:], ch)
			if end < 0 || strings.Contains(rest[i+1:i+1+end], `\`) {
				return call{}, false // a string with escapes: left as it is
			}
			piece.WriteString(rest[i : i+2+end])
			i += 2 + end
			continue
		case ch == '[' || ch == '(' || ch == '{':
			depth++
		case ch == ']' || ch == ')' || ch == '}':
			depth--
		case ch == ',' && depth == 0:
			arg++
		}
		if l := numberAt(rest, i); l > 0 {
			c.shape = append(c.shape, piece.String())
			piece.Reset()
			c.nums = append(c.nums, rest[i:i+l])
			c.args = append(c.args, arg)
			c.nested = append(c.nested, depth > 0)
			i += l
			continue
		}
		piece.WriteByte(ch)
		i++
	}
	c.shape = append(c.shape, piece.String())
	return c, true
}

// numberAt is the length of the number literal at rest[i], or 0: digits with a sign, a point
// and an exponent, not part of a name.
func numberAt(rest string, i int) int {
	if i > 0 && (isWordByte(rest[i-1]) || rest[i-1] == '.') {
		return 0
	}
	j := i
	if j < len(rest) && rest[j] == '-' {
		j++
	}
	start := j
	for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
		j++
	}
	if j == start {
		return 0
	}
	if j < len(rest) && (rest[j] == 'e' || rest[j] == 'E') {
		k := j + 1
		if k < len(rest) && (rest[k] == '-' || rest[k] == '+') {
			k++
		}
		if k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
				k++
			}
			j = k
		}
	}
	if j < len(rest) && isWordByte(rest[j]) {
		return 0
	}
	return j - i
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// follows reports whether c continues the run that ends with last.
func (c call) follows(last call) bool {
	if c.indent != last.indent || c.fn != last.fn || c.prefix != last.prefix || c.serial != last.serial+1 || len(c.shape) != len(last.shape) {
		return false
	}
	for i := range c.shape {
		if c.shape[i] != last.shape[i] {
			return false
		}
	}
	return true
}

// fold folds the module (foldRuns) into a writer that holds the result to the sandbox's
// MaxSourceBytes as it is written; hint says what to do with a file whose module is over it.
func fold(code, hint string, clock *budget) (string, error) {
	w := newCodeWriter(runtime.DefaultLimits.MaxSourceBytes, ", the limit on a script", "MaxSourceBytes", hint, clock)
	foldInto(w, code)
	if err := w.Err(); err != nil {
		return "", err
	}
	return w.String(), nil
}

// foldRuns rewrites the module's runs of similar calls as loops over their data, and the
// group lists of their names with names().
func foldRuns(code string) string {
	w := newCodeWriter(math.MaxInt, "", "", "", nil)
	foldInto(w, code)
	return w.String()
}

// foldInto writes code folded into w, line by line, so that w refuses as soon as the folded
// text passes its budget.
func foldInto(w *codeWriter, code string) {
	lines := strings.Split(code, "\n")
	started := false // a line is written
	blank := 0       // empty lines held back: the names helper goes after the last other line
	emit := func(ls ...string) {
		for _, l := range ls {
			if l == "" {
				blank++
				continue
			}
			for ; blank > 0; blank-- {
				if started {
					w.WriteString("\n")
				}
				started = true
			}
			if started {
				w.WriteString("\n")
			}
			w.WriteString(l)
			started = true
		}
	}
	// The module is one exported function: the names helper goes inside it, before the brace
	// that closes it, as its other helpers do.
	end := len(lines)
	for end > 0 && lines[end-1] == "" {
		end--
	}
	tail := lines[end:]
	if end > 0 && lines[end-1] == "}" {
		end--
		tail = lines[end:]
	}
	usedNames := false
	for i := 0; i < end && w.Err() == nil; {
		first, ok := parseCall(lines[i])
		j := i + 1
		if ok {
			last := first
			for j < end {
				c, ok := parseCall(lines[j])
				if !ok || !c.follows(last) {
					break
				}
				last = c
				j++
			}
		}
		if !ok || j-i < minRun {
			line, used := foldNames(lines[i])
			usedNames = usedNames || used
			emit(line)
			i++
			continue
		}
		run := make([]call, 0, j-i)
		for _, l := range lines[i:j] {
			c, _ := parseCall(l)
			run = append(run, c)
		}
		emit(loop(run)...)
		i = j
	}
	if usedNames {
		ind := ""
		if len(tail) > 0 && tail[0] == "}" {
			ind = "  "
		}
		blank = 0
		emit("", ind+"// names lists the names prefix + from, ..., prefix + to.",
			ind+"function names(prefix, from, to) {",
			ind+"  return Array.from({length: to - from + 1}, (_, k) => prefix + (from + k));",
			ind+"}")
		if len(tail) == 0 {
			emit("")
		}
	}
	emit(tail...)
	for ; blank > 0; blank-- {
		if started {
			w.WriteString("\n")
		}
		started = true
	}
}

// loop writes a run as a table of the numbers that vary and one call in a for loop.
func loop(run []call) []string {
	first := run[0]
	varies := make([]bool, len(first.nums))
	for _, c := range run[1:] {
		for k, n := range c.nums {
			varies[k] = varies[k] || n != first.nums[k]
		}
	}
	vars := []string{"i"}
	taken := map[string]bool{"i": true, "deg": true}
	name := make([]string, len(first.nums))
	params := paramNames(first.fn)
	within := map[int]int{} // the numbers seen so far inside each argument's brackets
	for k := range first.nums {
		at := within[first.args[k]]
		if first.nested[k] {
			within[first.args[k]]++
		}
		if !varies[k] {
			continue
		}
		base := "v"
		if a := first.args[k]; a < len(params) && params[a] != "" {
			base = params[a]
		}
		if first.nested[k] {
			base = tupleName(base, at)
		}
		n := base
		for s := 1; taken[n]; s++ {
			n = base + strconv.Itoa(s)
		}
		taken[n] = true
		name[k] = n
		vars = append(vars, n)
	}
	var call strings.Builder
	fmt.Fprintf(&call, "%s(`%s${i}`", first.fn, first.prefix)
	for k, piece := range first.shape {
		call.WriteString(piece)
		if k < len(first.nums) {
			if varies[k] {
				call.WriteString(name[k])
			} else {
				call.WriteString(first.nums[k])
			}
		}
	}
	call.WriteString(");")
	if len(vars) == 1 { // only the serial varies: a table of it alone would read as noise
		return []string{fmt.Sprintf("%sfor (let i = %d; i <= %d; i++) %s", first.indent, first.serial, run[len(run)-1].serial, call.String())}
	}
	out := []string{fmt.Sprintf("%sfor (const [%s] of [", first.indent, strings.Join(vars, ", "))}
	for _, c := range run {
		row := []string{strconv.Itoa(c.serial)}
		for k, n := range c.nums {
			if varies[k] {
				row = append(row, n)
			}
		}
		out = append(out, fmt.Sprintf("%s  [%s],", first.indent, strings.Join(row, ", ")))
	}
	return append(out, fmt.Sprintf("%s]) %s", first.indent, call.String()))
}

// tupleName names the number at index at of an array argument after what it is: a point
// list's x1, y1, x2, y2, a colour's r, g, b, a, else the parameter's name and the index.
func tupleName(param string, at int) string {
	switch {
	case param == "points" || param == "point" || param == "center":
		return [2]string{"x", "y"}[at%2] + strconv.Itoa(at/2+1)
	case (param == "color" || param == "rgba") && at < 4:
		return [4]string{"r", "g", "b", "a"}[at]
	}
	return param + strconv.Itoa(at)
}

// paramNames are the API's names of fn's parameters after the name, made plain identifiers;
// nil for a function the API does not have.
func paramNames(fn string) []string {
	f, ok := runtime.Lookup(fn)
	if !ok {
		return nil
	}
	out := []string{""} // the name's
	for _, p := range f.Params[1:] {
		out = append(out, strings.Map(func(r rune) rune {
			if r < 128 && isWordByte(byte(r)) {
				return r
			}
			return -1
		}, p.Name))
	}
	return out
}

// groupLine matches a createGroup, a constant or a return of a literal list of names.
var groupLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*createGroup\((?:'[^']*'|[A-Za-z_]\w*), |\s*const [A-Za-z_]\w* = |\s*return )\[(.*)\](\)?;)$`)
})

// foldNames rewrites the runs of consecutive names in a createGroup's list as names(...), and
// reports whether it did.
func foldNames(line string) (string, bool) {
	m := groupLine().FindStringSubmatch(line)
	if m == nil {
		return line, false
	}
	items := strings.Split(m[2], ", ")
	var out []string
	folded := false
	for i := 0; i < len(items); {
		p, n, ok := serialName(items[i])
		j := i + 1
		for ok && j < len(items) {
			q, m, ok2 := serialName(items[j])
			if !ok2 || q != p || m != n+(j-i) {
				break
			}
			j++
		}
		if !ok || j-i < minRun {
			out = append(out, items[i])
			i++
			continue
		}
		out = append(out, fmt.Sprintf("...names('%s', %d, %d)", p, n, n+j-i-1))
		folded = true
		i = j
	}
	if !folded {
		return line, false
	}
	if len(out) == 1 { // the whole list is one run
		return m[1] + strings.TrimPrefix(out[0], "...") + m[3], true
	}
	return m[1] + "[" + strings.Join(out, ", ") + "]" + m[3], true
}

// serialNameRE matches a quoted name that ends in a serial number.
var serialNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^'([A-Za-z0-9_-]*?)([1-9][0-9]*)'$`) })

// serialName splits a quoted name into its prefix and serial number.
func serialName(item string) (string, int, bool) {
	m := serialNameRE().FindStringSubmatch(item)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	return m[1], n, err == nil
}
