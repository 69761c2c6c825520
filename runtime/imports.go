package runtime

// Static imports and exports of a workspace module, and the same source rewritten to run as a
// classic script.
//
// Why rewrite rather than transpile: goja runs scripts, not ES modules, and the sandbox
// evaluates every module as a script in one shared realm (DESIGN.md, "The sandbox"). Removing
// the import/export syntax in place, byte for byte, keeps every line:column that goja reports
// pointing at the user's own text, so no source map is needed. Removed bytes become spaces;
// line terminators (\n, \r, U+2028, U+2029) are kept, because goja counts all of them when it
// numbers lines.
//
// Why a lexer of our own: an import inside a comment, string, template or regular expression
// is not one, and telling a regular expression from a division needs the previous token. goja's
// parser rejects import/export in scripts, so it cannot be asked. The lexer is one pass over
// the bytes with a bracket stack; only statements at bracket depth 0 are module syntax.
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
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// ErrModuleSyntax is wrapped by every *ScanError: the module's import or export syntax is
// malformed or unsupported by the sandbox, or a literal or comment is not terminated.
var ErrModuleSyntax = errors.New("module syntax error")

// ScanError is a malformed or unsupported import/export statement, or an unterminated
// literal or comment, at a position in the module source.
type ScanError struct {
	Line   int // 1-based
	Column int // 1-based, in bytes from the start of the line (goja counts columns the same way)
	Msg    string
}

// Error renders "line:column: message".
func (e *ScanError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// Unwrap returns ErrModuleSyntax.
func (e *ScanError) Unwrap() error { return ErrModuleSyntax }

// DefaultExportVar is the global that a rewritten `export default <expression>` assigns the
// value to. It replaces the text "export default" in place, so it is short enough to fit in
// those 14 bytes together with "=". Every module of a run assigns the same global: the loader
// reads it right after evaluating each module, and it must define the global (for example
// with vm.Set(DefaultExportVar, goja.Undefined())) before running a Script compiled as strict
// code, where assigning an undeclared name throws.
const DefaultExportVar = "__default__"

// ImportKind is the syntactic form of an import declaration.
type ImportKind int

const (
	// ImportSideEffect is `import 'x'`: the module runs and its top-level declarations become
	// visible to the importer through the shared realm.
	ImportSideEffect ImportKind = iota
	// ImportNamed is `import {a, b as c} from 'x'` (also `import {} from 'x'`).
	ImportNamed
	// ImportNamespace is `import * as ns from 'x'`.
	ImportNamespace
	// ImportDefault is `import d from 'x'` and the combined forms `import d, {a} from 'x'` and
	// `import d, * as ns from 'x'`, which give one Import with several bindings.
	ImportDefault
)

var importKindNames = [...]string{"ImportSideEffect", "ImportNamed", "ImportNamespace", "ImportDefault"}

// String returns the constant's name, so that test diffs are readable.
func (k ImportKind) String() string {
	if k >= 0 && int(k) < len(importKindNames) {
		return importKindNames[k]
	}
	return fmt.Sprintf("ImportKind(%d)", int(k))
}

// Binding is one name brought into a module by an import or passed through by a re-export.
type Binding struct {
	// Imported is the name in the imported module: "default" for a default import, "*" for a
	// namespace, otherwise the name (a string name's value for `{"a b" as c}`).
	Imported string
	// Local is the name bound in this module; for a ReExport, the name it is exported as.
	Local string
}

// Import is one static import declaration.
type Import struct {
	Kind     ImportKind
	Spec     string    // the module specifier's string value, escapes decoded, not validated
	Bindings []Binding // in source order; nil for ImportSideEffect
	// Line (1-based) and Column (1-based, in bytes) of the specifier's opening quote.
	Line, Column int
}

// Export is one name this module exports from its own top-level bindings.
type Export struct {
	Local    string // the top-level binding
	Exported string // the name importers use: "default" for a named default export
}

// ReExport is `export * from 'x'`, `export * as ns from 'x'` or `export {a as b} from 'x'`.
type ReExport struct {
	Spec string // as Import.Spec
	// Star is `export * from 'x'`: every name of Spec's module except "default".
	Star bool
	// Bindings are the names passed through: `export * as ns` gives {Imported: "*", Local:
	// "ns"}, `export {a as b}` gives {Imported: "a", Local: "b"}.
	Bindings     []Binding
	Line, Column int // of the specifier's opening quote, as Import
}

// Module is the result of ScanModule.
type Module struct {
	// Script is the source with its import/export syntax removed: the same length in bytes and
	// the same line terminators at the same offsets. An import, an export list and a
	// re-export become a ";" followed by spaces (the ";" keeps automatic semicolon insertion
	// working as it did: `x = a` followed by a removed import and then `[1].map(f)` must stay
	// two statements). `export` before a declaration becomes spaces. `export default` before
	// an expression, or before an anonymous function or class, becomes an assignment to
	// DefaultExportVar ("__default__=" and spaces); before a named function or class it
	// becomes spaces and the declaration stays one.
	Script    string
	Imports   []Import // in source order
	Exports   []Export // in source order
	ReExports []ReExport
	// DefaultExport reports that Script assigns the default export's value to the global
	// DefaultExportVar (`export default <expression>`, or an anonymous function or class). A
	// default export that is a named binding (`export default function f`, `export {a as
	// default}`) is an Exports entry with Exported "default" instead, and one passed through
	// (`export {a as default} from 'x'`) a ReExports binding with Local "default".
	DefaultExport bool
}

// Limits that keep hostile input from costing more than its length: a destructuring pattern
// is parsed recursively.
const maxPatternDepth = 256

// ScanModule finds the static imports and exports of src, a module's JavaScript source, and
// rewrites it to run as a classic script (see Module.Script). Only statements at the top
// level are module syntax; an export inside a block is left for goja to report. Dynamic
// import() and import.meta are errors anywhere, since the sandbox does not support them. Every
// error is a *ScanError wrapping ErrModuleSyntax.
//
// Destructuring exports (`export const {a, b: [c]} = o`) export every name they bind.
// Duplicate exported names and duplicate import bindings are errors, as in a module.
//
// Known limits, all for code that is not valid in a module anyway or never written: depth is
// counted in brackets, so `if (x) export const a = 1` is rewritten instead of reported; in
// braces, `import(...)` directly followed by "{" is taken for a method named import (goja
// then rejects the import() itself); an anonymous default-exported function or class becomes
// an expression, so a next line that would continue it (`(f)()`, `[a] = b`) is an error
// asking for a ";".
func ScanModule(src string) (*Module, error) {
	s := &moduleScanner{lx: jsLexer{src: src, regexOK: true}}
	err := s.run()
	// A lexer error ends the token stream early; the parser then reports an unexpected end
	// of input, which would hide the real cause.
	if s.lx.err != nil {
		return nil, s.lx.err
	}
	if err != nil {
		return nil, err
	}
	s.mod.Script = src
	if s.out != nil {
		// out is never written again: share it rather than copy the source a second time.
		s.mod.Script = unsafe.String(unsafe.SliceData(s.out), len(s.out))
	}
	return &s.mod, nil
}

type jsTokKind uint8

const (
	tEOF          jsTokKind = iota // also "no token yet"
	tIdent                         // identifier, keyword or #private name
	tNumber                        //
	tString                        // '...' or "..."
	tTemplate                      // a template without substitutions, or the tail after the last "}"
	tTemplateHead                  // "`...${" or "}...${": an expression follows
	tRegex                         //
	tPunct                         // one byte, or one of => ... ?. ++ --
)

type jsToken struct {
	kind       jsTokKind
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
	check      uint8
	mark       int // for '$': the template's backquote; for a check: where to report it
}

type jsLexer struct {
	src     string
	pos     int
	stack   []bracketFrame
	regexOK bool    // a "/" at pos starts a regular expression
	prev    jsToken // the last token returned
	before  jsToken // the token before prev
	err     *ScanError

	pending    uint8 // a check to run on the next token, from a closed frame
	pendingPos int
	markBrace  bool // the next "{" at depth 0 is the body of an anonymous default export

	// Line numbering cache: positions are asked for in increasing order, so the total cost of
	// numbering is one pass.
	lineOff, line, lineStart int
}

// position returns the 1-based line and 1-based byte column of off, counting line
// terminators as goja does: \r\n, \n, \r, U+2028 and U+2029.
func (lx *jsLexer) position(off int) (line, col int) {
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
		case c == 0xE2 && isJSLineSep(src, i):
			i += 2
			lx.line++
			lx.lineStart = i + 1
		}
	}
	lx.lineOff = i
	return lx.line, off - lx.lineStart + 1
}

func (lx *jsLexer) errorAt(off int, format string, args ...any) *ScanError {
	line, col := lx.position(off)
	return &ScanError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (lx *jsLexer) fail(off int, msg string) {
	if lx.err == nil {
		lx.err = lx.errorAt(off, "%s", msg)
	}
}

// isLineSep reports whether src[i:] starts with U+2028 or U+2029.
func isJSLineSep(src string, i int) bool {
	return i+2 < len(src) && src[i] == 0xE2 && src[i+1] == 0x80 && src[i+2]|1 == 0xA9
}

func isDecimalDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool { return isDecimalDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }

// isIdentByte reports an ASCII identifier character.
func isJSIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDecimalDigit(c) || c == '_' || c == '$'
}

// isSpaceRune reports non-ASCII white space (not line terminators).
func isJSSpace(r rune) bool { return r == '\uFEFF' || unicode.Is(unicode.Zs, r) }

// next returns the next token; after an error it returns tEOF for ever.
func (lx *jsLexer) next() jsToken {
	if lx.err != nil {
		return jsToken{kind: tEOF, start: len(lx.src), end: len(lx.src)}
	}
	nl := lx.skipSpace()
	t := lx.scan(nl)
	if lx.pending != checkNone && lx.err == nil {
		lx.check(t)
	}
	if lx.err != nil {
		return jsToken{kind: tEOF, start: len(lx.src), end: len(lx.src)}
	}
	lx.after(t)
	return t
}

// skipSpace skips white space and comments, reporting whether they hold a line terminator.
func (lx *jsLexer) skipSpace() (nl bool) {
	src := lx.src
	i := lx.pos
	if i == 0 && strings.HasPrefix(src, "#!") {
		i = jsLineEnd(src, 2) // a hashbang line
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
			i = jsLineEnd(src, i+2)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			n := strings.Index(src[i+2:], "*/")
			if n < 0 {
				lx.fail(i, "unterminated comment")
				lx.pos = len(src)
				return nl
			}
			if !nl && jsLineEnd(src[:i+2+n], i+2) < i+2+n {
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
			} else if !isJSSpace(r) {
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
func jsLineEnd(src string, i int) int {
	for ; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n' || c == '\r':
			return i
		case c == 0xE2 && isJSLineSep(src, i):
			return i
		}
	}
	return len(src)
}

func (lx *jsLexer) scan(nl bool) jsToken {
	src := lx.src
	i := lx.pos
	t := jsToken{start: i, end: i, nl: nl}
	if i >= len(src) {
		return t // tEOF
	}
	switch c := src[i]; {
	case isJSIdentByte(c) && !isDecimalDigit(c) || c == '\\' || c >= utf8.RuneSelf:
		t.kind = tIdent
		t.end = jsIdentEnd(src, i)
		if p := lx.prev; p.kind == tPunct {
			w := src[p.start:p.end]
			t.prop = w == "." || w == "?."
		}
	case c == '#' && i+1 < len(src) && (isJSIdentByte(src[i+1]) || src[i+1] == '\\' || src[i+1] >= utf8.RuneSelf):
		t.kind = tIdent
		t.end = jsIdentEnd(src, i+1)
	case isDecimalDigit(c) || c == '.' && i+1 < len(src) && isDecimalDigit(src[i+1]):
		t.kind = tNumber
		t.end = jsNumberEnd(src, i)
	case c == '\'' || c == '"':
		t.kind = tString
		t.end = lx.stringEnd(i)
	case c == '`':
		t.kind, t.end = lx.template(i+1, i)
	case c == '}' && len(lx.stack) > 0 && lx.stack[len(lx.stack)-1].open == '$':
		mark := lx.stack[len(lx.stack)-1].mark
		lx.stack = lx.stack[:len(lx.stack)-1]
		t.kind, t.end = lx.template(i+1, mark)
	case c == '/' && lx.regexOK:
		t.kind = tRegex
		t.end = lx.regexEnd(i)
	default:
		t.kind = tPunct
		t.end = jsPunctEnd(src, i)
	}
	lx.pos = t.end
	return t
}

// identEnd returns the end of the identifier whose first character is at i. A "\" starts a
// Unicode escape; non-ASCII characters other than white space count as identifier characters
// (goja rejects those that are not).
func jsIdentEnd(src string, i int) int {
	first := true
	for i < len(src) {
		c := src[i]
		switch {
		case isJSIdentByte(c):
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
			if !first && (r == '\u2028' || r == '\u2029' || isJSSpace(r)) {
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

func jsNumberEnd(src string, i int) int {
	hex := src[i] == '0' && i+1 < len(src) && src[i+1]|0x20 == 'x'
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case isJSIdentByte(c) || c == '.':
			j++
		case (c == '+' || c == '-') && !hex && src[j-1]|0x20 == 'e':
			j++
		default:
			return j
		}
	}
	return j
}

func jsPunctEnd(src string, i int) int {
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

func (lx *jsLexer) stringEnd(i int) int {
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
func (lx *jsLexer) template(i, mark int) (jsTokKind, int) {
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
				lx.stack = append(lx.stack, bracketFrame{open: '$', mark: mark})
				return tTemplateHead, i + 2
			}
		}
		i++
	}
	lx.fail(mark, "unterminated template literal")
	return tTemplate, len(src)
}

func (lx *jsLexer) regexEnd(i int) int {
	src := lx.src
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch c := src[j]; {
		case c == '\\':
			j++
			if j < len(src) && (src[j] == '\n' || src[j] == '\r' || isJSLineSep(src, j)) {
				lx.fail(i, "unterminated regular expression literal")
				return j
			}
		case c == '\n' || c == '\r' || c == 0xE2 && isJSLineSep(src, j):
			lx.fail(i, "unterminated regular expression literal")
			return j
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			j++
			for j < len(src) && isJSIdentByte(src[j]) {
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
func jsRegexKeyword(w string) bool {
	switch w {
	case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
		"throw", "instanceof", "yield", "await", "default":
		return true
	}
	return false
}

// after updates the bracket stack and the regex/division state for t.
func (lx *jsLexer) after(t jsToken) {
	src := lx.src
	switch t.kind {
	case tIdent:
		lx.regexOK = !t.prop && jsRegexKeyword(src[t.start:t.end])
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
			lx.stack = append(lx.stack, bracketFrame{open: '(', regexAfter: cond})
		case '[':
			lx.stack = append(lx.stack, bracketFrame{open: '['})
		case '{':
			f := bracketFrame{open: '{', regexAfter: lx.startsBlock()}
			if lx.markBrace && len(lx.stack) == 0 {
				lx.markBrace = false
				f.check, f.mark = checkDefaultBody, t.start
			}
			lx.stack = append(lx.stack, f)
		case ')', ']', '}':
			n := len(lx.stack)
			if n == 0 || lx.stack[n-1].open == '$' {
				// Unbalanced: goja reports it. A "}" here cannot be a substitution's end
				// (scan took that one), so leave the template frame alone.
				lx.regexOK = c == '}'
				break
			}
			f := lx.stack[n-1]
			lx.stack = lx.stack[:n-1]
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

// startsBlock reports whether a "{" after lx.prev opens a block (or a function or class
// body) rather than an object literal.
func (lx *jsLexer) startsBlock() bool {
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
		return !jsRegexKeyword(w)
	case tTemplateHead:
		return false
	}
	return true
}

// endsOperand reports a token after which an operator, not an operand, is expected.
func (lx *jsLexer) endsOperand(t jsToken) bool {
	w := lx.src[t.start:t.end]
	switch t.kind {
	case tIdent:
		return t.prop || !jsRegexKeyword(w)
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
func (lx *jsLexer) continuesExpr(t jsToken) bool {
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
func (lx *jsLexer) check(t jsToken) {
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

const msgDynamicImport = "dynamic import() is not supported; use a static import at the top level"

// scanner parses import and export statements from the lexer's tokens and rewrites them.
type moduleScanner struct {
	lx      jsLexer
	out     []byte // the rewritten source, copied from src on the first change
	mod     Module
	back    jsToken // a token given back by the parser
	hasBack bool

	exported map[string]bool
	locals   map[string]bool
}

func (s *moduleScanner) next() jsToken {
	if s.hasBack {
		s.hasBack = false
		return s.back
	}
	return s.lx.next()
}

func (s *moduleScanner) backup(t jsToken) { s.back, s.hasBack = t, true }

func (s *moduleScanner) text(t jsToken) string { return s.lx.src[t.start:t.end] }

func (s *moduleScanner) isPunct(t jsToken, p string) bool { return t.kind == tPunct && s.text(t) == p }

func (s *moduleScanner) isWord(t jsToken, w string) bool {
	return t.kind == tIdent && !t.prop && s.text(t) == w
}

func (s *moduleScanner) errorAt(t jsToken, format string, args ...any) error {
	return s.lx.errorAt(t.start, format, args...)
}

func (s *moduleScanner) run() error {
	for {
		t := s.next()
		if t.kind == tEOF {
			break
		}
		if t.kind != tIdent || t.prop {
			continue
		}
		var err error
		switch s.text(t) {
		case "import":
			if len(s.lx.stack) == 0 {
				err = s.parseImport(t)
			} else {
				err = s.checkImportExpr(t)
			}
		case "export":
			if len(s.lx.stack) == 0 {
				err = s.parseExport(t)
			}
		}
		if err != nil {
			return err
		}
	}
	for _, f := range s.lx.stack {
		if f.open == '$' {
			return s.lx.errorAt(f.mark, "unterminated template literal")
		}
	}
	return nil
}

// checkImportExpr rejects import() and import.meta where an import declaration cannot be.
// In braces, `import(...)` may instead be a method named import (`{ import() {} }`); that is
// decided by the token after its ")".
func (s *moduleScanner) checkImportExpr(kw jsToken) error {
	before := s.lx.prev // kw itself, unless it was given back
	if before.start == kw.start {
		before = s.lx.before
	}
	t := s.next()
	switch {
	case s.isPunct(t, "."):
		return s.errorAt(kw, "import.meta is not supported in the sandbox")
	case s.isPunct(t, "("):
		n := len(s.lx.stack)
		if n >= 2 && s.lx.stack[n-2].open == '{' && s.mayPrecedeMethod(before) {
			s.lx.stack[n-1].check, s.lx.stack[n-1].mark = checkImportsMethod, kw.start
			return nil
		}
		return s.errorAt(kw, msgDynamicImport)
	case t.kind == tIdent:
		s.backup(t)
	}
	return nil
}

func (s *moduleScanner) mayPrecedeMethod(t jsToken) bool {
	switch t.kind {
	case tPunct:
		switch s.text(t) {
		case "{", ",", ";", "}", "*":
			return true
		}
	case tIdent:
		switch s.text(t) {
		case "static", "get", "set", "async":
			return !t.prop
		}
	}
	return false
}

// blank replaces src[start:end] with spaces in the output, keeping line terminators.
func (s *moduleScanner) blank(start, end int) {
	if s.out == nil {
		s.out = []byte(s.lx.src)
	}
	for i := start; i < end; i++ {
		switch c := s.out[i]; {
		case c == '\n' || c == '\r':
		case c == 0xE2 && i+2 < end && isJSLineSep(s.lx.src, i):
			i += 2
		default:
			s.out[i] = ' '
		}
	}
}

// afterStatement reads the token after a complete import or export statement. The statement
// is over, so a "/" there starts a regular expression whatever the last token was.
func (s *moduleScanner) afterStatement() jsToken {
	s.lx.regexOK = true
	return s.next()
}

// removeStatement ends the import or export statement src[start:end] at t, the token after
// it: t may be an optional ";", and is otherwise on a new line, as automatic semicolon
// insertion requires. withSpec is set for statements with a module specifier, which may not
// carry import attributes. The whole statement is blanked, leaving a ";" where it began: that
// keeps automatic semicolon insertion working as it did (`x = a`, a removed import, then
// `[1].map(f)` must stay two statements).
func (s *moduleScanner) removeStatement(start, end int, t jsToken, withSpec bool, what string) error {
	switch {
	case s.isPunct(t, ";"):
		end = t.end
	case withSpec && (s.isWord(t, "with") || s.isWord(t, "assert") && !t.nl):
		return s.errorAt(t, `import attributes ("%s {...}") are not supported`, s.text(t))
	case t.kind != tEOF && !t.nl:
		return s.errorAt(t, `expected ";" or a line break after the %s statement`, what)
	default:
		s.backup(t)
	}
	s.blank(start, end)
	s.out[start] = ';'
	return nil
}

// spec decodes the module specifier t, reporting what was expected after the previous word.
func (s *moduleScanner) spec(t jsToken, after string) (string, error) {
	if t.kind != tString {
		return "", s.errorAt(t, `expected a module name string after "%s"`, after)
	}
	v, err := s.stringValue(t)
	return moduleName(v), err
}

// moduleName turns a standard relative specifier into the module's logical name, so that
// './gear_lib.js', './gear_lib' and (from main, the true relative path) './modules/gear_lib.js'
// all import the module gear_lib. Modules live in one folder, so that is the only relative
// form there is; anything else is kept as written and checked as a name when loaded.
func moduleName(spec string) string {
	rest, ok := strings.CutPrefix(spec, "./")
	if !ok {
		return spec
	}
	rest = strings.TrimPrefix(rest, "modules/")
	rest = strings.TrimSuffix(rest, ".js")
	if rest == "" || strings.ContainsAny(rest, "/\\") {
		return spec
	}
	return rest
}

func (s *moduleScanner) stringValue(t jsToken) (string, error) {
	v, ok := jsUnquote(s.lx.src[t.start+1 : t.end-1])
	if !ok {
		return "", s.errorAt(t, "invalid escape sequence in string")
	}
	return v, nil
}

// identName returns the text of an identifier token used as a name in an import or export.
func (s *moduleScanner) identName(t jsToken) (string, error) {
	w := s.text(t)
	if strings.IndexByte(w, '\\') >= 0 {
		return "", s.errorAt(t, "escaped identifiers are not supported in import and export statements")
	}
	return w, nil
}

// localName checks t as a binding of this module.
func (s *moduleScanner) localName(t jsToken, shorthand bool) (string, error) {
	if t.kind != tIdent || s.lx.src[t.start] == '#' {
		return "", s.errorAt(t, `expected a local name`)
	}
	w, err := s.identName(t)
	if err != nil {
		return "", err
	}
	if jsReservedWord(w) {
		if shorthand {
			return "", s.errorAt(t, `"%s" is a reserved word and cannot name a local binding; rename it with "as"`, w)
		}
		return "", s.errorAt(t, `"%s" is a reserved word and cannot name a local binding`, w)
	}
	return w, nil
}

// moduleExportName reads an IdentifierName or a string (`{"a b" as c}`), reporting whether it
// was a string.
func (s *moduleScanner) moduleExportName(t jsToken) (name string, isString, ok bool, err error) {
	switch {
	case t.kind == tIdent && s.lx.src[t.start] != '#':
		name, err = s.identName(t)
		return name, false, true, err
	case t.kind == tString:
		name, err = s.stringValue(t)
		return name, true, true, err
	}
	return "", false, false, nil
}

func (s *moduleScanner) addLocal(name string, t jsToken) error {
	if s.locals == nil {
		s.locals = make(map[string]bool)
	}
	if s.locals[name] {
		return s.errorAt(t, "duplicate import binding %q", name)
	}
	s.locals[name] = true
	return nil
}

func (s *moduleScanner) addExportName(name string, t jsToken) error {
	if s.exported == nil {
		s.exported = make(map[string]bool)
	}
	if s.exported[name] {
		return s.errorAt(t, "duplicate export %q", name)
	}
	s.exported[name] = true
	return nil
}

func (s *moduleScanner) addExport(local, exported string, t jsToken) error {
	if err := s.addExportName(exported, t); err != nil {
		return err
	}
	s.mod.Exports = append(s.mod.Exports, Export{Local: local, Exported: exported})
	return nil
}

func (s *moduleScanner) parseImport(kw jsToken) error {
	imp := Import{Kind: ImportSideEffect}
	t := s.next()
	switch {
	case t.kind == tString:
	case s.isPunct(t, "("):
		return s.errorAt(kw, msgDynamicImport)
	case s.isPunct(t, "."):
		return s.errorAt(kw, "import.meta is not supported in the sandbox")
	case s.isPunct(t, "{"):
		imp.Kind = ImportNamed
		if err := s.importList(&imp); err != nil {
			return err
		}
		t = s.next()
	case s.isPunct(t, "*"):
		imp.Kind = ImportNamespace
		if err := s.importNamespace(&imp); err != nil {
			return err
		}
		t = s.next()
	case t.kind == tIdent:
		imp.Kind = ImportDefault
		name, err := s.localName(t, false)
		if err != nil {
			return err
		}
		if err := s.addLocal(name, t); err != nil {
			return err
		}
		imp.Bindings = append(imp.Bindings, Binding{Imported: "default", Local: name})
		t = s.next()
		if s.isPunct(t, ",") {
			t = s.next()
			switch {
			case s.isPunct(t, "{"):
				err = s.importList(&imp)
			case s.isPunct(t, "*"):
				err = s.importNamespace(&imp)
			default:
				err = s.errorAt(t, `expected "{" or "*" after "," in import`)
			}
			if err != nil {
				return err
			}
			t = s.next()
		}
	default:
		return s.errorAt(t, `expected a module name string, a binding name, "{" or "*" after "import"`)
	}
	if imp.Kind != ImportSideEffect {
		if !s.isWord(t, "from") {
			return s.errorAt(t, `expected "from" after import bindings`)
		}
		t = s.next()
	}
	spec, err := s.spec(t, "from")
	if err != nil {
		return err
	}
	imp.Spec = spec
	imp.Line, imp.Column = s.lx.position(t.start)
	s.mod.Imports = append(s.mod.Imports, imp)
	return s.removeStatement(kw.start, t.end, s.afterStatement(), true, "import")
}

// importList parses `{a, b as c, "d e" as f}` after its "{".
func (s *moduleScanner) importList(imp *Import) error {
	for {
		t := s.next()
		if s.isPunct(t, "}") {
			return nil
		}
		imported, isString, ok, err := s.moduleExportName(t)
		if err != nil {
			return err
		}
		if !ok {
			return s.errorAt(t, `expected a name or "}" in import list`)
		}
		nameTok := t
		shorthand := true
		t = s.next()
		if s.isWord(t, "as") {
			nameTok, shorthand = s.next(), false
			if nameTok.kind != tIdent {
				return s.errorAt(nameTok, `expected a local name after "as"`)
			}
			t = s.next()
		} else if isString {
			return s.errorAt(t, `expected "as" after a string name in import list`)
		}
		local, err := s.localName(nameTok, shorthand)
		if err != nil {
			return err
		}
		if err := s.addLocal(local, nameTok); err != nil {
			return err
		}
		imp.Bindings = append(imp.Bindings, Binding{Imported: imported, Local: local})
		if s.isPunct(t, "}") {
			return nil
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "}" in import list`)
		}
	}
}

// importNamespace parses `as ns` after "*".
func (s *moduleScanner) importNamespace(imp *Import) error {
	t := s.next()
	if !s.isWord(t, "as") {
		return s.errorAt(t, `expected "as" after "*"`)
	}
	t = s.next()
	if t.kind != tIdent {
		return s.errorAt(t, `expected a local name after "as"`)
	}
	local, err := s.localName(t, false)
	if err != nil {
		return err
	}
	if err := s.addLocal(local, t); err != nil {
		return err
	}
	imp.Bindings = append(imp.Bindings, Binding{Imported: "*", Local: local})
	return nil
}

func (s *moduleScanner) parseExport(kw jsToken) error {
	t := s.next()
	switch {
	case s.isPunct(t, "{"):
		return s.exportList(kw)
	case s.isPunct(t, "*"):
		return s.exportStar(kw)
	case s.isWord(t, "default"):
		return s.exportDefault(kw, t)
	case s.isWord(t, "var"), s.isWord(t, "let"), s.isWord(t, "const"):
		s.blank(kw.start, kw.end)
		return s.declarators(s.text(t))
	case s.isWord(t, "function"), s.isWord(t, "async"), s.isWord(t, "class"):
		s.blank(kw.start, kw.end)
		name, err := s.declarationName(t)
		if err != nil {
			return err
		}
		local, err := s.localName(name, false)
		if err != nil {
			return err
		}
		return s.addExport(local, local, name)
	}
	return s.errorAt(t, `expected a declaration, "{", "*" or "default" after "export"`)
}

// declarationName reads the name token of `function f`, `function* f`, `async function f` or
// `class C`, t being the first word.
func (s *moduleScanner) declarationName(t jsToken) (jsToken, error) {
	what := s.text(t)
	if what == "async" {
		t = s.next()
		if !s.isWord(t, "function") || t.nl {
			return t, s.errorAt(t, `expected "function" after "async"`)
		}
	}
	n := s.next()
	if what != "class" && s.isPunct(n, "*") {
		n = s.next()
	}
	if n.kind != tIdent || what == "class" && s.isWord(n, "extends") {
		if what == "class" {
			return n, s.errorAt(n, `expected a class name after "class"`)
		}
		return n, s.errorAt(n, `expected a function name after "function"`)
	}
	return n, nil
}

// exportList parses `export {a, b as c}` and `export {a as b} from 'x'` after the "{".
func (s *moduleScanner) exportList(kw jsToken) error {
	type spec struct {
		local, exported       string
		localTok, exportedTok jsToken
		localIsString         bool
	}
	var specs []spec
	var t jsToken
	for {
		t = s.next()
		if s.isPunct(t, "}") {
			break
		}
		local, isString, ok, err := s.moduleExportName(t)
		if err != nil {
			return err
		}
		if !ok {
			return s.errorAt(t, `expected a name or "}" in export list`)
		}
		sp := spec{local: local, exported: local, localTok: t, exportedTok: t, localIsString: isString}
		t = s.next()
		if s.isWord(t, "as") {
			e := s.next()
			exported, _, ok, err := s.moduleExportName(e)
			if err != nil {
				return err
			}
			if !ok {
				return s.errorAt(e, `expected a name after "as"`)
			}
			sp.exported, sp.exportedTok = exported, e
			t = s.next()
		}
		specs = append(specs, sp)
		if s.isPunct(t, "}") {
			break
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "}" in export list`)
		}
	}
	closeEnd := t.end
	t = s.afterStatement()
	if s.isWord(t, "from") {
		t = s.next()
		path, err := s.spec(t, "from")
		if err != nil {
			return err
		}
		re := ReExport{Spec: path}
		re.Line, re.Column = s.lx.position(t.start)
		for _, sp := range specs {
			if err := s.addExportName(sp.exported, sp.exportedTok); err != nil {
				return err
			}
			re.Bindings = append(re.Bindings, Binding{Imported: sp.local, Local: sp.exported})
		}
		s.mod.ReExports = append(s.mod.ReExports, re)
		return s.removeStatement(kw.start, t.end, s.afterStatement(), true, "export")
	}
	for _, sp := range specs {
		if sp.localIsString {
			return s.errorAt(sp.localTok, `expected "from" after an export list that names a string`)
		}
		if jsReservedWord(sp.local) {
			return s.errorAt(sp.localTok, `"%s" is a reserved word and cannot name a local binding`, sp.local)
		}
		if err := s.addExport(sp.local, sp.exported, sp.exportedTok); err != nil {
			return err
		}
	}
	return s.removeStatement(kw.start, closeEnd, t, false, "export")
}

// exportStar parses `export * from 'x'` and `export * as ns from 'x'` after the "*".
func (s *moduleScanner) exportStar(kw jsToken) error {
	re := ReExport{Star: true}
	t := s.next()
	if s.isWord(t, "as") {
		t = s.next()
		name, _, ok, err := s.moduleExportName(t)
		if err != nil {
			return err
		}
		if !ok {
			return s.errorAt(t, `expected a name after "as"`)
		}
		if err := s.addExportName(name, t); err != nil {
			return err
		}
		re.Star = false
		re.Bindings = []Binding{{Imported: "*", Local: name}}
		t = s.next()
		if !s.isWord(t, "from") {
			return s.errorAt(t, `expected "from" after "export * as %s"`, name)
		}
	} else if !s.isWord(t, "from") {
		return s.errorAt(t, `expected "as" or "from" after "export *"`)
	}
	t = s.next()
	path, err := s.spec(t, "from")
	if err != nil {
		return err
	}
	re.Spec = path
	re.Line, re.Column = s.lx.position(t.start)
	s.mod.ReExports = append(s.mod.ReExports, re)
	return s.removeStatement(kw.start, t.end, s.afterStatement(), true, "export")
}

// exportDefault handles `export default` (kw and def are the two words).
func (s *moduleScanner) exportDefault(kw, def jsToken) error {
	t := s.next()
	isFunc := s.isWord(t, "function")
	if s.isWord(t, "async") {
		n := s.next()
		isFunc = s.isWord(n, "function") && !n.nl
		if !isFunc {
			// `export default async (x) => ...` or `async` as a value: an expression. Dropping
			// the word is harmless, only import and export words matter to the caller.
			t = n
		}
	}
	switch {
	case isFunc || s.isWord(t, "class"):
		n := s.next()
		if isFunc && s.isPunct(n, "*") {
			n = s.next()
		}
		if n.kind == tIdent && !s.isWord(n, "extends") {
			// A named declaration stays one: the name is the default export's binding.
			local, err := s.localName(n, false)
			if err != nil {
				return err
			}
			if err := s.addExport(local, "default", def); err != nil {
				return err
			}
			s.blank(kw.start, def.end)
			return nil
		}
		// Anonymous: an expression assigned to DefaultExportVar. Its body's "}" must not be
		// continued by the next line (see lexer.check).
		if s.isPunct(n, "{") {
			if len(s.lx.stack) == 1 {
				s.lx.stack[0].check, s.lx.stack[0].mark = checkDefaultBody, n.start
			}
		} else {
			s.lx.markBrace = true
		}
	case t.kind == tEOF || t.kind == tPunct && strings.Contains(";)]},", s.text(t)):
		return s.errorAt(t, `expected an expression after "export default"`)
	default:
		s.backup(t)
	}
	if err := s.addExportName("default", def); err != nil {
		return err
	}
	s.mod.DefaultExport = true
	return s.assignDefault(kw.start, def.end)
}

// assignDefault rewrites src[start:end], the text "export default", as an assignment to
// DefaultExportVar. The name must sit on one line: it goes in the first run of bytes between
// line terminators that is long enough, and "=" right after it (or, if the name filled a run,
// on the last byte of "default").
func (s *moduleScanner) assignDefault(start, end int) error {
	src := s.lx.src
	const name = DefaultExportVar
	for i := start; i < end; {
		j := jsLineEnd(src[:end], i)
		room := j - i
		if j == end {
			room-- // the last run needs a byte for "=" too
		}
		if room >= len(name) {
			s.blank(start, end)
			copy(s.out[i:], name)
			eq := i + len(name)
			if eq >= j {
				eq = end - 1
			}
			s.out[eq] = '='
			return nil
		}
		if j == end {
			break
		}
		i = j + 1
		if isJSLineSep(src, j) {
			i = j + 3
		}
	}
	return s.lx.errorAt(start, `"export" and "default" must be on the same line`)
}

// declarators parses the bindings after `export var|let|const`, exporting each name.
func (s *moduleScanner) declarators(kw string) error {
	for {
		t := s.next()
		if err := s.binding(t, kw, 0); err != nil {
			return err
		}
		t = s.next()
		if s.isPunct(t, "=") {
			var err error
			if t, err = s.skipExpr(); err != nil {
				return err
			}
		}
		if s.isPunct(t, ",") {
			continue
		}
		if !s.isPunct(t, ";") {
			s.backup(t)
		}
		return nil
	}
}

// binding parses a binding identifier or destructuring pattern starting with t.
func (s *moduleScanner) binding(t jsToken, kw string, depth int) error {
	if depth > maxPatternDepth {
		return s.errorAt(t, "destructuring pattern nested too deeply")
	}
	switch {
	case t.kind == tIdent:
		name, err := s.localName(t, false)
		if err != nil {
			return err
		}
		return s.addExport(name, name, t)
	case s.isPunct(t, "{"):
		return s.objectPattern(kw, depth)
	case s.isPunct(t, "["):
		return s.arrayPattern(kw, depth)
	}
	return s.errorAt(t, `expected a binding name or pattern in "%s" declaration`, kw)
}

func (s *moduleScanner) objectPattern(kw string, depth int) error {
	for {
		t := s.next()
		switch {
		case s.isPunct(t, "}"):
			return nil
		case s.isPunct(t, "..."):
			if err := s.binding(s.next(), kw, depth+1); err != nil {
				return err
			}
			t = s.next()
		default:
			key := t
			switch {
			case t.kind == tIdent, t.kind == tString, t.kind == tNumber:
			case s.isPunct(t, "["):
				if err := s.skipToClose(); err != nil {
					return err
				}
			default:
				return s.errorAt(t, "expected a property name in destructuring pattern")
			}
			t = s.next()
			if s.isPunct(t, ":") {
				if err := s.binding(s.next(), kw, depth+1); err != nil {
					return err
				}
				t = s.next()
			} else if key.kind == tIdent {
				if err := s.binding(key, kw, depth+1); err != nil {
					return err
				}
			} else {
				return s.errorAt(t, `expected ":" after a property name in destructuring pattern`)
			}
			if s.isPunct(t, "=") {
				var err error
				if t, err = s.skipExpr(); err != nil {
					return err
				}
			}
		}
		if s.isPunct(t, "}") {
			return nil
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "}" in destructuring pattern`)
		}
	}
}

func (s *moduleScanner) arrayPattern(kw string, depth int) error {
	for {
		t := s.next()
		switch {
		case s.isPunct(t, "]"):
			return nil
		case s.isPunct(t, ","):
			continue // a hole
		case s.isPunct(t, "..."):
			if err := s.binding(s.next(), kw, depth+1); err != nil {
				return err
			}
			t = s.next()
		default:
			if err := s.binding(t, kw, depth+1); err != nil {
				return err
			}
			t = s.next()
			if s.isPunct(t, "=") {
				var err error
				if t, err = s.skipExpr(); err != nil {
					return err
				}
			}
		}
		if s.isPunct(t, "]") {
			return nil
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "]" in destructuring pattern`)
		}
	}
}

// skipExpr skips an initializer or default value and returns the token that ends it: a ","
// or ";" at its own bracket depth, the bracket that closes an enclosing one, a token that
// automatic semicolon insertion puts in a new statement, or the end of input.
func (s *moduleScanner) skipExpr() (jsToken, error) {
	base := len(s.lx.stack)
	prev := s.lx.prev
	for {
		depth := len(s.lx.stack) // before the token: an opener must be judged at this depth
		t := s.next()
		if t.kind == tEOF || len(s.lx.stack) < base {
			return t, nil
		}
		if depth == base {
			if s.isPunct(t, ",") || s.isPunct(t, ";") {
				return t, nil
			}
			if t.nl && s.lx.endsOperand(prev) && !s.lx.continuesExpr(t) {
				return t, nil
			}
		}
		if s.isWord(t, "import") || s.isWord(t, "export") {
			if len(s.lx.stack) == 0 {
				// Not part of an expression at the top level: the caller gives it back to
				// the main loop, which reports it as the statement it starts.
				return t, nil
			}
			if s.isWord(t, "import") {
				if err := s.checkImportExpr(t); err != nil {
					return t, err
				}
			}
		}
		prev = t
	}
}

// skipToClose skips a computed property name after its "[".
func (s *moduleScanner) skipToClose() error {
	base := len(s.lx.stack)
	for {
		t, err := s.skipExpr()
		if err != nil {
			return err
		}
		if t.kind == tEOF || len(s.lx.stack) < base {
			return nil
		}
	}
}

// reservedWord reports a word that cannot name a binding in strict code (modules are strict).
func jsReservedWord(w string) bool {
	switch w {
	case "break", "case", "catch", "class", "const", "continue", "debugger", "default",
		"delete", "do", "else", "enum", "export", "extends", "false", "finally", "for",
		"function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
		"switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
		"yield", "let", "static", "implements", "interface", "package", "private",
		"protected", "public", "await", "eval", "arguments":
		return true
	}
	return false
}

// unquote decodes the body of a string literal. Legacy octal escapes are rejected, as in
// strict code; a lone surrogate becomes U+FFFD.
func jsUnquote(raw string) (string, bool) {
	if strings.IndexByte(raw, '\\') < 0 {
		return raw, true
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		i++
		if i >= len(raw) {
			return "", false
		}
		c = raw[i]
		i++
		switch c {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'v':
			b = append(b, '\v')
		case '0':
			if i < len(raw) && isDecimalDigit(raw[i]) {
				return "", false
			}
			b = append(b, 0)
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return "", false
		case '\r':
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		case '\n':
		case 'x':
			v, ok := jsHexValue(raw, i, i+2)
			if !ok {
				return "", false
			}
			i += 2
			b = utf8.AppendRune(b, v)
		case 'u':
			v, n, ok := jsUnicodeEscape(raw, i)
			if !ok {
				return "", false
			}
			i += n
			if 0xD800 <= v && v < 0xDC00 && strings.HasPrefix(raw[i:], `\u`) {
				if lo, m, ok := jsUnicodeEscape(raw, i+2); ok && 0xDC00 <= lo && lo < 0xE000 {
					v = 0x10000 + (v-0xD800)<<10 + (lo - 0xDC00)
					i += 2 + m
				}
			}
			b = utf8.AppendRune(b, v)
		default:
			if c == 0xE2 && isJSLineSep(raw, i-1) {
				i += 2 // a line continuation
				continue
			}
			b = append(b, c) // an identity escape; a multi-byte character's tail follows as is
		}
	}
	return string(b), true
}

// unicodeEscape decodes XXXX or {X...} at raw[i:], returning the value and bytes used.
func jsUnicodeEscape(raw string, i int) (rune, int, bool) {
	if i < len(raw) && raw[i] == '{' {
		j := strings.IndexByte(raw[i:], '}')
		if j < 2 {
			return 0, 0, false
		}
		v, ok := jsHexValue(raw, i+1, i+j)
		if !ok || v > unicode.MaxRune {
			return 0, 0, false
		}
		return v, j + 1, true
	}
	v, ok := jsHexValue(raw, i, i+4)
	return v, 4, ok
}

func jsHexValue(raw string, i, j int) (rune, bool) {
	if j > len(raw) || j-i > 8 {
		return 0, false
	}
	var v rune
	for ; i < j; i++ {
		c := raw[i]
		switch {
		case isDecimalDigit(c):
			v = v<<4 | rune(c-'0')
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			v = v<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
