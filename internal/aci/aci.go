// Package aci is the AutoCAD Color Index: the 255 colours a DXF file names by number, for the
// DXF writer (the nearest index to a colour) and the DXF importer (the colour of an index).
package aci

import (
	"math"
	"sync"
)

// RGB is the colour of index i (1-255) as the standard table gives it: 1-9 are named colours
// (7 is white, which a screen shows as white and paper prints as black); 10-249 run through 24
// hues in steps of 15°, each in five brightnesses at full and half saturation; 250-255 are
// greys. Out of range gives black.
func RGB(i int) [3]uint8 {
	if i < 1 || i > 255 {
		return [3]uint8{}
	}
	built.Do(build)
	return palette[i]
}

// The table is built on first use, not at start-up: cadrun's first initialiser must be the
// one that starts a worker (internal/prestart), which this package would otherwise precede.
var (
	built   sync.Once
	palette [256][3]uint8
)

func build() {
	p := &palette
	copy(p[1:10], [][3]uint8{
		{255, 0, 0}, {255, 255, 0}, {0, 255, 0}, {0, 255, 255}, {0, 0, 255}, {255, 0, 255},
		{255, 255, 255}, {128, 128, 128}, {192, 192, 192},
	})
	levels := [5]float64{255, 165, 127, 76, 38}
	for i := 10; i < 250; i++ {
		v := levels[(i-10)%10/2]
		lo := 0.0
		if i%2 == 1 {
			lo = math.Floor(v / 2)
		}
		p[i] = hsv(float64((i-10)/10)*15, v, lo)
	}
	for i, g := range [6]uint8{51, 91, 132, 173, 214, 255} {
		p[250+i] = [3]uint8{g, g, g}
	}
}

// hsv is the colour of hue (degrees) at value v with minimum channel lo (0-255).
func hsv(hue, v, lo float64) [3]uint8 {
	h := hue / 60
	f := h - math.Floor(h)
	up, down := lo+(v-lo)*f, v-(v-lo)*f
	var rgb [3]float64
	switch int(h) {
	case 0:
		rgb = [3]float64{v, up, lo}
	case 1:
		rgb = [3]float64{down, v, lo}
	case 2:
		rgb = [3]float64{lo, v, up}
	case 3:
		rgb = [3]float64{lo, down, v}
	case 4:
		rgb = [3]float64{up, lo, v}
	default:
		rgb = [3]float64{v, lo, down}
	}
	return [3]uint8{uint8(math.Floor(rgb[0])), uint8(math.Floor(rgb[1])), uint8(math.Floor(rgb[2]))}
}
