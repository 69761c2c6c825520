package esm

// Balance: what a source opens and never closes, found by the same lexer that finds imports,
// so that brackets inside strings, comments, templates and regular expressions are not
// counted and a division is not taken for a regular expression. A parser reports a missing
// ")" where it gives up, often lines later; this says where the construct began.

import (
	"slices"
	"strings"
)

// Unclosed is a construct that a source opens and never closes.
type Unclosed struct {
	Open   string // "(", "[", "{", "${", `"`, "'", "`" (a template literal) or "/*"
	Close  string // what would close it: ")", "]", "}", "}", `"`, "'", "`" or "*/"
	Offset int    // byte offset of the opener
	// End is the byte offset where it was found unclosed: a closing bracket of an enclosing
	// construct (the ")" in "f([1)"), or the end of the source.
	End int
}

// Bracket reports a bracket or a template substitution, as opposed to a string, template
// literal or comment (which end the lexing where they begin).
func (u Unclosed) Bracket() bool {
	return u.Open == "(" || u.Open == "[" || u.Open == "{" || u.Open == "${"
}

// ListKind is what the innermost bracket around a place holds, as far as commas go.
type ListKind int

const (
	// ListNone is a block, a grouping or condition "(", a template substitution, or no
	// bracket at all: commas do not separate items there.
	ListNone ListKind = iota
	ListArray
	ListObject    // an object literal or pattern
	ListArguments // a call's arguments or a function's parameters
)

// Gap is the place between the last token before an offset and the token at or after it.
type Gap struct {
	List ListKind // the innermost bracket around the gap
	// Item is the offset of the first token of the list item before the gap, or -1 when the
	// gap comes right after the list's opener or a comma.
	Item int
	// Prev is the token before the gap (PrevEnd its end), -1 when there is none.
	Prev, PrevEnd int
	// Next is the token at or after the offset, len(src) at the end of the source.
	Next, NextEnd int
	// Separable reports that Prev ends an operand and Next starts one, so a comma between
	// them would make two items.
	Separable bool
}

// BalanceReport is the result of Balance.
type BalanceReport struct {
	Unclosed []Unclosed // in the order of their openers
	At       Gap        // the gap at the offset Balance was asked about
}

// Balance lexes src and reports the constructs it opens and never closes, and the gap at
// offset at (negative: none asked). A string, template literal or comment that is not
// terminated ends the lexing there, so it is the last Unclosed. A closing bracket with
// nothing to close is skipped. Balance never fails and takes time linear in len(src).
func Balance(src string, at int) BalanceReport {
	lx := lexer{src: src, regexOK: true, track: true}
	rep := BalanceReport{At: Gap{Item: -1, Prev: -1, PrevEnd: -1, Next: len(src), NextEnd: len(src)}}
	asked := at < 0
	var prev token
	havePrev := false
	for {
		var top bracketFrame
		inside := len(lx.stack) > 0
		if inside {
			top = lx.stack[len(lx.stack)-1]
		}
		depth := len(lx.stack)
		t := lx.next()
		if !asked && (t.start >= at || t.kind == tEOF) {
			asked = true
			rep.At = lx.gap(top, inside, prev, havePrev, t)
		}
		if t.kind == tEOF {
			break
		}
		n := len(lx.stack)
		switch {
		case n > depth || t.kind == tTemplateHead:
			lx.stack[n-1].item = -1 // an opener: its first item is still to come
		case n == 0 || n < depth:
		case t.kind == tPunct && src[t.start] == ',':
			lx.stack[n-1].item = -1
		case lx.stack[n-1].item < 0:
			lx.stack[n-1].item = t.start
		}
		prev, havePrev = t, true
	}
	for _, f := range lx.lost {
		u := unclosedFrame(f)
		u.End = f.lostAt
		rep.Unclosed = append(rep.Unclosed, u)
	}
	for _, f := range lx.stack {
		u := unclosedFrame(f)
		u.End = len(src)
		rep.Unclosed = append(rep.Unclosed, u)
	}
	if lx.err != nil {
		if u, ok := unclosedLiteral(src, lx.errOff); ok {
			rep.Unclosed = append(rep.Unclosed, u)
		}
	}
	// lost is in the order the frames were closed over; the rest are in source order.
	slices.SortStableFunc(rep.Unclosed, func(a, b Unclosed) int { return a.Offset - b.Offset })
	return rep
}

// unclosedFrame describes a frame but for its End.
func unclosedFrame(f bracketFrame) Unclosed {
	switch f.open {
	case '(':
		return Unclosed{Open: "(", Close: ")", Offset: f.at}
	case '[':
		return Unclosed{Open: "[", Close: "]", Offset: f.at}
	case '{':
		return Unclosed{Open: "{", Close: "}", Offset: f.at}
	}
	return Unclosed{Open: "${", Close: "}", Offset: f.at}
}

// unclosedLiteral describes the literal or comment that the lexer found unterminated at off,
// if it is one (an unterminated regular expression is more often a misread division).
func unclosedLiteral(src string, off int) (Unclosed, bool) {
	u := Unclosed{Offset: off, End: len(src)}
	rest := src[off:]
	switch {
	case strings.HasPrefix(rest, "/*"):
		u.Open, u.Close = "/*", "*/"
	case rest != "" && (rest[0] == '"' || rest[0] == '\'' || rest[0] == '`'):
		u.Open, u.Close = rest[:1], rest[:1]
	default:
		return u, false
	}
	if u.Open != "`" && u.Open != "/*" {
		u.End = lineEnd(src, off)
	}
	return u, true
}

// gap describes the place before t: top is the innermost frame open before it (when inside).
func (lx *lexer) gap(top bracketFrame, inside bool, prev token, havePrev bool, t token) Gap {
	g := Gap{Item: -1, Prev: -1, PrevEnd: -1, Next: t.start, NextEnd: t.end}
	if havePrev {
		g.Prev, g.PrevEnd = prev.start, prev.end
		g.Separable = lx.endsOperand(prev) && lx.startsOperand(t)
	}
	if !inside {
		return g
	}
	switch {
	case top.open == '[':
		g.List = ListArray
	case top.open == '{' && !top.regexAfter:
		g.List = ListObject
	case top.open == '(' && top.call:
		g.List = ListArguments
	}
	if g.List != ListNone {
		g.Item = top.item
	}
	return g
}

// startsOperand reports a token that can begin an expression or a property.
func (lx *lexer) startsOperand(t token) bool {
	switch t.kind {
	case tIdent, tNumber, tString, tTemplate, tTemplateHead, tRegex:
		return true
	case tPunct:
		switch lx.src[t.start:t.end] {
		case "{", "[", "(", "...", "!", "~":
			return true
		}
	}
	return false
}

// Position returns the 1-based line and 1-based byte column of offset off in src, counting
// line terminators as goja does: \r\n, \n, \r, U+2028 and U+2029.
func Position(src string, off int) (line, col int) {
	lx := lexer{src: src}
	return lx.position(off)
}

// Offset is the inverse of Position: the byte offset of a 1-based line and byte column, kept
// within src.
func Offset(src string, line, col int) int {
	start := 0
	for l := 1; l < line && start < len(src); l++ {
		end := lineEnd(src, start)
		switch {
		case end >= len(src):
			return len(src)
		case src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n':
			start = end + 2
		case src[end] == '\r' || src[end] == '\n':
			start = end + 1
		default:
			start = end + 3 // U+2028 or U+2029
		}
	}
	return min(max(start+col-1, start), len(src))
}
