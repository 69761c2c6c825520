package scene

import (
	"slices"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// TestTextOutlineCopiedOnce holds a text's outline and bounds, now built in one copy of its
// layout, to what copying it twice gave, bit for bit, under the maps a scene puts on it.
func TestTextOutlineCopiedOnce(t *testing.T) {
	t.Parallel()
	tx := &Text{Text: "Ø20 H7\nR5", Size: 3.5, Pos: geom.Vec{X: 12.25, Y: -7}, Align: text.AlignCenter}
	if err := tx.validate(); err != nil {
		t.Fatal(err)
	}
	twice := tx.layout.Path.Transform(geom.Translation(tx.Pos))
	if got := tx.Outline(); !slices.Equal(got, twice) {
		t.Errorf("the outline differs from the layout moved to its place")
	}
	for _, m := range []geom.Affine{geom.Identity, geom.Rotation(0.3), geom.Scaling(-2, 0.5).Mul(geom.Translation(geom.Vec{X: 1e6, Y: 3}))} {
		if got, want := shapeBounds(tx, m), twice.Transform(m).Bounds(); got != want {
			t.Errorf("bounds under %v: %+v, want %+v", m, got, want)
		}
	}
}
