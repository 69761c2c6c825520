package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLintInAnswers: a write's answer carries the drawing lint's findings, at most
// MaxLintListed and a line counting the rest, and scene lint lists them all; a boolean whose
// inputs are kept is one of them, as its run warning was.
func TestLintInAnswers(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	out := write(t, s, "main", "drawCircle('hole', 0, 0, 5)\ndrawText('label', 'Ø8', 7, 0, 3)")
	want := []string{`size-label: text "label" says Ø8, but the nearest circle "hole" measures Ø10 (at `}
	if len(out.Lint) != 1 || !strings.HasPrefix(out.Lint[0], want[0]) {
		t.Fatalf("write answer lint = %q, want one line starting %q", out.Lint, want[0])
	}
	got := mustCall[SceneOut](t, s, "scene", SceneIn{Command: "lint"})
	if diff := cmp.Diff(out.Lint, got.Lint); diff != "" {
		t.Errorf("scene lint mismatch (-write's +scene lint's):\n%s", diff)
	}

	code := "drawRect('blank', 0, 0, 40, 20); drawCircle('h', 0, 0, 3)\nbooleanDifference('blank', 'h', 'panel')\n"
	for i := range MaxLintListed + 2 {
		code += fmt.Sprintf("drawText('t%d', 'note', %d, 100, 1)\n", i, i*100)
	}
	out = write(t, s, "main", code)
	if len(out.Lint) != MaxLintListed+1 || out.Lint[MaxLintListed] != "and 3 more; scene lint lists all" {
		t.Fatalf("write answer lint = %q, want %d lines and a count of 3 more", out.Lint, MaxLintListed)
	}
	for _, w := range out.Warnings {
		if strings.Contains(w, "booleans keep their inputs") {
			t.Errorf("warning %q: kept inputs are the lint's now", w)
		}
	}
	got = mustCall[SceneOut](t, s, "scene", SceneIn{Command: "lint"})
	if len(got.Lint) != MaxLintListed+3 {
		t.Fatalf("scene lint = %q, want %d lines", got.Lint, MaxLintListed+3)
	}
	if last := got.Lint[len(got.Lint)-1]; !strings.HasPrefix(last, `boolean-inputs: booleans keep their inputs, as upstream's do: the inputs of "panel" (booleanDifference of "blank", "h")`) {
		t.Errorf("scene lint's last line = %q, want the kept inputs of panel", last)
	}
}

// TestCleanLint: scene lint on a scene the lint finds nothing in says so, over MCP as the
// whole text an agent reads, instead of answering {}.
func TestCleanLint(t *testing.T) {
	t.Parallel()
	srv := newMCP(t, map[string]string{"scene.code.js": "drawRect('plate', 0, 0, 40, 20)\ndrawCircle('hole', 0, 0, 3)\n"})
	c := connectMCP(t, srv)
	res := callMCP(t, c, "scene", map[string]any{"command": "lint"})
	want := `{"note":"clean: the drawing lint found nothing in the scene's 2 entities"}`
	if diff := cmp.Diff(want, text(t, res)); diff != "" || res.IsError {
		t.Errorf("error %v; mismatch (-want +got):\n%s", res.IsError, diff)
	}
}
