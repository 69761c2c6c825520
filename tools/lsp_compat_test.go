package tools

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// Names outside ASCII come back as written (goja keeps identifiers as UTF-16), and constants
// bound to arrow functions or function expressions are listed as functions with parameters.
func TestLSPSymbolsUnicodeAndArrowFunctions(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{
		"scene.code.js": "drawCircle('c', 0, 0, 1)\n",
		"modules/house.js": "class 집 { 짓기(높이) {} }\nconst 기본높이 = 50;\n" +
			"const add = (a, b = 2) => a + b, twice = function (x) { return 2 * x }\nlet noop = () => {}\nvar café = 1\n",
	})
	out, err := lspTool(context.Background(), s, LSPIn{Operation: "symbols", File: "house"})
	if err != nil {
		t.Fatal(err)
	}
	want := &LSPSymbols{File: "house", Path: "modules/house.js",
		Classes: []LSPClass{{Name: "집", Line: 1, Methods: []LSPMethod{{Name: "짓기", Line: 1, Params: []string{"높이"}}}}},
		Functions: []LSPFunc{
			{Name: "add", Line: 3, Params: []string{"a", "b = 2"}},
			{Name: "twice", Line: 3, Params: []string{"x"}},
			{Name: "noop", Line: 4},
		},
		Variables: []LSPVariable{{Name: "기본높이", Line: 2, Kind: "const"}, {Name: "café", Line: 5, Kind: "var"}},
	}
	if diff := cmp.Diff(want, out.Symbols); diff != "" {
		t.Errorf("symbols mismatch (-want +got):\n%s", diff)
	}
}

// lsp answers console's methods, and upstream's "utility" domain as an alias of duplicate
// and mirror.
func TestLSPConsoleAndAliases(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, map[string]string{"scene.code.js": ""})
	names := func(fns []LSPFunction) []string {
		var out []string
		for _, f := range fns {
			out = append(out, f.Name+" "+f.Domain)
		}
		return out
	}
	for _, tc := range []struct {
		domain string
		want   []string
	}{
		{"console", []string{"console.debug console", "console.error console", "console.info console", "console.log console", "console.warn console"}},
		{"utility", []string{"duplicate transforms", "mirror transforms"}},
	} {
		out, err := lspTool(context.Background(), s, LSPIn{Operation: "describe", Domain: tc.domain})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, names(out.Functions)); diff != "" {
			t.Errorf("describe %s mismatch (-want +got):\n%s", tc.domain, diff)
		}
		for _, f := range out.Functions {
			if f.Doc == "" || f.Example == "" || len(f.Signatures) != 1 {
				t.Errorf("%s: missing doc, example or signature: %+v", f.Name, f)
			}
		}
	}
	out, err := lspTool(context.Background(), s, LSPIn{Operation: "schema", Name: "console.log"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("console.log(...args?: unknown[]): void", out.Schema.Signature); diff != "" {
		t.Errorf("console.log signature mismatch (-want +got):\n%s", diff)
	}
	dom, err := lspTool(context.Background(), s, LSPIn{Operation: "domains"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dom.Domains {
		if d.Name == "utility" && (len(d.Functions) != 2 || d.Functions[0].Name != "duplicate") {
			t.Errorf("utility lists %+v; want duplicate and mirror", d.Functions)
		}
	}
}

// Every console method lsp documents exists on the console object of a run, and runs.
func TestConsoleMethodsAreBound(t *testing.T) {
	t.Parallel()
	for _, f := range runtime.Console() {
		res, err := runtime.Run(context.Background(), runtime.MapSource{runtime.MainModule: f.Example}, runtime.MainModule, runtime.Options{})
		if err != nil {
			t.Errorf("%s example: %v", f.Name, err)
			continue
		}
		if len(res.Logs) != 1 {
			t.Errorf("%s example logged %q; want one line", f.Name, res.Logs)
		}
	}
}
