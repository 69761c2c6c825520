package dxf

import "github.com/cadrun/cadrun/internal/aci"

// ACI is the RGB colour of an AutoCAD Color Index (1-255). ACI 7 is white on a dark screen and
// black on paper; it is given as black, as it prints. Out of range gives black.
func ACI(i int) [3]uint8 {
	if i == 7 {
		return [3]uint8{}
	}
	return aci.RGB(i)
}
