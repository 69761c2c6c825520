package drafting

// A linetype is one of a fixed set of dash patterns, the ones every CAD program ships, as in
// AutoCAD's acad.lin, so that a drawing's dashes mean what a reader of drawings expects and
// the DXF writer can hand a CAD program the same definition the pictures are drawn from.

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrBadLinetype is returned for a linetype name that is not in Linetypes.
var ErrBadLinetype = errors.New("unknown linetype")

// Linetype is a named dash pattern.
type Linetype struct {
	Name string
	// Pattern is the dash pattern at scale 1, in scene units: dashes (> 0) and gaps (< 0)
	// alternating from a dash, as DXF writes them; a dash of 0 is a dot. Empty: continuous.
	Pattern []float64
	Doc     string
}

// Linetypes are the linetypes a stroke may have: acad.lin's patterns (given there in inches)
// times 12, which makes a dashed line 6 on, 3 off, the size that reads on a drawing in
// millimetres at 1:1. A scale multiplies every length.
var Linetypes = []Linetype{
	{Name: "continuous", Doc: "Solid line"},
	{Name: "dashed", Pattern: []float64{6, -3}, Doc: "Dashed __ __ __"},
	{Name: "hidden", Pattern: []float64{3, -1.5}, Doc: "Hidden _ _ _ _"},
	{Name: "center", Pattern: []float64{15, -3, 3, -3}, Doc: "Center ____ _ ____ _"},
	{Name: "phantom", Pattern: []float64{15, -3, 3, -3, 3, -3}, Doc: "Phantom ____ _ _ ____"},
	{Name: "dot", Pattern: []float64{0, -3}, Doc: "Dot . . . ."},
}

// LinetypeNames lists the linetype names, for messages and docs.
func LinetypeNames() []string {
	out := make([]string, len(Linetypes))
	for i, lt := range Linetypes {
		out[i] = lt.Name
	}
	return out
}

// LookupLinetype returns the named linetype.
func LookupLinetype(name string) (Linetype, error) {
	if lt, ok := linetype(name); ok {
		return lt, nil
	}
	return Linetype{}, fmt.Errorf("%w %q: use one of %s", ErrBadLinetype, name, strings.Join(LinetypeNames(), ", "))
}

// linetype is the named linetype, without the error an unknown name gets from LookupLinetype.
func linetype(name string) (Linetype, bool) {
	for _, lt := range Linetypes {
		if lt.Name == name {
			return lt, true
		}
	}
	return Linetype{}, false
}

// Dashes is the dash pattern of a linetype at a scale as lengths without signs (dash, gap,
// dash, gap, ...), as SVG, PDF and the rasteriser take it; nil for a continuous line or an
// unknown name. It is asked once per drawn shape (writers, the dash budget, the scene
// tool's size estimate), mostly for "", so it builds no error and allocates nothing then.
func Dashes(name string, scale float64) []float64 {
	lt, ok := linetype(name)
	if !ok || len(lt.Pattern) == 0 {
		return nil
	}
	if scale <= 0 {
		scale = 1
	}
	out := make([]float64, len(lt.Pattern))
	for i, v := range lt.Pattern {
		out[i] = math.Abs(v) * scale
	}
	return out
}
