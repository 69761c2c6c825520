package esm

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// scanCase is one module source and what Scan makes of it. In want.Script, each source
// line is rewritten in place, so the two strings are written one under the other.
type scanCase struct {
	name string
	src  string
	want Module
	// notJS marks a source that is not valid JavaScript even once rewritten (goja reports
	// it), so the rewritten script is not parsed.
	notJS bool
}

var scanCases = []scanCase{
	// Imports, every form.
	{name: "side effect", src: "import 'house_lib'\nhouse()",
		want: Module{Script: ";                 \nhouse()",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "house_lib", Line: 1, Column: 8}}}},
	{name: "side effect with semicolon and double quotes", src: `import "house_lib";`,
		want: Module{Script: `;                  `,
			Imports: []Import{{Kind: ImportSideEffect, Spec: "house_lib", Line: 1, Column: 8}}}},
	{name: "named with alias", src: "import {a, b as c} from 'x';",
		want: Module{Script: ";                           ",
			Imports: []Import{{Kind: ImportNamed, Spec: "x", Line: 1, Column: 25,
				Bindings: []Binding{{Imported: "a", Local: "a"}, {Imported: "b", Local: "c"}}}}}},
	{name: "named empty and trailing comma", src: "import {} from 'x'\nimport {a,} from 'y'",
		want: Module{Script: ";                 \n;                   ",
			Imports: []Import{
				{Kind: ImportNamed, Spec: "x", Line: 1, Column: 16},
				{Kind: ImportNamed, Spec: "y", Line: 2, Column: 18, Bindings: []Binding{{Imported: "a", Local: "a"}}},
			}}},
	{name: "named keyword and string names", src: `import {default as d, if as i, "a b" as ab} from 'x'`,
		want: Module{Script: `;                                                   `,
			Imports: []Import{{Kind: ImportNamed, Spec: "x", Line: 1, Column: 50, Bindings: []Binding{
				{Imported: "default", Local: "d"}, {Imported: "if", Local: "i"}, {Imported: "a b", Local: "ab"}}}}}},
	{name: "namespace", src: "import * as h from 'house_lib'",
		want: Module{Script: ";                             ",
			Imports: []Import{{Kind: ImportNamespace, Spec: "house_lib", Line: 1, Column: 20,
				Bindings: []Binding{{Imported: "*", Local: "h"}}}}}},
	{name: "default", src: "import House from 'house_lib'",
		want: Module{Script: ";                            ",
			Imports: []Import{{Kind: ImportDefault, Spec: "house_lib", Line: 1, Column: 19,
				Bindings: []Binding{{Imported: "default", Local: "House"}}}}}},
	{name: "default and named", src: "import d, {a, b as c} from 'x'",
		want: Module{Script: ";                             ",
			Imports: []Import{{Kind: ImportDefault, Spec: "x", Line: 1, Column: 28, Bindings: []Binding{
				{Imported: "default", Local: "d"}, {Imported: "a", Local: "a"}, {Imported: "b", Local: "c"}}}}}},
	{name: "default and namespace", src: "import d, * as ns from 'x'",
		want: Module{Script: ";                         ",
			Imports: []Import{{Kind: ImportDefault, Spec: "x", Line: 1, Column: 24, Bindings: []Binding{
				{Imported: "default", Local: "d"}, {Imported: "*", Local: "ns"}}}}}},
	{name: "contextual words as names", src: "import from from 'from'\nimport {as as of} from 'as'",
		want: Module{Script: ";                      \n;                          ",
			Imports: []Import{
				{Kind: ImportDefault, Spec: "from", Line: 1, Column: 18, Bindings: []Binding{{Imported: "default", Local: "from"}}},
				{Kind: ImportNamed, Spec: "as", Line: 2, Column: 24, Bindings: []Binding{{Imported: "as", Local: "of"}}},
			}}},
	{name: "over several lines with comments", src: "import {\n  a, // first\n  b as c, /* second */\n} from 'x'\nf()",
		want: Module{Script: ";       \n             \n                      \n          \nf()",
			Imports: []Import{{Kind: ImportNamed, Spec: "x", Line: 4, Column: 8,
				Bindings: []Binding{{Imported: "a", Local: "a"}, {Imported: "b", Local: "c"}}}}}},
	{name: "semicolon on the next line is the statement's", src: "import 'x'\n;\nf()",
		want: Module{Script: ";         \n \nf()",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "x", Line: 1, Column: 8}}}},
	{name: "escapes in the specifier are decoded", src: `import 'a\x2db\u{63}\u0064'`,
		want: Module{Script: `;                          `,
			Imports: []Import{{Kind: ImportSideEffect, Spec: "a-bcd", Line: 1, Column: 8}}}},
	{name: "specifier is not validated", src: `import '../x y.js'`,
		want: Module{Script: `;                 `,
			Imports: []Import{{Kind: ImportSideEffect, Spec: "../x y.js", Line: 1, Column: 8}}}},
	{name: "CRLF line ends are kept", src: "import 'a'\r\nimport {b} from 'c'\r\nb()\r\n",
		want: Module{Script: ";         \r\n;                  \r\nb()\r\n",
			Imports: []Import{
				{Kind: ImportSideEffect, Spec: "a", Line: 1, Column: 8},
				{Kind: ImportNamed, Spec: "c", Line: 2, Column: 17, Bindings: []Binding{{Imported: "b", Local: "b"}}},
			}}},
	{name: "lone CR and U+2028 count as line breaks", src: "f()\rimport /*\u2028*/ 'a'\nimport 'b'",
		want: Module{Script: "f()\r;        \u2028      \n;         ",
			Imports: []Import{
				{Kind: ImportSideEffect, Spec: "a", Line: 3, Column: 4},
				{Kind: ImportSideEffect, Spec: "b", Line: 4, Column: 8},
			}}},
	{name: "multi-byte characters in a removed region become one space per byte",
		src: "/* é */ import {a} /* ñ — ✓ */ from 'x'; a()",
		want: Module{Script: "/* é */ ;                                     a()",
			Imports: []Import{{Kind: ImportNamed, Spec: "x", Line: 1, Column: 43, Bindings: []Binding{{Imported: "a", Local: "a"}}}}}},
	{name: "a removed import leaves a semicolon for ASI", src: "x = a\nimport 'b'\n[1].map(f)",
		want: Module{Script: "x = a\n;         \n[1].map(f)",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "b", Line: 2, Column: 8}}}},
	{name: "the import ends at its specifier, a regex may follow", src: "import 'a'\n/'/.test(s)",
		want: Module{Script: ";         \n/'/.test(s)",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "a", Line: 1, Column: 8}}}},
	{name: "assert on the next line is a call, not an attribute", src: "import 'a'\nassert(ok)",
		want: Module{Script: ";         \nassert(ok)",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "a", Line: 1, Column: 8}}}},
	{name: "import after a hashbang line", src: "#!/usr/bin/env cadrun\nimport 'a'", notJS: true,
		want: Module{Script: "#!/usr/bin/env cadrun\n;         ",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "a", Line: 2, Column: 8}}}},

	// Text that looks like an import and is not one.
	{name: "comments", src: "// import 'a'\n/* import 'b'\nexport const c = 1 */",
		want: Module{Script: "// import 'a'\n/* import 'b'\nexport const c = 1 */"}},
	{name: "strings", src: `s = 'it\'s import "a"'; t = "import \"b\"\\"`,
		want: Module{Script: `s = 'it\'s import "a"'; t = "import \"b\"\\"`}},
	{name: "templates with nested substitutions", src: "s = `import 'a' ${`b ${ \"}\" + '`' + `${ {c: '}'}.c }` } export`} d`\nimport 'e'",
		want: Module{Script: "s = `import 'a' ${`b ${ \"}\" + '`' + `${ {c: '}'}.c }` } export`} d`\n;         ",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "e", Line: 2, Column: 8}}}},
	{name: "regular expressions", src: "r = /import 'a'/g; q = /[/]export 'b'/; p = /\\/'/\nimport 'c'",
		want: Module{Script: "r = /import 'a'/g; q = /[/]export 'b'/; p = /\\/'/\n;         ",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "c", Line: 2, Column: 8}}}},
	{name: "division after identifier, number, ), ], }, this, ++",
		src: "a = b / 2, c = \"/\"; d = (e) / 2, f = \"/\"; g = h[0] / 2, i = \"/\"\n" +
			"j = [{} / 2, \"/\"]; k = this / 2, l = \"/\"; m = n++ / 2, o = \"/\"; p = 1 / 2 / 3\nimport 'q'",
		want: Module{Script: "a = b / 2, c = \"/\"; d = (e) / 2, f = \"/\"; g = h[0] / 2, i = \"/\"\n" +
			"j = [{} / 2, \"/\"]; k = this / 2, l = \"/\"; m = n++ / 2, o = \"/\"; p = 1 / 2 / 3\n;         ",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "q", Line: 3, Column: 8}}}},
	{name: "regex after if (...), a block, return, typeof and =>",
		src: "if (x) /'/.test(y)\nfunction f() { return /'/ }\n{}\n/'/.test(z)\nt = typeof /'/; g = () => /'/\nimport 'q'",
		want: Module{Script: "if (x) /'/.test(y)\nfunction f() { return /'/ }\n{}\n/'/.test(z)\nt = typeof /'/; g = () => /'/\n;         ",
			Imports: []Import{{Kind: ImportSideEffect, Spec: "q", Line: 6, Column: 8}}}},
	{name: "property names", src: "a.import = b.export; c?.import(d); e = {import: 1, export: 2}",
		want: Module{Script: "a.import = b.export; c?.import(d); e = {import: 1, export: 2}"}},
	{name: "a method named import", src: "o = { import(x) { return x } }; class C { static import() {} }",
		want: Module{Script: "o = { import(x) { return x } }; class C { static import() {} }"}},
	{name: "import and export below the top level are left to goja", notJS: true,
		src:  "{ import 'a' }\nfunction f() { export const b = 1 }",
		want: Module{Script: "{ import 'a' }\nfunction f() { export const b = 1 }"}},

	// Exports of declarations.
	{name: "const, let, var", src: "export const a = 1\nexport let b\nexport var c = 3;",
		want: Module{Script: "       const a = 1\n       let b\n       var c = 3;",
			Exports: []Export{{Local: "a", Exported: "a"}, {Local: "b", Exported: "b"}, {Local: "c", Exported: "c"}}}},
	{name: "several declarators with commas inside initializers",
		src: "export let a = f(1, 2), b = {c: 1, d: [2, 3]}, e = (x, y) => x + y, g, h = `${1, 2}`",
		want: Module{Script: "       let a = f(1, 2), b = {c: 1, d: [2, 3]}, e = (x, y) => x + y, g, h = `${1, 2}`",
			Exports: []Export{{Local: "a", Exported: "a"}, {Local: "b", Exported: "b"}, {Local: "e", Exported: "e"},
				{Local: "g", Exported: "g"}, {Local: "h", Exported: "h"}}}},
	{name: "destructuring patterns export every name",
		src: "export const {a, b: {c}, d = 1, 'e': f, [g]: h, ...i} = o, [j, , k = m(1, 2), [l], ...n] = p",
		want: Module{Script: "       const {a, b: {c}, d = 1, 'e': f, [g]: h, ...i} = o, [j, , k = m(1, 2), [l], ...n] = p",
			Exports: []Export{{Local: "a", Exported: "a"}, {Local: "c", Exported: "c"}, {Local: "d", Exported: "d"},
				{Local: "f", Exported: "f"}, {Local: "h", Exported: "h"}, {Local: "i", Exported: "i"},
				{Local: "j", Exported: "j"}, {Local: "k", Exported: "k"}, {Local: "l", Exported: "l"}, {Local: "n", Exported: "n"}}}},
	{name: "a declaration ends where ASI ends it", src: "export const a = 1\nconst b = 2, c = 3\nexport const f = function () {}\nlet x, y",
		want: Module{Script: "       const a = 1\nconst b = 2, c = 3\n       const f = function () {}\nlet x, y",
			Exports: []Export{{Local: "a", Exported: "a"}, {Local: "f", Exported: "f"}}}},
	{name: "a declaration continued on the next line", src: "export const a = b\n  + c, d = e\n  ? 1\n  : 2",
		want: Module{Script: "       const a = b\n  + c, d = e\n  ? 1\n  : 2",
			Exports: []Export{{Local: "a", Exported: "a"}, {Local: "d", Exported: "d"}}}},
	{name: "functions and classes",
		src: "export function f() {}\nexport function* g() {}\nexport async function h() {}\nexport class C extends B {}",
		want: Module{Script: "       function f() {}\n       function* g() {}\n       async function h() {}\n       class C extends B {}",
			Exports: []Export{{Local: "f", Exported: "f"}, {Local: "g", Exported: "g"}, {Local: "h", Exported: "h"}, {Local: "C", Exported: "C"}}}},

	// Export lists.
	{name: "export list with aliases", src: `export {a, b as c, d as default, e as "e f"};`,
		want: Module{Script: `;                                            `,
			Exports: []Export{{Local: "a", Exported: "a"}, {Local: "b", Exported: "c"},
				{Local: "d", Exported: "default"}, {Local: "e", Exported: "e f"}}}},
	{name: "export list then ASI", src: "export {a}\n[1].map(f)",
		want: Module{Script: ";         \n[1].map(f)", Exports: []Export{{Local: "a", Exported: "a"}}}},

	// Default exports.
	{name: "default expression", src: "export default 42",
		want: Module{Script: "__default__=   42", DefaultExport: true}},
	{name: "default object literal", src: "export default {a: 1} / 2",
		want: Module{Script: "__default__=   {a: 1} / 2", DefaultExport: true}},
	{name: "default regex", src: "export default /'/",
		want: Module{Script: "__default__=   /'/", DefaultExport: true}},
	{name: "default with a comment between the words", src: "export /* c */ default 1",
		want: Module{Script: "__default__=           1", DefaultExport: true}},
	{name: "default on the next line", src: "export default\n  (a, b)",
		want: Module{Script: "__default__=  \n  (a, b)", DefaultExport: true}},
	{name: "default anonymous function", src: "export default function (a) { return a }\nf()",
		want: Module{Script: "__default__=   function (a) { return a }\nf()", DefaultExport: true}},
	{name: "default anonymous async generator and arrow", src: "export default async function* () {}",
		want: Module{Script: "__default__=   async function* () {}", DefaultExport: true}},
	{name: "default async arrow", src: "export default async (x) => x",
		want: Module{Script: "__default__=   async (x) => x", DefaultExport: true}},
	{name: "default anonymous class", src: "export default class extends B { m() {} };",
		want: Module{Script: "__default__=   class extends B { m() {} };", DefaultExport: true}},
	{name: "default named function stays a declaration", src: "export default function draw() {}\n(f)()",
		want: Module{Script: "               function draw() {}\n(f)()",
			Exports: []Export{{Local: "draw", Exported: "default"}}}},
	{name: "default named class stays a declaration", src: "export default class House {}",
		want: Module{Script: "               class House {}",
			Exports: []Export{{Local: "House", Exported: "default"}}}},

	// Re-exports.
	{name: "re-exports", src: "export * from 'a'\nexport * as ns from 'b';\nexport {c, d as e, default, default as f, \"g h\" as i} from 'c'",
		want: Module{Script: ";                \n;                       \n;                                                             ",
			ReExports: []ReExport{
				{Spec: "a", Star: true, Line: 1, Column: 15},
				{Spec: "b", Bindings: []Binding{{Imported: "*", Local: "ns"}}, Line: 2, Column: 21},
				{Spec: "c", Line: 3, Column: 60, Bindings: []Binding{{Imported: "c", Local: "c"}, {Imported: "d", Local: "e"},
					{Imported: "default", Local: "default"}, {Imported: "default", Local: "f"}, {Imported: "g h", Local: "i"}}},
			}}},

	// A whole module.
	{name: "a module using everything",
		src: "import 'base'; import {wall as w} from 'walls'\n" +
			"// import 'nothing'\n" +
			"export const size = 10 // m\n" +
			"export function house(x) { return w(x, `${size}`) }\n" +
			"export default house\n" +
			"export {size as default2}\n",
		want: Module{Script: ";              ;                              \n" +
			"// import 'nothing'\n" +
			"       const size = 10 // m\n" +
			"       function house(x) { return w(x, `${size}`) }\n" +
			"__default__=   house\n" +
			";                        \n",
			Imports: []Import{
				{Kind: ImportSideEffect, Spec: "base", Line: 1, Column: 8},
				{Kind: ImportNamed, Spec: "walls", Line: 1, Column: 40, Bindings: []Binding{{Imported: "wall", Local: "w"}}},
			},
			Exports: []Export{{Local: "size", Exported: "size"}, {Local: "house", Exported: "house"},
				{Local: "size", Exported: "default2"}},
			DefaultExport: true}},
	{name: "no module syntax", src: "drawCircle(0, 0, 1)\n",
		want: Module{Script: "drawCircle(0, 0, 1)\n"}},
	{name: "empty", src: "", want: Module{Script: ""}},
}

func TestScan(t *testing.T) {
	t.Parallel()
	for _, tc := range scanCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Scan(tc.src)
			if err != nil {
				t.Fatalf("Scan(%q): %v", tc.src, err)
			}
			checkSameShape(t, tc.src, got.Script)
			if diff := cmp.Diff(&tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Scan(%q) mismatch (-want +got):\n%s", tc.src, diff)
			}
			if !tc.notJS {
				if _, err := parser.ParseFile(nil, "m.js", got.Script, 0); err != nil {
					t.Errorf("the rewritten script does not parse: %v\n%s", err, got.Script)
				}
			}
		})
	}
}

// checkSameShape checks what every rewrite must keep: the length in bytes, every line
// terminator at its offset (and no new one), and every other byte either unchanged or
// replaced by a space, ";" or part of the assignment to DefaultExportVar.
func checkSameShape(t *testing.T, src, script string) {
	t.Helper()
	if len(script) != len(src) {
		t.Fatalf("rewritten length %d, source length %d\nsource: %q\nscript: %q", len(script), len(src), src, script)
	}
	for i := 0; i < len(src); i++ {
		s, o := src[i], script[i]
		if (s == '\n') != (o == '\n') || (s == '\r') != (o == '\r') {
			t.Fatalf("line break changed at byte %d\nsource: %q\nscript: %q", i, src, script)
		}
		if isLineSep(src, i) && script[i:i+3] != src[i:i+3] {
			t.Fatalf("U+2028/U+2029 changed at byte %d\nsource: %q\nscript: %q", i, src, script)
		}
		if isLineSep(script, i) && !isLineSep(src, i) {
			t.Fatalf("new U+2028/U+2029 at byte %d\nsource: %q\nscript: %q", i, src, script)
		}
		if s != o && o != ' ' && o != ';' && o != '=' && strings.IndexByte(DefaultExportVar, o) < 0 {
			t.Fatalf("byte %d changed from %q to %q\nsource: %q\nscript: %q", i, s, o, src, script)
		}
	}
	if utf8.ValidString(src) && !utf8.ValidString(script) {
		t.Fatalf("rewriting made invalid UTF-8\nsource: %q\nscript: %q", src, script)
	}
}

var scanErrorCases = []struct {
	name, src, want string
}{
	// Malformed imports.
	{"import at the end", "import", `1:7: expected a module name string, a binding name, "{" or "*" after "import"`},
	{"import of a number", "import 1", `1:8: expected a module name string, a binding name, "{" or "*" after "import"`},
	{"missing from", "import {a} 'x'", `1:12: expected "from" after import bindings`},
	{"missing from after default", "import a\nf()", `2:1: expected "from" after import bindings`},
	{"specifier not a string", "import {a} from x", `1:17: expected a module name string after "from"`},
	{"specifier is a template", "import {a} from `x`", `1:17: expected a module name string after "from"`},
	{"unclosed import list", "import {a from 'x'", `1:11: expected "," or "}" in import list`},
	{"bad name in import list", "import {a, 1} from 'x'", `1:12: expected a name or "}" in import list`},
	{"namespace without as", "import * from 'x'", `1:10: expected "as" after "*"`},
	{"namespace without name", "import * as 'x'", `1:13: expected a local name after "as"`},
	{"alias without name", "import {a as} from 'x'", `1:13: expected a local name after "as"`},
	{"string name without as", `import {"a b"} from 'x'`, `1:14: expected "as" after a string name in import list`},
	{"reserved word shorthand", "import {default} from 'x'", `1:9: "default" is a reserved word and cannot name a local binding; rename it with "as"`},
	{"reserved word alias", "import {a as if} from 'x'", `1:14: "if" is a reserved word and cannot name a local binding`},
	{"reserved default binding", "import class from 'x'", `1:8: "class" is a reserved word and cannot name a local binding`},
	{"bad token after default and comma", "import a, b from 'x'", `1:11: expected "{" or "*" after "," in import`},
	{"duplicate import binding", "import {a} from 'x'\nimport {b as a} from 'y'", `2:14: duplicate import binding "a"`},
	{"escaped identifier", `import {\u0061} from 'x'`, `1:9: escaped identifiers are not supported in import and export statements`},
	{"invalid escape in specifier", `import 'a\x4'`, `1:8: invalid escape sequence in string`},
	{"octal escape in specifier", `import 'a\1'`, `1:8: invalid escape sequence in string`},
	{"import attributes with", "import data from 'd' with {type: 'json'}", `1:22: import attributes ("with {...}") are not supported`},
	{"import attributes assert", "import 'd' assert {type: 'json'}", `1:12: import attributes ("assert {...}") are not supported`},
	{"re-export attributes", "export * from 'd' with {type: 'json'}", `1:19: import attributes ("with {...}") are not supported`},
	{"code after an import on the same line", "import 'a' f()", `1:12: expected ";" or a line break after the import statement`},
	{"code after an export list on the same line", "export {a} f()", `1:12: expected ";" or a line break after the export statement`},

	// Unsupported in the sandbox, anywhere.
	{"dynamic import at the top level", "import('x').then(f)", `1:1: dynamic import() is not supported; use a static import at the top level`},
	{"dynamic import in an expression", "const m = await import('x')", `1:17: dynamic import() is not supported; use a static import at the top level`},
	{"dynamic import in a function", "function f() {\n  return import('x')\n}", `2:10: dynamic import() is not supported; use a static import at the top level`},
	{"dynamic import in a block", "{ import('x') }", `1:3: dynamic import() is not supported; use a static import at the top level`},
	{"dynamic import in an export initializer", "export const m = import('x')", `1:18: dynamic import() is not supported; use a static import at the top level`},
	{"import.meta", "const u = import.meta.url", `1:11: import.meta is not supported in the sandbox`},
	{"import.meta in a function", "f(() => import.meta)", `1:9: import.meta is not supported in the sandbox`},

	// Malformed exports.
	{"export of a number", "export 1", `1:8: expected a declaration, "{", "*" or "default" after "export"`},
	{"export at the end", "export", `1:7: expected a declaration, "{", "*" or "default" after "export"`},
	{"export star without from", "export *;", `1:9: expected "as" or "from" after "export *"`},
	{"export star as without from", "export * as ns 'x'", `1:16: expected "from" after "export * as ns"`},
	{"re-export specifier not a string", "export {a} from b", `1:17: expected a module name string after "from"`},
	{"unclosed export list", "export {a b}", `1:11: expected "," or "}" in export list`},
	{"export list alias without name", "export {a as}", `1:13: expected a name after "as"`},
	{"export list string without from", `export {"a"}`, `1:9: expected "from" after an export list that names a string`},
	{"export list reserved local", "export {if}", `1:9: "if" is a reserved word and cannot name a local binding`},
	{"duplicate export", "export const a = 1\nexport {b as a}", `2:14: duplicate export "a"`},
	{"duplicate default export", "export default 1\nexport default 2", `2:8: duplicate export "default"`},
	{"duplicate default via list", "export default function f() {}\nexport {g as default}", `2:14: duplicate export "default"`},
	{"default without expression", "export default;", `1:15: expected an expression after "export default"`},
	{"default at the end", "export default", `1:15: expected an expression after "export default"`},
	{"default split over lines", "export\ndefault 1", `1:1: "export" and "default" must be on the same line`},
	{"anonymous default function continued on the next line", "export default function () {}\n(f)()",
		`2:1: add ";" before this token: the default-exported function or class above runs as an expression here, and this token would continue it`},
	{"anonymous default class continued by a template", "export default class {}\n`x`",
		`2:1: add ";" before this token: the default-exported function or class above runs as an expression here, and this token would continue it`},
	{"function without name", "export function () {}", `1:17: expected a function name after "function"`},
	{"async without function", "export async f() {}", `1:14: expected "function" after "async"`},
	{"class without name", "export class {}", `1:14: expected a class name after "class"`},
	{"const without binding", "export const", `1:13: expected a binding name or pattern in "const" declaration`},
	{"const with reserved name", "export const new = 1", `1:14: "new" is a reserved word and cannot name a local binding`},
	{"object pattern without comma", "export const {a b} = o", `1:17: expected "," or "}" in destructuring pattern`},
	{"object pattern string key without colon", "export const {'a'} = o", `1:18: expected ":" after a property name in destructuring pattern`},
	{"array pattern without comma", "export let [a b] = o", `1:15: expected "," or "]" in destructuring pattern`},
	{"pattern nested too deeply", "export let " + strings.Repeat("[", 300), `1:269: destructuring pattern nested too deeply`},

	// Unterminated tokens, reported where they start.
	{"unterminated string", "f()\nx = 'abc", `2:5: unterminated string literal`},
	{"string broken by a line", "x = \"abc\ny\"", `1:5: unterminated string literal`},
	{"unterminated comment", "f()\n  /* abc\n", `2:3: unterminated comment`},
	{"unterminated template", "x = `abc\n", `1:5: unterminated template literal`},
	{"unterminated template substitution", "x = `a ${ b", `1:5: unterminated template literal`},
	{"unterminated nested template", "x = `a ${ `b ${ c` }", `1:18: unterminated template literal`},
	{"unterminated regex", "x = /abc\n/", `1:5: unterminated regular expression literal`},
	{"unterminated regex at the end", "x = /[/]", `1:5: unterminated regular expression literal`},
	{"lexer error wins over the parser's", "import {a} from 'x", `1:17: unterminated string literal`},
	{"column counts bytes", "/* é */ import {a} frm 'x'", `1:21: expected "from" after import bindings`},
	{"line after CRLF", "f()\r\nimport {a} frm 'x'", `2:12: expected "from" after import bindings`},
}

func TestScanErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range scanErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := Scan(tc.src)
			if err == nil {
				t.Fatalf("Scan(%q) = %+v, want error %q", tc.src, m, tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("Scan(%q) error mismatch (-want +got):\n%s", tc.src, diff)
			}
			var se *Error
			if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
				t.Errorf("error %v (%T) is not a *Error wrapping ErrSyntax", err, err)
			}
		})
	}
}

// TestScriptRunsInGoja runs rewritten modules the way the loader does, in one realm, and
// checks that the values arrive and that goja's error positions are the source's.
func TestScriptRunsInGoja(t *testing.T) {
	t.Parallel()
	lib := "export const size = 2\nexport default function () { return size * 21 }\n"
	main := "import make from 'lib'; import {size} from 'lib'\n" +
		"// ünïcödé before the error, on its own line\n" +
		"export const answer = __default__() // the loader would bind make\n" +
		"  ; null.boom\n"
	vm := goja.New()
	for _, src := range []string{lib, main} {
		m, err := Scan(src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = vm.RunScript("m.js", m.Script)
		if src == lib {
			if err != nil {
				t.Fatalf("running the library: %v", err)
			}
			continue
		}
		var ex *goja.Exception
		if !errors.As(err, &ex) {
			t.Fatalf("running main: got %v, want a TypeError", err)
		}
		// Line 4 of the source is "  ; null.boom": goja points at "boom".
		pos := ex.Stack()[0].Position()
		if diff := cmp.Diff("4:10", fmt.Sprintf("%d:%d", pos.Line, pos.Column)); diff != "" {
			t.Errorf("error position mismatch (-want +got):\n%s", diff)
		}
	}
	if got := vm.Get("answer").ToInteger(); got != 42 {
		t.Errorf("answer = %d, want 42", got)
	}
}

func FuzzScan(f *testing.F) {
	for _, tc := range scanCases {
		f.Add(tc.src)
	}
	for _, tc := range scanErrorCases {
		f.Add(tc.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Scan(src)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || !errors.Is(err, ErrSyntax) {
				t.Fatalf("error %v (%T) is not a *Error wrapping ErrSyntax", err, err)
			}
			if se.Line < 1 || se.Column < 1 {
				t.Fatalf("error position %d:%d is not 1-based", se.Line, se.Column)
			}
			return
		}
		checkSameShape(t, src, m.Script)
		// The rewritten script holds no module syntax, and the lexer reads it the same way.
		again, err := Scan(m.Script)
		if err != nil {
			t.Fatalf("rescanning the rewritten script: %v\nsource: %q\nscript: %q", err, src, m.Script)
		}
		// Compared by hand: cmp.Diff on every input would slow the fuzzer tenfold.
		if again.Script != m.Script || len(again.Imports)+len(again.Exports)+len(again.ReExports) > 0 || again.DefaultExport {
			t.Fatalf("rescanning the rewritten script found %+v\nsource: %q", again, src)
		}
	})
}

// benchModule is a generated module of about 100 KB, in the style of a CAD library.
func benchModule() string {
	var b strings.Builder
	b.WriteString("import 'base'\nimport {wall, door as d} from 'walls'\nimport * as geo from 'geo'\n\n")
	for i := 0; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, `// House %d: walls, a door and a roof. import 'nothing' here.
export function house%d(x, y, opts = {}) {
	const w = opts.width ?? %d / 2, h = (opts.height || 3) * 1.5
	/* the label is a template: ${ "}" } */
	const label = `+"`house ${x}/${y} ${ opts.name ? `(${opts.name})` : '' }`"+`
	if (/^[a-z]+\/\d$/i.test(label)) drawText(label, x, y)
	for (let i = 0; i < 4; i++) wall(x + i * w, y, "brick", 'it\'s')
	return geo.rect(x, y, w, h) // done
}
export const roof%d = {pitch: 30, tiles: [1, 2, 3].map(t => t / 2)}

`, i, i, i, i)
	}
	b.WriteString("export default house0\n")
	return b.String()
}

func BenchmarkScan(b *testing.B) {
	src := benchModule()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan(src); err != nil {
			b.Fatal(err)
		}
	}
}
