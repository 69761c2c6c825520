package examples_test

import (
	"math"
	"testing"

	ex "github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
)

// minTextPixels is the smallest text size, in pixels (the em, about 1.4 times the height of a
// capital), that reads in a demo picture.
const minTextPixels = 11

// Every label of every example is legible in the PNG the demo renders: its size on screen is
// at least minTextPixels.
func TestExamplesAreLegible(t *testing.T) {
	t.Parallel()
	for _, dir := range examples(t) {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			res := runExample(t, dir, openExample(t, dir))
			view := render.FitView(res.Scene, render.DefaultMargin)
			perUnit := ex.DemoWidth / view.Size().X
			for _, e := range res.Scene.Walk() {
				txt, ok := e.Shape.(*scene.Text)
				if !ok {
					continue
				}
				px := txt.Size * math.Sqrt(math.Abs(res.Scene.WorldMatrix(e).Det())) * perUnit
				if px < minTextPixels {
					t.Errorf("%s: %q is %.1f px high in the demo's %d px wide picture; make it at least %d px", e.Name, txt.Text, px, ex.DemoWidth, minTextPixels)
				}
			}
		})
	}
}
