package tools

import (
	"errors"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/tools/engine"
)

// negativeHatch is a HATCH whose polyline boundary declares -5 vertices (group 93): the
// importer panicked on it, and the server with it.
const negativeHatch = "0\nSECTION\n2\nENTITIES\n0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n71\n0\n91\n1\n92\n2\n72\n0\n73\n1\n93\n-5\n0\nENDSEC\n0\nEOF\n"

// TestImportFailureLeavesServerServing: a drawing the importer fails on is refused, not
// applied, and the server goes on serving: the conversion runs in a worker process of its own,
// so a panic or a limit passed ends that worker, not the server.
func TestImportFailureLeavesServerServing(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	_, err := call[*ImportOut](t, s, "import", map[string]any{"content": negativeHatch, "module": "m"})
	if !errors.Is(err, engine.ErrNotApplied) || !strings.HasPrefix(err.Error(), "importing the content given: ") {
		t.Fatalf("got %v, want the import refused and not applied", err)
	}
	if _, err := call[GlobOut](t, s, "glob", nil); err != nil {
		t.Errorf("glob after the refused import: %v", err)
	}
	out, err := call[*ImportOut](t, s, "import", map[string]any{"content": "0\nSECTION\n2\nENTITIES\n0\nCIRCLE\n10\n1\n20\n1\n40\n2\n0\nENDSEC\n0\nEOF\n", "module": "m"})
	if err != nil || out.Kinds["CIRCLE"] != 1 {
		t.Errorf("the import after the refused one: %v, %+v", err, out)
	}
}
