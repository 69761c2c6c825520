package runtime

// Diagnostics: every failure of a run becomes one Diagnostic naming the file, line and column,
// with the source line, a caret and a hint written for whoever reads it next (often an agent).

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kinds of diagnostic besides the JS error names (TypeError, ReferenceError, ...).
const (
	KindSyntax    = "SyntaxError"
	KindTimeout   = "TimeoutError"
	KindStack     = "StackOverflowError"
	KindLimit     = "LimitError"
	KindModule    = "ModuleError"
	KindUncaught  = "Error"
	maxStackShown = 12
)

// Frame is one JS stack frame.
type Frame struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// Diagnostic is a failed run explained. Line and Column are 1-based; Column counts
// characters (Unicode code points) from the start of the line. File is the workspace path
// (scene.code.js, modules/NAME.js), or "" when the failure is not in a file (a timeout
// outside any frame, a limit). Notes point at other places the failure involves, each with
// its own line and caret (a name declared twice: the first declaration).
type Diagnostic struct {
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Column  int     `json:"column"`
	Kind    string  `json:"kind"`
	Message string  `json:"message"`
	Source  string  `json:"source,omitempty"` // the offending line
	Hint    string  `json:"hint,omitempty"`
	Notes   []Note  `json:"notes,omitempty"`
	Stack   []Frame `json:"stack,omitempty"`
}

// Note is a second place a Diagnostic points at, located as a Diagnostic is (1-based line,
// column in characters), with its own message ("'SIZE' is first declared here") and source
// line.
type Note struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
}

// Error is the one-line form: "modules/house.js:12:7: TypeError: message".
func (d *Diagnostic) Error() string {
	var b strings.Builder
	switch { // a place not known (line or column 0) is left out, not printed as 0
	case d.File == "":
	case d.Line <= 0:
		fmt.Fprintf(&b, "%s: ", d.File)
	case d.Column <= 0:
		fmt.Fprintf(&b, "%s:%d: ", d.File, d.Line)
	default:
		fmt.Fprintf(&b, "%s:%d:%d: ", d.File, d.Line, d.Column)
	}
	b.WriteString(d.Kind)
	b.WriteString(": ")
	b.WriteString(d.Message)
	return b.String()
}

// Render is the full form: the one-line error, the source line with a caret under the
// column, each note the same way ("file:line:col: note: message", its line and caret), the
// hint, and the stack.
func (d *Diagnostic) Render() string {
	var b strings.Builder
	b.WriteString(d.Error())
	b.WriteByte('\n')
	writeSource(&b, d.Source, d.Line, d.Column)
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "%s:%d:%d: note: %s\n", n.File, n.Line, n.Column, n.Message)
		writeSource(&b, n.Source, n.Line, n.Column)
	}
	if d.Hint != "" {
		b.WriteString("hint: ")
		b.WriteString(d.Hint)
		b.WriteByte('\n')
	}
	if len(d.Stack) > 1 {
		b.WriteString("stack:\n")
		// A run of identical frames (a runaway recursion) is shown once, with its count.
		for i, shown := 0, 0; i < len(d.Stack); shown++ {
			if shown == maxStackShown {
				fmt.Fprintf(&b, "    ... %d more\n", len(d.Stack)-i)
				break
			}
			f, j := d.Stack[i], i+1
			for j < len(d.Stack) && d.Stack[j] == f {
				j++
			}
			fmt.Fprintf(&b, "    at %s (%s:%d:%d)\n", f.Function, f.File, f.Line, f.Column)
			if j-i > 1 {
				fmt.Fprintf(&b, "    ... the frame above %d more times\n", j-i-1)
			}
			i = j
		}
	}
	return b.String()
}

// writeSource writes a source line with its number and, under it, a caret at column col;
// nothing when the line is not known.
func writeSource(b *strings.Builder, source string, line, col int) {
	if source == "" {
		return
	}
	prefix := fmt.Sprintf("%5d | ", line)
	b.WriteString(prefix)
	b.WriteString(source)
	b.WriteByte('\n')
	b.WriteString(strings.Repeat(" ", len(prefix)))
	b.WriteString(caretPad(source, col))
	b.WriteString("^\n")
}

// caretPad is the whitespace that puts a caret under column col of line, keeping tabs so
// that the caret lines up however the reader's terminal expands them.
func caretPad(line string, col int) string {
	var b strings.Builder
	n := 1
	for _, r := range line {
		if n >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		n++
	}
	return b.String()
}

// lineOf returns line n (1-based) of src without its line break.
func lineOf(src []byte, n int) string {
	for i := 1; i < n; i++ {
		k := strings.IndexByte(string(src), '\n')
		if k < 0 {
			return ""
		}
		src = src[k+1:]
	}
	if k := strings.IndexByte(string(src), '\n'); k >= 0 {
		src = src[:k]
	}
	return strings.TrimSuffix(string(src), "\r")
}

// charColumn turns a 1-based byte column into a 1-based character column.
func charColumn(line string, byteCol int) int {
	if byteCol-1 > len(line) {
		return utf8.RuneCountInString(line) + 1
	}
	if byteCol < 1 {
		return 1
	}
	return utf8.RuneCountInString(line[:byteCol-1]) + 1
}

// Closest returns the candidate nearest to name, ignoring case, or "" when none is close
// enough to suggest ("did you mean ...?"): among those within the edit distance allowed, one
// that name begins (drawCircle for drawCirc) comes first, then the smallest distance, then the
// first in sort order.
func Closest(name string, candidates []string) string {
	best, bestD, bestPrefix := "", len(name)/2+2, false
	lname := strings.ToLower(name)
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := EditDistance(lname, lc)
		if d >= len(name)/2+2 {
			continue
		}
		prefix := strings.HasPrefix(lc, lname)
		switch {
		case best == "", prefix && !bestPrefix,
			prefix == bestPrefix && (d < bestD || (d == bestD && c < best)):
			best, bestD, bestPrefix = c, d, prefix
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in bytes.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
