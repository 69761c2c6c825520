package runtime

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A name declared in two modules is one diagnostic pointing at both declarations: the error
// at the second, a note with its own line and caret at the first. The rendered text and the
// JSON form (which the worker process sends back) both carry the note, in process and through
// a worker alike.
func TestDiagnosticNotes(t *testing.T) {
	t.Parallel()
	src := MapSource{
		MainModule: "import {W} from 'a'\n\tclass SIZE {}\n",
		"a":        "// sizes\nexport const W = 1, SIZE = 2\n",
	}
	wantText := "scene.code.js:2:8: SyntaxError: 'SIZE' is declared in both modules/a.js:2 and scene.code.js:2\n" +
		"    2 | \tclass SIZE {}\n" +
		"        \t      ^\n" +
		"modules/a.js:2:21: note: 'SIZE' is first declared here\n" +
		"    2 | export const W = 1, SIZE = 2\n" +
		"                            ^\n" +
		"hint: all modules share one scope: rename one, or declare it once and import that module\n"
	wantJSON := `{"file":"scene.code.js","line":2,"column":8,"kind":"SyntaxError",` +
		`"message":"'SIZE' is declared in both modules/a.js:2 and scene.code.js:2","source":"\tclass SIZE {}",` +
		`"hint":"all modules share one scope: rename one, or declare it once and import that module",` +
		`"notes":[{"file":"modules/a.js","line":2,"column":21,"message":"'SIZE' is first declared here","source":"export const W = 1, SIZE = 2"}]}`
	p := newTestPool(t, 0)
	for _, via := range []struct {
		name string
		run  func(context.Context, Source, string, Options) (*Result, error)
	}{{"in process", Run}, {"worker", p.Run}} {
		_, err := via.run(context.Background(), src, MainModule, Options{})
		d, ok := err.(*Diagnostic)
		if !ok {
			t.Fatalf("%s: want a *Diagnostic, got %T %v", via.name, err, err)
		}
		if diff := cmp.Diff(wantText, d.Render()); diff != "" {
			t.Errorf("%s: text mismatch (-want +got):\n%s", via.name, diff)
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantJSON, string(b)); diff != "" {
			t.Errorf("%s: JSON mismatch (-want +got):\n%s", via.name, diff)
		}
	}
}

// Notes render in order, each after the one before, between the source line and the hint; a
// note without a source line is its location and message alone.
func TestRenderNotes(t *testing.T) {
	t.Parallel()
	d := &Diagnostic{File: "scene.code.js", Line: 3, Column: 1, Kind: KindModule, Message: "m", Source: "x()",
		Notes: []Note{
			{File: "modules/a.js", Line: 1, Column: 5, Message: "first", Source: "let x"},
			{File: "modules/b.js", Line: 9, Column: 2, Message: "second"},
		}, Hint: "h"}
	want := "scene.code.js:3:1: ModuleError: m\n" +
		"    3 | x()\n" +
		"        ^\n" +
		"modules/a.js:1:5: note: first\n" +
		"    1 | let x\n" +
		"            ^\n" +
		"modules/b.js:9:2: note: second\n" +
		"hint: h\n"
	if diff := cmp.Diff(want, d.Render()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("scene.code.js:3:1: ModuleError: m", d.Error()); diff != "" {
		t.Errorf("one-line form mismatch (-want +got):\n%s", diff)
	}
}

// TestDiagnosticPlaceUnknown: a diagnostic whose line or column is not known (0) names the
// file, or the file and line, without printing the unknown part as 0.
func TestDiagnosticPlaceUnknown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    Diagnostic
		want string
	}{
		{Diagnostic{File: "scene.code.js", Kind: KindModule, Message: "scene.code.js does not exist"}, "scene.code.js: ModuleError: scene.code.js does not exist"},
		{Diagnostic{File: "m.js", Line: 3, Kind: "TypeError", Message: "x"}, "m.js:3: TypeError: x"},
		{Diagnostic{File: "m.js", Line: 3, Column: 5, Kind: "TypeError", Message: "x"}, "m.js:3:5: TypeError: x"},
		{Diagnostic{Kind: "Error", Message: "x"}, "Error: x"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("Error() = %q; want %q", got, c.want)
		}
	}
}
