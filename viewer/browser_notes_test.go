package viewer

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// TestPageShowsDiagnosticNotes: the overlay shows a diagnostic's notes under its source line,
// each with its location, line and caret, as the terminal does.
func TestPageShowsDiagnosticNotes(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	v.Publish(State{Scene: circles(t, "a")})
	wait, eval, _ := page(t, ts.URL)
	wait("the scene", `document.body.dataset.version === '1'`)
	_, err := runtime.Run(context.Background(), runtime.MapSource{
		"main": "import 'a'\nconst SIZE = 3\n",
		"a":    "let W = 1; const SIZE = 2\n",
	}, "main", runtime.Options{})
	v.Publish(State{Diagnostic: DiagnosticOf(err)})
	wait("the overlay", `document.body.dataset.diagnostic === '1'`)
	want := "    2 | const SIZE = 3\n" +
		"              ^\n" +
		"modules/a.js:1:18: note: 'SIZE' is first declared here\n" +
		"    1 | let W = 1; const SIZE = 2\n" +
		"                         ^"
	if diff := cmp.Diff(want, eval(`document.getElementById('diag-src').textContent`)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
