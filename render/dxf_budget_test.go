package render

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDXFPointBudget writes scenes whose curves would make more polyline vertices than
// MaxDXFPoints: the DXF is refused naming the limit, counted as the vertices are made, before
// the file is built; the same scene at a sensible tolerance is written.
func TestDXFPointBudget(t *testing.T) {
	t.Parallel()
	ellipses := scene.New()
	for i := range 600 { // 600 × 4,097 vertices at 1e-9
		if _, err := ellipses.Put(fmt.Sprintf("e%d", i), scene.Ellipse{Center: geom.Vec{X: float64(i % 60 * 30), Y: float64(i / 60 * 30)}, RX: 12, RY: 8}); err != nil {
			t.Fatal(err)
		}
	}
	cusps := scene.New()
	if _, err := cusps.Put("w0", &scene.PathShape{Data: "M 0 0" + strings.Repeat(" c 0 350 0 -350 0 0", 1000)}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		s    *scene.Scene
		tol  float64
		ok   bool
	}{
		{"ellipses at 1e-9", ellipses, 1e-9, false},
		{"ellipses at the default", ellipses, 0, true},
		{"cusps at 1e-9", cusps, 1e-9, false},
		{"cusps at 1", cusps, 1, true},
	} {
		_, err := DXF(c.s, DXFOptions{Tolerance: c.tol})
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && (!errors.Is(err, ErrDXFPoints) || !strings.Contains(err.Error(), "(MaxDXFPoints)")):
			t.Errorf("%s: err = %v, want ErrDXFPoints naming MaxDXFPoints", c.name, err)
		}
	}
}
