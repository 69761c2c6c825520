package drafting

// A hatch pattern is defined as AutoCAD's acad.pat defines it, in families of parallel lines,
// so that the DXF writer hands a CAD program the same definition the pictures are drawn from.

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
)

// ErrBadHatch is returned for a hatch pattern name that is not in HatchPatterns.
var ErrBadHatch = errors.New("unknown hatch pattern")

// HatchLine is one family of parallel lines of a pattern, as a line of acad.pat gives it.
type HatchLine struct {
	// Angle is the lines' direction, in degrees counter-clockwise.
	Angle float64
	// Base is a point the first line passes through, where its dash pattern starts.
	Base geom.Vec
	// Offset is the step from one line to the next, in the lines' own frame: X along the
	// line (which shifts the dash pattern), Y across it (the spacing).
	Offset geom.Vec
	// Dashes are dash (> 0), gap (< 0) and dot (0) lengths, as in a linetype; empty: solid
	// lines.
	Dashes []float64
}

// HatchPattern is a named hatch.
type HatchPattern struct {
	Name string
	// Solid patterns fill the shape; the others draw their Lines.
	Solid bool
	Lines []HatchLine
	Doc   string
}

// HatchPatterns are the hatches a closed shape may have: acad.pat's definitions (given there
// in inches) times 25.4, which makes ANSI31's lines 3.175 apart, as AutoCAD draws them in a
// drawing in millimetres. A hatch's scale multiplies every length, its angle turns the
// pattern about the origin.
var HatchPatterns = []HatchPattern{
	{Name: "solid", Solid: true, Doc: "Solid fill"},
	{Name: "ansi31", Lines: []HatchLine{
		{Angle: 45, Offset: geom.Vec{X: 0, Y: 3.175}},
	}, Doc: "ANSI iron, brick, stone masonry: lines at 45°, 3.175 apart"},
	{Name: "ansi37", Lines: []HatchLine{
		{Angle: 45, Offset: geom.Vec{X: 0, Y: 3.175}},
		{Angle: 135, Offset: geom.Vec{X: 0, Y: 3.175}},
	}, Doc: "ANSI lead, zinc, insulation: lines at 45° and 135°, 3.175 apart"},
	{Name: "dots", Lines: []HatchLine{
		{Angle: 0, Offset: geom.Vec{X: 0.79375, Y: 1.5875}, Dashes: []float64{0, -1.5875}},
	}, Doc: "A grid of dots 1.5875 apart, each row shifted half a step"},
}

// HatchNames lists the pattern names, for messages and docs.
func HatchNames() []string {
	out := make([]string, len(HatchPatterns))
	for i, h := range HatchPatterns {
		out[i] = h.Name
	}
	return out
}

// LookupHatch returns the named pattern.
func LookupHatch(name string) (HatchPattern, error) {
	for _, h := range HatchPatterns {
		if h.Name == name {
			return h, nil
		}
	}
	return HatchPattern{}, fmt.Errorf("%w %q: use one of %s, or 'none' to remove it", ErrBadHatch, name, strings.Join(HatchNames(), ", "))
}

// Placed is the pattern's lines with a hatch's angle (radians) and scale (0 means 1)
// applied: each line turned by the angle and every length multiplied by the scale, as
// AutoCAD places a pattern (and as DXF stores it).
func (h HatchPattern) Placed(angle, scale float64) []HatchLine {
	if scale <= 0 {
		scale = 1
	}
	rot := geom.Rotation(angle)
	out := make([]HatchLine, len(h.Lines))
	for i, l := range h.Lines {
		d := make([]float64, len(l.Dashes))
		for k, v := range l.Dashes {
			d[k] = v * scale
		}
		out[i] = HatchLine{
			Angle:  l.Angle + angle*180/math.Pi,
			Base:   rot.Apply(l.Base).Mul(scale),
			Offset: l.Offset.Mul(scale),
			Dashes: d,
		}
	}
	return out
}
