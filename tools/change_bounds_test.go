package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
)

// TestChangeBoundsRounded: a change's answer gives the scene's bounds as scene info does,
// without float noise (-7.9, not -7.8999999999999995).
func TestChangeBoundsRounded(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	got := write(t, s, "main", "drawCircle('gear1', 0, 0, 8.1)\ntranslate('gear1', 0.1, 0.2)\n")
	want := &ChangeResult{ChangeResult: &engine.ChangeResult{File: "main", Files: []string{"main"}, Created: true, Entities: 1, Added: []string{"gear1"}, Entry: got.Entry, Millis: got.Millis,
		Bounds: geom.Box{Min: geom.Vec{X: -8, Y: -7.9}, Max: geom.Vec{X: 8.2, Y: 8.3}, NonEmpty: true}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
