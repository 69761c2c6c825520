package render

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestStrokeDashes: the writers' dash patterns are drafting.Dashes' for every linetype and for
// none, and a style without a linetype costs no allocation: the SVG writer asked
// drafting.Dashes for "" at every shape, which built an unknown-linetype error naming every
// linetype to answer nil (53,612 allocations for W1's 10,000 shapes, 27 after). Not
// parallel: AllocsPerRun counts the whole process's allocations.
func TestStrokeDashes(t *testing.T) {
	for _, name := range append([]string{"", "nosuch"}, drafting.LinetypeNames()...) {
		for _, scale := range []float64{0, 1, 2.5} {
			st := scene.Style{Linetype: name, LinetypeScale: scale}
			if got, want := strokeDashes(st), drafting.Dashes(name, scale); !slices.Equal(got, want) {
				t.Errorf("strokeDashes(%q, %v) = %v; want %v", name, scale, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(10, func() { strokeDashes(scene.Style{}) }); n != 0 {
		t.Errorf("strokeDashes of a style without a linetype: %v allocations; want 0", n)
	}
	// Per shape: a scene of 400 circles makes no more allocations than one of 100, but for
	// the output's growth.
	allocs := func(n int) float64 {
		s := scene.New()
		for i := range n {
			if _, err := s.Put(fmt.Sprintf("c%d", i), scene.Circle{Center: geom.Vec{X: float64(10 * i)}, Radius: 4}); err != nil {
				t.Fatal(err)
			}
		}
		return testing.AllocsPerRun(3, func() {
			if _, err := SVG(s, SVGOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if few, many := allocs(100), allocs(400); many-few > 20 {
		t.Errorf("SVG of 100 circles: %v allocations, of 400: %v; want at most 20 more", few, many)
	}
}
