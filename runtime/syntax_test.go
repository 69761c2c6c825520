package runtime

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A syntax error points at its cause: the bracket, string, template or comment that was opened
// and never closed, or the gap where a comma is missing, with goja's message as a note where
// its parser gave up and a hint saying what to add where. A syntax error with another cause
// keeps goja's diagnostic as it was.
func TestSyntaxErrorAtItsCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  MapSource
		want string // the whole rendered diagnostic
	}{
		{"missing ) in a call spanning lines",
			MapSource{MainModule: "drawCircle('c', 0, 0, 10);\ndrawLine('l', [0, 0,\n   10, 10]\n\ndrawCircle('d', 1, 1, 1);\n"},
			"scene.code.js:2:9: SyntaxError: the ( opened at 2:9 is not closed\n" +
				"    2 | drawLine('l', [0, 0,\n" +
				"                ^\n" +
				"scene.code.js:5:1: note: the parser stopped here: Unexpected identifier\n" +
				"    5 | drawCircle('d', 1, 1, 1);\n" +
				"        ^\n" +
				"hint: add ) at the end of line 3\n"},
		{"missing ) before a token on its line",
			MapSource{MainModule: "drawRect('r', 0, 0,\n  20, 10;\n"},
			"scene.code.js:1:9: SyntaxError: the ( opened at 1:9 is not closed\n" +
				"    1 | drawRect('r', 0, 0,\n" +
				"                ^\n" +
				"scene.code.js:2:9: note: the parser stopped here: Unexpected token ;\n" +
				"    2 |   20, 10;\n" +
				"                ^\n" +
				"hint: add ) before \";\" at 2:9\n"},
		{"missing ]",
			MapSource{MainModule: "const pts = [0, 0, 10, 0, 10, 10;\ndrawPolygon('p', pts);\n"},
			"scene.code.js:1:13: SyntaxError: the [ opened at 1:13 is not closed\n" +
				"    1 | const pts = [0, 0, 10, 0, 10, 10;\n" +
				"                    ^\n" +
				"scene.code.js:1:33: note: the parser stopped here: Unexpected token ;\n" +
				"    1 | const pts = [0, 0, 10, 0, 10, 10;\n" +
				"                                        ^\n" +
				"hint: add ] before \";\" at 1:33\n"},
		{"missing ] closed over by the call's )",
			MapSource{MainModule: "drawLine('l', [0, 0, 1, 1);\n"},
			"scene.code.js:1:15: SyntaxError: the [ opened at 1:15 is not closed\n" +
				"    1 | drawLine('l', [0, 0, 1, 1);\n" +
				"                      ^\n" +
				"scene.code.js:1:26: note: the parser stopped here: Unexpected token )\n" +
				"    1 | drawLine('l', [0, 0, 1, 1);\n" +
				"                                 ^\n" +
				"hint: add ] before \")\" at 1:26\n"},
		{"missing }",
			MapSource{MainModule: "function wheel(r) {\n\tdrawCircle('w', 0, 0, r);\n\nwheel(3);\n"},
			"scene.code.js:1:19: SyntaxError: the { opened at 1:19 is not closed\n" +
				"    1 | function wheel(r) {\n" +
				"                          ^\n" +
				"scene.code.js:5:1: note: the parser stopped here: Unexpected end of input\n" +
				"hint: add } where it should end, at the latest at the end of line 4\n"},
		{"two left open at the end",
			MapSource{MainModule: "function wheel(r) {\n  drawCircle('w', 0, 0, r\n"},
			"scene.code.js:2:13: SyntaxError: the ( opened at 2:13 is not closed\n" +
				"    2 |   drawCircle('w', 0, 0, r\n" +
				"                    ^\n" +
				"scene.code.js:3:1: note: the parser stopped here: Unexpected end of input\n" +
				"hint: add ) at the end of line 2; the { opened at 1:19 is not closed either (add } where it should end)\n"},
		{"unterminated string",
			MapSource{MainModule: "drawText('t', 'Ø 10, 0, 0, 5);\n"},
			"scene.code.js:1:15: SyntaxError: the string opened at 1:15 is not closed\n" +
				"    1 | drawText('t', 'Ø 10, 0, 0, 5);\n" +
				"                      ^\n" +
				"hint: add ' where the string should end on line 1; a string cannot span lines (a template literal can)\n"},
		{"unterminated template",
			MapSource{MainModule: "const label = `Ø ${10};\ndrawText('t', label, 0, 0, 5);\n"},
			"scene.code.js:1:15: SyntaxError: the template literal opened at 1:15 is not closed\n" +
				"    1 | const label = `Ø ${10};\n" +
				"                      ^\n" +
				"hint: add ` where the template literal should end\n"},
		{"template substitution left open",
			MapSource{MainModule: "const label = `Ø ${size;\n"},
			"scene.code.js:1:18: SyntaxError: the ${ opened at 1:18 is not closed\n" +
				"    1 | const label = `Ø ${size;\n" +
				"                         ^\n" +
				"hint: add } where the expression ends, then ` where the template literal ends\n"},
		{"missing comma in an array",
			MapSource{MainModule: "const pts = [0, 0\n  10, 0, 10, 10];\n"},
			"scene.code.js:1:18: SyntaxError: missing comma between array items\n" +
				"    1 | const pts = [0, 0\n" +
				"                         ^\n" +
				"scene.code.js:2:3: note: the parser stopped here: Unexpected number\n" +
				"    2 |   10, 0, 10, 10];\n" +
				"          ^\n" +
				"hint: add a comma between the items at 1:17 and 2:3\n"},
		{"missing comma in an object literal",
			MapSource{MainModule: "drawText('t', 'x', 0, 0, 5, {align: 'center' color: [0, 0, 0, 1]});\n"},
			"scene.code.js:1:45: SyntaxError: missing comma between object properties\n" +
				"    1 | drawText('t', 'x', 0, 0, 5, {align: 'center' color: [0, 0, 0, 1]});\n" +
				"                                                    ^\n" +
				"scene.code.js:1:46: note: the parser stopped here: Unexpected identifier\n" +
				"    1 | drawText('t', 'x', 0, 0, 5, {align: 'center' color: [0, 0, 0, 1]});\n" +
				"                                                     ^\n" +
				"hint: add a comma between the properties at 1:30 and 1:46\n"},
		{"missing comma between arguments",
			MapSource{MainModule: "drawCircle('c' 0, 0, 1);\n"},
			"scene.code.js:1:15: SyntaxError: missing comma between call arguments\n" +
				"    1 | drawCircle('c' 0, 0, 1);\n" +
				"                      ^\n" +
				"scene.code.js:1:16: note: the parser stopped here: Unexpected number\n" +
				"    1 | drawCircle('c' 0, 0, 1);\n" +
				"                       ^\n" +
				"hint: add a comma between the arguments at 1:12 and 1:16\n"},
		{"brackets in strings, comments and regular expressions are not counted",
			MapSource{MainModule: "const s = '(['; // ({[\n/* ) */ const re = /[(]\\)/g;\nconst y = 4 / 2 / (1;\n"},
			"scene.code.js:3:19: SyntaxError: the ( opened at 3:19 is not closed\n" +
				"    3 | const y = 4 / 2 / (1;\n" +
				"                          ^\n" +
				"scene.code.js:3:21: note: the parser stopped here: Unexpected token ;\n" +
				"    3 | const y = 4 / 2 / (1;\n" +
				"                            ^\n" +
				"hint: add ) before \";\" at 3:21\n"},
		{"columns count characters",
			MapSource{MainModule: "const ø = 1; drawCircle('ø', ø, 0,\n  1;\n"},
			"scene.code.js:1:24: SyntaxError: the ( opened at 1:24 is not closed\n" +
				"    1 | const ø = 1; drawCircle('ø', ø, 0,\n" +
				"                               ^\n" +
				"scene.code.js:2:4: note: the parser stopped here: Unexpected token ;\n" +
				"    2 |   1;\n" +
				"           ^\n" +
				"hint: add ) before \";\" at 2:4\n"},
		{"a balanced file with another syntax error is unchanged",
			MapSource{MainModule: "const o = {a: [1, 2]};\nconst x = o..a;\n"},
			"scene.code.js:2:12: SyntaxError: Unexpected token ILLEGAL\n" +
				"    2 | const x = o..a;\n" +
				"                   ^\n"},
		{"an unclosed bracket that does not explain the error is not blamed",
			MapSource{MainModule: "function f() {\n  const x = o..a;\n"},
			"scene.code.js:2:14: SyntaxError: Unexpected token ILLEGAL\n" +
				"    2 |   const x = o..a;\n" +
				"                     ^\n"},
		{"in a module, naming that file",
			MapSource{MainModule: "import {gear} from 'gear_lib'\ngear(5);\n",
				"gear_lib": "export function gear(r) {\n  drawCircle('g', 0, 0, r;\n}\n"},
			"modules/gear_lib.js:2:13: SyntaxError: the ( opened at 2:13 is not closed\n" +
				"    2 |   drawCircle('g', 0, 0, r;\n" +
				"                    ^\n" +
				"modules/gear_lib.js:2:26: note: the parser stopped here: Unexpected token ;\n" +
				"    2 |   drawCircle('g', 0, 0, r;\n" +
				"                                 ^\n" +
				"hint: add ) before \";\" at 2:26\n"},
		{"an unterminated string in a module",
			MapSource{MainModule: "import 'labels'\n", "labels": "drawText('t', \"Ø, 0, 0, 5);\n"},
			"modules/labels.js:1:15: SyntaxError: the string opened at 1:15 is not closed\n" +
				"    1 | drawText('t', \"Ø, 0, 0, 5);\n" +
				"                      ^\n" +
				"hint: add \" where the string should end on line 1; a string cannot span lines (a template literal can)\n"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), tt.src, MainModule, Options{})
		d, ok := err.(*Diagnostic)
		if !ok {
			t.Errorf("%s: want a *Diagnostic, got %T %v", tt.name, err, err)
			continue
		}
		if diff := cmp.Diff(tt.want, d.Render()); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// Explaining a syntax error never panics, and every place it names is within the file: a line
// of it and a column of that line (or just past its end, where a missing comma goes).
func FuzzSyntaxDiagnostic(f *testing.F) {
	for _, s := range []string{"f(1, [2, 3);", "drawLine('l', [0, 0,\n 1, 1]\n\nx()", "[1 2]", "({a: 1 b: 2})",
		"function f() {\n g(1\n", "`${f(a}`", "'abc\n", "x = a / b / (c", "if (x) /re(/.test(y)\n)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Symbols("scene.code.js", []byte(src))
		var d *Diagnostic
		if !errors.As(err, &d) || d.Kind != KindSyntax {
			return
		}
		check := func(what string, line, col int, source string) {
			if line < 1 || col < 1 || (source != "" && col > len([]rune(source))+1) {
				t.Fatalf("%s at %d:%d outside its line %q\n%s", what, line, col, source, d.Render())
			}
		}
		check("the error", d.Line, d.Column, d.Source)
		for _, n := range d.Notes {
			check("a note", n.Line, n.Column, n.Source)
		}
	})
}
