package render

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// TestDXFFilletBulges checks that a filleted rectangle is written as one closed LWPOLYLINE
// whose corners are quarter circles: four bulges of tan(π/8), the straight sides 0.
func TestDXFFilletBulges(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "r", scene.Rect{Width: 30, Height: 20})
	_, err := s.Fillet("r", 4, scene.CornerOptions{})
	do(t, err)
	b, err := DXF(s, DXFOptions{Version: DXF2000})
	do(t, err)
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	polylines := 0
	var bulges []float64
	for i := 0; i+1 < len(lines); i += 2 {
		code, value := strings.TrimSpace(lines[i]), strings.TrimSpace(lines[i+1])
		switch {
		case code == "0" && value == "LWPOLYLINE":
			polylines++
		case code == "42" && polylines > 0:
			k, err := strconv.ParseFloat(value, 64)
			do(t, err)
			if k != 0 {
				bulges = append(bulges, k)
			}
		}
	}
	if polylines != 1 || len(bulges) != 4 {
		t.Fatalf("%d LWPOLYLINEs with bulges %v; want one with 4 arcs\n%s", polylines, bulges, b)
	}
	for _, k := range bulges {
		if want := math.Tan(math.Pi / 8); math.Abs(k-want) > 1e-9 {
			t.Errorf("bulge %v, want tan(π/8) = %v", k, want)
		}
	}
}
