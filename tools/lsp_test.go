package tools

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// lspFiles is the workspace the lsp tests look at.
var lspFiles = map[string]string{
	"scene.code.js": "import {House} from 'house_lib'\nnew House('h').draw()\n",
	"modules/house_lib.js": `import 'shapes'
import {slot as s, star} from 'shapes'
import * as pat from 'patterns'

export const WIDTH = 20, {a, b: [c]} = {a: 1, b: [2]}
let count = 0
var legacy

export class House extends Base {
  constructor(name, w = WIDTH, ...rest) { super(); this.name = name }
  draw({x, y} = {}) { count++ }
  static make() {}
  get area() { return 1 }
}

export function roof(name, pitch = 0.5) {
  return name
}
export {roof as gable}
export * from 'annotate'
`,
	"modules/broken.js":  "const ok = 1\nfunction f(a {\n  return a\n}\n",
	"modules/badscan.js": "const ok = 1\n  export = 3\n",
	"modules/deep.js":    strings.Repeat("(", 600) + "\n",
}

func TestLSP(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, lspFiles)
	names := func(fns []LSPFunction) []string {
		var out []string
		for _, f := range fns {
			out = append(out, f.Name)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		in    LSPIn
		err   string // the whole error text; "" means success
		check func(t *testing.T, out LSPOut)
	}{
		{name: "domains", in: LSPIn{Operation: "domains"}, check: func(t *testing.T, out LSPOut) {
			var gotDomains []string
			seen := map[string]bool{}
			for _, d := range out.Domains {
				gotDomains = append(gotDomains, d.Name)
				if d.Name == "console" || runtime.DomainAliases[d.Name] != nil {
					continue // checked in TestLSPConsoleAndAliases
				}
				for _, f := range d.Functions {
					fn, ok := runtime.Lookup(f.Name)
					if !ok || fn.Domain != d.Name || fn.Doc != f.Doc || fn.Replacement != "" || seen[f.Name] {
						t.Errorf("domain %s lists %+v: not a live function of it with its doc, or listed twice", d.Name, f)
					}
					seen[f.Name] = true
				}
			}
			// Every domain with a live function, in the table's order, console, then the aliases.
			var wantDomains []string
			for _, f := range runtime.API() {
				if f.Replacement == "" && (len(wantDomains) == 0 || wantDomains[len(wantDomains)-1] != f.Domain) {
					wantDomains = append(wantDomains, f.Domain)
				}
			}
			wantDomains = append(wantDomains, "console", "utility")
			if diff := cmp.Diff(wantDomains, gotDomains); diff != "" {
				t.Errorf("domains mismatch (-want +got):\n%s", diff)
			}
			for _, f := range runtime.API() {
				if f.Replacement == "" && !seen[f.Name] {
					t.Errorf("%s is not listed", f.Name)
				}
			}
		}},
		{name: "describe domain", in: LSPIn{Operation: "describe", Domain: "boolean"}, check: func(t *testing.T, out LSPOut) {
			var want []string
			for _, f := range runtime.API() {
				if f.Domain == "boolean" && f.Replacement == "" {
					want = append(want, f.Name)
				}
			}
			if diff := cmp.Diff(want, names(out.Functions)); diff != "" {
				t.Errorf("functions mismatch (-want +got):\n%s", diff)
			}
			for _, f := range out.Functions {
				if f.Doc == "" || f.Example == "" || len(f.Signatures) == 0 {
					t.Errorf("%s: missing doc, example or signature: %+v", f.Name, f)
				}
			}
		}},
		{name: "describe name", in: LSPIn{Operation: "describe", Name: "drawCircle"}, check: func(t *testing.T, out LSPOut) {
			want := []LSPFunction{{Name: "drawCircle", Domain: "primitives",
				Signatures: []string{"drawCircle(name: string, cx: number, cy: number, radius: number): boolean"},
				Doc:        "Draw a circle by centre and radius.", Example: "drawCircle('wheel', 0, 0, 10)"}}
			if diff := cmp.Diff(want, out.Functions); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		}},
		{name: "describe removed name", in: LSPIn{Operation: "describe", Name: "get_entity"}, check: func(t *testing.T, out LSPOut) {
			if len(out.Functions) != 1 || out.Functions[0].Replacement != "getEntity" {
				t.Errorf("got %+v, want get_entity with replacement getEntity", out.Functions)
			}
		}},
		{name: "describe unknown name", in: LSPIn{Operation: "describe", Name: "drawCirle"},
			err: `bad input: unknown API function "drawCirle"; did you mean drawCircle? (drawCircle(name: string, cx: number, cy: number, radius: number): boolean)`},
		{name: "describe far name", in: LSPIn{Operation: "describe", Name: "xyzzyplugh"},
			err: `bad input: unknown API function "xyzzyplugh"; lsp domains lists them`},
		{name: "describe unknown domain", in: LSPIn{Operation: "describe", Domain: "curves"},
			err: `bad input: unknown domain "curves"; the domains are ` + strings.Join(runtime.Domains, ", ")},
		{name: "describe nothing", in: LSPIn{Operation: "describe"},
			err: `bad input: describe needs domain (one of ` + strings.Join(runtime.Domains, ", ") + `, utility) or name`},
		{name: "describe both", in: LSPIn{Operation: "describe", Domain: "boolean", Name: "booleanUnion"},
			err: "bad input: describe takes domain or name, not both"},
		{name: "schema", in: LSPIn{Operation: "schema", Name: "drawRect"}, check: func(t *testing.T, out LSPOut) {
			want := &LSPSchema{Name: "drawRect", Domain: "primitives",
				Signature: "drawRect(name: string, cx: number, cy: number, width: number, height: number): boolean",
				Doc:       "Draw an axis-aligned rectangle by its centre, width and height.",
				Params: []LSPParam{
					{Name: "name", Type: "string", Doc: "unique entity name; an existing name is replaced in place"},
					{Name: "cx", Type: "number", Unit: "scene units", Doc: "centre x"},
					{Name: "cy", Type: "number", Unit: "scene units", Doc: "centre y"},
					{Name: "width", Type: "number", Unit: "scene units"},
					{Name: "height", Type: "number", Unit: "scene units"},
				},
				Returns: "boolean", Example: "drawRect('door', 0, 10, 8, 20)"}
			if diff := cmp.Diff(want, out.Schema); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		}},
		{name: "schema alternative", in: LSPIn{Operation: "schema", Name: "booleanUnion"}, check: func(t *testing.T, out LSPOut) {
			if got := out.Schema.AltSignature; got != "booleanUnion(names: string[], result: string): boolean" {
				t.Errorf("alt signature %q", got)
			}
			if len(out.Schema.AltParams) != 2 || out.Schema.AltParams[0].Name != "names" {
				t.Errorf("alt params %+v", out.Schema.AltParams)
			}
		}},
		{name: "schema default", in: LSPIn{Operation: "schema", Name: "translate"}, check: func(t *testing.T, out LSPOut) {
			last := out.Schema.Params[len(out.Schema.Params)-1]
			if !last.Optional || last.Default != "{space: 'world'}" {
				t.Errorf("last param %+v, want the optional options with its default", last)
			}
		}},
		{name: "schema removed", in: LSPIn{Operation: "schema", Name: "sortByIsoDepth"}, check: func(t *testing.T, out LSPOut) {
			if out.Schema.Replacement != "drawOrder" {
				t.Errorf("replacement %q, want drawOrder", out.Schema.Replacement)
			}
		}},
		{name: "schema no name", in: LSPIn{Operation: "schema"}, err: "bad input: schema needs name, an API function such as drawCircle"},
		{name: "schema unknown", in: LSPIn{Operation: "schema", Name: "booleanunion"},
			err: `bad input: unknown API function "booleanunion"; did you mean booleanUnion? (booleanUnion(a: string | string[], b: string | string[], result: string): boolean)`},
		{name: "symbols module", in: LSPIn{Operation: "symbols", File: "house_lib"}, check: func(t *testing.T, out LSPOut) {
			want := &LSPSymbols{File: "house_lib", Path: "modules/house_lib.js",
				Classes: []LSPClass{{Name: "House", Line: 9, Extends: "Base", Methods: []LSPMethod{
					{Name: "constructor", Line: 10, Params: []string{"name", "w = WIDTH", "...rest"}},
					{Name: "draw", Line: 11, Params: []string{"{x, y} = {}"}},
					{Name: "make", Line: 12, Static: true},
					{Name: "area", Line: 13, Kind: "get"},
				}}},
				Functions: []LSPFunc{{Name: "roof", Line: 16, Params: []string{"name", "pitch = 0.5"}}},
				Variables: []LSPVariable{
					{Name: "WIDTH", Line: 5, Kind: "const"}, {Name: "a", Line: 5, Kind: "const"}, {Name: "c", Line: 5, Kind: "const"},
					{Name: "count", Line: 6, Kind: "let"}, {Name: "legacy", Line: 7, Kind: "var"},
				},
				Imports: []LSPImport{
					{From: "shapes", Line: 1},
					{From: "shapes", Line: 2, Names: []string{"slot as s", "star"}},
					{From: "patterns", Line: 3, Names: []string{"* as pat"}},
				},
				Exports: []LSPExport{
					{Name: "WIDTH"}, {Name: "a"}, {Name: "c"}, {Name: "House"}, {Name: "roof"},
					{Name: "gable", Binding: "roof"}, {Name: "*", From: "annotate"},
				},
			}
			if diff := cmp.Diff(want, out.Symbols); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		}},
		{name: "symbols main", in: LSPIn{Operation: "symbols", File: "main"}, check: func(t *testing.T, out LSPOut) {
			want := &LSPSymbols{File: "main", Path: "scene.code.js", Imports: []LSPImport{{From: "house_lib", Line: 1, Names: []string{"House"}}}}
			if diff := cmp.Diff(want, out.Symbols); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		}},
		{name: "symbols built-in", in: LSPIn{Operation: "symbols", File: "shapes"}, check: func(t *testing.T, out LSPOut) {
			sym := out.Symbols
			if sym.Path != "builtin/shapes.js" {
				t.Errorf("path %q, want builtin/shapes.js", sym.Path)
			}
			var fns []string
			for _, f := range sym.Functions {
				fns = append(fns, f.Name)
			}
			for _, want := range []string{"regularPolygon", "star", "slot"} {
				if !strings.Contains(" "+strings.Join(fns, " ")+" ", " "+want+" ") {
					t.Errorf("functions %v lack %s", fns, want)
				}
			}
			if len(sym.Functions) == 0 || sym.Functions[0].Name != "regularPolygon" || strings.Join(sym.Functions[0].Params, ",") != "name,cx,cy,r,n" {
				t.Errorf("first function %+v, want regularPolygon(name, cx, cy, r, n)", sym.Functions[0])
			}
			if len(sym.Exports) == 0 {
				t.Error("no exports")
			}
		}},
		{name: "symbols syntax error", in: LSPIn{Operation: "symbols", File: "broken"},
			err: "modules/broken.js:2:11: SyntaxError: the ( opened at 2:11 is not closed\n    2 | function f(a {\n                  ^\n" +
				"modules/broken.js:2:14: note: the parser stopped here: Unexpected token {\n    2 | function f(a {\n                     ^\n" +
				"hint: add ) before \"{\" at 2:14"},
		{name: "symbols module syntax error", in: LSPIn{Operation: "symbols", File: "badscan"},
			err: "modules/badscan.js:2:10: SyntaxError: expected a declaration, \"{\", \"*\" or \"default\" after \"export\"\n    2 |   export = 3\n                 ^"},
		{name: "symbols too deep", in: LSPIn{Operation: "symbols", File: "deep"},
			err: "modules/deep.js:1:501: LimitError: brackets nested deeper than 500 (MaxNesting)"},
		{name: "symbols missing", in: LSPIn{Operation: "symbols", File: "nope"}, err: "modules/nope.js does not exist; the files are main, badscan, broken, deep, house_lib"},
		{name: "symbols bad name", in: LSPIn{Operation: "symbols", File: "../x"}, err: `bad module name: "../x"`},
		{name: "symbols no file", in: LSPIn{Operation: "symbols"}, err: "bad input: symbols needs file, 'main' or a module name"},
		{name: "unknown operation", in: LSPIn{Operation: "hover"}, err: `bad input: unknown lsp operation "hover"; use domains, describe, schema, symbols`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := call[LSPOut](t, s, "lsp", tc.in)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want one starting %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, out)
		})
	}
}

// TestMCPLSP calls every lsp operation over MCP: each answer must match the output schema
// the SDK inferred from LSPOut (a mismatch is a protocol error), and a failure is a result
// with IsError.
func TestMCPLSP(t *testing.T) {
	t.Parallel()
	cs := connectMCP(t, newMCP(t, lspFiles))
	for _, args := range []map[string]any{
		{"operation": "domains"},
		{"operation": "describe", "domain": "primitives"},
		{"operation": "describe", "name": "get_entity"},
		{"operation": "schema", "name": "booleanUnion"},
		{"operation": "symbols", "file": "house_lib"},
		{"operation": "symbols", "file": "shapes"},
		{"operation": "symbols", "file": "main"},
	} {
		if res := callMCP(t, cs, "lsp", args); res.IsError {
			t.Errorf("%v: %s", args, text(t, res))
		}
	}
	res := callMCP(t, cs, "lsp", map[string]any{"operation": "symbols", "file": "broken"})
	if got := text(t, res); !res.IsError || !strings.HasPrefix(got, "modules/broken.js:2:11: SyntaxError: the ( opened at 2:11 is not closed\n") {
		t.Errorf("symbols of a broken file: IsError %v, %q", res.IsError, got)
	}
	sym := structured[LSPOut](t, callMCP(t, cs, "lsp", map[string]any{"operation": "symbols", "file": "house_lib"}))
	if sym.Symbols == nil || len(sym.Symbols.Classes) != 1 || sym.Symbols.Classes[0].Name != "House" {
		t.Errorf("symbols over MCP: %+v", sym.Symbols)
	}
}

// FuzzLSPSymbols: any source gives symbols or an error, never a panic or a hang.
func FuzzLSPSymbols(f *testing.F) {
	for _, src := range lspFiles {
		f.Add(src)
	}
	f.Add("class A { [k]() {} static #p = 1; get x() {} }\nconst [a, ...{b}] = c\n")
	f.Add("export default class {}\nexport {a as 'b c'} from 'x'\n")
	f.Fuzz(func(t *testing.T, src string) {
		sym, err := fileSymbols("m", "modules/m.js", []byte(src))
		if err == nil && sym == nil {
			t.Fatal("no symbols and no error")
		}
	})
}
