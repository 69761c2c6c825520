package runtime

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Symbols lists a file's declarations, imports (resolved as a run resolves them) and exports
// as plain values; tools' lsp answers are converted from them (see tools/lsp_test.go).
func TestSymbols(t *testing.T) {
	t.Parallel()
	src := "import Gear, {TEETH as N} from './gear_lib.js'\n" +
		"export class Wheel extends Gear { static of(r, ...rest) {} get size() { return N } }\n" +
		"export const spin = (w, turns = 1) => w, [a, {b}] = [1, {b: 2}]\n" +
		"export * from 'axle'\n"
	got, err := Symbols("modules/wheel.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &FileSymbols{
		Classes: []ClassSymbol{{Name: "Wheel", Line: 2, Extends: "Gear", Methods: []MethodSymbol{
			{Name: "of", Line: 2, Params: []string{"r", "...rest"}, Static: true},
			{Name: "size", Line: 2, Kind: "get"},
		}}},
		Functions: []FuncSymbol{{Name: "spin", Line: 3, Params: []string{"w", "turns = 1"}}},
		Variables: []VarSymbol{{Name: "a", Line: 3, Kind: "const"}, {Name: "b", Line: 3, Kind: "const"}},
		Imports:   []ImportSymbol{{From: "gear_lib", Line: 1, Names: []string{"default as Gear", "TEETH as N"}}},
		Exports: []ExportSymbol{{Name: "Wheel"}, {Name: "spin"}, {Name: "a"}, {Name: "b"},
			{Name: "*", From: "axle"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// A syntax error is a *Diagnostic, rendered as a run renders it.
func TestSymbolsSyntaxError(t *testing.T) {
	t.Parallel()
	_, err := Symbols("modules/broken.js", []byte("const ok = 1\nfunction f(a {\n"))
	var d *Diagnostic
	if !errors.As(err, &d) {
		t.Fatalf("got %v (%T), want a *Diagnostic", err, err)
	}
	want := "modules/broken.js:2:11: SyntaxError: the ( opened at 2:11 is not closed\n" +
		"    2 | function f(a {\n" +
		"                  ^\n" +
		"modules/broken.js:2:14: note: the parser stopped here: Unexpected token {\n" +
		"    2 | function f(a {\n" +
		"                     ^\n" +
		"hint: add ) before \"{\" at 2:14\n"
	if diff := cmp.Diff(want, d.Render()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
