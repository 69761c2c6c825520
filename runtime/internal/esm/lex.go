package esm

// The lexer: tokens of JavaScript source, with just enough state to tell a regular expression
// from a division and to know the bracket depth.
//
// Regular expression or division: a "/" after an identifier, number, string, template, "]",
// "++" or "--" divides; after any other punctuator, or after a keyword such as return, typeof,
// case, do, else, in, of, new, delete, void, throw, instanceof, yield, await or default, it
// starts a regular expression. ")" and "}" are ambiguous; the lexer remembers what opened them:
// the ")" of if/while/for/with (...) and the "}" of a block, function or class body are
// followed by a regular expression (`if (x) /re/.test(y)`), any other ")" and the "}" of an
// object literal by a division (`(a + b) / 2`, `({}) / 2`). The known misreadings are a
// function or class *expression* followed by a division (`f = function () {} / 2`) and
// `for await (...) /re/`; neither occurs in real scripts.

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF          tokKind = iota // also "no token yet"
	tIdent                       // identifier, keyword or #private name
	tNumber                      //
	tString                      // '...' or "..."
	tTemplate                    // a template without substitutions, or the tail after the last "}"
	tTemplateHead                // "`...${" or "}...${": an expression follows
	tRegex                       //
	tPunct                       // one byte, or one of => ... ?. ++ --
)

type token struct {
	kind       tokKind
	start, end int
	nl         bool // a line terminator (possibly inside a comment) comes before the token
	prop       bool // an identifier after "." or "?.": a property name, never a keyword
}

// Checks that run on the token after a closing bracket.
const (
	checkNone          = iota
	checkDefaultBody   // "}" of an anonymous default-exported function or class
	checkImportsMethod // ")" of `import(...)` inside braces: a method named import, or not
)

type bracketFrame struct {
	open       byte // '(', '[', '{' or '$' (a template substitution)
	regexAfter bool // a "/" right after the closing bracket starts a regular expression
	call       bool // '(' after a name, ")" or "]": a call's arguments or a function's parameters
	check      uint8
	at         int    // the opener's offset ("$" for a substitution)
	mark       int    // for '$': the template's backquote; for a check: where to report it
	item       int    // Balance: where the current list item's first token starts; -1 before it
	saved      [3]int // for '$': lexer.open outside the substitution
	lostAt     int    // in lexer.lost: the closing bracket that closed over the frame
}

// Bracket kinds counted in lexer.open.
const (
	parenKind = iota
	squareKind
	braceKind
)

func bracketKind(c byte) int {
	switch c {
	case '(', ')':
		return parenKind
	case '[', ']':
		return squareKind
	}
	return braceKind
}

type lexer struct {
	src   string
	pos   int
	stack []bracketFrame
	// open counts the frames of each bracket kind above the innermost template substitution
	// (a '$' frame keeps the counts from below it in saved), so that a closing bracket with
	// nothing to close is known at once, not by a search down the stack.
	open    [3]int
	regexOK bool  // a "/" at pos starts a regular expression
	prev    token // the last token returned
	before  token // the token before prev
	err     *Error
	errOff  int // the offset err reports

	// track keeps in lost the frames that a closing bracket of an enclosing frame ended
	// (the "[" in "f([1)"), for Balance.
	track bool
	lost  []bracketFrame

	pending    uint8 // a check to run on the next token, from a closed frame
	pendingPos int
	markBrace  bool // the next "{" at depth 0 is the body of an anonymous default export

	// Line numbering cache: positions are asked for in increasing order, so the total cost of
	// numbering is one pass.
	lineOff, line, lineStart int
}

// position returns the 1-based line and 1-based byte column of off, counting line
// terminators as goja does: \r\n, \n, \r, U+2028 and U+2029.
func (lx *lexer) position(off int) (line, col int) {
	if off < lx.lineOff || lx.line == 0 {
		lx.lineOff, lx.line, lx.lineStart = 0, 1, 0
	}
	src := lx.src
	i := lx.lineOff
	for ; i < off && i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			lx.line++
			lx.lineStart = i + 1
		case c == '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				lx.line++
				lx.lineStart = i + 1
			}
		case c == 0xE2 && isLineSep(src, i):
			i += 2
			lx.line++
			lx.lineStart = i + 1
		}
	}
	lx.lineOff = i
	return lx.line, off - lx.lineStart + 1
}

func (lx *lexer) errorAt(off int, format string, args ...any) *Error {
	line, col := lx.position(off)
	return &Error{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (lx *lexer) fail(off int, msg string) {
	if lx.err == nil {
		lx.err, lx.errOff = lx.errorAt(off, "%s", msg), off
	}
}

// isLineSep reports whether src[i:] starts with U+2028 or U+2029.
func isLineSep(src string, i int) bool {
	return i+2 < len(src) && src[i] == 0xE2 && src[i+1] == 0x80 && src[i+2]|1 == 0xA9
}

func isDecimalDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool { return isDecimalDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

// isIdentByte reports an ASCII identifier character.
func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDecimalDigit(c) || c == '_' || c == '$'
}

// isSpaceRune reports non-ASCII white space (not line terminators).
func isSpaceRune(r rune) bool { return r == '\uFEFF' || unicode.Is(unicode.Zs, r) }

// next returns the next token; after an error it returns tEOF for ever.
func (lx *lexer) next() token {
	if lx.err != nil {
		return token{kind: tEOF, start: len(lx.src), end: len(lx.src)}
	}
	nl := lx.skipSpace()
	t := lx.scan(nl)
	if lx.pending != checkNone && lx.err == nil {
		lx.check(t)
	}
	if lx.err != nil {
		return token{kind: tEOF, start: len(lx.src), end: len(lx.src)}
	}
	lx.after(t)
	return t
}

// skipSpace skips white space and comments, reporting whether they hold a line terminator.
func (lx *lexer) skipSpace() (nl bool) {
	src := lx.src
	i := lx.pos
	if i == 0 && strings.HasPrefix(src, "#!") {
		i = lineEnd(src, 2) // a hashbang line
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			i++
		case c == '\n' || c == '\r':
			nl = true
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i+2)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			n := strings.Index(src[i+2:], "*/")
			if n < 0 {
				lx.fail(i, "unterminated comment")
				lx.pos = len(src)
				return nl
			}
			if !nl && lineEnd(src[:i+2+n], i+2) < i+2+n {
				nl = true
			}
			i += n + 4
		case c < utf8.RuneSelf:
			lx.pos = i
			return nl
		default:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == '\u2028' || r == '\u2029' {
				nl = true
			} else if !isSpaceRune(r) {
				lx.pos = i
				return nl
			}
			i += size
		}
	}
	lx.pos = i
	return nl
}

// lineEnd returns the offset of the first line terminator at or after i, or len(src).
func lineEnd(src string, i int) int {
	for ; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n' || c == '\r':
			return i
		case c == 0xE2 && isLineSep(src, i):
			return i
		}
	}
	return len(src)
}

func (lx *lexer) scan(nl bool) token {
	src := lx.src
	i := lx.pos
	t := token{start: i, end: i, nl: nl}
	if i >= len(src) {
		return t // tEOF
	}
	switch c := src[i]; {
	case isIdentByte(c) && !isDecimalDigit(c) || c == '\\' || c >= utf8.RuneSelf:
		t.kind = tIdent
		t.end = identEnd(src, i)
		if p := lx.prev; p.kind == tPunct {
			w := src[p.start:p.end]
			t.prop = w == "." || w == "?."
		}
	case c == '#' && i+1 < len(src) && (isIdentByte(src[i+1]) || src[i+1] == '\\' || src[i+1] >= utf8.RuneSelf):
		t.kind = tIdent
		t.end = identEnd(src, i+1)
	case isDecimalDigit(c) || c == '.' && i+1 < len(src) && isDecimalDigit(src[i+1]):
		t.kind = tNumber
		t.end = numberEnd(src, i)
	case c == '\'' || c == '"':
		t.kind = tString
		t.end = lx.stringEnd(i)
	case c == '`':
		t.kind, t.end = lx.template(i+1, i)
	case c == '}' && lx.open[braceKind] == 0 && lx.substitution() >= 0:
		// No "{" is open inside the innermost substitution, so this "}" ends it; a "(" or
		// "[" still open in it is never closed.
		mark := lx.popTo(lx.substitution(), i).mark
		t.kind, t.end = lx.template(i+1, mark)
	case c == '/' && lx.regexOK:
		t.kind = tRegex
		t.end = lx.regexEnd(i)
	default:
		t.kind = tPunct
		t.end = punctEnd(src, i)
	}
	lx.pos = t.end
	return t
}

// identEnd returns the end of the identifier whose first character is at i. A "\" starts a
// Unicode escape; non-ASCII characters other than white space count as identifier characters
// (goja rejects those that are not).
func identEnd(src string, i int) int {
	first := true
	for i < len(src) {
		c := src[i]
		switch {
		case isIdentByte(c):
			i++
		case c == '\\':
			i++
			if strings.HasPrefix(src[i:], "u{") {
				// Only hex digits may follow: searching for the "}" could cost the rest of
				// the input at every "\u{".
				j := i + 2
				for j < len(src) && isHexDigit(src[j]) {
					j++
				}
				if j < len(src) && src[j] == '}' {
					i = j + 1
				}
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[i:])
			if !first && (r == '\u2028' || r == '\u2029' || isSpaceRune(r)) {
				return i
			}
			i += size
		default:
			if first {
				return i + 1 // cannot happen: scan only calls identEnd on an identifier start
			}
			return i
		}
		first = false
	}
	return i
}

func numberEnd(src string, i int) int {
	hex := src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'x'
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case isIdentByte(c) || c == '.':
			j++
		case (c == '+' || c == '-') && !hex && src[j-1]|0x20 == 'e':
			j++
		default:
			return j
		}
	}
	return j
}

func punctEnd(src string, i int) int {
	c := src[i]
	switch {
	case c == '=' && i+1 < len(src) && src[i+1] == '>':
		return i + 2
	case c == '.' && strings.HasPrefix(src[i:], "..."):
		return i + 3
	case c == '?' && i+1 < len(src) && src[i+1] == '.' && !(i+2 < len(src) && isDecimalDigit(src[i+2])):
		return i + 2
	case (c == '+' || c == '-') && i+1 < len(src) && src[i+1] == c:
		return i + 2
	}
	return i + 1
}

func (lx *lexer) stringEnd(i int) int {
	src := lx.src
	q := src[i]
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case q:
			return j + 1
		case '\\':
			j += 2
			if j < len(src) && src[j-1] == '\r' && src[j] == '\n' {
				j++
			}
		case '\n', '\r':
			lx.fail(i, "unterminated string literal")
			return j
		default:
			j++
		}
	}
	lx.fail(i, "unterminated string literal")
	return len(src)
}

// template scans template characters from i up to the closing backquote (tTemplate) or the
// next "${" (tTemplateHead, pushing a substitution frame). mark is the template's backquote.
func (lx *lexer) template(i, mark int) (tokKind, int) {
	src := lx.src
	for i < len(src) {
		switch src[i] {
		case '`':
			return tTemplate, i + 1
		case '\\':
			i += 2
			continue
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				lx.push(bracketFrame{open: '$', at: i, mark: mark})
				return tTemplateHead, i + 2
			}
		}
		i++
	}
	lx.fail(mark, "unterminated template literal")
	return tTemplate, len(src)
}

func (lx *lexer) regexEnd(i int) int {
	src := lx.src
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
			if j < len(src) && (src[j] == '\n' || src[j] == '\r' || isLineSep(src, j)) {
				lx.fail(i, "unterminated regular expression literal")
				return j
			}
		case c == '\n' || c == '\r' || c == 0xE2 && isLineSep(src, j):
			lx.fail(i, "unterminated regular expression literal")
			return j
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			j++
			for j < len(src) && isIdentByte(src[j]) {
				j++ // flags
			}
			return j
		}
	}
	lx.fail(i, "unterminated regular expression literal")
	return len(src)
}

// regexKeyword reports a keyword after which an expression, and so a regular expression,
// may start.
func regexKeyword(w string) bool {
	switch w {
	case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
		"throw", "instanceof", "yield", "await", "default":
		return true
	}
	return false
}

// after updates the bracket stack and the regex/division state for t.
func (lx *lexer) after(t token) {
	src := lx.src
	switch t.kind {
	case tIdent:
		lx.regexOK = !t.prop && regexKeyword(src[t.start:t.end])
	case tNumber, tString, tTemplate, tRegex:
		lx.regexOK = false
	case tTemplateHead:
		lx.regexOK = true
	case tPunct:
		lx.regexOK = true
		switch c := src[t.start]; c {
		case '(':
			p := lx.prev
			cond := false
			if p.kind == tIdent && !p.prop {
				switch src[p.start:p.end] {
				case "if", "while", "for", "with":
					cond = true
				}
			}
			lx.push(bracketFrame{open: '(', regexAfter: cond, call: !cond && lx.endsOperand(p) && !lx.isWord(p, "switch") && !lx.isWord(p, "catch"), at: t.start})
		case '[':
			lx.push(bracketFrame{open: '[', at: t.start})
		case '{':
			f := bracketFrame{open: '{', regexAfter: lx.startsBlock(), at: t.start}
			if lx.markBrace && len(lx.stack) == 0 {
				lx.markBrace = false
				f.check, f.mark = checkDefaultBody, t.start
			}
			lx.push(f)
		case ')', ']', '}':
			k := bracketKind(c)
			if lx.open[k] == 0 {
				// Nothing to close (within the innermost substitution): goja reports it. A
				// "}" here cannot be a substitution's end (scan took that one), so the
				// template frame stays.
				lx.regexOK = c == '}'
				break
			}
			// The nearest frame of this kind; any opened after it are never closed.
			n := len(lx.stack) - 1
			for bracketKind(lx.stack[n].open) != k {
				n--
			}
			f := lx.popTo(n, t.start)
			lx.regexOK = f.regexAfter
			if f.check != checkNone {
				lx.pending, lx.pendingPos = f.check, f.mark
			}
		case '+', '-':
			lx.regexOK = t.end-t.start == 1 // "++" and "--" end an operand
		}
	}
	lx.before, lx.prev = lx.prev, t
}

// substitution is the stack index of the innermost template substitution, or -1.
func (lx *lexer) substitution() int {
	return len(lx.stack) - 1 - lx.open[parenKind] - lx.open[squareKind] - lx.open[braceKind]
}

// push opens a frame.
func (lx *lexer) push(f bracketFrame) {
	if f.open == '$' {
		f.saved, lx.open = lx.open, [3]int{}
	} else {
		lx.open[bracketKind(f.open)]++
	}
	lx.stack = append(lx.stack, f)
}

// popTo closes the frame at index n of the stack by the bracket at offset at and returns it;
// the frames above it are never closed (kept in lost when tracking). Each frame is popped
// once, so the cost over a whole source is linear.
func (lx *lexer) popTo(n, at int) bracketFrame {
	if lx.track {
		for _, f := range lx.stack[n+1:] {
			f.lostAt = at
			lx.lost = append(lx.lost, f)
		}
	}
	for i := len(lx.stack) - 1; i >= n; i-- {
		if f := lx.stack[i]; f.open == '$' {
			lx.open = f.saved
		} else {
			lx.open[bracketKind(f.open)]--
		}
	}
	f := lx.stack[n]
	lx.stack = lx.stack[:n]
	return f
}

// startsBlock reports whether a "{" after lx.prev opens a block (or a function or class
// body) rather than an object literal.
func (lx *lexer) startsBlock() bool {
	p := lx.prev
	w := lx.src[p.start:p.end]
	switch p.kind {
	case tEOF:
		return true
	case tPunct:
		switch w {
		case ";", "{", "}", ")", "=>":
			return true
		}
		return false
	case tIdent:
		if p.prop || w == "else" || w == "do" {
			return true
		}
		return !regexKeyword(w)
	case tTemplateHead:
		return false
	}
	return true
}

func (lx *lexer) isWord(t token, w string) bool {
	return t.kind == tIdent && !t.prop && lx.src[t.start:t.end] == w
}

// endsOperand reports a token after which an operator, not an operand, is expected.
func (lx *lexer) endsOperand(t token) bool {
	w := lx.src[t.start:t.end]
	switch t.kind {
	case tIdent:
		return t.prop || !regexKeyword(w)
	case tNumber, tString, tTemplate, tRegex:
		return true
	case tPunct:
		switch w {
		case ")", "]", "}", "++", "--":
			return true
		}
	}
	return false
}

// continuesExpr reports whether t, following a complete operand, extends the expression
// rather than starting a new statement (so that no semicolon is inserted before it).
func (lx *lexer) continuesExpr(t token) bool {
	src := lx.src
	switch t.kind {
	case tPunct:
		w := src[t.start:t.end]
		if w == "++" || w == "--" {
			return false
		}
		if w == "!" {
			return t.end < len(src) && src[t.end] == '='
		}
		return strings.IndexByte("([.?,=+-*/%<>&|^:", w[0]) >= 0
	case tTemplate, tTemplateHead:
		return src[t.start] == '`' // a tagged template
	case tIdent:
		if t.prop {
			return false
		}
		w := src[t.start:t.end]
		return w == "in" || w == "instanceof"
	}
	return false
}

// check runs the check a closed frame left for the token after it.
func (lx *lexer) check(t token) {
	kind := lx.pending
	lx.pending = checkNone
	switch kind {
	case checkImportsMethod:
		if !(t.kind == tPunct && lx.src[t.start] == '{') {
			lx.fail(lx.pendingPos, msgDynamicImport)
		}
	case checkDefaultBody:
		// In the module the function or class is a declaration and ends at its "}"; in the
		// script it is the right-hand side of an assignment, which this token would continue.
		if t.kind == tRegex || lx.continuesExpr(t) {
			lx.fail(t.start, `add ";" before this token: the default-exported function or class `+
				`above runs as an expression here, and this token would continue it`)
		}
	}
}
