package runtime

// Syntax errors at their cause. goja reports a missing ")" where its parser gives up, which is
// often lines past the mistake ("4:1: Unexpected identifier" for a call left open on line 2).
// When it does, a bracket, string, template and comment aware pass over the source
// (esm.Balance) finds the construct that was opened and never closed, or two list items with
// no comma between them, and the diagnostic points there, with goja's message kept as a note
// at the place it gave up. A guess is only made when it explains goja's error: the file is
// parsed again with the suggested ")" or "," inserted, and the parser must then get further
// than it did. Anything else keeps goja's diagnostic as it was.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dop251/goja/parser"

	"github.com/cadrun/cadrun/runtime/internal/esm"
)

// maxRepairs bounds the parses a syntax error may cost (each one is linear in the file):
// the innermost constructs open where the parser gave up are tried first.
const maxRepairs = 3

// unclosedLiteral rewrites d, the diagnostic of esm's lexer error at byte offset off, when the
// error is a string, template literal or comment that is not terminated: it already points at
// the opening, and now says so and what to add. A template whose last substitution is left
// open ("`a ${b") is reported at its "${".
func unclosedLiteral(d *Diagnostic, src []byte, off int) {
	rep := esm.Balance(string(src), -1)
	var u esm.Unclosed
	for _, c := range rep.Unclosed {
		switch {
		case c.Offset == off && !c.Bracket():
			u = c
		case c.Open == "${" && c.End == len(src) && c.Offset > off && off < len(src) && src[off] == '`':
			u = c // the innermost substitution left open at the end: goja names its template
		}
	}
	if u.Open == "" {
		return
	}
	line, col, source := place(src, u.Offset)
	d.Line, d.Column, d.Source = line, col, source
	d.Message = fmt.Sprintf("the %s opened at %d:%d is not closed", openName(u.Open), line, col)
	switch u.Open {
	case `"`, "'":
		d.Hint = fmt.Sprintf("add %s where the string should end on line %d; a string cannot span lines (a template literal can)", u.Close, line)
	case "`":
		d.Hint = "add ` where the template literal should end"
	case "/*":
		d.Hint = "add */ where the comment should end"
	case "${":
		d.Hint = "add } where the expression ends, then ` where the template literal ends"
	}
}

// explainSyntax returns the diagnostic for goja's syntax error e in src (parsed as script,
// esm's rewrite of src, which keeps every offset): at an unclosed construct or a missing comma
// that explains e, else orig unchanged.
func explainSyntax(orig *Diagnostic, src []byte, script string, e *parser.Error) *Diagnostic {
	at := esm.Offset(script, e.Position.Line, e.Position.Column)
	rep := esm.Balance(string(src), at)
	g := rep.At
	ins := at // where a missing closer or comma goes: right after the token before at
	if g.Prev >= 0 {
		ins = g.PrevEnd
	}
	gaveUp := Note{File: orig.File, Line: orig.Line, Column: orig.Column, Source: orig.Source,
		Message: "the parser stopped here: " + orig.Message}

	// The brackets still open where the parser gave up, innermost last.
	var open []esm.Unclosed
	for _, u := range rep.Unclosed {
		if u.Bracket() && u.Open != "${" && u.Offset < at && u.End >= at {
			open = append(open, u)
		}
	}
	// Closing the innermost may not be enough (at the end of the file, every one open there
	// must be closed before the parser gets further): try closing one more each time.
	for k := len(open) - 1; k >= 0 && k >= len(open)-maxRepairs; k-- {
		var closers strings.Builder
		for i := len(open) - 1; i >= k; i-- {
			closers.WriteString(open[i].Close)
		}
		if !parsesFurther(script, ins, closers.String(), at) {
			continue
		}
		u := open[len(open)-1]
		line, col, source := place(src, u.Offset)
		d := &Diagnostic{File: orig.File, Line: line, Column: col, Kind: KindSyntax, Source: source,
			Message: fmt.Sprintf("the %s opened at %d:%d is not closed", u.Open, line, col),
			Hint:    "add " + u.Close + " " + where(src, g, u.Open == "{")}
		for i := len(open) - 2; i >= k; i-- {
			l, c, _ := place(src, open[i].Offset)
			d.Hint += fmt.Sprintf("; the %s opened at %d:%d is not closed either (add %s where it should end)", open[i].Open, l, c, open[i].Close)
		}
		d.Notes = []Note{gaveUp}
		return d
	}

	// Two items of a list with nothing between them.
	if g.List != esm.ListNone && g.Item >= 0 && g.Separable && parsesFurther(script, ins, ",", at) {
		line, col, source := place(src, ins)
		il, ic, _ := place(src, g.Item)
		nl, nc, _ := place(src, g.Next)
		what, items := "array", "items"
		switch g.List {
		case esm.ListObject:
			what, items = "object", "properties"
		case esm.ListArguments:
			what, items = "call", "arguments"
		}
		return &Diagnostic{File: orig.File, Line: line, Column: col, Kind: KindSyntax, Source: source,
			Message: fmt.Sprintf("missing comma between %s %s", what, items),
			Hint:    fmt.Sprintf("add a comma between the %s at %d:%d and %d:%d", items, il, ic, nl, nc),
			Notes:   []Note{gaveUp}}
	}
	return orig
}

// where says where to add a closer: before the token the parser stopped at when it is on the
// same line as the token before it, else at the end of that token's line. A "{" may close
// earlier than the parser can tell.
func where(src []byte, g esm.Gap, brace bool) string {
	if g.Prev >= 0 {
		prevLine, _, _ := place(src, g.PrevEnd-1)
		nextLine, _, _ := place(src, g.Next)
		if g.Next >= len(src) || prevLine != nextLine {
			if brace {
				return fmt.Sprintf("where it should end, at the latest at the end of line %d", prevLine)
			}
			return fmt.Sprintf("at the end of line %d", prevLine)
		}
	}
	if g.Next >= len(src) {
		return "at the end of the file"
	}
	line, col, source := place(src, g.Next)
	if tok := string(src[g.Next:g.NextEnd]); len(tok) <= 12 && strings.Contains(source, tok) {
		return fmt.Sprintf("before %s at %d:%d", strconv.Quote(tok), line, col)
	}
	return fmt.Sprintf("before %d:%d", line, col)
}

// parsesFurther reports whether script with text inserted at byte offset ins parses, or fails
// past offset at (in script's own offsets).
func parsesFurther(script string, ins int, text string, at int) bool {
	fixed := script[:ins] + text + script[ins:]
	_, err := parser.ParseFile(nil, "", fixed, 0, parser.WithDisableSourceMaps)
	if err == nil {
		return true
	}
	list, ok := err.(parser.ErrorList)
	if !ok || len(list) == 0 {
		return false
	}
	off := esm.Offset(fixed, list[0].Position.Line, list[0].Position.Column)
	switch {
	case off >= ins+len(text):
		off -= len(text)
	case off >= ins:
		off = ins // at the inserted text itself
	}
	return off > at
}

// place is the 1-based line, character column and source line of byte offset off in src.
func place(src []byte, off int) (line, col int, source string) {
	line, byteCol := esm.Position(string(src), off)
	source = lineOf(src, line)
	return line, charColumn(source, byteCol), source
}

func openName(open string) string {
	switch open {
	case `"`, "'":
		return "string"
	case "`":
		return "template literal"
	case "/*":
		return "comment"
	}
	return open
}
